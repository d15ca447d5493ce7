"""Reading the last turn without a model: setting, reported failure, what was already said."""

import pytest

from procmem.answerers.turn import Turn, narrowed, setting_factor, settings_named, word_pairs
from procmem.retrieval.query import terms


def test_the_setting_comes_from_the_users_messages_only():
    turn = Turn("How do I print?", [("I use a MacBook at work and I'm the admin.",
                                      "On Windows you would open Settings.")])
    assert turn.setting == {"mac", "admin"}


def test_a_reported_failure_needs_an_earlier_turn():
    assert not Turn("It still doesn't work").reports_failure
    assert Turn("It still doesn't work", [("How?", "Restart it.")]).reports_failure
    assert not Turn("How do I add a second printer?", [("How?", "Restart it.")]).reports_failure


@pytest.mark.parametrize(("question", "failed"), [
    ("It keeps crashing after the update.", True),
    ("Both show MAPI Status OK, but she never appears in his Delegates group.", True),
    ("The test passes. What's next?", True),
    ("I keep location services off for privacy. How do I set the time myself?", False),
    ("Can I still see what time it is in London?", False),
    ("I tried it again and nothing changed.", True),
    ("The warning came back again after the restart.", True),
    ("How do I load it again on another machine?", False),
    ("I restarted it, but now it says the files couldn't be attached. What did I miss?", True),
    # what the user does not want is a wish, what does not happen a failure
    ("And sometimes I don't want any of the original text in my reply at all.", False),
    ("I do not really need the sidebar. How do I hide it?", False),
    ("I don't see the option anywhere.", True),
    # it worked, and the user goes on from there: what the last answer gave is done
    ("Done, it shows as Connected now. So how do I send the photos to it?", True),
    ("OK, she can send now. But her sent mail lands in her own folder.", True),
    ("Now the rest of the library shows a pile of sync errors.", True),
    ("That fixed the scope, but one library is missing.", True),
    ("How do I make it start now instead of at midnight?", False),
    ("Is it done automatically?", False),
])
def test_a_failure_or_a_question_for_what_is_next_is_told_from_a_wish(question, failed):
    assert Turn(question, [("How?", "Restart it.")]).reports_failure is failed


def test_already_said_compares_with_the_assistants_answers():
    turn = Turn("What next?", [("How do I install the driver?",
                                "Open Settings, select Printers and add the printer driver.")])
    assert turn.already_said("Select Printers and add the printer driver")
    assert not turn.already_said("Print a test page from the printer properties")
    assert not turn.already_said("Open Settings")  # too short to tell
    # the same words for another panel were not said
    turn = Turn("Can it wait longer?", [("How do I lock it?", "Open the Activities overview and start typing "
                                                               "Screen Lock. Click Screen Lock to open the panel.")])
    assert turn.already_said("Open the Activities overview and start typing Screen Lock.")
    assert not turn.already_said("Open the Activities overview and start typing Power.")


def test_user_said_compares_with_the_users_messages():
    history = [("PowerShell won't connect to the server. What should I check?",
                "Open IIS Manager and select Application Pools.")]
    turn = Turn("The app pool is running, I recycled it, and the event logs show nothing. What next?", history)
    assert turn.user_said("If the pool is running, try to recycle it.")
    assert not turn.user_said("Run WinRM QuickConfig and make sure both tests pass.")
    assert not turn.user_said("Recycle it.")  # too short to tell
    assert not turn.user_said("Open IIS Manager and select Application Pools.")  # the assistant's words
    # a first question establishes nothing yet
    assert not Turn("The app pool is running, I recycled it. What next?").user_said(
        "If the pool is running, try to recycle it.")


def test_word_pairs_are_content_words_written_next_to_each_other():
    assert word_pairs("Check that MAPI Status shows OK") == {("mapi", "status"), ("status", "show")}
    assert not word_pairs("Forwarding is not set on her mailbox")  # stop words in between


def test_the_user_reports_on_a_check_in_the_last_answers_words():
    history = [("She can't book meetings for her manager. Why?",
                "First make sure both clients reach the server: right-click the icon, select "
                "Configuration information, and check that MAPI Status shows MAPI Status Ok.")]
    turn = Turn("Both show MAPI Status OK, but she never appears in his Delegates group.", history)
    assert turn.reported_pairs == {("show", "mapi"), ("mapi", "status")}
    assert turn.reports_on("If the connection is valid, the MAPI Status area displays MAPI Status Ok.")
    # the words in another order, or only one of them, report on nothing
    assert not turn.reports_on("Look up the status of the MAPI connection.")
    assert not turn.reports_on("Open the Delegates group of the manager.")  # not in the last answer
    # what the user asks about, or already said before the last answer, is no report
    assert not Turn("What does MAPI Status OK mean?", history).reported_pairs
    assert ("mapi", "status") not in Turn("Both show MAPI Status OK now.", [
        ("Why does MAPI Status say unavailable?", history[0][1])]).reported_pairs
    # a first question, and one asked again, report on no earlier answer
    assert not Turn("Both show MAPI Status OK. Why?").reported_pairs
    assert not turn.asked_again().reported_pairs


def test_a_check_of_what_the_user_tells_of_already_is_reported_checked():
    history = [("The management shell won't open. What causes that?",
                "Usually the app pool isn't running, or WinRM is configured incorrectly.")]
    turn = Turn("The app pool is running, I recycled it, and the event logs show nothing. "
                "What should I check next?", history)
    assert turn.reports_checked("Then, check for errors or warnings in the event logs.")
    assert turn.reports_checked("Make sure that the app pool is running.")
    assert not turn.reports_checked("Clear the event logs.")  # no check
    assert not turn.reports_checked("Check that WinRM is configured correctly.")  # not told of
    # what the user asks, quotes (the error they got) or said in an earlier question is not told now
    assert not Turn("Should I look in the event logs?", history).reports_checked("Check the event logs.")
    assert not Turn("It still says 'check the event logs for details'.", history).reports_checked(
        "Check the event logs.")
    assert not Turn("The event logs show nothing.", [("The event logs are full. Why?", "Clear them.")]
                    ).reports_checked("Check the event logs.")
    assert not Turn("The event logs show nothing.").reports_checked("Check the event logs.")


def test_deployment_is_named_by_product_phrases_and_words():
    assert settings_named("Our mailboxes are in Exchange Online") == {"cloud"}
    assert settings_named("We still run Exchange Server 2016 on premises") == {"on-premises", "exchange@2016"}
    assert settings_named("The online meeting starts late") == set()  # "online" alone names nothing


def test_product_versions_are_settings_of_their_own_product():
    assert settings_named("We still run Exchange Server 2013 and 2016") >= {"exchange@2013", "exchange@2016"}
    assert settings_named("Applies to: Outlook 2016, Outlook 2019") == {"outlook@2016", "outlook@2019"}
    assert settings_named("Every Office 365 user") == {"cloud"}  # 365 is a name, not a version
    assert settings_named("my iPhone on iOS 17.2") == {"ios", "ios@17.2"}


def test_numbered_variants_written_as_one_word_are_settings():
    assert settings_named("How do I set up a DHCPv4 pool?") == {"dhcp@4"}
    assert settings_named("IPv4 and IPv6 addresses") == {"ip@4", "ip@6"}
    assert settings_named("GTK3 themes on SP1") == {"gtk@3", "sp@1"}
    # an example's name, three digits or a leading zero name no variant: a user, a hash, a host
    assert settings_named("User1 gets an error; mailbox1 is fine") == set()
    assert settings_named("the SHA256 sum of SERVER01") == set()
    assert setting_factor({"dhcp@4"}, {"dhcp@6"}) < 1 < setting_factor({"dhcp@4"}, {"dhcp@4", "dhcp@6"})


def test_a_version_factor_compares_versions_of_the_same_product_only():
    user = settings_named("I'm on Outlook 2016")
    assert setting_factor(user, settings_named("Applies to: Outlook 2016, Outlook 2019")) > 1
    assert setting_factor(user, settings_named("Applies to: Outlook 2010")) < 1
    assert setting_factor(user, settings_named("Applies to: Exchange Server 2010")) == 1
    assert setting_factor(settings_named("iOS 17.2"), settings_named("iOS 17")) > 1


def test_a_unit_naming_its_own_setting_overrides_its_pages():
    page = settings_named("Applies to: Exchange Online; Outlook 2010")
    section = settings_named("Exchange Server 2010 Service Pack 2 Update Rollup 4 or later update")
    assert narrowed(section, page) == {"on-premises", "exchange@2010", "outlook@2010"}
    assert setting_factor({"cloud"}, narrowed(section, page)) < 1 < setting_factor({"cloud"}, page)
    # a section that names both deployments, and one that names none, fit a cloud user
    both = settings_named("Exchange Online in Microsoft 365 or Exchange Server 2013 CU9 or later update")
    assert setting_factor({"cloud"}, narrowed(both, page)) > 1
    assert narrowed(settings_named("Method 2: Set the registry value"), page) == page
    # roles exclude nothing: the page's role stays beside the unit's
    assert narrowed({"mac"}, {"admin", "windows"}) == {"mac", "admin"}


def test_setting_factor_per_group():
    assert setting_factor({"mac"}, {"mac"}) > 1 > setting_factor({"mac"}, {"windows"})
    assert setting_factor({"cloud"}, {"on-premises"}) < 1 < setting_factor({"cloud"}, {"cloud"})
    assert setting_factor({"admin"}, {"admin"}) == 1.0  # a role excludes nothing
    assert setting_factor({"mac"}, set()) == 1.0 == setting_factor(set(), {"windows"})
    # groups multiply: right platform, wrong deployment
    assert setting_factor({"windows", "cloud"}, {"windows", "on-premises"}) == \
        setting_factor({"windows"}, {"windows"}) * setting_factor({"cloud"}, {"on-premises"})


def test_quoted_messages_are_read_apart_from_apostrophes_and_split_at_an_ellipsis():
    assert Turn("The center says 'You don't have sufficient permissions.' Why?").quotes == [
        "You don't have sufficient permissions."]
    assert Turn("I can't sign in and it doesn't say why").quotes == []


def test_without_a_quote_in_the_last_question_the_latest_earlier_quote_counts():
    history = [("Mail is stuck in the queue with '451 4.4.0 DNS query failed' for two domains.", "Check DNS."),
               ("Only those two domains are affected.", "Then check their MX records.")]
    assert Turn("So what can I do on our side?", history).quotes == ["451 4.4.0 DNS query failed"]
    assert Turn("Now it says 'Smart host not found here' instead.", history).quotes == ["Smart host not found here"]
    # the assistant's words are not the user's
    assert Turn("What now?", [("It fails.", "You may see 'The operation timed out' in the log.")]).quotes == []


def test_a_mac_address_names_no_platform():
    assert settings_named("Find the MAC address of your network card") == set()
    assert settings_named("the MAC addresses of my Mac") == {"mac"}


def test_a_question_that_asks_how_to_do_something_to_it_is_about_what_the_question_before_named():
    history = [("How do I save an image to a tar archive?", "Run tool save -o base.tar base.")]
    turn = Turn("How do I load it again on another machine?", history)
    # the image and the archive, not the saving the user did already
    assert turn.referent_terms == {"imag", "tar", "archiv"} and turn.action == ["load"]
    # a question that names its own subject is about that ("Can I make my own for it?")
    assert Turn("Can I make my own garam masala for it?", history).referent_terms == set()
    assert Turn("How do I load it again?").referent_terms == set()


def test_the_product_a_question_is_asked_in_is_its_scope():
    """A question names at its end the product it is asked in: a section's header need not
    say it; a question that says nothing else, or no name, has no scope."""
    assert Turn("How do I insert page numbers in Writer?").scope_terms == set(terms("Writer"))
    assert Turn("How do I set up an automatic reply in Exchange Online?").scope_terms == set(terms("Exchange Online"))
    assert Turn("How do I merge cells in a spreadsheet?").scope_terms == set()
    assert Turn("How do I use Git?").scope_terms == set()


def test_the_database_engine_a_user_names_is_a_setting_that_excludes_the_others():
    """Django's "Databases" page has notes for each engine; its "MySQL notes > Connecting to the
    database" answered "How do I connect to a PostgreSQL database?"."""
    user = settings_named("How do I connect to a PostgreSQL database?")
    assert user == {"postgresql"}
    assert setting_factor(user, settings_named("Connecting to the database: MySQL option files")) < 1
    assert setting_factor(user, settings_named("PostgreSQL notes: Connecting to the database")) > 1
    assert setting_factor(user, settings_named("Connecting to the database")) == 1
    assert settings_named("I use MariaDB; sqlite3 for tests") == {"mysql", "sqlite"}


def test_a_check_the_user_says_passed_is_not_the_failure_a_condition_names():
    history = [("How?", "Run the connectivity test.")]
    passed = Turn("The Remote Connectivity Analyzer test passes, but they still see hash marks.", history)
    assert passed.says_passed("the Exchange connectivity tests fail for autodiscover")
    assert not passed.says_passed("the mailbox is not licensed")  # a failure of something else
    assert not passed.says_passed("the mailbox license check fails")  # ... which names nothing the user said passed
    assert not passed.says_passed("you need details on the analyzer")  # no failure at all
    assert not Turn("The connectivity test fails again.", history).says_passed("the connectivity tests fail")


@pytest.mark.parametrize(("question", "chosen"), [
    ("Fine, a standard account then. How do I create it?", "standard account"),
    ("Let's do the sticky pork chops. How do I make them?", "sticky pork chops"),
    ("I'll go with the cloud one. What do I set?", "cloud one"),
    ("How do I create a standard account?", ""),
])
def test_the_thing_the_user_says_they_choose_is_the_turns_choice(question, chosen):
    assert Turn(question, [("Which account should I give him?", "Standard or Administrator.")]).choice \
        == set(terms(chosen))


@pytest.mark.parametrize(("question", "asking"), [
    # what the user tells of their setting is no part of what they ask
    ("I keep location services off for privacy. How do I set Tokyo time myself, and can I still see "
     "what time it is in London?", "set Tokyo time myself see London"),
    ("OK, she can send now. Can I make the copies go to the shared mailbox?", "make copies go shared mailbox"),
    # what asks names too little of its own: the telling sentence says what it is about
    ("I excluded it two days ago and still get the same error. What now?", ""),
    ("I want the top bar on the big monitor. How do I set that up?", ""),
    # one sentence, or every sentence asking
    ("How do I set Tokyo time myself?", ""),
    ("Can I skip it? How do I assemble the lasagna then?", ""),
])
def test_the_asking_terms_are_those_of_the_sentences_that_ask(question, asking):
    turn = Turn(question)
    assert turn.asking_terms == (set(terms(asking)) if asking else turn.question_terms)


@pytest.mark.parametrize(("question", "task"), [
    # what the user wants to do once it is done is no part of the task asked
    ("How do I save a selection so I can use it again later?", "save selection"),
    ("How do I export the chart, so that we can print it at the office?", "export chart"),
    ("How do I merge the cells in order to center the title?", "merge cells"),
    # no purpose said, or too little left without it: every term
    ("How do I save a selection?", ""),
    ("How do I do it so I can print the page?", ""),
])
def test_the_task_terms_leave_out_what_the_user_wants_to_do_once_it_is_done(question, task):
    turn = Turn(question)
    assert turn.task_terms == (set(terms(task)) if task else turn.question_terms)


@pytest.mark.parametrize(("question", "action"), [
    ("What is the keyboard shortcut to switch between windows?", "switch between windows"),
    ("Which key do I press to undo?", "undo"),
    ("Is there a hotkey for closing a tab?", "closing a tab"),
    ("How do I change the shortcut for the terminal?", ""),  # how to change it, not which it is
    ("What is the key to good bread?", "good bread"),  # (found only in a table of keys)
    ("How do I add a key to the keyring?", ""),
])
def test_a_question_for_a_key_names_what_the_key_does(question, action):
    assert Turn(question).key_action == set(terms(action))


@pytest.mark.parametrize(("question", "no_steps"), [
    ("The highlight button is greyed out. Why can't I annotate it?", True),
    ("When I paste text copied from a PDF the words come out jumbled. Why?", True),
    ("Which file formats can the document viewer open?", True),
    ("What's the keyboard shortcut to print?", True),
    ("Why does it fail, and how do I fix it?", False),  # it asks how too
    ("How do I annotate a PDF?", False),
    ("What should I check?", False),  # what to do
    ("What now?", False),
    ("What about POP and IMAP for those users?", False),
    ("Where does it get saved?", True),
    ("Where is the configuration file stored?", True),
    ("Where do I find the settings?", False),  # how to get there
])
def test_a_question_asks_for_no_steps_when_it_asks_why_which_or_what_and_not_how(question, no_steps):
    assert Turn(question).asks_no_steps is no_steps

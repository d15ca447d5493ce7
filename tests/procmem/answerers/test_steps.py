"""What a unit's text says: its steps and sentences, without metadata, boilerplate or markup."""

from __future__ import annotations

import pytest

from inscoqa.corpus.document import Document
from procmem.answerers.clauses import (
    defines,
    describes,
    is_metadata,
    names_only,
    notes_only,
    sentences,
    states_quantities,
    topics,
    values_of_settings,
)
from procmem.answerers.code_blocks import is_file_text, is_source_code, is_typed
from procmem.answerers.extractive import compose
from procmem.answerers.prose import introduced, plain_text
from procmem.answerers.retrieval import Hit, given_memory
from procmem.answerers.steps import is_step, prose_steps, unit_steps, with_way_there
from procmem.answerers.turn import Turn
from procmem.extract.deterministic import extract_rules
from procmem.extract.markdown import one_line, typed_commands
from procmem.units import LogicUnit, Procedure
from tests.procmem.answerers.conftest import step_unit, unit_meta


def test_steps_read_as_plain_text_without_markdown_escapes_or_quote_markers():
    # the real pages escape a menu path's ">" and placeholders' "<" and quote notes inside list items
    body = ("1. Go to **Recipients** \\> **Groups**.\n"
            "2. Run `Get-Recipient -Identity \\<email address\\> \\| fl Name`.\n"
            "3. Select **Replicable**.\n\n   > The setting reaches every site collection.\n"
            "4. Copy the file to `\\\\server\\share`.")
    unit = LogicUnit("Step", "", "Groups", body, [], unit_meta("help/groups.md", "Groups", 0))
    assert unit_steps(unit) == ["Go to Recipients > Groups.",
                                "Run Get-Recipient -Identity <email address> | fl Name.",
                                "Select Replicable. The setting reaches every site collection.",
                                "Copy the file to \\\\server\\share."]


def test_a_bulleted_list_of_names_is_not_a_list_of_steps():
    # a page that lists what its commands cover (the real Exchange Online page's opening)
    listing = LogicUnit("Step", "", "Enable or disable POP3, IMAP, MAPI or Outlook on the web",
                        "This article introduces the commands that turn each protocol on or off "
                        "for a mailbox:\n\n- Post Office Protocol (POP)\n"
                        "- Internet Message Access Protocol (IMAP)\n- Outlook on the web\n\n"
                        "To disable POP3 for a mailbox, run Set-CASMailbox with -PopEnabled $False.",
                        [], unit_meta("help/protocols.md", "Protocols", 0))
    steps = unit_steps(listing)
    assert "Post Office Protocol (POP)" not in steps and "Outlook on the web" not in steps
    assert any("run Set-CASMailbox with -PopEnabled" in s for s in steps)
    # bullets that say what to do, and ingredients, stay steps
    actions = LogicUnit("Step", "", "Reset the router", "- Unplug the router\n- Wait ten seconds\n"
                        "- Plug it back in", [], unit_meta("net/router.md", "Router", 2))
    assert unit_steps(actions) == ["Unplug the router", "Wait ten seconds", "Plug it back in"]
    dough = LogicUnit("Step", "", "Ingredients", "- 500 g flour\n- 10 g salt\n- 350 ml water",
                      [], unit_meta("cook/dough.md", "Dough", 0))
    assert unit_steps(dough) == ["500 g flour", "10 g salt", "350 ml water"]
    commands = LogicUnit("Step", "", "Restart the services", "- `net stop spooler`\n- `net start spooler`",
                         [], unit_meta("help/print.md", "Printing", 3))
    assert unit_steps(commands) == ["net stop spooler", "net start spooler"]
    # parameter names in code spans name things too
    policies = LogicUnit("Step", "", "Booking policy", "Remove the group from these settings:\n\n"
                         "- `ResourceDelegates`\n- `BookInPolicy`\n- `RequestInPolicy`",
                         [], unit_meta("help/rooms.md", "Rooms", 0))
    assert not any(s in ("ResourceDelegates", "BookInPolicy") for s in unit_steps(policies))


def test_sentences_keep_a_command_with_its_introduction_and_leave_out_source_lines():
    body = ("It can be checked in any of the following locations:\n"
            "- In the mail client\n\n"
            "```powershell\nGet-Mailbox -Identity Daniel | fl ForwardingAddress\n```\n\n"
            "For details, see the article on forwarding.\n\n"
            "From Public folder permissions don't reach subfolders:\n"
            "To work around this issue, run the following cmdlet:\n\n"
            "```powershell\nSet-PublicFolder -AgeLimit 5\n```\n\n"
            "Then wait until the hierarchy is synchronised.")
    assert sentences(body) == [
        "It can be checked in any of the following locations: Get-Mailbox -Identity Daniel | fl ForwardingAddress",
        "For details, see the article on forwarding.",  # its own sentence, not glued to a command
        "To work around this issue, run the following cmdlet: Set-PublicFolder -AgeLimit 5",
        "Then wait until the hierarchy is synchronised."]  # no "From <title>:" line of a merged unit
    # as steps, an introduction keeps its commands, and one without them is no step
    assert "To work around this issue, run the following cmdlet: `Set-PublicFolder -AgeLimit 5`" in prose_steps(body)
    assert prose_steps("Check the following settings:\n\nThen restart the server.") == [
        "Then restart the server."]


def test_a_sentence_that_says_what_there_is_is_no_step_though_a_clause_names_what_you_can_do():
    """The Rust book on publishing: "the number of crate versions you can publish" is a clause of a
    sentence that says what there is."""
    body = ("Be careful, because a publish is permanent. The version can never be overwritten. However, "
            "there is no limit to the number of crate versions you can publish. If an error occurs, fix it "
            "and run the cargo publish command again.")
    assert prose_steps(body) == ["If an error occurs, fix it and run the cargo publish command again."]
    # what there is may be a remedy with the code that applies it (Borg's FAQ on its cache)
    hack = ("There is a temporary hack to avoid using lots of disk space for chunks.archive.d (see "
            "[#235](https://example.org/235) for details):\n\n```\ncd ~/.cache/borg\n"
            "rm -rf chunks.archive.d ; touch chunks.archive.d\n```\n\nThere is an example of the cache below:\n\n"
            "```\nchunks.archive.d\n```\n")
    remedy = ("There is a temporary hack to avoid using lots of disk space for chunks.archive.d (see #235 for "
              "details): `cd ~/.cache/borg; rm -rf chunks.archive.d ; touch chunks.archive.d`")
    assert prose_steps(hack) == [remedy]
    # its pointer in brackets is an aside, not what the step is
    assert unit_steps(step_unit("The cache eats disk space", hack, "faq.html", "FAQ")) == [
        remedy.replace("`", "")]


def test_a_reference_entrys_labelled_values_are_no_step_nor_a_sentence():
    """Mutt's configuration variables open with "Type: boolean / Default: yes"; "Type" is no
    command there. A sentence whose opening clause leads to what there is is none either."""
    body = ("Type: quadoption\nDefault: ask-yes\n\nWhen forwarding inline, attachments which cannot be "
            "decoded are attached to the new message if this option is set.\n\nFor users who need to "
            "contact many people, there's no need to remember addresses. Set this option to "
            "yes to attach them.")
    steps = prose_steps(body)
    assert steps[-1] == "Set this option to yes to attach them."
    assert not any(s.startswith(("Type:", "For users")) for s in steps)
    assert not any(s.startswith("Type:") for s in sentences(body))
    assert is_metadata("Type: boolean Default: yes") and is_metadata("Applies to: Windows 10 Version: 1909")
    # labels whose value says what to do are a step's words
    assert not is_metadata("Note: Click OK: it saves the file") and not is_metadata("Default: yes")


def test_a_usage_line_with_placeholders_is_no_command_to_run_but_its_example_is():
    """Mutt's manual: "Usage:" and the command's form, then "To add an alias:" and an example."""
    body = ("Usage:\n\n```\nalias [ -group name ...] key address [ address ...]\nunalias { * | key ... }\n```\n\n"
            "Mutt maps a short string to a full address.\n\nTo add an alias:\n\n```\n"
            "alias muttdude me@cs.hmc.edu (Michael Elkins)\n```\n")
    assert prose_steps(body) == ["To add an alias: `alias muttdude me@cs.hmc.edu (Michael Elkins)`"]


def test_a_label_that_introduces_a_table_does_not_take_the_code_another_label_introduces():
    """HAProxy's keyword entries: "May be used in sections :" and a table, then "Arguments :" and
    the arguments in a block."""
    body = ("May be used in sections :\n\n| defaults | frontend |\n|---|---|\n| yes | yes |\n\nArguments :\n\n"
            "```\n<timeout> is the timeout value specified in milliseconds\n```\n\nSet the maximum "
            "inactivity time on the client side.")
    assert prose_steps(body) == ["Set the maximum inactivity time on the client side."]
    # a colon in a list before the introduction is no label of the code (the installation guide)
    body = ("The checksum files are here:\n\n- [for images](https://cdimage.debian.org/)\n\nTo compute the "
            "checksum of a downloaded installation file, use\n\n```\nsha256sum filename.iso\n```\n")
    assert prose_steps(body) == ["To compute the checksum of a downloaded installation file, use: "
                                 "`sha256sum filename.iso`"]


def test_a_numbered_list_of_events_gives_no_steps():
    """postsuper(1)'s manual tells what goes wrong in a numbered list; a recipe's steps stay."""
    events = Procedure("", "Queue IDs", [
        "The Postfix queue manager deletes the message that postsuper(1) is asked to delete.",
        "New mail arrives, and the new message is given the same queue ID.",
        "postsuper(1) deletes the new message, instead of the old message that it should have deleted."],
        unit_meta("postsuper.1.html", "postsuper"))
    assert unit_steps(events) == []
    conditions = Procedure("", "Index-only scans", ["The index type must support index-only scans.",
                                                    "The query must reference only columns stored in the index."],
                           unit_meta("indexes.html", "Indexes"))
    assert len(unit_steps(conditions)) == 2
    recipe = Procedure("", "Salad", ["Prepare the cornbread and crumble it.", "Layer a large bowl with half "
                                     "of the cornbread."], unit_meta("salad.md", "Salad"))
    assert unit_steps(recipe) == ["Prepare the cornbread and crumble it.", "Layer a large bowl with half of the cornbread."]
    text = step_unit("Scenario", "The scenario is as follows:\n\n1. The client sends a request.\n"
                     "2. The server answers with a redirect.\n", "lync.md", "Lync")
    assert unit_steps(text) == []
    # a longer one may open an event with a clause, and say once in a while what the program can do
    validation = Procedure("", "Validation", [
        "Upon receiving a DNS query from a client, the validating resolver asks the name server of isc.org.",
        "The isc.org name server responds with the answer and a digital signature.",
        "The validating resolver asks the isc.org name server for its keys.",
        "The isc.org name server responds with its keys; at this point, the resolver can verify the answer.",
        "Verifiable information is sent from the .org server.",
        "The validating resolver asks the parent (.org) for what it keeps on isc.org.",
        "The .org name server sends back the DS record.",
        "The validating resolver compares the DS record with the key."], unit_meta("dnssec-guide.html", "DNSSEC"))
    assert unit_steps(validation) == []
    reading = Procedure("", "Configuration", [
        "The plain config file is read first if it exists.", "Then the configuration directory is scanned.",
        "Each file beneath the configuration directory is interpreted."], unit_meta("ntp.conf.html", "ntpd"))
    assert unit_steps(reading) == []
    half_doing = Procedure("", "Check", [*validation.steps[:4], "Run dig +dnssec isc.org.",
                                         "Check the ad flag.", "Restart named.", "Open the log."],
                           unit_meta("dnssec-guide.html", "DNSSEC"))
    assert len(unit_steps(half_doing)) == 8


def test_a_paragraph_ends_its_sentence_and_a_command_keeps_its_placeholders():
    body = ("A new feature lets administrators choose the Sent Items folder. For more information, "
            "see [Want more control over Sent Items?](https://example.com/blog)\n\n"
            "Using [Exchange PowerShell](/powershell/), for emails sent as the shared mailbox, run "
            "the following cmdlet:\n\n```powershell\nset-mailbox <mailbox name> -MessageCopyForSentAsEnabled $True\n```\n\n"
            "> **Note:**\n> These settings <b>aren't</b> supported across cloud and on-premises mailboxes.")
    # the link line once glued the next paragraph to "For more information", and its command was lost
    # the sentences that only describe the feature or note a limit are no steps
    assert prose_steps(body) == [
        "Using Exchange PowerShell, for emails sent as the shared mailbox, run the following cmdlet: "
        "`set-mailbox <mailbox name> -MessageCopyForSentAsEnabled $True`"]
    unit = step_unit("Keep sent items in the shared mailbox", body, "help/sent-items.md", "Sent items")
    assert unit_steps(unit) == ["Using Exchange PowerShell, for emails sent as the shared mailbox, run the "
                                "following cmdlet: set-mailbox <mailbox name> -MessageCopyForSentAsEnabled $True"]


def test_a_step_keeps_what_to_do_without_its_pointer_to_further_reading():
    body = ("1. Connect to Exchange Online by using remote PowerShell. For info about how to do "
            "this, go to the following Microsoft website:\n"
            "2. Check whether the outbound spam filter disables automatic forwarding. For more "
            "information, see [Control forwarding](/forwarding).\n"
            "3. For more information, see [Forwarding rules](/rules).\n")
    unit = step_unit("Stop forwarding to external addresses", body, "help/forwarding.md", "Forwarding")
    # a step whose last sentence only points elsewhere was once dropped whole
    assert unit_steps(unit) == [
        "Connect to Exchange Online by using remote PowerShell.",
        "Check whether the outbound spam filter disables automatic forwarding."]


def test_a_pointer_to_a_website_is_no_step_but_a_website_to_set_up_is():
    body = ("1. Obtain the MFCMapi tool from the following website.\n"
            "2. Read the bulletin on the Microsoft TechNet website.\n"
            "3. Restore the mailbox. To do this, see website from step 1.\n"
            "4. Create a website for the falcot.org domain in `/etc/apache2/sites-available/`.\n")
    unit = step_unit("Websites", body, "help/sites.md", "Sites")
    assert unit_steps(unit) == ["Restore the mailbox.",
                                "Create a website for the falcot.org domain in /etc/apache2/sites-available/."]


def test_a_sentence_that_only_says_where_a_thing_is_described_is_no_step():
    """An image editor's manual closes many sections with where their options are described
    ("These options are described in Section 14.1.4, “Tool Options”."); a step that uses what a
    section describes, or a sentence that says what to do, stays."""
    body = ("1. Open the Text Options dialog to change the font of the text.\n"
            "2. These options are described in Section 14.1.4, “Tool Options”.\n"
            "3. You can find its description in Section 8.1.1, “Colors Common Features”.\n"
            "4. Use the command described in Section 6.3 to convert the image to indexed mode.\n"
            "5. Click OK. The dialog is explained in more detail below.\n"
            "6. Select the layer that is described in the dialog.\n")
    unit = step_unit("Text Options", body, "gimp/text-tool.html", "Text")
    assert unit_steps(unit) == ["Open the Text Options dialog to change the font of the text.",
                                "Use the command described in Section 6.3 to convert the image to indexed mode.",
                                "Click OK.",
                                "Select the layer that is described in the dialog."]


def test_a_pointer_to_the_next_section_is_no_step():
    """Okular's "Go to the next section to learn more about this." was a step of "How do I add a
    note to a page?"; Lync's "If the problem persists, go on to the next section." ends a step
    that says what to do."""
    body = ("1. Select File → Open... and choose the file.\n"
            "2. Restart Lync to check whether the problem is resolved. If the problem persists, go on to "
            "the next section.\n3. Go to the next section to learn more about this.\n")
    unit = step_unit("Opening Files", body, "okular/index.docbook", "The Okular Handbook")
    assert unit_steps(unit) == ["Select File → Open... and choose the file.",
                                "Restart Lync to check whether the problem is resolved."]


def test_questions_an_overview_page_lists_are_not_steps():
    body = ("Calendar diagnostic logs help answer questions such as:\n"
            "- Why doesn't a meeting appear in an attendee's calendar?\n"
            "- Why is a conference room double-booked?\n\n"
            "1. Download the script to a local folder.\n"
            "2. Is the ImportExcel module installed? If not, run `Install-Module ImportExcel`.\n")
    unit = step_unit("Use calendar diagnostic logs", body, "help/cdl.md", "Calendar diagnostic logs")
    # a step may ask something on its way to what to do
    assert unit_steps(unit) == [
        "Download the script to a local folder.",
        "Is the ImportExcel module installed? If not, run Install-Module ImportExcel."]
    listing = step_unit("Calendar issues", body.split("\n\n")[0], "help/cdl.md", "Calendar diagnostic logs",
                         order=1, unit_type="FAQ")
    assert unit_steps(listing) == []


def test_a_pages_table_of_contents_gives_no_steps(corpus, lexical):
    """A real page opens with a list of links to its own sections: those are not steps, the
    sections' own numbered steps are."""
    page = "officedocs/Exchange/ExchangeOnline/public-folders/permissions-settings-not-propagate-eac.md"
    steps = [s for unit in given_memory([corpus.get(page)]).units() for s in unit_steps(unit)]
    assert not {"The read and unread setting not applied", "Age limit settings not applied to subfolders"} \
        & set(steps)
    assert any("PerUserReadStateEnabled" in s for s in steps)
    toc = step_unit("Issues", "- [Set up forwarding](#set-up-forwarding)\n- [Other issues](other.md).\n",
                     "help/issues.md", "Issues")
    assert unit_steps(toc) == []


def test_sentences_that_describe_are_not_steps_but_a_numbered_lists_items_are(corpus, lexical):
    """A cause section's bullets describe the situations that cause an error; a real page's
    numbered steps stay steps even where one says what the screen shows next."""
    page = "officedocs/SharePoint/SharePointOnline/sites/compliance-policy-blocking-site-deletion.md"
    units = given_memory([corpus.get(page)]).units()
    cause = next(u for u in units if u.kind == "logic_unit" and u.header.startswith("What causes this"))
    assert "the retention policy is invalid" in cause.body
    assert unit_steps(cause) == []
    assert any(s.startswith("Select Run Tests") for u in units for s in unit_steps(u))
    scenario = step_unit("Symptoms", "Consider the following scenario:\n\n"
                         "- You try to open an item in the private folder.\n"
                         "- There is a one-way trust between the two domains.\n"
                         "- Run `Get-Mailbox -Identity <user>` to see the mailbox.\n\n"
                         "The troubleshooter runs in two stages. First, open the log.\n",
                         "help/x.md", "X")
    assert unit_steps(scenario) == ["Run Get-Mailbox -Identity <user> to see the mailbox."]
    prose = step_unit("Check", "The troubleshooter runs in two stages. Open the log, and then "
                      "search for START. This issue occurs when the log is full. First, it examines the "
                      "web site. By default, the attendant doesn't process external requests. After a "
                      "mailbox receives a request, the attendant accepts it.", "help/x.md", "X")
    assert unit_steps(prose) == ["Open the log, and then search for START."]
    conditional = step_unit("Check", "If the pool is running, recycle it. The tool logs events in the "
                            "Microsoft-Exchange-Troubleshooters event log. The Get-Mailbox cmdlet lists "
                            "the mailbox and its settings.", "help/x.md", "X")
    # a cmdlet makes a sentence a step, a hyphenated name does not
    assert unit_steps(conditional) == ["If the pool is running, recycle it.",
                                       "The Get-Mailbox cmdlet lists the mailbox and its settings."]
    numbered = step_unit("Pair", "1. Click Connect.\n2. The entry for the device will show a Connected status.\n",
                         "help/x.md", "X")
    assert unit_steps(numbered) == ["Click Connect.", "The entry for the device will show a Connected status."]


def test_the_real_bounce_keys_page_gives_its_sliders_step_after_its_list_and_tip(corpus, lexical):
    """GNOME's bounce keys page: the numbered steps turn the setting on, a tip follows, then the
    paragraph that says how to set the delay: its sentences are the section's last steps."""
    units = given_memory([corpus.get("gnome-help/a11y-bouncekeys.page")]).units()
    section = next(u for u in units if u.kind == "logic_unit" and u.header == "Turn on bounce keys")
    steps = unit_steps(section)
    assert steps[-3].startswith("Switch the Bounce Keys switch to on")
    assert steps[-2].startswith("Use the Acceptance delay slider to change how long bounce keys waits")
    assert steps[-1].startswith("Select Beep when a key is rejected")


def test_who_may_do_a_sections_steps_opens_them_on_the_real_page(corpus, lexical):
    """Office's "Solution 1" opens with a note: only an Exchange admin or a member of a role may
    remove a group a user does not manage. That is the first thing a user needs to know."""
    page = "officedocs/Exchange/ExchangeOnline/groups-and-distribution-lists/no-sufficient-permissions-moving-dg.md"
    units = given_memory([corpus.get(page)]).units()
    solution = [u for u in units if str(u.meta.get("section", "")).endswith("Solution 1: "
                "Use Exchange Online PowerShell or the Exchange Management Shell") and "1. Take one" in u.render()]
    assert {u.kind for u in solution} == {"procedure", "logic_unit"}
    for unit in solution:
        steps = unit_steps(unit)
        assert steps[0].startswith("You have to be an Exchange Online admin, an Exchange admin, or a member of")
        assert steps[1].startswith("Take one of the following actions")


@pytest.mark.parametrize(("note", "first", "after"), [
    # who may do the steps, in the note that opens the section: not after them
    ("> **Note:** To run the diagnostic, you must be a Microsoft 365 global administrator.",
     "To run the diagnostic, you must be a Microsoft 365 global administrator.", None),
    # ... or in its prose, before or after the list, without a note's label
    ("Note: You must have administrator permissions to make the following changes.",
     "You must have administrator permissions to make the following changes.",
     "You must have administrator permissions to make the following changes."),
    # what a note says otherwise is no step
    ("> **Important:** Follow the steps in this section carefully.", None, None),
    ("> **Note:** Users must be online.", None, None),
])
def test_who_may_do_the_steps_is_the_first(note, first, after):
    listed = "1. Open the admin center.\n2. Run the diagnostic.\n"
    for body, opens in ((f"{note}\n\n{listed}", first), (f"{listed}\n{note}\n", after)):
        page = Document(doc_id="help/diag.md", title="Diagnostics", meta={},
                        text=f"# Diagnostics\n\n## Run the diagnostic\n\n{body}")
        extraction = extract_rules(page)
        for unit in (*extraction.procedures, *extraction.logic_units):
            assert unit_steps(unit) == ([opens] if opens else []) + ["Open the admin center.", "Run the diagnostic."]


def test_a_message_quoted_under_a_symptoms_bullet_is_no_step(corpus, lexical):
    """The real page's symptoms quote the error each one shows, indented under its bullet: the
    quote is the bullet's, which describes, not a step of its own."""
    page = "officedocs/SharePoint/SharePointOnline/lists-and-libraries/cannot-sync-files-folders.md"
    units = given_memory([corpus.get(page)]).units()
    symptoms = next(u for u in units if u.kind == "logic_unit" and "Sorry, this document" in u.body)
    assert unit_steps(symptoms) == []
    assert any("use a folder name other than" in s for u in units for s in unit_steps(u))
    # a paragraph after the list, not indented, is prose again
    unit = step_unit("Symptoms", "- You try to open the file, and you receive this message:\n\n"
                     "   > Sorry, this document can't be opened.\n\nRename the folder to another name.\n", "help/x.md", "X")
    assert unit_steps(unit) == ["Rename the folder to another name."]


def test_lines_that_close_a_troubleshooter_or_introduce_steps_kept_elsewhere_are_not_steps():
    body = ("1. Update the sharing policy for the user. To do this, follow these steps.\n"
            "2. To start syncing a library again, follow these steps:\n"
            "3. Check whether the issue is resolved. If yes, we're glad that your issue is resolved.\n"
            "4. If no, see [Reset the OneDrive cache](reset.md).\n")
    unit = step_unit("Sync", body, "help/sync.md", "Sync")
    assert unit_steps(unit) == ["Update the sharing policy for the user.",
                                "Check whether the issue is resolved."]


def test_prose_without_a_list_gives_the_sentences_that_say_what_to_do():
    """A manual's prose: what a tool is or does is no step; an imperative, one after an opening
    clause, a modal with an action and a control to use are."""
    body = ("Memcheck is the default tool. Tools will complain at startup if a suppression is "
            "not directed to them. If you configured a sender, check the audit log for its messages. "
            "An administrator can manually add the permission by using PowerShell. You can modify the "
            "suppressions file at your leisure. Open the log and then select Expand All.")
    unit = step_unit("Suppressions", body, "help/core.md", "Core")
    assert unit_steps(unit) == [
        "If you configured a sender, check the audit log for its messages.",
        "An administrator can manually add the permission by using PowerShell.",
        "You can modify the suppressions file at your leisure.",
        "Open the log and then select Expand All."]


@pytest.mark.parametrize(("body", "steps"), [
    pytest.param("Add the library to the build script. Check out the source code for the full example.\n\n"
                 "[^1]: This list is not an endorsement. Evaluate your dependencies to see which is right for you.",
                 ["Add the library to the build script."], id="a footnote and a pointer to an example"),
    pytest.param("1. Add `regex` as a dependency\n   ```\n   cargo add regex\n   ```\n"
                 "2. Run only the tests whose names match a filter:\n   ```\n   cargo test name_filter\n   ```\n",
                 ["Add regex as a dependency: cargo add regex",
                  "Run only the tests whose names match a filter: cargo test name_filter"],
                 id="a list item's words and the code under it, a colon between"),
    pytest.param("A workspace is a collection of packages that are managed together. To create a workspace, you "
                 "add the `[workspace]` table to a `Cargo.toml`.",
                 ["To create a workspace, you add the [workspace] table to a Cargo.toml."],
                 id="a goal, then what you do"),
    pytest.param("Let's say you're working with the uuid crate and you discover a bug. You are, however, quite "
                 "enterprising so you decide to also try to fix the bug! To fix the bug, clone the repository and "
                 "patch the dependency.",
                 ["To fix the bug, clone the repository and patch the dependency."],
                 id="a story about fixing a bug, and what fixes it"),
    pytest.param("1. `cargo login --registry=my-registry`\n   This only needs to be done once.\n"
                 "2. `cargo publish --registry=my-registry`\n",
                 ["Run cargo login --registry=my-registry. This only needs to be done once.",
                  "cargo publish --registry=my-registry"], id="a command alone, with what to know about it"),
    pytest.param("1. Uninstall the package you no longer need:\n   ```console\n   $ python -m pip uninstall simplejson\n   Proceed (Y/n)? y\n"
                 "     Successfully uninstalled simplejson\n   ```\n2. Check that it is gone from the list:\n   ```\n   $ pip list\n"
                 "   ```\n", ["Uninstall the package you no longer need: python -m pip uninstall simplejson",
                            "Check that it is gone from the list: pip list"],
                 id="a shell session under a list item: what is typed, not what it prints"),
    pytest.param("```pip-cli\n$ pip uninstall sampleproject\nUninstalling sampleproject:\n   [...]\n```\n",
                 ["Run pip uninstall sampleproject"], id="a session in a block of a language of its own"),
    pytest.param("Linux:\n\n```\n~/.cache/pip\n```\n\nWindows:\n\n```\n%LocalAppData%\\pip\\Cache\n```\n\n"
                 "Clear it with the cache command.\n\n```\n./clear-cache --all\n```\n",
                 ["Clear it with the cache command.", "Run ./clear-cache --all"], id="where a folder is: no command"),
    pytest.param("The following create-default-vpc example creates a default VPC.\n\n```\naws ec2 create-default-vpc\n```"
                 "\n\nOutput:\n\n```\n{\n    \"Vpc\": {\n        \"VpcId\": \"vpc-8eaae5ea\"\n    }\n}\n```\n",
                 ["Run aws ec2 create-default-vpc"], id="a command, then what it printed under an Output label"),
    pytest.param("Wait a few minutes, then fire up `ntpq` with the `-p` option.\n\nYou should see a display "
                 "looking something like this:\n\n```\n     remote   refid  st t when poll reach\n"
                 "=====================================\n*b1-66er.matrix. .GPS. 1 u  25   64  377\n```\n",
                 ["Wait a few minutes, then fire up ntpq with the -p option."],
                 id="what a command prints, after the words that say it is what you will see"),
    pytest.param("**Output from \"zim --help\":**\n\n```\nusage: zim [OPTIONS] [NOTEBOOK]\n   or: zim --export "
                 "[OPTIONS] NOTEBOOK\n\nGeneral Options:\n  --gui  run the editor\n```\n", [],
                 id="a program's usage under a label that says it is its output"),
])
def test_what_a_section_of_a_tools_book_says_to_do(body: str, steps: list[str]) -> None:
    """Cargo's and its books' sections: their footnotes, pointers and stories are no steps."""
    assert unit_steps(step_unit("Section", body, "cargo/section.md", "Cargo")) == steps


def test_a_case_named_by_a_list_item_gets_the_command_after_it_and_no_fence_language_is_a_word():
    """The Embedded Rust Book's Linux packages: each distribution a list item of its own, a note,
    then its command (each case's list started again). An Office article's command under its
    step, fenced as ``console``: the fence's language is no word of the step."""
    body = ("Here are the installation commands.\n\n- Ubuntu 18.04 or newer / Debian stretch or newer\n\n"
            "> **NOTE** `gdb-multiarch` is the GDB command you'll use\n\n```console\nsudo apt install "
            "gdb-multiarch openocd\n```\n\n- Fedora 27 or newer\n\n```console\nsudo dnf install gdb openocd\n```\n")
    unit = step_unit("Packages", body, "embedded-book/intro/install/linux.html", "Linux")
    assert unit_steps(unit) == ["Ubuntu 18.04 or newer / Debian stretch or newer: sudo apt install gdb-multiarch openocd",
                                "Fedora 27 or newer: sudo dnf install gdb openocd"]
    body = "1. Type the following command, and then press Enter:\n\n   ```console\n   ServiceModelReg.exe -r\n   ```\n"
    unit = step_unit("Resolution", body, "officedocs/iis.md", "IIS")
    assert unit_steps(unit) == ["Type the following command, and then press Enter: ServiceModelReg.exe -r"]


def test_a_type_alone_and_a_pointer_to_other_documentation_are_no_steps():
    """Node.js's API reference lists a property's type on a line of its own; its CLI page points
    to the debugger's documentation."""
    body = "- {stream.Duplex} | {Buffer}\n\nReference to the underlying socket."
    assert unit_steps(step_unit("`response.socket`", body, "node/http.html", "HTTP")) == [
        "response.socket: Reference to the underlying socket."]
    body = ("Start the script with `node inspect script.js`. For more info about node inspect, see the "
            "debugger documentation.")
    assert unit_steps(step_unit("inspect", body, "node/cli.html", "CLI")) == ["Start the script with node inspect script.js."]


def test_code_joins_the_sentence_that_introduces_it_and_program_output_is_no_step():
    body = ("We need to run\n\n```console\nstsadm -o setproperty -pn peoplepicker-searchadforests\n```\n\n"
            "Run the valgrind tool on your program.\n\n```\n==4242== Invalid read of size 4\n```\n\n"
            "Then check the result.\n\n```\nvalgrind --leak-check=full ./prog\n```\n")
    assert prose_steps(body) == [
        "We need to run: `stsadm -o setproperty -pn peoplepicker-searchadforests`",
        "Run the valgrind tool on your program.",
        "Then check the result.",
        "Run `valgrind --leak-check=full ./prog`"]


def test_a_programs_text_is_shown_not_run():
    unit = LogicUnit("Step", "", "Array overruns", "Memcheck reports nothing for this program.\n\n"
                     "```\nint a[5];\nint main(void)\n{\n  a[5] = 0;\n  return 0;\n}\n```\n\n"
                     "```\nvalgrind --tool=memcheck ./a.out\n```\n", [], {})
    assert prose_steps(unit.body) == ["Run `valgrind --tool=memcheck ./a.out`"]
    assert is_source_code(["int a[5];", "int main(void)", "{", "a[5] = 0;", "}"])
    assert not is_source_code(["cd build", "make", "make install"])
    assert not is_source_code(["$users = Get-Mailbox", "foreach ($u in $users) {", "Set-Mailbox $u -Type Shared",
                               "}"])


def test_a_code_blocks_language_says_whether_it_is_run_or_shown():
    text = ("Borrow the value instead of moving it.\n\n```rust\nlet s = String::new();\nlen(&s)\n```\n\n"
            "Check the crate.\n\n```console\n$ cargo check\n```\n\nThe workflow file holds it.\n\n"
            "```yml\non: push\nname: check\n```\n\nBuild it.\n\n```\nmake all\n```\n")
    assert [s for s in prose_steps(text) if s.startswith("Run")] == ["Run `cargo check`", "Run `make all`"]
    assert is_typed(["Get-Mailbox"], "powershell") and is_typed(["make"], "")
    assert not is_typed(["fn main() {}"], "rust") and not is_typed(["key: value"], "yaml")
    assert not is_typed(["int a;", "int b;", "a = b;"], "text")  # a program, whatever the fence says


def test_a_scenario_an_aside_and_a_term_with_its_definition_are_not_steps():
    """A tutorial's voice (the Cargo book, npm's): "Let's say ...", "For example, ...", "assume
    that ..." and "You're about to ..." set a scene; a licence ("you can redistribute it") is no
    step; a bulleted term with what it is ("`members` — Packages to include")
    defines it. An action after a term stays a step, and so does an amount."""
    body = ("For the examples below, assume that the current package is app. "
            "Let's say that the current version of uuid on crates.io is 1.0.0. Let's now shift gears "
            "a bit. For example, perhaps the dependency is an internal detail. For example, run "
            "cargo update to take the fix. If the build fails, check the lock file. This document is "
            "free; you can redistribute it and/or modify it under the same terms as Perl itself.")
    assert unit_steps(step_unit("Overriding a dependency", body, "cargo/override.md", "Overriding")) == [
        "For example, run cargo update to take the fix.", "If the build fails, check the lock file."]
    scenes = ("- You’re about to publish a new major version of your crate\n"
              "- You've submitted a fix to an upstream crate\n- Add the patch section to the manifest")
    assert unit_steps(step_unit("Testing a bugfix", scenes, "cargo/override.md", "Overriding", 1)) == [
        "Add the patch section to the manifest"]
    keys = ("- `members` — Packages to include in the workspace.\n- `exclude` — Packages to exclude.\n"
            "- Windows: Open Settings and select Update.\n- Flour: 500 g")
    assert unit_steps(step_unit("The workspace section", keys, "cargo/workspaces.md", "Workspaces")) == [
        "Windows: Open Settings and select Update.", "Flour: 500 g"]
    assert defines("0: no optimizations") and defines("[profile.dev] — Settings in Cargo.toml.")
    assert not defines("**Note:** Restart the server.") and not defines("Step 1: Open the console")



def test_a_list_of_platforms_with_the_versions_they_need_is_no_steps():
    """Borg's installation page lists the platforms its binaries run on ("**MacOS**: 10.12 or
    newer (…)"), its front page those it supports, some with a remark in brackets ("Cygwin
    (experimental, no binaries yet)"); neither list says what to do, and the command under them
    is the step. A version is no amount: "Sugar: 1.5 cups" stays a step."""
    body = ("Binaries are available for the following platforms:\n\n"
            "- **Linux**: glibc >= 2.28 (ok for most releases). Older releases may not work.\n"
            "- **MacOS**: 10.12 or newer (remove the `quarantine` attribute after downloading)\n"
            "- **FreeBSD**: 12.1 (unknown whether it works for older releases)\n\n"
            "To install such a binary, copy it into a directory in your `PATH`:\n\n"
            "```bash\nsudo cp borg-linux64 /usr/local/bin/borg\n```\n")
    assert unit_steps(step_unit("Standalone Binary", body, "installation.html", "Installation")) == [
        "To install such a binary, copy it into a directory in your PATH: sudo cp borg-linux64 /usr/local/bin/borg"]
    assert names_only(["Linux", "Mac OS X", "OpenBSD and NetBSD (no xattrs/ACLs support or binaries yet)",
                       "Cygwin (experimental, no binaries yet)"])
    assert defines("Python: 3.8 or later") and not defines("Sugar: 1.5 cups") and not defines("Flour: 500 g")


def test_a_list_of_an_api_calls_parameters_and_the_values_they_take_is_no_steps():
    """An API reference lists a call's query parameters, each with the values it takes ("1/True/true
    or 0/False/false"); a value list that opens with a digit is no amount ("2 cups", "1/2 cup")."""
    body = ("Query parameters:\n\n"
            "- **follow** – 1/True/true or 0/False/false, keep the stream open. Default `false`.\n"
            "- **stdout** – 1/True/true or 0/False/false, include standard output. Default `false`.\n"
            "- **tail** – Output this many lines from the end: `all` or `<number>`. Default all.\n")
    assert unit_steps(step_unit("Get a container's logs", body, "api/v1.md", "Engine API")) == []
    assert defines("**follow** – 1/True/true or 0/False/false, keep the stream open.")
    assert not defines("Sugar: 1/2 cup") and not defines("Butter: 100g") and not defines("Eggs: 2x")


def test_a_list_of_terms_is_no_procedure_even_numbered():
    """An order of precedence is numbered, but its items say what each term is."""
    order = Procedure("", "Overrides", ["[profile.dev.package.name] — A named package.",
                                        "[profile.dev.package.\"*\"] — For any non-workspace member.",
                                        "[profile.dev] — Settings in Cargo.toml.",
                                        "Default values built-in to Cargo."], unit_meta("cargo/profiles.md", "Profiles"))
    assert unit_steps(order) == []
    text = ("1. `opt-level` — How much the compiler optimizes.\n2. `debug` — How much debug information.\n"
            "3. `lto` — Link-time optimization.\n\nSet `opt-level = 1` in the dev profile to build faster.")
    assert unit_steps(step_unit("Profile settings", text, "cargo/profiles.md", "Profiles")) == [
        "Set opt-level = 1 in the dev profile to build faster."]
    # a code span and what it means, with no dash between (npm's version ranges), is no step
    ranges = ("* `version` Must match `version` exactly\n* `>version` Must be greater than `version`\n"
              "* `*` Matches any version\n* `\"\"` (just an empty string) Same as `*`\n"
              "* `cd` into the folder and run `npm install`")
    assert unit_steps(step_unit("dependencies", ranges, "npm/package-json.md", "package.json")) == [
        "cd into the folder and run npm install"]
    assert not defines("`cd` into the folder") and not defines("`npm ci` Run this in CI")


def test_a_step_that_describes_does_not_lead_the_plain_answer():
    build = Procedure("", "Build faster", ["The opt-level setting controls the level of optimization of the code.",
                                           "Build with optimizations", "Turn off debug information"],
                      unit_meta("cargo/perf.md", "Build performance"))
    answer, steps, _ = compose([Hit(build, 1.0, 1, "hybrid")], cite=False)
    assert answer.startswith("Build with optimizations, then follow the steps below.")
    assert steps[0] == "The opt-level setting controls the level of optimization of the code."


def test_a_long_step_that_points_to_its_example_leads_without_the_pointer():
    """The Handbook's "You can change it in the /etc/hosts file; simply write … as in the following
    example:" and the file's lines: the lead is what to do, the example is in the step."""
    body = ("You can change it in the /etc/hosts file; simply write a complete name for the machine "
            "there at the beginning of the list of names associated with the address of the machine, as in the "
            "following example:\n\n```\n127.0.0.1     localhost\n192.168.0.1   arrakis.falcot.com arrakis\n"
            "192.168.0.2   atreides.falcot.com atreides\n```\n\n"
            "This file is available even during network outages.")
    unit = step_unit("Setting the Hostname", body, "handbook/hostname.html", "Setting the Hostname")
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "hybrid")], cite=False)
    assert "127.0.0.1 localhost" in steps[0], steps
    assert answer.startswith("You can change it in the /etc/hosts file; simply write a complete name "
                             "for the machine there at the beginning of the list of names associated with the "
                             "address of the machine."), answer


def test_a_report_of_labelled_values_or_sentences_after_a_sentence_is_shown_not_run():
    """Valgrind's manual shows a leak summary after "The following is an example leak summary.",
    the Rust book a poem for its example to read, Wireshark's the names of the types a program
    lists with what each is and its licence's lines; none is a command to run. Values that a
    sentence introduces to put in a file stay with it."""
    body = ("The following is an example leak summary.\n\n```\nLEAK SUMMARY:\n   definitely lost: 48 bytes in 3 "
            "blocks.\n   indirectly lost: 32 bytes in 2 blocks.\n```\n\nRun the program again.\n\n```\n"
            "valgrind --leak-check=full ./prog\n```\n\nAdd these lines to the configuration file:\n\n```\n"
            "level: debug\nfile: /var/log/app.log\n```\n\nPut a poem in poem.txt.\n\n```\nI'm nobody! Who are you?\n"
            "Are you nobody, too?\n```\n\nThe types are listed.\n\n```\nap1394 - Apple IP-over-IEEE 1394\n"
            "arcnet - ARCNET\natm-pdus - ATM PDUs\n```\n\nThe licence reads:\n\n```\nsource code or can get it if "
            "you want it, that you can change\nthe software or use pieces of it in new free programs; and that you\n```\n")
    assert prose_steps(body, limit=8) == [
        "Run the program again.", "Run `valgrind --leak-check=full ./prog`",
        "Add these lines to the configuration file: `level: debug; file: /var/log/app.log`", "Put a poem in poem.txt."]


def test_of_a_shell_session_what_is_typed_after_the_prompt_is_run_not_its_output():
    """npm's pages show a command after a "$" prompt, then what it prints: the step runs the
    command alone."""
    body = ("Check for outdated packages.\n\n```bash\n$ npm outdated\nPackage  Current  Wanted  Latest\n"
            "glob      5.0.15   5.0.15   6.0.1\n```\n\nTo see why a package is there, run:\n\n```bash\n"
            "$ npm explain glob\nglob@7.1.6\nnode_modules/glob\n$ npm ls glob\n```\n")
    assert prose_steps(body) == ["Check for outdated packages.", "Run `npm outdated`",
                                 "To see why a package is there, run: `npm explain glob; npm ls glob`"]


def test_a_session_that_opens_with_what_an_earlier_command_printed_runs_its_typed_commands():
    body = ("The service failed to start because of a typo in its configuration file.\n\n```\n"
            "Mar 31 17:30:36 systemd[1]: Failed to start.\n$ vi /etc/ssh/sshd_config\n$ systemctl start ssh.service\n"
            "Active: active (running)\n```\n")
    assert prose_steps(body) == ["Run `vi /etc/ssh/sshd_config; systemctl start ssh.service`"]


def test_a_session_at_another_programs_prompt_runs_what_is_typed():
    """PowerShell's "PS C:\\>", psql's "testdb=>", Python's ">>>": the typed lines, not the output."""
    body = ("Check the licenses of the tenant.\n\n```output\nWindows PowerShell\nPS C:\\> Connect-MsolService\n"
            "PS C:\\> Get-MsolAccountSku\nAccountSkuId ActiveUnits\nContoso:INTUNE_A 25\n```\n\n"
            "Check the tables of the database.\n\n```\ntestdb=> \\dt\n List of relations\n(2 rows)\n```\n")
    assert prose_steps(body) == ["Check the licenses of the tenant.", "Run `Connect-MsolService; Get-MsolAccountSku`",
                                 "Check the tables of the database.", "Run `\\dt`"]


def test_a_here_document_typed_at_continuation_prompts_is_run_whole():
    """The lines typed at a shell's "> " continuation prompt belong to the command above them (a
    here-document, a pipe continued with "\\"); what the command prints does not."""
    body = ("Add a reminder for the birthday.\n\n```\n$ at 09:00 27.07.22 <<END\n> echo \"Happy Birthday\" \\\n"
            ">   | mail lolando@debian.org\n> END\nwarning: commands will be executed using /bin/sh\n```\n")
    assert prose_steps(body) == ["Add a reminder for the birthday.",
                                 'Run `at 09:00 27.07.22 <<END; echo "Happy Birthday" | mail lolando@debian.org; END`']


def test_a_configuration_files_stanza_is_shown_with_its_sentence_not_run():
    """A block without a language whose lines are indented under a line that does not go on
    into them is a file's text ("iface ... inet static" with its settings), not commands; a
    shell loop's indented body is still run."""
    stanza = ["auto enp0s31f6", "iface enp0s31f6 inet static", "  address 192.168.0.3/24", "  network 192.168.0.0",
              "  gateway 192.168.0.1"]
    assert is_file_text(stanza) and not is_typed(stanza)
    loop = ["for f in *.txt; do", "  gzip \"$f\"", "done"]
    assert not is_file_text(loop) and is_typed(loop)
    assert not is_file_text(["Get-Mailbox |", "    Set-Mailbox -Type Shared"])
    body = ("A router connecting to the exterior is given as the gateway.\n\n**Example 8.2. Static configuration**"
            "\n\n```\n" + "\n".join(stanza) + "\n```\n")
    assert prose_steps(body) == ["A router connecting to the exterior is given as the gateway: `auto enp0s31f6; "
                                 "iface enp0s31f6 inet static; address 192.168.0.3/24; network 192.168.0.0; "
                                 "gateway 192.168.0.1`"]


def test_a_statement_continued_at_pythons_prompt_is_one_line_and_a_shells_dots_are_no_prompt():
    assert typed_commands([">>> student_tuples = [", "...     ('john', 'A', 15),", "...     ('jane', 'B', 12),",
                           "... ]", ">>> sorted(student_tuples, key=lambda student: student[2])",
                           "[('jane', 'B', 12), ('john', 'A', 15)]"]) == [
        "student_tuples = [ ('john', 'A', 15), ('jane', 'B', 12), ]",
        "sorted(student_tuples, key=lambda student: student[2])"]
    # after a shell's "$", "..." leaves out what the page does not show
    assert typed_commands(["$ git checkout -b topicB master", "... pick and apply pieces"]) == [
        "git checkout -b topicB master"]


def test_a_prompt_that_names_the_user_and_host_is_a_prompt():
    """"root@host:~# apt update" and psql's "peter@localhost testdb=> " with its "testdb-> "
    continuation: what is typed, a statement continued as one line, not what is printed."""
    assert typed_commands(["root@host:~# apt update", "Reading package lists... Done",
                           "user@deb:~/src$ make"]) == ["apt update", "make"]
    assert typed_commands(["peter@localhost testdb=> SELECT *", "peter@localhost testdb-> FROM my_table;",
                           "+-------+", "| first |", "(4 rows)"]) == ["SELECT * FROM my_table;"]


def test_a_prompt_in_brackets_a_machines_name_or_a_dollar_with_an_arrow_is_a_prompt():
    """RHEL's "[root@host ~]# ", Git's "alice$ " and libvirt's "$> " open what is typed; psql's
    "test-# " goes on with a statement, as before."""
    assert typed_commands(["[root@host ~]# yum update", "Loaded plugins: fastestmirror",
                           "alice$ git fetch bob", "$> virsh domblklist vm1", "Target Source",
                           "guest# mount -t virtiofs mount_tag /mnt"]) == [
        "yum update", "git fetch bob", "virsh domblklist vm1", "mount -t virtiofs mount_tag /mnt"]
    assert typed_commands(["test=# CREATE TRIGGER tcn", "test-#   after insert on tcndata;"]) == [
        "CREATE TRIGGER tcn after insert on tcndata;"]


@pytest.mark.parametrize(("lines", "language", "typed"), [
    # a session at root's prompt, with what its command prints
    (["# wodim --devices", "wodim: Overview of accessible drives (1 found) :", " 0 dev='/dev/sg0'"], "",
     ["wodim --devices"]),
    (["# ls /var/lib/libvirt/sanlock/", "__LIBVIRT__DISKS__"], "", ["ls /var/lib/libvirt/sanlock/"]),
    (["# adduser fish"], "", ["adduser fish"]),  # every line at the prompt
    (["# chkconfig sanlock on", "# service sanlock start"], "console", ["chkconfig sanlock on", "service sanlock start"]),
    # root after "su", and a command beside a user's
    (["$ su - root", "# yum install libvirt-lock-sanlock"], "", ["su - root", "yum install libvirt-lock-sanlock"]),
    (["$ isoinfo -d -i /dev/cdrom", "Volume size is: 23150592", "# dd if=/dev/cdrom bs=2048 | md5sum"], "",
     ["isoinfo -d -i /dev/cdrom", "dd if=/dev/cdrom bs=2048 | md5sum"]),
    # comments: in a session, in a file, in a script's language, a label
    (["$ cargo build", "# now run it", "$ ./target/debug/app"], "", ["cargo build", "./target/debug/app"]),
    (["# use /bin/sh to run commands, no matter what /etc/passwd says", "SHELL=/bin/sh"], "",
     ["# use /bin/sh to run commands, no matter what /etc/passwd says", "SHELL=/bin/sh"]),
    (["# exclude everything except directory foo/bar", "/*", "!/foo"], "",
     ["# exclude everything except directory foo/bar", "/*", "!/foo"]),
    (["# mount -t auto /dev/sdb1 /mnt", "make"], "bash", ["# mount -t auto /dev/sdb1 /mnt", "make"]),
    (["# /etc/fstab: static file system information.", "proc /proc proc defaults 0 0"], "",
     ["# /etc/fstab: static file system information.", "proc /proc proc defaults 0 0"]),
])
def test_roots_prompt_is_told_from_a_comment(lines, language, typed):
    """The Debian Reference's, the installation guide's and libvirt's sessions at root's "# "
    prompt give their commands without the prompt and without what they print; a comment stays
    a line of the file or script it is in."""
    assert typed_commands(lines, language) == typed


def test_a_sentence_that_says_the_following_introduces_its_code_without_a_colon():
    """The Debian Reference ends the sentence before a command with "by the following." or
    "as follows" rather than a colon: the step holds the command."""
    body = ("You can change it by the following.\n\n```\n$ sudo update-alternatives --config editor\n```\n\n"
            "Make the image from the CD-ROM device as follows\n\n```\nisoinfo -d -i /dev/cdrom\n```\n")
    assert prose_steps(body) == ["You can change it by the following: `sudo update-alternatives --config editor`",
                                 "Make the image from the CD-ROM device as follows: `isoinfo -d -i /dev/cdrom`"]
    assert introduced("Make the image as follows.\n\n```\nisoinfo -d -i /dev/cdrom\n```\n") == ["isoinfo -d -i /dev/cdrom"]


def test_a_sentence_that_says_to_use_the_following_lines_and_where_takes_them():
    """Apache's guide goes on after "the following directives" to say where they go, and ends
    with a full stop; the directives (too many lines to join a step that only names them) are
    what the step uses."""
    body = ("You can use the following directives, either placed in the file `.htaccess`, or placed in "
            "`apache2.conf` inside a section.\n\n```config\nAuthType Basic\nAuthName \"Restricted Files\"\n"
            "AuthBasicProvider file\nAuthUserFile \"/usr/local/apache/passwd/passwords\"\nRequire user rbowen\n```\n")
    assert prose_steps(body) == ["You can use the following directives, either placed in the file .htaccess, or "
                                 "placed in apache2.conf inside a section: `AuthType Basic; AuthName \"Restricted "
                                 "Files\"; AuthBasicProvider file; AuthUserFile \"/usr/local/apache/passwd/passwords\";"
                                 " Require user rbowen`"]


def test_an_earlier_steps_command_shown_as_it_runs_is_not_a_step_again():
    """Apache's guide runs `htpasswd -c …`, then shows the same command at a "#" prompt with the
    password prompts it prints, after "htpasswd will ask you for the password, … to confirm it:";
    that sentence was a step with the command again. A sentence that introduces a command alone
    (typed again, "Run it again:") keeps it."""
    body = ("To create the file, type:\n\n```\nhtpasswd -c /usr/local/apache/passwd/passwords rbowen\n```\n\n"
            "htpasswd will ask you for the password, and then ask you to type it again to confirm it:\n\n```\n"
            "# htpasswd -c /usr/local/apache/passwd/passwords rbowen\nNew password: mypassword\n"
            "Re-type new password: mypassword\nAdding password for user rbowen\n```\n\n"
            "If it fails, run it again:\n\n```\nhtpasswd -c /usr/local/apache/passwd/passwords rbowen\n```\n")
    assert prose_steps(body) == ["To create the file, type: `htpasswd -c /usr/local/apache/passwd/passwords rbowen`",
                                 "If it fails, run it again: `htpasswd -c /usr/local/apache/passwd/passwords rbowen`"]


def test_a_numbered_list_of_what_to_consider_gives_no_steps():
    """"1. Knowing what to backup and recover. 2. Assessing risks and costs involved." are topics,
    not steps; a list whose items say what to do stays steps whatever their first word."""
    assert topics(["Knowing what to backup and recover.", "Knowing how to backup and recover.",
                   "Assessing risks and costs involved."])
    assert not topics(["Bring the water to the boil.", "Steeping the leaves too long makes the tea bitter."])
    assert not topics(["Installing the package.", "Run the installer."])
    assert not topics(["Serving: pour the soup into bowls.", "Serving: add the herbs."])
    # a long item whose list comes after a colon is no label and what it says there: git's use cases
    # of submodules, the second with the limits it overcomes ("… you can use submodules to …")
    assert topics(["Using another project while maintaining independent history. Submodules allow you to "
                   "keep the history of both projects separate.",
                   "Splitting a project into multiple repositories and tying them back together. This can "
                   "be used to have finer grained access:\n- Size: you can use submodules to hold large "
                   "binary assets."])
    policy = Procedure("", "Backup and recovery policy", ["Knowing what to backup and recover.",
                       "Assessing risks and costs involved."], {"doc_id": "ch10.html"})
    assert unit_steps(policy) == []
    # a bulleted one gives the reasons an FAQ answer lists, and stays
    reasons = step_unit("Why have Cargo.lock in version control?", "It depends on your needs.\n\n"
                        "- Running git bisect to find the root cause of a bug\n- Ensuring CI only fails due to new "
                        "commits\n", "cargo/faq.html", "FAQ", unit_type="FAQ")
    assert unit_steps(reasons) == ["Running git bisect to find the root cause of a bug",
                                   "Ensuring CI only fails due to new commits"]


def test_a_bulleted_list_of_notes_gives_no_steps_and_the_sentences_that_say_what_to_do_stay():
    """A reference page's notes ("Ordinal dates are not currently supported.") are no steps; a
    list of ingredients or one item that says what to do keeps the list."""
    assert notes_only(["Time zone offsets may have fractional seconds.", "Ordinal dates are not currently supported."])
    assert not notes_only(["500 g flour", "2 eggs"])
    assert not notes_only(["The log holds 1,000 entries.", "Collect the log soon after a failure."])
    assert not notes_only(["Collect the logs.", "Send them to the support team."])
    body = ("Parses a date string. Use the strict form for stored data.\n\n- Time zone offsets may have fractional "
            "seconds.\n- Ordinal dates are not currently supported.\n")
    assert unit_steps(step_unit("fromisoformat", body, "datetime.html", "datetime")) == [
        "Use the strict form for stored data."]


def test_a_pages_figures_are_no_steps():
    """A recipe's "⏲️ Prep time: 90 min", "🍳 Cook time: 30 min" and "🍽️ Servings: 4" under its
    introduction: figures of the page, which the answer gave as steps between the naan's and the
    rice's. A list whose labelled items say what to do stays."""
    figures = ["⏲️ Prep time: 90 min", "🍳 Cook time: 30 min", "🍽️ Servings: 4"]
    assert states_quantities(figures)
    assert not states_quantities(["Step 1: Open the file", "Step 2: Save it"])
    assert not states_quantities(["Prep time: 90 min"])
    body = ("A curry serves best with naan. At home we make it in the oven.\n\n"
            + "\n".join(f"- {line}" for line in figures))
    assert unit_steps(step_unit("About Naan Bread", body, "naan-bread.md", "Naan Bread")) == []


def test_lists_of_the_values_a_setting_takes_are_no_steps():
    """CUPS's N-Up section lists the values of `-o page-border=` and `-o number-up-layout=`:
    choices, not steps; the sentence that says how, with its example, is the step. A list of
    different commands' settings stays."""
    assert values_of_settings(["`-o page-border=double`; draw two hairline borders",
                               "`-o page-border=none`; do not draw a border (default)",
                               "`-o number-up-layout=btlr`; Bottom to top, left to right",
                               "`-o number-up-layout=lrtb`; Left to right, top to bottom (default)"])
    assert not values_of_settings(["`-o page-border=double`; draw two hairline borders"])
    assert not values_of_settings(["Set `ssl=yes` in the file.", "Set `ssl=required` to require it."])
    assert not values_of_settings(["`-o page-border=double`; draw borders", "`-o number-up=2`; two pages a sheet"])
    body = ("The `-o number-up=value` option selects N-Up printing. N-Up printing places multiple document "
            "pages on a single printed page:\n\n```\nlp -o number-up=2 filename\n```\n\n"
            "The `-o page-border=value` option chooses the border to draw around each page:\n\n"
            "- `-o page-border=double`; draw two hairline borders around each page\n"
            "- `-o page-border=none`; do not draw a border (default)\n")
    steps = unit_steps(step_unit("N-Up Printing", body, "options.html", "Command-Line Printing and Options"))
    assert steps and "lp -o number-up=2 filename" in steps[0]
    assert not any("page-border=double" in step for step in steps)


@pytest.mark.parametrize(("body", "expected"), [
    # a sentence's enumeration ("many tasks are scheduled: - rotating the logs; - back-ups;") is
    # no steps ...
    ("In a Unix system, many tasks are scheduled for regular execution:\n\n- rotating the logs;\n"
     "- updating the database for the `locate` program;\n- back-ups;\n- maintenance scripts.\n\n"
     "Edit your crontab by running `crontab -e`.", ["Edit your crontab by running crontab -e."]),
    # ... items that say what to do stay steps whatever ends them
    ("- Open the file;\n- add the line;\n- save it.", ["Open the file;", "add the line;", "save it."]),
    # a list of what something is for is no steps ...
    ("Vacuuming is needed for several reasons:\n\n1. To recover disk space occupied by deleted rows.\n"
     "2. To update the statistics the planner uses.\n\nIf the table is emptied often, consider TRUNCATE "
     "rather than DELETE.", ["If the table is emptied often, consider TRUNCATE rather than DELETE."]),
    # ... a goal that goes on to say what to do is a step
    ("1. To add a rule, open the Rules page.\n2. To remove one, select it and click Delete.",
     ["To add a rule, open the Rules page.", "To remove one, select it and click Delete."]),
    # what a chapter teaches is no steps (Wireshark's user guide) ...
    ("In the next chapters we will explore:\n\n- How the Wireshark user interface works\n- How to capture "
     "packets in Wireshark\n- …​ and many other things!\n\nStart Wireshark from the menu.",
     ["Start Wireshark from the menu."]),
    # ... nor the fields it names, whatever line says there are more ...
    ("The packet list shows:\n\n- Protocol\n- Source address\n- …​ and a lot more!\n\nClick a column to sort it.",
     ["Click a column to sort it."]),
    # (an item that goes on from the one before it after "..." is a step)
    ("- Build the module normally.\n- ...and then use blib to point Perl at it: `perl -Mblib script.pl`",
     ["Build the module normally.", "...and then use blib to point Perl at it: perl -Mblib script.pl"]),
    # ... nor are the platforms it names, one of them with its alternatives
    ("Binary packages are available for:\n\n- Alpine Linux\n- Debian GNU/Linux\n- Red Hat Enterprise Linux / "
     "CentOS / Fedora\n\nIf no binary package is available you can download the source and build it.",
     ["If no binary package is available you can download the source and build it."]),
])
def test_a_list_that_continues_a_sentence_or_says_what_something_is_for_gives_no_steps(body, expected):
    assert unit_steps(step_unit("Section", body, "admin/page.html", "Page")) == expected


def test_a_steps_title_in_bold_is_joined_to_its_text_with_a_colon():
    """DocBook's procedures title each step ("Create a Starting Point") above its text."""
    text = ("1. **Choose a Tool**\n\n   Any of the painting tools can draw lines.\n"
            "2. **Create a Starting Point**\n\n   Click in the image where the line starts.\n")
    assert unit_steps(step_unit("Draw a straight line", text, "tutorial/lines.html", "Lines")) == [
        "Choose a Tool: Any of the painting tools can draw lines.",
        "Create a Starting Point: Click in the image where the line starts."]
    procedure = Procedure("", "Draw a straight line", [one_line("**Choose a Tool**\n\nAny tool can draw lines.")],
                          unit_meta("tutorial/lines.html", "Lines"))
    assert procedure.steps == ["Choose a Tool: Any tool can draw lines."]


def test_a_guide_written_as_prose_says_what_to_do_by_what_it_is_done_with():
    text = ("Creating user accounts is one of the first tasks on a new machine. This is typically done using "
            "the adduser command, which takes the new user's name as an argument. The accounts are kept in "
            "/etc/passwd.")
    assert prose_steps(text) == ["This is typically done using the adduser command, which takes the new "
                                 "user's name as an argument."]
    # a reference manual says so of a setting (NTPsec's poll interval)
    text = ("The poll exponent ranges from 3 (8 s) through 17 (36 h). The minimum and maximum poll exponent can be "
            "set using the minpoll and maxpoll options of the server command. The value is set by the kernel.")
    assert prose_steps(text) == ["The minimum and maximum poll exponent can be set using the minpoll and maxpoll "
                                 "options of the server command."]


def test_a_guide_says_what_has_to_be_done_without_saying_you():
    """The Debian installation guide: "the feature has to be disabled within Windows", "it is
    suggested to re-check this setting" are steps; what has to be true of a thing, or what is
    possible, is not."""
    text = ("Windows offers a feature called fast startup. Therefore in a dual boot setup, to avoid filesystem "
            "corruption the fast startup feature has to be disabled within Windows. Windows Update has been known "
            "to enable it again. It is suggested to re-check this setting periodically. Each request set aside "
            "has to be set aside in RAM. It is possible to run a desktop on older systems.")
    assert prose_steps(text) == [
        "Therefore in a dual boot setup, to avoid filesystem corruption the fast startup feature has to be "
        "disabled within Windows.", "It is suggested to re-check this setting periodically."]


def test_short_code_that_a_step_writes_joins_the_step():
    """A reference entry's signature, a file's lines: code that is not run joins the step before
    it when short; a program's long listing and a command's output do not."""
    body = ("Add compile definitions to a target.\n\n```cmake\ntarget_compile_definitions(<target>\n"
            "  <INTERFACE|PUBLIC|PRIVATE> [items1...])\n```\n\nThe definitions apply to the target's sources.\n")
    assert prose_steps(body) == ["Add compile definitions to a target: `target_compile_definitions(<target> "
                                 "<INTERFACE|PUBLIC|PRIVATE> [items1...])`"]
    listing = ("Replace the code in src/main.rs with this program.\n\n```rust\nfn main() {\n    let x = 5;\n    println!(\"{x}\");\n"
               "    let y = x + 1;\n}\n```\n")
    assert prose_steps(listing) == ["Replace the code in src/main.rs with this program."]


def test_an_action_whose_object_was_an_icon_is_no_step():
    """LibreOffice's help: "On the Standard bar, click" beside a table cell holding the icon."""
    text = "- Choose Sort Descending in the Data menu.\n- On the Standard bar, click\n- Open context menu, choose"
    assert unit_steps(step_unit("Sort Descending", text, "help/sort.html", "Sort")) == [
        "Choose Sort Descending in the Data menu."]


def test_a_sentence_that_only_points_elsewhere_is_no_step():
    """"See package-lock.json and npm shrinkwrap." names where to read on; "See if the tree
    changed" says what to check."""
    text = ("- Run `npm ls` in the project.\n- See [`package-lock.json`](../x.html) and npm shrinkwrap.\n"
            "- See if the tree changed after the install. See npm-explain.\n"
            "- Open the file. See the notes in config.md for details.\n"
            "- If you run a registry server, see Running a Registry for more details about the protocol.\n"
            "- When the registry needs a token, see Registry Authentication.")
    assert unit_steps(step_unit("Check the tree", text, "npm/npm-ls.md", "npm-ls")) == [
        "Run npm ls in the project.", "See if the tree changed after the install.", "Open the file."]
    pointers = ("- Install the component with `rustup component add clippy`.\n"
                "- If you are not sure, take a look at the Installation chapter.\n"
                "- For individual details, refer to the --check-cfg documentation and to the Cargo book.\n"
                "- Refer to the table below for the values.\n- Open the Settings page.")
    assert unit_steps(step_unit("Install it", pointers, "clippy/usage.md", "usage")) == [
        "Install the component with rustup component add clippy.", "Refer to the table below for the values.",
        "Open the Settings page."]
    checks = ("- Enable the notification feature.\n- Check the notifications chapter for detailed examples.\n"
              "- Check the recurring downtimes example for details.\n- Check the Enabled box in the General section.\n"
              "- Check the log file for details.")  # Icinga's pointers; a box to tick and a file to read stay
    assert unit_steps(step_unit("Notify", checks, "icinga/objects.md", "Object Types")) == [
        "Enable the notification feature.", "Check the Enabled box in the General section.",
        "Check the log file for details."]


def test_a_list_of_methods_that_says_what_each_does_or_of_their_traits_is_no_steps():
    """Icinga's certificate signing: "CSR Auto-Signing which uses a ticket …" names a method and
    what it does; the lists under "Advantages:" and "Disadvantages:" hold its traits. Neither
    says what to do."""
    methods = ("Icinga 2 provides two methods to sign certificates:\n\n"
               "* CSR Auto-Signing which uses a client ticket generated on the master as trust identifier.\n"
               "* On-Demand CSR Signing which allows to sign pending certificate requests on the master.\n")
    assert unit_steps(step_unit("Signing Certificates on the Master", methods, "icinga/dm.md", "Distributed")) == []
    traits = ("The client sends a certificate signing request to its parent without a ticket. The admin on the "
              "master reviews and signs the requests.\n\nAdvantages:\n\n"
              "* Central certificate request signing management.\n"
              "* No pre-generated ticket is required for client setups.\n\nDisadvantages:\n\n"
              "* Asynchronous step for automated deployments.\n* Needs client verification on the master.\n")
    assert unit_steps(step_unit("On-Demand CSR Signing", traits, "icinga/dm.md", "Distributed")) == []


def test_a_list_of_the_modes_something_comes_in_is_no_steps():
    """Knot DNS's "The signing can operate in two modes:" over what each mode does; a list of
    ways to work around a problem stays steps."""
    modes = ("Knot DNS supports automatic DNSSEC signing of zones. The signing can operate in two modes:\n\n"
             "1. Automatic key management. In this mode, the server maintains signing keys.\n"
             "2. Manual key management. In this mode, the server maintains zone signatures only.\n")
    assert unit_steps(step_unit("Automatic DNSSEC signing", modes, "knot/configuration.html", "Configuration")) == []
    ways = ("There are several ways to work around this:\n\n- Allow reusing of ports in TIME_WAIT.\n"
            "- Shorten the TIME_WAIT timeout.\n")
    assert unit_steps(step_unit("Secondary zone", ways, "knot/configuration.html", "Configuration")) == [
        "Allow reusing of ports in TIME_WAIT.", "Shorten the TIME_WAIT timeout."]


def test_a_list_of_the_parts_something_is_made_of_is_no_steps():
    """A live system's manual: "It is made from the following parts:" over each part and what
    it is (its first led "How do I run a script at boot time?" as "Linux kernel image, usually
    named vmlinuz*"); a list of what a procedure "consists of" stays steps."""
    parts = ("A live system is an operating system booted from a removable medium. It is made from the "
             "following parts:\n\n- **Linux kernel image**, usually named `vmlinuz*`\n"
             "- **Initial RAM disk image (initrd)**: a RAM disk set up for the Linux boot.\n"
             "- **Bootloader**: A small piece of code crafted to boot from the chosen medium.\n")
    assert unit_steps(step_unit("What is a live system?", parts, "live/the-basics.html", "The basics")) == []
    procedure = ("Upgrading consists of the following steps:\n\n- Back up the configuration.\n"
                 "- Install the new package.\n")
    assert unit_steps(step_unit("Upgrading", procedure, "live/the-basics.html", "The basics")) == [
        "Back up the configuration.", "Install the new package."]


def test_the_lines_of_a_configuration_file_are_shown_not_run():
    """npm's .npmrc example is an ini file's lines; a PowerShell variable set from a cmdlet is a
    command."""
    ini = ("Values may refer to the environment.\n\n```ini\ncache = ${HOME}/.npm-packages\n"
           "node-options = \"${NODE_OPTIONS?} --use-system-ca\"\nkey[] = \"first value\"\n```\n")
    assert prose_steps(ini) == []
    script = ("Get the service application.\n\n```\n$ssa = Get-SPEnterpriseSearchServiceApplication\n"
              "$ssa.Update()\n```\n")
    assert prose_steps(script) == ["Run `$ssa = Get-SPEnterpriseSearchServiceApplication; $ssa.Update()`"]


def test_a_continued_command_is_one_and_an_option_with_what_it_does_is_no_step():
    """The embedded Rust book starts QEMU with a command over several lines, each ending with
    "\\", then lists the flags it passed, each with what it does."""
    text = ("The first debugging step is to launch QEMU in debugging mode:\n\n```\nqemu-system-arm \\\n"
            "  -cpu cortex-m3 \\\n  -gdb tcp::3333 \\\n  -S\n```\n\nWe have passed two extra flags:\n\n"
            "- `-gdb tcp::3333`. This tells QEMU to wait for a GDB connection on TCP port 3333.\n"
            "- `-S`. This tells QEMU to freeze the machine at startup.\n")
    assert unit_steps(step_unit("Debugging", text, "embedded/qemu.md", "QEMU")) == [
        "The first debugging step is to launch QEMU in debugging mode: "
        "qemu-system-arm -cpu cortex-m3 -gdb tcp::3333 -S"]
    assert plain_text("- `-S`. Freeze the machine") == "-S. Freeze the machine"  # an option keeps its dash


def test_a_list_of_what_a_thing_does_is_no_procedure():
    """Rust by Example lists what a good error type does; its items open with a verb that says
    what the type does, not what to do. "Press" and a label or a path still lead steps."""
    text = ("An error type that:\n\n- Represents different errors with the same type\n"
            "- Presents nice error messages to the user\n- Is easy to compare with other types\n"
            "- Composes well with other errors\n")
    assert unit_steps(step_unit("Defining an error type", text, "rbe/error.md", "Errors")) == []
    assert not any(map(describes, ["Press the power button", "Windows: Open Settings", "Settings > Privacy",
                                   "Focus the window", "Is there a simpler version? First off, read RFC 1951."]))


def test_a_parameter_with_its_type_is_no_step():
    """Node.js's API reference lists each function's parameters with their types."""
    text = ("- `path` {string|Buffer|URL|FileHandle} filename or FileHandle\n"
            "- `options` {Object|string}\n- encoding {string|null} Default: null\n"
            "- `callback` <Function> Optional function to be called when a timeout occurs.\n- err {Error}\n"
            "- encoding [<string>](https://nodejs.org/string) | [<null>](https://nodejs.org/null) Default: null\n"
            "- Open the {settings} page and press OK.\n")
    assert unit_steps(step_unit("fs.readFile(path[, options], callback)", text, "node/fs.md", "File system")) == [
        "Open the {settings} page and press OK."]


def test_a_sphinx_field_list_of_parameters_is_no_steps():
    """Knot Resolver's `cache.clear()`: Sphinx writes each parameter as "**name** (*type*) – what
    it is", though its description may say what the caller may do."""
    text = ("- **name** (*string*) – subtree to purge; if the name isn’t provided, whole cache is purged.\n"
            "- **exact_name** (*bool*) – if set to `true`, only records with *the same* name are removed.\n"
            "- **rr_type** (*kres.type*) – you may additionally specify the type to remove.\n"
            "- **prev_state** (*table*) – return value from previous run (can be used by callback)\n")
    assert unit_steps(step_unit("`cache.clear([name])`: Parameters", text, "kres/cache.html", "Cache")) == []
    returns = ("`count` key is always present.\n\n- **count** *(integer)* - number of items removed from cache by "
               "this call\n- **not_apex** - cleared subtree is not cached as zone apex\n- **subtree** *(string)* - hint "
               "where zone apex lies\n")
    assert unit_steps(step_unit("Returns:", returns, "kres/cache.html", "Cache")) == []


def test_the_conventions_a_guide_writes_in_are_no_steps():
    """Knot Resolver's quick start opens by showing what a command and a configuration snippet
    look like; the installation commands after it are the steps."""
    conventions = ("Before we start let us explain basic conventions used in this text:\n\nThis is Linux/Unix "
                   "shell command to be executed and an output from this command:\n\n```bash\n$ echo \"This is "
                   "output!\"\nThis is output!\n```\n\nSnippets from the configuration file look like this:\n\n"
                   "```lua\nnet.listen('192.0.2.1')\n```\n")
    assert unit_steps(step_unit("Installation", conventions, "kres/install.html", "Installation")) == []
    notation = step_unit("Notation", "Run commands as root with `sudo`.", "guide/intro.html", "Guide")
    notation.meta["section"] = "Guide > 1.2. Notation"
    assert unit_steps(notation) == []
    install = step_unit("Installation", "Install the package:\n\n```bash\n$ sudo apt install -y knot-resolver\n```\n",
                        "kres/install.html", "Installation")
    assert unit_steps(install) == ["Run sudo apt install -y knot-resolver"]


def test_a_list_in_a_code_block_of_its_own_is_no_list_of_steps():
    """A GitHub Actions workflow's "- name: Run Clippy" is a file's line; a block whose fence names
    no language (a part whose fences a split left unbalanced) and a block under an item keep
    their lines as before."""
    workflow = ("Add the workflow to the repository:\n\n```yml\nsteps:\n  - uses: actions/checkout@v6\n"
                "  - name: Run Clippy\n    run: cargo clippy\n```\n\n- Push the branch.\n- Open the Actions tab.")
    assert unit_steps(step_unit("GitHub Actions", workflow, "ci/github.md", "CI")) == [
        "Push the branch.", "Open the Actions tab."]
    unbalanced = "```\n1. Download the tool.\n   2. Launch the tool.\n\n3. Select Logon.\n```"
    assert unit_steps(step_unit("Collect", unbalanced, "sync.md", "Sync")) == [
        "Download the tool.", "Launch the tool.", "Select Logon."]
    under_item = "1. Add the setting to the file:\n```yaml\n  retries: 3\n```\n2. Restart the service."
    assert unit_steps(step_unit("Retry", under_item, "svc.md", "Service")) == [
        "Add the setting to the file: retries: 3", "Restart the service."]


def test_what_you_need_first_is_a_step():
    text = ("Android targets support the standard library. To build Rust binaries for Android you’ll need a "
            "copy of the most recent LTS edition of the Android NDK. The NDK holds the linker.")
    assert prose_steps(text) == ["To build Rust binaries for Android you’ll need a copy of the most recent LTS "
                                 "edition of the Android NDK."]


def test_what_a_clause_of_purpose_or_result_lets_someone_do_is_no_step():
    """A manual written as prose (Claws Mail's): "so that you can ...", "so the recipient can
    ...", "This way, you can ..." say what something is for; what the main clause says to do
    stays a step, and so does a modal after a clause that only sets the case."""
    text = ("Sent messages are saved in the Sent folder, so that you can recall what you wrote. "
            "A signature is attached so the recipient can verify the message. "
            "This way, you can search the whole mailbox at once. "
            "If you set the search to be recursive, any subfolder with matches changes its icon. "
            "For people who write a lot, having to reach for the mouse slows them down. "
            "Use the -v option so that you can see what happens. "
            "As these formats are rare, you can also import LDIF files.")
    assert prose_steps(text, limit=10) == ["Use the -v option so that you can see what happens.",
                                           "As these formats are rare, you can also import LDIF files."]


def test_a_sentence_that_opens_with_what_to_avoid_says_what_to_do_only_when_it_goes_on_so():
    """Wireshark's guide: "To avoid this, Wireshark tries to figure out ..." says what the
    program does; "To fix this, restart the service", "..., use it to resolve the issue" and "To
    avoid this either use ..." say what to do."""
    text = ("To avoid this, Wireshark tries to figure out if it is remotely connected. "
            "To fix this, restart the capture service. "
            "Download the tool and use it to resolve the issue. "
            "To avoid this either use the Source View plugin or verbatim formatting.")
    assert prose_steps(text) == ["To fix this, restart the capture service.",
                                 "Download the tool and use it to resolve the issue.",
                                 "To avoid this either use the Source View plugin or verbatim formatting."]


def test_a_purpose_then_the_control_to_use_says_what_to_do_without_a_comma():
    """GnuCash's pages: "To create a new account go to Actions → New Account"."""
    text = ("To create a new account go to Actions → New Account. To do so the program selects a file. "
            "To open the register double-click the account.")
    assert prose_steps(text) == ["To create a new account go to Actions → New Account.",
                                 "To open the register double-click the account."]


def test_a_list_of_conditions_is_no_list_of_steps():
    """BIND's resolver: the list completes the sentence before it with the queries it keeps
    local; the steps are the section's other list."""
    body = ("As a reminder, this resolver does **not** forward any recursive query for which:\n\n"
            "1. The answer is already in the cache.\n2. Is a reverse-map query for 127.0.0.1.\n\n"
            "To forward the other queries:\n\n1. Add a `forwarders` statement to `named.conf`.\n"
            "2. Run `rndc reconfig`.")
    assert unit_steps(step_unit("Forwarding", body, "arm/chapter3.html", "Resolver")) == [
        "Add a forwarders statement to named.conf.", "Run rndc reconfig."]


def test_a_bulleted_list_that_says_nothing_to_do_gives_way_to_the_sentences_that_do():
    """GnuCash's "Creating a New Account": the details to plan are a list, what to do a sentence."""
    body = ("To create a new account go to **Actions** → **New Account**. The **New Account** dialog "
            "opens.\n\nCreating an account involves planning several details:\n\n- What type of account is "
            "needed.\n- Where it fits in the structure of the Chart of Accounts.\n- If there is an Opening "
            "Balance.\n")
    assert unit_steps(step_unit("New account", body, "gnc/acct-create.html", "Accounts")) == [
        "To create a new account go to Actions → New Account."]
    # without a sentence that says what to do, the list still gives its lines
    alone = step_unit("New account", body.split("\n\n", 1)[1], "gnc/acct-create.html", "Accounts")
    assert unit_steps(alone) == ["What type of account is needed.",
                                 "Where it fits in the structure of the Chart of Accounts.",
                                 "If there is an Opening Balance."]


def test_a_numbered_list_that_continues_a_sentence_is_no_procedure():
    """rsyslog's message flow: "rsyslog 1. first receives messages, 2. then parses them and
    3. then processes them." enumerates what the program does."""
    steps = ["first receives messages (via the input module),", "then parses them (at the message level!) and",
             "then processes them (operating on the internal message representation)."]
    flow = Procedure("", "Message flow", steps, unit_meta("rsyslog/concepts.html", "Messages", 0))
    assert unit_steps(flow) == []
    body = "The daemon\n\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    assert unit_steps(step_unit("Message flow", body, "rsyslog/concepts.html", "Messages")) == []


def test_a_name_in_code_over_what_it_is_reads_as_its_entry_not_a_command_to_run():
    """The New Maintainers' Guide lists the control file's fields: "`Replaces`", then what it is for."""
    body = ("Fields of the control file:\n\n- `Replaces`\n  Use this when your program replaces files from another "
            "package.\n- `Conflicts`\n  Use this when your program cannot be installed with another package.\n")
    assert unit_steps(step_unit("Fields", body, "maint-guide/dreq.html", "Control")) == [
        "Replaces: Use this when your program replaces files from another package.",
        "Conflicts: Use this when your program cannot be installed with another package."]
    assert one_line("`Replaces`\n   Use this when your program replaces files.") == \
        "`Replaces`: Use this when your program replaces files."
    assert one_line("`cargo login`\n   This only needs to be done once.") == \
        "Run `cargo login`. This only needs to be done once."


def test_items_under_a_bulleted_item_are_part_of_its_step():
    """The New Maintainers' Guide's workflow: each step with the files it makes under it; GnuCash's
    preferences: a title in bold over its options, which are the steps."""
    body = ("The workflow:\n\n- Get a copy of the upstream software.\n   - `package-version.tar.gz`\n"
            "- Add the packaging under `debian`, and create a source package:\n   - `package_version.orig.tar.gz`\n"
            "   - `package_version-revision.dsc`\n")
    assert unit_steps(step_unit("Workflow", body, "maint-guide/first.html", "Workflow")) == [
        "Get a copy of the upstream software. package-version.tar.gz",
        "Add the packaging under debian, and create a source package: package_version.orig.tar.gz; "
        "package_version-revision.dsc"]
    body = ("- **Online Banking**\n   - **Remember PIN:** Enable this option to keep the PIN.\n"
            "   - **Verbose debug messages:** Enable this option to see more.\n")
    assert unit_steps(step_unit("Online Banking", body, "gnc/set-prefs.html", "Preferences")) == [
        "Remember PIN: Enable this option to keep the PIN.", "Verbose debug messages: Enable this option to see more."]


def test_a_title_further_on_in_a_step_ends_what_came_before_it():
    """GnuCash's CSV import: a step holds a titled group of controls; its title read as the end of
    the sentence before it ("… to be imported. Import preview Controls; Load and Save Settings …")."""
    body = ("1. **Import Preview**: The pane sets options for the import\n   **Import preview Controls**\n"
            "   - **Load and Save Settings**\n      The settings group keeps the options.\n"
            "   - **Account**: Select the account to import into.\n2. Click **Next**.\n")
    assert one_line(body.split("\n2. ")[0][3:]) == (
        "Import Preview: The pane sets options for the import. Import preview Controls: Load and Save Settings: "
        "The settings group keeps the options. Account: Select the account to import into.")
    assert unit_steps(step_unit("CSV import", body, "gnc/trans-import.html", "Import"))[0].startswith(
        "Import Preview: The pane sets options for the import. Import preview Controls: ")


def test_a_bulleted_item_that_says_what_a_setting_decides_is_no_step():
    """KiCad's symbol properties: "Whether the symbol should be excluded from the bill of
    materials." says what a checkbox decides; the Developer's Reference's list of what to tell
    the security team ("Whether or not the bug is already public.") too. The item that says what
    to do stays."""
    unit = step_unit("Symbol properties", "Set these in the symbol's properties:\n\n"
                     "- Whether the symbol is a power symbol.\n"
                     "- Whether the symbol should be excluded from the bill of materials.\n"
                     "- Click OK to save the symbol.\n", "kicad/eeschema.html", "Schematic Editor")
    assert unit_steps(unit) == ["Click OK to save the symbol."]


def test_a_block_of_what_a_program_says_is_no_command_to_run():
    """APT's guide printed as text shows its set-up dialog in an indented block: "Please give the
    components to get" is what the program asks, not a command ("Run Please give …"); the
    commands typed at a prompt in the next block are."""
    unit = step_unit("Set up sources", "The set-up starts by asking for the components.\n\n```\n"
                     "Please give the components to get\nThe components are typically something like: main contrib\n"
                     "Components [main contrib]:\n```\n\nThen update the lists:\n\n```\n# apt-get update\n```\n",
                     "apt/guide.text", "APT Guide")
    assert unit_steps(unit) == ["Then update the lists: apt-get update"]
    wrapped = step_unit("Set up sources", "It then asks for the distribution.\n\n```\nPlease give the distribution "
                        "tag to get or a path to the\npackage file ending in a /. The distribution\ntags are typically "
                        "something like: stable unstable testing\n```\n", "apt/guide.text", "APT Guide")
    assert not any(step.startswith("Run ") for step in unit_steps(wrapped))
    # directives that start with a capital are typed, not said
    directives = step_unit("Access control", "To block a whole domain, you can specify part of an address:\n\n```\n"
                           "Require not ip 192.168.205\nRequire not host phishers.example.com\n```\n",
                           "apache/access.html", "Access Control")
    assert unit_steps(directives) == ["To block a whole domain, you can specify part of an address: "
                                      "Require not ip 192.168.205; Require not host phishers.example.com"]


def test_a_configuration_line_shown_after_a_sentence_is_no_command_to_run():
    """A walk through a configuration file shows each setting in a block of its own, then says
    what it does (Exim's default configuration: "require verify = recipient", a commented-out
    "# require verify = csa"): settings, not commands ("Run require verify = recipient")."""
    unit = step_unit("ACL configuration", "These lines check each recipient.\n\n```\nrequire verify = recipient\n```\n\n"
                     "This statement requires the recipient address to be verified.\n\n```\n# require verify = csa\n```\n\n"
                     "This commented-out line turns on CSA checking. To list the queue, run:\n\n```\nexim -bp\n```\n",
                     "exim/spec.html", "The default configuration file")
    assert unit_steps(unit) == ["To list the queue, run: exim -bp"]


def test_a_sentence_that_opens_the_dialog_it_introduces_is_a_step_and_an_introduction_that_needs_its_code_is_not():
    """KiCad's "Select the Generate Drill Files option from the Fabrication Outputs menu to open
    the dialog:" over the dialog's options says all there is to do; "To check it, run the
    following:" without its code, and a statement that ends with a colon, say nothing."""
    text = ("KiCad can generate drill files. Select the Generate Drill Files option from the Fabrication Outputs "
            "menu to open the dialog:\n\n**Output folder:** Choose the folder to save the files to.\n\n"
            "To check it, run the following:\n\nMany tasks are scheduled for regular execution:\n\n"
            "Use multiple daemons when:\n\nUse the following methods to set the layer opacity:\n")
    assert prose_steps(text) == ["Select the Generate Drill Files option from the Fabrication Outputs menu to "
                                 "open the dialog."]


def test_an_item_that_names_a_menu_entry_and_leaves_its_description_out_is_no_step():
    """Gnumeric's Data menu lists "Table... —" with nothing after the dash."""
    unit = step_unit("Data menu", "- Consolidate... — The Consolidate... menu item opens a dialog to derive data.\n"
                     "- Table... —\n- Select Sort... to sort the selected cells.\n", "gnumeric/gui-menus.xml", "Menus")
    assert "Table... —" not in unit_steps(unit)


def test_prose_that_a_sentence_introduces_stays_with_it():
    """Git's "You can do that by making a very public announcement saying:" then the words to
    say: they are what the step says, not a program's messages."""
    unit = step_unit("Retagging", "You can do that by making a very public announcement saying:\n\n```\nOk, I messed up, "
                     "and I pushed out an earlier version tagged as X.\n```\n", "git/git-tag.html", "git-tag")
    assert unit_steps(unit) == ["You can do that by making a very public announcement saying: Ok, I messed up, "
                                "and I pushed out an earlier version tagged as X."]


def test_a_licence_notice_is_no_step():
    """APT's guides open with their licence notice, which a chunk of the page carries."""
    unit = step_unit("Using APT Offline", "\"APT\" and this document are free software; you can redistribute them and/or "
                     "modify them under the terms of the GNU General Public License.\n\nYou can copy the "
                     "status file to the disc.\n", "apt/offline.text", "Using APT Offline")
    assert unit_steps(unit) == ["You can copy the status file to the disc."]


def test_a_table_of_the_commands_a_sentence_says_to_use_gives_a_step_per_row():
    """The Debian Reference: "For disabling the screen saver, use following commands.", then a
    table of environments and commands. Each row is a step that runs its command; a table that
    only lists commands ("Here are few notable commands …") gives none."""
    table = ("**Table 9.16. List of commands for disabling the screen saver**\n\n| environment | command |\n|---|---|\n"
             "| The Linux console | `setterm -powersave off` |\n| The X Window (turning off screensaver) | `xset s off` |\n")
    saver = step_unit("Disabling the screen saver", "For disabling the screen saver, use following commands.\n\n"
                      + table, "ch09.html", "System tips")
    assert unit_steps(saver) == ["Run setterm -powersave off (The Linux console)",
                                 "Run xset s off (The X Window (turning off screensaver))"]
    listing = step_unit("Managing accounts", "Here are few notable commands to manage account information.\n\n"
                        "| command | function |\n|---|---|\n| `passwd` | manage password for the account |\n"
                        "| `chage` | manage password aging information |\n", "ch04.html", "Authentication")
    assert unit_steps(listing) == []


def test_a_command_that_a_short_introduction_points_back_to_is_a_step():
    body = ("Not to worry; the editor has a quit-and-throw-things-away command.  It is:\n\n```\n:q!\n```\n\n"
            "Don't forget to press Enter to finish the command.")
    assert prose_steps(body) == ["Not to worry; the editor has a quit-and-throw-things-away command. It is: `:q!`",
                                 "Don't forget to press Enter to finish the command."]


def test_a_list_of_what_there_is_to_see_gives_no_steps():
    """An editor's file browser lists what its screen shows; a list of actions stays steps."""
    shown = LogicUnit("Step", "", "The file browser", (
        "You can see these items:\n\n1. The name of the browsing tool and its version number\n"
        "2. The name of the browsing directory\n3. How names are to be sorted (directories first)\n"
        "4. How to get help (use the <F1> key), and a listing of the commands\n"
        "5. A listing of files, including the parent directory.\n"), meta=unit_meta("browser.txt", "Browsing"))
    assert unit_steps(shown) == []
    # Kea's "The NCR contains the following information: 1. Whether it is a request to add (update)
    # or remove DNS entries. 2. Whether the change requests forward DNS updates … 3. The Fully
    # Qualified Domain Name …" (as the procedure the build extracts from it)
    request = Procedure("", "DDNS for DHCPv4", [
        "Whether it is a request to add (update) or remove DNS entries.",
        "Whether the change requests forward DNS updates (A records), reverse DNS updates (PTR records), or both.",
        "The Fully Qualified Domain Name (FQDN), lease address, and DHCID."], unit_meta("dhcp4-srv.html", "DHCPv4"))
    assert unit_steps(request) == []
    actions = LogicUnit("Step", "", "Browsing", "1. The browser opens.\n2. Press Enter on a file to edit it.\n",
                        meta=unit_meta("browser.txt", "Browsing"))
    assert unit_steps(actions) == ["The browser opens.", "Press Enter on a file to edit it."]


def test_marks_alone_are_no_step():
    """Postfix's README files number an example's lines, and one says only ". . ." for the lines
    it leaves out: it was the section's step, and "- . . [2]" a step of the answer to "How do I
    block spam with a DNS blocklist?"."""
    text = ('In order to deliver such accounts locally, you can set up virtual aliases as follows:\n\n```\n'
            '1 /etc/postfix/main.cf:\n2     virtual_alias_maps = hash:/etc/postfix/virtual\n3\n'
            '4 /etc/postfix/virtual:\n5     root     root@localhost\n6     . . .\n```\n\nTranslation:\n\n'
            '- Line 5: As described in the virtual(5) manual page, the bare name "root" matches "root@site".\n')
    unit = step_unit("Delivering some but not all accounts locally", text,
                     "postfix/STANDARD_CONFIGURATION_README.html", "Postfix Standard Configuration Examples")
    assert not [step for step in unit_steps(unit) if not any(c.isalnum() for c in step)]
    assert not is_step(". . .") and not is_step("…") and is_step("Run postfix reload.")


def test_a_section_of_works_cited_gives_no_steps():
    """NTPsec's "7. References" under the kiss-o'-death page: a paper's citation was a step of
    "How do I make my server keep serving time when it loses its upstream servers?"."""
    body = ("- Mills, D.L., J. Levine, R. Schmidt and D. Plonka. Coping with overload on the Network Time "
            "Protocol public servers. Proc. PTTI Meeting, 5-16. Paper: PDF, Slides: PDF\n"
            "- Read the protocol specification before you change the poll interval.\n")
    cited = step_unit("7. References", body, "rate.html", "Rate Management")
    cited.meta["section"] = "Rate Management > 7. References"
    assert unit_steps(cited) == []
    # the same list under another heading keeps its instruction
    kept = step_unit("7. Reading", body, "rate.html", "Rate Management")
    kept.meta["section"] = "Rate Management > 7. Reading"
    assert unit_steps(kept) == ["Read the protocol specification before you change the poll interval."]


def test_a_setting_whose_text_says_what_to_do_with_it_is_a_step_though_its_label_opens_with_a_noun():
    """Déjà Dup's preferences: "**Folders to Back Up**: Choose a list of folders …" was read as
    describing the folders (its label opens with a noun) and left out, while "**Back Up
    Automatically**: Turn this option on …" stayed only because its label opens like an
    imperative; a setting that says what it is stays no step."""
    prefs = LogicUnit("Step", "", "Preferences", "To review your backup preferences, open the menu and select "
                      "**Preferences**.\n\n- **Storage location**: The storage location is where the copies go. "
                      "If you'd like to use an external drive, plug it in.\n- **Back Up Automatically**: Turn "
                      "this option on to back up for you.\n- **Folders to Back Up**: Choose a list of folders to "
                      "save in your backup.\n- **Folders to Ignore**: Choose a list of folders to not save in your "
                      "backup.", [], unit_meta("help/deja-dup/prefs.page", "Preferences", 0))
    steps = unit_steps(prefs)
    assert "Folders to Back Up: Choose a list of folders to save in your backup." in steps, steps
    assert "Folders to Ignore: Choose a list of folders to not save in your backup." in steps, steps
    assert "Back Up Automatically: Turn this option on to back up for you." in steps, steps
    assert not any(s.startswith("Storage location") for s in steps), steps


def test_a_list_of_choices_follows_the_action_the_text_before_it_says_to_take():
    """Shotwell's "Exporting photos": the action is in the prose ("select a set of photos and
    choose File > Export...") and the bulleted list only names the choices its window offers;
    the first part of the section, split for size, holds the first choice with its options, and
    the answer was "A format for export." alone. A list whose items open by saying what to do
    stays the steps on its own."""
    export = LogicUnit("Step", "", "Exporting photos (part 1 of 2)", "Alternatively, select a set of photos and "
                       "choose the **File** > **Export...** command or press Shift+Ctrl+E, which exports photos while "
                       "letting you fine-tune the size and dimensions of your photo files. A window will appear "
                       "allowing you to make several choices:\n\n- A format for export.\n    - Choose **Unmodified** "
                       "to export photos in their original format without any edits made in Shotwell.\n    - Or you "
                       "can choose a particular image format (JPEG, PNG, TIFF, BMP) to be used for exporting.\n\n"
                       "- The image quality for exporting (Low, Medium, High, or Maximum).",
                       [], unit_meta("help/shotwell/share-export.page", "Exporting photos", 0))
    steps = unit_steps(export)
    assert steps[0].startswith("Alternatively, select a set of photos and choose the File > Export... command"), steps
    assert any(s.startswith("A format for export.") for s in steps[1:]), steps
    actions = LogicUnit("Step", "", "Reset the router", "Unplug the router before you start. Then:\n\n"
                        "- Wait ten seconds\n- Plug it back in", [], unit_meta("net/router.md", "Router", 2))
    assert unit_steps(actions) == ["Wait ten seconds", "Plug it back in"]


def test_a_sentence_that_only_says_where_to_read_about_something_is_no_step():
    """Shotwell's privacy page: "For Google's own privacy policy, please refer to …" was the first
    step of how to publish photos; "For each user, see whether …" still says what to do."""
    unit = step_unit("Google", "During publishing, Shotwell stores a session token on your computer.\n\n"
                     "For Google's own privacy policy, please refer to https://policies.google.com/privacy\n\n"
                     "For each account, see whether the token is still listed, and remove it when you leave.",
                     "shotwell/privacy-policy.page", "Shotwell's privacy policy")
    steps = unit_steps(unit)
    assert not any("privacy policy" in s for s in steps), steps
    assert any(s.startswith("For each account, see whether the token") for s in steps), steps


def test_a_list_of_the_amounts_something_is_given_is_no_steps():
    """A virtual machine manager's "Get started": what it allocates when the vendor says nothing
    ("20 GB of maximum storage space." with a note, "500 MB of RAM.") were the steps of the
    answer to "How do I give a virtual machine more memory?", ahead of the page that says how."""
    given = LogicUnit("Step", "", "Get started with virtual machines", "When such information is unavailable, "
                      "the application allocates the following:\n\n- 20 GB of maximum storage space.\n  > "
                      "**Advanced:** This does not mean that 20 GB are taken when the machine is created.\n"
                      "- 500 MB of RAM.", [], unit_meta("help/boxes/requirements.page", "Get started", 0))
    assert unit_steps(given) == [], unit_steps(given)
    assert states_quantities(["20 GB of maximum storage space.", "500 MB of RAM."])
    # a list that says what to do with an amount stays steps
    assert not states_quantities(["Add 2 cups of flour.", "Stir in 500 ml of milk."])


def test_a_numbered_list_of_groups_of_names_is_no_steps():
    """An archive manager's supported formats: "1. Archive only" over the names of its formats,
    "2. Archive and compression" over more; read as two steps, they led the answer to "How do I
    make a zip file of a folder?". A numbered list of steps with notes under them stays steps."""
    body = ("File formats that are supported include:\n\n1. Archive only\n   - AIX Small Indexed Archive (`.ar`)\n"
            "   - Tape Archive File (`.tar`)\n2. Archive and compression\n   - Java Archive (`.jar`)\n"
            "   - Tape Archive File compressed with:\n      - gzip (`.tar.gz`, `.tgz`)\n      - xz (`.tar.xz`)\n"
            "   - ZIP Archive (`.zip`)")
    formats = step_unit("Supported file formats", body, "help/formats.page", "Supported file formats")
    assert unit_steps(formats) == [], unit_steps(formats)
    listed = Procedure("", "Supported file formats", [
        "Archive only; AIX Small Indexed Archive (`.ar`); Tape Archive File (`.tar`)",
        "Archive and compression; Java Archive (`.jar`); ZIP Archive (`.zip`)"], unit_meta("help/formats.page", "F"))
    assert unit_steps(listed) == [], unit_steps(listed)
    steps = step_unit("Open an archive", "1. Press **Open**\n   - a file chooser opens\n2. Select the archive",
                      "help/open.page", "Open an archive")
    assert unit_steps(steps) == ["Press Open - a file chooser opens", "Select the archive"], unit_steps(steps)


def test_a_list_of_commands_each_saying_how_to_use_it_gives_the_steps():
    """A terminal's "Copy and paste": each term names a command of the menu and says how to use
    it ("**Copy**: Highlight the text …, then right click … and select Copy."); read as terms
    that define, the answer to "How do I copy and paste in the terminal?" had none of them."""
    page = step_unit("Copy and paste", "You can copy and paste text in a similar way to other applications.\n\n"
                     "- **Copy**: Highlight the text you wish to copy, then right click on it and select **Copy**.\n"
                     "- **Paste**: Right click in the window and select **Paste**.", "help/copy.page", "Copy and paste")
    assert unit_steps(page) == ["Copy: Highlight the text you wish to copy, then right click on it and select Copy.",
                                "Paste: Right click in the window and select Paste."], unit_steps(page)


def test_a_path_through_menus_in_a_paragraph_of_its_own_completes_the_sentence_that_introduces_it():
    """A text editor's "Search and replace": "To open the Find and Replace dialog, click on:" over
    a paragraph that is only the path "**Menu Button** > **Find and Replace…**". The introduction
    was left out as needing what it introduces, and the section gave no step, so "And how do I
    replace it everywhere?" was answered by a tip."""
    section = step_unit("The search and replace", "To open the Find and Replace dialog, click on:\n\n"
                        "**Menu Button** > **Find and Replace…**", "help/search.page", "Search and replace")
    assert unit_steps(section) == ["To open the Find and Replace dialog, click on: Menu Button > Find and Replace…"]
    assert sentences("To open the search entry field, click on:\n\n**Menu** > **Find…**") == [
        "To open the search entry field, click on: Menu > Find…"]  # a path of fewer words than a sentence
    answer, _, _ = compose([Hit(section, 1.0, 1, "x")], Turn("How do I replace text?"), cite=False)
    assert answer == "To open the Find and Replace dialog, click on: Menu Button > Find and Replace…", answer


def test_what_a_program_is_for_is_no_step_of_its_introduction():
    """A video player's introduction: "You can use it to watch movies or stream media from the
    Internet." was the first step of "How do I play a video faster?". Saying what to use is a
    step still."""
    assert prose_steps("Videos is a media player. You can use it to watch movies or stream media from the "
                       "Internet.") == []
    assert prose_steps("You can use the Speed menu to play a video faster.") == [
        "You can use the Speed menu to play a video faster."]


def test_a_sentence_that_says_what_to_fill_in_takes_the_values_its_table_gives():
    """A finance program's help says what to enter as a sentence over a table of field and value
    (its first row no header: the HTML table had none). The step is the sentence with the
    values; a table after a sentence that does nothing (what a log shows) stays out, and a
    table of more than two columns is no form."""
    form = ("Register one Remind transaction per payee with:\n\n| Date | 01/01/2000 |\n|---|---|\n"
            "| Payee | John Doe |\n| Status | Remind |\n\nDo the same for any other loan you make that day.")
    assert prose_steps(form) == [
        "Register one Remind transaction per payee with: Date 01/01/2000; Payee John Doe; Status Remind.",
        "Do the same for any other loan you make that day."]
    shown = "The log shows entries like these:\n\n| Event | Error |\n|---|---|\n| Source | Transport |\n"
    assert prose_steps(shown) == []
    wide = ("Set these values:\n\n| Name | Value | Notes |\n|---|---|---|\n| Size | 10 | in MB |\n")
    assert not any("Size 10" in step for step in prose_steps(wide))


def test_a_table_of_controls_and_what_they_do_is_no_form():
    """The MATE user guide's panel properties: what to do is said in the paragraph's first
    sentence, and the table that "describes the dialog elements" gives each control a sentence of
    what it does, no value to fill in; its rows had been joined into one step ("Click on the
    required position for the panel.; Size Use the spin box to …")."""
    table = ("In the General tab, you can change the panel's size and position. The following table "
             "describes the dialog elements of the General tab:\n\n| Dialog Element | Description |\n|---|---|\n"
             "| Orientation | Select the position of the panel on your screen. Click the position you want. |\n"
             "| Size | Use the spin box to set the size of the panel. |\n"
             "| Expand | By default, a panel takes the whole edge of the screen. |\n")
    steps = prose_steps(table)
    assert not any(".;" in step or "Size Use" in step for step in steps), steps
    described = ("Fill in the fields as follows:\n\n| Field | Value |\n|---|---|\n"
                 "| Name | Use a name that the people in your team will recognise at a glance. |\n")
    assert not any("Name Use a name" in step for step in prose_steps(described))


SOUND = ["Open the Activities overview and start typing Sound.", "Click on Sound to open the panel.",
         "In the Output section, select the headset.", "Use the Test button to check the speakers.",
         "In the Exchange admin center, go to Recipients > Mailboxes.", "Select the mailbox."]


def test_a_step_that_only_gets_there_joins_the_step_it_leads_to():
    steps, first = with_way_there(SOUND, SOUND)
    assert steps == ["Open the Activities overview and start typing Sound. Click on Sound to open the panel.",
                     "In the Output section, select the headset.", "Use the Test button to check the speakers.",
                     "In the Exchange admin center, go to Recipients > Mailboxes. Select the mailbox."]
    assert first == {steps[0]: SOUND[0], steps[3]: SOUND[4]}


def test_the_way_there_stays_apart_from_a_step_that_does_not_follow_it_or_makes_too_long_a_step():
    # the panel's step was said already (not among the steps given): the next one given is not its
    # step; a long step after it is an action of its own
    given = [SOUND[0], SOUND[2]]
    assert with_way_there(given, SOUND) == (given, {})
    long = ("Select the mailbox, open its settings, and under Mail flow set every option that the admin "
            "asked for in the ticket today.")
    assert with_way_there([SOUND[4], long], [SOUND[4], long])[0] == [SOUND[4], long]
    # nothing joins a step that does something where the user already is
    assert with_way_there(SOUND[2:4], SOUND)[0] == SOUND[2:4]


SPEAKERS = ("**Select a default audio output device**\n\n1. Open the **Activities** overview and start typing "
            "**Sound**.\n2. Click on **Sound** to open the panel.\n3. In the **Output** section, select the device "
            "that you want to use.\n\n{after}")


@pytest.mark.parametrize(("after", "last"), [
    # what to do once the list is done, said in the paragraph after it
    ("Use the **Test** button to check that all speakers are working.",
     ["Use the Test button to check that all speakers are working."]),
    # ... in a few sentences, each a step, with a tip between the list and them (GNOME's bounce keys)
    ("> **Tip:** You can turn the speakers off in the system menu.\n\nUse the **Test** button to check the "
     "speakers. Select **Balance** if you want one side louder than the other.",
     ["Use the Test button to check the speakers.",
      "Select Balance if you want one side louder than the other."]),
    ("Use the Test button. Then adjust the volume.", ["Use the Test button.", "Then adjust the volume."]),
    # a pointer, what the steps did, a sentence that leads to what follows, a note: no step
    ("For more information, see [Sound settings](sound.page).", None),
    ("The speakers should now play every sound.", None),
    ("Select the type of speakers from the list below", None),
    ("> **Note:** Use the Test button to check the speakers.", None),
    # ... nor a paragraph one of whose sentences is none, one of more sentences, or two paragraphs
    ("Use the Test button. The speakers should now play every sound.", None),
    ("Use the Test button now. Adjust the volume slider. Choose a sound profile. Close the settings window.", None),
    ("Use the Test button to check the speakers.\n\nAdjust the volume in the system menu.", None),
])
def test_sentences_that_say_what_to_do_after_a_numbered_list_are_its_last_steps(after, last):
    unit = step_unit("Use different speakers or headphones", SPEAKERS.format(after=after),
                     "help/sound-usespeakers.page", "Use different speakers or headphones")
    steps = unit_steps(unit)
    listed = ["Open the Activities overview and start typing Sound.", "Click on Sound to open the panel.",
              "In the Output section, select the device that you want to use."]
    assert steps == listed + (last or [])


@pytest.mark.parametrize(("line", "step"), [
    # a table or a picture the answer does not show is no step
    ("The following screenshot shows an example of the Autodiscover POST request on IIS log", False),
    ("The following table lists the expected behavior for each value.", False),
    ("This table shows the size and membership limits that apply to groups.", False),
    # ... but one that shows what it speaks of in its own words is
    ("The following example sets the limit: Set-Mailbox -Identity User1 -MaxSendSize 25MB", True),
    ("Set the table of contents to show two levels.", True),
])
def test_a_line_about_a_table_or_picture_not_shown_is_no_step(line, step):
    assert is_step(line) is step

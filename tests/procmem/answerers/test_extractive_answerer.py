"""The extractive answerer (no model) and the fallback helper."""

from __future__ import annotations

import re

import pytest

from inscoqa.bundled import load_sample
from inscoqa.corpus.document import Document
from procmem.answerers import AnswerRequest, answer_with_fallback, make_answerer
from procmem.answerers.candidates import (
    Candidate,
    asked_keys,
    defines_only,
    described_steps,
    header_share,
    is_duplicate,
    opposite_task,
    score,
    with_same_action,
)
from procmem.answerers.clauses import says_what_to_do
from procmem.answerers.extractive import (
    ExtractiveParams,
    compose,
    compose_steps,
    relevant_steps,
    said_after_clause,
    select,
)
from procmem.answerers.gathering import first_parts, names_page
from procmem.answerers.lead import NOTHING_FOUND
from procmem.answerers.retrieval import Hit, Retriever
from procmem.answerers.sections import continues, goes_on
from procmem.answerers.sentence_roles import advises_asked
from procmem.answerers.steps import unit_steps
from procmem.answerers.turn import Turn
from procmem.records import DocumentHit
from procmem.retrieval.query import terms
from procmem.units import Chunk, Linker, LogicUnit, Procedure, defines_asked, entry_name
from serving.scripted import unreachable_llm
from tests.procmem.answerers.conftest import MemoryDouble, step_unit, unit_meta


def one_action(way: str, step: str) -> str:
    """A step that only gets to where the next one acts, joined with it as an answer gives them."""
    return f"{way}. {step}"


def test_steps_from_the_best_units_in_document_order_with_citations(memory):
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I steep black tea and brew green tea with a kettle?"))
    titles = [s.title for s in answer.sources]
    assert titles[0] == "Green tea"
    # the two tea procedures, in document order (green tea is first in the document)
    plain = [re.sub(r" \[\d+\]$", "", s) for s in answer.procedures]
    assert plain[:3] == ["Heat water to 80 C in the kettle", "Put the green tea leaves in the cup",
                         "Pour the water and steep for 2 minutes"]
    assert "Boil water in the kettle" in plain
    assert len(plain) == len(set(plain))
    for step in answer.procedures:
        index = int(re.search(r"\[(\d+)\]$", step).group(1))
        source = answer.sources[index - 1]
        unit = next(u for u in memory.units() if u.id == source.unit_id)
        assert step.rsplit(" [", 1)[0] in unit.steps
    # the plain answer is a sentence of the units, not the document's title
    assert answer.answer in {"Use water at 80 C.", "Put the green tea leaves in the cup."}
    assert "Green tea" not in answer.answer
    assert [s.name for s in answer.trace.stages] == ["standalone_query", "retrieve", "compose"]
    assert answer.trace.usage.calls == 0 and answer.trace.prompt_hashes == {}


def test_near_duplicate_steps_are_dropped():
    a = Procedure("", "make tea", ["Boil water in the kettle", "Add tea"], {"doc_id": "a", "title": "A"})
    b = Procedure("", "make coffee", ["Boil water in the kettle.", "Add coffee"], {"doc_id": "b", "title": "B"})
    _, steps, _ = compose([Hit(a, 2.0, 1, "x"), Hit(b, 1.0, 2, "x")], cite=False)
    assert steps == ["Boil water in the kettle", "Add tea", "Add coffee"]
    # the same step without the note another page adds to it
    c = Procedure("", "share", ["Select the check box next to Replicable. It makes the value reach every site.",
                                "Select OK"], {"doc_id": "c", "title": "C"})
    d = Procedure("", "share", ["Select the check box next to Replicable.", "Wait a day"],
                  {"doc_id": "d", "title": "D"})
    _, steps, _ = compose([Hit(c, 2.0, 1, "x"), Hit(d, 1.0, 2, "x")], cite=False)
    assert steps == ["Select the check box next to Replicable. It makes the value reach every site.",
                     "Select OK", "Wait a day"]
    # one of the sentences a kept step joins (a page that splits what another says in one step)
    e = Procedure("", "pool", ["Make sure that the app pool is running. If the pool is running, try to "
                               "recycle it. Then, check the event logs.", "Run the troubleshooter"],
                  {"doc_id": "e", "title": "E"})
    f = Procedure("", "pool", ["If the pool is running, try to recycle it.", "Then, check the event logs.",
                               "Restart the server"], {"doc_id": "f", "title": "F"})
    _, steps, _ = compose([Hit(e, 2.0, 1, "x"), Hit(f, 1.0, 2, "x")], cite=False)
    assert steps[1:] == ["Run the troubleshooter", "Restart the server"]
    # two steps alike but for the parameter they set are two steps
    sent = Procedure("", "keep sent items", [
        "For emails Sent As the shared mailbox, run the following cmdlet: set-mailbox Sales -MessageCopyForSentAsEnabled $True",
        "For emails Sent On Behalf of the shared mailbox, run the following cmdlet: set-mailbox Sales "
        "-MessageCopyForSendOnBehalfEnabled $True"], {"doc_id": "g", "title": "G"})
    _, steps, _ = compose([Hit(sent, 1.0, 1, "x")], cite=False)
    assert steps == sent.steps
    # ... and so are two alike but for the panel they open
    panels = Procedure("", "screen", ["Open the Activities overview and start typing Files.",
                                      "Open the Activities overview and start typing Power."], {"doc_id": "h", "title": "H"})
    _, steps, _ = compose([Hit(panels, 1.0, 1, "x")], cite=False)
    assert steps == panels.steps
    # the same step with a name set as code on one page and as a word ending the sentence on another
    guide = Procedure("", "quotes", ["Close GnuCash.", "This tool is a Perl module called Finance::Quote.",
                                     "Install Xcode."], {"doc_id": "i", "title": "I"})
    manual = Procedure("", "quotes", ["Close `GnuCash`.", "This tool is a Perl module called `Finance::Quote`.",
                                      "Run the app."], {"doc_id": "j", "title": "J"})
    _, steps, _ = compose([Hit(guide, 2.0, 1, "x"), Hit(manual, 1.0, 2, "x")], cite=False)
    assert steps == [*guide.steps, "Run the app."]
    assert is_duplicate("`GnuCash` uses a Perl module called `Finance::Quote` to get quotes.",
                        ["GnuCash uses a Perl module called Finance::Quote to get quotes."])
    # the same long step with a note put inside it on one page
    plain = ("Add the LegacyExchangeDN value of the previous on-premises mailbox to the proxy address of the "
             "new remote mailbox as an x500 address. To do this, run the following cmdlet: Set-RemoteMailbox "
             '-Identity "user identity" -EmailAddresses @{add="x500:/o=First Organization/cn=<user identity>"}')
    noted = plain.replace("cmdlet: ", "cmdlet: Note: The value of the LegacyExchangeDN parameter can be found "
                                      "in the file that's saved in step 2. ")
    onprem = Procedure("", "offboard", [noted, "Restore the contents"], {"doc_id": "k", "title": "K"})
    hybrid = Procedure("", "offboard", [plain, "Force a synchronization"], {"doc_id": "l", "title": "L"})
    _, steps, _ = compose([Hit(onprem, 2.0, 1, "x"), Hit(hybrid, 1.0, 2, "x")], cite=False)
    assert steps == [noted, "Restore the contents", "Force a synchronization"]
    # ... but one with another instruction put inside it is another step
    landscape = "Click Properties. Make sure that Landscape is selected. Click OK to go back to the print dialog."
    duplex = landscape.replace("selected. ", "selected. In the Duplex list, select Short Edge. ")
    single = Procedure("", "booklet", [landscape, "Click Print"], {"doc_id": "m", "title": "M"})
    double = Procedure("", "booklet", [duplex, "Click Print"], {"doc_id": "n", "title": "N"})
    _, steps, _ = compose([Hit(single, 2.0, 1, "x"), Hit(double, 1.0, 2, "x")], cite=False)
    assert steps == [landscape, "Click Print", duplex]


def test_history_aware_query_without_a_model(memory):
    history = [("I want to brew green tea.", "Sure.")]
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How hot?", history=history))
    query = answer.trace.stages[0].details["query"]
    assert query.startswith("How hot?") and "green" in query and "tea" in query
    assert answer.sources[0].title == "Green tea"


def test_given_documents_without_memory(lexical):
    docs = [Document("help/jam.page", "Paper jam",
                     "# Paper jam\n\nJams happen.\n\n## Clear it\n\n1. Turn the printer off.\n"
                     "2. Open the rear cover.\n3. Pull the paper out.", {}),
            Document("cooking/tea.md", "Tea", "1. Boil water.\n2. Steep.", {})]
    answer = make_answerer("extractive").answer(AnswerRequest("clear a paper jam", documents=docs))
    assert answer.sources[0].doc_id == "help/jam.page"
    assert answer.procedures[:3] == ["Turn the printer off. [1]", "Open the rear cover. [1]",
                                     "Pull the paper out. [1]"]


def test_nothing_found(memory):
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("zzz qqq"))
    assert answer.procedures == [] and "No matching" in answer.answer


def test_fallback_records_the_engine_failure(memory):
    failing = make_answerer("rag", llm=unreachable_llm(), memory=memory)
    extractive = make_answerer("extractive", memory=memory)
    answer = answer_with_fallback(failing, extractive, AnswerRequest("brew green tea"))
    first = answer.trace.stages[0]
    assert first.name == "fallback" and first.details["failed_answerer"] == "rag"
    assert "LLMConnectionError" in first.details["error"] and answer.procedures


def test_fallback_is_not_used_when_the_answerer_works(memory, script):
    llm, _ = script({"answer/zero_shot": [{"answer": "a", "procedures": ["b"]}]})
    answer = answer_with_fallback(make_answerer("zero-shot", llm=llm, memory=memory),
                                  make_answerer("extractive", memory=memory), AnswerRequest("q?"))
    assert answer.procedures == ["b"] and answer.trace.stages[0].name == "generate"


# --------------------------------------------------------------------------- the last question

ROUTER, ISP, PRINT = "net/router.md", "net/provider.md", "help/print.md"
WORLD = [
    LogicUnit("Step", "", "Restart the router",
              "1. Unplug the router.\n2. Wait thirty seconds.\n3. Plug the router back in.",
              [Linker("the router light still blinks", "Ask your internet provider to check the line",
                      "MITIGATE")], unit_meta(ROUTER, "Router", 0)),
    LogicUnit("Step", "", "Ask your internet provider to check the line",
              "1. Call the support number on your bill.\n2. Give them the router's serial number.",
              [], unit_meta(ISP, "Provider support", 0)),
    LogicUnit("FAQ", "", "What causes a blinking router light",
              "A blinking light means the router has no signal from the line.", [],
              unit_meta(ROUTER, "Router", 1)),
    Procedure("", "Set up printing on Windows",
              ["Open Settings on Windows", "Select Printers and add the printer"], unit_meta(PRINT, "Printing", 0)),
    Procedure("", "Set up printing on a Mac",
              ["Open System Settings on the Mac", "Select Printers and Scanners and press Add"],
              unit_meta(PRINT, "Printing", 1)),
    Procedure("", "Clear a paper jam",
              ["Turn the printer off", "Open the rear cover", "Pull the jammed paper out"],
              unit_meta(PRINT, "Printing", 2)),
]


def _plain(answer):
    return [re.sub(r" \[\d+\]$", "", s) for s in answer.procedures]


def test_the_last_question_decides_not_the_history_topic():
    history = [("How do I set up printing on Windows?", "Open Settings on Windows, then add it.")]
    answer = make_answerer("extractive", memory=MemoryDouble(WORLD)).answer(
        AnswerRequest("Now the paper is stuck. How do I clear a paper jam?", history=history))
    assert _plain(answer)[:3] == ["Turn the printer off", "Open the rear cover", "Pull the jammed paper out"]


def test_steps_the_conversation_already_gave_are_dropped():
    """... unless they are all there is to say: then they come again (the same steps set up a
    second printer), where the answer had been "No matching instructions were found."."""
    history = [("How do I set up printing on Windows?",
                "1. Open Settings on Windows. 2. Select Printers and add the printer.")]
    second = Procedure("", "Set up a second printer on Windows", ["Open Devices and Printers",
                       "Choose the second printer and set it as the default printer"], unit_meta(PRINT, "Printing", 1))
    request = AnswerRequest("And how do I set up printing on Windows for a second printer?", history=history)
    answer = make_answerer("extractive", memory=MemoryDouble([*WORLD, second])).answer(request)
    assert "Open Settings on Windows" not in _plain(answer)
    assert "Select Printers and add the printer" not in _plain(answer)
    assert one_action("Open Devices and Printers", "Choose the second printer and set it as the default printer") \
        in _plain(answer)
    again = make_answerer("extractive", memory=MemoryDouble(WORLD)).answer(request)
    assert _plain(again) == [one_action("Open Settings on Windows", "Select Printers and add the printer")]



TICKETS = "user/tickets.md"
TICKET_UNITS = [
    LogicUnit("Step", "", "Obtaining tickets with kinit",
              "A ticket-granting ticket proves who you are to every service of the realm, so that "
              "you see no password prompt again until it expires; kinit asks the KDC for one.\n\n"
              "1. Type kinit and your password to get tickets; you see no tickets until you do.\n"
              "2. Type kinit -f to get tickets you can forward and see on other hosts.\n"
              "3. Type kinit -l 3h to get tickets that you see expire in three hours.",
              [], unit_meta(TICKETS, "Ticket management", 0)),
    LogicUnit("Step", "", "Viewing tickets with klist",
              "1. Run klist to list the tickets in your credentials cache.\n"
              "2. Run klist -f to show the flags of each ticket.",
              [], unit_meta(TICKETS, "Ticket management", 1)),
]


def test_a_unit_whose_steps_the_last_answer_gave_makes_way_for_the_next_question():
    memory = MemoryDouble(TICKET_UNITS)
    extractive = make_answerer("extractive", memory=memory)
    first = extractive.answer(AnswerRequest("How do I obtain tickets with kinit?"))
    assert _plain(first)[0].startswith("Type kinit and your password")
    answer = extractive.answer(AnswerRequest("How do I see the tickets I have?",
                                             history=[("How do I obtain tickets with kinit?", first.said())]))
    assert _plain(answer)[0] == "Run klist to list the tickets in your credentials cache."
    assert not any(step.startswith("Type kinit") for step in _plain(answer))
    compose = next(s for s in answer.trace.stages if s.name == "compose")
    assert compose.details["scores"][0]["unit_id"] == TICKET_UNITS[1].id  # the other has nothing new

def test_the_users_platform_chooses_among_procedures():
    history = [("I'm on a Mac and want to print.", "Sure.")]
    answer = make_answerer("extractive", memory=MemoryDouble(WORLD)).answer(
        AnswerRequest("How do I set up printing?", history=history))
    assert _plain(answer)[0] == one_action("Open System Settings on the Mac", "Select Printers and Scanners and press Add")
    assert "Open Settings on Windows" not in _plain(answer)
    compose_stage = next(s for s in answer.trace.stages if s.name == "compose")
    assert compose_stage.details["setting"] == ["mac"]


def test_a_failed_step_follows_the_units_mitigate_linker():
    memory = MemoryDouble(WORLD)
    history = [("My router light blinks, what do I do?",
                "Restart the router: unplug the router, wait thirty seconds, plug the router back in.")]
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("I did that but the router light still blinks.", history=history))
    linker = next(s for s in answer.trace.stages if s.name == "linker")
    assert linker.details["followed"][0]["tag"] == "MITIGATE"
    assert _plain(answer)[0] == "Call the support number on your bill."
    assert "Unplug the router." not in _plain(answer)
    assert answer.sources[0].doc_id == ISP


@pytest.mark.parametrize(("question", "followed"), [
    ("Autodiscover resolves and the connectivity test passes, but cloud users still see hash marks. What's next?", False),
    ("The connectivity test fails for Autodiscover, and cloud users still see hash marks. What's next?", True),
])
def test_a_linker_for_a_failing_check_is_not_followed_when_the_user_says_the_check_passed(question, followed):
    """"If the connectivity test fails for Autodiscover, check the Autodiscover configuration":
    the user who says the test passes is not sent back to the checks of what works."""
    page = unit_meta("mail/freebusy.md", "Free/busy in a hybrid deployment", 0)
    test = LogicUnit("Step", "", "Run the connectivity test for Autodiscover",
                     "1. Open the Remote Connectivity Analyzer.\n2. Select the Autodiscover test and run it.",
                     [Linker("the connectivity test fails for Autodiscover",
                             "Check the Autodiscover configuration of the hybrid server", "CONTINUE")], page)
    config = LogicUnit("Step", "", "Check the Autodiscover configuration of the hybrid server",
                       "1. Run nslookup for the Autodiscover name.\n2. Make sure it returns the hybrid server's address.",
                       [], {**page, "order": 1})
    history = [("Cloud users see hash marks instead of free/busy for on-premises users.",
                "Open the Remote Connectivity Analyzer, select the Autodiscover test and run it.")]
    answer = make_answerer("extractive", memory=MemoryDouble([test, config])).answer(
        AnswerRequest(question, history=history))
    linker = next(s for s in answer.trace.stages if s.name == "linker")
    assert test.id in linker.details["tried"]
    assert bool(linker.details["followed"]) is followed, linker.details


def test_what_the_last_answer_gave_steps_back_when_the_user_asks_what_is_next():
    """The last answer summed up a procedure in a few words; the user did it, and asks what is
    next: the procedure's steps are not given again, the page's next check is."""
    page = unit_meta("mail/freebusy.md", "Free/busy in a hybrid deployment", 0)
    analyzer = Procedure("", "Test free/busy with the connectivity analyzer", [
        "Open the Remote Connectivity Analyzer in a browser",
        "Select the Free/Busy test and enter the credentials of a working account",
        "Select Perform Test and wait for the result", "Expand all results to see each check"], page)
    relationship = Procedure("", "Check the organization relationship", [
        "Run Get-OrganizationRelationship in Exchange Online PowerShell",
        "Make sure FreeBusyAccessEnabled is True",
        "Make sure TargetAutodiscoverEpr points to your hybrid server"], {**page, "order": 1})
    history = [("Cloud users see hash marks instead of free/busy for on-premises users.",
                "Run the Free/Busy test in the Remote Connectivity Analyzer with a working account.")]
    answer = make_answerer("extractive", memory=MemoryDouble([analyzer, relationship])).answer(
        AnswerRequest("The analyzer test passes, but cloud users still see hash marks. What's next?",
                      history=history))
    assert _plain(answer)[0] == "Run Get-OrganizationRelationship in Exchange Online PowerShell"
    assert "Select Perform Test and wait for the result" not in _plain(answer)
    linker = next(s for s in answer.trace.stages if s.name == "linker")
    assert analyzer.id in linker.details["tried"] and relationship.id not in linker.details["tried"]


def test_a_cause_is_given_as_the_why_of_the_plain_answer():
    answer = make_answerer("extractive", memory=MemoryDouble(WORLD)).answer(
        AnswerRequest("The router light blinks. How do I fix the router?"))
    assert "Unplug the router." in _plain(answer)
    assert "A blinking light means the router has no signal from the line." not in _plain(answer)
    assert "Router" not in answer.answer.split(".")[0].split()  # not the title


def test_the_users_product_version_chooses_among_procedures():
    # the Outlook 2010 procedure matches the question's words better; the user is on 2016
    units = [Procedure("Applies to: Outlook 2010", "Turn on cached Exchange mode in Outlook",
                       ["Select File, Account Settings, then Account Settings again",
                        "Double-click the Exchange account and check Use Cached Exchange Mode"],
                       unit_meta("help/cached-2010.md", "Turn on cached Exchange mode in Outlook", 0)),
             Procedure("Applies to: Outlook 2013, Outlook 2016", "Use cached mode",
                       ["Select File, then Account Settings, then Change",
                        "Under Offline Settings check Use Cached Exchange Mode and move the slider"],
                       unit_meta("help/cached-2016.md", "Offline settings", 0))]
    answer = make_answerer("extractive", memory=MemoryDouble(units)).answer(AnswerRequest(
        "How do I turn on cached Exchange mode in Outlook?", history=[("We run Outlook 2016 here.", "OK.")]))
    assert _plain(answer)[0] == "Select File, then Account Settings, then Change"
    assert "Select File, Account Settings, then Account Settings again" not in _plain(answer)
    compose_stage = next(s for s in answer.trace.stages if s.name == "compose")
    assert "outlook@2016" in compose_stage.details["setting"]


def test_a_variant_the_question_names_keeps_out_the_other_variants_pages():
    # one server's manual in two editions, for DHCPv4 and for DHCPv6: the DHCPv6 page's pools
    # share the question's words as well, and must not join an answer for DHCPv4
    def unit(doc_id, title, goal, steps):
        return Procedure("", goal, steps, unit_meta(doc_id, title))

    v4 = unit("arm/dhcp4-srv.html", "8. The DHCPv4 Server", "Configuration of IPv4 address pools",
              ["Define the subnet and its pools under Dhcp4", "List each address pool as a range"])
    v6 = unit("arm/dhcp6-srv.html", "9. The DHCPv6 Server", "Configuration of IPv6 address pools",
              ["Define the subnet and its pools under Dhcp6", "Mind the boundaries of a prefix pool"])
    question = Turn("How do I configure a subnet and address pool for DHCPv4?")
    assert question.setting == {"dhcp@4"}
    _, steps, details = compose([Hit(v6, 3.0, 1, "x"), Hit(v4, 2.9, 2, "x")], question, cite=False)
    assert steps == v4.steps and details["documents"] == ["arm/dhcp4-srv.html"]
    # a question that names neither variant gets both
    _, steps, _ = compose([Hit(v6, 3.0, 1, "x"), Hit(v4, 2.9, 2, "x")],
                          Turn("How do I configure a subnet and address pool?"), cite=False)
    assert set(steps) == set(v4.steps + v6.steps)


def test_a_further_document_joins_only_from_the_best_units_corpus():
    def unit(doc_id, corpus, goal, steps):
        return Procedure("", goal, steps, {**unit_meta(doc_id, goal), "corpus": corpus})

    best = unit("desktop/send.page", "desktop", "Send photos to a phone over Bluetooth",
                ["Open the Bluetooth panel", "Select the phone and click Send Files"])
    same = unit("desktop/viewer.page", "desktop", "Send photos to a phone from the viewer",
                ["Open the photo in the viewer", "Choose Share, then Bluetooth"])
    other = unit("mail/photo.md", "mail", "Send photos to a phone from the mailbox",
                 ["Open the mailbox photo settings", "Choose Share, then send to the phone"])
    question = Turn("How do I send photos to a phone over Bluetooth?")
    _, steps, details = compose([Hit(best, 3.0, 1, "x"), Hit(other, 2.0, 2, "x")], question, cite=False)
    assert steps == [one_action(*best.steps)] and details["documents"] == ["desktop/send.page"]
    # the same unit from the best unit's corpus joins
    _, steps, details = compose([Hit(best, 3.0, 1, "x"), Hit(same, 2.0, 2, "x")], question, cite=False)
    assert steps == [one_action(*best.steps), one_action(*same.steps)]


def test_the_plain_answer_of_a_procedure_is_its_words_not_its_fields():
    answer = make_answerer("extractive", memory=MemoryDouble(WORLD)).answer(
        AnswerRequest("How do I clear a paper jam?"))
    assert _plain(answer)[:3] == ["Turn the printer off", "Open the rear cover", "Pull the jammed paper out"]
    assert not re.search(r"\b(?:Goal|Input|Steps):", answer.answer)
    assert answer.answer.startswith("Turn the printer off")


DOCS = [
    Document("help/shared.md", "Sent items of a shared mailbox", """# Sent items of a shared mailbox

Applies to: Exchange Online

## Cause

Messages sent from a shared mailbox are saved in the sender's own Sent Items because the sender
signs in to their own mailbox.

## Resolve: change the mailbox on the server

An administrator can turn on copies for the shared mailbox:

1. Connect to Exchange Online PowerShell as an administrator.
2. Run set-mailbox with MessageCopyForSentAsEnabled set to True for the shared mailbox.
""", {}),
    Document("help/registry.md", "Outlook registry setting for delegates", """# Outlook registry setting for delegates

Applies to: Outlook 2016, Outlook 2019

## Change the registry on the client

Use this on the client when you can't change the shared mailbox on the server:

1. Open Registry Editor on the client computer.
2. Create a DWORD value named DelegateSentItemsStyle under the Outlook Preferences key.
3. Set DelegateSentItemsStyle to 1 and close Registry Editor.
""", {}),
]


def test_an_answer_that_spans_documents_cites_each_and_skips_page_metadata(lexical):
    answer = make_answerer("extractive").answer(AnswerRequest(
        "Sent messages from the shared mailbox land in my own Sent Items. How do I save a copy "
        "in the shared mailbox's Sent Items, on the server or in the Outlook registry?", documents=DOCS))
    cited = {answer.sources[int(re.search(r"\[(\d+)\]$", s).group(1)) - 1].doc_id
             for s in answer.procedures}
    assert cited == {"help/shared.md", "help/registry.md"}
    plain = _plain(answer)
    assert "Connect to Exchange Online PowerShell as an administrator." in plain
    assert "Create a DWORD value named DelegateSentItemsStyle under the Outlook Preferences key." in plain
    assert not any(s.lower().startswith("applies to") for s in plain)
    assert not answer.answer.startswith(("Follow the steps", "Sent items of a shared mailbox"))
    assert "because" in answer.answer  # the why, from the cause section


def test_the_users_deployment_chooses_between_cloud_and_on_premises_procedures():
    cloud = Procedure("", "recover deleted mailbox items in Exchange Online",
                      ["Open Outlook on the web", "Select Recover items deleted from this folder"],
                      {"doc_id": "exo/recover.md", "title": "Recover deleted items in Exchange Online"})
    server = Procedure("", "recover deleted mailbox items in Exchange Server",
                       ["Open the Exchange Management Shell", "Run Restore-RecoverableItems for the mailbox"],
                       {"doc_id": "ex2019/recover.md", "title": "Recover deleted items in Exchange Server"})
    question = "How do I recover deleted mailbox items for a user?"
    # the user's words share no term with the procedures: only the named setting tells them apart
    for said, fits, other in (("Our mail still runs on premises.", server, cloud),
                              ("Our mail moved to the cloud last year.", cloud, server)):
        answer = make_answerer("extractive", memory=MemoryDouble([cloud, server])).answer(
            AnswerRequest(question, history=[(said, "Understood.")]))
        assert _plain(answer) == [one_action(*fits.steps)]
        assert not any(step in given for step in other.steps for given in _plain(answer))


QUOTED_ERROR = [
    Document("help/groups.md", "Manage distribution groups", """# Manage distribution groups

## Remove a distribution group as its manager

Only a manager of the group has sufficient permissions for this operation in the admin center.

1. Open the admin center and go to Groups.
2. Select the distribution group you manage and choose Delete group.
3. Confirm that you want to remove the group.
""", {}),
    Document("help/manager-error.md", "Error when you change a group you don't manage", """# Error when you change a group you don't manage

## Symptoms

When you try to change a group in the admin center, you receive this message: You don't have
sufficient permissions. This operation can only be performed by a manager of the group.

## Resolution

1. Connect to Exchange Online PowerShell as an administrator.
2. Run Remove-DistributionGroup with the BypassSecurityGroupManagerCheck switch.
""", {}),
]


def test_the_message_the_user_quotes_brings_the_document_that_contains_it(lexical):
    """The page that quotes the error word for word answers, though another page shares the
    question's words; without the quote that other page answers."""
    asked = "How do I remove a distribution group in the admin center"
    quoted = make_answerer("extractive").answer(AnswerRequest(
        f"{asked}? It says 'You don't have sufficient permissions. This operation can only be "
        "performed by a manager of the group.'", documents=QUOTED_ERROR))
    retrieve = next(s for s in quoted.trace.stages if s.name == "retrieve")
    assert retrieve.details["quoting_documents"] == ["help/manager-error.md"]
    assert _plain(quoted)[0] == "Connect to Exchange Online PowerShell as an administrator."
    unquoted = make_answerer("extractive").answer(AnswerRequest(f"{asked}?", documents=QUOTED_ERROR))
    assert _plain(unquoted)[0] == ("Open the admin center and go to Groups. "
                                   "Select the distribution group you manage and choose Delete group.")
    assert "quotes" not in next(s for s in unquoted.trace.stages if s.name == "retrieve").details


def test_a_section_for_another_deployment_gives_no_steps(corpus, conversations):
    """A bundled conversation on Exchange Online, with its own documents: the page that answers
    it applies to Exchange Online, and its section for Exchange Server 2010 gives no steps."""
    conv = next(c for c in conversations if c.id == "dev-ods-001")
    answer = make_answerer("extractive").answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    steps = " ".join(answer.procedures)
    assert "MessageCopyForSentAsEnabled" in steps
    assert "Update Rollup 4" not in steps


def test_a_further_unit_gives_its_run_of_steps_that_the_question_asks_about():
    jam = Procedure("", "Make orange jam", ["Peel and chop the oranges", "Boil them with sugar for an hour",
                                            "Pour the jam into jars"], unit_meta("jam.md", "Orange jam"))
    cake = Procedure("", "Bake a mazurek", ["Rub the butter into the flour", "Add the egg yolks and knead",
                                            "Chill the dough for an hour", "Roll it out and bake it",
                                            "Let the base cool", "Spread the orange jam over the base",
                                            "Decorate the cake with almonds"], unit_meta("mazurek.md", "Mazurek"))
    question = Turn("How do I make the orange jam, and when does it go on the cake?")
    _, steps, _ = compose([Hit(jam, 3.0, 1, "x"), Hit(cake, 2.0, 2, "x")], question, cite=False)
    # the cake gives four steps (other_unit_steps): the run that names the jam and the cake
    assert steps == jam.steps + cake.steps[3:7]
    assert relevant_steps(cake.steps, question, 7) == cake.steps  # all fit: all of them


def test_a_leading_procedure_with_more_steps_goes_on_before_another_page_joins():
    """A procedure holds its section whole: when it leads with more steps than the best unit
    gives (7), it goes on for a runner-up's share (4), as a logic unit goes on into its
    section's next part, and another page's steps take only what is left."""
    biscuits = Procedure("", "Make butter biscuits", [f"Biscuit step {i}" for i in range(1, 12)],
                         unit_meta("biscuits.md", "Butter biscuits"))
    shortbread = Procedure("", "Make tahini shortbread", [f"Shortbread step {i}" for i in range(1, 6)],
                           unit_meta("shortbread.md", "Tahini shortbread"))
    turn = Turn("How do I make the butter biscuits?")
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    chosen = [Candidate(Hit(biscuits, 1.0, 1, "x"), retrieval=0.5, score=1.0, why=why),
              Candidate(Hit(shortbread, 0.9, 2, "x"), retrieval=0.4, score=0.8, why=why)]
    steps, _ = compose_steps(chosen, turn, ExtractiveParams(cite=False), {c.unit.id: i for i, c in enumerate(chosen, 1)})
    assert steps == biscuits.steps + shortbread.steps[:1]
    # a procedure of 7 steps or fewer, and a leading logic unit, give 7 as before
    short = Procedure("", "Make butter biscuits", biscuits.steps[:7], dict(biscuits.meta))
    steps, _ = compose_steps([Candidate(Hit(short, 1.0, 1, "x"), score=1.0, why=why), chosen[1]], turn,
                             ExtractiveParams(cite=False), {short.id: 1, shortbread.id: 2})
    assert steps == short.steps + shortbread.steps[:4]
    section = step_unit("Make butter biscuits", "".join(f"{i}. {s}\n" for i, s in enumerate(biscuits.steps, 1)),
                        "biscuits.md", "Butter biscuits")
    steps, _ = compose_steps([Candidate(Hit(section, 1.0, 1, "x"), score=1.0, why=why), chosen[1]], turn,
                             ExtractiveParams(cite=False), {section.id: 1, shortbread.id: 2})
    assert steps == biscuits.steps[:7] + shortbread.steps[:4]


def test_the_butter_biscuit_method_is_given_to_its_end_from_the_given_recipes(corpus):
    """A bundled conversation over its own two recipes: the tahini shortbread says to cook it
    like the butter-based biscuits, whose procedure leads with 11 steps. The answer stopped after
    "Quickly shape the dough", and the shortbread's steps took the place of the baking."""
    conv = next(c for c in load_sample() if c.id == "dev-cook-014")
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    steps = " ".join(answer.procedures)
    assert "Transfer the baking paper with the uncooked shortbreads on the hot cooking tray" in steps
    assert "Let cook for 12 to 15 minutes" in steps


@pytest.mark.parametrize(("conv_id", "restated", "kept"), [
    # what the user reports having done, and a check of what they tell of ("the event logs show nothing")
    ("dev-ods-012", "If the pool is running, try to recycle it.", "Remote PowerShell"),
    ("dev-ods-012", "Check for errors or warnings in the event logs.", "Remote PowerShell"),
    ("dev-ods-015", "Verify that the autodiscover endpoint is pointing", "inetpub"),
    # what the user read out of the recipe
    ("dev-cook-014", "Let the dough sit and then cook it as described", "to prevent butter from flowing out"),
    # the error the user quoted
    ("dev-ods-007", "This operation can only be performed by a manager of the group.", "PowerShell"),
    # a case the user says is not theirs ("Done, it shows as Connected now.")
    ("dev-gnome-001", "If the desired device is not shown as Connected in the list", "Click Send Files"),
])
def test_the_plain_answer_does_not_say_again_what_the_user_said(corpus, conv_id, restated, kept):
    """Bundled conversations over their own documents: a sentence whose words are the user's
    (the case the user reports, the error they quoted), or that has them check what they tell of
    already, neither leads nor says why."""
    conv = next(c for c in load_sample() if c.id == conv_id)
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    assert restated not in answer.answer
    assert kept in answer.answer


@pytest.mark.parametrize(("conv_id", "lead"), [
    # a step whose words before its colon are two sentences ("... as a global or SharePoint admin.
    # Note: - If you have ...") opens with its first, not with "... admin. Note"
    ("dev-ods-018", "Sign in to https://admin.microsoft.com as a global or SharePoint admin, then follow the steps below."),
    # what to do for the case asked, after the case it is for ("For a new connection, type ...")
    ("dev-gnome-003", "For a new connection, type the network name and choose the type of wireless security"),
])
def test_the_plain_answer_leads_with_what_to_do_for_the_case_asked(corpus, conv_id, lead):
    """Bundled conversations over their own documents."""
    conv = next(c for c in load_sample() if c.id == conv_id)
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    assert answer.answer.startswith(lead)


def test_the_page_on_the_status_code_the_user_names_gives_steps(corpus):
    """A bundled conversation over its own documents: "every scan fails with '5.7.57 Client not
    authenticated to send mail'"; the page on 5.7.57 (its words are not the quoted message's:
    "client was not authenticated to send anonymous mail") gives its checks beside the
    scanner page's."""
    conv = next(c for c in load_sample() if c.id == "dev-ods-004")
    answer = make_answerer("extractive").answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    cited = {answer.sources[int(re.search(r"\[(\d+)\]$", s).group(1)) - 1].doc_id for s in answer.procedures}
    assert "officedocs/Exchange/ExchangeOnline/email-delivery/ndr/fix-error-code-5-7-57-in-exchange-online.md" in cited
    assert any("negotiate TLS" in step for step in answer.procedures)
    retrieve = next(stage for stage in answer.trace.stages if stage.name == "retrieve")
    assert retrieve.details["codes"] == ["5.7.57"]


@pytest.mark.parametrize(("sentence", "leads"), [
    # an imperative after the place in the window it is done in, or the case it is for
    ("Under Page Sides, in the Include drop-down list, select Front sides / right pages.", True),
    ("In the DNS section, switch the Automatic switch to off.", True),
    ("When all the pages have printed, flip the pages over and place them back in the printer.", True),
    ("For a new connection, type the network name.", True),
    # ... or after two cases (a live system's boot menu)
    ("When modifying one of the default themes, if you want to use a personalized background image, "
     "add a splash.png picture of 640x480 pixels.", True),
    ("When modifying one of the default themes, if you want a background, the picture is 640x480.", False),
    # ... or what it is for, then the first thing to do (GIMP's Heal tool)
    ("To use it, first choose a brush with a size adapted to the defect.", True),
    # a place or a case followed by how things are
    ("On Linux, the file is kept in your home folder.", False),
    ("In general, the defaults are fine.", False),
])
def test_what_to_do_may_follow_a_place_or_a_case(sentence, leads):
    from procmem.answerers.sentence_roles import acts
    assert acts(sentence) is leads


@pytest.mark.parametrize(("sentence", "leads"), [
    # an entry of a list of options says what to do in its description, not by its name (GIMP's
    # JPEG options and window preferences)
    ("Use arithmetic coding: Arithmetic encoding is a form of entropy encoding.", False),
    ("Save window positions on exit: If this option is checked, GIMP will see the same windows.", False),
    ("Create a Starting Point: Click on the paintbrush in the toolbox.", True),
    # a sentence that introduces what follows it is no entry
    ("There are a few things you should check: Get-CASMailbox -Identity <EmailAddress>", True),
])
def test_an_entry_of_a_list_of_options_acts_by_its_description(sentence, leads):
    from procmem.answerers.sentence_roles import acts
    assert acts(sentence) is leads


def test_the_asked_verb_says_what_to_do_whatever_the_verb():
    """GIMP's page on rotating opens "You can rotate the image 90° clockwise or counter-clockwise,
    …", but "rotate" is no verb that :func:`acts` knows, and "These commands can be used to change
    between Portrait and Landscape orientation." led the answer to "How do I rotate a picture 90
    degrees?". The verb the question asks how to do says what to do in the answer's sentences."""
    from procmem.answerers.sentence_roles import does_asked
    turn = Turn("How do I rotate a picture 90 degrees?")
    assert turn.action_verb == "rotate"
    assert does_asked("You can rotate the image 90° clockwise or counter-clockwise.", turn)
    assert does_asked("Then rotate the layer by 90°.", turn)
    assert not does_asked("Rotation commands are on the Transform submenu.", turn)
    assert not does_asked("These commands can be used to change the orientation.", turn)
    # no verb of its own: a light verb, or an action asked by its verb's object
    assert Turn("How do I make the picture smaller?").action_verb == ""
    assert Turn("How do I record buying shares?").action_verb == ""
    unit = step_unit("6.16. Rotation", (
        "You can rotate the image 90° clockwise or counter-clockwise, or rotate it 180°, by using the "
        "rotation commands on the Transform submenu of the Image menu. These commands can be used to "
        "change between Portrait and Landscape orientation.\n"), "gimp/gimp-image-rotate.html", "Rotation", order=1)
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], turn, cite=False)
    assert answer.startswith("You can rotate the image 90° clockwise or counter-clockwise")


def test_a_gerund_is_no_order_that_sends_the_user_to_the_steps():
    """GIMP's Desaturate page compares two pictures ("Comparing the red globe to the yellow
    sunflower: …"): the answer led with it and sent the user on ", then follow the steps below."
    A gerund opens no order; "Bring", "String" do."""
    from procmem.answerers.sentence_roles import sends_to_steps
    assert not sends_to_steps("Comparing the red globe to the yellow sunflower")
    assert sends_to_steps("Bring the milk to the boil")
    assert sends_to_steps("String the beans")


def test_a_case_that_the_last_question_says_is_not_so_does_not_lead():
    from procmem.answerers.sentence_roles import case_user_denies
    sentence = "If the desired device is not shown as Connected in the list, you need to connect to it."
    history = [("How do I pair my phone?", "Open the Bluetooth panel and select the phone.")]
    assert case_user_denies(sentence, Turn("Done, it shows as Connected now. How do I send photos?", history))
    # the user says it is not so too, or names nothing the case names
    assert not case_user_denies(sentence, Turn("It still isn't Connected. What now?", history))
    assert not case_user_denies(sentence, Turn("Done. How do I send photos to it?", history))
    # a case that is so says what to do in it
    assert not case_user_denies("If the device is shown as Connected, click Send Files.",
                                Turn("Done, it shows as Connected now. How do I send photos?", history))


def test_a_lead_loses_the_word_that_placed_it_in_a_sequence_but_not_a_conjunction():
    """A lead without "Then," or "Now", but "Now that …" and "Next to …" open a clause: a
    manual's "Now that the config/ hierarchy exists, build the image" led "That the …"."""
    from procmem.answerers.lead import _opening
    assert _opening("Then, remove the splash.svg file.") == "Remove the splash.svg file."
    assert _opening("Now run lb build.") == "Run lb build."
    assert _opening("Now that the config/ hierarchy exists, build the image.") == \
        "Now that the config/ hierarchy exists, build the image."
    assert _opening("Next to the search box, click Filter.") == "Next to the search box, click Filter."


def test_a_sentence_that_needs_the_one_before_does_not_lead():
    from procmem.answerers.sentence_roles import ANAPHORIC
    assert ANAPHORIC.match("In the window that appears, select a previously-connected hidden network.")
    assert not ANAPHORIC.match("In the Network settings window, select the hidden network.")
    # what "this" is, the sentence before says
    assert ANAPHORIC.match("To update your time zone manually, set this to off.")
    assert not ANAPHORIC.match("Select this option to enable it.")
    # what is done "to do this", in "this situation", or what "this" that "can be verified" is
    assert ANAPHORIC.match("To do this, run the following cmdlet (for example): Get-Mailbox")
    assert ANAPHORIC.match("In this situation, there is only the default profile that's named Outlook.")
    assert ANAPHORIC.match("This can be verified by an administrator by running the following command: Get-MailUser")
    assert not ANAPHORIC.match("To download the tool, run the installer.")
    # what is changed or fixed "to change this" (another FAQ entry's "Stamp outlines are rectangles")
    assert ANAPHORIC.match("To change this, you must rebuild Tux Paint from source.")
    assert not ANAPHORIC.match("To change this setting for every user, edit the system-wide file.")
    # what "this behaviour" is that one can change (GnuCash's note after its credit card payment)
    assert ANAPHORIC.match("You can change this behaviour in the Preferences by activating the checkbox.")
    # ... but "this command" of a command's page is the page's subject (GIMP's reference)
    assert not ANAPHORIC.match("You can access this command from the image menubar through Colors → Desaturate.")
    assert ANAPHORIC.match("You can do this by clicking Save.")
    assert not ANAPHORIC.match("You can change the default behaviour in the Preferences.")
    assert not ANAPHORIC.match("You can check that the command works by opening a Terminal.")


def test_a_sentence_that_names_what_the_one_before_listed_does_not_lead():
    """What "these" are, the sentence before listed: a spreadsheet manual's arrows that scroll a
    workbook's tabs led "How do I draw an arrow on the sheet?"; such a sentence may still say why."""
    from procmem.answerers.sentence_roles import NAMES_WHAT_CAME_BEFORE
    assert NAMES_WHAT_CAME_BEFORE.match("These arrows can be used to scroll the tabs and bring hidden tabs into view.")
    assert NAMES_WHAT_CAME_BEFORE.match("When these choices have been made, the dialog can be dismissed.")
    assert NAMES_WHAT_CAME_BEFORE.match("Each of these elements can be added by selecting its icon.")
    assert not NAMES_WHAT_CAME_BEFORE.match("Select these options to show the tabs.")
    turn = Turn("How do I draw an arrow on the sheet?")
    units = [step_unit("Graphical elements", "Lines, arrows and ellipses float above the sheet. Each of these "
                       "elements can be added by selecting its icon on the object toolbar and dragging on the sheet.",
                       "manual/drawings.xml", "Drawing Elements"),
             step_unit("Sheet tabs", "Each sheet has a tab. These arrows can be used to scroll the sheet tabs and "
                       "bring the tabs that were hidden into view.", "manual/tabs.xml", "Data Entry Area")]
    answer, steps, _ = compose([Hit(u, 1.0, rank, "x") for rank, u in enumerate(units, 1)], turn, cite=False)
    assert answer.startswith("Each of these elements can be added by selecting its icon"), answer
    assert steps[0].startswith("Each of these elements can be added"), steps


def test_a_further_document_gives_the_steps_the_question_asks_about(corpus):
    """A bundled conversation: the jam's recipe answers "how do I make it", and of the cake's
    recipe only its last steps say when the jam goes on (its first ones make the dough)."""
    conv = next(c for c in load_sample() if c.id == "dev-cook-011")
    answer = make_answerer("extractive").answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    cited = {answer.sources[int(re.search(r"\[(\d+)\]$", s).group(1)) - 1].doc_id: s for s in answer.procedures}
    assert set(cited) >= {"based-cooking/orange-jam.md", "based-cooking/mazurek.md"}
    plain = _plain(answer)
    assert "Let cool before spreading topping." in plain
    assert plain.index("Let cool before spreading topping.") > plain.index("Zest all fruit.")


class RankingMemory(MemoryDouble):
    """A memory double that also ranks documents for a conversation, in a set order."""

    def __init__(self, units, ranking):
        super().__init__(units)
        self.ranking = ranking

    def search_documents_conversation(self, history, question, *, k=5, **_):
        return [DocumentHit(doc_id, doc_id, 1.0 / rank, rank, []) for rank, doc_id in enumerate(self.ranking[:k], 1)]


def test_units_of_the_documents_the_memory_ranks_first_for_the_conversation_score_more():
    wash = Procedure("", "Wash a wool jumper", ["Fill a basin with cold water", "Press the jumper gently"],
                     unit_meta("care/wool.md", "Wool"))
    dry = Procedure("", "Wash a wool blanket", ["Fill the bath with cold water", "Squeeze the blanket out"],
                    unit_meta("care/blanket.md", "Blanket"))
    request = AnswerRequest("How do I wash it?", history=[("My wool jumper shrank.", "Wash it cold.")])
    ranked_first = make_answerer("extractive", memory=RankingMemory([wash, dry], ["care/blanket.md"])).answer(request)
    assert _plain(ranked_first)[:2] == dry.steps
    retrieve = next(s for s in ranked_first.trace.stages if s.name == "retrieve")
    assert retrieve.details["top_documents"] == ["care/blanket.md"]
    # off: the search's order decides
    off = make_answerer("extractive", memory=RankingMemory([wash, dry], ["care/blanket.md"]),
                        top_documents=0).answer(request)
    assert _plain(off)[:2] == wash.steps


def _workspace_pages() -> list[Document]:
    return [
        Document("cargo/workspaces.md", "Workspaces",
                 "# Workspaces\n\nA workspace is a collection of one or more packages that are managed together. "
                 "Workspace members share one lock file and one output directory, and commands can run across "
                 "all of them.\n\n## The workspace section\n\nTo create a workspace, you add the `[workspace]` "
                 "table to the `Cargo.toml` of the root folder.\n\n## Package selection\n\nCommands such as "
                 "`cargo build` take `--workspace` to work on every member.\n", {"corpus": "cargo"}),
        Document("cargo/workspace-layout.md", "Workspace layout",
                 "# Workspace layout\n\n## Several packages in one workspace\n\nSet up several packages in a "
                 "workspace by giving each package its own folder next to the others, so that paths stay "
                 "short.\n", {"corpus": "cargo"}),
        Document("cargo/build-cache.md", "Build cache",
                 "# Build cache\n\n## Shared cache\n\nTo set up a cache that several packages share, install "
                 "`sccache` and set `RUSTC_WRAPPER` to `sccache`.\n", {"corpus": "cargo"}),
    ]


def test_the_best_sections_of_the_first_pages_are_candidates_though_the_search_missed_them(embedder):
    """Searching a memory, the sections of the pages it ranks first that best answer the question
    join the candidates: with one hit per search, the workspace page's sections are weighed too."""
    from procmem.memory import build_memory

    memory = build_memory(_workspace_pages(), embedder=embedder, progress=False)
    request = AnswerRequest("How do I set up a workspace with several packages?")
    assert "cargo/workspaces.md" in [d.doc_id for d in memory.search_documents_conversation([], request.question, k=3)]

    def candidate_pages(**params) -> set[str]:
        answer = make_answerer("extractive", memory=memory, k=1, **params).answer(request)
        scores = next(s for s in answer.trace.stages if s.name == "compose").details["scores"]
        return {memory.get(s["unit_id"]).meta["doc_id"] for s in scores}

    assert "cargo/workspaces.md" in candidate_pages()
    assert "cargo/workspaces.md" not in candidate_pages(within_top_documents=0)


@pytest.fixture(scope="module")
def cooking_memory(corpus):
    """A real memory over every bundled recipe: the conversations' recipes among 349."""
    from procmem.memory import build_memory

    return build_memory([d for d in corpus.iter_documents() if d.doc_id.startswith("based-cooking/")],
                        progress=False)


@pytest.mark.slow
@pytest.mark.parametrize(("conversation_id", "recipe", "unrelated"), [
    # "I'd rather make my own [starter]": not another loaf
    ("dev-cook-005", "based-cooking/sourdough-starter.md", {"challah-bread", "cuca-italiana"}),
    # salting the water and adding the eggs of the carbonara the conversation is about
    ("dev-cook-007", "based-cooking/carbonara.md", {"ravioli"}),
])
def test_among_all_recipes_the_answer_comes_from_the_conversations_documents(
        cooking_memory, conversation_id, recipe, unrelated):
    conv = next(c for c in load_sample() if c.id == conversation_id)
    answer = make_answerer("extractive", memory=cooking_memory).answer(
        AnswerRequest(conv.question, history=conv.history))
    cited = {answer.sources[int(re.search(r"\[(\d+)\]$", s).group(1)) - 1].doc_id for s in answer.procedures}
    assert recipe in cited
    assert not {d.rsplit("/", 1)[-1].removesuffix(".md") for d in cited} & unrelated
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert recipe in retrieve.details["top_documents"]


@pytest.mark.slow
def test_a_recipes_steps_give_the_amounts_of_what_they_use(cooking_memory):
    """"How do I make them [Breton galettes]?": the galette's steps with the amounts of its
    ingredient list, each given once."""
    conv = next(c for c in load_sample() if c.id == "dev-cook-013")
    answer = make_answerer("extractive", memory=cooking_memory).answer(
        AnswerRequest(conv.question, history=conv.history))
    mixing = next(s for s in answer.procedures if s.startswith("Mix flour (500g buckwheat flour)"))
    assert "egg (1 egg)" in mixing and "water (70cl water)" in mixing
    assert sum("500g buckwheat flour" in s for s in answer.procedures) == 1


def test_the_plain_answer_starts_a_sentence_not_a_fragment_of_one():
    sauce = LogicUnit("Step", "", "Make the sauce",
                      "1. Add the wine.\n2. Add the tomatoes.\n\n"
                      "stir the wine through the sauce until it has evaporated and the sauce thickens.",
                      [], unit_meta("sauce.md", "Sauce"))
    answer, _, _ = compose([Hit(sauce, 1.0, 1, "x")], Turn("How do I make the sauce thicken?"), cite=False)
    assert answer == "Add the wine, then follow the steps below."


def test_a_sentence_that_ends_inside_a_quotation_ends_the_answer_as_it_is():
    """A step of two sentences, the last ending '… named "Outlook."', led the answer as
    '… named "Outlook.", then follow the steps below.' (and '"Outlook.".' alone)."""
    profile = LogicUnit("Step", "", "Add a delegate", "1. Open the Outlook client. In this situation, there is only "
                        'the default profile that is named "Outlook."\n2. In the Delegates dialog box, click Add.\n',
                        [], unit_meta("outlook.md", "Outlook"))
    answer, _, _ = compose([Hit(profile, 1.0, 1, "x")], Turn("How do I add a delegate in Outlook?"), cite=False)
    # opening the client is the way to the dialog of the next step: one step, and the answer
    assert answer == ('Open the Outlook client. In this situation, there is only the default profile that is named '
                      '"Outlook." In the Delegates dialog box, click Add.')
    # code that ends in a bracket after a space keeps its words (lighttpd's "<extension> => ... )")
    proxy = LogicUnit("Step", "", "Proxy", "Structure of proxy.server section:\n\n```\n( <extension> => ( \"host\" => "
                      "<string> ), <extension> => ... )\n```\n\nThen set the port.\n", [], unit_meta("proxy.txt", "Proxy"))
    answer, _, _ = compose([Hit(proxy, 1.0, 1, "x")], Turn("How do I set up the proxy server?"), cite=False)
    assert answer == ('Structure of proxy.server section: ( <extension> => ( "host" => <string> ), <extension> => ... ), '
                      "then follow the steps below.")


def test_the_page_whose_title_the_question_names_leads(corpus):
    """A bundled conversation about a lamb biriyani: "I'm out of garam masala, can I make my
    own?" is answered from the garam masala page first, not from the biriyani recipe the
    conversation is about (whose steps add the garam masala)."""
    conv = next(c for c in load_sample() if c.id == "dev-cook-003")
    answer = make_answerer("extractive").answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    cited = [answer.sources[int(re.search(r"\[(\d+)\]$", s).group(1)) - 1].doc_id for s in answer.procedures]
    assert cited[0] == "based-cooking/garam-masala.md"
    assert any("dry roast them until aromatic" in s for s in _plain(answer))
    scores = next(s for s in answer.trace.stages if s.name == "compose").details["scores"]
    assert max(s["title"] for s in scores) == 1.0  # "garam masala": the page's whole title


def test_the_plain_answer_opens_without_the_word_that_placed_it_in_a_sequence():
    unit = LogicUnit("Step", "", "Apply the new DNS server (Router)",
                     "1. Open the router's admin page and enter the DNS server address.\n\n"
                     "Then, restart the router to apply the change.", [], unit_meta("help/dns.md", "Router"))
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I make the router use it?"), cite=False)
    assert answer.startswith("Restart the router to apply the change.")
    recipe = Procedure("", "Greek yogurt", ["bring the milk to 45°C (113°F)", "whisk well"],
                       unit_meta("cook/yogurt.md", "Greek yogurt"))
    answer, _, _ = compose([Hit(recipe, 1.0, 1, "x")], Turn("How do I start?"), cite=False)
    assert answer == "Bring the milk to 45°C (113°F), then follow the steps below."


def test_a_reference_entry_answers_with_its_name_and_what_it_does():
    """Cargo's configuration reference and rustdoc's attributes: a section named by a setting
    alone says what the setting does and shows it, with nothing to do. Its name with its first
    sentence (and an example of a line) is the step and the lead, the name as written."""
    proxy = step_unit("`http.proxy` (Configuration)", "Type: string (host and path)\n\nDefault: none\n\n"
                      "Sets an HTTP and HTTPS proxy to use. The format is in libcurl format.\n\nIf not set, "
                      "Cargo will also check the http.proxy setting in your global git configuration.",
                      "cargo/config.html", "Configuration")
    logo = step_unit("`html_logo_url` (The doc attribute)", "This form of the `doc` attribute lets you control "
                     "the logo in the upper left hand side of the docs.\n\n```rust\n#![doc(html_logo_url = "
                     "\"https://example.com/logo.jpg\")]\n```\n\nIf you don't use this attribute, there will be no logo.",
                     "rustdoc/the-doc-attribute.html", "The doc attribute")
    answer, steps, _ = compose([Hit(proxy, 1.0, 1, "x")], Turn("How do I make Cargo use my proxy?"), cite=False)
    assert steps[0] == "http.proxy: Sets an HTTP and HTTPS proxy to use."
    assert answer.startswith("http.proxy: Sets an HTTP and HTTPS proxy to use.")
    answer, steps, _ = compose([Hit(logo, 1.0, 1, "x")], Turn("How do I add my logo to the docs?"), cite=False)
    assert steps == ["html_logo_url: This form of the doc attribute lets you control the logo in the upper left "
                     "hand side of the docs. #![doc(html_logo_url = \"https://example.com/logo.jpg\")]"]
    assert "follow the steps below" not in answer
    # a command that names an entry (FRR's reference, read from Sphinx's signatures) stays as typed
    neighbor = step_unit("`neighbor PEER activate` (BGP)", "Enables the address family for this neighbor.\n\n"
                         "By default only IPv4 unicast is enabled.", "frr/bgp.html", "BGP")
    answer, steps, _ = compose([Hit(neighbor, 1.0, 1, "x")], Turn("How do I activate a neighbor?"), cite=False)
    assert steps[0] == "neighbor PEER activate: Enables the address family for this neighbor."
    assert answer.startswith("neighbor PEER activate: Enables the address family for this neighbor.")
    # the entry before it on the page gives its step first; the best unit's entry still leads
    favicon = step_unit("`html_favicon_url` (The doc attribute)", "This form of the `doc` attribute lets you "
                        "control the favicon of your docs.", "rustdoc/the-doc-attribute.html", "The doc attribute")
    favicon.meta["order"], logo.meta["order"] = 0, 1
    answer, steps, _ = compose([Hit(logo, 1.0, 1, "x"), Hit(favicon, 1.0, 2, "x")],
                               Turn("How do I add my logo to the docs?"), cite=False)
    assert steps[0].startswith("html_favicon_url:") and answer.startswith("html_logo_url: This form")
    # pip's installation page: the example is a shell session; its command, once, without the prompt
    ensurepip = step_unit("`ensurepip` (Installation)", "Python comes with an `ensurepip` module, which can install "
                          "pip in a Python environment.\n\n```pip-cli\n$ python -m ensurepip --upgrade\n```\n\n"
                          "More details about how it works are in the standard library documentation.",
                          "pip/installation.md", "Installation")
    _, steps, _ = compose([Hit(ensurepip, 1.0, 1, "x")], Turn("How do I install pip?"), cite=False)
    assert steps == ["ensurepip: Python comes with an ensurepip module, which can install pip in a Python "
                     "environment. python -m ensurepip --upgrade"]
    # aptitude's options and commands, each named with its other names: "-R" before what it does
    without = step_unit("`-R`, `--without-recommends` (aptitude)", "Do *not* treat recommendations as dependencies "
                        "when installing new packages.\n\nThis corresponds to the configuration option "
                        "`APT::Install-Recommends`.", "aptitude/rn01re01.html", "aptitude")
    _, steps, _ = compose([Hit(without, 1.0, 1, "x")], Turn("How do I stop aptitude from installing recommended "
                                                            "packages?"), cite=False)
    assert steps[0] == "-R, --without-recommends: Do not treat recommendations as dependencies when installing new packages."


def test_a_reference_entry_that_answers_leads_the_entries_before_it_on_its_page():
    """A mail server's list of parameters, each headed by its name and default: the entry that
    the question names word by word answers, and its step comes first, before the entry that
    precedes it on the page and only shares a word with the question."""
    bounce = step_unit("bounce_size_limit (default: 50000) (Configuration Parameters)",
                       "The largest amount of the original message's text that a non-delivery notice returns.",
                       "postconf.5.html", "Configuration Parameters", order=1, unit_type="Appendix")
    message = step_unit("message_size_limit (default: 10240000) (Configuration Parameters)",
                        "The largest size in bytes of a message, envelope included.",
                        "postconf.5.html", "Configuration Parameters", order=2, unit_type="Appendix")
    question = "How do I limit the size of a message?"
    assert defines_asked(message, set(terms(question)), terms)
    assert not defines_asked(bounce, set(terms(question)), terms)
    assert entry_name(message) == "message_size_limit (default: 10240000)"
    # a name of one word is not specific enough for its page's title to say the rest of the question
    add = LogicUnit("Appendix", "", "`add` (dbmmanage - Manage user authentication files)",
                    "Adds an entry for username to filename using the hashed password.", [],
                    unit_meta("dbmmanage.html", "dbmmanage - Manage user authentication files"))
    assert not defines_asked(add, set(terms("How do I add another user to the password file?")), terms)
    answer, steps, _ = compose([Hit(message, 1.0, 1, "x"), Hit(bounce, 0.95, 2, "x")], Turn(question), cite=False)
    assert steps[0] == "message_size_limit (default: 10240000): The largest size in bytes of a message, envelope included."
    assert steps[1].startswith("bounce_size_limit (default: 50000): The largest amount")
    assert answer.startswith("message_size_limit (default: 10240000): The largest size in bytes")

def test_an_entry_that_only_says_what_its_setting_is_ranks_as_a_unit_without_steps():
    """One of a list of hundreds of parameters, found for a question it does not answer, says
    only what its setting is: it ranks as a unit with nothing to do, and does not join the
    howto's steps it shares a name with."""
    level = step_unit("debug_peer_level (default: 2) (Configuration Parameters)",
                      "The increment in verbose logging level when a remote client or server matches a pattern in "
                      "the debug_peer_list parameter.", "postconf.5.html", "Configuration Parameters",
                      unit_type="Appendix")
    howto = step_unit("Verbose logging for specific connections (Debugging Howto)",
                      "1. In main.cf, list the client's name or address in the debug_peer_list parameter.\n"
                      "2. Run postfix reload to make the change take effect.\n", "DEBUG_README.html", "Debugging Howto")
    _, steps, _ = compose([Hit(level, 1.0, 1, "x"), Hit(howto, 0.9, 2, "x")],
                          Turn("How do I turn on verbose logging for one client?"), cite=False)
    assert steps == ["In main.cf, list the client's name or address in the debug_peer_list parameter.",
                     "Run postfix reload to make the change take effect."]
    assert defines_only(level, unit_steps(level))
    # a command's entry says what it does, as aptitude's "markauto", and ranks by it
    command = step_unit("`markauto`, `unmarkauto` (aptitude)", "Mark packages as automatically installed or "
                        "manually installed, respectively.", "rn01re01.html", "aptitude", unit_type="Appendix")
    assert not defines_only(command, unit_steps(command))

def test_a_sentence_that_needs_the_one_before_it_or_an_exclamation_does_not_lead():
    stock = step_unit("Thicken the stew", "If the stew is too thin, let it simmer uncovered for a while. "
                      "Otherwise you can mix a teaspoon of flour with water and stir it into the stew.",
                      "cook/stew.md", "Stew")
    answer, _, _ = compose([Hit(stock, 1.0, 1, "x")], Turn("How do I thicken the stew with flour?"), cite=False)
    assert answer.startswith("If the stew is too thin, let it simmer uncovered for a while")  # not "Otherwise ..."
    login = step_unit("Before your first publish", "Check that crates.io is listed in the Authorized OAuth Apps "
                      "tab. If it isn't, you should go to the settings page and authorize it. To log in, visit the "
                      "home page and sign in with a GitHub account.", "cargo/publishing.md", "Publishing on crates.io")
    answer, _, _ = compose([Hit(login, 1.0, 1, "x")], Turn("How do I authorize it on the settings page?"), cite=False)
    assert not answer.startswith("If it isn't")
    patch = step_unit("Testing a bugfix", "Once you have found the bug, you can try to fix the bug yourself! You "
                      "can add a local path to the dependency in the patch section.",
                      "cargo/overriding-dependencies.md", "Overriding Dependencies")
    answer, _, _ = compose([Hit(patch, 1.0, 1, "x")], Turn("How do I fix the bug in my dependency?"), cite=False)
    assert answer.startswith("You can add a local path to the dependency")


def test_the_lead_is_for_the_case_the_user_named_and_keeps_the_command_it_introduces():
    """The Rust book's installation page: "If you get linker errors, ..." answers a case the user
    did not name; the step for their system is introduced prose with its command."""
    install = step_unit("Installing rustup on Linux or macOS", "If you're using Linux or macOS, open a terminal and "
                        "enter the following command:\n\n```console\n$ curl --proto '=https' https://sh.rustup.rs -sSf "
                        "| sh\n```\n\nYou will also need a linker. If you get linker errors, you should install a C "
                        "compiler, which will typically include a linker.", "book/installation.html", "Installation")
    answer, _, _ = compose([Hit(install, 1.0, 1, "x")], Turn("How do I install Rust on Linux?"), cite=False)
    assert answer.startswith("If you're using Linux or macOS, open a terminal and enter the following command: "
                             "curl --proto '=https' https://sh.rustup.rs -sSf | sh")
    # the user named the case: it leads
    answer, _, _ = compose([Hit(install, 1.0, 1, "x")], Turn("I get linker errors. What do I install?"), cite=False)
    assert answer.startswith("If you get linker errors, you should install a C compiler")


def test_how_to_undo_something_leads_only_when_the_user_asks_to_undo():
    """The Debian Administrator's Handbook on cron ends with how to cancel a task: no lead for
    "How do I schedule ...?", the lead for "How do I delete ...?" ("remove" says "delete")."""
    cron = step_unit("Scheduling Tasks with cron", "To cancel a task scheduled by cron, simply run `crontab -e` and "
                     "delete the corresponding line in the crontab file.\n\nEach user schedules commands in a crontab, "
                     "which can be edited by running `crontab -e` in a terminal.", "handbook/cron.html",
                     "Scheduling Tasks")
    answer, _, _ = compose([Hit(cron, 1.0, 1, "x")], Turn("How do I schedule a command with cron every night?"),
                           cite=False)
    assert answer.startswith("Each user schedules commands in a crontab, which can be edited by running crontab -e")
    answer, _, _ = compose([Hit(cron, 1.0, 1, "x")], Turn("How do I delete a task scheduled by cron?"), cite=False)
    assert answer.startswith("To cancel a task scheduled by cron")


def test_the_rest_of_a_section_that_answers_the_question_is_chosen_with_it():
    """Cargo's FAQ: an answer split for size. Its second part names little of the question and
    ranks low, but it is the rest of the answer, not another page's section."""
    question = "Why build crates.io rather than use GitHub as a registry?"
    first = LogicUnit("FAQ", "", f"{question} (FAQ) (part 1 of 2)",
                      "We think that it's very important to support multiple ways to download packages.",
                      [], unit_meta("cargo/faq.html", "FAQ", 4))
    rest = LogicUnit("FAQ", "", f"{question} (FAQ) (part 2 of 2)",
                     "- Discoverability. A central place makes it easy to look for existing packages.\n"
                     "- Speed. Fetching only the metadata of packages is fast.", [], unit_meta("cargo/faq.html", "FAQ", 5))
    others = [step_unit(f"Publish to registry {n}", f"Run `cargo publish --registry r{n}` to use registry {n}.",
                        f"cargo/registry-{n}.md", f"Registry {n}") for n in range(4)]
    # the first part found twice (by the search over every page and among its page's units)
    hits = [Hit(first, 1.0, 1, "x")] + [Hit(u, 1.0, rank, "x") for rank, u in enumerate([first, *others, rest], 1)]
    answer, steps, details = compose(hits, Turn(question), cite=False)
    assert rest.id in details["used_units"]
    assert steps[-1] == "Speed. Fetching only the metadata of packages is fast."


def test_an_faq_entry_whose_question_is_the_users_gives_its_answer():
    """An FAQ's answer is prose without steps, and reads like a statement: it still answers
    when its question is the user's, with its opening ("No." and the sentence that says why)."""
    attach = LogicUnit("FAQ", "", "Is it possible to attach the checker to a program that is already running?",
                       "No. The checker needs full control of the program from its very start.\n\n"
                       "You can start the program without instrumentation and add it later.",
                       [], unit_meta("tool/faq.html", "Checker FAQ"))
    overruns = LogicUnit("FAQ", "", "Why doesn't the checker find the array overruns in this program?",
                         "```\nint a[5];\na[5] = 0;\n```\n\nIt does no bounds checking on stack arrays. Sorry.",
                         [], unit_meta("tool/faq.html", "Checker FAQ"))
    start = Procedure("", "Run a program under the checker", ["Build the program with debug information.",
                      "Run checker your-program."], unit_meta("tool/start.html", "Quick start"))
    hits = [Hit(start, 3.0, 1, "x"), Hit(attach, 2.0, 2, "x"), Hit(overruns, 1.0, 3, "x")]
    answer, _, details = compose(hits, Turn("How do I attach the checker to a program that is already running?"),
                                 cite=False)
    assert answer == "No. The checker needs full control of the program from its very start."
    assert details["scores"][0]["unit_id"] == attach.id
    answer, _, _ = compose(hits, Turn("Why does the checker not find array overruns in my program?"), cite=False)
    assert answer == "It does no bounds checking on stack arrays. Sorry."
    # a question the entry does not ask is answered as before, from the steps
    answer, steps, _ = compose(hits, Turn("How do I run my program under the checker?"), cite=False)
    assert steps[:2] == ["Build the program with debug information.", "Run checker your-program."]


def test_a_section_whose_header_is_the_question_answers_it_whatever_its_type():
    """A section typed as background (a module's relation to another, where its documents are
    kept) answers the question its header asks, ahead of a procedure that ranks higher, and
    alone: units of other pages do not join it."""
    relation = LogicUnit("Terminology", "", "What the new builder is and how it relates to the old one",
                         "The new builder is a project to replace the old one. It needs no make and no "
                         "shell commands.\n\nBoth read the same configuration.",
                         [], unit_meta("tool/faq.html", "Builder FAQ"))
    install = Procedure("", "Install the old builder", ["Download the builder.", "Run make install."],
                        unit_meta("tool/install.html", "Installing"))
    hits = [Hit(install, 3.0, 1, "x"), Hit(relation, 2.0, 2, "x")]
    answer, steps, details = compose(hits, Turn("What is the new builder and how does it relate to the old one?"),
                                     cite=False)
    assert answer == "The new builder is a project to replace the old one. It needs no make and no shell commands."
    assert details["scores"][0]["unit_id"] == relation.id
    assert steps == []  # another page's procedure does not join the section that answers
    # a section split for size opens its answer in its first part, not in a later one
    later = LogicUnit("Terminology", "", "What the new builder is and how it relates to the old one (part 2 of 2)",
                      "As for plugins, neither loads them.", [], unit_meta("tool/faq.html", "Builder FAQ"))
    answer, _, _ = compose([Hit(later, 3.0, 1, "x"), Hit(relation, 2.0, 2, "x"), Hit(install, 1.0, 3, "x")],
                           Turn("What is the new builder and how does it relate to the old one?"), cite=False)
    assert answer.startswith("The new builder is a project to replace the old one.")


def test_a_how_to_question_gets_another_pages_steps_after_the_entry_that_says_what_the_thing_is():
    """A reference entry named as the question ("Record Macro": what the command does) leads,
    and as it has no steps, the page that says how to do it gives them; a question about what
    the thing is keeps the entry alone."""
    entry = LogicUnit("Appendix", "", "Record Macro",
                      "Records a new macro. Only available if macro recording is enabled under Tools - Options.",
                      [], unit_meta("ref/record.html", "Record Macro"))
    recording = Procedure("", "Recording a Macro", ["Open the document you want to record a macro for.",
                          "Choose Tools - Macros - Record Macro.", "Click Stop Recording."],
                          unit_meta("guide/recording.html", "Recording a Macro"))
    hits = [Hit(entry, 3.0, 1, "x"), Hit(recording, 2.0, 2, "x")]
    answer, steps, details = compose(hits, Turn("How do I record a macro?"), cite=False)
    assert details["scores"][0]["unit_id"] == entry.id
    assert answer.startswith("Records a new macro.")
    assert steps == [" ".join(recording.steps[:2]), recording.steps[2]]
    _, steps, _ = compose(hits, Turn("What does Record Macro do?"), cite=False)
    assert steps == []


def test_a_step_said_again_after_a_clause_of_its_own_does_not_take_the_steps_place():
    """LibreOffice's guide to checking spelling opens its steps with "Choose Tools - Automatic Spell
    Checking."; the context menu's reference page says "To view the misspelled words in your
    document, choose Tools - Automatic Spell Checking.", which held the guide's first step whole
    and took it away (the answer to "How do I turn off the red wavy lines under misspelled words?"
    began with the second step). A step gone on with still gives way (the macro's guide above)."""
    guide = Procedure("", "To Check Spelling Automatically While You Type",
                      ["Choose Tools - Automatic Spell Checking.",
                       "Right-click a word with a red wavy underline, and then choose a suggested replacement word."],
                      unit_meta("swriter/guide/auto_spellcheck.html", "Automatically Check Spelling"))
    menu = Procedure("", "AutoCorrect context menu",
                     ["To access this menu, right-click a misspelled word in your document.",
                      "To view the misspelled words in your document, choose Tools - Automatic Spell Checking."],
                     unit_meta("shared/01/06040500.html", "AutoCorrect context menu"))
    hits = [Hit(guide, 3.0, 1, "x"), Hit(menu, 2.0, 2, "x")]
    _, steps, _ = compose(hits, Turn("How do I turn off the red wavy lines under misspelled words?"), cite=False)
    assert steps[:2] == guide.steps, steps
    assert not any(step.startswith("To view the misspelled words") for step in steps), steps
    assert said_after_clause("Choose Tools - Automatic Spell Checking.", menu.steps[1])
    assert not said_after_clause("Choose Tools - Macros - Record Macro.",
                                 "Choose Tools - Macros - Record Macro. The Record Macro dialog opens.")


def test_a_page_on_using_what_an_option_offers_gives_its_steps():
    """LibreOffice's Find & Replace dialog has an entry "Regular expressions: Allows you to use
    regular expressions in your search.", which answers "How do I find and replace with regular
    expressions?" by saying what lets one do it; the guide "Using Regular Expressions in Text
    Searches" says how, and was left out (the answer had no steps). Another page that only shares
    words with the question stays out."""
    entry = LogicUnit("Appendix", "", "Regular expressions", "Allows you to use regular expressions in your search.",
                      [], unit_meta("shared/01/02100000.html", "Find & Replace"))
    entry.meta["section"] = "Find & Replace > Other options > Regular expressions"
    guide = Procedure("", "Using Regular Expressions in Text Searches",
                      ["Choose Edit - Find & Replace.", "Click More Options to expand the dialog.",
                       "Select the Regular expressions check box.", "Click Find Next or Find All."],
                      unit_meta("swriter/guide/search_regexp.html", "Using Regular Expressions in Text Searches"))
    other = Procedure("", "Replacing Text in Tables", ["Select the table.", "Choose Edit - Find & Replace."],
                      unit_meta("swriter/guide/table_replace.html", "Replacing Text in Tables"))
    turn = Turn("How do I find and replace with regular expressions?")
    answer, steps, _ = compose([Hit(entry, 3.0, 1, "x"), Hit(guide, 2.0, 2, "x"), Hit(other, 1.9, 3, "x")], turn,
                               cite=False)
    assert answer.startswith("Allows you to use regular expressions in your search."), answer
    assert steps == guide.steps, steps


def test_a_reference_entry_for_what_the_question_names_leads_with_its_name():
    """PostgreSQL's "`port` (`integer`)" entry, asked how to change the port the server listens
    on, answers with its name and definition, before another page's steps that only share words
    with the question; an entry whose definition is about something else does not answer."""
    entry = LogicUnit("Appendix", "", "`port` (`integer`) (Connections)",
                      "The TCP port the server listens on; 5432 by default. This parameter can only be set at "
                      "server start.", [], unit_meta("runtime-config-connection.html", "Connections"))
    upgrade = Procedure("", "Upgrade the cluster", ["Stop both servers.", "Run pg_upgrade with the old and new port."],
                        unit_meta("pgupgrade.html", "pg_upgrade"))
    question = "How do I change the port the server listens on?"
    assert defines_asked(entry, set(terms(question)), terms)
    assert entry_name(entry) == "port (integer)"
    answer, _, details = compose([Hit(upgrade, 3.0, 1, "x"), Hit(entry, 2.9, 2, "x")], Turn(question), cite=False)
    assert answer.startswith("port (integer): The TCP port the server listens on; 5432 by default.")
    assert details["scores"][0]["unit_id"] == entry.id
    other = LogicUnit("Appendix", "", "`port`", "The port of the mail relay that reports are sent to.", [],
                      unit_meta("reports.html", "Reports"))
    assert not defines_asked(other, set(terms(question)), terms)
    assert entry_name(LogicUnit("Appendix", "", "Connections", "x", [], {})) == ""


def test_a_unit_that_shares_only_a_common_word_with_the_question_does_not_join():
    """The "screen" procedure, found for a question about the locale as one of a manual's few
    procedures and sharing only "system" with it, scores near the best unit but gives no steps:
    its text holds little of what the best unit's holds of the question. Ranked nearly as high as
    the best unit by the searches, or brought by the conversation, it may join."""
    locale = Procedure("", "The locale", ["Run dpkg-reconfigure locales to change the system locale."],
                       unit_meta("ch08.html", "I18N"))
    screen = Procedure("", "The screen program", ["Log in to a remote system and start screen."],
                       unit_meta("ch09.html", "System tips"))

    def chosen(screen_retrieval: float, screen_context: float = 0.0) -> list[str]:
        best = Candidate(Hit(locale, 1.0, 1, "x"), retrieval=0.25, score=0.9,
                         why={"text": 1.0, "header": 0.3, "context": 0.0})
        other = Candidate(Hit(screen, 0.9, 2, "x"), retrieval=screen_retrieval, score=0.6,
                          why={"text": 0.3, "header": 0.2, "context": screen_context})
        picked = select([best, other], Turn("How do I change the system locale?"), ExtractiveParams())
        return [c.unit.output for c in picked]

    assert chosen(0.1) == ["The locale"]
    assert chosen(0.2) == ["The locale", "The screen program"]
    assert chosen(0.1, screen_context=0.5) == ["The locale", "The screen program"]


def test_a_unit_that_only_the_conversation_brought_does_not_join_what_the_question_found():
    """A live system's manual: asked "And how do I try it out in VirtualBox?" after how to build
    an image, the VirtualBox section answers by the question's words, and the build steps, which
    share none of them and which the conversation has had, join no more (they came first, being
    earlier in the page); a question whose words find nothing is still answered from the
    conversation's topic."""
    virtualbox = Procedure("", "Testing an ISO image with VirtualBox", ["Install virtualbox and start it."],
                           unit_meta("the-basics.html", "The basics"))
    build = Procedure("", "First steps: building an ISO hybrid image", ["Run lb config, then lb build."],
                      unit_meta("the-basics.html", "The basics"))
    history = [("How do I build my first ISO hybrid image?", "Run lb config and then lb build.")]

    def chosen(question: str, best_why: dict[str, float]) -> list[str]:
        best = Candidate(Hit(virtualbox, 1.0, 1, "x"), retrieval=0.9, score=1.0, why=best_why)
        topic = Candidate(Hit(build, 0.9, 2, "x"), retrieval=0.8, score=0.6,
                          why={"text": 0.0, "header": 0.0, "context": 1.0})
        return [c.unit.output for c in select([best, topic], Turn(question, history), ExtractiveParams())]

    found = {"text": 0.7, "header": 0.7, "context": 0.7}
    assert chosen("And how do I try it out in VirtualBox?", found) == ["Testing an ISO image with VirtualBox"]
    assert chosen("What next?", {"text": 0.0, "header": 0.0, "context": 0.7}) == [
        "Testing an ISO image with VirtualBox", "First steps: building an ISO hybrid image"]


def test_a_question_for_a_key_is_answered_by_the_row_of_the_table_of_keys_that_does_it():
    """A desktop guide's table of window shortcut keys: "What is the keyboard shortcut to switch
    between windows?" led with what the section says before its table; the row whose function
    says the action leads now, and is the section's one step. A list of keys answers alike; a
    key that only mentions the action later in its description does not."""
    table = ("Window shortcut keys allow you to use the keyboard to perform tasks on the focused window. "
             "The following table lists some window shortcut keys:\n\n| Shortcut Key | Function |\n|---|---|\n"
             "| Alt+F4 | Close the currently focused window. |\n"
             "| Alt+Tab | Switch between windows. A list of windows that you can select is displayed. |\n"
             "| Alt+F7 | Move the focused window. You can then switch between windows as usual. |\n")
    unit = step_unit("Window Shortcut Keys", table, "gosbasic.xml", "Basic Skills")
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("What is the keyboard shortcut to switch between windows?"),
                               cite=False)
    assert answer == "Alt+Tab: Switch between windows."
    assert steps == ["Alt+Tab: Switch between windows. A list of windows that you can select is displayed."]
    listed = step_unit("Window Shortcut Keys", "- **Alt+F4**: Close the focused window.\n"
                       "- **Alt+Tab**: Switch between windows.\n", "gosbasic.xml", "Basic Skills")
    assert asked_keys(listed, Turn("Which key do I press to close the window?")) == ["Alt+F4: Close the focused window."]
    # asked how, the row that opens with the action does it; not one that only mentions it later
    assert asked_keys(unit, Turn("How do I switch between windows?")) == [
        "Alt+Tab: Switch between windows. A list of windows that you can select is displayed."]
    assert asked_keys(unit, Turn("How do I change the window's size?")) == []  # no row says it


def test_a_how_question_only_a_table_of_keys_answers_is_answered_by_its_row():
    """Evolution's help says how to mark all messages as read only in its table of shortcut keys
    ("| Ctrl+K | Mark the selection as read. |"); the reply had been the message source's View menu.
    A row that opens with the asked action and says two thirds of the question's task does it."""
    keys = step_unit("Mail", "| Shortcut | Action |\n|---|---|\n| Ctrl+K | Mark the selection as read. |\n"
                     "| Shift+Ctrl+K | Mark the selection as unread. |\n| Ctrl+U | View the message source. |\n",
                     "evolution/intro-keyboard-shortcuts.page", "Shortcut keys")
    source = step_unit("Message Source", "To view the message data, click on **View** > **Message Source** or "
                       "press Ctrl+U.", "evolution/mail-display-message-source.page", "Message Source")
    turn = Turn("How do I mark all messages as read?")
    assert asked_keys(keys, turn) == ["Ctrl+K: Mark the selection as read."]
    answer, _, _ = compose([Hit(source, 1.0, 1, "x"), Hit(keys, 0.9, 2, "x")], turn, cite=False)
    assert answer == "Ctrl+K: Mark the selection as read."
    # a key question is answered as before, and a question asked of no action gets no row
    assert asked_keys(keys, Turn("What is the shortcut to mark the selection as unread?")) == [
        "Shift+Ctrl+K: Mark the selection as unread."]
    assert asked_keys(keys, Turn("How do I read my mail?")) == []


def test_a_lead_that_introduces_a_command_gives_the_command():
    """"You can change it by the following." leads with the command it introduces, never alone."""
    unit = step_unit("The default editor", "Debian sets a default editor for every user.\n\nYou can change it by "
                     "the following.\n\n```\n$ sudo update-alternatives --config editor\n```\n",
                     "ch09.html", "System tips")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I change the default text editor?"), cite=False)
    assert answer.startswith("You can change it by the following: sudo update-alternatives --config editor.")


def test_a_sentence_that_gives_a_short_command_leads_as_what_to_do():
    """A mail server's reference: "For mail through a smarthost, you reconfigure the packages as
    the following:" and the command says what to do, though no verb tells the user to; before, a
    later sentence led ("Create password entries for the smarthost by editing …"). A sentence
    that goes on from the one before it ("They can be listed …"), or whose code is long or a
    drawing, does not."""
    def lead(body: str) -> str:
        unit = step_unit("Mail through a smarthost", body, "ch06.html", "Network applications")
        answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I send mail through a smarthost?"), cite=False)
        return answer

    later = "\n\nCreate password entries for the mail server by editing the password file.\n"
    assert lead("For mail through a smarthost, you reconfigure the packages as the following:\n\n```\n"
                "$ sudo dpkg-reconfigure exim4-config\n```" + later).startswith(
        "For mail through a smarthost, you reconfigure the packages as the following: "
        "sudo dpkg-reconfigure exim4-config")
    assert lead("Mail through a smarthost waits in a queue. They can be listed by the following:\n\n```\n"
                "$ mailq\n```" + later).startswith("Create password entries")
    assert lead("Mail through a smarthost needs one setting. That's all the information a smarthost takes:\n\n```\n"
                "$ postconf -e relayhost=smtp.example.com\n```" + later).startswith("Create password entries")
    assert lead("For mail through a smarthost, the queue may look like this:\n\n```\n---o---o---M\n```"
                + later).startswith("Create password entries")  # a drawing is nothing to do
    long_code = "\n".join(f"$ sudo postconf -e relay_option_{i}=yes" for i in range(8))
    assert lead("For mail through a smarthost, you set the packages as the following:\n\n```\n"
                f"{long_code}\n```" + later).startswith("Create password entries")


def test_a_lead_that_breaks_off_before_its_example_gives_the_example():
    """DocBook's text: "If you want to use PGP, you can specify" and the example on its own line."""
    unit = step_unit("Pgp: Pseudo Header", "If you want to use PGP, you can specify\n\n```\nPgp: [ E | S ]\n```"
                     "\n\nE selects encryption and S selects signing.\n", "manual.txt", "Mail client")
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I sign a message with PGP?"), cite=False)
    assert steps[0] == "If you want to use PGP, you can specify: Pgp: [ E | S ]"
    assert answer.startswith("If you want to use PGP, you can specify: Pgp: [ E | S ].")


def test_the_reference_entry_the_question_names_is_the_step_and_the_lead():
    """FRR's BGP debugging commands: the question names one entry of the section's list."""
    body = ("`show debug`: Show all enabled debugs.\n\n`debug bgp bfd`: Enable or disable debugging for "
            "BFD events.\n\n`debug bgp updates`: Enable or disable debugging for BGP updates. This shows "
            "the UPDATE messages sent and received.\n\n`debug bgp update-groups`: Enable or disable "
            "debugging of dynamic update groups.\n")
    debugging = step_unit("Debugging", body, "bgp.html", "BGP", order=9)
    delay = Procedure("", "Update delay", ["Set bgp update-delay to wait for peers after a restart."],
                      unit_meta("bgp.html", "BGP", order=3))
    turn = Turn("How do I debug BGP updates?")
    answer, steps, _ = compose([Hit(debugging, 1.0, 1, "x"), Hit(delay, 0.9, 2, "x")], turn, cite=False)
    assert steps[0] == ("`debug bgp updates`: Enable or disable debugging for BGP updates. This shows the "
                        "UPDATE messages sent and received.")
    assert not any(step.startswith(("`show debug`", "`debug bgp bfd`", "`debug bgp update-groups`")) for step in steps)
    assert answer == "debug bgp updates: Enable or disable debugging for BGP updates."
    # a question that names no entry gets none of them
    _, steps, _ = compose([Hit(debugging, 1.0, 1, "x")], Turn("How do I see what is going on?"), cite=False)
    assert not any(step.startswith("`") for step in steps)


def test_a_menu_reference_entry_that_names_the_question_answers_it():
    """A KDE handbook's menu reference: "How do I show hidden files in Dolphin?" is answered by
    "View → Show Hidden Files", not by a section with steps that shares the question's words and
    ranks higher; the answer says why only in the entry's own words, not with another entry's
    ("By default the output is scaled ..."). An entry that names only what the question asks to
    do with it ("Move Into Folder" for a filter that moves messages) does not answer it."""
    menu = step_unit("The View Menu", "**View → Zoom In**: Increases the size of icons in the view.\n\n"
                     "**View → Show Hidden Files**: Shows all the hidden files and sub-folders within the "
                     "current folder.\n\n**View → Print Screen**: Prints the current screen. By default the "
                     "output is scaled to fit the paper.\n", "dolphin/index.docbook", "The Dolphin Handbook",
                     order=9, unit_type="Appendix")
    folders = step_unit("Folders", "The Folders panel shows a tree view of the file system.\n\n"
                        "1. Use Limit to Home Directory to hide all folders from the tree view except your "
                        "Home.\n2. Show the hidden files of a folder by right-clicking it.\n",
                        "dolphin/index.docbook", "The Dolphin Handbook", order=4)
    turn = Turn("How do I show hidden files in Dolphin?")
    answer, steps, _ = compose([Hit(folders, 1.0, 1, "x"), Hit(menu, 0.5, 2, "x")], turn, cite=False)
    assert steps[0] == "View → Show Hidden Files: Shows all the hidden files and sub-folders within the current folder."
    assert answer == "View → Show Hidden Files: Shows all the hidden files and sub-folders within the current folder."
    actions = step_unit("Filter Actions", "**Move Into Folder**: This will move the message into another "
                        "folder.\n\n**Add Tag**: This will add a tag to the message.\n", "kmail2/using-kmail.docbook",
                        "Using KMail", order=7, unit_type="Appendix")
    # a section whose opening sets the scene for its entries leads with the entry the question names
    options = step_unit("Command-line Options", "When Konsole is started from the command line, various options "
                        "can be specified to modify its behavior.\n\n`--new-tab`: Create a new tab in an existing "
                        "window rather than creating a new window.\n\n`--help`: List various options.\n",
                        "konsole/index.docbook", "The Konsole Handbook", order=3, unit_type="Appendix")
    answer, _, _ = compose([Hit(options, 1.0, 1, "x")], Turn("How do I open a new tab in Konsole?"), cite=False)
    assert answer == "--new-tab: Create a new tab in an existing window rather than creating a new window."
    named, moving = Candidate(Hit(menu, 0.5, 2, "x")), Candidate(Hit(actions, 0.5, 2, "x"))
    score(named, turn, 1.0)
    score(moving, Turn("How do I create a filter in KMail that moves messages to a folder?"), 1.0)
    assert named.answers and named.why["header"] == 0.75
    assert not moving.answers and moving.why["header"] < 0.5  # its own header's "filter" alone
    # an entry whose name says half of the question's words is named, and answers nothing
    identity = step_unit("Cryptography", "**OpenPGP encryption key**: Here you may select an OpenPGP key for "
                         "encrypting messages.\n", "kmail2/configure.docbook", "Configure KMail", order=3,
                         unit_type="Appendix")
    keyed = Candidate(Hit(identity, 0.5, 2, "x"))
    score(keyed, Turn("How do I encrypt an email with OpenPGP in KMail?"), 1.0)
    assert not keyed.answers


def test_an_entry_with_its_other_name_and_marks_is_an_entry_the_question_may_name():
    """zsh's options: "`SHARE_HISTORY` <K>: …" and "`CORRECT` (`-0`) <D> <Z>: …" are entries;
    "How do I make the history shared?" names the first. An option whose description says some
    words of the question ("Try to correct the spelling") is not named by it."""
    body = ("`CORRECT` (`-0`) <D> <Z>: Try to correct the spelling of commands.\n\n`SHARE_HISTORY` <K>: This "
            "option both imports new commands from the history file and appends typed ones to it.\n\n"
            "`HIST_VERIFY`: Do not execute the line directly after history expansion; reload it instead.\n")
    options = step_unit("History", body, "zsh/Options.html", "Options")
    answer, steps, _ = compose([Hit(options, 1.0, 1, "x")], Turn("How do I make the history shared between "
                                                                     "sessions?"), cite=False)
    assert steps[0].startswith("`SHARE_HISTORY` <K>: This option both imports new commands")
    assert answer.startswith("SHARE_HISTORY <K>: This option both imports new commands")
    _, steps, _ = compose([Hit(options, 1.0, 1, "x")], Turn("How do I turn on spelling correction?"), cite=False)
    assert not any(step.startswith("`CORRECT`") for step in steps)


def test_a_long_block_of_code_alone_does_not_lead_the_answer():
    """SQLite's json_tree: the table's schema, a block of 13 lines, was the lead "Run CREATE TABLE ..."."""
    columns = "; ".join(f"col{i} TEXT, -- what column {i} holds for the current element" for i in range(12))
    schema = Procedure("", "The json_tree() function", [f"Run `CREATE TABLE json_tree({columns})`"],
                       unit_meta("json1.html", "JSON"))
    text = step_unit("The json_tree() function", "Suppose a table stores the phone numbers of each user as "
                     "a JSON array in one field.\n", "json1.html", "JSON", order=2)
    turn = Turn("How do I query JSON stored in a column?")
    answer, steps, _ = compose([Hit(schema, 1.0, 1, "x")], turn, cite=False, extra=[text])
    assert steps[0].startswith("Run CREATE TABLE json_tree(")
    assert answer.startswith("Suppose a table stores the phone numbers")


def test_a_plain_text_manuals_variable_is_an_entry_named_by_it():
    """Mutt's manual.txt: "3.289. sidebar_visible", then its labelled type and default, then what
    it does. The entry answers with its name, as one written in code does."""
    unit = step_unit("sidebar_visible", "Type: boolean\nDefault: no\n\nThis specifies whether or not to show "
                     "sidebar. The sidebar shows a list of all your mailboxes.\n", "manual.txt", "Mutt")
    assert entry_name(unit) == "sidebar_visible"
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I turn on the sidebar?"), cite=False)
    assert steps == ["sidebar_visible: This specifies whether or not to show sidebar."]
    assert answer.startswith("sidebar_visible: This specifies whether or not to show sidebar.")
    # a heading of words is no name
    assert entry_name(step_unit("Reading mail", "Press Enter.", "manual.txt", "Mutt")) == ""


def test_a_step_that_a_later_units_step_holds_whole_gives_way_to_it():
    entry = Procedure("", "Record Macro", ["Choose Tools - Macros - Record Macro."],
                      unit_meta("ref/record.html", "Record Macro"))
    guide = Procedure("", "Recording a Macro", [
        "Open the document for which you want to record a macro.",
        "Choose Tools - Macros - Record Macro. If the item is missing, enable macro recording first.",
        "Click Stop Recording."], unit_meta("guide/recording.html", "Recording a Macro"))
    _, steps, details = compose([Hit(entry, 3.0, 1, "x"), Hit(guide, 2.9, 2, "x")], Turn("How do I record a macro?"),
                                cite=False)
    # the guide's steps, its first (opening the document) joined with the step done there
    assert steps == [" ".join(guide.steps[:2]), guide.steps[2]]
    assert details["used_units"] == [guide.id]



def test_a_step_that_another_units_step_holds_gives_way_to_it_in_its_own_place():
    """An archive manager's "Create a new archive", as a procedure and as the section whose list
    holds each step with its tip: the fuller steps took the place of the bare ones at the end of
    the answer, after "Once you finish adding files …", and "Click Create to continue." (four
    words) stayed beside "Click Create to continue. Tip: …"."""
    proc = Procedure("", "Create a new archive", [
        "Choose the location where the archive file will be saved.", "Click Create to continue.",
        "Add the desired files to your archive by pressing + in the header bar.",
        "Once you finish adding files, the archive is ready."], unit_meta("help/create.page", "Create a new archive"))
    section = step_unit("Create a new archive", "1. Choose the location where the archive file will be saved.\n"
                        "2. Click **Create** to continue.\n   > **Tip:** Other Options can set a password.\n"
                        "3. Add the desired files to your archive by pressing + in the header bar.\n   > **Tip:** "
                        "Not all formats support folders.\n4. Once you finish adding files, the archive is ready.",
                        "help/create.page", "Create a new archive", order=1)
    _, steps, _ = compose([Hit(proc, 3.0, 1, "x"), Hit(section, 2.9, 2, "x")],
                          Turn("How do I create an archive?"), cite=False)
    assert steps == ["Choose the location where the archive file will be saved.",
                     "Click Create to continue. Tip: Other Options can set a password.",
                     "Add the desired files to your archive by pressing + in the header bar. Tip: Not all formats "
                     "support folders.",
                     "Once you finish adding files, the archive is ready."], steps

def asked_by_its_header(unit_type: str, header: str, body: str) -> tuple[str, list[str]]:
    """The answer and steps that a section gives alone when the question is its header."""
    unit = LogicUnit(unit_type, "", header, body, [], unit_meta("tool/faq.html", "Tool FAQ"))
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn(header), cite=False)
    return answer, steps


def test_an_faq_answer_that_introduces_a_list_goes_on_with_it():
    answer, _ = asked_by_its_header(
        "FAQ", "Why does the tool not report registrations for some ports?",
        "It reports local ports only. It finds local ports this way:\n\n- The port is in the "
        "local address.\n- The port is the loopback's\n\nRemote ports are not asked, for speed.")
    assert answer == ("It reports local ports only. It finds local ports this way: The port is in the local "
                      "address. The port is the loopback's")


def test_an_faq_answer_that_runs_on_with_a_comma_into_its_list_goes_on_with_it():
    """A home server's troubleshooting entry: "This is because … To fix that," over the list that
    says how. The answer goes on with the list's first item, not with a comma."""
    answer, _ = asked_by_its_header(
        "FAQ", 'Why does the server say "relay access denied"?',
        "This is because the mail server does not know the domain. To fix that,\n\n"
        "1. Ensure the box knows its domain name.\n   - Go to System > Name Services.\n")
    assert answer == ("This is because the mail server does not know the domain. To fix that, ensure the box "
                      "knows its domain name. Go to System > Name Services.")


@pytest.mark.parametrize(("unit_type", "header", "body", "expected"), [
    # who wrote the page is no opening
    ("Step", "Draw a straight line",
     "This tutorial is based on text Copyright © 2002 Seth Burgess. Any painting tool draws straight "
     "lines. Hold down the Shift key between two clicks.\n\n1. Click where the line starts.",
     "Any painting tool draws straight lines. Hold down the Shift key between two clicks."),
    # the command the opening introduces is said once
    ("Step", "Rename a column",
     "To rename a column:\n\n```\nALTER TABLE products RENAME COLUMN product_no TO product_number;\n```\n",
     "To rename a column: ALTER TABLE products RENAME COLUMN product_no TO product_number;"),
    # the user's wish said again is no opening
    ("Appendix", "Redirect HTTP to HTTPS",
     "You want all HTTP requests to be redirected to HTTPS. Use a Redirect directive in the HTTP virtual host.",
     "Use a Redirect directive in the HTTP virtual host."),
    # a question the section asks before it answers is no answer (the Debian installation guide)
    ("Appendix", "Compiling a New Kernel",
     "Why would someone want to compile a new kernel? It is most probably not necessary. If you want to "
     "compile your own kernel nevertheless, use the deb-pkg target.",
     "It is most probably not necessary. If you want to compile your own kernel nevertheless, use the "
     "deb-pkg target."),
    # ... and so is an FAQ answer's scenario and the question it asks before answering (Borg's FAQ)
    ("FAQ", "Can I specify different prune policies for different directories?",
     "Say you want to prune /var/log faster than the rest of /. How do we implement that? The answer is "
     "to back up to different archive name patterns for the different parts of the tree.",
     "The answer is to back up to different archive name patterns for the different parts of the tree."),
])
def test_a_section_that_answers_opens_with_its_answer(unit_type, header, body, expected):
    answer, _ = asked_by_its_header(unit_type, header, body)
    assert answer == expected


def test_a_section_that_sets_the_scene_for_its_steps_leads_with_what_to_do_when_asked_how():
    """GIMP's "Crop an image" opens with why one crops; asked how, the answer leads with what to
    do. Asked why, or for a section whose opening says what to do, the opening stays."""
    crop = LogicUnit("Step", "", "Crop an image",
                     "There are many reasons to crop an image, for example to fit a frame. There are two ways to "
                     "start the crop tool.\n\n1. Click the crop button in the toolbox.\n2. Drag a rectangle over "
                     "the image.\n", [], unit_meta("gimp/crop.html", "Crop An Image"))
    for question, opening in [("How do I crop an image?", "Click the crop button in the toolbox"),
                              ("Why would I crop an image?", "There are many reasons to crop an image")]:
        answer, _, _ = compose([Hit(crop, 1.0, 1, "x")], Turn(question), cite=False)
        assert answer.startswith(opening), question
    # a header that asks the question is answered by its opening, as an FAQ entry's is (Perl's FAQs)
    answer, _ = asked_by_its_header(
        "Appendix", "How do I get MakeMaker and Module::Build to install to the same place?",
        "We highly recommend the install_base method, the simplest one.\n\n- Use INSTALL_BASE / --install_base.\n"
        "- Use PREFIX / --prefix.\n")
    assert answer.startswith("We highly recommend the install_base method")
    # ... even when it asks again before it answers
    answer, _ = asked_by_its_header("Appendix", "Why not just use another build tool?",
                                    "Why did MakeMaker reinvent the wheel? Because there was none.")
    assert answer == "Why did MakeMaker reinvent the wheel? Because there was none."


def test_the_lead_gives_the_commands_a_session_types_not_what_they_print():
    """"To enable a default firewall in Debian execute:" and a root session: the lead says the
    purpose with the commands, not the package manager's output (which kept it from leading)."""
    unit = step_unit("Firewall or Packet Filtering",
                     "A firewall is a filtering network gateway. To detect bad behavior, the monitor needs "
                     "rules: you can find such rules in the rules package.\n\nTo enable a default firewall "
                     "in Debian execute:\n\n```\n$ apt install -y nftables\nReading package lists... Done\n"
                     "$ systemctl enable nftables.service\nCreated symlink /etc/systemd/system/nftables.service.\n```\n",
                     "handbook/firewall.html", "Firewall")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I set up a firewall?"), cite=False)
    assert answer.startswith("To enable a default firewall in Debian execute: apt install -y nftables; "
                             "systemctl enable nftables.service.")


def test_a_long_step_leads_with_the_words_that_introduce_its_code():
    """libvirt's virtiofs page: a step that holds a file's XML and the notes on it leads the
    answer with what it does, not with the whole file."""
    xml = " ".join(f"<e{i} a='{i}'/>" for i in range(30))
    procedure = Procedure("", "Sharing a host directory with a guest", [
        f"Add the following domain XML elements to share the host directory /path with the guest: {xml} "
        "Don't forget the memoryBacking elements. They are needed by the virtiofsd daemon.",
        "Boot the guest and mount the filesystem: mount -t virtiofs mount_tag /mnt"],
        unit_meta("kbase/virtiofs.html", "Sharing files with Virtiofs"))
    answer, steps, _ = compose([Hit(procedure, 1.0, 1, "x")], Turn("How do I share a host directory with a guest?"),
                               cite=False)
    assert answer.startswith("Add the following domain XML elements to share the host directory /path with the "
                             "guest, then follow the steps below.")
    assert xml in steps[0]  # the step itself is whole


def test_an_faq_answer_that_opens_with_yes_alone_says_why_from_the_next_paragraph():
    answer, _ = asked_by_its_header(
        "FAQ", "Does the tool work on Windows?",
        "Yes!\n\nEvery change must pass the test suite on Windows. Report a failure as a bug.")
    assert answer == "Yes! Every change must pass the test suite on Windows."


def test_the_faq_entry_that_asks_the_question_ranks_above_a_step_that_shares_its_words():
    """The Cargo book's case: "Can libraries use * as a version for their dependencies?" was
    answered from a section on dependency requirements that the search ranked first."""
    entry = LogicUnit("FAQ", "", "Can libraries use a wildcard as a version for their dependencies?",
                      "No. The registry rejects packages with wildcard dependency requirements.",
                      [], unit_meta("book/faq.html", "FAQ"))
    requirements = LogicUnit("Step", "", "Version requirements of libraries for their dependencies",
                             "1. Use a caret requirement, not a wildcard, for the version of a library's "
                             "dependencies.\n2. Pin a version only in the application.\n"
                             "3. Let libraries share dependencies and their versions.",
                             [], unit_meta("book/resolver.html", "Dependency resolution"))
    hits = [Hit(requirements, 3.0, 1, "x"), Hit(entry, 2.0, 2, "x")]
    answer, steps, _ = compose(hits, Turn("Can libraries use a wildcard as a version for their dependencies?"),
                               cite=False)
    assert answer == "No. The registry rejects packages with wildcard dependency requirements."
    assert steps == []


def test_a_step_section_whose_header_is_the_question_answers_with_its_opening_or_its_steps():
    question = "How do I get both builders to install to the same place?"
    answer, steps = asked_by_its_header(
        "Step", question, "Both builders can install to the same place in two ways. We recommend the base folder."
        "\n\n1. Give the base folder to both.\n2. Or give the prefix to both.")
    assert answer == "Both builders can install to the same place in two ways. We recommend the base folder."
    assert steps == ["Give the base folder to both.", "Or give the prefix to both."]
    answer, _ = asked_by_its_header("Step", question, "1. Give the base folder to both.\n2. Run both installers.")
    assert answer == "Give the base folder to both, then follow the steps below."
    # pip's "Uninstall a package": a shell session alone; its command answers, not what it prints
    answer, steps = asked_by_its_header("Step", "Uninstall a package", "```pip-cli\n$ pip uninstall sampleproject\n"
                                        "Uninstalling sampleproject:\n   [...]\nProceed (Y/n)? y\n```")
    assert answer == "Run pip uninstall sampleproject." and steps == ["Run pip uninstall sampleproject"]


def test_a_question_of_one_term_is_answered_by_the_section_that_asks_it():
    what = LogicUnit("FAQ", "", "1.1. What is sed?",
                     "Sed is a stream editor. It edits its input as it reads it, without a window.",
                     [], unit_meta("sed/faq.txt", "sed FAQ"))
    other = LogicUnit("Step", "", "Running sed scripts on MS-DOS",
                      "1. Quote the sed script with double quotes.\n2. Run sed with the script file.",
                      [], unit_meta("sed/faq.txt", "sed FAQ", 1))
    answer, _, _ = compose([Hit(other, 2.0, 1, "x"), Hit(what, 1.0, 2, "x")], Turn("What is sed?"), cite=False)
    assert answer == "Sed is a stream editor. It edits its input as it reads it, without a window."


def test_a_section_that_says_what_to_do_in_prose_answers_whatever_its_type():
    """A documentation section with no list and a heading that names no task ("Pre & Post
    Scripts") is typed Appendix, yet its prose says what to do ("To create ..., simply create
    ..."): it is not taken for a statement of the problem, and its instruction leads."""
    scripts = LogicUnit(
        "Appendix", "", "Pre & Post Scripts (Scripts)",
        'To create "pre" or "post" scripts for any script of the `package.json`, simply create another '
        'script with a matching name and add "pre" or "post" to the beginning of it.\n\n'
        "```json\n{\"scripts\": {\"precompress\": \"tar -t\", \"compress\": \"tar -c\"}}\n```\n\n"
        "In this example `npm run compress` would run these scripts as described.",
        [], unit_meta("scripts.md", "Scripts"))
    run = LogicUnit(
        "Step", "", "Description (npm-run)",
        "The shell your script runs within depends on the platform. If you want your script to behave "
        "differently in each subdirectory, you can use the INIT_CWD environment variable. Scripts run "
        "from the root of the package folder.",
        [], unit_meta("npm-run.md", "npm-run"))
    answer, steps, details = compose([Hit(scripts, 1.0, 1, "x"), Hit(run, 0.9, 2, "x")],
                                     Turn("How do I run a script automatically before another script?"),
                                     cite=False)
    assert answer.startswith('To create "pre" or "post" scripts for any script of the package.json, simply create')
    assert steps[0].startswith('To create "pre" or "post" scripts')
    assert details["used_units"][0] == scripts.id


def test_a_lead_from_a_step_ends_without_the_steps_own_punctuation():
    migrate = Procedure("", "Migrate to a new edition (Editions)",
                        ["Run cargo fix --edition;", "Set the edition field in Cargo.toml;", "Build again."],
                        unit_meta("editions.md", "Editions"))
    answer, _, _ = compose([Hit(migrate, 1.0, 1, "x")], Turn("How do I migrate to the new edition?"), cite=False)
    assert answer == "Set the edition field in Cargo.toml."
    fix = Procedure("", "Fix the code (Editions)", ["migrate the crate with cargo fix (details);",
                                                    "review what it changed."],
                    unit_meta("editions.md", "Editions"))
    answer, _, _ = compose([Hit(fix, 1.0, 1, "x")], Turn("How do I fix the code for the edition?"), cite=False)
    assert answer == "Migrate the crate with cargo fix (details), then follow the steps below."


def test_the_why_of_the_plain_answer_is_not_its_lead_again():
    """Rust by Example: the one sentence that says what to do also says why ("you must call"),
    and led the answer twice."""
    wait = LogicUnit("Step", "", "Wait (Rust by Example)",
                     "If you'd like to wait for a process::Child to finish, you must call Child::wait, which "
                     "will return a process::ExitStatus.\n\n```\n$ rustc wait.rs && ./wait\n```\n",
                     [], unit_meta("rbe/wait.md", "Wait"))
    answer, _, _ = compose([Hit(wait, 1.0, 1, "x")], Turn("How do I wait for a child process?"), cite=False)
    assert answer == ("If you'd like to wait for a process::Child to finish, you must call Child::wait, which "
                      "will return a process::ExitStatus, then follow the steps below.")


def test_the_site_name_that_every_title_carries_does_not_count_as_the_pages_subject():
    """"How do I install clippy?": every title ends in the site's name, so what the question
    names of the installation page's title is its subject, and of the page on building from
    source only the site's name."""
    basics = step_unit("Install from source", "1. Build the binaries with `cargo dev setup toolchain`.\n"
                       "2. Install the toolchain with `rustup toolchain link clippy`.",
                       "clippy/basics.html", "Basics - Clippy Documentation")
    installation = step_unit("Install", "1. Install the component with `rustup component add clippy`.",
                             "clippy/installation.html", "Installation - Clippy Documentation")
    others = [step_unit("Run", f"1. Run `cargo clippy` with the {name} options.", f"clippy/{name}.html",
                        f"{name.title()} - Clippy Documentation")
              for name in ("usage", "configuration", "lints", "travis", "gitlab", "lint configuration")]
    hits = [Hit(unit, 1.0 - rank / 10, rank, "x") for rank, unit in enumerate([basics, installation, *others], 1)]
    _, steps, details = compose(hits, Turn("How do I install clippy?"), cite=False)
    assert "Install the component with rustup component add clippy." in steps
    title = {s["unit_id"]: s["title"] for s in details["scores"]}
    assert title[installation.id] > 0.75 and title[basics.id] < 0.25  # 2/3 and 1/3 when every word counts


def test_a_first_step_that_says_nothing_to_do_is_no_lead_to_the_steps():
    unit = step_unit("Install", "If you’re using `rustup` to install and manage your Rust toolchains, Clippy is usually "
                     "**already installed**.\n\nWhere it was not installed for a toolchain, it can be installed "
                     "with:\n\n```\nrustup component add clippy\n```\n", "clippy/installation.html", "Installation")
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I install clippy?"), cite=False)
    # how things are once a condition holds ("..., Clippy is usually already installed") is no
    # step, and does not lead: the step that says what to do does
    assert steps == ["Where it was not installed for a toolchain, it can be installed with: rustup component add clippy"]
    assert not answer.startswith("If you’re using rustup")
    assert answer.startswith("Where it was not installed for a toolchain, it can be installed with")


def test_a_unit_that_names_nothing_the_question_asks_is_not_chosen_for_its_rank_alone():
    """A memory with few procedures returns the same ones for every question: ranked first by a
    search that found nothing better, such a unit names none of the question's words."""
    threads = step_unit("Threads", "1. Call `thread::spawn` with a closure for each thread.\n"
                        "2. Call `join()` on each handle to wait for the threads.", "std/threads.html", "Concurrency")
    bounds = Procedure("", "Bounds", ["Add the lifetime bound `T: 'a` to the generic type",
                                      "Check that every reference in `T` outlives `'a`"],
                       unit_meta("scope/bounds.html", "Bounds"))
    _, steps, details = compose([Hit(bounds, 1.0, 1, "x"), Hit(threads, 0.9, 2, "x")],
                                Turn("How do I spawn threads and wait for them to finish?"), cite=False)
    assert steps == ["Call thread::spawn with a closure for each thread.", "Call join() on each handle to wait for the threads."]
    assert [s["chosen"] for s in details["scores"] if s["unit_id"] == bounds.id] == [False]


def test_three_documents_give_up_to_twelve_steps():
    """Each document's part of the answer: the best unit's steps, then up to 4 of each other
    unit's, 12 in all (at 10, the third document's part was cut to half)."""
    stock = Procedure("", "make the stock", [f"Stock step {i}: simmer the bones {i}" for i in range(1, 9)],
                      unit_meta("cook/stock.md", "Stock"))
    soup = Procedure("", "make the soup with the stock", [f"Soup step {i}: add the stock {i}" for i in range(1, 5)],
                     unit_meta("cook/soup.md", "Soup"))
    serve = Procedure("", "serve the soup with the stock", [f"Serving step {i}: pour the stock {i}" for i in range(1, 5)],
                      unit_meta("cook/serve.md", "Serve"))
    _, steps, _ = compose([Hit(stock, 1.0, 1, "x"), Hit(soup, 0.9, 2, "x"), Hit(serve, 0.8, 3, "x")],
                          Turn("How do I make the soup with the stock?"), cite=False)
    assert len(steps) == 12 and sum(step.startswith("Serving step") for step in steps) == 4


def test_what_a_clause_of_result_lets_the_user_do_does_not_lead_the_answer():
    """Claws Mail's manual: "This way, you can search in your whole mailbox at once." says what
    the step before it gives; the lead is what to do."""
    unit = step_unit("Searching (Manual)", "To search a folder, choose Edit/Search folder and enter the words. "
                     "Set the search to be recursive. This way, you can search in your whole mailbox at once.",
                     "manual.html", "Manual")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I search my whole mailbox at once?"), cite=False)
    assert answer.startswith("To search a folder, choose Edit/Search folder and enter the words.")


def test_a_note_leads_no_answer():
    """rsyslog's Docker page: a warning says what to do when copying the binary out; the answer
    leads with how to run the container."""
    body = ("The project provides a ready-to-run syslog appliance. To run it, simply do\n\n```\n"
            "docker run -ti rsyslog/syslog_appliance_alpine\n```\n\n> **Warning:** If you plan to copy the binary "
            "for use outside of the container you need to make sure to use an image of the same distro.\n")
    unit = LogicUnit("Step", "", "Using rsyslog Docker containers", body, [],
                     unit_meta("rsyslog/docker.html", "Docker", 0))
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I run rsyslog in a Docker container?"), cite=False)
    assert answer.startswith("To run it, simply do: docker run -ti rsyslog/syslog_appliance_alpine")


def test_a_page_whose_whole_title_the_question_says_counts_as_one_of_the_first_documents():
    """GnuCash's "How do I buy shares?": "Selling Shares" names the shares it buys more often, and
    the document ranking put it first; "Buying Shares" is the page the question names."""
    def candidate(title: str) -> Candidate:
        unit = LogicUnit("Step", "", title, "Enter the shares.", [], unit_meta(f"gnc/{title}.html", title, 0))
        return Candidate(Hit(unit, 1.0, 1, "x"))

    turn = Turn("How do I buy shares?")
    assert names_page(candidate("9.5. Buying Shares"), turn)
    assert not names_page(candidate("9.7. Selling Shares"), turn)
    assert not names_page(candidate("Shares"), turn)  # a one-word title says too little
    # the verb of a longer title may be the question's in other words
    port = Turn("How do I make Varnish listen on port 80?")
    assert names_page(candidate("Put Varnish on port 80"), port)
    assert not names_page(candidate("Put Varnish on port 8080"), port)
    assert not names_page(candidate("Put Varnish"), port)


def test_a_sentence_of_another_section_that_names_nothing_asked_does_not_lead():
    """The Developer's Reference, "How do I retire as a developer?": "Retiring" gives its steps
    in a list and says nothing to do in prose; a sentence about booking a holiday from another
    section of the page does not lead, the first step does."""
    retiring = step_unit("Retiring", "If you choose to leave the project, you should do the following steps:\n\n"
                         "- Remove yourself from uploaders for team-maintained packages.\n"
                         "- Request emeritus status on the members' site.\n", "devref/duties.html", "Duties")
    holiday = step_unit("Going on vacation", "Ideally, you should sign up at the key-signing pages when booking "
                        "a holiday.", "devref/duties.html", "Duties", order=1)
    turn = Turn("How do I retire from the project?")
    answer, _, _ = compose([Hit(retiring, 1.0, 1, "x")], turn, cite=False, extra=[holiday])
    assert answer.startswith("Remove yourself from uploaders for team-maintained packages, then follow the steps")
    asked = Turn("How do I book a holiday?")
    answer, _, _ = compose([Hit(retiring, 1.0, 1, "x")], asked, cite=False, extra=[holiday])
    assert answer.startswith("Ideally, you should sign up at the key-signing pages")  # it names the holiday asked about


def test_a_sentence_that_fills_in_an_examples_placeholder_does_not_lead():
    """"Replace package with the name of a source or a binary package." explains the address
    shown before it; alone as the lead it says nothing."""
    unit = step_unit("Contacting maintainers", "You can reach a package's maintainers at package@packages.example.org. "
                     "Replace package with the name of a source or a binary package. To subscribe to a package's "
                     "news, log in to the tracker and click Subscribe.", "devref/resources.html", "Resources")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I subscribe to a package's news?"), cite=False)
    assert answer.startswith("To subscribe to a package's news, log in to the tracker and click Subscribe.")


def test_a_lead_that_states_how_things_are_does_not_send_the_user_to_the_steps():
    """libvirt's SEV page: its first step says how things are ("libvirt does support SEV, but
    either QEMU or the host does not"), which led "…, then follow the steps below" as if it said
    what to do; a step in lower case with a verb the answerer does not know still does."""
    sev = Procedure("", "Checking SEV support (Launch security)",
                    ["libvirt does support SEV, but either QEMU or the host does not.",
                     "The host may lack the firmware that SEV needs."],
                    unit_meta("sev.html", "Launch security"))
    answer, _, _ = compose([Hit(sev, 1.0, 1, "x")], Turn("How do I check SEV support for a guest?"), cite=False)
    assert answer.startswith("Libvirt does support SEV, but either QEMU or the host does not.")
    assert "follow the steps below" not in answer



def test_a_lead_that_says_nothing_to_do_does_not_send_the_user_to_the_steps():
    """Varnish's purging section opens with a remark on a name and Kerberos's propagation with
    a thing to weigh: each led "…, then follow the steps below" as if it were the first thing to
    do; an order with a verb the answerer does not know still sends the user on."""
    for first, question in [
            ("Actually you can call the method whatever you like, but most people refer to this as purging.",
             "How do I purge a page from the cache?"),
            ("In deciding how frequently the propagation should happen, you will need to balance the time it "
             "takes against how long a user waits for a password change.", "How do I propagate the database?"),
            ("0 Success", "How do I fix clock skew?"),
            ("Now, you can filter quite a bit with varnishlog.", "How do I filter the log?"),
            # a file's name, then what it does: Varnish's "Why is my hit rate so low?"
            ("builtin.vcl sets beresp.uncacheable to true when the response cannot be cached.",
             "Why is my hit rate so low?")]:
        unit = Procedure("", "Purging and propagating (Admin)", [first, "Run the command below."],
                         unit_meta("admin.html", "Admin"))
        answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn(question), cite=False)
        assert len(steps) == 2 and "follow the steps below" not in answer, answer
    ban = Procedure("", "Banning (Admin)", ["Now ban the objects from the shell.", "Run the command below."],
                    unit_meta("admin.html", "Admin"))
    answer, _, _ = compose([Hit(ban, 1.0, 1, "x")], Turn("How do I get objects out of the cache?"), cite=False)
    assert answer == "Ban the objects from the shell, then follow the steps below."
    # (asked in its verb, the order leads as the sentence that does what is asked: :func:`does_asked`)
    answer, _, _ = compose([Hit(ban, 1.0, 1, "x")], Turn("How do I ban objects?"), cite=False)
    assert answer == "Ban the objects from the shell."

def test_a_lead_that_cautions_or_says_what_an_entry_does_does_not_send_the_user_to_the_steps():
    """Exim's plaintext authenticator opens with a caution ("If you do use unencrypted plain
    text, you should not use the same passwords …") and aptitude's search term with what it does
    after its name: no step to do first, and "…, then follow the steps below" made each read as
    one."""
    caution = Procedure("", "Using plaintext in a server (The plaintext authenticator)", [
        "If you do use unencrypted plain text, you should not use the same passwords for SMTP connections as "
        "you do for login accounts.",
        "The server_condition option must be set."], unit_meta("exim/plaintext.html", "Exim"))
    answer, steps, _ = compose([Hit(caution, 1.0, 1, "x")], Turn("How do I set up SMTP authentication with a password?"),
                               cite=False)
    assert len(steps) == 2 and answer.startswith("If you do use unencrypted plain text, you should not use")
    assert "follow the steps below" not in answer
    entry = Procedure("", "Search term reference (aptitude)", [
        "?narrow(filter, pattern), ~S filter pattern: This term “narrows” the search to package versions "
        "matching filter.", "In particular, it matches any package version which matches both filter and pattern."],
        unit_meta("aptitude/ch02s04s05.html", "aptitude"))
    answer, _, _ = compose([Hit(entry, 1.0, 1, "x")], Turn("How do I find packages no longer in any archive?"),
                           cite=False)
    assert answer.startswith("?narrow(filter, pattern), ~S filter pattern: This term “narrows” the search")
    assert "follow the steps below" not in answer  # what the entry does, after its name


def test_a_lead_that_states_how_things_are_after_a_clause_does_not_send_the_user_to_the_steps():
    """SQLite's foreign key page: "To avoid breaking those legacy databases, foreign key
    constraint enforcement is turned off by default" says how things are, after the clause it
    opens with; as a lead it sends no one to the steps."""
    keys = Procedure("", "Enabling Foreign Key Support (SQLite Foreign Key Support)", [
        "To avoid breaking those legacy databases, foreign key constraint enforcement is turned off by default.",
        "If the name of the table is unique, then the schema-name prefix is not required."],
        unit_meta("sqlite/foreignkeys.html", "SQLite Foreign Key Support"))
    answer, steps, _ = compose([Hit(keys, 1.0, 1, "x")], Turn("How do I make SQLite enforce foreign keys?"),
                               cite=False)
    assert len(steps) == 2
    assert answer.startswith("To avoid breaking those legacy databases, foreign key constraint enforcement is "
                             "turned off by default.")
    assert "follow the steps below" not in answer


def test_a_lead_that_states_how_things_are_on_a_platform_does_not_send_the_user_to_the_steps():
    """NUT's FAQ on USB permissions: "On Linux, udev rules are provided to set the correct
    permissions on device file" says how things are where the user is; the steps follow it alone."""
    udev = Procedure("", "Permissions of the USB device (FAQ)", [
        "On Linux, udev rules are provided to set the correct permissions on device file.",
        "In this case, just unplug and plug back the USB cord, then restart NUT."],
        unit_meta("nut/faq-usb.html", "FAQ"))
    answer, steps, _ = compose([Hit(udev, 1.0, 1, "x")], Turn("How do I fix the permissions of the USB device?"),
                               cite=False)
    assert len(steps) == 2
    assert answer.startswith("On Linux, udev rules are provided to set the correct permissions on device file.")
    assert "follow the steps below" not in answer


def test_a_sentence_whose_case_is_the_one_before_it_does_not_lead():
    """NUT's user manual: "If it complains about something, then check your configuration." says
    what to do about the command before it, "You can use it to …" with it, and "Next check that it
    also works …" after it (Dovecot's telnet test); the command leads."""
    unit = step_unit("Start upsmon", "Start the monitoring client.\n\n```\nupsmon\n```\n\n"
                     "If it complains about something, then check your configuration. You can use it to "
                     "check several systems or just one. Next check that it also works from another host: "
                     "`upsc ups@host`.", "nut/config.html", "Configuration notes")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I check my configuration?"), cite=False)
    assert answer.startswith("Start the monitoring client")


def test_what_a_program_can_do_to_have_it_says_what_to_do():
    """SQLite's quirks page: "Applications can activate foreign key enforcement at run-time using
    the PRAGMA foreign_keys statement." is how to have it, and leads before why it is off."""
    unit = step_unit("Foreign Key Enforcement Is Off By Default", "SQLite has parsed foreign key constraints for "
                     "time out of mind, but added the ability to actually enforce those constraints much later. "
                     "To avoid breaking those legacy databases, foreign key constraint enforcement is turned off "
                     "by default in SQLite.\n\nApplications can activate foreign key enforcement at run-time "
                     "using the PRAGMA foreign_keys statement.", "sqlite/quirks.html", "Quirks of SQLite")
    answer, _, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I make SQLite enforce foreign keys?"), cite=False)
    assert answer.startswith("Applications can activate foreign key enforcement at run-time using the PRAGMA "
                             "foreign_keys statement.")


def test_what_to_do_when_something_goes_wrong_or_a_caution_leads_only_when_asked():
    """Dovecot's vacation pages: "If you've problems getting the vacation reply, try deleting
    this file." answers a user whose replies do not come, not one who asks how to set them up;
    "Use this option with caution: …" warns, and leads neither."""
    usage = step_unit("Vacation auto-reply", "The list of autoreplied senders is stored in the "
                      "`.dovecot.lda-dupes` file in the user's home directory. If you've problems getting the "
                      "vacation reply, try deleting this file.", "dovecot/sieve-usage.txt", "Sieve Usage")
    option = step_unit("Configuration", "sieve_vacation_dont_check_recipient = no: Use this option with caution: "
                       "if you are using aliases, senders can get multiple vacation responses.\n\n"
                       "Add the vacation action to the user's script to send out-of-office replies.",
                       "dovecot/sieve-vacation.txt", "Vacation Extension")
    hits = [Hit(option, 1.0, 1, "x"), Hit(usage, 0.9, 2, "x")]
    answer, _, _ = compose(hits, Turn("How do I set up a vacation auto-reply?"), cite=False)
    assert answer.startswith("Add the vacation action to the user's script"), answer
    answer, _, _ = compose(hits, Turn("The vacation reply does not come. How do I fix it?"), cite=False)
    assert answer.startswith("If you've problems getting the vacation reply, try deleting this file."), answer


def test_the_only_step_leads_without_sending_the_user_to_the_steps():
    """CUPS's N-Up section has one step, the sentence that shows how with its examples: the lead
    is its opening, with no "then follow the steps below" to a list of that one step."""
    unit = step_unit("N-Up Printing", "N-Up printing places multiple document pages on a single printed page. "
                     "CUPS supports 1, 2, 4, 6, 9, and 16-Up formats; the default format is 1-Up:\n\n"
                     "```\nlp -o number-up=2 filename\n```\n", "options.html", "Command-Line Printing and Options")
    answer, steps, _ = compose([Hit(unit, 1.0, 1, "x")], Turn("How do I print multiple pages on one sheet?"),
                               cite=False)
    assert len(steps) == 1 and "lp -o number-up=2 filename" in steps[0]
    assert "follow the steps below" not in answer


def test_a_section_that_introduces_what_is_asked_gives_way_to_its_pages_steps():
    """libvirt's "Turning on debug logs" asks the question ("How do I turn on debug logs in
    libvirt?", the product being the page's subject) but only says why logs are wanted; the
    steps are in its page's later sections, which scored far below it, and the answer had
    none. They are the steps, one of them leads, and another page's steps stay out."""
    title = "libvirt: Debug Logs"
    intro = step_unit(f"Turning on debug logs ({title})", "If you report a bug against libvirt, you will be "
                      "asked to attach debug logs. These are text files that trace what the daemon did.",
                      "kbase/debuglogs.html", title, 0)
    persistent = step_unit(f"Persistent setting ({title})", "1. Open the daemon's config file in an editor.\n"
                           "2. Set the log filters and outputs.\n3. Restart the daemon.",
                           "kbase/debuglogs.html", title, 1)
    runtime = step_unit(f"Runtime setting ({title})", "To change the filters of a running daemon, run "
                        "`virt-admin daemon-log-filters \"1:*\"` as root.", "kbase/debuglogs.html", title, 2)
    other = step_unit("Logging daemon (libvirt: Daemons)", "1. Check the virtlogd service for the daemon.",
                      "daemons.html", "libvirt: Daemons", 0)
    hits = [Hit(intro, 0.3, 1, "x"), Hit(other, 1.0, 2, "x"), Hit(persistent, 0.25, 3, "x"), Hit(runtime, 0.2, 4, "x")]
    answer, steps, _ = compose(hits, Turn("How do I turn on debug logs in libvirt?"), cite=False)
    assert steps[:3] == ["Open the daemon's config file in an editor.", "Set the log filters and outputs.",
                         "Restart the daemon."]
    assert not any("virtlogd" in step for step in steps)
    assert not answer.startswith("If you report a bug")


def test_the_subsections_of_a_section_that_introduces_the_answer_are_candidates(embedder):
    """Over a memory: the subsection with the configuration shares few of the question's words
    and was no candidate; it is now looked for under the section that introduces it, and gives
    the steps."""
    from procmem.memory import build_memory

    pages = [Document("knot/configuration.html", "Configuration",
                      "# Configuration\n\n## Automatic DNSSEC signing\n\nKnot DNS supports automatic DNSSEC "
                      "signing of zones. The signing can operate in two modes:\n\n1. Automatic key management. In "
                      "this mode, the server maintains signing keys.\n2. Manual key management. In this mode, the "
                      "server maintains zone signatures only.\n\n> **Warning:** Make sure to set the KASP database "
                      "permissions correctly.\n\n### Automatic ZSK management\n\nFor automatic ZSK management a "
                      "policy has to be configured and assigned to the zone. A minimal zone configuration may look "
                      "as follows:\n\n```\nzone:\n  - domain: myzone.test\n    dnssec-signing: on\n```\n\n"
                      "## Zone templates\n\nA template is a shared set of zone options.\n"),
             Document("knot/reference.html", "Configuration Reference",
                      "# Configuration Reference\n\n## dnssec-signing\n\nIf enabled, automatic DNSSEC signing "
                      "for the zone is turned on.\n\n## storage\n\nA data directory for storing zone files.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory, k=2, within_top_documents=0).answer(  # among many units
        AnswerRequest("How do I enable automatic DNSSEC signing for a zone?"))
    assert any("dnssec-signing: on" in step for step in answer.procedures)


def test_a_manual_page_whose_command_does_what_is_asked_answers_with_its_description(embedder):
    """NTPsec's ntpwait: the page's line "ntpwait - wait until ntpd is in synchronized state"
    says what the question asks; its description, which says nothing to do, is the answer,
    named by the command ("ntpwait: The ntpwait program blocks …"), not ntpd's options."""
    from procmem.memory import build_memory

    pages = [Document("ntpwait.html", "ntpwait - wait until ntpd is in synchronized state",
                      "# ntpwait - wait until ntpd is in synchronized state\n\n## Description\n\nThe ntpwait "
                      "program blocks until ntpd is in synchronized state. This can be useful at boot time, to "
                      "delay the boot sequence until after the clock is set.\n"),
             Document("ntpd.html", "ntpd - Network Time Protocol (NTP) Daemon",
                      "# ntpd - Network Time Protocol (NTP) Daemon\n\n## Options\n\n- `-q`, `--quit`: Set the "
                      "time and quit. Use it in a boot script when the clock is far off.\n- `-w`, `--wait-sync`: "
                      "Wait until ntpd is synchronized before the script goes on.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I wait in a boot script until ntpd is synchronized?"))
    assert answer.procedures[0].startswith("ntpwait: The ntpwait program blocks until ntpd is in synchronized state.")
    # it answers the question, as a section whose header asks it does; another section of such a
    # page, or a command that does something else, does not
    from procmem.answerers.candidates import manual_share

    turn = Turn("How do I wait in a boot script until ntpd is synchronized?")
    description = next(u for u in memory.units("logic_unit") if u.meta["doc_id"] == "ntpwait.html")
    options = next(u for u in memory.units("logic_unit") if u.meta["doc_id"] == "ntpd.html")
    assert manual_share(description, turn) >= 0.6 and manual_share(options, turn) == 0.0
    assert manual_share(description, Turn("How do I restrict which hosts can query my server?")) < 0.6


def test_a_command_pages_usage_or_description_answers_when_the_command_does_the_asked_action():
    """A command's page titled with the command alone: the line under its usage (wrapped as
    its help prints it) and its description's first sentence say what it does. They answer a
    question whose action they name, or, for "see", any way of showing (fetch, list); a page
    that does something else to the same things does not ("Load an image from a tar archive"
    for "How do I save an image to a tar archive?"). The usage is a step, named by its command."""
    from procmem.answerers.candidates import manual_share
    from procmem.answerers.steps import command_summary

    usage = LogicUnit("Appendix", "", "load", "```\nUsage:  tool load [OPTIONS]\n\nLoad an image from a tar archive "
                      "or\nSTDIN\n\nOptions:\n  -i, --input string   Read from a file\n```", meta=unit_meta("cli/load.md", "load"))
    assert command_summary(usage) == "Load an image from a tar archive or STDIN"
    assert unit_steps(usage) == ["tool load: Load an image from a tar archive or STDIN"]
    assert manual_share(usage, Turn("How do I load an image from a tar archive?")) >= 0.6
    assert manual_share(usage, Turn("How do I save an image to a tar archive?")) == 0.0
    description = LogicUnit("Appendix", "", "Description", "The `tool logs` command fetches the logs of a "
                            "container. It shows what was written so far.", meta=unit_meta("cli/logs.md", "logs"))
    assert command_summary(description) == "The `tool logs` command fetches the logs of a container"
    assert manual_share(description, Turn("How do I see the logs of a container?")) >= 0.6
    # a page titled as prose is no command's page, and another section of a command's page says no summary
    prose = LogicUnit("Appendix", "", "Description", description.body, meta=unit_meta("guide.md", "Reading logs"))
    examples = LogicUnit("Appendix", "", "Examples", "Run `tool logs my_box`.", meta=unit_meta("cli/logs.md", "logs"))
    assert command_summary(prose) == command_summary(examples) == ""


def test_a_list_that_gives_no_steps_answers_by_its_one_item_that_says_what_is_asked(embedder):
    """The Handbook's syslog chapter lists the actions a rule may name, each with an example; the
    list gives no steps, but its one item that says every word of the question answers it, and
    leads as a sentence."""
    from procmem.memory import build_memory

    pages = [Document("syslog.html", "syslog System Events",
                      "# syslog System Events\n\n## Syntax of Actions\n\nThe various possible actions are:\n\n"
                      "- add the message to a file (example: `/var/log/messages`);\n"
                      "- send the message to a remote `syslog` server (example: `@log.example.com`);\n"
                      "- send the message to an existing named pipe (example: `|/dev/xconsole`);\n"
                      "- write the message in a text console (example: `/dev/tty8`).\n"),
             Document("ssh.html", "Remote Login",
                      "# Remote Login\n\n## Using Remote X11 Applications\n\nSince this feature allows remote "
                      "applications to interfere with the local system, it is disabled by default. You can enable "
                      "it by specifying `X11Forwarding yes` in the server configuration file.\n"),
             Document("logrotate.html", "Rotating Log Files",
                      "# Rotating Log Files\n\nLog files can grow, fast, and it is necessary to archive them. "
                      "The most common scheme is a rotating archive managed by `logrotate`.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I send logs to a remote server?"))
    assert answer.procedures[0].startswith("send the message to a remote syslog server (example: @log.example.com)"), \
        answer.procedures
    assert answer.answer.startswith("Send the message to a remote syslog server"), answer.answer


def _undo_pages() -> list[Document]:
    return [
        Document("git/gitfaq.md", "gitfaq",
                 "# gitfaq\n\n## Common issues\n\n### I've made a change with a bug and it's been included in the "
                 "main branch. How should I undo it?\n\nThe usual way to deal with this is to use `git revert`. "
                 "This preserves the history that the original change was made, and adds a commit that undoes "
                 "it.\n\n### What should I put in user.name?\n\nYou should put your personal name there.\n"),
        Document("git/git-reset.md", "git-reset",
                 "# git-reset\n\n## Examples\n\n### Undo commits permanently\n\n1. Run `git reset --hard HEAD~3` "
                 "to throw away the last three commits on the branch.\n2. Do not do this if you have already "
                 "given these commits to somebody else.\n\n### Undo a commit and redo\n\n1. Run "
                 "`git reset --soft HEAD^` to undo the commit.\n2. Make corrections to the files.\n"),
    ]


def test_a_section_whose_header_asks_the_question_in_other_words_is_the_answer(embedder):
    """git's FAQ asks "I've made a change with a bug and it's been included in the main branch.
    How should I undo it?", which the user asks in other words: its embedding is close to the
    question's, so it answers ("use git revert"), not the reset page whose header shares "undo"
    and "commit" ("throw away the last three commits")."""
    from procmem.memory import build_memory

    memory = build_memory(_undo_pages(), embedder=embedder, progress=False)
    request = AnswerRequest("I committed a bug that is already on the main branch. How do I undo it?")
    answer = make_answerer("extractive", memory=memory).answer(request)
    faq = next(u for u in memory.units("logic_unit") if "How should I undo it?" in u.header)
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert retrieve.details["restating"] == [faq.id]
    assert answer.procedures == ["The usual way to deal with this is to use git revert. [1]"]
    assert "git revert" in answer.answer
    off = make_answerer("extractive", memory=memory, restates=0).answer(request)

    def faq_factor(answer) -> float:
        scores = next(s for s in answer.trace.stages if s.name == "compose").details["scores"]
        return next(s["factor"] for s in scores if s["unit_id"] == faq.id)
    assert faq_factor(off) < faq_factor(answer)  # it no longer counts as asking the question


def test_a_unit_that_shares_the_questions_words_but_not_its_meaning_does_not_join(embedder):
    """"How do I check how much disk space is used?": the page on debug symbols says "check",
    "much", "disk space" and "use" too, but it is about a backtrace; far from the question in
    meaning next to the best unit, its steps stay out. The quota page joins."""
    from procmem.memory import build_memory

    memory = build_memory([
        Document("ref/disk.md", "System tips", "# System tips\n\n## Disk space usage\n\nCheck how much disk "
                 "space is used with `df -h` for each filesystem, then run `du -sh ~/*` to see which folders "
                 "use the most.\n"),
        Document("ref/debug.md", "Programming", "# Programming\n\n## Obtaining a backtrace\n\nCheck that the "
                 "program is built with debug symbols: they use much disk space, so install them only while a "
                 "backtrace is needed. Run the program under `gdb` and type `bt` when it crashes.\n"),
        Document("ref/quota.md", "Storage", "# Storage\n\n## Disk quotas\n\nCheck how much disk space each user "
                 "has used with `repquota -a`, and set a limit with `edquota`.\n"),
    ], embedder=embedder, progress=False)
    request = AnswerRequest("How do I check how much disk space is used?")
    answer = make_answerer("extractive", memory=memory).answer(request)
    assert [s.rsplit(" [", 1)[0].split(" with ")[0] for s in answer.procedures] == [
        "Check how much disk space is used", "Check how much disk space each user has used"]
    scores = next(s for s in answer.trace.stages if s.name == "compose").details["scores"]
    backtrace = next(s for s in scores if memory.get(s["unit_id"]).meta["doc_id"] == "ref/debug.md")
    assert not backtrace["chosen"] and backtrace["closeness"] < 0.5 * scores[0]["closeness"]
    unfiltered = make_answerer("extractive", memory=memory, join_closeness=0).answer(request)
    assert any("gdb" in step for step in unfiltered.procedures)


def test_a_step_repeated_with_a_colon_after_its_command_is_a_duplicate():
    """libvirt's page on disk image chains gives the same step in a procedure and a section, once
    with a colon after the command: the "And" that opens the next sentence names nothing."""
    kept = ["Enumerate the backing file chain: qemu-img info --backing-chain /var/lib/libvirt/images/base.raw "
            "And the final resulting disk image will be a single, consolidated disk image: [base] (live QEMU)"]
    again = ("Enumerate the backing file chain: qemu-img info --backing-chain /var/lib/libvirt/images/base.raw: "
             "And the final resulting disk image will be a single, consolidated disk image: [base] (live QEMU)")
    assert is_duplicate(again, kept)


def test_a_step_whose_command_ran_into_the_next_sentence_is_a_duplicate():
    """Knot DNS's offline-KSK steps, once from the section's procedure (the command's block runs
    into the sentence after it: "… file Save the output") and once from its logic unit ("…
    file: Save the output"): "Save" names nothing, as the other copy says it too. Two steps that
    name other things stay two."""
    step = ("Use the keymgr generate-ksr command on the ZSK side to export the public parts of the future "
            "ZSKs: keymgr -c /path/to/ZSK/side.conf example.com. generate-ksr +0 +6mo > /path/to/ksr/file{} "
            "Save the output of the command (called the Key Signing Request or KSR) to a file.")
    assert is_duplicate(step.format(""), [step.format(":")])
    assert is_duplicate(step.format(":"), [step.format("")])
    assert not is_duplicate("Open the Activities overview and start typing Power.",
                            ["Open the Activities overview and start typing Files."])


def test_an_faq_entry_that_asks_what_to_do_is_no_problem_statement():
    """git's FAQ: "I've made a mistake in the last commit. How do I change it?" answers with what
    to do (`git commit --amend`): not a unit that states a problem, which a how-to question ranks
    low. A symptom, a question of cause and a question with no step under it still are."""
    from procmem.answerers.candidates import is_problem

    amend = step_unit("I've made a mistake in the last commit. How do I change it?", "You can make the change, "
                      "stage it with `git add`, and then run `git commit --amend`.", "git/gitfaq.md", "gitfaq",
                      unit_type="FAQ")
    why = step_unit("Why is my file always modified?", "You can run `git add --renormalize .` when the line "
                    "endings changed.", "git/gitfaq.md", "gitfaq", unit_type="FAQ")
    symptom = step_unit("Symptoms", "Outlook stops responding when you open the calendar.", "kb/outlook.md",
                        "Outlook", unit_type="FAQ")
    untracked = step_unit("Should I commit the lock file?", "It depends on your needs.", "cargo/faq.md", "FAQ",
                          unit_type="FAQ")
    assert not is_problem(amend)
    assert is_problem(why) and is_problem(symptom) and is_problem(untracked)


def test_a_sentence_that_offers_another_way_does_not_lead():
    """git's howto on serving over HTTP: "Another option is to generate an empty bare repository
    at the client …" names more of the question's words than the first step, but it offers
    another way than the page's first: it does not lead."""
    page = LogicUnit("Step", "", "Step 1: setup a bare Git repository",
                     "Create the directory under the document root of the web server.\n\nAnother option is to "
                     "generate an empty bare repository at the client and copy it to the server.",
                     [], unit_meta("howto/http.html", "How to setup Git server over http"))
    answer, _, _ = compose([Hit(page, 1.0, 1, "x")], Turn("How do I put a bare repository on the server?"), cite=False)
    assert answer.startswith("Create the directory under the document root")


def test_what_something_is_designed_for_is_no_reason_but_a_behaviour_by_design_is():
    """KDE's shortcuts page: "keyboards designed for Microsoft Windows" said why the user should
    open the shortcuts panel; "This behavior is by design" says why what to do is needed."""
    shortcuts = step_unit("Changing a Shortcut", "On keyboards designed for Microsoft Windows, this key is "
                          "called the Windows key.\n\n1. Go to Settings → Configure Shortcuts.\n2. Click the "
                          "name of the shortcut you want to change.\n", "fundamentals/config.docbook",
                          "Customizing KDE software")
    turn = Turn("How do I change the keyboard shortcuts of an application?")
    answer, _, _ = compose([Hit(shortcuts, 1.0, 1, "x")], turn, cite=False)
    assert "Windows" not in answer
    copies = step_unit("Sent items", "Messages sent from a shared mailbox are saved in the sender's Sent Items. "
                       "This behavior is by design.\n\n1. Run Set-Mailbox with MessageCopyForSentAsEnabled set to "
                       "True.\n", "sent-items.md", "Sent items")
    answer, _, _ = compose([Hit(copies, 1.0, 1, "x")], Turn("How do I keep copies of sent messages in the "
                                                               "shared mailbox?"), cite=False)
    assert answer.endswith("This behavior is by design.")


def test_a_later_part_of_a_section_split_for_size_brings_its_first_part_first():
    """KMail's account wizard, a section split in parts of a screen each: its third part ("A
    Setup complete screen will appear") ranked above its first, and the page's two units chosen
    left the first out; the answer started at the wizard's last screen. The first part joins,
    past the page's limit, and its steps come first."""
    meta = unit_meta("kmail2/getting-started.docbook", "Getting Started", 2)
    first = LogicUnit("Step", "", "Account Wizard (part 1 of 3)", "1. Type your full name, e-mail address and "
                      "password on the first screen of the wizard.\n", [], meta)
    third = LogicUnit("Step", "", "Account Wizard (part 3 of 3)", "1. Click Finish on the Setup complete screen "
                      "to set up the account.\n", [], meta)
    manual = step_unit("Setting up your Account", "1. Select Settings → Configure KMail and open Accounts.\n",
                       "kmail2/getting-started.docbook", "Getting Started", order=5)
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    candidates = [Candidate(Hit(manual, 1.0, 1, "x"), retrieval=0.5, score=1.1, why=why),
                  Candidate(Hit(third, 0.9, 2, "x"), retrieval=0.33, score=0.8, why=why),
                  Candidate(Hit(first, 0.8, 3, "x"), retrieval=0.14, score=0.6, why=why)]
    picked = select(candidates, Turn("How do I set up my email account in KMail?"), ExtractiveParams())
    assert [c.unit.header for c in picked] == ["Setting up your Account", "Account Wizard (part 3 of 3)",
                                               "Account Wizard (part 1 of 3)"]
    steps, _ = compose_steps(picked, Turn("How do I set up my email account in KMail?"),
                             ExtractiveParams(cite=False), {c.unit.id: i for i, c in enumerate(picked, 1)})
    assert steps.index("Type your full name, e-mail address and password on the first screen of the wizard.") \
        < steps.index("Click Finish on the Setup complete screen to set up the account.")


def _options_answer(other_part: int) -> list[str]:
    """The steps answering "How can I find out why a package is installed?" from part 2 of a
    list of options in 32 parts and its part ``other_part``, on another option."""
    options = [LogicUnit("Step", "", f"Package options (part {n} of 32)", body, [], unit_meta("apt/conf.html", "conf", n))
               for n, body in [(2, "Set `Install::Why` to `true` to explain why a package is installed.\n"),
                               (other_part, "Set `Install::Auto` to `false` to keep packages.\n")]]
    return make_answerer("extractive", memory=MemoryDouble(options), k=1).answer(
        AnswerRequest("How can I find out why a package is installed?")).procedures


def test_a_later_part_found_first_brings_its_first_part_though_it_was_not_found():
    """aptitude's `why` command, its section split in three parts: the second ranked first for
    "How can I find out why a package is installed?" and the first, which says what the command
    does and how to run it, was no candidate. A section of a few parts is read from its start,
    whatever the first part's score; the 32 parts of a reference's list of options are not."""
    meta = unit_meta("aptitude/rn01re01.html", "aptitude", 4)
    later = LogicUnit("Step", "", "why: explain a package (aptitude) (part 2 of 3)", "If one or more patterns are present, why "
                      "starts from them: run `aptitude why ~i kdepim` to explain an installed package.\n", [], meta)
    first = LogicUnit("Step", "", "why: explain a package (aptitude) (part 1 of 3)", "Explains the reason that a particular "
                      "package should or cannot be installed on the system:\n\n```\n$ aptitude why kdepim\n```\n",
                      [], meta)
    memory = MemoryDouble([later, first])
    answer = make_answerer("extractive", memory=memory, k=1).answer(
        AnswerRequest("How can I find out why a package is installed?"))
    assert answer.procedures[0].startswith("Explains the reason that a particular package should or cannot "
                                           "be installed on the system: aptitude why kdepim")
    assert any("aptitude why ~i kdepim" in step for step in answer.procedures[1:])

    assert not [step for step in _options_answer(other_part=1) if "Install::Auto" in step]


def test_a_procedure_split_for_size_goes_on_into_its_next_part():
    """Apache's guide to password-protecting a directory, a section split in five parts: its
    first creates the password file, and its second, the directives that ask for the password (which share no word
    with the question), was no candidate; the answer stopped after the password file. The next
    part of the best unit's section joins, with the directives its sentence names; a list of 32
    parts of options does not go on into its next entry."""
    meta = unit_meta("en/howto/auth.html", "Authentication and Authorization", 3)
    first = LogicUnit("Step", "", "Password protecting a directory (part 1 of 5)", "Here's the basics of password protecting "
                      "a directory on your server. First, you need to create a password file. To create the "
                      "file, type:\n\n```\nhtpasswd -c /usr/local/apache/passwd/passwords rbowen\n```\n", [], meta)
    second = LogicUnit("Step", "", "Password protecting a directory (part 2 of 5)", "Next, you'll need to configure the server "
                       "to ask for it. You can use the following directives, either placed in the file "
                       "`.htaccess`, or placed in `apache2.conf` inside a section.\n\n```config\nAuthType Basic\n"
                       'AuthName "Restricted Files"\nAuthBasicProvider file\nAuthUserFile "/usr/local/apache/passwd/passwords"\nRequire user rbowen\n```\n', [], meta)
    other = step_unit("Examples", "1. Run `htpasswd -D passwords jane` to delete a user from the password file.\n",
                      "en/programs/htpasswd.html", "htpasswd", order=9)
    answer = make_answerer("extractive", memory=MemoryDouble([first, other, second]), k=1, cite=False).answer(
        AnswerRequest("How do I password-protect a directory on my Apache site?"))
    assert ("You can use the following directives, either placed in the file .htaccess, or placed in apache2.conf "
            'inside a section: AuthType Basic; AuthName "Restricted Files"; AuthBasicProvider file; AuthUserFile "/usr/local/apache/passwd/passwords"; Require user '
            "rbowen") in answer.procedures
    assert [s for s in answer.procedures if "htpasswd -c" in s] == [
        "To create the file, type: htpasswd -c /usr/local/apache/passwd/passwords rbowen"]
    # a first part with more steps than the answer shows goes on in its page's procedure, not here
    assert goes_on(second, first, shown=7) and not goes_on(second, first, shown=1)
    assert not goes_on(first, second, shown=7) and not goes_on(other, first, shown=7)
    # ... nor a list of entries into its next part's entries (apache2ctl's options: "start", then "startssl")
    options = [LogicUnit("Step", "", f"Options (part {n} of 2)", body, [], meta) for n, body in [
        (1, "- `start`: Start the Apache httpd daemon.\n- `stop`: Stop the Apache httpd daemon.\n"
            "- `graceful`: Gracefully restart the daemon.\n"),
        (2, "- `startssl`: Start httpd with SSL support.\n- `configtest`: Run a configuration file syntax test.\n")]]
    assert continues(options[1], options[0]) and not goes_on(options[1], options[0], shown=7)
    # ... nor when the section's procedure is a candidate: it holds the section's steps whole
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    ranked = [Candidate(Hit(first, 1.0, 1, "x"), retrieval=0.5, score=1.0, why=why),
              Candidate(Hit(other, 0.9, 2, "x"), retrieval=0.4, score=0.8, why=why),
              Candidate(Hit(second, 0.1, 3, "x"), retrieval=0.1, score=0.1, why=why)]
    turn = Turn("How do I password-protect a directory on my Apache site?")
    assert [c.unit for c in select(ranked, turn, ExtractiveParams())][:2] == [first, second]
    whole = Procedure("", "Password protecting a directory", ["Create a password file with htpasswd.",
                      "Add the AuthType, AuthUserFile and Require directives."], dict(first.meta))
    picked = select([*ranked, Candidate(Hit(whole, 0.8, 4, "x"), retrieval=0.3, score=0.7, why=why)], turn,
                    ExtractiveParams())
    assert second not in [c.unit for c in picked]

    assert not [step for step in _options_answer(other_part=3) if "Install::Auto" in step]


def test_the_next_part_of_a_section_is_looked_up_not_searched_for():
    """Postfix's "virtual MAILBOX example", a section split in five parts: its first says why
    virtual mailboxes need no system accounts, its second is the example's settings. The
    sections beside it share its header's words, and a search for the header within the page
    ranked the second part eleventh: it was no candidate, and the answer had no setting. The
    next part is the unit with the same header and the next number."""
    meta = unit_meta("html/VIRTUAL_README.html", "Postfix Virtual Domain Hosting Howto", 5)
    header = "Postfix virtual MAILBOX example: separate domains, non-UNIX accounts"
    beside = [LogicUnit("Step", "", f"{header}, and a non-Postfix mailbox store (part {n} of 4)",
                        "You can use the mailbox store of another program: separate domains, non-UNIX accounts, "
                        "a virtual MAILBOX example of its own. Use the example below for Postfix.\n", [], meta)
              for n in range(1, 5)]
    first = LogicUnit("Step", "", f"{header} (part 1 of 5)", "As a system hosts more domains and users, "
                      "give every recipient address its own virtual mailbox instead of a UNIX system account. "
                      "If you find multiple tables bothersome, migrate the information to an SQL database.\n", [], meta)
    second = LogicUnit("Step", "", f"{header} (part 2 of 5)", 'Here is an example of a virtual mailbox domain '
                       '"example.com":\n\n```\n/etc/postfix/main.cf:\n    virtual_mailbox_domains = example.com\n'
                       "    virtual_mailbox_maps = hash:/etc/postfix/vmailbox\n```\n", [], meta)
    memory = MemoryDouble([first, *beside, second])
    retriever = Retriever(memory)
    hits, _ = retriever.search(header, k=4, kind="logic_unit", within=["html/VIRTUAL_README.html"])
    assert second not in [hit.unit for hit in hits]  # what the search for its header finds
    assert retriever.part(first, 2) is second and retriever.part(second, 3) is None and retriever.part(second, 1) is first
    answer = make_answerer("extractive", memory=memory, k=1, cite=False).answer(
        AnswerRequest("How do I give every recipient address its own mailbox instead of a system account?"))
    assert any("virtual_mailbox_domains = example.com" in step for step in answer.procedures)


def test_a_numbered_listings_line_of_marks_is_no_step_of_its_own():
    """Postfix's backup MX example is a numbered listing whose last line, "19      . . .", stands
    for the lines it leaves out: read as a numbered item ("19." then ". ."), it made the
    section a numbered list of one step that was no step, and the sentence that introduces the
    listing was lost with the settings it holds."""
    meta = unit_meta("html/STANDARD_CONFIGURATION_README.html", "Postfix Standard Configuration Examples", 7)
    unit = LogicUnit("Step", "", "Configuring Postfix as primary or backup MX host for a remote site",
                     "When your system is SECONDARY MX host for a remote site this is all you need:\n\n```\n"
                     " 1 /etc/postfix/main.cf:\n 2     relay_domains = the.backed-up.domain.tld\n"
                     " 3     relay_recipient_maps = hash:/etc/postfix/relay_recipients\n 4\n"
                     " 5 /etc/postfix/relay_recipients:\n 6     user1@the.backed-up.domain.tld   x\n 7      . . .\n```\n",
                     [], meta)
    assert unit_steps(unit) == [
        "When your system is SECONDARY MX host for a remote site this is all you need: /etc/postfix/main.cf:; "
        "relay_domains = the.backed-up.domain.tld; relay_recipient_maps = hash:/etc/postfix/relay_recipients; "
        "/etc/postfix/relay_recipients:; user1@the.backed-up.domain.tld x; . . ."]


def test_a_files_lines_under_its_path_join_the_step_they_follow_and_execute_says_what_to_do():
    """Postfix's "What trouble to report to the postmaster": "… be sure to direct mail for the
    super-user to a human person too.", then "/etc/aliases:" with "postmaster: you" and "root:
    you" under it, then "Execute the command "newaliases" after changing the aliases file.".
    The file's lines read as labelled values, what a program prints, and joined nothing; and
    "Execute" was no verb that says what to do: the answer had neither the file nor the command."""
    meta = unit_meta("html/BASIC_CONFIGURATION_README.html", "Postfix Basic Configuration", 9)
    unit = LogicUnit("Step", "", "What trouble to report to the postmaster",
                     "While you're updating the aliases(5) table, be sure to direct mail for the super-user to a "
                     "human person too.\n\n```\n/etc/aliases:\n    postmaster: you\n    root: you\n```\n\n"
                     'Execute the command "newaliases" after changing the aliases file.\n', [], meta)
    assert unit_steps(unit) == [
        "While you're updating the aliases(5) table, be sure to direct mail for the super-user to a human person "
        "too: /etc/aliases:; postmaster: you; root: you",
        'Execute the command "newaliases" after changing the aliases file.']
    # what a program printed, under no file's name, stays apart
    printed = LogicUnit("Step", "", "Checking the queue", "List the queue with the mailq command.\n\n```\n"
                        "Queue: 3 messages\nDeferred: 2 messages\n```\n", [], meta)
    assert unit_steps(printed) == ["List the queue with the mailq command."]


def test_a_list_of_key_bindings_gives_the_one_that_says_what_is_asked():
    """Gwenview's key bindings, a bulleted list of "key: what it does": asked "And how do I
    rotate it to the left?", the answer was the list from its first item ("Alt+Up: Moves to the
    parent folder ..."); the item that says every word of the question (but the page title's) is
    the answer, alone. A
    question that more than three items say, or a list that is mostly not labelled, keeps its
    steps."""
    keys = step_unit("Key bindings", "- Alt+Up: Moves to the parent folder of the current folder.\n"
                     "- Ctrl+M: Show or hide the menubar.\n- Ctrl+R: Rotate the current image to the right.\n"
                     "- Ctrl+Shift+R: Rotate the current image to the left.\n- Shift+C: Crop the current image.\n"
                     "- Shift+R: Resize the current image.\n",
                     "gwenview/index.docbook", "Gwenview User Manual", order=12)
    turn = Turn("And how do I rotate it to the left?", history=[("How do I crop a photo in Gwenview?",
                                                                 "Edit → Crop: This operation lets you ...")])
    answer, steps, _ = compose([Hit(keys, 1.0, 1, "x")], turn, cite=False)
    assert steps == ["Ctrl+Shift+R: Rotate the current image to the left."]
    assert answer == "Ctrl+Shift+R: Rotate the current image to the left."
    _, steps, _ = compose([Hit(keys, 1.0, 1, "x")], Turn("How do I rotate the current image?"), cite=False)
    assert steps == ["Ctrl+R: Rotate the current image to the right.", "Ctrl+Shift+R: Rotate the current image to "
                     "the left."]
    _, steps, _ = compose([Hit(keys, 1.0, 1, "x")], Turn("And the current image?"), cite=False)
    assert len(steps) == 6  # four items say "current image": none is asked
    # a menu's commands: the label says the question's verb, the page's title its product
    menu = step_unit("Image Operations", "- Edit → Mirror: This operation will reflect the image along the "
                     "vertical axis.\n- Edit → Crop: This operation lets you discard parts of the image you don't "
                     "want.\n- Edit → Resize: This operation will allow you to shrink or expand the image.\n",
                     "gwenview/index.docbook", "Gwenview User Manual", order=6)
    answer, _, _ = compose([Hit(menu, 1.0, 1, "x")], Turn("How do I crop an image in Gwenview?"), cite=False)
    assert answer == "Edit → Crop: This operation lets you discard parts of the image you don't want."


def test_an_item_that_says_the_asked_action_in_a_clause_of_its_description_does_not_answer():
    """GIMP's JPEG options: "Use arithmetic coding: Arithmetic encoding is a form of entropy
    encoding … that, since GIMP-2.10 can be used in exporting as JPEG." says every word of "How do
    I export my image as a JPEG?" and led its answer, though it is no way to export. An item
    answers what is asked only when its name does the asked action, or what its text says first."""
    options = step_unit("Advanced Options", (
        "- Quality: The quality of the exported image, from 0 to 100.\n"
        "- Use arithmetic coding: Arithmetic encoding is a form of entropy encoding (a lossless data "
        "compression scheme) that, since GIMP-2.10 can be used in exporting as JPEG.\n"
        "- Optimize: If you enable this option, the optimization of entropy encoding parameters will be "
        "used.\n"), "gimp/file-jpeg.html", "JPEG", order=2)
    assert described_steps(options, Turn("How do I export my image as a JPEG?")) == []
    assert described_steps(options, Turn("What is the quality of the exported image?")) == [
        "Quality: The quality of the exported image, from 0 to 100."]  # no action asked
    assert described_steps(options, Turn("How do I use arithmetic coding?")) == [
        "Use arithmetic coding: Arithmetic encoding is a form of entropy encoding (a lossless data compression "
        "scheme) that, since GIMP-2.10 can be used in exporting as JPEG."]
    # a list of steps: the item whose name does the asked action ("Edit → Crop"), not the one that
    # says it in a clause
    menu = step_unit("Image Operations", "- Edit → Crop: This operation lets you discard parts of the image.\n"
                     "- Edit → Resize: Changes the size of the image, which you may crop afterwards.\n"
                     "- Edit → Mirror: Reflects the image along the vertical axis.\n",
                     "gwenview/index.docbook", "Gwenview User Manual", order=6)
    assert described_steps(menu, Turn("How do I crop the image?")) == [
        "Edit → Crop: This operation lets you discard parts of the image."]


def test_a_list_of_options_answers_with_the_option_that_does_what_is_asked():
    """The Debian Administrator's Handbook lists dpkg's query options as "`--listfiles package`
    (or `-L`), which lists the files installed by this package;": no steps, so "How do I list the
    files installed by a package?" was answered from another page ("To search for a package, you
    can type / followed by a search pattern."). The option that does every part of what is asked
    is the answer, named with the command that the text before the list names; a question that
    no option says all of is answered as before."""
    options = step_unit("5.4.3. Querying dpkg's Database", (
        "Before concluding this section, we will study `dpkg` options that query the internal database. "
        "Giving first the long options and then the short ones, we cite\n\n"
        "- `--listfiles package` (or `-L`), which lists the files installed by this package;\n"
        "- `--search file` (or `-S`), which finds the package(s) containing the file;\n"
        "- `--status package` (or `-s`), which displays the headers of an installed package;\n"
        "- `--contents file.deb` (or `-c`), which lists the files in the Debian package specified.\n"),
        "hbe/sect.manipulating-packages-with-dpkg.html", "5.4. Manipulating Packages with dpkg", order=3)
    search = step_unit("6.5.1. aptitude", (
        "To search for a package, you can type / followed by a search pattern. This pattern matches "
        "the name of the packages, and the files installed by them are listed below.\n"),
        "hbe/sect.apt-frontends.html", "6.5. Frontends: aptitude, synaptic", order=1)
    hits = [Hit(search, 1.0, 1, "x"), Hit(options, 0.9, 2, "x")]
    answer, steps, _ = compose(hits, Turn("How do I list the files installed by a package?"), cite=False)
    assert answer == "dpkg --listfiles package (or -L): Lists the files installed by this package."
    assert steps == ["dpkg --listfiles package (or -L): Lists the files installed by this package."]
    # "belongs to" is said by no option: the search's sentence stays the answer
    answer, _, _ = compose(hits, Turn("How do I find which package a file belongs to?"), cite=False)
    assert answer.startswith("To search for a package, you can type / followed by a search pattern.")


def test_a_commands_example_that_lists_leads_and_a_pointer_for_more_help_is_no_step():
    """Borg's reference: "borg list" says only what it is and "For more help on include/exclude
    patterns, see the borg help patterns command output.", a pointer, which led "How do I list the
    archives in a repository?"; the quick start's "List all archives in the repository: `borg
    list /path/to/repo`" says what to do ("List of …" still names a list) and leads."""
    description = LogicUnit("Appendix", "", "Description (borg list — Borg)", (
        "This command lists the contents of a repository or an archive.\n\nFor more help on include/exclude "
        "patterns, see the [borg help patterns](help.html#borg-patterns) command output."), [],
        unit_meta("borg/usage/list.html", "borg list — Borg"))
    assert unit_steps(description) == []
    quick = Procedure("", "A step by step example (Quick Start — Borg)", [
        "Backup the ~/src and ~/Documents directories into an archive called Monday: "
        "`borg create /path/to/repo::Monday ~/src ~/Documents`",
        "List all archives in the repository: `borg list /path/to/repo`",
        "Restore the Monday archive by extracting the files relative to the current directory: "
        "`borg extract /path/to/repo::Monday`"], unit_meta("borg/quickstart.html", "Quick Start — Borg"))
    answer, _, _ = compose([Hit(description, 1.0, 1, "x"), Hit(quick, 0.9, 2, "x")],
                           Turn("How do I list the archives in a repository?"), cite=False)
    assert answer.startswith("List all archives in the repository: borg list /path/to/repo.")
    assert not says_what_to_do("List of supported compression algorithms.")


def test_words_in_brackets_are_prose_in_a_sentence_that_says_what_to_do():
    """Borg's FAQ: "To limit upload (i.e. borg create) bandwidth, use the `--remote-ratelimit`
    option." read as code (its bracketed words were not counted as words), so "How do I limit
    the upload bandwidth?" led with a remark on the download's wrapper ("The nice thing about pv
    is that you can change rate-limit on the fly: …")."""
    faq = LogicUnit("FAQ", "", "Is there a way to limit bandwidth with Borg?", (
        "To limit upload (i.e. [borg create](usage/create.html#borg-create)) bandwidth, use the "
        "`--remote-ratelimit` option.\n\nThere is no built-in way to limit *download* (i.e. [borg "
        "extract](usage/extract.html#borg-extract)) bandwidth, but limiting download bandwidth can be "
        "accomplished with [pipeviewer](http://www.ivarch.com/programs/pv.shtml):\n\n"
        "Create a wrapper script: /usr/local/bin/pv-wrapper\n\n```\n#!/bin/sh\nRATE=307200\n"
        "pv -q -L $RATE  | \"$@\"\n```\n\nAdd BORG_RSH environment variable to use pipeviewer wrapper "
        "script with ssh.\n\n```\nexport BORG_RSH='/usr/local/bin/pv-wrapper ssh'\n```\n\n"
        "Now Borg will be bandwidth limited. The nice thing about `pv` is that you can change rate-limit "
        "on the fly:\n\n```\npv -R $(pidof pv) -L 102400\n```\n"),
        [], unit_meta("borg/faq.html", "Frequently asked questions — Borg"))
    answer, _, _ = compose([Hit(faq, 1.0, 1, "x")], Turn("How do I limit the upload bandwidth?"), cite=False)
    assert answer.startswith("To limit upload (i.e. borg create) bandwidth, use the --remote-ratelimit option.")


def test_a_topic_whose_description_restates_the_wish_leads_with_its_solution():
    """Apache's mod_rewrite guide gives "Forcing HTTPS" in labelled parts: its description ("You
    want all HTTP requests to be redirected to HTTPS.") led the answer to "How do I redirect HTTP
    to HTTPS?", as the sentence that scored best. The user's wish said again is no answer, and
    "The preferred approach uses a Redirect directive …" names what to do, as "The usual way … is
    to use …" does."""
    page = "apache/rewrite/remapping.html", "Redirecting and Remapping with mod_rewrite"
    description = LogicUnit("Appendix", "", "Forcing HTTPS: Description", (
        "You want all HTTP requests to be redirected to HTTPS. This is one of the most common uses of "
        "[`mod_rewrite`](../mod/mod_rewrite.html), but in most cases it is better accomplished without it.\n"),
        [], unit_meta(*page, order=4))
    solution = step_unit("Resolve: Forcing HTTPS", (
        "The preferred approach uses a [`Redirect`](../mod/mod_alias.html#redirect) directive in a dedicated "
        "HTTP virtual host:\n\n```config\n<VirtualHost *:80>\n    ServerName www.example.com\n"
        "    Redirect permanent \"/\" \"https://www.example.com/\"\n</VirtualHost>\n```\n"), *page, order=5)
    answer, _, _ = compose([Hit(description, 1.0, 1, "x"), Hit(solution, 0.9, 2, "x")],
                           Turn("How do I redirect HTTP to HTTPS?"), cite=False)
    assert answer.startswith("The preferred approach uses a `Redirect` directive in a dedicated HTTP virtual host: "
                             "<VirtualHost *:80>")
    assert "You want" not in answer
    # with no step that says what to do, the best sentence leads, but not the wish said again
    rule = step_unit("Forcing HTTPS: Discussion", "All other requests continue to the next rule and are "
                     "redirected to HTTPS as usual.\n", *page, order=6)
    answer, _, _ = compose([Hit(description, 1.0, 1, "x"), Hit(rule, 0.9, 2, "x")],
                           Turn("How do I redirect HTTP to HTTPS?"), cite=False)
    assert not answer.startswith("You want")


def test_the_labelled_parts_of_the_best_sections_topic_go_on_from_it():
    """Knot DNS's "`rrl` — Response rate limiting" says what the module is for; its "Example"
    below, the configuration, scores far lower and joins all the same: it is that section's part."""
    page = "knot/modules.html", "Modules"
    rrl = step_unit("`rrl` — Response rate limiting (Modules)", "Response rate limiting (RRL) is a method to "
                    "combat DNS reflection amplification attacks. You can limit the responses per flow.",
                    *page, order=3)
    rrl.meta["section"] = "Modules > `rrl` — Response rate limiting"
    example = step_unit("`rrl` — Response rate limiting: Example (Modules)", "You can enable RRL by setting "
                        "the module globally:\n\n```\nmod-rrl:\n  - id: default\n    rate-limit: 200\n```\n",
                        *page, order=4)
    example.meta["section"] = "Modules > `rrl` — Response rate limiting > Example"
    other = step_unit("tcp-max-clients (Configuration Reference)", "Set it below the file descriptor limit to "
                      "limit the number of TCP clients.", "knot/reference.html", "Configuration Reference")
    turn = Turn("How do I limit the number of responses to mitigate amplification attacks?")
    _, steps, _ = compose([Hit(rrl, 1.0, 1, "x"), Hit(other, 0.9, 2, "x"), Hit(example, 0.1, 9, "x")], turn,
                          cite=False)
    assert any("rate-limit: 200" in step for step in steps)


def test_a_step_whose_sub_items_run_on_with_dashes_or_semicolons_is_one_step():
    """A home server's manual gives a fix as a step with sub-items: its procedure runs them on
    with " - ", its section with "; ". The word that opens a sub-item names nothing, so the two
    are one step; steps that name other panels stay apart."""
    dashes = ("Make sure the box knows its domain name. - Log into the web interface as an admin. "
              "- Go to System > Name Services - Add a domain name if there is none.")
    semicolons = ("Make sure the box knows its domain name. Log into the web interface as an admin. "
                  "Go to System > Name Services; Add a domain name if there is none.")
    assert is_duplicate(semicolons, [dashes])
    assert not is_duplicate(semicolons.replace("Name Services", "Date Settings"), [dashes])


def test_a_question_that_names_a_pages_subject_is_answered_from_pages_that_name_it():
    """A home server's manual has a page for each VPN: asked how to connect a phone to the
    WireGuard VPN, the OpenVPN page's steps for the same phone, which never name WireGuard,
    answer for something else; WireGuard's own page answers."""
    openvpn = Procedure("", "On Android", ["Download the OpenVPN profile from the home page.",
                                          "Install an OpenVPN client for Android and import the profile.",
                                          "Connect by tapping on the profile."], unit_meta("vpn/OpenVPN.html", "OpenVPN"))
    wireguard = Procedure("", "Installation", ["Install WireGuard from the Apps section of the web interface.",
                                               "Add the phone as a client and scan its QR code."],
                          unit_meta("vpn/WireGuard.html", "WireGuard"))
    turn = Turn("How do I connect my Android phone to the WireGuard VPN?")
    _, steps, details = compose([Hit(openvpn, 3.0, 1, "x"), Hit(wireguard, 1.0, 2, "x")], turn, cite=False)
    assert steps == wireguard.steps
    assert details["documents"] == ["vpn/WireGuard.html"]
    # without the name, the phone's steps answer
    _, steps, _ = compose([Hit(openvpn, 3.0, 1, "x"), Hit(wireguard, 1.0, 2, "x")],
                          Turn("How do I connect my Android phone to the VPN?"), cite=False)
    assert steps == openvpn.steps


def test_release_notes_list_what_changed_not_steps():
    """A home server's release notes ("FreedomBox 23.4 (2023-02-13)" > "Other Changes") list
    "backups: Add restore menu items to toolbar menu": what changed, not what to do, under a
    release's heading, in a chunk of a page titled as release notes, or in a section of one."""
    changes = "- backups: Add restore menu items to toolbar menu\n- app: Allow restoring a single app\n"
    section = LogicUnit("Appendix", "", "Other Changes", changes, [],
                        {**unit_meta("box/notes.html", "Server manual"), "section": "Box 23.4 (2023-02-13) > Other Changes"})
    chunk = Chunk(f"### Other Changes\n\n{changes}", unit_meta("box/ReleaseNotes.html", "ReleaseNotes"))
    howto = LogicUnit("Step", "", "Restoring", changes.replace("backups: Add", "Open Backups and click").replace(
        "app: Allow restoring", "Choose"), [], unit_meta("box/Backups.html", "Backups"))
    assert unit_steps(section) == [] and unit_steps(chunk) == []
    assert unit_steps(howto) == ["Open Backups and click restore menu items to toolbar menu", "Choose a single app"]


def test_what_can_be_used_to_do_what_is_asked_leads():
    """A home server's firewall page: the section "Opening Custom Ports" says in prose what to use
    ("In particular, Cockpit can be used to open custom services or ports."); the answer leads
    with it, not with a command to list ports from the manual section below it."""
    meta = unit_meta("box/Firewall.html", "Firewall")
    opening = LogicUnit("Appendix", "", "Opening Custom Ports",
                        "Cockpit provides advanced management of the firewall. Both operate over firewalld and "
                        "are compatible. In particular, Cockpit can be used to open custom services or ports.",
                        [], {**meta, "section": "Firewall > Opening Custom Ports"})
    manual = LogicUnit("Step", "", "Modifying services/ports",
                       "To see the list of ports enabled:\n\n```\nfirewall-cmd --zone=internal --list-ports\n```\n\n"
                       "To add a port:\n\n```\nfirewall-cmd --zone=internal --add-port=8080/tcp\n```",
                       [], {**meta, "section": "Firewall > Manual operation > Modifying services/ports"})
    answer, _, _ = compose([Hit(opening, 2.0, 1, "x"), Hit(manual, 1.5, 2, "x")],
                           Turn("How do I open a custom port in the firewall?"), cite=False)
    assert answer.startswith("In particular, Cockpit can be used to open custom services or ports.")


def test_a_section_in_which_the_page_speaks_of_itself_gives_no_steps(embedder):
    """A paper's abstract and conclusion name what the question asks for ("how to write log
    messages to a MySQL database") and rank first; the steps are in the section that does it."""
    from procmem.answerers.candidates import is_problem
    from procmem.memory import build_memory

    page = Document("tutorials/database.md", "Writing log messages to a MySQL database", (
        "# Writing log messages to a MySQL database\n\n## Abstract\n\nIn this paper, I describe how to write "
        "log messages to a MySQL database. Having log messages in a database is handy for a front-end that "
        "shows them.\n\n## Setting up the system\n\nDatabase support comes as a plugin.\n\n"
        "1. Load the plugin: put `module(load=\"ommysql\")` at the beginning of the configuration.\n"
        "2. Create the tables with the `createDB.sql` script of the package.\n"
        "3. Add an action that writes every message to the server: `*.* :ommysql:127.0.0.1,Syslog,writer,secret`.\n"
        "4. Restart the daemon.\n\n## Conclusion\n\nWith minimal effort, you can store log messages in a MySQL "
        "database. You can even protect it against database downtime.\n"), {"corpus": "logs"})
    memory = build_memory([page], embedder=embedder, progress=False)
    sections = {u.header.split(" (")[0]: u for u in memory.units("logic_unit")}
    assert is_problem(sections["Abstract"]) and is_problem(sections["Conclusion"])
    assert not is_problem(sections["Setting up the system"])
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I store log messages in a MySQL database?"))
    assert answer.procedures[0].startswith("Load the plugin")
    assert not any("minimal effort" in step or "this paper" in step for step in answer.procedures)
    assert "minimal effort" not in answer.answer and "this paper" not in answer.answer  # nor what to do first


def test_a_conclusion_may_say_why_but_does_not_lead_with_what_to_do():
    """The units that may say why (``extra``: the causes of the chosen pages) include a paper's
    conclusion, whose "you can use rsyslogd to write syslog messages to a database" named the
    question's words and led the answer over the chosen section's steps."""
    from procmem.answerers.candidates import Candidate
    from procmem.answerers.lead import plain_answer

    setup = step_unit("Setting up the system", "Save the configuration file and restart the daemon; the messages "
                      "then go to the events table.", "tutorials/database.md", "Writing log messages to a database")
    conclusion = step_unit("Conclusion", "With minimal effort, you can use the daemon to write log messages to a "
                           "MySQL database.", "tutorials/database.md", "Writing log messages to a database", order=2)
    turn = Turn("How do I write log messages to a MySQL database?", [])
    chosen = [Candidate(Hit(setup, 1.0, 1, "hybrid"))]
    steps = unit_steps(setup)
    assert plain_answer(chosen, [conclusion], turn, steps).startswith("Save the configuration file")
    other = step_unit("Database writer", "You can use the daemon to write log messages to a MySQL database.",
                      "tutorials/database.md", "Writing log messages to a database", order=3)
    assert plain_answer(chosen, [other], turn, steps).startswith("You can use the daemon")  # no conclusion: it may lead


def test_a_reference_entry_that_names_what_the_question_asks_about_does_not_restate_it(embedder):
    """Varnish's log reference has an entry "Backend_health - Backend health check" (a log
    record's tag), close in meaning to "How do I add a health check for my backend?"; taken as
    asking the question, it answered with the record's format. The guide's section says how."""
    from procmem.memory import build_memory

    pages = [Document("varnish/vsl.md", "VSL",
                      "# VSL\n\n## VSL tags\n\n### Backend_health - Backend health check\n\n"
                      "The result of a backend health probe. Its fields are the backend's name, the probe's "
                      "window, its threshold and the response time.\n"),
             Document("varnish/backends.md", "Backend servers",
                      "# Backend servers\n\n## Health checks\n\nVarnish polls each backend to see whether it is "
                      "healthy.\n\n1. Add a probe to the backend: `.probe = { .url = \"/\"; .interval = 5s; }`.\n"
                      "2. Load the changed VCL with `varnishadm vcl.load`.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    entry = next(u for u in memory.units("logic_unit") if u.header.startswith("Backend_health"))
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I add a health check for my backend?"))
    retrieve = next(s for s in answer.trace.stages if s.name == "retrieve")
    assert entry.id not in retrieve.details["restating"]
    assert _plain(answer)[0].startswith("Add a probe to the backend")


def test_a_section_that_answers_with_one_step_pointing_on_brings_its_pages_sections(embedder):
    """Varnish's "Put Varnish on port 80" opens with one step that points on ("Now we need to
    edit the configuration file that starts Varnish."); the page's sections below it say how,
    and the answer gives them, as it does below a section that has no steps."""
    from procmem.memory import build_memory

    pages = [Document("varnish/port80.md", "Put Varnish on port 80",
                      "# Put Varnish on port 80\n\nUntil now we've been running with Varnish on a high port, which is "
                      "great for testing. Let's now put Varnish on the default HTTP port 80.\n\nNow we need to edit the configuration file that "
                      "starts Varnish.\n\n## Debian\n\nOn Debian the file that says which port Varnish listens on is /etc/default/varnish.\n\n"
                      "1. Change `-a :6081` to `-a :80` in `DAEMON_OPTS`.\n2. Restart Varnish with "
                      "`service varnish restart`.\n\n## Red Hat\n\nOn Red Hat you can make Varnish listen on port 80 "
                      "with a similar configuration file in /etc/sysconfig/varnish.\n\n"
                      "## Restarting Varnish again\n\nOnce the change is done, restart Varnish on port 80: "
                      "`service varnish start`.\n"),
             Document("varnish/command-line.md", "Command line arguments",
                      "# Command line arguments\n\n## The listen address\n\n1. Give the address to listen on with "
                      "`-a`, for example `-a :8080`.\n2. Separate several addresses with commas.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I make Varnish listen on port 80?"))
    steps = _plain(answer)
    assert steps[0] == "Now we need to edit the configuration file that starts Varnish."
    assert "Change -a :6081 to -a :80 in DAEMON_OPTS." in steps


def test_a_reference_entry_that_says_what_a_command_does_answers_less_than_a_guide_that_says_how(embedder):
    """A help centre's reference entry for a menu command, headed with the question's words
    ("Create (Pivot Table)"), says only what the command does ("Opens a dialog where you can
    select …"); the guide's section "Creating Pivot Tables" says how, and answers."""
    from procmem.memory import build_memory

    pages = [Document("scalc/01/12090000.html", "Pivot Table",
                      "# Pivot Table\n\nChoose Insert - Pivot Table.\n\n## Create\n\nOpens a dialog where you can "
                      "select the source for your pivot table, and then create your table.\n"),
             Document("scalc/guide/datapilot_createtable.html", "Creating Pivot Tables",
                      "# Creating Pivot Tables\n\n1. Position the cursor within a range of cells containing values, "
                      "row and column headings.\n2. Choose Insert - Pivot Table. The Select Source dialog appears.\n"
                      "3. Drag the desired buttons into one of the four areas.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I create a pivot table?"))
    assert answer.procedures[0].startswith("Position the cursor within a range of cells"), answer.procedures
    assert not any(step.startswith("Opens a dialog") for step in answer.procedures), answer.procedures
    from procmem.answerers.candidates import tells_what_it_does

    assert tells_what_it_does(["Opens a dialog where you can select the source."])
    assert not tells_what_it_does(["Choose Insert - Pivot Table.", "Opens a dialog."])
    assert not tells_what_it_does([])


def test_a_section_whose_header_asks_the_question_but_the_product_it_is_asked_in_answers(embedder):
    """"How do I insert page numbers in Writer?": the guide's section "To Insert Page Numbers"
    asks it (the page is Writer's), not the section whose text happens to say "In Writer"."""
    from procmem.memory import build_memory

    pages = [Document("swriter/guide/pagenumbers.html", "Page Numbers",
                      "# Page Numbers\n\n## To Insert Page Numbers\n\nChoose Insert - Page Number to insert a page "
                      "number at the current cursor position.\n\n## Using Different Page Number Formats\n\nIn Writer, "
                      "you insert page numbers in two formats with two page styles.\n\n1. Click into the "
                      "first page of your document.\n2. Choose View - Styles.\n3. Double-click the \"First Page\" style.\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I insert page numbers in Writer?"))
    best = next(s for s in answer.trace.stages if s.name == "compose").details["scores"][0]
    assert memory.get(best["unit_id"]).header.startswith("To Insert Page Numbers"), best
    assert best["header"] == 1.0, best
    assert answer.answer.startswith("Choose Insert - Page Number"), answer.answer


def test_the_first_part_of_a_section_whose_header_says_the_whole_question_is_a_candidate(embedder):
    """The Handbook's "Installing Apache" is split for size; its part 2 (the modules) is found
    for "How do I install a web server?", below another page's section, and its part 1, where
    the answer starts ("Installing the apache2 package is all that is needed."), is looked for."""
    from procmem.answerers.retrieval import Retriever
    from procmem.memory import build_memory

    modules = " ".join(["Apache is a modular server, and many features are implemented by external modules that the "
                        "main program loads during its initialization."] * 8)
    page = Document("sect.http-web-server.html", "Web Server (HTTP)",
                    "# Web Server (HTTP)\n\n## Installing Apache\n\nInstalling the apache2 package is all that is "
                    f"needed. It contains all the modules.\n\n{modules}\n\nThe default configuration only enables the most "
                    "common modules; enabling new modules is a simple matter of running `a2enmod module`.\n")
    memory = build_memory([page], embedder=embedder, progress=False)
    parts = sorted((u for u in memory.units("logic_unit") if "Installing Apache" in u.header),
                   key=lambda u: u.meta.get("part", 0))
    assert len(parts) >= 2 and parts[-1].meta.get("part", 0) > 1, [u.header for u in parts]
    later = parts[-1]
    other = Hit(Chunk("Webmin is used through a web interface.", meta={"doc_id": "webmin.html"}), 1.0, 1, "hybrid")
    searches = [([other, Hit(later, 0.5, 2, "hybrid")], 1.0)]
    found = first_parts(Retriever(memory), searches, Turn("How do I install a web server?"), 1.0)
    assert [h.unit.id for hits, _ in found for h in hits] == [parts[0].id]
    assert says_what_to_do("Installing the apache2 package is all that is needed.")
    assert not says_what_to_do("The package is all that is needed.")


def test_an_option_of_a_commands_usage_that_does_what_is_asked_answers(embedder):
    """A command's page opens with its usage, which lists its options; "How do I follow the log
    output?" is answered by the option that follows it, named with its command, not by the
    command's line alone; an option that only names the asked word ("Push all tagged images"
    for tagging one) does not answer."""
    from procmem.answerers.steps import usage_options
    from procmem.memory import build_memory

    usage = ("# logs\n\n```markdown\nUsage:  tool logs [OPTIONS] CONTAINER\n\nFetch the logs of a container\n\n"
             "Options:\n      --details        Show extra details provided to logs\n  -f, --follow         Follow log "
             "output\n      --since string   Show logs since timestamp (e.g. 2013-01-02T13:23:37Z) or relative\n"
             "                       (e.g. 42m for 42 minutes)\n  -t, --timestamps     Show timestamps\n```\n")
    pages = [Document("cli/logs.md", "logs", usage),
             Document("cli/push.md", "push", "# push\n\n```markdown\nUsage:  tool push [OPTIONS] NAME\n\nPush an image "
                      "to a registry\n\nOptions:\n  -a, --all-tags   Push all tagged images in the repository\n```\n")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answerer = make_answerer("extractive", memory=memory)
    answer = answerer.answer(AnswerRequest("How do I follow the log output?"))
    assert answer.procedures[0] == "tool logs -f (or --follow): Follow log output. [1]", answer.procedures
    assert answer.answer.startswith("tool logs -f (or --follow): Follow log output."), answer.answer
    tagging = answerer.answer(AnswerRequest("How do I tag an image before pushing it?"))
    assert not any("--all-tags" in step for step in tagging.procedures), tagging.procedures
    logs = next(u for u in memory.units("logic_unit") if u.meta.get("doc_id") == "cli/logs.md")
    assert usage_options(logs)[2] == ("tool logs --since: Show logs since timestamp (e.g. 2013-01-02T13:23:37Z) "
                                      "or relative (e.g. 42m for 42 minutes).")


def test_an_option_of_a_long_usage_split_for_size_answers_from_a_later_part(embedder):
    """`docker run`'s usage lists some ninety options and is split for size; its `-d` and `--rm`
    are in a later part, which keeps the usage's line: they answer as the first part's would,
    an adverb before the action they do ("Automatically remove …") notwithstanding."""
    from procmem.memory import build_memory

    options = "\n".join(f"      --cpu-option{i} int     Limit the CPU time number {i} of the container in microseconds"
                        for i in range(40))
    usage = ("# run\n\n```markdown\nUsage:  tool run [OPTIONS] IMAGE [COMMAND]\n\nRun a command in a new container\n\n"
             f"Options:\n{options}\n  -d, --detach          Run container in background and print container ID\n"
             "      --rm            Automatically remove the container when it exits\n```\n")
    memory = build_memory([Document("cli/run.md", "run", usage)], embedder=embedder, progress=False)
    assert max(u.meta.get("part", 1) for u in memory.units("logic_unit")) > 1
    answerer = make_answerer("extractive", memory=memory)
    background = answerer.answer(AnswerRequest("How do I run a container in the background?"))
    assert background.procedures[0].startswith("tool run -d (or --detach): Run container in background"), \
        background.procedures
    assert background.answer.startswith("tool run -d (or --detach): Run container in background"), background.answer
    removed = answerer.answer(AnswerRequest("How do I remove a container when it exits?"))
    assert removed.procedures[0].startswith("tool run --rm: Automatically remove the container"), removed.procedures


def test_a_section_merged_across_pages_leads_with_what_to_do_not_with_its_pages_names(embedder):
    """LibreOffice's "Export as PDF" is a section of the "Export As" page and a page of its own;
    merged, its text names each part's page ("From Export As:"), which introduces nothing: the
    answer leads with what to do."""
    from procmem.answerers.steps import unit_text
    from procmem.memory import build_memory

    said = ("Saves the current file to Portable Document Format (PDF) version 1.4. A PDF file can be viewed and "
            "printed on any platform.\n\nTo access this command...\n\nChoose File - Export As - Export as PDF.\n")
    pages = [Document("shared/01/01070002.html", "Export As", f"# Export As\n\n## Export as PDF\n\n{said}"),
             Document("shared/01/ref_pdf_export.html", "Export as PDF", f"# Export as PDF\n\n{said}")]
    memory = build_memory(pages, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I export my document as PDF?"))
    assert answer.answer == "Choose File - Export As - Export as PDF.", answer.answer
    merged = next(u for u in memory.units("logic_unit") if u.meta.get("merged_from"))
    assert "From Export As:" in merged.body and "From Export As:" not in unit_text(merged)



def _answer_from_page(page: Document, question: str, embedder) -> list[str]:
    """The extractive answer's steps over a real memory of one page (reader's units, embedding
    model, hybrid search)."""
    from procmem.memory import build_memory

    memory = build_memory([page], embedder=embedder, progress=False)
    return make_answerer("extractive", memory=memory).answer(AnswerRequest(question)).procedures

def test_a_section_for_another_database_engine_than_the_users_does_not_answer(embedder):
    """Django's "Databases" page has notes for each engine, each with its own "Connecting to the
    database": the MySQL one answered "How do I connect to a PostgreSQL database?"."""
    page = Document("ref/databases.html", "Databases",
                    "# Databases\n\n## MySQL notes\n\n### Connecting to the database\n\nTo connect to MySQL, "
                    "set the connection settings:\n\n1. Set `ENGINE` to `django.db.backends.mysql`.\n2. Put the "
                    "MySQL user and password in `USER` and `PASSWORD`.\n\n## PostgreSQL notes\n\n### Connection "
                    "settings\n\nTo connect to PostgreSQL, give the server's settings:\n\n1. Set `ENGINE` to "
                    "`django.db.backends.postgresql`.\n2. Put the database's name in `NAME` and its host in `HOST`.\n")
    steps = " ".join(procedures := _answer_from_page(page, "How do I connect to a PostgreSQL database?", embedder))
    assert "django.db.backends.postgresql" in steps, procedures
    assert "mysql" not in steps.lower(), procedures



def test_a_section_that_only_says_what_one_can_do_introduces_the_sections_under_it(embedder):
    """Django's "Overriding admin templates" says only "You can override many of the templates …"
    and "You can even override a few of them for a specific app"; how to do it is in "Set up your
    project's directories" under it, whose words the question need not share; of its page, the
    sections under it join (on Django's page, without the restriction to them, "Custom template
    options" of another part of the page joined too)."""
    page = Document("ref/contrib/admin/index.html", "The Django admin site",
                    "# The Django admin site\n\n## ModelAdmin options\n\n### Custom template options\n\nUse the "
                    "following options to override the default templates used by the views:\n\n- `add_form_template`: "
                    "Path to a custom template, used by the add view.\n- `change_form_template`: Path to a custom "
                    "template, used by the change view.\n\n## Overriding admin templates\n\nYou can override many of "
                    "the templates which the admin module uses to generate the various pages of an admin site. You "
                    "can even override a few of these templates for a specific app, or a specific model.\n\n### Set "
                    "up your project's directories\n\nFirst make a folder named after the app in your project's own "
                    "folder of page layouts.\n\nThen copy the file you want to change there and edit the copy.\n")
    procedures = _answer_from_page(page, "How do I override a template of the admin site?", embedder)
    steps = " ".join(procedures).replace("`", "")
    assert "First make a folder named after the app" in steps, procedures
    assert "Then copy the file you want to change there" in steps, procedures
    assert "add_form_template" not in steps, procedures


def test_a_sentence_that_says_what_lets_one_do_what_is_asked_answers(embedder):
    """Nextcloud's client manual says how to limit the bandwidth in one sentence, with no steps:
    "The Network settings window enables you to define network proxy settings, and also to limit
    download and upload bandwidth." Background without steps ranked below another page's aside
    that "you can just utilize the Selective Sync feature", which has a step, and that answered;
    asked about the proxy, the installer's steps joined the sentence: it is the answer."""
    from procmem.memory import build_memory

    using = Document("client/navigating.html", "Using the Synchronization Client",
                     "# Using the Synchronization Client\n\n## Adding an account\n\nTo add an account:\n\n"
                     "1. Open the settings dialog.\n2. Choose Add account and enter the server's address.\n\n"
                     "## Using the Network Window\n\nThe Network settings window enables you to define network "
                     "proxy settings, and also to limit download and upload bandwidth.\n")
    virtual = Document("client/architecture.html", "History and Architecture",
                       "# History and Architecture\n\n## Virtual Files\n\nSyncing every big file to a laptop is not "
                       "always possible when its disk is small and the upload takes all your bandwidth. Of course, "
                       "you can just use the Selective Sync feature, and keep switching between the folders you "
                       "sync. Needless to say, this is far from convenient.\n")
    installer = Document("client/installing.html", "Installing the Desktop Client",
                         "# Installing the Desktop Client\n\n## Changing installed features\n\nTo add the desktop "
                         "shortcut later, on a network behind a proxy, run `msiexec /passive /i Nextcloud.msi "
                         "ADDDEFAULT=DesktopShortcut`.\n")
    memory = build_memory([using, virtual, installer], embedder=embedder, progress=False)
    answerer = make_answerer("extractive", memory=memory)

    for question in ("How do I limit the upload bandwidth?", "How do I set a network proxy?"):
        answer = answerer.answer(AnswerRequest(question))
        assert answer.answer.startswith("The Network settings window enables you"), (question, answer.answer)
        assert not any("msiexec" in step or "Selective Sync" in step for step in answer.procedures), answer.procedures


def test_a_tool_that_lets_us_do_what_is_asked_answers(embedder):
    """Double Commander's help says what its Multi-Rename Tool is for as "allows us to": "How do I
    rename many files at once?" got the internal commands' "Rename or move items." and the
    column sets' "Rename – will prompt to enter a new name." as steps."""
    from procmem.memory import build_memory

    tool = Document("dc/multirename.html", "Multi-Rename Tool",
                    "# Multi-Rename Tool\n\n## 1. Presentation\n\nThe Multi-Rename Tool allows us to rename many "
                    "selected files at once using different means.\n\n## 1.1. Recommendation\n\nIf we're not "
                    "familiar with the Multi-Rename Tool, prior to actually explore it, it would be wise to make "
                    "some tests with copies of actual files into a temporary directory.\n\n## 2. Interface\n\nOn "
                    "top we see a table with the files we've selected from the source panel, one file per row, and "
                    "about to be renamed.\n")
    columns = Document("dc/configuration.html", "Configuration",
                       "# Configuration\n\n## Custom columns\n\nThe buttons under the list of column sets:\n\n"
                       "- Save – saves changes in the selected set of columns.\n"
                       "- Save as – saves the selected column set with a new name.\n"
                       "- Rename – will prompt to enter a new name.\n"
                       "- Delete – deletes the selected column set.\n")
    commands = Document("dc/cmds.html", "Internal Commands",
                        "# Internal Commands\n\n## 2.4. File Operations\n\n- cm_RenameOnly: Rename files in the same "
                        "directory.\n- cm_MultiRename: Multi-Rename Tool.\n- cm_Rename: Rename or move items.\n"
                        "- cm_MakeDir: Create a new directory.\n")
    memory = build_memory([tool, columns, commands], embedder=embedder, progress=False)

    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I rename many files at once?"))

    assert "The Multi-Rename Tool allows us to rename" in answer.answer, answer.answer
    assert not any("cm_" in step or "column set" in step for step in answer.procedures), answer.procedures


def test_a_step_labelled_for_another_platform_than_the_users_is_left_out(embedder):
    """Nextcloud's "Configuration File" names the file's place on Linux, Windows and macOS, one
    line each; "Where is the configuration file stored on Windows?" got all three."""
    page = Document("client/advancedusage.html", "Advanced Usage",
                    "# Advanced Usage\n\n## Configuration File\n\nThe client reads a configuration file. You can "
                    "locate this configuration file as follows:\n\n"
                    "On Linux distributions: `$HOME/.config/Nextcloud/nextcloud.cfg`\n\n"
                    "On Microsoft Windows systems: `%APPDATA%\\Nextcloud\\nextcloud.cfg`\n\n"
                    "On macOS systems: `$HOME/Library/Preferences/Nextcloud/nextcloud.cfg`\n\n"
                    "## Environment Variables\n\nThe behaviour of the client can also be set with environment "
                    "variables, which override the values in the configuration file.\n")

    steps = _answer_from_page(page, "Where is the configuration file stored on Windows?", embedder)

    assert any("%APPDATA%" in step for step in steps), steps
    assert not any("$HOME" in step for step in steps), steps
    assert any("$HOME/.config" in step for step in _answer_from_page(
        page, "Where is the configuration file stored?", embedder))  # no setting named: every place


def test_a_section_under_another_platforms_heading_is_left_out(embedder):
    """Tux Paint's options: "Configuration File" > "Linux and Unix Users" > "System-Wide
    Configuration File", and again under "macOS Users"; the two sections' own headers are the
    same, and "Where is the system-wide configuration file on Linux?" got the macOS place."""
    from procmem.memory import build_memory

    file = "Before this file is read, a system-wide configuration file is read. It is located at:\n\n> `{}`\n\n"
    page = Document("tuxpaint/OPTIONS.html", "Tux Paint Options Documentation",
                    "# Tux Paint Options Documentation\n\n## Configuration File\n\nYou can create a simple "
                    "configuration file for Tux Paint, which it reads each time it starts.\n\n"
                    "### macOS Users\n\nThe file you should create is called `tuxpaint.cfg`, in your home folder.\n\n"
                    "#### System-Wide Configuration File\n\n" + file.format("/Library/Application Support/TuxPaint/tuxpaint.cfg")
                    + "### Linux and Unix Users\n\nThe file you should create is called `.tuxpaintrc`, in your home "
                    "directory.\n\n#### System-Wide Configuration File\n\n" + file.format("/etc/tuxpaint/tuxpaint.conf"))
    memory = build_memory([page], embedder=embedder, progress=False)

    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("Where is the system-wide configuration file on Linux?"))

    said = " ".join([answer.answer, *answer.procedures])
    assert "/etc/tuxpaint/tuxpaint.conf" in said and "/Library" not in said, said


def test_a_section_of_another_task_on_the_same_thing_does_not_join(embedder):
    """KeePassXC's guides: "How do I create a new password database?" got the database wizard's
    steps, then those of "Opening an Existing Database" and "Importing KeePass 1 Database" (each
    says "database" and "password")."""
    from procmem.memory import build_memory

    start = Document("keepassxc/start.html", "KeePassXC: Getting Started Guide",
                     "# KeePassXC: Getting Started Guide\n\n## Database Operations\n\n### Creating Your First "
                     "Database\n\nTo create a database, perform the following steps:\n\n1. Open KeePassXC and click "
                     "the create new database button.\n2. Enter the desired database name.\n3. Enter your desired "
                     "database password.\n4. Click Done.\n\n### Opening an Existing Database\n\nTo open an existing "
                     "database, perform the following steps:\n\n1. Click the Open existing database button.\n2. Enter "
                     "the password for your database.\n3. Click OK to open the database.\n")
    guide = Document("keepassxc/guide.html", "KeePassXC: User Guide",
                     "# KeePassXC: User Guide\n\n## Importing External "
                     "Databases\n\n### Importing KeePass 1 Database\n\nTo import a KeePass 1 database file into a new "
                     "database:\n\n1. Click Import from KeePass 1 database.\n2. Enter the password for your old "
                     "database file and click OK.\n3. Provide a name for the new database and click Save.\n")
    memory = build_memory([start, guide], embedder=embedder, progress=False)

    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I create a new password database?"))

    steps = " ".join(answer.procedures)
    assert "create new database button" in steps, answer.procedures
    assert not any(words in steps for words in ("Open existing", "KeePass 1")), answer.procedures


def test_asked_what_happens_the_best_section_says_it_before_another_pages_action():
    """"My disk is almost full, what does the client do?" asks what happens, not how to do
    something: Nextcloud's "Low Disk Space" says it and says what to do nowhere, so the lead was
    the troubleshooting page's action "Before enabling core dumps on your system, ensure that you
    have enough disk space …", and its "why" too."""
    from procmem.answerers.candidates import Candidate
    from procmem.answerers.lead import plain_answer

    low = step_unit("Low Disk Space", "When disk space is low the client will be unable to synchronize all "
                    "files.\n\n- Synchronization of a folder aborts entirely if the remaining disk space falls below "
                    "50 MB.", "client/advancedusage.html", "Advanced Usage")
    dumps = step_unit("Core Dumps", "Before enabling core dumps on your system, ensure that you have enough disk "
                      "space for these files, because the client writes one at every crash.",
                      "client/troubleshooting.html", "Troubleshooting")
    chosen = [Candidate(Hit(low, 1.0, 1, "hybrid")), Candidate(Hit(dumps, 0.8, 2, "hybrid"))]
    steps = unit_steps(low) + unit_steps(dumps)

    lead = plain_answer(chosen, [], Turn("My disk is almost full, what does the client do?", []), steps)

    assert lead.startswith("When disk space is low the client will be unable"), lead
    assert "core dumps" not in lead
    how = plain_answer(chosen, [], Turn("How do I make room for core dumps on the disk?", []), steps)
    assert how.startswith("Before enabling core dumps")  # asked how: the action leads
    # ... and asked what to do in other words (Office's "… nobody got a notification. What should I check?")
    check = plain_answer(chosen, [], Turn("The disk is full of core dumps. What should I check?", []), steps)
    assert check.startswith("Before enabling core dumps"), check


def _two_products(root):
    """A help folder of two products, as /usr/share/help/C holds them: each in a folder with the
    start page of its manual."""
    pages = {
        "backup/index.md": "# Backups\n\nKeep copies of your files.\n\n- [Preferences](prefs.md)\n",
        "backup/prefs.md": "# Preferences\n\n## Back up automatically\n\nTo have your files backed up every "
                           "day, open **Preferences** and turn on **Back Up Automatically**. Regular backups "
                           "are the most useful ones.\n",
        "calendar/index.md": "# Calendar\n\nPlan your appointments.\n\n- [Recurrence](recurrence.md)\n",
        "calendar/recurrence.md": "# Using recurrence\n\nIf an appointment takes place regularly, every day or "
                                  "every week, you can make it repeat automatically.\n\n1. Open the appointment "
                                  "and click **Recurrence**.\n2. Choose every day, every week or every month.\n"
                                  "3. Click **OK** to run it automatically on those days.\n",
    }
    for name, text in pages.items():
        path = root / "help" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "help"


def test_another_products_manual_in_the_same_folder_does_not_join(tmp_path, embedder):
    """A backup tool's and a calendar's help built from one folder: "How do I make backups run
    automatically every day?" got the calendar's steps to repeat an appointment beside the
    backup preference; each product's folder holds the start page of its own manual, and one
    manual's units never join another's."""
    from inscoqa.corpus import CorpusIndex
    from procmem.memory import build_memory

    index = CorpusIndex({"help": _two_products(tmp_path)})
    memory = build_memory(list(index.iter_documents()), embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I make backups run automatically every day?"))
    said = " ".join([answer.answer, *answer.procedures])
    assert "Back Up Automatically" in said, said
    assert "Recurrence" not in said and "appointment" not in said, said



def test_the_best_sections_action_leads_though_another_shares_more_of_the_question():
    """A webcam application's help: to "How can I turn off the flash when taking a webcam
    picture?" the section that answers ("Disable the flash", ranked first) says what to do in words
    the question does not use, and the section on taking photos, ranked second, shares "take",
    "webcam" and "photo"; the best section's action leads, as its steps come first."""
    from procmem.answerers.lead import plain_answer

    flash = step_unit("Disable the flash", "When you take a photo, the screen briefly turns white.\n\nTo disable "
                      "this feature, open **Preferences > Capture** and uncheck **Fire flash**.",
                      "help/flash.page", "Disable the flash")
    photos = Procedure("", "Take photos", [
        "Make sure that you are in **Photo** mode.",
        "Click the **Take a photo using a webcam** button, or press **Space**, to take the photo.",
        "A short countdown is followed by a flash, and the photo appears in the photo stream."],
        unit_meta("help/photos.page", "Take photos"))
    chosen = [Candidate(Hit(flash, 1.0, 1, "hybrid")), Candidate(Hit(photos, 0.9, 2, "hybrid"))]
    steps = unit_steps(flash) + unit_steps(photos)

    lead = plain_answer(chosen, [], Turn("How can I turn off the flash when taking a webcam picture?", []), steps)

    assert lead.startswith("To disable this feature, open Preferences > Capture"), lead
    # ... and a sentence of the second section still leads when the first says nothing to do
    told = step_unit("Disable the flash", "When you take a photo, the screen briefly turns white.",
                     "help/flash.page", "Disable the flash")
    chosen[0] = Candidate(Hit(told, 1.0, 1, "hybrid"))
    steps = unit_steps(told) + unit_steps(photos)
    lead = plain_answer(chosen, [], Turn("How can I turn off the flash when taking a webcam picture?", []), steps)
    assert lead.startswith("Click the Take a photo using a webcam button"), lead


def test_the_term_whose_meaning_the_question_asks_answers_it():
    """A system monitor's help: after "How do I kill a process?", "What does it mean when a
    process says zombie?" was answered with the steps to kill one again; the list of the process
    statuses, which says what "**Zombie**" means, had no steps and a one-word term. Asked how,
    the steps still answer."""
    kill = step_unit("Kill (close) a program immediately", "1. Go to the **Processes** tab and select the process "
                     "you want to kill.\n2. Click **End Process**.\n3. If the process does not close, right-click it "
                     "and select **Kill**.", "help/kill.page", "Kill a program")
    statuses = LogicUnit("Terminology", "", "The process statuses", "- **Running**: The process is running now.\n"
                         "- **Sleeping**: The process is waiting for something to happen.\n- **Zombie**: A zombie "
                         "process is one that has finished running but is being kept in the list of processes.",
                         [], unit_meta("help/status.page", "Process statuses"))
    history = [("How do I kill a process?", "Select it in the Processes tab and click End Process.")]
    hits = [Hit(kill, 1.0, 1, "x"), Hit(statuses, 0.9, 2, "x")]

    answer, steps, _ = compose(hits, Turn("What does it mean when a process says zombie?", history), cite=False)

    assert answer.startswith("Zombie: A zombie process is one that has finished running"), answer
    assert steps[0].startswith("Zombie: A zombie process"), steps
    _, steps, _ = compose(hits, Turn("How do I kill a zombie process?", []), cite=False)
    assert steps[0].startswith("Go to the Processes tab"), steps


def test_what_to_do_when_a_step_does_not_work_leads_only_when_the_user_says_it_did_not():
    """A system monitor's "Kill a program": to "A program is frozen. How do I force it to close?"
    the lead was "If the process does not close after a few seconds, right-click it and select
    Kill", the case for when the steps fail; it leads when the user says they did."""
    kill = Procedure("", "Kill (close) a program immediately", [
        "Go to the Processes tab and click to select the process you want to kill.", "Click End Process.",
        "If the process does not close after a few seconds, right-click it and select Kill from the menu."],
        unit_meta("help/kill.page", "Kill a program"))

    answer, _, _ = compose([Hit(kill, 1.0, 1, "x")], Turn("A program is frozen. How do I force it to close?"),
                           cite=False)
    assert answer.startswith("Go to the Processes tab"), answer
    history = [("How do I close a frozen program?", "Select it in the Processes tab and click End Process.")]
    answer, _, _ = compose([Hit(kill, 1.0, 1, "x")], Turn("It still doesn't close. What now?", history), cite=False)
    assert answer.startswith("If the process does not close after a few seconds, right-click it"), answer


def test_a_section_that_opens_with_its_list_is_answered_from_its_steps_not_the_prose_after_them():
    """An image viewer's "Rotate a picture": its steps, then "You can also use the keyboard
    shortcuts:" over a table. Taken as the section's opening, that sentence was the whole
    answer to "How do I rotate a picture?", without the shortcuts it introduced."""
    rotate = step_unit("Rotate a picture", "1. Move the mouse pointer over the image. Two buttons appear.\n"
                       "2. Select **Rotate the image 90 degrees to the left** or **to the right**.\n3. To keep the "
                       "picture rotated, click **Save**.\n\nYou can also use the keyboard shortcuts:\n\n"
                       "| Rotate Clockwise | Ctrl+R |\n| --- | --- |\n| Rotate Counter-clockwise | Ctrl+Shift+R |",
                       "help/rotate.page", "Rotate pictures")

    answer, steps, _ = compose([Hit(rotate, 1.0, 1, "x")], Turn("How do I rotate a picture?"), cite=False)

    assert answer.startswith("Move the mouse pointer over the image"), answer
    assert steps[0].startswith("Move the mouse pointer"), steps


def test_asked_why_the_answer_says_why_first_then_what_to_do_in_the_pages_order():
    """A disc burner's "CD will not play in a CD player": to "I burned a CD but it won't play
    in my car stereo. Why?" the answer was one of the two steps alone, which one by the process's
    hash seed (ties were ordered as a set iterates), and the cause the page gives was left out."""
    steps = Procedure("", "CD will not play in a CD player", [
        "If you are using a CD-RW, blank the CD.", "Rewrite the CD as an audio project."],
        unit_meta("help/prob-cd.page", "CD will not play in a CD player"))
    cause = step_unit("CD will not play in a CD player", "If your CD is not playing in your CD player or stereo, "
                      "it is probably because you used a data project to write the music to the CD instead of an "
                      "audio project.", "help/prob-cd.page", "CD will not play in a CD player")
    turn = Turn("I burned a CD but it won't play in my car stereo. Why?")

    answer, _, _ = compose([Hit(steps, 1.0, 1, "x")], turn, cite=False, extra=[cause])

    assert answer == ("If your CD is not playing in your CD player or stereo, it is probably because you used a "
                      "data project to write the music to the CD instead of an audio project. If you are using a "
                      "CD-RW, blank the CD."), answer


def test_a_best_section_that_says_what_to_do_in_its_list_alone_leads_with_its_steps():
    """A notes application's "Begin a bulleted list": a line that introduces three ways, each a
    list item. Its page has no sentence for the plain answer, so "Use it to search for text
    within the current note", from the editing page, led "How do I make a bulleted list in a
    note?". Another section's sentence still leads when it names as much of the question as the
    best section's header."""
    begin = step_unit("Begin a bulleted list", "You may begin a bulleted list in any of the following ways:\n\n"
                      "- Select **Bullets** from the **Text** menu.\n- Begin a line with a single dash character - "
                      "followed by a space.\n- Press the key combination Alt+Right.", "help/bullets.page", "Bulleted Lists")
    find = step_unit("Find text in a note", "The toolbar at the top of note has a search button. Use it to search "
                     "for text within the current note.\n\n1. Enter the text to find and press Enter.",
                     "help/editing.page", "Editing Notes")
    hits = [Hit(begin, 1.0, 1, "x"), Hit(find, 0.9, 2, "x")]

    answer, steps, _ = compose(hits, Turn("How do I make a bulleted list in a note?"), cite=False)

    assert answer.startswith("Select Bullets from the Text menu"), answer
    assert steps[0] == "Select Bullets from the Text menu.", steps
    answer, _, _ = compose(hits, Turn("How do I search for text in a bulleted list in a note?"), cite=False)
    assert answer.startswith("Use it to search for text within the current note"), answer


def test_what_an_earlier_answer_gave_is_given_again_when_the_user_asks_for_it_again():
    """A video editor's "Grouping and ungrouping clips": "How do I group the audio and video of a
    clip?" was answered with the steps to group and to ungroup; then "How do I ungroup them
    again?" got "No matching instructions were found.": every step had been said. Asked again,
    the answer gives them again."""
    grouping = step_unit("Grouping and ungrouping clips", "To group clips:\n\n1. Select multiple clips in the "
                         "timeline.\n2. Click the **Group clips** button on the timeline toolbar, or press Ctrl+G.\n\n"
                         "To ungroup clips:\n\n1. Select a group of clips in the timeline.\n2. Click the **Ungroup "
                         "clips** button on the timeline toolbar, or press Ctrl+Shift+G.",
                         "help/selectiongrouping.page", "Selection and grouping")
    history = [("How do I group the audio and video of a clip?",
                "Click the Group clips button on the timeline toolbar, or press Ctrl+G.\nSelect multiple clips in "
                "the timeline.\nClick the Group clips button on the timeline toolbar, or press Ctrl+G.\nSelect a "
                "group of clips in the timeline.\nClick the Ungroup clips button on the timeline toolbar, or press "
                "Ctrl+Shift+G.")]

    answer, steps, _ = compose([Hit(grouping, 1.0, 1, "x")], Turn("How do I ungroup them again?", history), cite=False)

    assert "Click the Ungroup clips button on the timeline toolbar, or press Ctrl+Shift+G." in steps, steps
    assert answer != "No matching instructions were found.", answer
    # a step the conversation gave is still left out when there is something new to say
    more = step_unit("Ungroup one clip", "1. Right-click the clip and choose **Ungroup**.", "help/clip-menu.page",
                     "Clip menu")
    _, steps, _ = compose([Hit(grouping, 1.0, 1, "x"), Hit(more, 0.9, 2, "x")],
                          Turn("How do I ungroup them again?", history), cite=False)
    assert "Click the Ungroup clips button on the timeline toolbar, or press Ctrl+Shift+G." not in steps, steps


def test_the_section_that_answers_best_gives_its_steps_again_though_an_earlier_answer_gave_them():
    """An IRC client's help: the answer to "How do I connect to an IRC network?" ended with the
    steps to join a room; two turns later "How do I join a room there?" got the nickname
    password page's steps, the only ones not said yet. The section whose header is the question
    still answers best, so its steps come again."""
    join = step_unit("Join an IRC chat room", "1. Press **+** in the top-left corner.\n2. Enter the name of the "
                     "chat room you would like to join and press **Join**.", "help/irc-join-room.page",
                     "Join an IRC chat room")
    nick = step_unit("Use a nickname password on IRC", "On some IRC networks, you can register your nickname with "
                     "a service called NickServ.\n\n1. Type /msg NickServ identify username password in a room.\n"
                     "2. Press Enter.", "help/irc-nick-password.page", "Use a nickname password on IRC")
    history = [("How do I connect to an IRC network?", "Choose the IRC network and click on it.\nPress + in the "
                "top-left corner.\nEnter the name of the chat room you would like to join and press Join."),
               ("The network I want isn't in the list. What do I do?", "Click Custom Network and enter the Server "
                "Address.")]

    _, steps, _ = compose([Hit(join, 1.0, 1, "x"), Hit(nick, 0.9, 2, "x")],
                          Turn("How do I join a room there?", history), cite=False)

    assert steps[:2] == ["Press + in the top-left corner.",
                         "Enter the name of the chat room you would like to join and press Join."], steps


def test_a_follow_up_stays_with_the_product_the_conversation_is_about():
    """A folder of several applications' help: after two questions on notes, "How do I find it
    later?" was answered with the screen reader's "Orca Find", which shares "find" and nothing
    of the conversation. Another product's unit that shares no word with the conversation, and
    whose page or product the question does not name, scores half."""
    def meta(doc_id: str, title: str) -> dict:
        return {**unit_meta(doc_id, title), "corpus": "help", "manual": doc_id.rsplit("/", 1)[0]}

    bold = LogicUnit("Step", "", "Bold text", "1. Select the text of the note and press Ctrl+B.", [],
                     meta("help/gnote/editing.page", "Editing Notes"))
    search = LogicUnit("Step", "", "Search the notes", "1. Type words of the note in the search box of the main "
                       "window to find it.", [], meta("help/gnote/search.page", "Exploring Notes"))
    orca = LogicUnit("Step", "", "Orca Find", "1. Press KP Delete to find text and find the next match with "
                     "Orca Find.\n2. Type the text to find and press Return.", [], meta("help/orca/find.page", "Orca Find"))
    history = [("How do I make a new note?", "Press New in the main window."),
               ("How do I make the title bold?", "Select the text of the note and press Ctrl+B.")]
    memory = RankingMemory([bold, search, orca], ["help/gnote/editing.page"])

    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I find it later?", history=history))

    assert _plain(answer)[0].startswith("Type words of the note in the search box"), _plain(answer)
    # the question that names the other product is answered from it
    named = make_answerer("extractive", memory=memory).answer(
        AnswerRequest("How do I find text with Orca?", history=history))
    assert _plain(named)[0].startswith("Press KP Delete"), _plain(named)


def test_a_menu_reference_gives_the_entry_asked_not_the_others():
    """Zim's menu reference sets each item in bold over what it does, which reads as a step
    ("**Import Page**: Prompts for a file path …"): "How do I make a new page?" gets "New Page",
    not the whole menu."""
    body = ("**New Page <Ctrl><N>**: Prompt for a page name and create a new page.\n\n"
            "**Open Another Notebook <Ctrl><O>**: Prompt a list of known notebooks for opening another notebook.\n\n"
            "**Import Page**: Prompts for a file path for a text file to import into this notebook.\n\n"
            "**Open in New Window**: Open the current page in a separate window.\n\n"
            "**Save <Ctrl><S>**: Save the current page.\n")
    menu = step_unit("File", body, "Help/Menu_Items.txt", "Menu Items")
    answer, steps, _ = compose([Hit(menu, 1.0, 1, "x")], Turn("How do I make a new page?"), cite=False)
    assert steps == ["New Page <Ctrl><N>: Prompt for a page name and create a new page."]
    assert answer.startswith("New Page <Ctrl><N>: Prompt for a page name")


def test_a_menu_reference_that_names_no_entry_asked_gives_the_entries_that_say_most_of_it():
    """Zim's Tools menu: "My notebook index looks wrong, some pages are missing" names no entry
    whole; "Check and Update Index" says most of it, and the rest of the menu ("Move Selected
    Text", "Open Attachments Folder", …) is no sequence of steps to follow."""
    body = ("**Move Selected Text**: Opens a dialog which moves the selection to another page.\n\n"
            "**Check Spelling <F7>**: Turn on spell checking.\n\n"
            "**Open Attachments Folder**: Open the folder with attachments for the current page.\n\n"
            "**Check and Update Index**: Double-check the page index against the folder contents of the notebook.\n\n"
            "**Edit Source**: Open the current page in the external editor.\n")
    menu = step_unit("Tools", body, "Help/Menu_Items.txt", "Menu Items")
    _, steps, _ = compose([Hit(menu, 1.0, 1, "x")], Turn("My notebook index looks wrong, what do I do?"), cite=False)
    assert steps == ["Check and Update Index: Double-check the page index against the folder contents of the notebook."]


def test_a_follow_up_that_asks_for_what_an_earlier_answer_gave_in_passing_gets_it_again():
    """A notes application's export page: the first answer gave the command among the dialog's
    steps; "Can I do it from the command line instead?" asks for "Exporting from the
    commandline" (two words for its one), whose command is said again rather than the dialog's
    other options."""
    command = step_unit("Exporting from the commandline", "Try something like:\n\n```\n$ zim --export "
                        "--output=./html --format=html ~/Notes\n```\n", "Help/Export.txt", "Exporting", order=5)
    dialog = step_unit("Select the export format", "The **Format** allows the choice of the output format. "
                       "When you select \"Other...\" in the combo box you can browse for another template.",
                       "Help/Export.txt", "Exporting", order=3)
    first = ("How do I export my notes?", "When you select \"Other...\" in the combo box you can browse for another "
             "template.\nRun zim --export --output=./html --format=html ~/Notes")
    turn = Turn("Can I do it from the command line instead?", [first])
    _, steps, _ = compose([Hit(dialog, 1.0, 1, "x"), Hit(command, 0.9, 2, "x")], turn, cite=False)
    assert steps == ["Run zim --export --output=./html --format=html ~/Notes"]


def test_a_section_headed_by_the_opposite_action_is_no_answer():
    """A password manager's import and export page: "How to Import Data from RoboForm" says
    "export" in its first step (from RoboForm) and led "How can I export my database?"."""
    roboform = step_unit("How to Import Data from RoboForm (Import / Export)", "1. Export your logins from RoboForm "
                         "to a HTML file.\n2. In KeePass go File → Import and choose the HTML file.\n",
                         "base/importexport.html", "Import / Export", order=4)
    roboform.meta["section"] = "Import / Export > How to Import Data from RoboForm"
    export = step_unit("Saving to other formats (Import / Export)", "Go File → Export and choose a format for the "
                       "database.", "base/importexport.html", "Import / Export", order=2)
    export.meta["section"] = "Import / Export > Saving to other formats"
    answer, steps, _ = compose([Hit(roboform, 1.0, 1, "x"), Hit(export, 0.8, 2, "x")],
                               Turn("How can I export my database?"), cite=False)
    assert answer.startswith("Go File → Export") and steps == ["Go File → Export and choose a format for the database."]
    assert opposite_task(roboform, Turn("How can I export my database?"))  # its page is "Import / Export"
    assert not opposite_task(roboform, Turn("How do I import from RoboForm?"))


def test_restoring_is_no_answer_to_how_to_back_up():
    """Evolution's "Back up and restore" page: its "Restoring" section ranked above "Backing up"
    in both searches (its tip restores "Evolution data from a backup file"), and "How do I back
    up my Evolution data?" got the steps to restore; the question's verb is "back", a heading's
    word "backup"."""
    def section(header: str, body: str, order: int) -> LogicUnit:
        unit = step_unit(f"{header} (Back up and restore)", body, "evolution/backup-restore.page",
                         "Back up and restore", order=order)
        unit.meta["section"] = f"Back up and restore > {header}"
        return unit
    restoring = section("Restoring", "- Select **File** > **Restore Evolution Data…**.\n- Choose the file, and click "
                        "**Open**.\n\n> **Tip:** You can restore Evolution data from a backup file.", 2)
    backing_up = section("Backing up", "- Select **File** > **Back up Evolution Data…**.\n- Choose a filename and "
                         "the folder where you want to save the backup file, and click **Save**.", 1)
    backup_question = Turn("How do I back up my Evolution data?")
    assert opposite_task(restoring, backup_question) and not opposite_task(backing_up, backup_question)
    restore_question = Turn("How do I restore my Evolution data?")
    assert opposite_task(backing_up, restore_question) and not opposite_task(restoring, restore_question)

    _, steps, _ = compose([Hit(restoring, 1.0, 1, "x"), Hit(backing_up, 0.5, 2, "x")], backup_question, cite=False)
    assert steps[0] == "Select File > Back up Evolution Data….", steps


def test_a_sentence_that_only_restates_the_question_and_the_reverse_tasks_section_lead_nothing():
    """Evolution's help, for "How do I back up my Evolution data?": the page's opening "You can
    back up your Evolution data." led and was given as a step, and without it the first-run
    assistant's "Restore from backup" section led with "If you do not have a backup, go to the
    next page."; the backup section's first step leads now."""
    turn = Turn("How do I back up my Evolution data?")
    assert turn.restates("You can back up your Evolution data.")
    assert not turn.restates("Select File > Back up Evolution Data….")
    assert not turn.restates("Select File > Back up your Evolution data.")  # says what to do
    assert not Turn("How do I run my program under the checker?").restates("Run checker your-program.")
    page = "evolution/backup-restore.page"
    opening = step_unit("Back up and restore", "You can back up your Evolution data. The backup saves your settings, "
                        "mail, contacts, tasks, memos and calendars.", page, "Back up and restore", unit_type="Appendix")
    backing_up = step_unit("Backing up (Back up and restore)", "- Select **File** > **Back up Evolution Data…**.\n"
                           "- Choose a filename and the folder where you want to save the backup file, and click "
                           "**Save**.", page, "Back up and restore", order=1)
    first_run = step_unit("Restore from backup (Starting Evolution for the first time)", "You will be asked whether "
                          "to restore from a backup of a previous version. If you do not have a backup, go to the next "
                          "page.", "evolution/intro-first-run.page", "Starting Evolution for the first time", order=3)

    answer, steps, _ = compose([Hit(opening, 1.0, 1, "x"), Hit(backing_up, 0.9, 2, "x"), Hit(first_run, 0.9, 3, "x")],
                               turn, cite=False)

    assert answer.startswith("Select File > Back up Evolution Data…"), answer
    assert "You can back up your Evolution data." not in steps
    assert steps[0] == "Select File > Back up Evolution Data….", steps


def test_a_header_that_adds_what_the_question_creates_names_its_action():
    """Evolution's help: "How do I create an appointment?" was answered from "Editing an
    Appointment" (its steps say "appointment" more often), not from "Adding an Appointment",
    whose header names the same action by another verb."""
    editing = step_unit("Editing an Appointment", "1. Double-click on the appointment that you want to edit in the "
                        "calendar.\n2. Edit the appointment.\n3. Click the **Save** button.",
                        "evolution/calendar-editing-appointments.page", "Editing an Appointment")
    adding = step_unit("Adding an Appointment", "1. Click **File** > **New** > **Appointment**.\n2. Enter a brief "
                       "summary in the **Summary** field.", "evolution/calendar-usage-add-appointment.page",
                       "Adding an Appointment")
    turn = Turn("How do I create an appointment?")
    assert header_share({"creat", "appoint"}, {"add", "appoint"}, None, turn) == 1.0
    assert header_share({"creat", "appoint"}, {"edit", "appoint"}, None, turn) == 0.5

    _, steps, _ = compose([Hit(editing, 1.0, 1, "x"), Hit(adding, 0.8, 2, "x")], turn, cite=False)
    assert steps[0] == "Click File > New > Appointment.", steps


def test_a_header_that_adds_what_the_question_creates_says_the_question_s_verb():
    """The MATE guide: "How do I create a bookmark in the file manager?" was answered from
    "Create a folder (Working with Files)", whose header says "create" and "files", not from
    "Adding a Bookmark (Working with Files)", which names the same action by another verb but
    counted only "bookmark" and "files" of the question (its verb is rarer in the guide than
    "bookmark": weighted so, the folder's header said more of the question and both got the
    action's half more)."""
    turn = Turn("How do I create a bookmark in the file manager?")
    weight = {"creat": 1.2, "bookmark": 0.5, "file": 0.3, "manag": 1.0}
    asked = turn.question_terms
    folder = header_share(asked, set(terms("Create a folder (Working with Files)")), weight, turn)
    bookmark = header_share(asked, set(terms("Adding a Bookmark (Working with Files)")), weight, turn)
    assert folder == pytest.approx(1.0)
    assert bookmark == pytest.approx(1.0)  # "create" said as "add": 2.0 / 3 + 0.5, not 0.8 / 3 + 0.5
    assert header_share(asked, set(terms("Editing Bookmarks")), weight, turn) == pytest.approx(0.5 / 3)


def test_a_header_that_names_the_action_by_another_verb_names_what_it_is_done_to_too():
    """Evolution's "Assigned Tasks (Adding a Task)" adds a task: asked "How do I create a
    calendar?", it said "create" by "add" and got the action's half more, as much as "Adding
    another local calendar", and its File > New > Assigned Task answered. Another verb counts
    for the question's only with something else the question asks."""
    turn = Turn("How do I create a calendar?")
    weight = {"creat": 1.0, "calendar": 0.5}
    asked = turn.question_terms
    assert header_share(asked, set(terms("Assigned Tasks (Adding a Task)")), weight, turn) == 0.0
    assert header_share(asked, set(terms("Adding another local calendar")), weight, turn) == pytest.approx(1.0)
    # the question's own verb still names the action alone ("Create a folder" for a bookmark, above)
    assert header_share(asked, set(terms("Create a task")), weight, turn) == pytest.approx(1.0)  # min(1, 2 / 3 + 0.5)


def test_adding_a_thing_to_another_is_no_making_of_it():
    """A text that says "create" or "new" says the "create" of "How do I create a memo?" ("Click
    File > New > Memo"), and the "add" of "How do I add a new address book?"; but adding a disk to a
    volume group puts it there: the installer's "create a volume group" had come before the
    Handbook's vgextend for "How do I add a disk to an LVM volume group?"."""
    said = set(terms("Click File > New > Memo, or press Shift+Ctrl+O."))
    assert terms("create")[0] in with_same_action(said, Turn("How do I create a memo?"))
    installer = set(terms("Choose Create a volume group on the same configuration screen."))
    assert terms("add")[0] in with_same_action(set(terms("Click File > New > Address Book.")),
                                                Turn("How do I add a new address book?"))
    assert with_same_action(installer, Turn("How do I add a disk to an LVM volume group?")) == installer


def test_advice_to_do_what_is_asked_sets_the_scene_for_the_steps():
    """GNOME's "Change your password" opens with "It is a good idea to change your password from
    time to time, …": it says to do what the user asks how to do, not how, and answered "How do I
    change my password?" alone."""
    page = step_unit("Change your password", "It is a good idea to change your password from time to time, "
                     "especially if you think someone else knows your password.\n\n"
                     "1. Open the Activities overview and start typing **Users**.\n"
                     "2. Click the label **·····** next to **Password**.\n"
                     "3. Enter your current password, then a new password.\n4. Click **Change**.",
                     "gnome-help/user-changepassword.page", "Change your password")
    turn = Turn("How do I change my password?")
    answer, steps, _ = compose([Hit(page, 1.0, 1, "x")], turn, cite=False)
    assert not answer.startswith("It is a good idea"), answer
    assert "Password" in answer, answer
    assert steps[0].startswith("Open the Activities overview and start typing Users."), steps
    # advice to do something else still answers as the page's opening
    assert advises_asked("It is a good idea to change your password from time to time.", turn)
    assert not advises_asked("It is a good idea to choose a long passphrase.", turn)
    assert not advises_asked("Change your password from time to time.", turn)


def test_splitting_cells_is_no_answer_to_how_to_merge_them():
    """LibreOffice's "Merging and Splitting Cells" page: "To Split Cells" shares the question's
    "two cells" and "table" ("A dialog allows you to split the cell into two or more cells") and led
    "How do I merge two cells of a table in Writer?" with "Choose Table - Split Cells."."""
    split = step_unit("To Split Cells (Merging and Splitting Cells)", "1. Place the cursor in the cell to be split.\n"
                      "2. Choose Table - Split Cells. A dialog allows you to split the cell into two or more cells.\n",
                      "swriter/guide/table_cellmerge.html", "Merging and Splitting Cells", order=2)
    split.meta["section"] = "Merging and Splitting Cells > To Split Cells"
    merge = step_unit("To Merge Cells (Merging and Splitting Cells)", "1. Select the adjacent cells.\n"
                      "2. Choose Table - Merge Cells.\n", "swriter/guide/table_cellmerge.html",
                      "Merging and Splitting Cells", order=1)
    merge.meta["section"] = "Merging and Splitting Cells > To Merge Cells"
    turn = Turn("How do I merge two cells of a table in Writer?")
    answer, steps, _ = compose([Hit(split, 1.0, 1, "x"), Hit(merge, 0.9, 2, "x")], turn, cite=False)
    assert steps[:2] == ["Select the adjacent cells.", "Choose Table - Merge Cells."], steps
    assert "Split" not in answer, answer
    assert opposite_task(split, turn) and not opposite_task(merge, turn)
    assert opposite_task(merge, Turn("How do I ungroup the objects?")) is False
    for asked, heading in (("How do I group the shapes?", "Ungroup"), ("How do I unprotect the sheet?", "Protect"),
                           ("How do I insert a row?", "Delete Rows"), ("How do I create an index?", "Deleting an index"),
                           ("How do I unfreeze the panes?", "Freeze Rows")):
        unit = step_unit(heading, "1. Click it.", "help/x.html", "X")
        unit.meta["section"] = f"X > {heading}"
        assert opposite_task(unit, Turn(asked)), (asked, heading)



def test_an_entry_that_leads_says_why_in_its_own_words():
    """Zim's Tools menu: "Only available if the Spell Checker plugin is enabled." is said of
    "Check Spelling", and followed "Check and Update Index", which led the answer."""
    body = ("**Check Spelling <F7>**: Turn on spell checking. Only available if the Spell Checker plugin is "
            "enabled.\n\n**Check and Update Index**: Double-check the page index against the folder contents "
            "of the notebook.\n")
    menu = step_unit("Tools", body, "Help/Menu_Items.txt", "Menu Items")
    answer, _, _ = compose([Hit(menu, 1.0, 1, "x")], Turn("My notebook index looks wrong, what do I do?"), cite=False)
    assert answer == "Check and Update Index: Double-check the page index against the folder contents of the notebook."


YOGURT = ["bring the milk to 45°C", "pour the yogurt into the milk", "whisk well", "bring the milk to 45°C again",
          "rinse the thermos with boiling water", "pour the milk into the thermos",
          "leave the thermos in the oven for 12 hours", "pour the yogurt into the cheesecloth",
          "hang the cheesecloth for up to 4 hours", "store in the fridge"]


def test_a_sections_steps_given_by_its_procedure_and_its_logic_unit_keep_the_sections_order():
    # the procedure comes first on the page, but as a runner-up it gives the run of steps that
    # says most of the question ("how far ahead": the thermos's 12 hours); the logic unit of the
    # same section, the best unit, gives the rest: in the recipe's order, not the procedure's run first
    meta = {**unit_meta("recipes/greek-yogurt.md", "Greek Yogurt", order=1), "section": "Directions"}
    procedure = Procedure("", "Greek Yogurt", YOGURT, meta)
    logic_unit = LogicUnit("Step", "", "How to make Greek Yogurt", "".join(f"- {s}\n" for s in YOGURT), [],
                           {**meta, "order": 2})
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    chosen = [Candidate(Hit(logic_unit, 1.0, 1, "x"), retrieval=0.5, score=1.0, why=why),
              Candidate(Hit(procedure, 0.9, 2, "x"), retrieval=0.4, score=0.8, why=why)]
    turn = Turn("Can I make Greek yogurt at home, and how many hours ahead in the thermos do I start?")
    steps, used = compose_steps(chosen, turn, ExtractiveParams(cite=False), {c.unit.id: i for i, c in enumerate(chosen, 1)})
    assert set(used) == {procedure.id, logic_unit.id}
    assert steps == YOGURT


def test_the_way_to_a_panel_and_what_is_done_there_count_as_one_of_a_units_steps():
    # a runner-up gives 4 steps: with the way to its panel joined to the step done there, the
    # fourth action is in the answer, not cut off by the step that only opens the panel
    best = step_unit("Use other speakers or headphones",
                     "1. Plug the headset into any USB port.\n2. Select it as the output device.",
                     "help/sound-usespeakers.page", "Use other speakers or headphones")
    panel = ["Open the Activities overview and start typing Sound.", "Click on Sound to open the panel.",
             "In the Input section, select the headset's microphone.", "Speak and watch the input level.",
             "Adjust the input volume slider.", "Close the panel."]
    other = step_unit("Use a different microphone", "".join(f"{i}. {s}\n" for i, s in enumerate(panel, 1)),
                      "help/sound-usemic.page", "Use a different microphone")
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    chosen = [Candidate(Hit(best, 1.0, 1, "x"), retrieval=0.5, score=1.0, why=why),
              Candidate(Hit(other, 0.9, 2, "x"), retrieval=0.4, score=0.8, why=why)]
    turn = Turn("How do I make the headset and its microphone the defaults?")
    steps, _ = compose_steps(chosen, turn, ExtractiveParams(cite=False, other_unit_steps=4),
                             {c.unit.id: i for i, c in enumerate(chosen, 1)})
    assert steps[2:] == [" ".join(panel[:2]), *panel[2:5]]


def test_a_step_that_ends_a_kept_joined_step_is_not_given_again():
    # two pages open the same panel: the runner-up's way there is a duplicate of the best
    # unit's joined step, and its "Click on Settings." (three words) was kept on its own
    way = ["Open the Activities overview and start typing Settings.", "Click on Settings."]
    best = step_unit("Change your time zone", "".join(f"{i}. {s}\n" for i, s in enumerate(
        [*way, "Click Date & Time in the sidebar to open the panel.", "Click Time Zone."], 1)),
        "help/clock-timezone.page", "Change your time zone")
    other = step_unit("Change the date and time", "".join(f"{i}. {s}\n" for i, s in enumerate(
        [*way, "Switch Automatic Date & Time to off.", "Click Date & Time, then adjust the date."], 1)),
        "help/clock-set.page", "Change the date and time")
    why = {"text": 1.0, "header": 0.3, "context": 0.0}
    chosen = [Candidate(Hit(best, 1.0, 1, "x"), retrieval=0.5, score=1.0, why=why),
              Candidate(Hit(other, 0.9, 2, "x"), retrieval=0.4, score=0.8, why=why)]
    steps, _ = compose_steps(chosen, Turn("How do I set the time zone and the time myself?"),
                             ExtractiveParams(cite=False), {c.unit.id: i for i, c in enumerate(chosen, 1)})
    assert steps.count("Click on Settings.") == 0
    assert steps[0] == " ".join(way)
    assert "Switch Automatic Date & Time to off." in steps


def test_a_short_step_is_a_duplicate_of_the_sentence_a_kept_step_opens_or_ends_with():
    assert is_duplicate("Click on Settings.", ["Open the Activities overview and start typing Settings. Click on Settings."])
    assert is_duplicate("Click Create to continue.", ["Click Create to continue. Tip: Other Options set a password."])
    assert not is_duplicate("Click on Settings.", ["Click on Settings and choose Sound."])
    assert not is_duplicate("Click OK.", ["Select the disk. Click OK to format it."])


def test_a_why_that_needs_the_sentence_before_it_only_follows_that_sentence():
    """"However, this is expected because not every test of the analyzer passes." says why of
    the sentence before it in its page (that the test shows errors), not of the lead the answer
    chose: it is the plain answer's why only right after that sentence."""
    from procmem.answerers.candidates import Candidate
    from procmem.answerers.lead import plain_answer

    endpoint = step_unit("Check the endpoint", "Verify that the endpoint points to the gateway server. "
                         "Some checks of the analyzer can report errors. However, this is expected because "
                         "not every check of the analyzer must pass.", "help/endpoint.md", "Endpoint checks")
    chosen = [Candidate(Hit(endpoint, 1.0, 1, "hybrid"))]
    turn = Turn("How do I check that the endpoint points to the gateway?", [])

    lead = plain_answer(chosen, [], turn, unit_steps(endpoint))

    assert lead.startswith("Verify that the endpoint points to the gateway server."), lead
    assert "However" not in lead
    # right after the sentence it says why of, it is the why
    follows = step_unit("Check the endpoint", "Verify that the endpoint points to the gateway server. However, "
                        "this is expected because the endpoint is required for every check.",
                        "help/endpoint.md", "Endpoint checks")
    lead = plain_answer([Candidate(Hit(follows, 1.0, 1, "hybrid"))], [], turn, unit_steps(follows))
    assert lead.endswith("However, this is expected because the endpoint is required for every check."), lead


def test_a_sentence_about_a_table_the_answer_does_not_show_neither_leads_nor_says_why():
    """"The following table lists the expected behavior ..." speaks of a table the plain answer
    leaves out; "To do this, run ..." needs the sentence before it; a note's why loses its label."""
    from procmem.answerers.lead import plain_answer

    page = step_unit("Set the registry value", "Locate the Preferences registry subkey. The following table "
                     "lists the expected behavior based on the DelegateSentItemsStyle value and the "
                     "MessageCopyForSentAsEnabled value. To do this, run the following cmdlet: "
                     "Get-Mailbox -Identity User1. Tip: We recommend the summary script because it "
                     "processes the raw logs.", "help/registry.md", "Sent items")
    turn = Turn("How do I get the expected sent items behavior for the DelegateSentItemsStyle value?", [])

    answer = plain_answer([Candidate(Hit(page, 1.0, 1, "hybrid"))], [], turn, unit_steps(page))

    assert answer.startswith("Locate the Preferences registry subkey."), answer
    assert "following table" not in answer and "To do this" not in answer
    assert answer.endswith("We recommend the summary script because it processes the raw logs."), answer


def test_an_order_says_why_only_when_it_gives_its_reason():
    """"Make sure that both tests pass and that no actions are required." is one more thing to
    do, not why; "Lower the heat, because the sauce burns easily" says why."""
    from procmem.answerers.sentence_roles import says_why

    assert not says_why("Make sure that both tests pass and that no actions are required.")
    assert not says_why("Ensure that the pot does not run out of water and top up with more if required.")
    # past a note's label
    assert not says_why("Note: If the scenario requires an elevated Command Prompt window, select Start, enter cmd.")
    assert says_why("Lower the heat and keep stirring, because the sauce will burn easily.")
    assert says_why("This method should be used only temporarily.")
    # a statement, whatever its first word
    assert says_why("Speakers or headphones plugged into a TRS socket are usually used by default.")
    assert says_why("Note that it will thicken further once it cools, so don't boil for too long - "
                    "it is expected to be still a little runny.")
    # an example shows a case, not why
    assert not says_why("For example, if a workspace that has 10 desks is booked to 50 percent capacity, "
                        "only 5 desks are required.")
    # "means" says why as a verb, not as a way (a desktop guide's emblems, after changing a launcher's icon)
    assert says_why("This means that the setting is lost when you restart.")
    assert not says_why("Such emblems appear in addition to the file icon and provide another means to manage your files.")
    assert not says_why("It is sometimes convenient to provide or modify some content by means of files.")


@pytest.mark.parametrize(("conv_id", "left_out"), [
    ("dev-ods-009", "Tip:"),  # a note that says why, without its label
    ("dev-ods-026", "Note:"),
    ("dev-ods-012", "Make sure that both tests pass"),
])
def test_the_plain_answer_of_a_bundled_conversation_reads_on_its_own(corpus, conv_id, left_out):
    """Bundled conversations over their own documents: no note's label, and no sentence that is
    one more step where the answer says why."""
    conv = next(c for c in load_sample() if c.id == conv_id)
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    assert answer.answer != NOTHING_FOUND and left_out not in answer.answer, answer.answer


def test_of_two_steps_the_question_cannot_tell_apart_the_earlier_leads(corpus):
    """The words of "So how do I give it a fixed address that stays put?" name the address in the
    step that sets it and in the later one for a DNS server; the history's "server" alone no
    longer puts the later step first. A step that names more of the question still leads."""
    from procmem.answerers.lead import STEP_TIE, steps_in_order

    ip, dns = "Type in the IP Address and Gateway.", "Enter the IP address of a DNS server."
    place = {ip: (0, 2), dns: (0, 4), "Open Network.": (0, 0), "Elsewhere first.": (1, 0)}
    assert steps_in_order([dns, ip], {dns: 1.88, ip: 1.86}, place) == [ip, dns]
    assert steps_in_order([dns, ip], {dns: 1.88, ip: 1.88 - 2 * STEP_TIE}, place) == [dns, ip]
    assert steps_in_order([dns, "Elsewhere first."], {dns: 1.88, "Elsewhere first.": 1.88}, place) \
        == [dns, "Elsewhere first."]  # another unit's sentence is no earlier step
    # of two steps the question's words cannot tell apart, one that says it is for the asked action leads
    from procmem.answerers.sentence_roles import for_asked_action
    add = "Choose Add to Panel, then choose Log Out from the Add to Panel dialog."
    out = "To log out of your session, click on the Log Out button."
    assert for_asked_action(out, Turn("How do I log out?")) and not for_asked_action(add, Turn("How do I log out?"))
    # ... and says no more of it than the question, which names what the action is done to
    freeze = Turn("How do I freeze the top row so it stays visible when I scroll down?")
    assert not for_asked_action("To freeze both horizontally and vertically, select the cell below the row.", freeze)
    assert for_asked_action("To flip a layer, use the Flip Tool.", Turn("How do I flip a layer horizontally?"))
    place = {add: (0, 2), out: (0, 4)}
    assert steps_in_order([add, out], {add: 3.4, out: 3.4}, place, {}, frozenset({out})) == [out, add]
    assert steps_in_order([add, out], {add: 3.4, out: 3.4}, place) == [add, out]
    # a step that goes on from the action before it comes after it, however far apart their scores
    # (a live system's boot menu: the splash.svg to remove once the splash.png is added)
    add, remove = "Add a splash.png picture of 640x480 pixels.", "Then, remove the splash.svg file."
    place = {add: (0, 1), remove: (0, 2)}
    assert steps_in_order([remove, add], {remove: 1.9, add: 1.0}, place, {remove: add}) == [add, remove]
    # (though it leads nothing of its own, its wish unasked: it is in the pool of sentences alone)
    assert steps_in_order([remove], {remove: 1.9, add: 1.0}, place, {remove: add}) == [add, remove]
    said = "The splash.png picture is shown behind the menu."
    assert steps_in_order([remove], {remove: 1.9, said: 1.0}, place, {remove: said}) == [remove]  # no action
    conv = next(c for c in load_sample() if c.id == "dev-gnome-014")
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    assert answer.answer.startswith("Type in the IP Address and Gateway"), answer.answer


@pytest.mark.parametrize(("conv_id", "leads", "not_led_by"), [
    # "OK, she can send now. But everything she sends … ends up in her own Sent Items … Can I make
    # the copies go to the shared mailbox?": what it asks, not what she did, picks the method
    ("dev-ods-001", "set-mailbox", "HKEY_CURRENT_USER"),
    # "We want to keep the Exchange Online mailbox. How do I get rid of the on-premises one
    # without losing what's in it?": not the way that keeps the other one
    ("dev-ods-017", "on-premises mailbox", "Restore the Exchange Online mailbox"),
])
def test_the_plain_answer_follows_what_the_question_asks(corpus, conv_id, leads, not_led_by):
    conv = next(c for c in load_sample() if c.id == conv_id)
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    lead = answer.answer.split(". ")[0]
    assert leads in lead and not_led_by not in answer.answer, answer.answer


def test_a_wish_that_names_nothing_the_user_chose_leads_nothing(corpus):
    """A bundled conversation over its own documents: after "Fine, a standard account then.",
    "If you want the new user to have administrative access to the computer, select
    Administrator for the account type." does not lead; a wish that names the choice may."""
    from procmem.answerers.lead import plain_answer
    from procmem.answerers.sentence_roles import wish_not_asked

    conv = next(c for c in load_sample() if c.id == "dev-gnome-007")
    turn = Turn(conv.question, conv.history)
    page = step_unit("Add a new user account", "Press the + Add User... button under Other Users to add a new "
                     "user account. If you want the new user to have administrative access to the computer, "
                     "select Administrator for the account type. Enter the new user's full name.",
                     "gnome-help/user-add.page", "Add a new user account")
    answer = plain_answer([Candidate(Hit(page, 1.0, 1, "hybrid"))], [], turn, [])
    assert answer.startswith("Press the + Add User... button"), answer
    answer = make_answerer("extractive", cite=False).answer(
        AnswerRequest(conv.question, history=conv.history, documents=corpus.resolve(conv)))
    assert answer.answer != NOTHING_FOUND and "administrative access" not in answer.answer, answer.answer
    assert wish_not_asked("If you want the new user to have administrative access, select Administrator.", turn)
    assert not wish_not_asked("If you want a standard account, select Standard.", turn)
    assert not wish_not_asked("If you want administrative access, select Administrator.",
                              Turn("How do I create an account?", conv.history))


def test_what_a_section_says_after_its_numbered_steps_leads_no_answer_to_one_question():
    """LibreOffice's "Creating Pivot Tables" says after its steps "Drag a button to the Filters area
    to create a button and a listbox on top of the generated pivot table.", every word of "How do I
    create a pivot table?", and it led the answer; a question that asks two things may be answered
    by what follows the steps ("… the defaults, and check that they actually work?")."""
    from procmem.answerers.lead import after_numbered_steps, plain_answer

    body = ("1. Position the cursor within a range of cells containing values and headings.\n"
            "2. Choose Insert - Pivot Table. The Select Source dialog appears.\n"
            "   Choose Current selection and confirm with OK.\n"
            "3. Drag the desired buttons into one of the four areas.\n\n"
            "Drag a button to the Filters area to create a button and a listbox on top of the generated pivot "
            "table. The listbox can be used to filter the pivot table.")
    unit = step_unit("Creating Pivot Tables", body, "scalc/guide/datapilot_createtable.html", "Creating Pivot Tables")
    assert after_numbered_steps(unit) == [
        "Drag a button to the Filters area to create a button and a listbox on top of the generated pivot table.",
        "The listbox can be used to filter the pivot table."]
    candidate = [Candidate(Hit(unit, 1.0, 1, "hybrid"))]
    answer = plain_answer(candidate, [], Turn("How do I create a pivot table?"), unit_steps(unit))
    assert answer.startswith("Position the cursor within a range of cells"), answer
    both = plain_answer(candidate, [], Turn("How do I create a pivot table and filter it with a button?"),
                        unit_steps(unit))
    assert both.startswith("Drag a button to the Filters area"), both


def test_a_wish_to_do_another_task_than_the_one_asked_leads_nothing():
    """LibreOffice's page on freezing rows ends with "If you want to print a certain row on all
    pages of a document, choose Format - Print ranges - Edit.", which led the answer to "How do I
    freeze the top row so it stays visible when I scroll down?" (the page's prose, before its steps)."""
    from procmem.answerers.lead import plain_answer
    from procmem.answerers.sentence_roles import wish_not_asked

    turn = Turn("How do I freeze the top row so it stays visible when I scroll down?")
    other = "If you want to print a certain row on all pages of a document, choose Format - Print ranges - Edit."
    assert wish_not_asked(other, turn)
    # a wish for the asked task in its words, or for an option of it, or a question that names
    # no action of its own, may lead
    assert not wish_not_asked("If you want to freeze both rows and columns, select the cell below and to the "
                              "right of them.", turn)
    assert not wish_not_asked("If you want the rows to stay visible, choose View - Freeze Cells.", turn)
    assert not wish_not_asked(other, Turn("How do I make the top row stay visible?"))
    page = step_unit("Freezing Rows or Columns as Headers",
                     "If you have long rows of data, you can freeze some rows.\n\n1. Select the row below the "
                     "rows to freeze.\n2. Choose View - Freeze Rows and Columns.\n\n" + other,
                     "scalc/guide/line_fix.html", "Freezing Rows or Columns as Headers")
    answer = plain_answer([Candidate(Hit(page, 1.0, 1, "hybrid"))], [], turn, unit_steps(page))
    assert answer.startswith("Select the row below the rows to freeze"), answer


def test_asked_where_the_faq_entry_whose_answer_is_a_list_answers_with_its_items():
    """GNOME's screenshot page: "Where does it get saved?" after taking a screenshot scored its
    section "Where do they go?" (a list alone, no steps) at half, as if it asked for steps, and
    the answer led with the page's opening list ("Capture all or part of your screen …"); chosen,
    the section gave no answer of its own (no prose)."""
    from procmem.answerers.lead import section_answer
    where = LogicUnit("FAQ", "", "Where are they saved? (Screenshots and screencasts)",
                      "- A screenshot image is automatically saved in the `Pictures/Screenshots` folder in your home "
                      "folder.\n- The image is also saved in the clipboard.", [],
                      unit_meta("help/screen-shot-record.page", "Screenshots and screencasts", 2))
    opening = step_unit("Screenshots and screencasts", "You can:\n\n- Capture all or part of your screen as an "
                        "image\n- Save a video of your screen activity", "help/screen-shot-record.page",
                        "Screenshots and screencasts")
    assert section_answer(where).startswith("A screenshot image is automatically saved in the Pictures/Screenshots")
    history = [("How do I take a screenshot?", "Press the Print key.")]

    answer, _, _ = compose([Hit(where, 1.0, 1, "x"), Hit(opening, 0.9, 2, "x")],
                           Turn("Where does it get saved?", history), cite=False)

    assert answer.startswith("A screenshot image is automatically saved"), answer


def test_a_section_answer_gives_the_command_a_session_types_not_what_it_prints():
    """A section that opens by introducing a shell session answers with the command typed at
    the prompt, once: the MATE user guide's "run the following command:" over "$ dconf read …"
    and the value it prints had been answered "… command: dconf read …: $ dconf read …; '…png'"."""
    from procmem.answerers.lead import section_answer
    from procmem.units import LogicUnit

    body = ("To read a key with the `dconf` tool, run the following command:\n\n"
            "```\n$ dconf read /org/example/desktop/background/picture\n"
            "'/usr/share/backgrounds/stripes.png'\n```\n\n"
            "Synopsis:\n\n```\ndconf read KEY\n```\n")
    unit = LogicUnit("Appendix", "", "Reading a key from the command line", body, [],
                     {"doc_id": "settings.xml", "title": "Settings storage"})
    assert section_answer(unit) == ("To read a key with the dconf tool, run the following command: "
                                    "dconf read /org/example/desktop/background/picture")


def test_an_obligation_to_do_what_follows_is_no_reason():
    """"must" often says why ("The account must have a licence"), but "You must do the following:
    …" tells the user what to do next; as another FAQ entry's sentence it had been the "why"
    after Double Commander's "Simple and fast: you can use Ctrl+mouse wheel …"."""
    from procmem.answerers.sentence_roles import says_why

    assert not says_why("You must do the following: Configurations > Options... > Keys > Hot keys > "
                        "In the category \"Main\", set the Ctrl+A shortcut key for cm_MarkMarkAll.")
    assert says_why("The mailbox must be licensed before it can receive mail.")
    assert says_why("You must do this first, because the service locks the file.")


def test_only_says_a_limit_not_a_words_part():
    """"only" is the limit behind what to do ("Delegation works only if …"), not part of a
    word ("a new cloud-only mailbox", "read-only"), nor "not only … but also": dev-ods-017's answer
    gave "Another possible scenario is when … a new cloud-only mailbox is created …" as its why."""
    from procmem.answerers.sentence_roles import says_why

    assert not says_why("Another possible scenario is when an Exchange Online license is assigned prematurely, "
                        "and a new cloud-only mailbox is created while the user already has an existing mailbox.")
    assert not says_why("The file is read-only.")
    assert not says_why("This setting not only hides the panel, but also the dock.")
    assert says_why("Delegation works only if the client policy enables it.")
    assert says_why("The diagnostic is the only supported way to fix this issue.")


def test_expected_says_what_is_meant_to_happen_not_the_symptom():
    """"This behavior is expected" says why; "users don't receive alert notifications as
    expected" restates the symptom (dev-ods-022's answer gave it as its why), and "the expected
    name" names a thing."""
    from procmem.answerers.sentence_roles import says_why

    assert not says_why("In a Microsoft 365 environment, users don't receive SharePoint Online alert "
                        "notifications as expected.")
    assert not says_why("The sync takes longer than expected.")
    assert says_why("This behavior is expected.")
    assert says_why("It will thicken once it cools; it is expected to be still a little runny at the end.")


def test_a_statement_that_gives_a_reason_says_why():
    """A statement says why by its reason alone ("…, so that the expected name is available for the
    new folder", which InsCoQA's answer for dev-ods-023 gives), as an order does; a disclaimer's
    "implied or otherwise" gives none."""
    from procmem.answerers.sentence_roles import says_why

    assert says_why("Before you sync the library to a new folder, you may want to rename the old one, "
                    "so that the expected name is available for the new folder.")
    assert says_why("When you leave your computer, you should lock the screen to prevent other people from "
                    "using your desktop.")
    assert not says_why("Microsoft makes no warranty, implied or otherwise, about the performance or "
                        "reliability of these products.")
    assert not says_why("Select the folder and press Delete.")


def test_the_row_of_a_dialogs_table_that_says_what_is_asked_answers():
    """The MATE user guide describes a panel's properties dialog in a table of its elements; "How
    do I make the panel hide automatically?" led with the sentence above the table ("In the General
    tab, you can modify panel size, position, and hiding properties.") and now with the one row
    that says every word asked; a question no one row says gets none."""
    panel = step_unit("General Properties Tab", "In the General tab, you can modify panel size, position, and "
                      "hiding properties. The following table describes the dialog elements:\n\n"
                      "| Dialog Element | Description |\n|---|---|\n"
                      "| Orientation | Select the position of the panel on your screen. |\n"
                      "| Size | Use the spin box to specify the size of the panel. |\n"
                      "| Autohide | Select this option if you want the panel to only be fully visible when the "
                      "mouse pointer is over it. The panel hides off-screen along its longest edge. |\n"
                      "| Show hide buttons | Select this option to display hide buttons at each end of your "
                      "panel. |\n", "mate-user-guide/gospanel.xml", "Using the Panels")
    answer, steps, _ = compose([Hit(panel, 1.0, 1, "x")], Turn("How do I make the panel hide automatically?"),
                               cite=False)
    assert answer.startswith("Autohide: Select this option if you want the panel to only be fully visible"), answer
    assert steps[0].startswith("Autohide: ")
    answer, _, _ = compose([Hit(panel, 1.0, 1, "x")], Turn("How do I show the hide buttons on a panel?"), cite=False)
    assert answer.startswith("Show hide buttons: Select this option to display hide buttons"), answer
    answer, _, _ = compose([Hit(panel, 1.0, 1, "x")], Turn("How do I change the panel?"), cite=False)
    assert not answer.startswith(("Orientation", "Size", "Autohide", "Show hide buttons", "Dialog Element")), answer


def test_another_products_unit_that_names_nothing_the_question_points_back_to_counts_half():
    """Gnumeric's manual beside the GNOME help: "How do I remove it again?" after adding a
    comment to a cell found the address book's "Remove a contact" first; its page's title says
    the "add" of the question before (a third of what the conversation asked: no little share),
    but it names nothing of the comment the question points back to, and another product's page
    counts half."""
    turn = Turn("How do I remove it again?", [("How do I add a comment to a cell?", "Select the cell, choose "
                                               "Comment... from the Insert menu and type the comment.")])
    assert turn.referent_terms == {"comment", "cell"}

    def scored(unit, elsewhere):
        cand = Candidate(Hit(unit, 1.0, 1, "x"))
        cand.elsewhere = elsewhere
        return score(cand, turn, 1.0), cand.why["context"]

    contact = step_unit("Remove a contact (Add or remove a contact)", "To remove a contact:\n\n1. Select the "
                        "contact from your contact list.\n2. Press Delete to remove the contact.\n",
                        "gnome-help/contacts-add-remove.page", "Add or remove a contact")
    (away, context), (near, _) = scored(contact, True), scored(contact, False)
    assert context >= 0.2 and away == pytest.approx(near / 2)
    # ... unless it names what the question points back to
    comments = step_unit("Remove a comment", "Select the cell and choose Delete Comment.\n", "other/comments.page",
                         "Comments")
    assert scored(comments, True)[0] == scored(comments, False)[0]


def test_another_products_unit_counts_half_in_a_follow_up_though_it_shares_the_conversations_words():
    """The desktop's help beside the office suite's articles: "I forgot my old one. What now?"
    after changing a password on the desktop found the office suite's "Forgot password to sign
    in to Microsoft 365" first, whose words ("password", "change") are the conversation's; it
    counts half as any other product's unit the question does not name. A unit of the
    conversation's own product counts in full."""
    turn = Turn("I forgot my old one. What now?", [("How do I change my password?", "Click the label next to "
                                                     "Password, enter your current password, then a new one.")])
    forgot = step_unit("Resolve: Forgot password", "If you forgot your password, ask your administrator to reset "
                       "your password, or change it with the self-service password reset.\n",
                       "officedocs/Microsoft365/admin/sign-in/forgot-sign-in-password.md",
                       "Forgot password to sign in to Microsoft 365")
    cand = Candidate(Hit(forgot, 1.0, 1, "x"))
    near = score(cand, turn, 1.0)
    assert cand.why["context"] == 1.0  # all the conversation's words
    cand.elsewhere = True
    assert score(cand, turn, 1.0) == pytest.approx(near / 2)
    # ... unless the question names its page
    named = Turn("I forgot my password to sign in to Microsoft 365. What now?", turn.history)
    cand.elsewhere = False
    near = score(cand, named, 1.0)
    cand.elsewhere = True
    assert score(cand, named, 1.0) == pytest.approx(near)


def test_another_units_action_that_names_nothing_asked_does_not_lead_before_the_best_units_steps():
    """The MATE user guide's "Locking Your Screen", split in two parts: "How do I lock the screen?"
    led with the second part's "Move the mouse or press any key and then click Leave Message."
    (the first part's prose says what locking does and how to unlock) though the first part's
    list says to choose System → Lock Screen."""
    title = "Desktop Sessions"
    lock = step_unit("Locking Your Screen (part 1 of 2)", "Locking your screen prevents access to your "
                     "applications and information, allowing you to leave your computer unattended.\n\nTo lock the "
                     "screen, perform one of the following actions:\n\n- Choose System → Lock Screen.\n- If the "
                     "Lock Screen button is present on a panel, click on the Lock Screen button.\n\nTo unlock "
                     "the screen, move your mouse or press any key, enter your password in the locked screen "
                     "dialog, then press Return.", "guide/sessions.xml", title)
    message = step_unit("Locking Your Screen (part 2 of 2)", "You can leave a message for a user who has "
                        "locked their screen. Move the mouse or press any key and then click Leave Message. Type "
                        "your message into the box and press Save.", "guide/sessions.xml", title, order=1)

    answer, steps, _ = compose([Hit(lock, 1.0, 1, "x"), Hit(message, 0.6, 2, "x")],
                               Turn("How do I lock the screen?"), cite=False)

    assert steps[0] == "Choose System → Lock Screen."
    assert answer.startswith("Choose System → Lock Screen"), answer
    assert "Leave Message" not in answer
    # the list holds ways to choose among, not steps to follow after the first
    assert "then follow the steps below" not in answer


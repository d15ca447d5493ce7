"""Rule-based extraction on real bundled documents of each corpus."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from inscoqa.bundled import sample_documents
from inscoqa.corpus import read_document
from inscoqa.corpus.document import Document
from procmem.answerers.steps import unit_steps
from procmem.extract.deterministic import extract_rules
from procmem.extract.linkers import resolve_link
from procmem.extract.markdown import code_line, is_session, one_line, parse_sections, typed_commands
from procmem.extract.roles import heading_role, is_question

MALLARD = "{http://projectmallard.org/1.0/}"


def numbered_items(text: str, heading: str) -> list[str]:
    """The top-level numbered items under a ``## heading`` of the Markdown text."""
    section = text.split(f"## {heading}", 1)[1]
    section = re.split(r"\n## ", section, maxsplit=1)[0]
    return re.findall(r"^\d+\. (.*)$", section, re.M)


def test_recipe_ingredients_are_the_input_and_directions_the_steps(corpus):
    doc = corpus.get("based-cooking/lasagna.md")
    extraction = extract_rules(doc)
    main = extraction.procedures[0]
    assert main.output == doc.title
    ingredients = re.findall(r"^- (.*)$", doc.text.split("## Ingredients", 1)[1].split("## Directions")[0], re.M)
    for item in ingredients:
        assert one_line(item) in main.input
    # the lines themselves, for an answer's amounts ("1 medium onion, finely chopped" is one line)
    assert main.meta["ingredients"] == [one_line(item) for item in ingredients]
    assert main.steps == [one_line(i) for i in numbered_items(doc.text, "Directions")]
    step_unit = next(u for u in extraction.logic_units if u.type == "Step")
    assert step_unit.header == f"How to make {doc.title}"
    assert step_unit.prerequisite.startswith("Ingredients: ")
    assert "1. Prepare the bolognese" in step_unit.body
    assert step_unit.meta["ingredients"] == main.meta["ingredients"]
    # the ingredient list links to the sauce recipes: CROSS linkers to those documents
    ingredients_unit = next(u for u in extraction.logic_units if u.header.startswith("Ingredients for"))
    targets = {link.target for link in ingredients_unit.linker if link.tag == "CROSS"}
    assert "based-cooking/bolognese-sauce.md" in targets
    assert all(t in corpus for t in targets)
    assert extraction.structured
    # a recipe's part names its recipe: "Let it sit" alone says nothing
    parts = extract_rules(corpus.get("based-cooking/butter-based-biscuit.md")).procedures
    assert "Let it sit (Butter-based biscuit and cookies)" in [p.output for p in parts]


def test_office_article_resolution_steps_and_if_that_does_not_work_branch(corpus):
    doc = corpus.get("officedocs/Microsoft365/admin/active-directory/restore-deleted-user-accounts.md")
    extraction = extract_rules(doc)
    by_output = {p.output: p for p in extraction.procedures}
    # a section's goal names its page, as its Step units' headers do
    manual = by_output["Recover a user account that was deleted manually (How to restore deleted user "
                       "accounts in Microsoft 365, Azure, and Intune)"]
    assert manual.steps[0].startswith("Use the Microsoft 365 portal to recover the user account")
    assert "Applies to: Microsoft 365" in manual.input
    powershell = next(u for u in extraction.logic_units if "Use the Azure Active Directory module" in u.header)
    branch = next(link for link in powershell.linker if "doesn't work" in link.condition)
    assert branch.condition == "this command doesn't work"
    assert branch.tag == "CONTINUE"
    assert "Restore-MsolUser -UserPrincipalName" in branch.next
    # the alternative resolutions are chained: if one does not resolve the problem, the next one
    first_resolution = next(u for u in extraction.logic_units if "Use the Microsoft 365 portal" in u.header)
    assert any(link.condition == "this does not resolve the problem" and link.target == powershell.header
               for link in first_resolution.linker)
    # escalation: "contact Microsoft 365 Support"
    assert any(link.tag == "MITIGATE" and "contact Microsoft 365 Support" in link.next
               for u in extraction.logic_units for link in u.linker)
    types = {u.header.split(" (")[0]: u.type for u in extraction.logic_units}
    assert types["More information"] == "Appendix"
    assert any(u.type == "FAQ" and u.body.startswith("A user account that was accidentally deleted")
               for u in extraction.logic_units)


def test_office_methods_chain_and_symptoms_cause_sections(corpus):
    doc = corpus.get("officedocs/SharePoint/OneDrive/sync/sign-into-onedrive-error-0x8004def7.md")
    extraction = extract_rules(doc)
    steps = [u for u in extraction.logic_units if u.type == "Step"]
    bullets = re.findall(r"^- (.*)$", doc.text.split("## Resolution", 1)[1], re.M)
    assert len(steps) == len(bullets)
    for unit, following in zip(steps, steps[1:], strict=False):
        assert any(link.tag == "CONTINUE" and link.target == following.header for link in unit.linker)
    assert extraction.procedures[0].output == f"Resolve: {doc.title}"
    faq = [u for u in extraction.logic_units if u.type == "FAQ"]
    assert [u.body.split()[0] for u in faq] == ["When", "This"]  # Symptoms, then Cause
    assert all("Problem: When you try to sign in" in u.prerequisite for u in steps)


def test_otherwise_wording_gives_a_continue_linker(corpus):
    doc = corpus.get(
        "officedocs/SharePoint/SharePointHybrid/search/online-content-not-displayed-in-on-premises-search.md")
    steps = [u for u in extract_rules(doc).logic_units if u.type == "Step"]
    link = next(link for unit in steps for link in unit.linker if "step 5" in link.next)
    assert (link.condition, link.tag) == ("the issue is not resolved", "CONTINUE")


def test_gnome_steps_page(corpus):
    doc = corpus.get("gnome-help/printing-2sided.page")
    root = ET.parse(corpus.path(doc.doc_id)).getroot()
    steps_xml = root.find(f".//{MALLARD}steps")
    items = [" ".join("".join(item.itertext()).split()[:4]) for item in steps_xml.findall(f"{MALLARD}item")]
    procedure = extract_rules(doc).procedures[0]
    # from "To print on both sides ...:", with its page
    assert procedure.output == "Print on both sides of each sheet of paper (Print two-sided and multi-page layouts)"
    assert len(procedure.steps) == len(items)
    for step, item in zip(procedure.steps, items, strict=True):
        assert step.startswith(item)


def test_gnome_links_become_cross_linkers_to_real_pages(corpus):
    doc = corpus.get("gnome-help/shell-apps-open.page")
    extraction = extract_rules(doc)
    assert not extraction.structured  # bullets of alternatives, no steps: a case for LLM extraction
    cross = [link for u in extraction.logic_units for link in u.linker if link.tag == "CROSS"]
    assert {"gnome-help/shell-apps-favorites.page", "gnome-help/shell-workspaces.page"} <= {c.target for c in cross}
    assert all(c.target in corpus for c in cross)


def test_every_sample_document_extracts_with_complete_metadata():
    docs = sample_documents()
    structured = 0
    for doc in docs:
        extraction = extract_rules(doc)
        structured += extraction.structured
        ids = [u.id for u in extraction.units]
        assert len(ids) == len(set(ids)), doc.doc_id
        for unit in extraction.units:
            assert unit.meta["doc_id"] == doc.doc_id
            assert unit.meta["content_hash"] == doc.content_hash
            assert unit.meta["title"] == doc.title
        for unit in extraction.logic_units:
            assert unit.header.strip() and unit.body.strip(), doc.doc_id
        for procedure in extraction.procedures:
            assert procedure.output and procedure.steps and all(procedure.steps), doc.doc_id
        if doc.meta.get("format") == "recipe":
            assert extraction.structured, doc.doc_id
    assert structured > len(docs) / 2


def test_parser_keeps_nested_items_and_code_inside_their_step(corpus):
    doc = corpus.get(
        "officedocs/SharePoint/SharePointHybrid/search/online-content-not-displayed-in-on-premises-search.md")
    solution = next(s for s in parse_sections(doc.text) if s.heading == "Solution")
    numbered = next(b for b in solution.blocks if b.kind == "list" and b.ordered)
    assert len(numbered.items) == len(numbered_items(doc.text, "Solution"))
    assert "```powershell" in numbered.items[0].text
    assert "`$ssa=Get-SPEnterpriseSearchServiceApplication`" in one_line(numbered.items[0].text)


def test_nested_items_stay_apart_in_their_steps_one_line(corpus):
    doc = corpus.get("officedocs/Exchange/ExchangeOnline/calendars/"
                     "resource-doesnt-respond-to-meeting-requests-when-using-booking.md")
    steps = [s for p in extract_rules(doc).procedures for s in p.steps]
    # "3. Delete the following two files:" with the sub-items "Local Data" and "Sniffer"
    assert "Delete the following two files: Local Data; Sniffer" in steps
    assert one_line("Do this.\n   - first\n   - second") == "Do this. first; second"


def test_an_items_words_and_the_code_under_it_read_as_one_line():
    """Cargo's examples: "Add `regex` as a dependency" with the command under it."""
    assert one_line("Add `regex` as a dependency\n   ```\n   cargo add regex\n   ```") == \
        "Add `regex` as a dependency: `cargo add regex`"
    assert one_line("Run this cmdlet:\n   ```powershell\n   Get-Mailbox\n   ```") == "Run this cmdlet: `Get-Mailbox`"
    # a command alone, with what to know about it under it (Cargo's alternate registries)
    assert one_line("`cargo login --registry=my-registry`\n   This only needs to be done once.") == \
        "Run `cargo login --registry=my-registry`. This only needs to be done once."
    assert one_line("`cargo publish --registry=my-registry`") == "`cargo publish --registry=my-registry`"


def test_a_code_blocks_lines_join_where_its_statements_end():
    """A configuration's statement that goes on over lines stays one statement (rsyslog, BIND)."""
    assert code_line(['action(type="omfwd" target="10.0.0.1"', '       port="514" protocol="tcp")']) == \
        'action(type="omfwd" target="10.0.0.1" port="514" protocol="tcp")'
    assert code_line(['options {', '    dnssec-validation auto;', '};']) == "options { dnssec-validation auto; };"
    assert code_line(['if $msg contains "error" then {', '  action(type="omfile" file="/var/log/err")', '}']) == \
        'if $msg contains "error" then { action(type="omfile" file="/var/log/err") }'
    # separate commands, typed at a prompt or not, and a shell's continued line
    assert code_line(["cd build", "make"]) == "cd build; make"
    assert code_line(["$ sudo apt update", "$ sudo apt install bind9"]) == "sudo apt update; sudo apt install bind9"
    assert code_line(["tsig-keygen \\", "  host1-host2."]) == "tsig-keygen host1-host2."
    assert one_line("Add the zone:\n   ```\n   zone \"example.com\" {\n     type primary;\n   };\n   ```") == \
        'Add the zone: `zone "example.com" { type primary; };`'
    # a here-document typed without the shell's "> " is typed too, up to its end word
    assert code_line(["$ cat >>~/.bashrc <<EOF", 'DEBEMAIL="you@example.org"', "export DEBEMAIL", "EOF",
                      "$ . ~/.bashrc"]) == 'cat >>~/.bashrc <<EOF; DEBEMAIL="you@example.org"; export DEBEMAIL; EOF; . ~/.bashrc'
    # the numbers a page set before a listing's lines are no part of it
    assert code_line(["1  gentoo (0.9.12-1) UNRELEASED; urgency=low", "2", "3   * Initial Release."]) == \
        "gentoo (0.9.12-1) UNRELEASED; urgency=low; * Initial Release."
    # ... with alternatives numbered "6a", "6b" (Postfix's backup MX example), but not numbers out of order
    assert code_line(["1 /etc/postfix/main.cf:", "2     relay_domains = example.tld", "3a    # newer:",
                      "4a    smtpd_relay_restrictions = reject", "3b    # older:", "4b    smtpd_recipient_restrictions = reject",
                      "5     relay_recipient_maps = hash:/etc/postfix/relay_recipients"]) == \
        ("/etc/postfix/main.cf:; relay_domains = example.tld; # newer:; smtpd_relay_restrictions = reject; # older:; "
         "smtpd_recipient_restrictions = reject; relay_recipient_maps = hash:/etc/postfix/relay_recipients")
    assert code_line(["2019 spring", "2020 summer", "2021 autumn"]) == "2019 spring; 2020 summer; 2021 autumn"


@pytest.mark.parametrize(("doc_id", "target", "expected"), [
    ("gnome-help/shell-apps-open.page", "shell-workspaces", ("document", "gnome-help/shell-workspaces.page")),
    ("gnome-help/printing.page", "printing#paper", ("document", "gnome-help/printing.page")),
    ("officedocs/Exchange/ExchangeOnline/a/b.md", "../c/d.md", ("document", "officedocs/Exchange/ExchangeOnline/c/d.md")),
    ("based-cooking/lasagna.md", "/bolognese-sauce", ("document", "based-cooking/bolognese-sauce.md")),
    ("officedocs/x/y.md", "https://answers.microsoft.com/", ("external", "https://answers.microsoft.com/")),
    ("officedocs/x/y.md", "#cause", ("anchor", "cause")),
])
def test_resolve_link(doc_id, target, expected):
    assert resolve_link(doc_id, target) == expected


def test_sections_that_name_a_task_or_introduce_a_command_are_step_units(corpus):
    # no list in them, but each says what to do: "To disable POP3 ..., run the following cmdlet:"
    doc = corpus.get("officedocs/Exchange/ExchangeOnline/user-and-shared-mailboxes/"
                     "pop3-imap-owa-activesync-office-365.md")
    types = {u.header.split(" (")[0]: u.type for u in extract_rules(doc).logic_units}
    assert types["Enable or disable POP3 for an Exchange Online mailbox"] == "Step"
    assert types["Enable or disable Outlook on the web for an Exchange Online mailbox"] == "Step"
    # a section that only informs stays an Appendix, commands or not
    doc = corpus.get("officedocs/Exchange/ExchangeOnline/user-and-shared-mailboxes/sent-mail-is-not-saved.md")
    types = {u.header.split(" (")[0]: u.type for u in extract_rules(doc).logic_units}
    assert types["More information"] == "Appendix"


def test_a_list_of_further_articles_is_neither_steps_nor_alternatives(corpus):
    # "For more information, see the following articles:" and two links, in a Resolution section
    # whose later text offers "the following options": the links are what to read, and the
    # section's unit says what to do, the workaround's cmdlet included
    doc = corpus.get("officedocs/Exchange/ExchangeHybrid/send-emails/"
                     "delegate-cannot-send-on-behalf-of-after-migration.md")
    out = extract_rules(doc)
    steps = [s for p in out.procedures for s in p.steps]
    assert "Exchange hybrid writeback" not in steps
    assert "Microsoft Entra Connect Version 1.1.553.0" not in steps
    resolution = [u for u in out.logic_units if u.meta["section"].endswith("Resolution")]
    assert len(resolution) == 1 and resolution[0].type == "Step"
    assert "Set-MailUser UserSMTPAddress -GrantSendOnBehalfTo DelegateSMTPAddress" in resolution[0].body
    # a GNOME overview's sections that only point to other pages are no Step units any more
    doc = corpus.get("gnome-help/shell-introduction.page")
    types = {u.header.split(" (")[0]: u.type for u in extract_rules(doc).logic_units}
    assert types["System menu"] == "Appendix"


def test_a_heading_that_asks_without_its_question_mark_is_a_faq_unit(corpus, tmp_path):
    doc = corpus.get("officedocs/Exchange/ExchangeHybrid/administration/rpc-over-http-end-of-support.md")
    types = {u.header.split(" (")[0]: u.type for u in extract_rules(doc).logic_units}
    assert types["How can I identify which users in my organization are connecting through RPC over HTTP"] == "FAQ"
    assert types["Does this end of support affect Outlook for Mac, Outlook for iOS and Android, Outlook for "
                 "Windows 10 Mobile, or Outlook on the web"] == "FAQ"
    page = tmp_path / "passport.txt"
    page.write_text("Renewing your passport\n\nCan I travel while my application is being processed\n"
                    "No. Your old passport is cancelled when you send it, so wait for the new one.\n",
                    encoding="utf-8")
    units = extract_rules(read_document(page)).logic_units
    assert [(u.type, u.header) for u in units] == [
        ("FAQ", "Can I travel while my application is being processed (Renewing your passport)")]


@pytest.mark.parametrize(("heading", "asks"), [
    ("Can Cargo be used inside of `make` (or `ninja`, or …)", True),
    ("Is the library configured to be available offline", True),
    ("Does the message appear in message tracking", True),
    ("Do not delete the folder", False),
    ("Can't connect to the server", False),
    ("May 2024 update", False),
    ("Issues with sync", False),
    ("Install the tool", False),
    # an FAQ's entry with its number, and what the asker saw after the question (NUT's FAQ)
    ("23. Why doesn’t upsmon shut down my system? I pulled the plug and nothing happened.", True),
    ("9.4. How can I keep a log of the packages I added? I'd like to know when upgrades occurred!", True),
    ("2.5. Installing from a CD-ROM", False),
])
def test_an_inverted_question_about_anything_asks(heading, asks):
    assert is_question(heading) is asks


def test_sections_under_a_table_of_contents_heading_are_the_page_not_its_contents(tmp_path):
    """npm's HTML pages put every section under the site's "Table of contents" heading (the list
    of links is the site's, and is left out): the sections are the page's text, not a table of
    contents, and give logic units (but the synopsis, see below); a table of contents of its own
    gives none."""
    page = tmp_path / "npm-uninstall.html"
    page.write_text(
        "<html><head><title>npm-uninstall</title></head><body><h1>npm-uninstall</h1>"
        "<p>Remove a package</p><h2>Table of contents</h2>"
        "<h3>Synopsis</h3><pre><code>npm uninstall [&lt;@scope&gt;/]&lt;pkg&gt;...\n\naliases: remove, rm\n</code></pre>"
        "<h3>Description</h3><p>This uninstalls a package, completely removing everything npm installed "
        "on its behalf. It also removes the package from the dependencies of your package.json.</p>"
        "<h3>Examples</h3><pre><code>npm uninstall sax\n</code></pre><p>The sax package will no longer "
        "be in your package.json or package-lock.json files.</p></body></html>", encoding="utf-8")
    headers = [u.header for u in extract_rules(read_document(page)).logic_units]
    assert headers == ["Description (npm-uninstall)", "Examples (npm-uninstall)"]
    toc = tmp_path / "guide.md"
    toc.write_text("# Guide\n\n## Contents\n\n- [Install](#install)\n- [Use](#use)\n- [Remove](#remove)\n\n"
                   "## Install\n\nRun the installer and follow the prompts on the screen until it is done.\n",
                   encoding="utf-8")
    assert [u.header for u in extract_rules(read_document(toc)).logic_units] == ["Install (Guide)"]


def test_a_heading_that_labels_a_part_of_a_topic_carries_the_topic(tmp_path):
    """Apache's rewrite guides give each recipe "Description:", "Solution:" and "Discussion:"
    sections: each unit's header names its recipe, not only the page; a page's own "Resolution"
    under its title stays as before."""
    page = tmp_path / "remapping.md"
    page.write_text(
        "# Redirecting and Remapping\n\n## Forcing HTTPS\n\n### Description:\n\nYou want all HTTP requests to be "
        "redirected to HTTPS.\n\n### Solution:\n\n1. Add `RewriteEngine On` to the server configuration.\n"
        "2. Add a rule that redirects every request to its HTTPS address.\n\n## Canonical Hostnames\n\n"
        "### Description:\n\nYou want one hostname for the site, whatever name a request uses.\n", encoding="utf-8")
    extraction = extract_rules(read_document(page))
    assert [u.header for u in extraction.logic_units] == [
        "Forcing HTTPS: Description (Redirecting and Remapping)",
        "Resolve: Forcing HTTPS (Redirecting and Remapping)",
        "Canonical Hostnames: Description (Redirecting and Remapping)"]
    article = tmp_path / "article.md"
    article.write_text("# Mail is stuck in the outbox\n\n## Resolution\n\n1. Restart Outlook.\n2. Send the mail again.\n",
                       encoding="utf-8")
    assert [p.output for p in extract_rules(read_document(article)).procedures] == [
        "Resolve: Mail is stuck in the outbox"]


def test_a_screen_at_roots_prompt_gives_its_commands_as_steps(tmp_path):
    """End to end: the steps of a section whose screen shows root's prompt are the commands,
    without the prompt and without what they print."""
    path = tmp_path / "cd.html"
    path.write_text(
        "<h1>Writing a CD</h1><h2>Burning</h2><ol><li><p>Find a usable device by the following.</p>"
        "<pre class='screen'># wodim --devices\nwodim: Overview of accessible drives (1 found) :</pre></li>"
        "<li><p>Write the image by the following.</p><pre class='screen'># wodim -v -eject dev=/dev/hda cd.iso"
        "</pre></li></ol>", encoding="utf-8")
    steps = [step for procedure in extract_rules(read_document(path)).procedures for step in procedure.steps]
    assert steps == ["Find a usable device by the following. `wodim --devices`",
                     "Write the image by the following. `wodim -v -eject dev=/dev/hda cd.iso`"]


def test_a_command_at_roots_prompt_that_prints_a_sentence_is_typed_and_a_comment_is_not():
    """Icinga's untyped blocks: "# icinga2 feature enable graphite", then what it prints
    ("Enabling feature graphite. Make sure to restart Icinga 2 …"): a session, whose command is
    the step; a file's comment over its settings stays the file's."""
    session = ["# icinga2 feature enable graphite", "Enabling feature graphite. Make sure to restart Icinga 2 "
               "for these changes to take effect."]
    assert is_session(session) and typed_commands(session) == ["icinga2 feature enable graphite"]
    config = ["# enable the feature", "feature = on", "This file is read at start."]
    assert not is_session(config)


def test_a_page_of_several_top_level_sections_names_each_but_not_its_title_twice():
    """SQLite's pages set each numbered section as <h1>, after the page's own <h1> title."""
    text = ("# Write-Ahead Logging\n\n# 1. Overview\n\nWAL is faster:\n\n- readers do not block writers\n"
            "- fewer fsync() calls\n\n# 3. Activating WAL Mode\n\nThen:\n\n"
            "1. Open the database.\n2. Run PRAGMA journal_mode=WAL.\n")
    doc = Document(doc_id="sqlite/wal.html", title="Write-Ahead Logging", text=text, meta={})
    headers = [u.header for u in extract_rules(doc).logic_units]
    assert "1. Overview (Write-Ahead Logging)" in headers
    assert any(h.startswith("3. Activating WAL Mode") for h in headers)
    assert not any(h.startswith("Write-Ahead Logging (Write-Ahead Logging)") for h in headers)


def test_a_list_of_conditions_makes_no_procedure():
    text = ("# Resolver\n\n## Forwarding Resolver\n\nThe resolver does not forward any recursive query "
            "for which:\n\n1. The answer is already in the cache.\n2. The domain name is localhost.\n\n"
            "All other queries go to the forwarders.\n\n## Reload\n\nTo apply a change to the zone:\n\n"
            "1. Edit the zone file.\n2. Run `rndc reload`.\n")
    extraction = extract_rules(Document(doc_id="arm/resolver.html", title="Resolver", text=text, meta={}))
    assert [p.steps for p in extraction.procedures] == [["Edit the zone file.", "Run `rndc reload`."]]


def test_a_manuals_licence_appendix_gives_no_units_and_a_topic_about_licences_does(tmp_path):
    """GNU manuals end with the Free Documentation License, whose numbered clauses ("0. PREAMBLE
    …", "1. APPLICABILITY AND DEFINITIONS …") read as a procedure and answered "How do I define a
    function?". A section whose whole heading names the licence, and the sections under it, give
    no units; a section about licences ("License types") is a topic and gives its unit."""
    page = tmp_path / "manual.md"
    page.write_text(
        "# Shell Manual\n\n## Defining Functions\n\nTo define a function, write its name, a pair of "
        "parentheses and a compound command in braces.\n\n## License types\n\nA volume licence covers "
        "every machine of one organisation; a retail licence covers one machine.\n\n"
        "## License Notice\n\n1. You may redistribute this document.\n2. You may modify it under the GPL.\n\n"
        "## Appendix C GNU Free Documentation License\n\n1. PREAMBLE The purpose of this License is to "
        "make a manual free in the sense of freedom.\n2. VERBATIM COPYING You may copy and distribute "
        "the Document in any medium, provided that this License is reproduced.\n\n"
        "### ADDENDUM: How to use this License for your documents\n\nTo use this License in a document "
        "you have written, include a copy of the License in the document.\n", encoding="utf-8")
    extraction = extract_rules(read_document(page))
    assert extraction.procedures == []
    assert [u.header for u in extraction.logic_units] == ["Defining Functions (Shell Manual)",
                                                           "License types (Shell Manual)"]


def test_a_release_history_gives_no_units_and_upgrade_notes_do(tmp_path):
    """A software's change log lists what each release changed ("fix examples using borg init
    without -e", "add the --remote-ratelimit option"): its items read as steps and answered "How
    can I limit the bandwidth?". A section headed by a release ("Version 1.2.4 (2023-03-24)",
    "v9.0.0 (2023-01-16)") or naming the history ("Change Log", "Release notes"), and the sections
    under it, give no units; a note on upgrading gives its unit."""
    page = tmp_path / "changes.md"
    page.write_text(
        "# Important notes\n\n## Pre-1.0.4 potential repo corruption\n\nIf you used an older release, "
        "run `borg check --repair` on every repository after upgrading to this release.\n\n"
        "# Change Log\n\n## Version 1.2.4 (2023-03-24)\n\nFixes:\n\n- fix examples using borg init "
        "without an encryption mode\n- add the --remote-ratelimit option to the docs\n\n"
        "### New features\n\n- make the internals page an index page and edit it a bit\n\n"
        "## v9.0.0 (2023-01-16)\n\n1. Remove the deprecated option from every command.\n"
        "2. Add support for the new storage driver in the daemon.\n\n"
        "## 2.1.0 (May 2020)\n\nThe release adds a new cache format that every client reads.\n", encoding="utf-8")
    extraction = extract_rules(read_document(page))
    assert extraction.procedures == []
    assert [u.header for u in extraction.logic_units] == ["Pre-1.0.4 potential repo corruption (Important notes)"]
    assert [heading_role(h) for h in ("Release Notes", "Version 1.2.0a2 and earlier (2019-02-24)",
                                      "Upgrading to version 2", "Changes to the configuration")] \
        == ["changes", "changes", "other", "other"]


def test_a_manual_pages_synopsis_gives_no_units(tmp_path):
    """A manual page's SYNOPSIS lists the forms of its command ("git send-email [<options>]
    <file|directory>…"): read as steps, they answered "How do I tell git my name and email?"
    with "Run git send-email [<options>] …". It gives no units; its description does."""
    page = tmp_path / "git-send-email.html"
    page.write_text(
        "<html><head><title>git-send-email(1)</title></head><body><h1>git-send-email(1) Manual Page</h1>"
        "<h2>SYNOPSIS</h2><pre><em>git send-email</em> [&lt;options&gt;] &lt;file|directory&gt;&#8230;\n"
        "<em>git send-email</em> [&lt;options&gt;] &lt;format-patch options&gt;\n"
        "<em>git send-email</em> --dump-aliases</pre>"
        "<h2>DESCRIPTION</h2><p>Takes the patches given on the command line and emails them out. "
        "Patches can be specified as files, directories, or directly as a revision list.</p>"
        "</body></html>", encoding="utf-8")
    extraction = extract_rules(read_document(page))
    assert [u.header.split(" (")[0] for u in extraction.logic_units] == ["DESCRIPTION"]
    assert extraction.procedures == []
    assert [heading_role(h) for h in ("SYNOPSIS", "Synopsis of the options")] == ["synopsis", "other"]


def test_an_faq_pages_entry_that_states_the_problem_is_an_faq_unit(tmp_path):
    """Borg's FAQ heads some entries with the problem as the user states it ("My machine goes to
    sleep causing Broken pipe", "/path/to/repo is not a valid repository. Check repo config."):
    they are FAQ units like its questions; a topic's heading there ("Migrating from Attic") and
    such a heading on another page are not."""
    faq = tmp_path / "faq.md"
    faq.write_text(
        "# Frequently asked questions\n\n## My machine goes to sleep causing Broken pipe\n\nWhen backing up "
        "over the network, your machine should not go to sleep. On macOS use caffeinate.\n\n"
        "## /path/to/repo is not a valid repository. Check repo config.\n\nThere can be many causes of this "
        "error, such as a wrongly specified repository path.\n\n## Migrating from Attic\n\nBorg reads the "
        "repositories that Attic wrote once they are upgraded.\n\n## OK, now I know what it is... what is "
        "Linux?!\n\nLinux is the kernel that the whole system runs on, with its drivers.\n", encoding="utf-8")
    types = {u.header: u.type for u in extract_rules(read_document(faq)).logic_units}
    title = "Frequently asked questions"
    assert types[f"My machine goes to sleep causing Broken pipe ({title})"] == "FAQ"
    assert types[f"/path/to/repo is not a valid repository. Check repo config. ({title})"] == "FAQ"
    assert types[f"OK, now I know what it is... what is Linux?! ({title})"] == "FAQ"
    assert types[f"Migrating from Attic ({title})"] != "FAQ"
    guide = tmp_path / "guide.md"
    guide.write_text("# Network guide\n\n## My machine goes to sleep causing Broken pipe\n\nWhen backing up over "
                     "the network, your machine should not go to sleep. On macOS use caffeinate.\n", encoding="utf-8")
    assert [u.type for u in extract_rules(read_document(guide)).logic_units] != ["FAQ"]


def test_a_wish_the_user_may_have_is_no_prerequisite():
    """KDE's Send Later agent: "If you need to send a weekly reminder …, you can configure it to
    repeat" was the section's prerequisite, at the head of what its unit embeds, and so was Zim's
    "there is hardly any need to explicitly save them"; a condition that must hold is one ("Your
    account must be online ...")."""
    text = ("# Send Later\n\n## Using the agent\n\nUse Message → Send Later in the composer window to schedule "
            "your email.\n\nIf you need to send a weekly reminder, you can configure it to repeat by checking "
            "Repeat every.\n\n1. Check the Delay box.\n2. Select the date and time.\n")
    units = extract_rules(Document(doc_id="kmail/later.docbook", title="Send Later", text=text, meta={})).logic_units
    using = [u for u in units if u.header.startswith("Using the agent")]
    assert using and not any("weekly reminder" in u.prerequisite for u in using)
    needless = text.replace("If you need to send", "Pages are saved as you type, so there is hardly any need to "
                            "save them. If you need to send")
    units = extract_rules(Document(doc_id="kmail/later.docbook", title="Send Later", text=needless, meta={})).logic_units
    assert not any("need to save" in u.prerequisite for u in units)
    asking = text.replace("If you need to send", "The dialog asks for a date before you can schedule the "
                          "email. If you need to send")
    units = extract_rules(Document(doc_id="kmail/later.docbook", title="Send Later", text=asking, meta={})).logic_units
    assert not any("asks for a date" in u.prerequisite for u in units)
    required = text.replace("\n\n1. Check", "\n\nYour outgoing account must be online at that time.\n\n1. Check")
    units = extract_rules(Document(doc_id="kmail/later.docbook", title="Send Later", text=required, meta={})).logic_units
    assert next(u for u in units if "1. Check the Delay box" in u.body).prerequisite == \
        "Your outgoing account must be online at that time"


def test_the_text_before_a_sections_numbered_list_is_a_unit_when_it_says_more_than_a_preface():
    """A manual page's description gives the command's options, then a numbered list of how a
    wrong message gets removed: the options were in no logic unit, only the list's part was.
    A sentence before the list only prefaces it and opens the list's unit ("Be sure to read the
    note at the end of step 3."); it was left out of every unit."""
    options = ("The queueadm command does maintenance jobs on the mail queue. Only the superuser may run it.\n\n"
               "`-d queue_id`: Remove one message with the named queue ID. Specify \"-d ALL deferred\" to remove "
               "all mail in the deferred queue.\n\n`-h queue_id`: Put one message on hold, so that no attempt is "
               "made to deliver it.")
    listed = ("This is how a wrong message gets removed:\n\n1. The queue manager removes the message.\n"
              "2. New mail arrives with the same queue ID.\n3. queueadm removes the new message instead.\n")
    text = f"# queueadm - mail queue maintenance\n\n## DESCRIPTION\n\n{options}\n\n{listed}"
    units = extract_rules(Document(doc_id="man/queueadm.1", title="queueadm - mail queue maintenance",
                                   text=text, meta={})).logic_units
    assert [u.body for u in units] == [options, listed.strip()]
    assert all(u.header.startswith("DESCRIPTION") for u in units)
    preface = "Be sure to read the note at the end of step 3."
    text = f"# queueadm - mail queue maintenance\n\n## DESCRIPTION\n\n{preface}\n\n{listed}"
    units = extract_rules(Document(doc_id="man/queueadm.1", title="queueadm - mail queue maintenance",
                                   text=text, meta={})).logic_units
    assert [u.body for u in units] == [f"{preface}\n\n{listed.strip()}"]


def test_who_may_do_a_sections_steps_said_in_its_opening_note_is_what_must_hold_first():
    """Office's "Solution 1" opens with a note of who may do it, then the steps: the note's
    sentence is what must hold first for the steps (the procedure's input, the unit's
    prerequisite); the note stays a unit of its own, as any text of its length before a list."""
    note = ("> **Important:**\n> You have to be an Exchange Online admin, an Exchange admin, or a member of the "
            "\"Security Group Creation and Membership\" role in the Exchange admin center to perform this procedure.")
    listed = "1. Connect to Exchange Online PowerShell.\n2. Run `Remove-DistributionGroup <Name> -BypassSecurityGroupManagerCheck`.\n"
    text = f"# Can't remove a group\n\n## Solution 1: Use Exchange Online PowerShell\n\n{note}\n\n{listed}"
    extraction = extract_rules(Document(doc_id="help/group.md", title="Can't remove a group", text=text, meta={}))
    who = ("You have to be an Exchange Online admin, an Exchange admin, or a member of the \"Security Group Creation "
           "and Membership\" role in the Exchange admin center to perform this procedure")
    assert [p.input for p in extraction.procedures] == [who]
    assert [u.body for u in extraction.logic_units] == [note, listed.strip()]
    assert extraction.logic_units[1].prerequisite == who
    # a note that says otherwise names no one
    other = text.replace(note, "> **Note:** Follow the steps in this section carefully.")
    assert [p.input for p in extract_rules(Document(doc_id="help/group.md", title="Can't remove a group",
                                                    text=other, meta={})).procedures] == [""]


def test_the_errors_a_section_fixes_open_its_steps_unit_and_stay_out_of_its_steps():
    """The errors a section's checks fix are listed before the checks' lead-in: the message a
    user quotes ("5.7.57 Client not authenticated to send mail") was in no unit of the page."""
    text = ("# Fix issues with printers\n\n## Error: Authentication unsuccessful\n\n"
            "If you receive one of the following errors:\n\n- 535 5.7.3 Authentication unsuccessful\n"
            "- 5.7.57 Client not authenticated to send mail\n\nThere are a few things you should check:\n\n"
            "1. Verify that SMTP AUTH is enabled on the mailbox.\n2. Disable multifactor authentication "
            "on the mailbox.\n")
    out = extract_rules(Document(doc_id="exo/printers.md", title="Fix issues with printers", text=text, meta={}))
    (unit,) = out.logic_units
    assert unit.body.startswith("If you receive one of the following errors:")
    assert "5.7.57 Client not authenticated to send mail" in unit.body
    assert unit.body.endswith("2. Disable multifactor authentication on the mailbox.")
    (procedure,) = out.procedures
    assert procedure.steps == ["Verify that SMTP AUTH is enabled on the mailbox.",
                               "Disable multifactor authentication on the mailbox."]


CALLOUT_EXAMPLE = """# git-reset(1)

## Undo a commit and redo

```
$ git commit ...
$ git reset --soft HEAD^      <1>
$ edit                        <2>
$ git commit -a -c ORIG_HEAD  <3>
```

1. This is most often done when you remembered what you just committed is incomplete.
2. Make corrections to working tree files.
3. Redo the commit by starting with its log message.

## Open and save

```
[core]
    autocrlf = true  # (1)
```

1. Open the file.
2. Save it.
"""


def test_a_code_blocks_callouts_go_with_the_items_that_explain_them():
    """Git's manual pages show an example's commands with callouts (``<1>``), then a numbered list
    that says what each does: each step carries its own commands (a line without a callout, the
    example's first commit, goes with the next that has one)."""
    extraction = extract_rules(Document(doc_id="git/git-reset.html", title="git-reset(1)", text=CALLOUT_EXAMPLE,
                                        meta={}))
    redo = next(p for p in extraction.procedures if p.output.startswith("Undo a commit and redo"))
    assert redo.steps == [
        "This is most often done when you remembered what you just committed is incomplete. "
        "`git commit ...; git reset --soft HEAD^`",
        "Make corrections to working tree files. `edit`",
        "Redo the commit by starting with its log message. `git commit -a -c ORIG_HEAD`"]
    step_unit = next(u for u in extraction.logic_units if u.header.startswith("Undo a commit and redo"))
    assert "<1>" not in step_unit.body and "   $ git reset --soft HEAD^" in step_unit.body
    assert unit_steps(step_unit)[2] == "Redo the commit by starting with its log message. git commit -a -c ORIG_HEAD"
    # callouts that are not exactly the list's numbers: the block and the list stay as they are
    other = next(p for p in extraction.procedures if p.output.startswith("Open and save"))
    assert other.steps == ["Open the file.", "Save it."]
    kept = parse_sections(CALLOUT_EXAMPLE)[-1].blocks
    assert [b.kind for b in kept] == ["code", "list"] and "autocrlf = true  # (1)" in kept[0].text


def test_an_asciidoc_pages_callouts_reach_the_steps_through_the_html_reader(tmp_path):
    """The same example as git's HTML manual page writes it (a listing whose callouts are bold
    ``&lt;1&gt;``, then a "colist" ordered list), read by the HTML reader."""
    page = tmp_path / "git-reset.html"
    page.write_text(
        "<html><head><title>git-reset(1)</title></head><body><h1>git-reset(1) Manual Page</h1>"
        "<h2>EXAMPLES</h2><div class='dlist'><dl><dt class='hdlist1'>Undo a commit and redo</dt><dd>"
        "<div class='listingblock'><div class='content'><pre><code>$ git commit ...\n"
        "$ git reset --soft HEAD^      <b>&lt;1&gt;</b>\n$ edit                        <b>&lt;2&gt;</b>\n"
        "$ git commit -a -c ORIG_HEAD  <b>&lt;3&gt;</b></code></pre></div></div>"
        "<div class='colist arabic'><ol><li><p>This is most often done when you remembered what you\n"
        "    just committed is incomplete.</p></li><li><p>Make corrections to working tree files.</p></li>"
        "<li><p>Redo the commit by starting with its log message.</p></li></ol></div></dd></dl></div>"
        "</body></html>", encoding="utf-8")
    steps = [s for p in extract_rules(read_document(page)).procedures for s in p.steps]
    assert "This is most often done when you remembered what you just committed is incomplete. " \
           "`git commit ...; git reset --soft HEAD^`" in steps
    assert "Redo the commit by starting with its log message. `git commit -a -c ORIG_HEAD`" in steps


def test_a_short_section_with_a_command_or_a_whole_sentence_is_a_unit():
    """A command's reference page is short: its description is one sentence and its example one
    command, each under its heading; both are units (the example is what "How do I rename a
    container?" asks for). A short section that only points to what follows is none."""
    text = ("# rename\n\n```\nUsage:  tool rename CONTAINER NEW_NAME\n\nRename a container\n```\n\n"
            "## Description\n\nThe `tool rename` command renames a container.\n\n"
            "## Examples\n\n```console\n$ tool rename my_box my_new_box\n```\n\n"
            "## Solution\n\nUse the desktop client to move archived items.\n\n"
            "## Resolution\n\nTo resolve this issue, follow these steps.\n\n"
            "## Status\n\nThis is by design.\n")
    units = extract_rules(Document(doc_id="cli/rename.md", title="rename", text=text, meta={})).logic_units
    bodies = {unit.meta["section"].split(" > ")[-1]: unit.body for unit in units}
    assert bodies["Description"] == "The `tool rename` command renames a container."
    assert "$ tool rename my_box my_new_box" in bodies["Examples"]
    assert bodies["Solution"] == "Use the desktop client to move archived items."
    assert "Resolution" not in bodies and "Status" not in bodies


def test_a_lead_in_without_its_comma_names_the_goal_without_the_steps_it_points_to():
    """KeePassXC's "To setup an entry for auto open perform the following steps:" named the
    procedure "Setup an entry for auto open perform the following steps"."""
    doc = Document("guide.html", "User Guide", "# User Guide\n\n## Automatic Database Opening\n\nTo setup an entry "
                   "for auto open perform the following steps:\n\n1. Create a new entry and give it any title.\n"
                   "2. Enter the path to the database file in the URL field.\n")

    [procedure] = extract_rules(doc).procedures

    assert procedure.output.startswith("Setup an entry for auto open (")


def test_a_sentence_inside_a_list_item_is_no_requirement_of_the_section_unless_the_list_is_what_it_requires():
    """Déjà Dup's preferences: a list of settings, and "make sure you have enough free disk
    space" in one setting's text holds for that setting, not for the whole section (it was the
    prerequisite of every part of it); the items that "you need the following:" leads to are the
    section's requirement."""
    doc = Document("prefs.page", "Preferences", "# Preferences\n\n## Settings\n\nTo review your backup "
                   "preferences, open the menu and select **Preferences**.\n\n"
                   "- **Storage location**: Where the copies go. Note that backups can be large, so make sure "
                   "you have enough free disk space.\n"
                   "- **Folders to Ignore**: Choose folders to leave out of your backup.\n\n"
                   "## Remove an alias\n\nBefore you can do this procedure, you need the following:\n\n"
                   "- The name of the group\n- The address that you want to remove\n\n"
                   "Open the group's settings and delete the address from its aliases.\n")

    units = {u.header.split(" (")[0]: u for u in extract_rules(doc).logic_units}

    assert "disk space" not in units["Settings"].prerequisite
    assert "disk space" in units["Settings"].body  # the setting's text keeps it
    assert "The name of the group" in units["Remove an alias"].prerequisite


def test_the_requirement_a_section_states_is_whole_sentences_of_its_prose():
    """KeePassXC's "Quick Unlock": "If you are using a hardware key (e.g. Yubikey), it must be
    connected to your computer …" gave the prerequisite "Yubikey), it must be connected …", cut
    after "e.g."; a sentence that ends in code ("… with `{% load %}`. You must …") was cut inside it."""
    doc = Document("guide.html", "User Guide", "# User Guide\n\n## Quick Unlock\n\nOn Windows and macOS your "
                   "credentials can be stored to unlock the database with your fingerprint. If you are using a "
                   "hardware key (e.g. Yubikey), it must be connected to your computer to complete the unlock.\n\n"
                   "## Template tags\n\nLoad the library with the `{% load humanize %}` tag. You must add the app "
                   "to your settings before the tag is found by the templates.\n")

    units = {u.header.split(" (")[0]: u for u in extract_rules(doc).logic_units}

    assert units["Quick Unlock"].prerequisite.startswith("If you are using a hardware key (e.g. Yubikey), it must")
    assert units["Template tags"].prerequisite.startswith("You must add the app")


def test_a_glossarys_sections_define_their_headings_words(tmp_path):
    """A finance program's help has a "Lexicon" page whose sections each say what one word
    means ("Balances", with a list of the four balances): definitions (Terminology units whose
    header is the word), which a question how to do something ranks after the steps (it asked
    how to tick transactions off against a statement and got the list of balances first). The
    page's opening and a section that names a task stay what they were; a heading that asks is
    an FAQ entry; a page with another title keeps such sections as steps or background."""
    text = ("# Lexicon\n\nThis page says what the words of the program mean.\n\n"
            "## Balances\n\nThe program shows four balances for every account:\n\n"
            "- Bank: what the bank has recorded\n- Today: everything up to today\n"
            "- Future: everything, including what is scheduled\n\n"
            "## Reconciled\n\nA transaction is reconciled once you have checked it against your "
            "statement; the program locks it against changes.\n\n"
            "## Change the currency\n\nOpen the preferences and choose another currency in the list "
            "of currencies on the first tab.\n\n"
            "## Why is my balance wrong?\n\nA transaction may be missing, or one may be entered twice; "
            "filter by status to find it.\n")
    page = tmp_path / "lexicon.md"
    page.write_text(text, encoding="utf-8")
    units = {u.header: u.type for u in extract_rules(read_document(page)).logic_units}
    assert units["Balances"] == units["Reconciled"] == "Terminology"
    assert units["Lexicon"] != "Terminology"
    assert next(t for h, t in units.items() if h.startswith("Change the currency")) == "Step"
    assert next(t for h, t in units.items() if h.startswith("Why is my balance wrong")) == "FAQ"
    other = tmp_path / "accounts.md"
    other.write_text(text.replace("# Lexicon", "# Accounts"), encoding="utf-8")
    assert "Terminology" not in {u.type for u in extract_rules(read_document(other)).logic_units}


def test_a_page_that_is_the_manuals_licence_gives_no_units(tmp_path):
    """A mail reader's manual ends with a page titled "…: GNU Free Documentation License" whose
    numbered sections sit side by side ("4. COPYING IN QUANTITY"): none of its text is help ("If
    you publish printed copies …" answered how to make copies of one's backups). A page about
    the licences a program can choose from is help and keeps its units."""
    licence = ("# Mail Reader Manual: GNU Free Documentation License\n\n"
               "## 1. PREAMBLE\n\nThe purpose of this License is to make a manual free in the sense of "
               "freedom: to assure everyone the effective freedom to copy and redistribute it.\n\n"
               "## 4. COPYING IN QUANTITY\n\nIf you publish printed copies of the Document numbering more "
               "than 100, you must enclose the copies in covers that carry all these Cover Texts.\n")
    page = tmp_path / "licence.md"
    page.write_text(licence, encoding="utf-8")
    assert extract_rules(read_document(page)).logic_units == []
    topic = tmp_path / "licences.md"
    topic.write_text(licence.replace("GNU Free Documentation License", "Choosing a licence for your project"),
                     encoding="utf-8")
    assert extract_rules(read_document(topic)).logic_units


def test_a_page_split_off_its_chapter_heads_its_units_with_its_title_once(tmp_path):
    # GnuCash's guide, as DocBook's stylesheets split it: the page's title names its chapter
    # ("7.4. Entering Payments (Credit Cards)") and its own heading repeats the title without it
    path = tmp_path / "cc-enterpay.html"
    path.write_text(
        '<html><head><title>7.4. Entering Payments</title><link rel="home" href="index.html">'
        '<link rel="up" href="chapter_cc.html" title="Chapter 7. Credit Cards"></head><body>'
        '<h2 class="title">7.4. Entering Payments</h2>'
        '<p>Most payments to a credit card are transfers from a bank account to the card.</p>'
        '<ol><li>Open the credit card account.</li><li>Enter the amount paid in Payment.</li></ol>'
        '</body></html>', encoding="utf-8")
    extraction = extract_rules(read_document(path))
    goals = [p.output for p in extraction.procedures] + [u.header for u in extraction.logic_units]
    assert goals and all(goal == "7.4. Entering Payments (Credit Cards)" for goal in goals), goals

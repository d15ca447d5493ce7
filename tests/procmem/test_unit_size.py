"""Logic units of a useful size, and FAQ units from the Debian FAQ's questions (no model needed)."""

from __future__ import annotations

import re
from dataclasses import replace

from inscoqa.corpus.document import Document
from procmem.chunking import n_words
from procmem.extract.deterministic import extract_rules
from procmem.extract.split import LEAD_WORDS, PART_DONE, split_logic_unit, split_logic_units
from procmem.units import Linker, LogicUnit, indexed_text


def long_step_unit(steps: int = 40) -> LogicUnit:
    body = "To reset the router, do the following:\n\n" + "\n".join(
        f"{i}. Press the button number {i} and hold it for five seconds until the light blinks."
        + ("\n   > Note: the light may blink twice." if i % 5 == 0 else "")
        for i in range(1, steps + 1))
    return LogicUnit("Step", "Applies to: routers", "Reset the router (Router guide)", body,
                     linker=[Linker("it still fails", "contact support", "MITIGATE")],
                     meta={"doc_id": "guide/router.md", "title": "Router guide"})


def test_a_long_unit_splits_at_step_boundaries_into_linked_parts():
    unit = long_step_unit()
    parts = split_logic_unit(unit, 200)
    assert len(parts) > 2
    assert all(n_words(p.body) <= 200 for p in parts)
    assert "\n\n".join(p.body for p in parts).split() == unit.body.split()  # nothing lost, nothing added
    for part in parts[1:]:
        assert re.match(r"^\d+\. Press", part.body)  # every part starts at a step
        assert "> Note" not in part.body.split("\n")[0]
    # a step's note stays with its step
    assert any("5. Press" in p.body and "blink twice" in p.body for p in parts)
    n = len(parts)
    assert [p.header for p in parts] == [f"{unit.header} (part {i} of {n})" for i in range(1, n + 1)]
    for part, following in zip(parts, parts[1:], strict=False):
        assert [(link.tag, link.condition, link.target) for link in part.linker] == [
            ("CONTINUE", PART_DONE, following.header)]
    assert parts[-1].linker == unit.linker  # the unit's own way on comes after its last part
    assert all(p.type == "Step" and p.prerequisite == unit.prerequisite for p in parts)
    assert len({p.id for p in parts}) == n and all(p.meta["split_from"] == unit.id for p in parts)


def test_short_units_and_a_zero_limit_are_left_whole():
    unit = long_step_unit(steps=3)
    assert split_logic_unit(unit, 200) == [unit]
    assert split_logic_unit(long_step_unit(), 0)[0].body == long_step_unit().body


def test_paragraphs_split_before_sentences():
    paragraph = " ".join(["This sentence has exactly eight words in it."] * 10)  # 80 words
    unit = LogicUnit("Appendix", "", "About", "\n\n".join([paragraph] * 5), meta={"doc_id": "d"})
    parts = split_logic_unit(unit, 200)
    assert [n_words(p.body) for p in parts] == [160, 160, 80]


def test_a_long_paragraph_cut_into_sentences_or_words_keeps_them_on_one_line():
    """Pieces cut at a finer separator are packed back with that separator's joiner: the
    sentences of a long paragraph with spaces, not blank lines (which read as paragraphs, and
    once made every word of a release-notes page a paragraph of its own)."""
    sentences = " ".join(f"Fixed bug number {i} in the memory checker." for i in range(60))  # 480 words
    words = " ".join(f"bug{i}" for i in range(450))  # no sentence end: cut between words
    for paragraph in (sentences, words):
        unit = LogicUnit("Appendix", "", "News", f"Release notes.\n\n{paragraph}", meta={"doc_id": "d"})
        parts = split_logic_unit(unit, 200)
        assert len(parts) > 2 and all(n_words(p.body) <= 200 for p in parts)
        assert " ".join(p.body for p in parts).split() == unit.body.split()
        assert all(p.body.count("\n") <= 2 for p in parts)  # at most the blank line after the intro


def test_debian_faq_questions_become_faq_units_of_a_useful_size(corpus):
    doc = corpus.get("debian-faq/debian-faq.en.txt")
    units = split_logic_units(extract_rules(doc).logic_units, 200)
    faq = [u for u in units if u.type == "FAQ"]
    assert len(faq) > 100
    assert any(u.header.startswith("How do I put a package on hold?") for u in faq)
    sizes = sorted(n_words(u.body) for u in units)
    # a part may pass the limit by the sentence that leads to its list ("Some common uses are:")
    assert sizes[-1] <= 200 + LEAD_WORDS and sizes[len(sizes) // 2] < 150


def test_a_table_of_contents_gives_no_unit(corpus):
    """The plain-text FAQ opens with a numbered table of contents: the reader leaves it out, and
    a page that keeps one under its heading gets no procedure or unit of it."""
    doc = corpus.get("debian-faq/debian-faq.en.txt")
    assert "Table of Contents" not in doc.text
    kept = Document(doc_id="faq.md", title="FAQ", meta={}, text=(
        "# FAQ\n\n## Table of Contents\n\n1. Definitions and overview\n2. Getting and installing Debian\n"
        "3. Choosing a distribution\n\n## Definitions and overview\n\nDebian is a free operating system "
        "that thousands of volunteers build together.\n"))
    for extraction in (extract_rules(doc), extract_rules(kept)):
        assert not any("Contents" in p.output for p in extraction.procedures)
        assert not any("Contents" in u.header for u in extraction.logic_units)
        assert not any(u.body.lstrip().startswith(("1. Definitions and overview", "Definitions and overview"))
                       for u in extraction.logic_units)


def test_the_indexed_text_of_a_logic_unit_is_its_header_or_its_content():
    unit = long_step_unit(steps=2)
    assert indexed_text(unit, "header") == unit.header
    assert indexed_text(unit, "content") == f"{unit.header}\n{unit.body}"


def test_a_code_block_cut_between_parts_stays_code_in_each():
    """Rust by Example's vector page: one program longer than a part; each part closes the code
    it ends in, and the next opens it again with its language."""
    lines = "\n".join(f"    let x{i} = compute({i}); // step {i} of the example program" for i in range(60))
    body = ("Vectors are re-sizable arrays.\n\n```rust\nfn main() {\n" + lines.replace("    let x30", "\n    let x30")
            + "\n}\n```\n\nMore methods are in std::vec.")
    unit = LogicUnit("Step", "", "Vectors (Rust by Example)", body, meta={"doc_id": "rbe/vec.md", "title": "Rust by Example"})
    parts = split_logic_unit(unit, 200)
    assert len(parts) > 2 and all(n_words(p.body) <= 200 for p in parts)
    for part in parts:
        fences = [line for line in part.body.splitlines() if line.startswith("```")]
        assert len(fences) % 2 == 0, part.body  # every code block it opens, it closes
    assert all(p.body.startswith("```rust\n") for p in parts[1:])
    assert parts[-1].body.endswith("```\n\nMore methods are in std::vec.")
    # a part that starts inside the program keeps its first line; the first part starts outside it
    assert "code_lead" not in parts[0].meta
    assert all(p.meta["code_lead"] == "fn main() {" for p in parts[1:-1])


def test_a_shell_session_stays_with_its_command_when_the_unit_is_cut():
    """The Rust book's test run: ``$ cargo test``, a blank line, then what it printed. Cut at the
    blank line, the second part's output ("running 3 tests") read as commands to run."""
    sentence = "You can choose which tests to run by passing cargo test the name of the test."  # 16 words
    prose = " ".join([sentence] * 11)  # the session's first lines fit in the first part, its output not
    session = ("```console\n$ cargo test\n   Compiling adder v0.1.0\n\nrunning 3 tests\ntest tests::one ... ok\n\n"
               "test result: ok. 3 passed; 0 failed\n```")
    body = f"{prose}\n\nIf we run the tests without passing any arguments, all the tests run:\n\n{session}\n\n{sentence}"
    unit = LogicUnit("Step", "", "Running tests by name", body, meta={"doc_id": "book/tests.html"})
    parts = split_logic_unit(unit, 200)
    assert len(parts) == 2 and all(n_words(p.body) <= 200 for p in parts)
    assert any(session in p.body for p in parts)  # the whole session, its blank lines too, in one part
    assert not any("```" in p.body for p in parts if session not in p.body)


def test_a_sentence_left_open_before_its_code_stays_with_it_when_the_unit_is_cut():
    """Exim's appendfile options: "If you want to exclude the Trash folder from the count, you
    need to change this setting to" and the setting under it. Cut between the two, the first
    part's step ended with "to" and the setting began the next part alone."""
    sentence = "This option is relevant only when the size file is used for the quota of the mailbox."  # 17 words
    prose = " ".join([sentence] * 10)  # the lead fits in the first part, the lead and its code do not
    lead = "If you want to exclude the Trash folder from the count, you need to change this setting to"
    code = ("```\n# leave the Trash folder and the folders under it out of the count of the mailbox\n"
            "maildir_quota_directory_regex = ^(?:cur|new|\\.(?!Trash).*)$\n```")
    body = f"{prose}\n\n{lead}\n\n{code}\n\n{sentence}"
    unit = LogicUnit("Fact", "", "maildir_quota_directory_regex", body, meta={"doc_id": "exim/appendfile.html"})
    parts = split_logic_unit(unit, 200)
    assert len(parts) == 2
    assert parts[1].body.startswith(f"{lead}\n\n{code}")
    closed = body.replace(lead, f"{lead}.")  # a finished sentence: the code may start the next part
    assert split_logic_unit(replace(unit, body=closed), 200)[0].body.endswith(f"{lead}.")


def test_each_linker_goes_with_the_part_that_holds_its_link():
    """A page of contents (Python's "Generic Operating System Services"): the linker of each
    link is the part's where the link is, not all of them the last part's."""
    body = "\n".join(f"- [`module{i}` — what module {i} does for the operating system](module{i}.html)"
                     for i in range(60))
    links = [Linker(f"you need details on `module{i}` — what module {i} does for the operating system",
                    f"`module{i}` — what module {i} does for the operating system", "CROSS", f"lib/module{i}.html")
             for i in range(60)]
    unit = LogicUnit("Appendix", "", "Services (Library)", body, linker=[*links, Linker("it still fails", "ask", "MITIGATE")],
                     meta={"doc_id": "lib/services.html", "title": "Library"})
    parts = split_logic_unit(unit, 200)
    assert len(parts) > 2
    for part in parts:
        for link in part.linker:
            assert link.tag != "CROSS" or link.next in part.body
    assert sum(link.tag == "CROSS" for part in parts for link in part.linker) == 60
    assert parts[-1].linker[-1].tag == "MITIGATE"  # from no part's text: after the last part


def test_a_part_that_starts_with_a_list_keeps_the_sentence_that_leads_to_it():
    """BIND's forwarding section, cut into parts: "… does not forward any recursive query for
    which:" ends one part and its list of conditions starts the next, which gave the conditions
    as steps of "How do I configure a forwarding resolver?". The part keeps the sentence as its
    ``lead_in``: its list reads as conditions and gives no steps; its text is its own."""
    from procmem.answerers.steps import unit_steps

    intro = " ".join(["A forwarding resolver sends the queries it cannot answer to another server."] * 10)
    body = (f"{intro}\n\nAs a reminder, this resolver does not forward any recursive query for which:\n\n"
            "1. The answer is already in the cache.\n2. The domain name is localhost.\n"
            "3. The domain name is a zone the server is authoritative for.\n")
    unit = LogicUnit("Step", "", "Forwarding", body, [], {"doc_id": "arm/config.html"})
    parts = split_logic_unit(unit, max_words=140)
    assert len(parts) == 2 and parts[1].body.startswith("1. The answer is already in the cache.")
    assert parts[1].meta["lead_in"] == "As a reminder, this resolver does not forward any recursive query for which:"
    assert "lead_in" not in parts[0].meta
    assert unit_steps(parts[1]) == []
    steps_list = LogicUnit("Step", "", "Forwarding", f"{intro}\n\nTo forward queries, do this:\n\n"
                           "1. Open named.conf.\n2. Add a forwarders statement.\n", [], {})
    assert unit_steps(split_logic_unit(steps_list, max_words=130)[1]) == ["Open named.conf.", "Add a forwarders statement."]


def test_a_sentence_that_only_leads_to_the_steps_is_no_part_of_its_own():
    """KeePassXC's "Adding an Entry": "To add an entry, perform the following step:" and a list
    too long to share a part with it, as one item (a step with its screenshot's caption and its
    notes); the sentence was a part alone, "To add an entry, perform the following step:", whose
    only other line was the link to part 2. It opens the part that holds the steps."""
    step = " ".join(["Enter a title, a username, a password and the URL of the site on this screen."] * 12)
    body = f"To add an entry, perform the following step:\n\n1. {step}\n2. Click OK to save the entry.\n"
    unit = LogicUnit("Step", "", "Add an entry", body, [], {"doc_id": "guide.html"})

    parts = split_logic_unit(unit, max_words=150)

    assert parts[0].body.startswith("To add an entry, perform the following step:\n\n1. Enter a title")
    assert all(n_words(p.body) > 10 for p in parts)
    shorter = LogicUnit("Step", "", "About", "An overview:\n\n" + "\n\n".join(
        [" ".join(["The window shows the groups, the entries and a preview."] * 6)] * 3), [], {})
    assert split_logic_unit(shorter, max_words=80)[0].body.startswith("An overview:\n\nThe window")


def test_a_list_items_blocks_keep_their_indentation_when_the_unit_is_cut():
    """A step's code block and its note, set in under the step, stay set in: cut at their blank
    lines, they lost it, and the code's opening fence stood at the margin while its closing fence
    stayed set in, so the rest of the list read as code."""
    steps = "\n\n".join(f"{i}. Copy the scheme file number {i} into your own folder of colour schemes.\n\n"
                        f"   ```\n   cp scheme{i}.vim ~/.vim/colors/\n   ```\n\n"
                        f"   This works from the editor, because it knows where the file {i} is kept."
                        for i in range(1, 9))
    unit = LogicUnit("Step", "", "Colour schemes", steps)
    parts = split_logic_unit(unit, max_words=60)
    assert len(parts) > 1
    for part in parts:
        set_in = [line for line in part.body.split("\n") if "```" in line or "cp scheme" in line or "This works" in line]
        assert set_in and all(line.startswith("   ") for line in set_in), part.body
    assert "   ```\n   cp scheme1.vim ~/.vim/colors/\n   ```" in parts[0].body

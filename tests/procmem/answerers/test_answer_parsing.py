"""Readers of model replies: plain-text forms, truncated JSON, and malformed replies."""

from __future__ import annotations

import pytest

from procmem.answerers.parsing import (
    NO_UPDATE,
    ReplyParseError,
    fit_to_schema,
    is_placeholder,
    parse_critic_text,
    parse_protocol_lenient,
    parse_protocol_text,
    parse_query_text,
    parse_rewrite_text,
    parse_steps,
    repair_json,
)
from procmem.answerers.schemas import critic_schema, protocol_schema


def test_protocol_reply_with_both_sections():
    text = ("Answer: Give her Send As permission.\n\nProcedural instructions:\n"
            "1. Open PowerShell.\n2. Run Add-RecipientPermission\n   with -AccessRights SendAs.\n"
            "3. Wait an hour.")
    assert parse_protocol_text(text) == {
        "answer": "Give her Send As permission.",
        "procedures": ["Open PowerShell.", "Run Add-RecipientPermission with -AccessRights SendAs.",
                       "Wait an hour."],
    }


def test_protocol_reply_with_markdown_labels_and_multiline_answer():
    text = ("**Answer:**\nIt needs a driver.\nInstall it first.\n\n"
            "**Procedural instructions:**\n1) Download the driver\n2) Run the installer")
    data = parse_protocol_text(text)
    assert data["answer"] == "It needs a driver. Install it first."
    assert data["procedures"] == ["Download the driver", "Run the installer"]


@pytest.mark.parametrize("text, missing", [
    ("Procedural instructions:\n1. Do it", "Answer"),
    ("Answer: just do it", "Procedural instructions"),
    ("Answer: x\nProcedural instructions:\nnothing numbered here", "Procedural instructions"),
    ("", "Answer"),
])
def test_protocol_reply_missing_a_section_is_a_typed_error(text, missing):
    with pytest.raises(ReplyParseError, match=missing) as info:
        parse_protocol_text(text)
    assert info.value.raw == text


def test_lenient_protocol_reader_takes_numbered_lines_as_steps():
    data = parse_protocol_lenient("You need a kettle.\n1. Boil water\n2. Pour it")
    assert data == {"answer": "You need a kettle.", "procedures": ["Boil water", "Pour it"]}
    with pytest.raises(ReplyParseError):
        parse_protocol_lenient("no steps at all")


def test_steps_reader_joins_continuations_and_accepts_bullets():
    assert parse_steps("- one\n  more\n* two\n3. three") == ["one more", "two", "three"]
    assert parse_steps("- bullet\n1. number", numbered_only=True) == ["number"]


def test_steps_reader_reads_no_item_in_a_line_of_code_that_only_looks_like_one():
    crontab = "- Edit the crontab:\n\n```\n# every two hours\n *  */2  *  *  *  $HOME/bin/backup\n```\n- Save it."
    # an indented line goes on with the item before it, as any indented line does
    assert parse_steps(crontab, nested=False) == ["Edit the crontab: *  */2  *  *  *  $HOME/bin/backup", "Save it."]
    assert parse_steps("```\n- Download the tool.\n```") == ["Download the tool."]  # a list, fenced or not


def test_steps_reader_reads_an_items_code_block_as_the_commands_typed():
    """A step with a shell session under it gives the commands, joined as a shell takes them,
    without their prompts; a file's name keeps the space before its dot."""
    listed = ("1. Delete the branch even if it is not merged.\n\n   ```\n   $ git branch -D test\n   ```\n"
              "2. Rewind and switch back.\n\n   ```\n   $ git reset --keep start\n   $ git switch -\n   ```\n"
              "3. Save the meeting as an .eml file.")
    assert parse_steps(listed, numbered_only=True) == [
        "Delete the branch even if it is not merged. `git branch -D test`",
        "Rewind and switch back. `git reset --keep start; git switch -`",
        "Save the meeting as an .eml file."]


def test_steps_reader_ends_the_last_item_at_a_paragraph_at_the_margin():
    """Dovecot's quota page lists its plugins, then says "Enable them in configuration files,
    e.g.:" over a file's stanza: the stanza's indented lines are not the last plugin's item."""
    text = ("- quota: Implements the actual quota handling.\n- imap_quota: For reporting quota via IMAP.\n\n"
            "Enable them in configuration files, e.g.:\n\n```\nprotocol imap {\n  mail_plugins = $mail_plugins "
            "imap_quota\n}\n```\n")
    assert parse_steps(text, nested=False) == ["quota: Implements the actual quota handling.",
                                               "imap_quota: For reporting quota via IMAP."]


def test_rewrite_reply_outline_then_queries_capped_at_n():
    text = "steps:\n- Heat water\n- Steep\nqueries:\n- q1?\n- q2?\n- q3?\n- q4?\n- q5?"
    assert parse_rewrite_text(text, 4) == {"steps": ["Heat water", "Steep"],
                                           "queries": ["q1?", "q2?", "q3?", "q4?"]}
    with pytest.raises(ReplyParseError, match="queries"):
        parse_rewrite_text("steps:\n- only an outline", 4)


@pytest.mark.parametrize("text", [NO_UPDATE, "no update required.", '"NO UPDATE REQUIRED"',
                                  "**NO UPDATE REQUIRED**"])
def test_critic_no_update_variants(text):
    assert parse_critic_text(text) == {"verdict": NO_UPDATE, "edits": []}


def test_critic_bullet_edits_and_garbage():
    assert parse_critic_text("- Add step 2\n- Remove step 4") == {
        "verdict": "EDITS", "edits": ["Add step 2", "Remove step 4"]}
    with pytest.raises(ReplyParseError, match="NO UPDATE REQUIRED"):
        parse_critic_text("The steps look mostly fine I think")


def test_query_reply():
    assert parse_query_text("Query: send as shared mailbox") == {"query": "send as shared mailbox"}
    assert parse_query_text('"reset a printer"\nbecause ...') == {"query": "reset a printer"}
    with pytest.raises(ReplyParseError):
        parse_query_text("  \n ")


def test_truncated_json_is_closed_or_cut_back():
    schema = protocol_schema()
    raw = '{"answer": "Boil water", "procedures": ["Fill the kettle", "Switch it o'
    assert repair_json(raw, schema) == {"answer": "Boil water",
                                        "procedures": ["Fill the kettle", "Switch it o"]}
    # cut inside a key: fall back to the last complete item
    raw = '{"answer": "Boil", "procedures": ["Fill the kettle"], "ext'
    assert repair_json(raw, schema)["procedures"] == ["Fill the kettle"]
    with pytest.raises(ReplyParseError):
        repair_json('{"answer": "only an answer"', schema)
    with pytest.raises(ReplyParseError):
        repair_json("plain words", schema)


def test_fit_to_schema_trims_to_caps():
    data = {"verdict": "EDITS", "edits": [f"edit {i}" for i in range(9)]}
    fitted = fit_to_schema(data | {"extra": 1}, critic_schema())
    assert len(fitted["edits"]) == 3 and "extra" not in fitted
    step = fit_to_schema(["Run \"C:\\setup\"\nnow " + "x" * 500], protocol_schema()["properties"]["procedures"])
    assert step[0].startswith("Run 'C:/setup' now") and len(step[0]) == 160


def test_raw_control_characters_in_strings_are_repaired():
    raw = '{"answer": "line one\nline two", "procedures": ["Open it", "Close it"]}'
    data = repair_json(raw, protocol_schema())
    assert data == {"answer": "line one line two", "procedures": ["Open it", "Close it"]}


@pytest.mark.parametrize("text", ["", "  ", "<first step>", "<a short plain-text answer", "...", "…",
                                  "[step]", "None"])
def test_placeholders_are_recognised(text):
    assert is_placeholder(text)


def test_real_text_is_not_a_placeholder():
    assert not is_placeholder("Open Settings <Printers>")


def test_a_note_set_under_a_step_joins_it_as_words_without_its_quote_markers():
    """A note inside a step (KeePassXC's "Keep this password for your database safe.", set under
    its step) joined the step as "… visibility > **Note:** Keep this …"."""
    steps = parse_steps("1. Enter your desired database password.\n   > **Note:** Keep this password safe.\n"
                        "2. Click Done.\n")
    assert steps == ["Enter your desired database password. **Note:** Keep this password safe.", "Click Done."]

"""A section's text before its numbered list, which ranks first for the question it names,
brings the list's steps from the first (memory built with ``inscoqa memory build --path``: the
real reader, units, embedding model and search)."""

from __future__ import annotations

from pathlib import Path

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files

RECOVER = """\
# Recover a mailbox that exists both in the cloud and on the local server

## Scenario 1: Keep the cloud mailbox

This scenario applies when the user's mailbox was moved to the cloud earlier and an old mailbox
was later reconnected on the local server, or when a cloud licence was assigned too early and a
new cloud mailbox was created while the user still had a local mailbox. Be sure to read the
note at the end of step 8.

To use this method, follow these steps:

1. Open the management shell and save the local mailbox's attributes to a file.
2. Set the enumeration limit to unlimited so that no value is cut.
3. Disconnect the local mailbox.
4. Enable the local user as a remote mailbox.
5. Restore any custom addresses that were removed.
6. Add the old local mailbox's legacy name to the remote mailbox as an address.
7. Collect the identifiers of the local mailbox, its database and the cloud mailbox.
8. Optionally stamp the cloud mailbox's identifier on the remote mailbox.
9. Restore the contents of the disconnected local mailbox into the cloud mailbox.
"""

MOVED = """\
# A moved mailbox can still be opened

## Resolution

1. Check which server holds the mailbox.
2. Remove the stale cache entry for the mailbox.
3. Restart the client.
"""


def test_the_text_before_a_list_brings_the_lists_steps_from_the_first(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, {"recover.md": RECOVER, "moved.md": MOVED})
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest(
        history=[], question="We want to keep the cloud mailbox. How do I get rid of the local mailbox?"))
    steps = [step.rsplit(" [", 1)[0] for step in answer.procedures]
    assert "Open the management shell and save the local mailbox's attributes to a file." in steps, steps
    first = steps.index("Open the management shell and save the local mailbox's attributes to a file.")
    assert steps[first + 1:first + 7] == [
        "Set the enumeration limit to unlimited so that no value is cut.", "Disconnect the local mailbox.",
        "Enable the local user as a remote mailbox.", "Restore any custom addresses that were removed.",
        "Add the old local mailbox's legacy name to the remote mailbox as an address.",
        "Collect the identifiers of the local mailbox, its database and the cloud mailbox."], steps


PLUGIN_FAQ = """\
# Frequently Asked Questions

## What does the message "This is not a valid plugin!" mean?

This usually means a problem with dependencies: not all required libraries are available in your
system. If the plugin's description says nothing of them and its author cannot be reached, then
try the following:

- Windows: the FileInfo plugin or a utility such as Dependency Walker.
- Linux: use a terminal and the command `ldd` (`ldd pluginname | grep "not found"`).

If this is a content plugin written in Lua:

1. The Lua library is not available: see the Lua page.
2. The script requires an additional module: see the description of the script.
3. Error in the script: run it with Lua in a terminal to see the error.

## How do I make the toolbar buttons bigger?

Hold Ctrl and turn the mouse wheel over the toolbar.
"""


def test_the_answer_under_a_question_is_one_unit_that_opens_with_what_it_says_first(clean_env: Path) -> None:
    """An FAQ entry's answer of prose, then a numbered list for one case, was a definition unit
    (the prose) beside a unit of the list under the question, and the answer led with the list's
    case."""
    memory = memory_from_files(clean_env, {"faq.md": PLUGIN_FAQ})
    units = [u for u in memory.units("logic_unit") if "valid plugin" in u.header]
    assert len(units) == 1 and "dependencies" in units[0].body and "Lua library" in units[0].body, units

    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest(
        history=[], question='What does the message "This is not a valid plugin!" mean?'))

    assert answer.answer.startswith("This usually means a problem with dependencies"), answer.answer


SUPER_KEY = """\
# What is the Super key?

## What is the Super key?

When you press the Super key, the Activities overview is displayed. This key can usually be
found on the bottom-left of your keyboard, next to the Alt key, and usually has a Windows logo on
it. It is sometimes called the Windows key or system key.

To change which key is used to display the Activities overview:

1. Open the Activities overview and start typing Settings.
2. Click Keyboard in the sidebar to open the panel.
3. Click the row with Show the activities overview and hold down the key combination you want.
"""


def test_a_list_that_names_its_own_task_under_a_question_is_a_unit_of_its_own(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, {"super.md": SUPER_KEY})
    headers = sorted(u.header for u in memory.units("logic_unit"))
    assert len(headers) == 2 and headers[0].startswith("Change which key is used"), headers

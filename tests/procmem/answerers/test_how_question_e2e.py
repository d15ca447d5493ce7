"""A wish followed by a bare "How?" asks how to do it, as "How do I …?" does: the plain answer
leads with what to do, not with the section's description of what it lists (here the
section is long enough to be split, and what to do is in its second part). Built with
``inscoqa memory build --path`` (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files

FILES = {
    "desktop-settings.md": (
        "# Configuring your desktop\n\n"
        "## Change a keyboard shortcut\n\n"
        "To change a keyboard shortcut, do the following:\n\n"
        "1. Double-click the shortcut you want to change, or select it with the arrow keys and "
        "press Return.\n"
        "2. Press the keys you want to use for the action. Backspace clears the shortcut and marks "
        "the action as Disabled.\n\n"
        "To cancel a change, press Escape or click elsewhere in the window.\n\n"
        "The shortcuts you can change come in groups:\n\n"
        "**Desktop**: Shortcuts for the desktop as a whole, such as logging out, locking the "
        "screen, opening the menu bar or starting a web browser.\n\n"
        "**Sound**: Shortcuts that control the music player and the volume.\n\n"
        "**Window Management**: Shortcuts that work on windows and workspaces, such as "
        "maximizing the current window, moving it to another workspace or switching between "
        "the workspaces you have.\n\n"
        "**Accessibility**: Shortcuts that start the assistive technologies, such as the screen "
        "reader, the magnifier and the on-screen keyboard, and that turn sticky keys, slow keys "
        "and bounce keys on or off.\n\n"
        "**Launchers**: Shortcuts that start the applications you use most, such as the file "
        "manager, the calculator, the mail reader and the search tool, wherever you are.\n\n"
        "**Custom Shortcuts**: The shortcuts you have added yourself with the Add button.\n\n"
        "To add a custom shortcut, use the Add button below the list. Give the new shortcut a "
        "name and the command it runs; it then appears in the list and can be changed like the "
        "others.\n\n"
        "To remove a custom shortcut, select it and use the Remove button.\n\n"
        "## Change the mouse speed\n\n"
        "1. Open the Mouse preferences.\n"
        "2. Move the Acceleration slider to make the pointer move faster or slower.\n"),
}


@pytest.mark.slow
def test_a_wish_followed_by_how_leads_with_what_to_do(tmp_path):
    answerer = make_answerer("extractive", memory=memory_from_files(tmp_path, FILES))
    answer = answerer.answer(AnswerRequest(
        "I want to add my own keyboard shortcut to open a terminal. How?"))
    assert answer.answer.startswith("To add a custom shortcut, use the Add button"), answer.answer
    assert "Shortcuts for the desktop as a whole" not in answer.answer

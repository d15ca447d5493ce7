"""A follow-up that reports what another page states as its problem: that page's resolution
answers it, though the conversation's first page shares more of the conversation's words.
Built with ``inscoqa memory build --path`` (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import make_answerer
from tests.procmem.answerers.conftest import memory_from_files, two_turns

FILES = {
    "meeting-add-in.md": (
        "# Assistants can't schedule meetings for their manager with the meeting add-in\n\n"
        "## Symptoms\n\nAn assistant who schedules meetings for her manager gets the error "
        "\"You do not have permissions to schedule meetings on behalf of the owner of this account\" "
        "when she uses the meeting add-in in Outlook.\n\n"
        "## Resolution\n\nThe manager makes the assistant his delegate in Outlook:\n\n"
        "1. In the manager's Outlook, open **File > Account Settings > Delegate Access**.\n"
        "2. In the Delegates dialog box, click **Add** and select the assistant from the address list.\n"
        "3. Give the assistant Editor permission on the Calendar, and then click **OK**.\n"
        "4. Restart the chat client of the manager and of the assistant so that the meeting add-in "
        "reads the new delegates.\n"
        "5. Check that the assistant appears in the manager's Delegates group in the chat client. If "
        "she does not appear, the manager removes her and re-adds her as a delegate in Outlook.\n\n"
        "## More information\n\nTo check that the chat client reaches the mail server, hold down CTRL, "
        "right-click the chat client's icon in the notification area and look for MAPI Status OK in "
        "the configuration information.\n"),
    "no-delegation.md": (
        "# No delegation relationship in the chat client even though you're a delegate in Outlook\n\n"
        "## Symptoms\n\nYou were added as a delegate in Outlook, but you never appear in the "
        "manager's Delegates group in the chat client, even after the manager removes and re-adds "
        "you as a delegate.\n\n"
        "## Cause\n\nThe client policy of the manager does not let the chat client copy the "
        "delegates from the mail server.\n\n"
        "## Resolution\n\n"
        "1. Open the server's management shell as an administrator.\n"
        "2. Run `Set-ClientPolicy -Identity ManagerPolicy -SyncDelegates $True` for the manager's "
        "client policy.\n"
        "3. Sign the manager out of the chat client and sign in again.\n"),
}
FIRST = ("My assistant gets 'You do not have permissions to schedule meetings on behalf of the "
         "owner of this account' when she uses the meeting add-in. How do I fix it?")
FOLLOW_UP = ("Both clients show MAPI Status OK, but she never appears in his Delegates group, even "
             "after he removes and re-adds her. What could be blocking it?")


@pytest.mark.slow
def test_a_follow_up_that_reports_another_pages_problem_gets_that_pages_resolution(tmp_path):
    memory = memory_from_files(tmp_path, FILES)
    answerer = make_answerer("extractive", memory=memory)
    first, follow_up = two_turns(answerer, FIRST, FOLLOW_UP)
    assert any("Delegates dialog box" in step for step in first.procedures)
    # the page whose symptoms the user reports comes first, and not the first page's check of
    # what the user says is fine already
    assert "SyncDelegates" in " ".join(follow_up.procedures[:2])
    assert not any("MAPI Status" in step for step in follow_up.procedures)

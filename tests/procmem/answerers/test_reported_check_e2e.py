"""A follow-up that reports the result of a check: the check the last answer summed up in one
sentence is done, and the page's fix comes instead; a check the user tells of having done does
not lead the plain answer. Built with ``inscoqa memory build --path`` (real reader, units,
embedding model and search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.base import Answer
from tests.procmem.answerers.conftest import memory_from_files


def answer_after(root: Path, files: dict[str, str], first: str, said: str, question: str) -> Answer:
    """The extractive answer to ``question`` over a memory of ``files``, after a first turn that
    the assistant answered with ``said``."""
    answerer = make_answerer("extractive", memory=memory_from_files(root, files))
    return answerer.answer(AnswerRequest(question, history=[(first, said)]))

FILES = {
    "meeting-delegates.md": (
        "# Delegates can't schedule meetings with the meeting add-in\n\n"
        "## Symptoms\n\nAn assistant who is her manager's delegate in Outlook gets \"You do not have "
        "permissions to schedule meetings on behalf of the owner of this account\" when she uses the "
        "meeting add-in, and she never appears in his Delegates group in the chat client.\n\n"
        "## Make sure that the chat clients can complete the needed MAPI connection\n\n"
        "1. Make sure that the chat client is open and signed in on both computers.\n"
        "2. Find the chat client's icon in the notification area of the Windows desktop.\n"
        "3. Hold down the CTRL key, right-click the icon, and then select Configuration "
        "Information.\n"
        "4. Scroll down the list that opens to the MAPI Information entry.\n"
        "5. If the connection is valid, the entry shows MAPI Status Ok, and the missing delegation "
        "is not caused by network trouble between the chat client and the mail server.\n"
        "6. If the entry says that the client is still connecting or that MAPI is unavailable, the "
        "client can't reach the mail server's MAPI service; ask whoever runs the mail servers and "
        "their network to look into the connection before you go on.\n"
        "7. Write down when you checked and which mail server the entry names, in case support "
        "asks for them later.\n"
        "8. Repeat these steps on the other computer, then compare both entries with the values "
        "your network team expects.\n\n"
        "## Let the manager's policies copy his delegates\n\n"
        "The chat client copies a manager's Outlook delegates only when his policies allow it.\n\n"
        "1. Open the server's management shell as an administrator.\n"
        "2. Run `Get-ClientPolicy -Identity ManagerPolicy | Select SyncDelegates` for the manager's "
        "client policy.\n"
        "3. If it returns False, run `Set-ClientPolicy -Identity ManagerPolicy -SyncDelegates $True`.\n"
        "4. Have the manager remove the assistant as a delegate in Outlook, wait five minutes, and "
        "add her again.\n"),
}
FIRST = ("My assistant gets 'You do not have permissions to schedule meetings on behalf of the "
         "owner of this account' when she books a meeting for me with the meeting add-in. Why?")
# the last answer sums the long check up in one sentence, in words of its own
SUMMED_UP = ("The chat client makes her your delegate only once it reads your Outlook delegates. First "
             "make sure both clients reach the mail server: CTRL+right-click the chat icon, select "
             "Configuration Information, and check that MAPI Status shows MAPI Status Ok.")
FOLLOW_UP = ("Both show MAPI Status OK, but she never appears in his Delegates group, even after he "
             "re-adds her. What could be blocking it?")


@pytest.mark.slow
def test_a_check_the_user_reports_on_steps_back_for_the_pages_fix(tmp_path):
    answer = answer_after(tmp_path, FILES, FIRST, SUMMED_UP, FOLLOW_UP)
    steps = " ".join(answer.procedures)
    assert "SyncDelegates" in " ".join(answer.procedures[:3])
    # none of the check's steps comes again, nor does the plain answer repeat it
    assert "MAPI" not in steps and "Configuration Information" not in steps
    assert "MAPI" not in answer.answer
    linker = next(stage for stage in answer.trace.stages if stage.name == "linker")
    assert linker.details["tried"]


SHELL_PAGE = {
    "management-shell.md": (
        "# The management shell can't connect to the server\n\n"
        "## Symptoms\n\nThe management shell won't open and says \"The connection to the specified "
        "remote host was refused\".\n\n"
        "## Resolution\n\n"
        "1. Make sure that the PowerShell application pool is running. If the pool is running, try "
        "to recycle it. Then, check for errors or warnings in the event logs.\n"
        "2. Make sure that your account is enabled for remote PowerShell: run `Get-User <name> | "
        "Select RemotePowerShellEnabled`, and if it returns False, run `Set-User <name> "
        "-RemotePowerShellEnabled $True`.\n"
        "3. Make sure that WinRM is configured correctly: run `winrm quickconfig` and accept the "
        "changes it proposes.\n"),
}
SHELL_FIRST = ("The management shell on our server won't open. It says 'The connection to the "
               "specified remote host was refused'. What causes that?")
SHELL_CAUSES = ("Usually the PowerShell application pool isn't running, your account isn't enabled for "
                "remote PowerShell, or WinRM is configured incorrectly on the server.")
SHELL_FOLLOW_UP = ("The app pool is running, I recycled it, and the event logs show nothing. What "
                   "should I check next?")


@pytest.mark.slow
def test_the_plain_answer_does_not_lead_with_a_check_the_user_reports_done(tmp_path):
    answer = answer_after(tmp_path, SHELL_PAGE, SHELL_FIRST, SHELL_CAUSES, SHELL_FOLLOW_UP)
    assert "event logs" not in answer.answer
    assert "RemotePowerShellEnabled" in " ".join(answer.procedures)

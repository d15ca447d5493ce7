"""A mail client's help pages that say where a setting lives in the passive ("This can be edited
under Edit > Preferences > …"), built into a memory with ``inscoqa memory build --path`` and
answered by the extractive answerer: the real reader, units, embedding model and search."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import make_answerer
from procmem.memory import Memory
from tests.procmem.answerers.conftest import memory_from_files, two_turns

PAGES = {
    "signatures.md": """\
# Managing signatures

A signature is text that the composer adds to the end of every message you write.

You can add, edit and remove your signatures under **Edit** > **Preferences** >
**Composer Preferences** > **Signatures**.
""",
    "account-signature.md": """\
# Default account signature

Each mail account can have a default signature of its own. This can be edited under **Edit** >
**Preferences** > **Mail Accounts** > **Edit** > **Identity** > **Optional Information**.

To leave the signature out of one message only, pick another one from the drop-down list in the
upper right corner of the composer window.
""",
    "attachments.md": """\
# Adding attachments

1. Click **Insert** > **Attachment**, or press Ctrl+M.
2. Select the file you want to attach.
3. Click **OK**.
""",
    "forwarding.md": """\
# Forwarding a message

1. Select the message.
2. Click **Message** > **Forward**, or press Ctrl+F.
3. Enter the recipients and click **Send**.
""",
}


@pytest.fixture
def mail_memory(clean_env: Path) -> Memory:
    return memory_from_files(clean_env, PAGES)


@pytest.mark.slow
def test_a_follow_up_gets_the_menu_path_its_page_gives_in_the_passive(mail_memory: Memory) -> None:
    answerer = make_answerer("extractive", memory=mail_memory)
    _, reply = two_turns(answerer, "How do I add a signature to my emails?",
                         "How do I use a different one for my work account?")
    said = "\n".join([reply.answer, *reply.procedures])
    assert "Mail Accounts > Edit > Identity > Optional Information" in said, said

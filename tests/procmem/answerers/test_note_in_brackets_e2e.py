"""A step whose code follows a note in brackets ("… if not already present (note: there must be
no whitespace at the start of the line): postlog …") leads the plain answer with its words up to
the colon after the note, not up to the note's own colon ("… if not already present (note").
Built with ``inscoqa memory build --path`` (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from tests.procmem.answerers.conftest import memory_from_files

FILES = {
    "maillog.md": (
        "# Logging to a file or stdout\n\n"
        "The mail server normally logs through syslog. It can also write its log itself, to a file "
        "or to standard output, through the postlogd service.\n\n"
        "## Configuring logging to stdout\n\n"
        "Logging to standard output suits a mail server that runs in a container without a "
        "syslog daemon. Follow these steps:\n\n"
        "1. Add the following line to master.cf if not already present (note: there must be no "
        "whitespace at the start of the line):\n\n"
        "    ```\n"
        "    postlog   unix-dgram n  -       n       -       1       postlogd\n"
        "    ```\n\n"
        "    Note: the service type \"unix-dgram\" came with version 3.4, and older versions "
        "need another line here, which the release notes of that version give.\n\n"
        "2. Configure main.cf with \"maillog_file = /dev/stdout\".\n"
        "3. Start the mail server with \"postfix start-fg\".\n"),
}


@pytest.mark.slow
def test_a_note_in_brackets_stays_whole_in_the_lead(tmp_path):
    answerer = make_answerer("extractive", memory=memory_from_files(tmp_path, FILES))
    answer = answerer.answer(AnswerRequest(
        "I'm running the mail server in a Docker container with no syslog daemon. How do I get its "
        "log output on the container's stdout?"))
    assert answer.answer.startswith(
        "Add the following line to master.cf if not already present (note: there must be no "
        "whitespace at the start of the line)"), answer.answer
    assert "(note," not in answer.answer

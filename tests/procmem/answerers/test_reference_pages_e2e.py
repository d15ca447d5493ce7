"""A mail server's reference pages built into a memory with ``inscoqa memory build --path`` and
answered by the extractive answerer: a manual page as HTML sets it (one ``<pre>`` block) whose
description gives its options before a numbered list, and a list of parameters, each a heading
with its default value. The real readers, units, embedding model and search."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.memory import Memory
from tests.procmem.answerers.conftest import memory_from_files

QUEUEADM = """\
<html><head><title>Mailer manual - queueadm(1)</title></head><body><pre>
QUEUEADM(1)                                                        QUEUEADM(1)

<b>NAME</b>
       queueadm - mail queue maintenance

<b>SYNOPSIS</b>
       <b>queueadm</b> [<b>-v</b>] [<b>-d</b> <i>queue_id</i>] [<b>-h</b> <i>queue_id</i>]

<b>DESCRIPTION</b>
       The  <b>queueadm</b>(1)  command  does maintenance jobs on the mailer's queue.
       Only the superuser may run it.

       Options:

       <b>-d</b> <i>queue_id</i>
              Remove  one  message  with  the named queue ID from the named
              queues (default: <b>hold</b>, <b>incoming</b> and <b>deferred</b>).

              Specify "<b>-d ALL</b>" to remove every message;  for  example,
              specify  "<b>-d ALL deferred</b>" to remove all mail in the
              <b>deferred</b> queue.

              Queue IDs are reused, so the command may remove the wrong
              message while mail is being delivered. This is how it happens:

              1)     The queue manager removes the message that queueadm was
                     asked to remove, because it was delivered.

              2)     New mail arrives and gets the same queue ID.

              3)     queueadm removes the new message instead.

       <b>-h</b> <i>queue_id</i>
              Put one message "on hold", so that no attempt is made to
              deliver it.

<b>SEE ALSO</b>
       mailq(1), list the queue
</pre></body></html>
"""

PARAMETERS = """\
<html><head><title>Mailer Configuration Parameters</title></head><body>
<h1>Mailer Configuration Parameters</h1>
<h2>Parameter list</h2>
<p>Each parameter is set in main.cf as name = value.</p>
<h3>bounce_size_limit (default: 50000)</h3>
<p>The largest amount of the original message's text that a non-delivery notice returns.</p>
<h3>mailbox_size_limit (default: 51200000)</h3>
<p>The largest size of a local mailbox file, or zero for no limit.</p>
<h3>message_size_limit (default: 10240000)</h3>
<p>The largest size in bytes of a message the mailer accepts, envelope included.</p>
<p>Be careful with large values: a non-delivery notice may not get through.</p>
<h3>queue_minfree (default: 0)</h3>
<p>The free space the queue file system needs before mail is accepted. To keep room for large
mail, specify a queue_minfree value that is at least 1.5 times the message size limit.</p>
</body></html>
"""


@pytest.fixture
def mailer_memory(clean_env: Path) -> Memory:
    return memory_from_files(clean_env, {"queueadm.1.html": QUEUEADM, "parameters.html": PARAMETERS})


def test_a_manual_pages_options_before_a_numbered_list_answer(mailer_memory: Memory) -> None:
    """The description's options came before the list of how a wrong message is removed, and
    were in no logic unit: only the list's was one."""
    answerer = make_answerer("extractive", memory=mailer_memory)
    answer = answerer.answer(AnswerRequest(history=[], question="How do I remove all deferred mail from the queue?"))
    assert any('"-d ALL deferred"' in step for step in answer.procedures), answer.procedures


def test_a_parameter_heading_with_its_default_is_the_entry_that_answers(mailer_memory: Memory) -> None:
    """"message_size_limit (default: 10240000)" is a reference entry: the question names it word
    by word, and it leads, with its default, before the entries around it on the page."""
    answerer = make_answerer("extractive", memory=mailer_memory)
    answer = answerer.answer(AnswerRequest(history=[], question="How do I limit the size of a message the mailer "
                                                                 "accepts?"))
    assert answer.procedures[0].startswith("message_size_limit (default: 10240000): The largest size in bytes of "
                                           "a message the mailer accepts"), answer.procedures
    assert answer.answer.startswith("message_size_limit (default: 10240000): The largest size"), answer.answer


TOOLS_MENU = {
    "viewer/index.md": """\
# Pageview Handbook

Pageview shows documents of many formats.
""",
    "viewer/tools-menu.md": """\
# The Tools menu

**Tools → Table Selection**: Selects the text of a table so that it can be copied as rows and
columns.

**Tools → Magnifier**: Turns the pointer into a magnifier. Press and hold the left button to show
it, and move the pointer to pan through the document.

**Tools → Digitally Sign...**: Starts the signing of the document with your certificate. Only PDF
files can be signed at this point.
""",
}


def test_a_reference_section_that_answers_by_an_asked_entry_leads_with_that_entry(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, TOOLS_MENU)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I sign a PDF digitally?"))
    # not the one instruction another entry holds ("Press and hold the left button …")
    assert answer.answer.startswith("Tools → Digitally Sign...: Starts the signing of the document"), answer.answer

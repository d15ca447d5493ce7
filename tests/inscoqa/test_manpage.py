"""Manual pages as ``man`` prints them: plain text, or one ``<pre>`` of an HTML page."""

from __future__ import annotations

import html
from pathlib import Path

from inscoqa.corpus.manpage import is_man_page, man_to_markdown
from inscoqa.corpus.readers import read_document

PAGE = """\
MAILSORT(8)                                                        MAILSORT(8)

NAME
       mailsort - file incoming mail into per-sender folders

SYNOPSIS
       mailsort [-v] [-c config_dir]
               [-d folder] [message ...]

DESCRIPTION
       The  mailsort(8) program reads each message and files it into a
       folder  named  after  its  sender.  Folders  are  created  when
       needed, with the permissions of the mailbox own-
       er.

       The following options are recognized:

       -c config_dir
              Read the configuration from the named directory instead
              of the default one.

       -d folder
              File every message into folder, whatever its sender.

       -n

       -q     Do not print anything. Errors still go to the system
              log.

       -v     Log each message as it is filed.

   Examples
       To file a whole mailbox at once:

           mailsort -v < /var/mail/alice
           mailsort -d archive < old.mbox

       The steps are:

       1)     Stop the mail service.

       2)     Run  mailsort  on  the  spool,  then  start  the  service
              again.

SEE ALSO
       procmail(1), a filter of its own

                                   2024-05-01                      MAILSORT(8)
"""


def test_a_man_page_is_told_by_its_header_and_name_section() -> None:
    assert is_man_page(PAGE)
    assert not is_man_page("MAILSORT(8)\n\nA page that only names a man page.\n")
    assert not is_man_page("Notes\n\nNAME\n   something\n")


def test_a_man_page_reads_as_sections_terms_examples_and_steps() -> None:
    title, text = man_to_markdown(PAGE)
    assert title == "mailsort - file incoming mail into per-sender folders"
    assert "MAILSORT(8)" not in text and "2024-05-01" not in text  # header and footer
    assert "## SYNOPSIS\n\n```\nmailsort [-v] [-c config_dir]\n        [-d folder] [message ...]\n```" in text
    # justified text joined, words hyphenated at a line's end whole again
    assert ("The mailsort(8) program reads each message and files it into a folder named after its "
            "sender. Folders are created when needed, with the permissions of the mailbox owner.") in text
    assert "`-c config_dir`: Read the configuration from the named directory instead of the default one." in text
    assert "`-d folder`: File every message into folder, whatever its sender." in text
    assert "`-n`, `-q`: Do not print anything. Errors still go to the system log." in text
    assert "`-v`: Log each message as it is filed." in text
    assert "### Examples" in text
    assert "```\n    mailsort -v < /var/mail/alice\n    mailsort -d archive < old.mbox\n```" in text
    assert "1. Stop the mail service.\n\n2. Run mailsort on the spool, then start the service again." in text
    assert "## SEE ALSO\n\nprocmail(1), a filter of its own" in text


def test_a_man_page_in_text_and_in_one_pre_of_html_reads_the_same(tmp_path: Path) -> None:
    (tmp_path / "mailsort.8.txt").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mailsort.8.html").write_text(
        "<html><head><title>Mail tools - mailsort(8)</title></head><body><pre>\n"
        + html.escape(PAGE).replace("NAME\n", "<b>NAME</b>\n") + "</pre></body></html>", encoding="utf-8")
    as_text = read_document(tmp_path / "mailsort.8.txt")
    as_html = read_document(tmp_path / "mailsort.8.html")
    assert as_text.title == as_html.title == "mailsort - file incoming mail into per-sender folders"
    assert as_text.text == as_html.text
    assert as_text.text.startswith("# mailsort - file incoming mail into per-sender folders\n\n## NAME")


# mandoc's layout, as `man | col -b` leaves it: tabs before the text, options in a column of their own
TABBED = (
    "RSHELL(1)\t\t    General Commands Manual\t\t    RSHELL(1)\n\n"
    "NAME\n     rshell — run commands on a remote machine\n\n"
    "DESCRIPTION\n     The options are as follows:\n\n"
    "     -4\t     Forces rshell to use IPv4 addresses only.\n\n"
    "     -A\t     Enables forwarding of the agent's connection to the remote\n"
    "\t     machine.  This can also be set per host.\n\n"
    "     Operators, in decreasing order of prece‐\n     dence:\n\n"
    "     for name [ in word ... ] ; do list ; done\n"
    "\t     Runs list once for each word.\n"
    "     ( expression )\n\t     Returns the value of expression.\n"
    "     ! expression\n\t     True if expression is false.\n\n"
    "SEE ALSO\n     rcp(1), the ENVIRON‐\n     MENT section\n\n"
    "Linux 6.1\t\t\t  May 1, 2024\t\t\t  RSHELL(1)\n\nBSD\t\t\t  May 1, 2024\t\t\t  BSD\n")


def test_a_man_page_with_tabs_and_terms_one_after_another_reads_as_its_terms():
    title, text = man_to_markdown(TABBED)
    assert title == "rshell — run commands on a remote machine"
    assert "`-4`: Forces rshell to use IPv4 addresses only." in text  # an option alone, its text on its line
    assert ("`-A`: Enables forwarding of the agent's connection to the remote machine. This can also "
            "be set per host.") in text
    assert "Operators, in decreasing order of precedence:" in text
    assert "for name [ in word ... ] ; do list ; done: Runs list once for each word." in text  # a long term
    assert "( expression ): Returns the value of expression.\n\n! expression: True if expression is false." in text
    assert "the ENVIRONMENT section" in text and "May 1, 2024" not in text

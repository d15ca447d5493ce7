"""A sentence that introduces a long example of configuration ("Here is an example of a virtual
mailbox domain …: /etc/postfix/main.cf: virtual_mailbox_domains = … (a dozen lines)") may lead the
plain answer with the example's first settings, so that the answer names what to set. Built with
``inscoqa memory build --path`` (real reader, units, embedding model and search)."""

from __future__ import annotations

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.lead import settings_shown
from tests.procmem.answerers.conftest import memory_from_files

FILES = {
    "virtual.md": (
        "# Virtual domain hosting\n\n"
        "This document shows how to host mail for several domains on one machine.\n\n"
        "## Virtual mailbox domains: separate domains, non-UNIX accounts\n\n"
        "As a system hosts more and more domains and users, it becomes less desirable to give "
        "every user their own UNIX system account. With the virtual mailbox delivery agent, every "
        "recipient address can have its own mailbox, and owners of a virtual mailbox address do "
        "not need a UNIX system account.\n\n"
        "Here is an example of a virtual mailbox domain \"example.com\":\n\n"
        "```\n"
        "/etc/postfix/main.cf:\n"
        "    virtual_mailbox_domains = example.com ...more domains...\n"
        "    virtual_mailbox_base = /var/mail/vhosts\n"
        "    virtual_mailbox_maps = hash:/etc/postfix/vmailbox\n"
        "    virtual_minimum_uid = 100\n"
        "    virtual_uid_maps = static:5000\n"
        "    virtual_gid_maps = static:5000\n"
        "    virtual_alias_maps = hash:/etc/postfix/virtual\n"
        "```\n\n"
        "If you find the idea of multiple tables bothersome, remember that you can migrate the "
        "information to an SQL database once it works.\n\n"
        "## Delivery to UNIX accounts through the local delivery agent\n\n"
        "Delivery through the local delivery agent expands aliases and .forward files first. To "
        "configure it for every user of this machine:\n\n"
        "```\n"
        "/etc/postfix/main.cf:\n"
        "    mailbox_command = /path/to/maildrop -d ${USER}\n"
        "```\n"),
}


def test_a_long_example_of_settings_is_cut_to_its_first_settings() -> None:
    said = ("Here is an example: /etc/postfix/main.cf:; virtual_mailbox_domains = example.com; "
            "virtual_mailbox_base = /var/mail/vhosts; virtual_mailbox_maps = hash:/etc/postfix/vmailbox; "
            "virtual_minimum_uid = 100")
    assert settings_shown(said) == ("Here is an example: /etc/postfix/main.cf:; virtual_mailbox_domains = "
                                    "example.com; virtual_mailbox_base = /var/mail/vhosts; virtual_mailbox_maps "
                                    "= hash:/etc/postfix/vmailbox; …")
    commented = ("Examples of simple restriction lists are: /etc/postfix/main.cf:; # Trusted networks only.; "
                 "smtpd_client_restrictions = permit_mynetworks, reject; # Known senders only.; "
                 "smtpd_sender_restrictions = reject_unknown_sender_domain")
    assert settings_shown(commented) == ("Examples of simple restriction lists are: /etc/postfix/main.cf:; "
                                         "smtpd_client_restrictions = permit_mynetworks, reject; "
                                         "smtpd_sender_restrictions = reject_unknown_sender_domain; …")
    # the example's first lines as written: up to a line of another kind, which no file name opens
    program = "For example, in your program: total = 0; for n in numbers:; total = total + n; print(total)"
    assert settings_shown(program) == "For example, in your program: total = 0; …"
    assert settings_shown("Add this to your program: for n in numbers:; total = total + n; print(total); "
                          "return total") == ""
    assert settings_shown("Set it so: relayhost = [mail.isp.example]") == ""  # short: shown whole
    assert settings_shown("Run the following: ./configure --prefix=/usr/local --with-ssl --enable-foo "
                          "--enable-bar; make; make test; sudo make install; echo done") == ""  # no settings


@pytest.mark.slow
def test_the_plain_answer_names_the_settings_of_the_example(tmp_path) -> None:
    answerer = make_answerer("extractive", memory=memory_from_files(tmp_path, FILES))
    answer = answerer.answer(AnswerRequest(
        "I host a few domains for friends and want to give them mailboxes without creating Linux "
        "accounts for each person. How?"))
    assert answer.answer.startswith("Here is an example of a virtual mailbox domain"), answer.answer
    assert "virtual_mailbox_domains = example.com" in answer.answer
    assert "virtual_gid_maps" not in answer.answer  # the example's first settings only

"""Markdown read as plain text: markup, escapes and footnote marks dropped, and what an
opening that ends with a colon introduces."""

from __future__ import annotations

from procmem.answerers.prose import colon_outside_brackets, introduced, plain_text


def test_plain_text_drops_emphasis_marks_but_keeps_names_with_underscores_and_stars() -> None:
    assert plain_text("Use INSTALL_BASE / `--install_base`") == "Use INSTALL_BASE / --install_base"
    assert plain_text("Go to **Settings** > *Mail* and _Rules_, ***now***") == "Go to Settings > Mail and Rules, now"
    assert plain_text("Load the Net::* modules and the *.pm files") == "Load the Net::* modules and the *.pm files"
    assert plain_text("Open [the page](https://example.org/a_b) and run `my_tool --dry_run`") == \
        "Open the page and run my_tool --dry_run"


def test_what_an_opening_that_ends_with_a_colon_introduces():
    listed = ("It identifies local ports this way:\n\n- The port is in the local address\n  of the structure.\n"
              "- The port is the loopback's.\n\nFollowing these rules, it ignores remote ports.")
    assert introduced(listed) == ["The port is in the local address of the structure.", "The port is the loopback's."]
    assert introduced("Build it like so:\n\n```\nmake clean\nmake\n```\n\nThen run it.") == ["make clean", "make"]
    assert introduced("The message reads:\n\n  unknown file system type\n\nIt means a new type.") == \
        ["unknown file system type"]
    assert introduced("No colon here.\n\n- a\n- b") == []
    assert introduced("To fix that,\n\n1. Add the domain.\n2. Restart.") == ["Add the domain.", "Restart."]


def test_a_placeholder_in_angle_brackets_is_no_html_tag():
    assert plain_text("Rename the remote named <old> to <new>, then press <kbd>Enter</kbd>.<br/>") == (
        "Rename the remote named <old> to <new>, then press Enter.")


def test_bold_that_a_page_set_against_a_word_reads_apart_from_it():
    """GnuCash's pages leave out the space around a menu's name: "by using the**Actions**menu"."""
    assert plain_text("Repair them by using the**Actions** → **Check & Repair**menu.") == \
        "Repair them by using the Actions → Check & Repair menu."
    assert plain_text("Compute 2**10, or a*b*c, in **bold**.") == "Compute 2**10, or a*b*c, in bold."


def test_a_mark_that_points_to_a_footnote_is_no_part_of_a_step():
    """GnuCash's DocBook pages cite footnotes inside steps: "Install Xcode [[10]](#ftn.idm17115)"."""
    assert plain_text("Install Xcode [[10]](#ftn.idm17115) if it is not installed.") == \
        "Install Xcode if it is not installed."
    assert plain_text("Install Xcode[^3] or see the [guide](guide.html)[2](#id3).") == \
        "Install Xcode or see the guide."
    assert plain_text("Use halt to halt the system without powering it off [[15]](#ftn.idm2806).") == \
        "Use halt to halt the system without powering it off."


def test_the_colon_that_introduces_code_is_the_first_outside_brackets():
    step = ("Add the following line to master.cf if not already present (note: there must be no "
            "whitespace at the start of the line): postlog unix-dgram n - n - 1 postlogd")
    assert step[:colon_outside_brackets(step)].endswith("at the start of the line)")
    assert colon_outside_brackets("?narrow(filter, pattern): This term narrows the search") == 24
    assert colon_outside_brackets("Run it (see: the manual) now.") == -1
    assert colon_outside_brackets("Set http://example.org as the proxy.") == -1

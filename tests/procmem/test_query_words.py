"""Words a question and a page say differently: a name with its version after a slash ("HTTP/2"),
a verb said with a particle ("turn on"), a short form ("config"), in the BM25 tokens and in a
memory's search."""

from __future__ import annotations

from typing import Any

from inscoqa.corpus.document import Document
from procmem.memory import build_memory
from procmem.retrieval.bm25 import compound_parts, query_tokens, tokenize


def test_a_name_with_a_version_is_a_token_besides_the_name() -> None:
    assert tokenize("HTTP/2 and HTTP/1.1") == ["http", "http2", "http", "http1"]
    assert tokenize("the mod_http2 module") == ["mod_http2", "mod", "http2", "modul"]  # the page's name says it so
    assert tokenize("1/2 cup of milk") == ["cup", "milk"]  # a fraction names nothing


def test_a_query_said_with_a_particle_searches_for_the_verb_too() -> None:
    assert query_tokens("How do I turn on HTTP/2?")[-1] == "enabl"
    assert query_tokens("Can I switch it off?")[-1] == "disabl"
    assert query_tokens("Turning them on again") == tokenize("Turning them on again") + ["enabl"]
    assert query_tokens("turn left onto the road") == tokenize("turn left onto the road")
    assert query_tokens("I turned it on, but it still fails") == tokenize("I turned it on, but it still fails")
    assert "enabl" not in tokenize("How do I turn on HTTP/2?")  # pages are indexed by their own words
    # a query that holds an earlier answer takes the verbs of the last question alone
    earlier = "Select Turn on automatic replies. People never receive the reply. What should I check?"
    assert query_tokens(earlier, "People never receive the reply. What should I check?") == tokenize(earlier)


def test_a_verb_with_a_particle_is_also_the_word_written_as_one() -> None:
    """Knot DNS's "Data and metadata backup" for "How do I back up the server's zones?"."""
    assert "backup" in tokenize("How do I back up the server's zones?")
    assert tokenize("backing up") == ["backup"]
    assert tokenize("setting up the printer") == tokenize("the setup printer") == ["setup", "printer"]
    assert "logout" in tokenize("I logged out") and "shutdown" in tokenize("shutting down the VM")
    assert "login" in tokenize("How do I log in to Cockpit?") and "login" in tokenize("How do I log in?")
    # a noun and a preposition: "the logs in libvirt", the Varnish page "Logging in Varnish"
    assert "login" not in tokenize("How do I turn on debug logs in libvirt?") + tokenize("Logging in Varnish")
    assert tokenize("set the upper limit") == ["set", "upper", "limit"]  # "set" alone is "set"


def test_two_nouns_also_written_as_one_word_are_that_word_as_well() -> None:
    """The Debian Administrator's Handbook heads its section "Timezone"; a user asks how to set
    the time zone. Each word stays a word of its own ("the domain name" is still about a domain)."""
    assert "timezon" in tokenize("How do I set the time zone?") and tokenize("Timezone") == ["timezon"]
    assert tokenize("user name") == ["user", "name", "usernam"] and tokenize("username") == ["usernam"]
    assert tokenize("the time-zone list") == ["time", "zone", "timezon", "list"]
    assert "websit" in tokenize("a web site") and "email" in tokenize("an e-mail address")
    assert tokenize("the domain name") == ["domain", "name"]  # seldom written as one word
    # "Exporting from the commandline" for "Can I do it from the command line?"; a plug-in is a
    # plugin, a sub-page a subpage
    assert "commandlin" in tokenize("from the command line") and tokenize("commandline") == ["commandlin"]
    assert tokenize("a plug-in") == ["plug", "plugin"] and tokenize("plugins") == ["plugin"]
    assert tokenize("sub-pages") == ["sub", "page", "subpag"] and tokenize("subpages") == ["subpag"]
    # in a query, the one word counts as much as the two
    assert query_tokens("Set the time zone") == ["set", "time", "zone", "timezon", "timezon"]


def test_a_feature_named_by_auto_is_what_it_does_automatically() -> None:
    """A panel's key is "Autohide"; a user asks how to make the panel hide automatically. The
    feature is what it does, however it is written ("auto-complete", "AutoComplete"); "automatic"
    and "autonomous" are words of their own, "Autodiscover" a service's name."""
    assert tokenize("Autohide") == ["automat", "hide"]
    assert set(tokenize("make the panel hide automatically")) >= {"automat", "hide"}
    assert tokenize("auto-complete") == tokenize("AutoComplete") == ["automat", "complet"]
    assert set(tokenize("set up an auto-reply")) >= {"automat", "repli"} <= set(tokenize("automatic replies"))
    assert tokenize("automatic updates") == ["automat", "updat"]
    assert tokenize("an autonomous system") == ["autonom", "system"]
    assert tokenize("Autodiscover fails") == ["autodiscov", "fail"]


def test_a_short_form_is_the_word_it_stands_for() -> None:
    assert tokenize("config checks") == tokenize("configuration checking")
    assert tokenize("the repo dirs") == tokenize("the repository directories")
    assert tokenize("set config_file") == ["set", "config_fil", "configur", "file"]  # a name keeps its own token
    assert tokenize("info pages") == ["info", "page"]  # a name of its own too
    # a notes application's help says "synchronization": "How often does it sync?" had matched
    # only "often", in a puzzle game's "Find the number which appears most often"
    assert tokenize("sync my notes, synced, syncing") == tokenize("synchronization of my notes, synchronized, synchronizing")
    assert tokenize("my prefs and pics") == tokenize("my preferences and pictures")


def test_a_british_spelling_is_the_american_word() -> None:
    """A question that says "colour" meets a page that says "color", whatever the endings; both
    spellings are in the bundled recipes ("flavour", "flavor")."""
    assert tokenize("a plain colour, coloured, colours") == tokenize("a plain color, colored, colors")
    assert tokenize("my favourite flavour") == tokenize("my favorite flavor")
    assert tokenize("organise the organisation") == tokenize("organize the organization")
    assert tokenize("the centre, centred") == tokenize("the center, centered")
    assert tokenize("customise the licence; analyse it") == tokenize("customize the license; analyze it")
    assert tokenize("grey catalogue dialogue") == tokenize("gray catalog dialog")
    assert tokenize("cancelled labelled") == tokenize("canceled labeled")  # one stem already
    assert tokenize("central metric") == ["central", "metric"]  # no British spelling: unchanged


def _pages() -> list[Document]:
    def page(doc_id: str, title: str, text: str) -> Document:
        return Document(doc_id, title, text, {"corpus": "site"})

    return [
        page("protocols.md", "Protocols", "# Protocols\n\nTo enable HTTP/2, load `mod_http2` and add "
             "`Protocols h2` to the server configuration.\n"),
        page("status.md", "HTTP status codes", "# HTTP status codes\n\nA response of the HTTP server carries a status: "
             "2xx for success, 4xx when the request was wrong, 5xx when the HTTP server failed.\n"),
        page("checks.md", "Troubleshooting", "# Troubleshooting\n\nRun `rsyslogd -N1` for config checking: it "
             "reads the config file and reports its errors.\n"),
        page("syntax.md", "Configuration syntax", "# Configuration syntax\n\nThe configuration is made of "
             "statements; a configuration statement ends at the end of its line.\n"),
        page("logging.md", "Turn on HTTP logging", "# Logging\n\nEvery HTTP request is written to the access log; "
             "turn the log rotation on in the settings.\n"),
        page("backup.md", "Data and metadata backup", "# Data and metadata backup\n\nRun `knotc zone-backup` "
             "with a target directory; every zone and its keys are copied there.\n"),
        page("timezone.md", "Timezone", "# Timezone\n\nTo modify it, use the `dpkg-reconfigure tzdata` command, "
             "which lets you choose from a list.\n"),
        page("ntp.md", "Clock synchronization", "# Clock synchronization\n\nThe clock of a server should be "
             "set from a time server at boot: install ntp.\n"),
        page("keys.md", "Keys", "# Keys\n\nThe server keeps its zone keys in a key database; move the database "
             "up a level when the disk fills.\n"),
        page("background.md", "Desktop background", "# Desktop background\n\nRight-click the desktop, "
             "choose Change Desktop Background and pick a solid color or a picture.\n"),
        page("wallpaper.md", "Change the wallpaper", "# Change the wallpaper\n\nTo change the background "
             "of a window or a panel, drag a pattern onto it.\n"),
        page("panel.md", "Panel properties", "# Panel properties\n\nAutohide: select this option to "
             "collapse the panel to the edge of the screen when the pointer leaves it.\n"),
        page("windows.md", "Windows", "# Windows\n\nTo hide a window, click its minimize button; it is "
             "restored automatically when you click its button on the panel.\n"),
    ]


def test_a_question_finds_the_page_that_says_it_with_its_words(embedder: Any) -> None:
    memory = build_memory(_pages(), embedder=embedder, progress=False)

    def first(question: str) -> str:
        return memory.search(question, k=1, kind="logic_unit", method="bm25")[0].unit.meta["doc_id"]

    assert first("How do I turn on HTTP/2?") == "protocols.md"
    assert first("Is HTTP/2 supported?") == "protocols.md"  # not the page that says HTTP most
    assert first("How do I check my configuration?") == "checks.md"  # not the page that says configuration
    assert first("How do I back up the zone keys?") == "backup.md"  # not the page that says keys
    assert first("How do I set the time zone?") == "timezone.md"  # not the page that says set and time
    assert first("How do I change the background colour?") == "background.md"  # it says "color"
    # not the page that says "hide", "panel" and "automatically" apart
    assert first("How do I make the panel hide automatically?") == "panel.md"


def test_a_question_asks_for_the_one_word_two_nouns_make():
    """"Can I do it from the command line instead?" asks what "Exporting from the commandline"
    says; "command" and "line" alone are no part of what it asks, unless the question says them
    alone too."""
    from procmem.answerers.turn import Turn

    assert Turn("Can I do it from the command line instead?").question_terms == {"commandlin"}
    assert Turn("Which command sets the time zone?").question_terms == {"command", "set", "timezon"}
    assert compound_parts("the command line and a line of text") == {"command"}

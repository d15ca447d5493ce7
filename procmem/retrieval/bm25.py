"""Lexical retrieval with bm25s: English stop words removed, Snowball (PyStemmer) stemming after
irregular verb forms are brought to their base ("hidden": "hide") and short forms to the word
they stand for ("config": "configuration"); a name joined with
underscores (``html_logo_url``) is a token and so is each of its words, a name with a version
after a slash ("HTTP/2") is a token besides the name, and a verb with a particle that is also
written as one word is that word ("back up": "backup"); two nouns also written as one are that
word too ("time zone": "timezone"). A query says with one verb what it says
with a particle ("turn on": "enable", :func:`query_tokens`)."""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_EN

from procmem.retrieval.verbs import BASE_FORM

# BM25's term saturation and length normalisation (bm25s' defaults, Lucene's formula), which the
# Qdrant store's sparse vectors use too: other settings measured no better on the FAQs outside the
# repository (docs/history.md, "BM25's term saturation and length normalisation")
K1, B = 1.5, 0.75
TOKEN = re.compile(r"(?u)\b\w\w+\b")
# a code of three or more dotted numbers: a status code ("5.7.57"), a version ("4.4.0"), an address
# ("192.168.1.42"); its numbers alone are common words ("57") or none (one character), the code a
# rare one that a question quoting an error shares with the pages on that error
DOTTED_CODE = re.compile(r"\b\d+(?:\.\d+){2,}\b")
WORD_OR_CODE = re.compile(rf"{DOTTED_CODE.pattern}|\b\w\w+\b")  # a code whole, else TOKEN's words
STOPWORDS = frozenset(STOPWORDS_EN)
# a name with its version after a slash ("HTTP/2", "HTTP/1.1"): the version is no word of its own
# (one character), so "HTTP/2" was "http", a word of every page of a web server's manual
VERSIONED = re.compile(r"\b([a-z]+)/(\d+)\b")
# a verb with a particle that is also written as one word, the noun ("back up": "backup", "set
# up": "setup", "logged in": "login"): it is that one word, so a question that says "back up"
# meets a section headed "Data and metadata backup", and the other way round, and "set up" is
# not "set" ("set the value")
COMPOUND = re.compile(r"\b(?:(back)(?:s|ed|ing)?\s+(up)|(set)(?:s|ting)?\s+(up)|(log)ged\s+(in|out)"
                      # "log in" is a verb before "to", "with", … or at the end, not in "the logs in /var/log"
                      # nor in "Logging in Varnish"
                      r"|(log)(?:ging)?\s+(in|out)(?=\s+(?:to|into|with|as|via|using|again|of|from)\b|\s*[.,;:!?)]|\s*$)"
                      r"|(shut)(?:s|ting)?\s+(down)|(start)(?:s|ed|ing)?\s+(up)|(clean)(?:s|ed|ing)?\s+(up)"
                      r"|(look)(?:s|ed|ing)?\s+(up)|(roll)(?:s|ed|ing)?\s+(back|over)|(fail)(?:s|ed|ing)?\s+(over))\b")
# two nouns that are also written as one word ("time zone": "timezone", "user name": "username",
# "web site": "website", "command line": "commandline", "plug-in": "plugin", "sub-pages":
# "subpages"): they are that word as well as their own, so "How do I set the time zone?" meets a
# section headed "Timezone", "Can I do it from the command line?" one headed "Exporting from the
# commandline", and the other way round
NOUN_COMPOUND = re.compile(r"\b(?:(time)[\s-]+(zones?)|(user|file|host)[\s-]+(names?)"
                           r"|(web)[\s-]+(sites?|pages?)|(home)[\s-]+(pages?)|(check)[\s-]+(box(?:es)?)"
                           r"|(screen)[\s-]+(shots?|savers?)|(data)[\s-]+(bases?)|(work)[\s-]+(spaces?|flows?)"
                           r"|(key)[\s-]+(words?|boards?)|(pass)[\s-]+(words?)|(command)[\s-]+(lines?)"
                           r"|(tool|side|task)[\s-]+(bars?)|(short)[\s-]+(cuts?)|(hot)[\s-]+(keys?)"
                           r"|(file)[\s-]+(systems?)|(touch)[\s-]+(pads?)|(wall)[\s-]+(papers?)"
                           r"|(head)[\s-]+(phones?|sets?)|(book)[\s-]+(marks?)|(note)[\s-]+(books?)"
                           r"|(e)-(mails?)|(plug)-(ins?)|(add)-(ons?)|(pop)-(ups?)"
                           r"|(sub)-(pages?|folders?|menus?|directory|directories))\b")
# a feature named by "auto" ("autohide", "auto-complete", "AutoSave") is what it does, done
# automatically ("hide automatically"), so "How do I make the panel hide automatically?" meets a
# key headed "autohide", "auto-reply" the "automatic replies" of a question, and "auto-complete"
# "autocomplete"; two words, as many as "auto-reply" had been; not a word of its own ("automatic",
# "autonomous", "autograph", "autopsy") nor a name that says no action ("Autodiscover",
# "autoconf", "automake", "autotools", "autoexec")
AUTO_COMPOUND = re.compile(r"\bauto-?(?!mat|nom|graph|psy|biograph|crat|mobile|discover|conf|make|tools|reconf|exec)"
                           r"([a-z]{3,10})\b")
# the words that technical writing shortens, with what they stand for: a question that says
# "configuration" meets a page that says "config" ("Rsyslog has support for config checking"),
# one that says "sync" a page that says "synchronization"; not those that are also names of their
# own ("info" pages, the "env" command, a Word "doc")
FULL_WORD = {"config": "configuration", "configs": "configurations", "repo": "repository",
             "repos": "repositories", "dir": "directory", "dirs": "directories", "pkg": "package",
             "pkgs": "packages", "msg": "message", "msgs": "messages", "db": "database",
             "sync": "synchronize", "syncs": "synchronizes", "synced": "synchronized",
             "syncing": "synchronizing", "prefs": "preferences", "pic": "picture", "pics": "pictures"}
# words spelt one way in British and another in American English, British first: a question
# that says "colour" meets a page that says "color" (and "favourite" "favorite", "organise"
# "organize", "centre" "center"; the bundled recipes say "flavour" and "flavor"). Both are read
# as the American word's stem, whatever their endings ("coloured", "organisation"); a pair whose
# stems are the same already ("cancelled", "canceled") needs nothing.
BRITISH_SPELLINGS = (
    ("colour", "color"), ("favourite", "favorite"), ("favour", "favor"), ("behaviour", "behavior"),
    ("flavour", "flavor"), ("neighbour", "neighbor"), ("honour", "honor"), ("labour", "labor"),
    ("humour", "humor"), ("harbour", "harbor"), ("rumour", "rumor"), ("vapour", "vapor"),
    ("odour", "odor"), ("centre", "center"), ("licence", "license"), ("catalogue", "catalog"),
    ("dialogue", "dialog"), ("grey", "gray"), ("organise", "organize"), ("recognise", "recognize"),
    ("customise", "customize"), ("optimise", "optimize"), ("minimise", "minimize"),
    ("maximise", "maximize"), ("synchronise", "synchronize"), ("authorise", "authorize"),
    ("initialise", "initialize"), ("personalise", "personalize"), ("summarise", "summarize"),
    ("categorise", "categorize"), ("prioritise", "prioritize"), ("utilise", "utilize"),
    ("realise", "realize"), ("finalise", "finalize"), ("normalise", "normalize"),
    ("visualise", "visualize"), ("specialise", "specialize"), ("standardise", "standardize"),
    ("serialise", "serialize"), ("localise", "localize"), ("virtualise", "virtualize"),
    ("analyse", "analyze"), ("paralyse", "paralyze"), ("practise", "practice"),
    ("judgement", "judgment"), ("aluminium", "aluminum"), ("defence", "defense"),
    ("offence", "offense"), ("metre", "meter"), ("litre", "liter"), ("fibre", "fiber"),
    ("theatre", "theater"), ("mould", "mold"), ("plough", "plow"))
# the name a memory saves with its BM25 index: one saved with other tokens is made again (the
# compounds, the short forms and the spellings are named by a digest of their lists)
_SHORT_FORMS = hashlib.sha256(repr(sorted(FULL_WORD.items())).encode()).hexdigest()[:8]
_COMPOUNDS = hashlib.sha256(NOUN_COMPOUND.pattern.encode()).hexdigest()[:8]
_SPELLINGS = hashlib.sha256(repr(BRITISH_SPELLINGS).encode()).hexdigest()[:8]
_AUTO = hashlib.sha256(AUTO_COMPOUND.pattern.encode()).hexdigest()[:8]
TOKENIZER_NAME = (f"regex-w2+/dotted-codes/underscore-parts/name-version/compounds/noun-compounds-{_COMPOUNDS}"
                  f"/auto-compounds-{_AUTO}/stopwords-en"
                  f"/irregular-verbs/short-forms-{_SHORT_FORMS}/snowball-english/us-spelling-{_SPELLINGS}")
# the verb that instructions use for what a question says with a particle, a stop word that
# leaves "turn" alone to search for ("How do I turn on HTTP/2?": "you need to enable it"); not
# what the user reports having done ("I turned it on. People still see …")
PHRASAL_VERBS = {
    "enable": re.compile(r"\b(?:turn|switch)(?:ing)?\s+(?:(?:it|them|this|that)\s+)?on\b"),
    "disable": re.compile(r"\b(?:turn|switch)(?:ing)?\s+(?:(?:it|them|this|that)\s+)?off\b"),
    # what was just done, taken back ("Can I reverse that?", "roll it back"), not a reversed order
    "undo": re.compile(r"\b(?:revers(?:e|ing)\s+(?:it|that|this|them|what|the\s+(?:last\s+)?(?:change|action))"
                       r"|roll(?:ing)?\s+(?:(?:it|them|this|that)\s+)?back|take\s+(?:it|that|this|them)\s+back)\b"),
}


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _american_stems() -> dict[str, str]:
    """The Snowball stem of each British spelling (:data:`BRITISH_SPELLINGS`) -> the American's."""
    stemmer = _stemmer()
    return {british: american for british, american in
            zip(stemmer.stemWords([b for b, _ in BRITISH_SPELLINGS]),
                stemmer.stemWords([a for _, a in BRITISH_SPELLINGS]), strict=True)
            if british != american}


def words(text: str) -> list[str]:
    """Lower-cased words of two characters or more, stop words dropped; a code of dotted numbers
    as one word before its numbers ("5.7.57": "5.7.57", "57"; :data:`DOTTED_CODE`); after a name joined with
    underscores, its own words ("html_logo_url", "html", "logo", "url": the question says "logo");
    a name with a version after a slash, the name and the two joined ("HTTP/2": "http", "http2");
    a verb with a particle that is also one word as that word ("backing up": "backup",
    :data:`COMPOUND`), two nouns also written as one word as well as that word ("time zone":
    "time", "zone", "timezone", :data:`NOUN_COMPOUND`), and a feature named by "auto" as what it
    does, done automatically ("autohide", "auto-hide": "automatically", "hide"; :data:`AUTO_COMPOUND`)."""
    found: list[str] = []
    lowered = COMPOUND.sub(lambda m: "".join(filter(None, m.groups())), text.lower())
    lowered = NOUN_COMPOUND.sub(lambda m: f"{m[0]} {''.join(filter(None, m.groups()))}", lowered)
    lowered = AUTO_COMPOUND.sub(lambda m: f"automatically {m[1]}", lowered)
    for word in WORD_OR_CODE.findall(VERSIONED.sub(r"\1 \1\2", lowered)):
        if DOTTED_CODE.fullmatch(word):  # the code, then its numbers as words
            found += [word, *(part for part in TOKEN.findall(word) if part not in STOPWORDS)]
        elif word not in STOPWORDS:
            found.append(word)
        if "_" in word.strip("_"):
            found += [part for part in word.split("_") if len(part) >= 2 and part not in STOPWORDS]
    return found


def stems(found: list[str]) -> list[str]:
    """The Snowball stem of each word, an irregular verb form's that of its base form, a short
    form's that of the word it stands for (:data:`FULL_WORD`), a British spelling's that of the
    American one (:data:`BRITISH_SPELLINGS`)."""
    american = _american_stems()
    return [american.get(stem, stem)
            for stem in _stemmer().stemWords([BASE_FORM.get(word) or FULL_WORD.get(word, word) for word in found])]


def compound_parts(text: str) -> set[str]:
    """The stems of the words of ``text`` that only stand in the one word they make together
    (:data:`NOUN_COMPOUND`: "command" and "line" of "from the command line", whose token
    "commandline" says all they say), not those the text also says alone."""
    lowered = text.lower()
    parts = {word for m in NOUN_COMPOUND.finditer(lowered) for word in TOKEN.findall(m[0])}
    alone = NOUN_COMPOUND.sub(" ", lowered)
    return set(stems(sorted(parts - set(TOKEN.findall(alone)))))


def tokenize(text: str) -> list[str]:
    """The stems of :func:`words`."""
    return stems(words(text))


def query_tokens(text: str, asked: str | None = None) -> list[str]:
    """The tokens of a query: :func:`tokenize`'s, the word two nouns make once more
    (:data:`NOUN_COMPOUND`), and the stem of the verb that instructions use for what the question
    ``asked`` (None: ``text``) says with a particle (:data:`PHRASAL_VERBS`): a query that holds
    the conversation's earlier turns takes the verbs of its last question."""
    lowered = (text if asked is None else asked).lower()
    # the one word of two nouns counts as much as the two (a page on the "time server" is not
    # one on the "timezone")
    compounds = ["".join(filter(None, m.groups())) for m in NOUN_COMPOUND.finditer(text.lower())]
    return tokenize(text) + stems(compounds) + said_verbs(lowered)


def said_verbs(text: str) -> list[str]:
    """The stems of the verbs instructions use for what ``text`` says with a particle or in other
    words (:data:`PHRASAL_VERBS`: "turn it on" is "enable", "reverse that" is "undo")."""
    lowered = text.lower()
    return stems([verb for verb, said in PHRASAL_VERBS.items() if said.search(lowered)])


class BM25Index:
    """A bm25s index over one kind of unit; rows are in the order of the texts given."""

    def __init__(self, model: bm25s.BM25, size: int):
        self.model = model
        self.size = size

    @classmethod
    def build(cls, token_lists: list[list[str]]) -> BM25Index:
        """The index of ``token_lists``, its vocabulary numbered in the order the terms first
        occur (bm25s numbers them in the order of a set, which changes from run to run: the same
        units would save different files)."""
        vocabulary: dict[str, int] = {}
        ids = [[vocabulary.setdefault(t, len(vocabulary)) for t in tokens] for tokens in token_lists]
        model = bm25s.BM25(k1=K1, b=B)
        model.index((ids or [[]], vocabulary or {"": 0}), show_progress=False)
        return cls(model, len(token_lists))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every row (0 where no query term occurs)."""
        if self.size == 0:
            return np.zeros(0, dtype=np.float32)
        known = [t for t in query_tokens if t in self.model.vocab_dict]
        if not known:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self.model.get_scores(known), dtype=np.float32)[: self.size]

    def save(self, directory: Path) -> None:
        self.model.save(str(directory), show_progress=False)

    @classmethod
    def load(cls, directory: Path, size: int) -> BM25Index:
        model = bm25s.BM25.load(str(directory), show_progress=False, verbosity=0)
        return cls(model, size)

"""What a section is for, read from its heading.

| heading (case-insensitive)                         | role          | becomes                                  |
|----------------------------------------------------|---------------|------------------------------------------|
| Symptoms, Problem, Issue                           | symptom       | FAQ unit (the problem as the user sees it)|
| Cause, Causes, Why this happens                    | cause         | FAQ unit ("what causes ...")             |
| Resolution, Solution(s), Workaround(s), Procedure  | resolution    | Procedure + Step units                   |
| Method/Resolution/Solution/Option/Workaround N: x  | alternative   | Step unit "x", chained CONTINUE to N+1   |
| Step/Part/Phase N: x                               | sequence      | Step unit "x", chained CONTINUE to N+1   |
| More information, References, See also, Status ... | info          | Appendix unit                            |
| Before you start, Prerequisites, Requirements      | prerequisite  | folded into prerequisites / inputs       |
| Ingredients / Directions (recipes)                 | ingredients / directions | Procedure input / steps       |
| Contents, Table of contents, In this article       | contents      | nothing (a list of the page's headings)  |
| GNU Free Documentation License, Copying, Copyright | legal         | nothing (a manual's terms of use)        |
| Change Log, Release notes, Version 1.2 (2023-03-24)| changes       | nothing (what each release changed)      |
| Synopsis                                           | synopsis      | nothing (a manual page's command forms)  |
| What is X? / What are X? / What do X mean?         | (terminology) | Terminology unit with header X           |
| any other question                                 | (question)    | FAQ unit                                 |
| on an FAQ page, the problem stated: "My machine …" | (problem)     | FAQ unit                                 |

Symptoms and Cause become FAQ units rather than Terminology: they answer "why does this happen /
what is wrong", which is what users ask, and they supply the prerequisite of the resolution steps.
A section without a role inherits its nearest parent's role (the document title does not count).
"""

from __future__ import annotations

import re
from typing import Literal

Role = Literal["symptom", "cause", "resolution", "alternative", "sequence", "info", "prerequisite",
               "ingredients", "directions", "contents", "legal", "changes", "synopsis", "other"]

ROLE_HEADINGS: dict[Role, re.Pattern[str]] = {
    "symptom": re.compile(r"^(?:symptoms?|the problem|problem|issue|problem description)$"),
    "cause": re.compile(r"^(?:causes?|the cause|why (?:does )?this happens?|reason)$"),
    "resolution": re.compile(
        r"^(?:resolution|resolutions|solutions?|workarounds?|fix|how to fix(?: it)?|procedure|"
        r"steps|to resolve this (?:issue|problem)|troubleshooting steps)$"
    ),
    "alternative": re.compile(
        r"^(?:method|resolution|solution|option|workaround|fix)\s*(?:[0-9]+|[a-z])\b\s*[:.\-–—]?\s*(?P<rest>.*)$"
    ),
    "sequence": re.compile(r"^(?:step|part|phase|stage)\s*[0-9]+\b\s*[:.\-–—]?\s*(?P<rest>.*)$"),
    "info": re.compile(
        r"^(?:more information|additional information|references|see also|related (?:articles|topics|"
        r"content|information)|status|notes?|tips?|learn more|next steps|introduction|overview|summary|"
        r"background|contribution|remarks)$"
    ),
    "prerequisite": re.compile(
        r"^(?:before you (?:start|begin)|prerequisites?|requirements?|what you (?:need|will need)|"
        r"applies to)$"
    ),
    "ingredients": re.compile(r"^ingredients?$"),
    "directions": re.compile(r"^(?:directions|instructions|preparation|method)$"),
    "contents": re.compile(r"^(?:(?:table of )?contents|in this (?:article|topic|section|guide))$"),
    # the whole heading names the manual's licence or terms, after its number, if any ("Appendix C
    # GNU Free Documentation License", "Copying This Manual"); "License types" is a topic and stays
    "legal": re.compile(r"^(?:(?:appendix\s+)?[a-z\d][\d.]*\.?\s+)?(?:the\s+)?(?:(?:gnu\s+)?(?:free\s+documentation|"
                        r"(?:lesser\s+|library\s+)?general\s+public)\s+licen[cs]e(?:,?\s+version\s+[\d.]+)?|"
                        r"licen[cs]e(?:\s+notices?)?|copying(?:\s+(?:this\s+(?:manual|document)|conditions))?|"
                        r"copyrights?(?:\s+(?:and\s+licen[cs]e|notices?))?|legal\s+notices?|"
                        r"(?:licen[cs]e|copyright)\s+(?:and|&)\s+(?:copyright|licen[cs]e))$"),
    # a software's list of what each release changed ("Version 1.2.4 (2023-03-24)", "v9.0.0
    # (2023-01-16)", "2.1.0 (2020-05-01)" and its "Fixes:"): its items ("fix examples using borg
    # init", "add --remote-ratelimit") read as steps and answered how-to questions; "Upgrading to
    # version 2" is a task and stays
    "changes": re.compile(r"^(?:change\s?log|changes log|release notes|release history|version history|"
                          r"(?:(?:version|release|v)\s*)\d+(?:\.\d+)+[\w.-]*(?:\s+and\s+earlier)?(?:\s*\(.*\))?|"
                          r"\d+(?:\.\d+)+[\w.-]*\s*\([^)]*\d{4}[^)]*\))$"),
    # a manual page's forms of its command ("git send-email [<options>] <file|directory>…"): how
    # it is called in general, read as steps to run; its other sections say what to do
    "synopsis": re.compile(r"^synopsis$"),
}
TERM_QUESTION = re.compile(
    r"^(?:what (?:is|are) (?:an? |the )?(?P<a>.+?)|what (?:does|do) (?P<b>.+?) mean)\s*\??$", re.I
)


def heading_role(heading: str) -> Role:
    key = re.sub(r"\s+", " ", heading.strip().rstrip(":").casefold())
    for role, pattern in ROLE_HEADINGS.items():
        if pattern.match(key):
            return role
    return "other"


# headings that label a part of a topic rather than name one ("Forcing HTTPS" > "Description:",
# "Solution:", "Discussion:")
LABEL_HEADING = re.compile(r"^(?:description|discussion|details|explanation|examples?|usage|syntax|"
                           r"options|arguments|parameters|return values?)$")


def labels_a_part(heading: str) -> bool:
    """A heading that says only what part of a topic its section is ("Resolution", "Cause",
    "Description:"); "Method 2: Use PowerShell" says more."""
    return heading_role(heading) not in ("other", "alternative", "sequence") \
        or bool(LABEL_HEADING.match(heading.strip().rstrip(":").casefold()))


def heading_rest(heading: str) -> str:
    """``Method 2: Set the value`` -> ``Set the value`` (the heading itself otherwise)."""
    key = heading.strip()
    for role in ("alternative", "sequence"):
        m = ROLE_HEADINGS[role].match(key.casefold())
        if m and m.group("rest"):
            return key[len(key) - len(m.group("rest")) :].strip()
    return key


def term_of(heading: str) -> str:
    """The term a "What is X?" heading defines, or ``""``."""
    m = TERM_QUESTION.match(heading.strip())
    return (m.group("a") or m.group("b") or "").strip() if m else ""


# how a question opens, when its question mark is missing
ASKING = re.compile(r"^(?:(?:can|could|do|does|did|is|are|should|will|would|may|must)\s+"
                    r"(?:i|you|we|they|it|my|your|our|this|there)|how (?:do|can|does|much|many|long|often|should)|"
                    r"what if|why (?:do|does|is|are|can't|won't|doesn't|isn't)|"
                    # an inverted question about anything ("Can Cargo be used inside make", "Does
                    # the message appear in message tracking"), not "Do not ..." or a month
                    r"(?:can|could|does|did|is|are|should|will|would|has|have)\s+(?!not\b)[\w-]+)\b", re.I)


_ENTRY_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+")  # "23. " before an FAQ's question


def is_question(heading: str) -> bool:
    """A heading that asks: with its question mark, or one that plain-text FAQ pages leave off
    ("Can I travel while my application is being processed"); after its number, and followed by
    what the asker saw ("23. Why doesn’t upsmon shut down my system? I pulled the plug and
    nothing happened.")."""
    text = _ENTRY_NUMBER.sub("", heading.strip().rstrip("!")).replace("’", "'")  # "… what is Linux?!"
    return text.endswith("?") or "? " in text or bool(ASKING.match(text))


# a page of questions and answers, by its title: "Frequently asked questions — Borg", "Teams FAQ"
FAQ_PAGE = re.compile(r"\b(?:faqs?|frequently asked questions)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|i['’]m|my|me|we|our)\b", re.I)


def states_problem(heading: str) -> bool:
    """A heading that states the user's problem rather than asking (an FAQ's "My machine goes to
    sleep causing Broken pipe", "/path/to/repo is not a valid repository. Check repo config."):
    a sentence of four words or more that ends with a full stop or an exclamation mark, or says
    "I", "my" or "we"; "Migrating from Attic" names a topic."""
    text = heading.strip()
    return len(text.split()) >= 4 and (text.endswith((".", "!")) or bool(_FIRST_PERSON.search(text)))

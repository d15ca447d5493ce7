"""A recipe step with its amounts. A cook can follow "Mix flour, salt, egg and water" only with
the ingredient list beside it, so the answer gives each ingredient's line of that list where a
step first names it: "Mix flour (500g buckwheat flour), salt, egg (1 egg) and water (70cl
water)".

The lines come from the unit (``meta["ingredients"]``, written by :mod:`procmem.extract.recipe`).
A line names its ingredient by the last word of each alternative before its first comma ("1
pound ground beef or turkey": beef, turkey; "1 medium onion, finely chopped": onion), compared by
stem. A line without an amount ("salt", "fresh parsley") adds nothing and is not given.
"""

from __future__ import annotations

import re
from collections import Counter

from procmem.answerers.prose import plain_text
from procmem.retrieval.query import key_terms, terms

AMOUNT = re.compile(r"[\d½¼¾⅓⅔⅛]")
MAX_WORDS = 12  # a longer line is a note about the ingredient, not its amount
_PARENTHESES = re.compile(r"\([^()]*\)")
_ALTERNATIVES = re.compile(r"\s+(?:or|and|&)\s+|/")
_FIRST_SENTENCE = re.compile(r"(?<=[a-z)])\.\s+(?=[A-Z])")
# words that make a compound with the ingredient before them: "tomato sauce" is not the tomato
COMPOUND_HEADS = frozenset(terms(
    "sauce paste powder juice stock broth oil flakes seeds leaves zest extract yolks whites cloves "
    "cubes water milk cream butter flour sugar salt vinegar syrup"))


def amount_line(line: str) -> str:
    """The ingredient line as an answer quotes it: plain text, its first sentence; "" when it
    has no amount or is too long to be one."""
    line = _FIRST_SENTENCE.split(plain_text(line), maxsplit=1)[0].rstrip(".")
    return line if AMOUNT.search(line) and len(line.split()) <= MAX_WORDS else ""


def _head(line: str) -> str:
    """What a line names before its first comma, without what it says in parentheses."""
    return re.split(r"[,:;]", _PARENTHESES.sub(" ", line), maxsplit=1)[0]


def ingredient_names(line: str) -> set[str]:
    """The stems that name the ingredient of a line."""
    names = set()
    for alternative in _ALTERNATIVES.split(_head(line)):
        stems = [t for t in terms(alternative) if not AMOUNT.search(t)]
        if stems:
            names.add(stems[-1])
    return names


def _inside_parentheses(text: str, position: int) -> bool:
    before = text[:position]
    return before.count("(") > before.count(")")


def _names_it(step: str, start: int, end: int, line: str, listed: set[str]) -> bool:
    """Whether the word at ``start:end`` of ``step`` stands for the ingredient of ``line``."""
    if _inside_parentheses(step, start):
        return False
    before = step[:start].split()[-3:]
    following = re.match(r"[ -]+([A-Za-z]+)", step[end:])
    own = set(terms(_head(line)))
    return not (any(AMOUNT.search(w) for w in before)
                or (before and set(terms(before[-1])) & (listed - own))
                or (following and set(terms(following.group(1))) & (COMPOUND_HEADS - own)))


def _phrase_end(step: str, end: int, own: set[str]) -> int:
    """The end of the ingredient's name in ``step`` from the word ending at ``end``: the words
    after it that its line names too ("lemon juice" for "Juice of 1/2 Lemon")."""
    while following := re.match(r"[ -]+([A-Za-z]+)", step[end:]):
        stems = set(terms(following.group(1)))
        if not stems or not stems <= own:
            break
        end += following.end()
    return end


def with_amounts(step: str, ingredients: list[str], given: set[str]) -> str:
    """``step`` with the line of each ingredient it names, after the first word that names
    it, for the ingredients not yet ``given`` in the answer (``given`` is updated). A word does
    not name an ingredient when several lines name it ("flour" of rye, all-purpose and bread
    flour; "powder" of chilli and curry powder), inside parentheses, when the step gives its
    amount ("700ml of chicken stock"), after another ingredient's word ("turmeric powder" for
    the line of chilli powder) and before a word that makes a compound with it ("tomato sauce"
    for the tomato)."""
    if not ingredients:
        return step
    every = [plain_text(line) for line in ingredients]
    named = Counter(name for line in every for name in ingredient_names(line))
    listed = {t for line in every for t in terms(_head(line))}
    words = key_terms(step)
    inserts: dict[int, str] = {}
    for line in map(amount_line, ingredients):
        if not line or line in given:
            continue
        names = {n for n in ingredient_names(line) if named[n] == 1}
        spans = (m.span() for stem, word in words if stem in names
                 for m in re.finditer(rf"\b{re.escape(word)}\b", step, re.I))
        end = next((e for s, e in spans if _names_it(step, s, e, line, listed)), None)
        if end is not None:
            end = _phrase_end(step, end, set(terms(_head(line))))
            if end in inserts:
                continue
            inserts[end] = line
            given.add(line)
    for end in sorted(inserts, reverse=True):
        step = f"{step[:end]} ({inserts[end]}){step[end:]}"
    return step


__all__ = ["amount_line", "ingredient_names", "with_amounts"]

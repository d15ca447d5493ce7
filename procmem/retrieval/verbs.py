"""Irregular past forms of verbs that instructions and questions use, with their base form.

A stemmer leaves "hidden", "forgotten" or "overwritten" apart from "hide", "forget" and
"overwrite", so "How do I hide an item?" would not meet "#[doc(hidden)]", nor "I forgot my
password" a "forgotten password" page. Forms that are also common nouns or other words in
technical text ("bit", "left", "saw", "won" of "won't", "stuck" and "stick", "led", "lay") are
left out, and so are forms that prose uses in other senses far more than
questions use the verb ("as shown below", "not found", "built-in", "a given file", "known
issues", "changes made", "Sent Items")."""

from __future__ import annotations

_FORMS = {
    "blow": "blew blown",
    "break": "broke broken",
    "bring": "brought",
    "burn": "burnt",
    "buy": "bought",
    "catch": "caught",
    "choose": "chose chosen",
    "draw": "drew drawn",
    "drive": "drove driven",
    "eat": "ate eaten",
    "fall": "fell fallen",
    "forbid": "forbade forbidden",
    "forget": "forgot forgotten",
    "freeze": "froze frozen",
    "get": "got gotten",
    "grow": "grew grown",
    "hang": "hung",
    "hide": "hid hidden",
    "hold": "held",
    "keep": "kept",
    "learn": "learnt",
    "lose": "lost",
    "mean": "meant",
    "meet": "met",
    "override": "overrode overridden",
    "overwrite": "overwrote overwritten",
    "pay": "paid",
    "prove": "proven",
    "rebuild": "rebuilt",
    "redo": "redid redone",
    "rerun": "reran",
    "rewrite": "rewrote rewritten",
    "run": "ran",
    "sell": "sold",
    "shake": "shook shaken",
    "shrink": "shrank shrunk",
    "sleep": "slept",
    "slide": "slid",
    "speak": "spoken",
    "spend": "spent",
    "spill": "spilt",
    "spoil": "spoilt",
    "steal": "stole stolen",
    "take": "took taken",
    "teach": "taught",
    "tell": "told",
    "throw": "threw thrown",
    "understand": "understood",
    "undo": "undid undone",
    "wake": "woke woken",
    "withdraw": "withdrew withdrawn",
    "write": "wrote written",
}

BASE_FORM: dict[str, str] = {form: base for base, forms in _FORMS.items() for form in forms.split()}

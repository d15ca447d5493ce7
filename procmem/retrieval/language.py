"""The language a text is written in, for searching a memory whose pages come in several
languages (a documentation site with its translations: ``docs/ja/...``, ``docs/es/...``).

No model: Japanese, Korean and Chinese by their scripts (kana, Hangul, Han), the languages
written in Latin letters by their commonest words. A text says too little (a short question
without function words, a page of code) when no language stands out, and its language is then
"" (unknown), which no search leaves out.
"""

from __future__ import annotations

import re
from collections import Counter

# the commonest function words of each language (a word shared by two counts for both; no
# word of one letter, which code is full of)
_COMMON: dict[str, str] = {
    "en": "the and of to is in that it for you with this are on be as can how do does "
          "what not or your if by an from my when which will have there",
    "es": "el la los las de que en un una es por con para se del al lo como más pero "
          "su sus este esta puede cuando también hay",
    "fr": "le la les de des et en un une est que pour dans du qui pas sur au avec ce "
          "vous il elle sont peut comme aussi",
    "de": "der die das und ist nicht ein eine zu den mit von für auf es sich dem des im "
          "sie wie auch wird kann oder",
    "pt": "os as de que do da em um uma para com não por se na no mais como "
          "dos das ao pode também",
    "it": "il lo la di che un una per non in con si del della sono come più gli le "
          "anche può questo",
    "nl": "de het een en van is dat op te in voor niet met zijn je ook hoe kan wordt "
          "deze aan",
}
FUNCTION_WORDS: dict[str, frozenset[str]] = {language: frozenset(words.split())
                                             for language, words in _COMMON.items()}
_WORD = re.compile(r"[^\W\d_]+")
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)  # fenced blocks and code spans
_EDGES = ".,;:!?¿¡()[]{}\"'“”‘’«»`*_"  # punctuation around a word
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
MIN_WORDS = 2  # function words a text must hold before its language is read from them
MARGIN = 1.5  # ... and as many times the runner-up's
# each function word with the languages it is one of
_LANGUAGES_OF: dict[str, tuple[str, ...]] = {
    word: tuple(language for language, words in FUNCTION_WORDS.items() if word in words)
    for word in set().union(*FUNCTION_WORDS.values())}


def text_language(text: str) -> str:
    """The language ``text`` is written in, as an ISO 639-1 code ("en", "ja"), or "" when the
    text does not say. A text in a CJK script is that script's language when its characters are
    at least a tenth of its letters (a translated page keeps its code in English)."""
    if not text.isascii():
        letters = sum(map(len, _WORD.findall(text)))
        kana, hangul, han = (len(p.findall(text)) for p in (_KANA, _HANGUL, _HAN))
        if letters and 10 * (kana + hangul + han) >= letters:
            return "ko" if hangul > kana + han else "ja" if kana else "zh"
    counts: Counter[str] = Counter()
    for word, times in Counter(text.lower().split()).items():
        for language in _LANGUAGES_OF.get(word.strip(_EDGES), ()):
            counts[language] += times
    ranked = counts.most_common(2)
    if not ranked or ranked[0][1] < MIN_WORDS:
        return ""
    best, found = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    return best if found >= MARGIN * runner_up else ""


def document_languages(texts: dict[str, list[str]], chars: int = 1000, least: int = 3,
                       share: float = 0.02) -> dict[str, str]:
    """The language of each document, from the prose (code left out) of its first ``chars``
    characters of text (its texts in order). A language that fewer than ``least`` documents, or
    than ``share`` of those whose language is known, are found in is taken for a misreading
    and read as unknown (a page of code with a few words of English)."""
    found = {}
    for doc_id, parts in texts.items():
        prose = _CODE.sub(" ", " ".join(parts))
        found[doc_id] = text_language(prose[:chars])
    counts = Counter(language for language in found.values() if language)
    known = sum(counts.values())
    rare = {language for language, n in counts.items() if n < max(least, share * known)}
    return {doc_id: "" if language in rare else language for doc_id, language in found.items()}

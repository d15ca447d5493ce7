"""History-aware queries: a conversation is retrieved with its context, not only its last question.

The last question leads (repeated ``question_weight`` times, which weighs it for BM25 and pulls
the embedding towards it), followed by the earlier questions, most recent first, then the most
recent answer, each trimmed; answers are long, so only the last one's opening words count. A
question without history is searched as asked: there is nothing to weigh it against.

What a question asks is read here too, for the search and the answerers alike: the words of its
task (:func:`terms`, without the words of conversation), whether it asks how to do something
(:func:`asks_how_to`), and the verbs that name its action (:func:`other_verbs`,
:func:`action_terms`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from procmem.retrieval.bm25 import stems, words

HISTORY_TURNS = 2
# 3 rather than 2 or 4 to 5 (60 bundled conversations, hybrid search over all 2,104 bundled
# documents: reference recall@5 0.769 at 2, 0.786 at 3, 0.751-0.761 at 4-5)
QUESTION_WEIGHT = 3
MAX_HISTORY_WORDS = 80
LAST_ANSWER_WORDS = 25


# words of the conversation rather than of the task: question words, pronouns, politeness
CHAT_WORDS = frozenset((
    "about", "after", "again", "all", "also", "am", "any", "anything", "because", "been",
    "before", "being", "can", "could", "did", "do", "does", "doing", "done", "even", "ever",
    "from", "get", "gets", "getting", "got", "had", "has", "have", "having", "he", "hello",
    "help", "her", "here", "hi", "him", "his", "how", "i", "instead", "its", "just", "know", "like",
    "me", "more", "my", "myself", "need", "now", "ok", "okay", "one", "our", "please",
    "rather", "really", "said", "say", "says", "she", "should", "so", "some", "something", "still",
    "sure", "tell", "thank", "thanks", "them", "thing", "things", "those", "tried", "try",
    "trying", "us", "use", "using", "very", "want", "way", "we", "what", "when", "where",
    "which", "who", "why", "would", "yes", "you", "your",
))


def key_terms(text: str) -> list[tuple[str, str]]:
    """``(stem, word)`` of each content word of ``text``, in order: the memory's BM25 tokens
    (stop words dropped, Snowball stems) without the words of conversation."""
    found = words(text)
    return [(stem, word) for stem, word in zip(stems(found), found, strict=True)
            if word not in CHAT_WORDS]


def terms(text: str) -> list[str]:
    """The stems of the content words of ``text`` (see :func:`key_terms`)."""
    return [stem for stem, _ in key_terms(text)]


# verbs a text names the same action by: "Adding a Bookmark" for "How do I create a bookmark?"
# (beside "Create a Folder"), "New Contact" for "How do I create a contact?"
SAME_ACTION = {terms(verb)[0]: frozenset(terms(other)[0] for other in others)
               for verb, others in (("create", ("add", "new")), ("add", ("create", "new")))}


# a question that asks how to add something to another thing ("… add a disk to a volume group?")
ADDS_TO = re.compile(r"\badd\b[^?.!,;]{1,60}?\b(?:to|into|onto)\b", re.I)


def other_verbs(question: str, verbs: Iterable[str]) -> dict[str, frozenset[str]]:
    """Each of a question's ``verbs`` (stems) that other verbs also name (:data:`SAME_ACTION`),
    with those verbs ("creat": "add", "new"); none when the question adds a thing to another
    (:data:`ADDS_TO`: "How do I add a disk to an LVM volume group?" puts it there, and asks no
    making of it)."""
    if ADDS_TO.search(question):
        return {}
    return {verb: SAME_ACTION[verb] for verb in verbs if verb in SAME_ACTION}


def action_terms(question_terms: set[str], verbs: Mapping[str, frozenset[str]]) \
        -> tuple[set[str], Callable[[str], list[str]]]:
    """``question_terms``, and :func:`terms` for a text compared with them, each reading a verb
    that names the same action as one of the question's ``verbs`` (:func:`other_verbs`) as one
    verb: "Adding a Contact" says "create contact" for "How do I create a new contact?"."""
    first = sorted(verbs)[:1]
    same = {other: first[0] for verb, others in verbs.items() for other in others | {verb}}
    return {same.get(term, term) for term in question_terms}, lambda text: [same.get(t, t) for t in terms(text)]


# a question that asks how to do something ("how do I give it a fixed address?"), also for
# someone else ("how does he switch both on?", "How can she find the meeting ID?")
HOW_DO_I = r"\bhow (?:do|does|can|could|should|would) (?:i|we|you|he|she|they|one)\b"
# ... or a wish followed by a bare "How?" ("I want to add my own shortcut. How?"), or whether
# there is a way ("Is there a way to trial these rules first so nothing gets rejected?", "Is it
# possible to …?")
HOW_TO = re.compile(HOW_DO_I + r"|\bhow to\b|(?:^|[.!:;]\s+)how\?"
                    r"|\bis there (?:a|any) way\b|\bis it possible to\b", re.I)


def asks_how_to(question: str) -> bool:
    return bool(HOW_TO.search(question))


def _trim(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words])


def conversation_query(history: Sequence[Sequence[str]], question: str, *,
                       turns: int = HISTORY_TURNS, question_weight: int = QUESTION_WEIGHT,
                       max_history_words: int = MAX_HISTORY_WORDS,
                       last_answer_words: int = LAST_ANSWER_WORDS) -> str:
    """One query text from the chat history (``[(question, answer), ...]``) and the last question."""
    question = question.strip()
    context: list[str] = []
    recent = list(history)[-turns:] if turns > 0 else []
    for q, _ in reversed(recent):
        context.append(q.strip())
    if recent and last_answer_words > 0:
        context.append(_trim(recent[-1][1], last_answer_words))
    context_text = _trim(" ".join(c for c in context if c), max_history_words)
    if not context_text:
        return question  # nothing to weigh it against: a first question is searched as asked
    return " ".join([question] * max(1, question_weight) + [context_text])

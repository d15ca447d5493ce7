"""Answers in conversations over help the repository does not hold: the MATE desktop's user
guide (DocBook), Evolution's help (Mallard), the Debian Administrator's Handbook (HTML) and
Postfix's README files (HTML, and again as the plain text nroff printed), from Debian's packages.

Each guide is fetched with `apt-get download` and unpacked with `dpkg-deb -x` into a cache folder
(once; `--cache`), and a memory is built over its folder the way a user builds one (`inscoqa
memory build --path DIR`). The questions, in `held_out_help.json`, come in conversations of one
to three turns ("How do I add a drawer to the panel?", "Can I put launchers in it?"); each is
asked with the answerer's own earlier replies as the history, as the chat demo keeps it. For
each question the file names the page whose passage answers it and one to three keys: the names
of the menu item, button, dialog, option, command or file by which the task is done ("Startup
Programs", "File > New > Calendar", "crontab -e"), copied from that passage; any one of them in a reply shows it found
the way. They were written by reading the guides, not the replies; a question the guide does
not answer has no keys, and counts apart. Postfix's questions are asked of both its editions
(`postfix`, `postfix-text`): the same pages, read by the HTML reader and by the plain-text one
from the gzipped text files Debian ships (unpacked once, as `NAME.txt`, into a folder of their
own). Per guide it prints, over the questions the guide answers:

- keys: the share whose reply (the plain answer and its steps) holds a key;
- plain: the share whose plain answer alone holds one;
- page: the share whose first cited source is the answering page;
- follow-ups: the keys share of the questions asked after others;
- search@1, search@5: the share whose answering page is the first, or among the first five,
  pages of the memory's default search for the question (with the same history), each page
  at its best unit: retrieval as the answerers meet it;

and how many of the questions the guide does not answer got "No matching instructions were
found." `--misses` lists each question whose reply holds no key. The packages' versions are
printed with the figures: another release of a guide may move them.

The guides are not shipped: each comes from its Debian package under its own licence (the MATE
user guide GFDL-1.1+, Evolution's help CC BY-SA 3.0, the Handbook GPL-2+ or CC BY-SA 3.0,
Postfix's documentation EPL-2.0 or IPL-1.0);
`held_out_help.json` holds only the questions, the pages' file names and the short keys.

Any answerer can be asked (`--answerer rag`, with `--engine`, `--base-url` and `--model` as
`inscoqa bench` takes them; the extractive answerer needs no model). A question whose answerer
fails (an unreachable engine, a reply it cannot read) is a recorded failure: it counts as a reply
without a key and is listed with its error.

    python benchmarks/held_out_help.py [--cache DIR] [--guide NAME] [--answerer NAME]
        [--engine embedded|vllm|external] [--base-url URL] [--model NAME] [--limit N] [--misses] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inscoqa.corpus import CorpusIndex  # noqa: E402
from procmem.answerers import Answer, AnswerRequest, answerer_names, make_answerer  # noqa: E402
from procmem.answerers.lead import NOTHING_FOUND  # noqa: E402
from procmem.answerers.parsing import ReplyParseError  # noqa: E402
from procmem.memory import Memory, build_memory  # noqa: E402
from serving import ChatModel, LLMError, connect, load_serving_config  # noqa: E402

QUESTIONS = Path(__file__).with_name("held_out_help.json")
DEFAULT_CACHE = Path("~/.cache/inscoqa/held-out-help")


@dataclass(frozen=True)
class Guide:
    package: str  # the Debian package that installs it
    folder: str  # its English pages, inside the package
    text_pages: str = ""  # a glob: the guide is these plain-text pages of the folder, as .txt files
    edition_of: str = ""  # the guide whose questions it is asked, as another edition of its pages


GUIDES = {
    "mate": Guide("mate-user-guide", "usr/share/help/C/mate-user-guide"),
    "evolution": Guide("evolution-common", "usr/share/help/C/evolution"),
    "debian-handbook": Guide("debian-handbook", "usr/share/doc/debian-handbook/html/en-US"),
    "postfix": Guide("postfix-doc", "usr/share/doc/postfix/html"),
    "postfix-text": Guide("postfix-doc", "usr/share/doc/postfix", text_pages="*README*", edition_of="postfix"),
}


class FetchError(RuntimeError):
    pass


def unpacked(guide: Guide, cache: Path) -> tuple[Path, str]:
    """The guide's folder and its package's version, fetched into ``cache`` on first use. A
    plain-text edition's pages (Debian gzips the larger ones) are written, unpacked and named
    ``NAME.txt``, into a folder of their own there."""
    folder, version = _unpacked_package(guide, cache)
    if not guide.text_pages:
        return folder, version
    pages = cache / guide.package / "text-pages"
    if not pages.is_dir():
        written = pages.with_name(f"{pages.name}.part")
        shutil.rmtree(written, ignore_errors=True)
        written.mkdir()
        for page in sorted(p for p in folder.glob(guide.text_pages) if p.is_file()):
            data = page.read_bytes()
            name = page.name.removesuffix(".gz")
            (written / f"{name}.txt").write_bytes(gzip.decompress(data) if page.suffix == ".gz" else data)
        written.rename(pages)
    return pages, version


def _unpacked_package(guide: Guide, cache: Path) -> tuple[Path, str]:
    root = cache / guide.package
    version_file = root / "VERSION"
    if (root / guide.folder).is_dir() and version_file.is_file():
        return root / guide.folder, version_file.read_text().strip()
    missing = [tool for tool in ("apt-get", "dpkg-deb") if shutil.which(tool) is None]
    if missing:
        raise FetchError(f"{guide.package}: {' and '.join(missing)} not found (a Debian system fetches the guide)")
    with tempfile.TemporaryDirectory() as tmp:
        fetched = subprocess.run(["apt-get", "download", guide.package], cwd=tmp, capture_output=True, text=True)
        debs = sorted(Path(tmp).glob("*.deb"))
        if fetched.returncode or not debs:
            reason = (fetched.stderr.strip().splitlines() or ["no package file"])[-1]
            raise FetchError(f"{guide.package}: apt-get download failed: {reason}")
        version = subprocess.run(["dpkg-deb", "-f", str(debs[0]), "Version"], capture_output=True,
                                 text=True, check=True).stdout.strip()
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], check=True)
    if not (root / guide.folder).is_dir():
        raise FetchError(f"{guide.package} {version}: no folder {guide.folder} in the package")
    version_file.write_text(version + "\n")
    return root / guide.folder, version


_MENU_SEPARATOR = re.compile(r"\s*(?:→|->|>|›|»)\s*")
_WORD = re.compile(r"[\w#]+")


def normal(text: str) -> str:
    """``text`` as keys are matched: lower case, words only (menu separators and punctuation
    gone), one space between them."""
    return " ".join(_WORD.findall(_MENU_SEPARATOR.sub(" ", text.casefold())))


def holds_key(text: str, keys: list[str]) -> bool:
    said = f" {normal(text)} "
    return any(f" {normal(key)} " in said for key in keys)


def _page(doc_id: str) -> str:
    """A page's file name without its suffix, the same in every edition of a guide."""
    name = doc_id.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def first_cited_page(answer: Answer) -> str:
    cited, _ = answer.cited_sources()
    return _page(cited[0][1].doc_id) if cited else ""


class Conversations:
    """The answerer's replies, each conversation's earlier turns asked once and kept as the
    history of the next (:meth:`Answer.said`)."""

    def __init__(self, memory: Memory, answerer: str = "extractive", llm: ChatModel | None = None):
        self.answerer = make_answerer(answerer, llm=llm, memory=memory)
        self.replies: dict[tuple[str, ...], Answer] = {}

    def reply(self, questions: tuple[str, ...]) -> Answer:
        """The reply to the last of ``questions``; an :class:`Answer` that says why when the
        answerer failed (the next turn's history keeps that, as a chat would)."""
        if questions not in self.replies:
            history = self.history(questions)
            try:
                reply = self.answerer.answer(AnswerRequest(questions[-1], history=history))
            except (LLMError, ReplyParseError) as exc:
                reply = Answer(f"{FAILED} {type(exc).__name__}: {exc}", [])
            self.replies[questions] = reply
        return self.replies[questions]

    def history(self, questions: tuple[str, ...]) -> list[tuple[str, str]]:
        """The chat before the last of ``questions``: each earlier question with its reply."""
        return [(q, self.reply(questions[:i + 1]).said()) for i, q in enumerate(questions[:-1])]


def searched_pages(memory: Memory, history: list[tuple[str, str]], question: str, k: int = 5) -> list[str]:
    """The first ``k`` pages of the memory's default search for a conversation's last question
    (the history-aware query of :meth:`Memory.search_conversation`), each at its best unit."""
    pages: list[str] = []
    for hit in memory.search_conversation(history, question, k=memory.config.candidates):
        if _page(hit.doc_id) not in pages:
            pages.append(_page(hit.doc_id))
    return pages[:k]


FAILED = "The answerer failed:"


def score_guide(memory: Memory, records: list[dict[str, Any]], answerer: str = "extractive",
                llm: ChatModel | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The figures of one guide, and the questions whose reply holds no key."""
    chats = Conversations(memory, answerer, llm)
    rows: dict[str, list[float]] = {"keys": [], "plain": [], "page": [], "follow_ups": [],
                                    "search@1": [], "search@5": []}
    unanswerable = nothing_said = failed = 0
    misses = []
    for record in records:
        reply = chats.reply((*record["history"], record["question"]))
        failed += reply.answer.startswith(FAILED)
        if not record["keys"]:
            unanswerable += 1
            nothing_said += reply.answer == NOTHING_FOUND
            continue
        found = holds_key("\n".join([reply.answer, *reply.procedures]), record["keys"])
        rows["keys"].append(float(found))
        rows["plain"].append(float(holds_key(reply.answer, record["keys"])))
        page = _page(record["page"] or "")
        rows["page"].append(float(first_cited_page(reply) == page))
        searched = searched_pages(memory, chats.history((*record["history"], record["question"])),
                                  record["question"])
        rows["search@1"].append(float(searched[:1] == [page]))
        rows["search@5"].append(float(page in searched))
        if record["history"]:
            rows["follow_ups"].append(float(found))
        if not found:
            misses.append({"history": record["history"], "question": record["question"], "keys": record["keys"],
                           "page": record["page"], "answer": reply.answer, "cited": first_cited_page(reply)})
    figures = {"answered_by_guide": len(rows["keys"]),
               **{k: round(statistics.mean(v), 3) if v else 0.0 for k, v in rows.items()},
               "follow_up_questions": len(rows["follow_ups"]),
               "not_answered_by_guide": unanswerable, "said_nothing_found": nothing_said, "failed": failed}
    return figures, misses


def load_questions(path: Path) -> list[dict[str, Any]]:
    records = json.loads(path.read_text(encoding="utf-8"))
    for i, record in enumerate(records):
        for field in ("guide", "history", "question", "page", "keys"):
            if field not in record:
                raise ValueError(f"{path}: record {i}: no field {field!r}")
        for field in ("history", "keys"):
            if not isinstance(record[field], list) or not all(isinstance(x, str) for x in record[field]):
                raise ValueError(f"{path}: record {i}: field {field!r} is no list of strings")
        if not isinstance(record["question"], str) or not record["question"].strip():
            raise ValueError(f"{path}: record {i}: field 'question' is no question")
        if record["guide"] not in GUIDES:
            raise ValueError(f"{path}: record {i}: guide {record['guide']!r} is none of {sorted(GUIDES)}")
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"where guides are unpacked ({DEFAULT_CACHE})")
    parser.add_argument("--guide", choices=sorted(GUIDES), action="append", help="only this guide (repeatable)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--answerer", default="extractive", help="the answerer asked (default: extractive)")
    parser.add_argument("--engine", choices=["embedded", "vllm", "external"], help="for an answerer with a model")
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions of each guide")
    parser.add_argument("--misses", action="store_true", help="list the questions whose reply holds no key")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.answerer not in answerer_names():
        parser.error(f"unknown answerer {args.answerer!r}; known: {answerer_names()}")
    try:
        records = load_questions(args.questions)
    except (OSError, ValueError) as exc:
        print(f"held_out_help: {exc}", file=sys.stderr)
        return 1
    results: dict[str, Any] = {}
    all_misses: dict[str, list[dict[str, Any]]] = {}
    guides = {}
    for name in args.guide or sorted(GUIDES):
        try:
            guides[name] = unpacked(GUIDES[name], args.cache.expanduser())
        except (FetchError, subprocess.CalledProcessError, OSError) as exc:
            print(f"held_out_help: {exc}", file=sys.stderr)
            return 1
    config = load_serving_config({"engine": args.engine, "base_url": args.base_url, "model": args.model})
    try:
        with nullcontext() if args.answerer == "extractive" else connect(config) as llm:
            for name, (folder, version) in guides.items():
                documents = list(CorpusIndex({folder.name: folder}).iter_documents(unreadable=[]))
                asked = [r for r in records if r["guide"] == (GUIDES[name].edition_of or name)][:args.limit or None]
                print(f"{name}: a memory over {len(documents)} pages, then {len(asked)} questions", file=sys.stderr)
                memory = build_memory(documents, progress=False)
                figures, misses = score_guide(memory, asked, args.answerer, llm)
                results[name] = {"package": f"{GUIDES[name].package} {version}", "documents": len(documents),
                                 **figures}
                all_misses[name] = misses
                if asked and figures["failed"] == len(asked):
                    first = next((m["answer"] for m in misses if m["answer"].startswith(FAILED)), "")
                    print(f"held_out_help: {name}: every answer failed. {first}".rstrip(), file=sys.stderr)
                    return 1
    except LLMError as exc:  # the engine would not start
        print(f"held_out_help: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"results": results, **({"misses": all_misses} if args.misses else {})}, indent=1))
        return 0
    for name, figures in results.items():
        print(f"{name} ({figures.pop('package')}), {args.answerer}: {figures}")
        if args.misses:
            for miss in all_misses[name]:
                asked = " / ".join([*miss["history"], miss["question"]])
                print(f"  - {asked}\n    keys {miss['keys']} on {miss['page']}; cited {miss['cited'] or '-'}: "
                      f"{miss['answer'][:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

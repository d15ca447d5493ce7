"""Retrieval and extractive answers on FAQs outside the repository: those a Debian system
installs under /usr/share/doc and with Perl, and the Cargo book that rustup installs.

Four memories are built the way a user builds one (`inscoqa memory build --path DIR`): one over
the plain-text FAQs of zlib, procps, xz, base-files, lsof, sed, valgrind, man-db and gnupg
(copied, decompressed, into a folder), one over the Valgrind manual's HTML pages, one over
the Cargo book's HTML pages (mdBook; its print.html holds the whole book again), and one over
three FAQs of Perl's modules (MakeMaker, libnet, IO::Compress) turned into HTML by pod2html
(their entries, ``=head2`` headings and ``=item`` terms, are the questions). Each FAQ
question is a query, and the answer under it the passage to find. The questions and answers are
read here by a parser written for each file's own layout, apart from the project's readers, so
that what the readers get wrong shows. Per memory it prints:

- search: whether the first result / one of the first five holds the answer (half of the
  answer's words, or half of the result's, as for the Debian FAQ in retrieval.py), and the mean
  words per result;
- extractive answer to the question asked alone: ROUGE-L recall of the plain answer against the
  FAQ's answer, and W-ROUGE-L (F) of the answer with its steps.

A file the system does not have is skipped and named.

    python benchmarks/system_faqs.py [--doc-root /usr/share/doc] [--cargo-book DIR] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from retrieval import holds_passage  # noqa: E402

from eval.rouge import rouge_l  # noqa: E402
from inscoqa.corpus import CorpusIndex  # noqa: E402
from procmem.answerers import AnswerRequest, make_answerer  # noqa: E402
from procmem.memory import Memory, build_memory  # noqa: E402

Pair = tuple[str, str]  # (question, the answer under it)
Starts = Callable[[str, int], str]  # the question a line starts (its words), or ""

# package folder under the doc root, file, name in the FAQ folder
TEXT_FAQS = [
    ("zlib1g-dev", "FAQ.gz", "zlib"), ("procps", "FAQ.gz", "procps"), ("xz-utils", "faq.txt.gz", "xz"),
    ("base-files", "FAQ", "base-files"), ("lsof", "00FAQ.gz", "lsof"), ("sed", "sedfaq.txt.gz", "sed"),
    ("valgrind", "FAQ.txt.gz", "valgrind"), ("man-db", "FAQ", "man-db"), ("gnupg", "FAQ", "gnupg"),
]
VALGRIND_HTML = "valgrind/html"
CARGO_BOOKS = "~/.rustup/toolchains/*/share/doc/rust/html/cargo"  # the first one found
PERL_LIBRARY = "/usr/share/perl"  # its newest version's folder
PERL_FAQS = ["ExtUtils/MakeMaker/FAQ.pod", "Net/libnetFAQ.pod", "IO/Compress/FAQ.pod"]
_POD_ENTRY = re.compile(r"^=(?:head[234]|item)\s+(?![*\d])(.+)$")  # not a bullet or a numbered item
_POD_CODES = re.compile(r"[A-Z]<+\s*([^<>]*?)\s*>+")  # C<code>, L<link>, B<bold>, ...


def _read(path: Path) -> str:
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    return data.decode("utf-8", errors="replace").replace("\t", "    ")


def _blocks(lines: list[str], starts: Starts) -> list[Pair]:
    """Each question and the text up to the next one (answers of fewer than 5 words left out)."""
    pairs: list[Pair] = []
    i = 0
    while i < len(lines):
        question = starts(lines[i], i)
        i += 1
        if not question:
            continue
        answer = []
        while i < len(lines) and not starts(lines[i], i):
            answer.append(lines[i].strip())
            i += 1
        body = " ".join(a for a in answer if a)
        if len(body.split()) >= 5:
            pairs.append((question, body))
    return pairs


def _numbered(pattern: str, after: int) -> Starts:
    """A numbered question line past the table of contents (line ``after``)."""
    def starts(line: str, i: int) -> str:
        m = re.match(pattern, line)
        return m.group(1).strip() if m and i > after else ""
    return starts


def _valgrind(lines: list[str]) -> list[Pair]:
    """"1.2. Question" (wrapped, up to its final ? . or :), the answer up to the next rule."""
    pairs: list[Pair] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^\d\.\d+\. (.+)$", lines[i])
        i += 1
        if not m:
            continue
        question = [m.group(1).strip()]
        while i < len(lines) and lines[i].strip() and not question[-1].endswith(("?", ".", ":")):
            question.append(lines[i].strip())
            i += 1
        answer = []
        while i < len(lines) and not lines[i].startswith("-----"):
            answer.append(lines[i].strip())
            i += 1
        body = " ".join(a for a in answer if a)
        if len(body.split()) >= 5:
            pairs.append((" ".join(question), body))
    return pairs


def _cargo(page: str) -> list[Pair]:
    """Each ``<h2>`` question of the Cargo book's faq.html and the text up to the next one."""
    def words(fragment: str) -> str:
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())

    main = page.split("<main>", 1)[-1].split("</main>", 1)[0]
    parts = re.split(r"<h2[^>]*>(.*?)</h2>", main, flags=re.S)
    pairs = [(words(q), words(a)) for q, a in zip(parts[1::2], parts[2::2], strict=True)]
    return [(q, a) for q, a in pairs if len(a.split()) >= 5]


def _pod(text: str) -> list[Pair]:
    """Each ``=head2``-``=head4`` heading or ``=item`` term of a POD file and its paragraphs up to
    the next one (a ``=head1`` ends an entry)."""
    pairs: list[Pair] = []
    question, answer = "", []
    for paragraph in [*text.split("\n\n"), "=cut"]:
        paragraph = paragraph.strip()
        entry = _POD_ENTRY.match(paragraph.split("\n", 1)[0])
        if entry or paragraph.startswith(("=head1", "=cut")):
            body = _POD_CODES.sub(r"\1", " ".join(" ".join(answer).split()))
            if question and len(body.split()) >= 5:
                pairs.append((question, body))
            question = _POD_CODES.sub(r"\1", entry.group(1)).strip() if entry else ""
            answer = []
        elif not paragraph.startswith("=") or paragraph.startswith("=item"):
            answer.append(paragraph.removeprefix("=item").strip())
    return pairs


def _perl_faqs(library: Path, folder: Path) -> list[Pair]:
    """The Perl FAQs' entries; each FAQ is written into ``folder`` as pod2html makes it."""
    pairs: list[Pair] = []
    for name in PERL_FAQS:
        pod = library / name
        pairs += _pod(pod.read_text(encoding="utf-8", errors="replace"))
        out = folder / (name.removesuffix(".pod").replace("/", "-") + ".html")
        subprocess.run(["pod2html", f"--infile={pod}", f"--outfile={out}", "--quiet",
                        f"--cachedir={folder.parent}"], check=True)
    return pairs


def faq_pairs(name: str, text: str) -> list[Pair]:
    """The questions and answers of one FAQ, read for its own layout."""
    lines = text.splitlines()
    if name == "zlib":
        return _blocks(lines, _numbered(r"^ ?\d+\. (.+)$", -1))
    if name == "procps":
        return _blocks(lines, lambda line, i: line.strip() if line.strip().endswith("?")
                       and not line.startswith(" ") else "")
    if name in ("xz", "base-files"):
        label = "Q:" if name == "xz" else "Q."
        return _blocks(lines, lambda line, i: line[2:].strip() if line.startswith(label) else "")
    if name == "lsof":  # its table of contents takes the first 520 lines
        return [p for p in _blocks(lines, _numbered(r"^\d+(?:\.\d+)+\s+(.+)$", 520)) if p[0].endswith("?")]
    if name == "sed":  # ... and the first 200 here
        return [p for p in _blocks(lines, _numbered(r"^\d+(?:\.\d+)+\.\s+(.+)$", 200)) if p[0].endswith("?")]
    if name == "valgrind":
        return _valgrind(lines)
    return []  # man-db (one question, not numbered) and gnupg (a pointer to the web) are distractors


def quality(memory: Memory, pairs: list[Pair]) -> dict[str, float]:
    answerer = make_answerer("extractive", memory=memory)
    rows: dict[str, list[float]] = {"top1": [], "top5": [], "words": [], "answer_recall": [],
                                    "answer_steps_f": []}
    for question, answer in pairs:
        hits = memory.search(question, k=5)
        found = [holds_passage(h.unit.render(), answer) for h in hits]
        rows["top1"].append(float(bool(found) and found[0]))
        rows["top5"].append(float(any(found)))
        rows["words"].append(statistics.mean(len(h.unit.render().split()) for h in hits) if hits else 0.0)
        reply = answerer.answer(AnswerRequest(question))
        rows["answer_recall"].append(rouge_l(reply.answer, answer, level="word").recall)
        both = " ".join([reply.answer, *reply.procedures])
        rows["answer_steps_f"].append(rouge_l(both, answer, level="word").fmeasure)
    return {"questions": len(pairs), **{k: round(statistics.mean(v), 3) if v else 0.0 for k, v in rows.items()}}


def _memory(folder: Path) -> Memory:
    docs = list(CorpusIndex({folder.name: folder}).iter_documents(unreadable=[]))
    return build_memory(docs, progress=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--doc-root", type=Path, default=Path("/usr/share/doc"))
    parser.add_argument("--cargo-book", type=Path, help=f"the Cargo book's HTML folder (default: {CARGO_BOOKS})")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"missing": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "faqs"
        folder.mkdir()
        pairs: list[Pair] = []
        valgrind: list[Pair] = []
        for package, file, name in TEXT_FAQS:
            path = args.doc_root / package / file
            if not path.is_file():
                results["missing"].append(str(path))
                continue
            text = _read(path)
            (folder / f"{name}-faq.txt").write_text(text, encoding="utf-8")
            found = faq_pairs(name, text)
            pairs += found
            valgrind = found if name == "valgrind" else valgrind
        if pairs:
            results["plain-text FAQs"] = quality(_memory(folder), pairs)
    manual = args.doc_root / VALGRIND_HTML
    if manual.is_dir() and valgrind:
        results["Valgrind manual (HTML)"] = quality(_memory(manual), valgrind)
    elif not manual.is_dir():
        results["missing"].append(str(manual))
    cargo = args.cargo_book or next(iter(sorted(Path.home().glob(CARGO_BOOKS.removeprefix("~/")))), None)
    if cargo is not None and (cargo / "faq.html").is_file():
        pairs = _cargo((cargo / "faq.html").read_text(encoding="utf-8"))
        results["Cargo book (HTML)"] = quality(_memory(cargo), pairs)
    else:
        results["missing"].append(str(cargo or CARGO_BOOKS))
    perl = max(Path(PERL_LIBRARY).glob("*/ExtUtils"), default=None)
    if perl is not None and shutil.which("pod2html") and all((perl.parent / name).is_file() for name in PERL_FAQS):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "perl-faqs"
            folder.mkdir()
            pairs = _perl_faqs(perl.parent, folder)
            results["Perl FAQs (pod2html)"] = quality(_memory(folder), pairs)
    else:
        results["missing"].append(f"pod2html and {PERL_LIBRARY}/<version>/" + ", ".join(PERL_FAQS))
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name, row in results.items():
        if name != "missing":
            print(f"{name}: {row}")
    if results["missing"]:
        print("not on this system: " + ", ".join(results["missing"]))
    return 0 if len(results) > 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())

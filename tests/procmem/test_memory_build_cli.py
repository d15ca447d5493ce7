"""``inscoqa memory build`` when the model-extraction engine is down: one line, exit 1, and the
next build retries exactly the documents the engine failed on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inscoqa.cli import main
from serving.config import ServingConfig
from serving.engines.process import free_port
from serving.fake_server import FakeLLMServer

FIXTURES = Path(__file__).resolve().parents[1] / "app_fixtures"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(FIXTURES / "descale-espresso-machine.md", folder)
    return folder


def build(docs: Path, out: Path) -> list[str]:
    return ["memory", "build", "--path", str(docs), "--out", str(out), "--kinds", "procedure",
            "--llm-extract", "--llm-all", "--json"]


def test_an_unreachable_engine_fails_the_build_in_one_line_and_is_retried_next_time(
        clean_env: Path, docs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("INSCOQA_ENGINE", "external")
    monkeypatch.setenv("INSCOQA_MODEL", "m")
    monkeypatch.setenv("INSCOQA_RETRIES", "0")
    monkeypatch.setenv("INSCOQA_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    out = clean_env / "memory"
    assert main(build(docs, out)) == 1
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "the engine failed on 1 document(s)" in err[0]
    assert "run the same command again" in err[0]
    report = json.loads(captured.out)["report"]
    assert report["failures"] and report["failures"][0]["error"].startswith("LLMConnectionError")
    assert (out / "CURRENT").exists()  # the rule-based units are saved all the same

    with FakeLLMServer() as server:  # the engine is back: the same command retries the document
        monkeypatch.setenv("INSCOQA_BASE_URL", server.base_url)
        main(build(docs, out))
        again = json.loads(capsys.readouterr().out)["report"]
        assert len(again["updated"]) == 1  # the failed document, taken again
        assert server.request_count >= 1
        assert not any(f["error"].startswith("LLMConnectionError") for f in again["failures"])


def test_the_config_default_engine_is_not_needed_without_model_extraction(
        clean_env: Path, docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ServingConfig().engine == "embedded"
    assert main(["memory", "build", "--path", str(docs), "--out", str(clean_env / "m"),
                 "--kinds", "procedure", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["report"]["failures"] == []


def test_a_document_that_cannot_be_read_is_named_left_out_and_fails_the_build(
        clean_env: Path, docs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder with one broken file: the other documents are built and saved, the broken one is
    named with its problem, and the exit status says the build is not complete."""
    (docs / "broken.md").write_bytes(b"# Title\n\x00\xff\xfe not text")
    out = clean_env / "memory"
    assert main(["memory", "build", "--path", str(docs), "--out", str(out), "--kinds", "procedure",
                 "--json"]) == 1
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["unreadable"] == [{"path": str(docs / "broken.md"), "problem": "not UTF-8 text (byte 9, line 2)"}]
    assert result["report"]["added"] == ["docs/descale-espresso-machine.md"]
    last = captured.err.strip().splitlines()[-1]
    assert "1 document(s) could not be read" in last and "broken.md: not UTF-8 text" in last
    assert (out / "CURRENT").exists()
    # once the file is mended, the same command builds it in and succeeds
    (docs / "broken.md").write_text("# Title\n\n1. Open Settings.\n2. Click Reset.\n", encoding="utf-8")
    assert main(["memory", "build", "--path", str(docs), "--out", str(out), "--kinds", "procedure",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert report["added"] == ["docs/broken.md"] and report["unchanged"] == ["docs/descale-espresso-machine.md"]


def test_a_page_that_copies_the_others_is_named_and_left_out(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A book whose print page holds every chapter again: the chapters are built, the print page
    is named on stderr and in the JSON, and the build succeeds."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(clean_env / "xdg"))
    book = clean_env / "book"
    book.mkdir()
    chapters = [f"# Part {n}\n\nPart {n} sets up the {n}th stage of the pipeline.\n\n"
                f"1. Open stage {n}.\n2. Save stage {n}.\n" for n in range(3)]
    for n, text in enumerate(chapters):
        (book / f"part{n}.md").write_text(text, encoding="utf-8")
    (book / "print.md").write_text("\n".join(chapters), encoding="utf-8")
    assert main(["memory", "build", "--path", str(book), "--out", str(clean_env / "m"),
                 "--kinds", "procedure", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["compilations_left_out"] == {"book/print.md": 3}
    assert sorted(result["report"]["added"]) == [f"book/part{n}.md" for n in range(3)]
    assert "left out book/print.md: it copies 3 other pages word for word" in captured.err


def test_pages_that_only_say_they_have_moved_are_named_and_left_out(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An old edition's pages that only point to the current one (the Rust book's): left out of
    the build, counted on stderr and listed in the JSON."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(clean_env / "xdg"))
    book = clean_env / "book"
    (book / "old").mkdir(parents=True)
    for n in range(6):
        (book / f"part{n}.md").write_text(f"# Part {n}\n\n1. Open stage {n}.\n2. Save stage {n}.\n", encoding="utf-8")
        (book / "old" / f"part{n}.md").write_text(
            f"# Part {n}\n\nThe old edition is no longer distributed.\n\nCheck out [the current version]"
            f"(../part{n}.md) instead.\n", encoding="utf-8")
    assert main(["memory", "build", "--path", str(book), "--out", str(clean_env / "m"),
                 "--kinds", "procedure", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["stubs_left_out"] == [f"book/old/part{n}.md" for n in range(6)]
    assert sorted(result["report"]["added"]) == [f"book/part{n}.md" for n in range(6)]
    assert "left out 6 pages with no text of their own" in captured.err


def test_a_rebuild_takes_out_the_pages_the_folder_no_longer_has_and_keeps_the_rest(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A help centre's folder built again after a page was deleted: the page's units leave the
    memory; a page that cannot be read now keeps what was saved of it, and the documents of
    another folder built into the same memory stay."""
    from procmem.memory import Memory

    monkeypatch.setenv("XDG_CACHE_HOME", str(clean_env / "xdg"))
    help_centre, other = clean_env / "help", clean_env / "other"
    help_centre.mkdir()
    other.mkdir()
    for name in ("reset", "print", "scan"):
        (help_centre / f"{name}.md").write_text(f"# How to {name}\n\n1. Open the {name} panel.\n2. Press {name}.\n",
                                                encoding="utf-8")
    (other / "tea.md").write_text("# Tea\n\n1. Boil water.\n2. Steep the leaves.\n", encoding="utf-8")
    out = clean_env / "m"

    def build(folder: Path) -> tuple[int, dict]:
        code = main(["memory", "build", "--path", str(folder), "--out", str(out), "--kinds", "procedure", "--json"])
        return code, json.loads(capsys.readouterr().out)["report"]

    assert build(help_centre)[0] == 0 and build(other)[0] == 0
    (help_centre / "print.md").unlink()
    (help_centre / "scan.md").write_bytes(b"# How to scan\n\x00\xff\xfe not text")
    code, report = build(help_centre)
    assert code == 1  # the page that cannot be read fails the build, as it always did
    assert report["removed"] == ["help/print.md"] and report["units_removed"] >= 1
    assert report["unchanged"] == ["help/reset.md"]
    assert Memory.load(out).doc_ids() == ["help/reset.md", "help/scan.md", "other/tea.md"]


def test_the_same_documents_build_the_same_memory_in_any_process(clean_env: Path) -> None:
    """Two builds of one folder in processes whose string hashing differs (as every new Python
    process's does) save the same files: units merged across pages in the same order, the same
    BM25 vocabulary; before, a run's figures could move with a rebuild of the same memory."""
    import hashlib
    import os
    import subprocess
    import sys

    from inscoqa.bundled import CORPORA_DIR

    folder = CORPORA_DIR / "officedocs/Exchange/ExchangeOnline/public-folders"  # pages merged across

    def saved(seed: str) -> dict[str, str]:
        out = clean_env / f"m{seed}"
        subprocess.run([sys.executable, "-m", "inscoqa", "memory", "build", "--path", str(folder), "--out", str(out)],
                       check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        (version,) = [p for p in out.iterdir() if p.is_dir()]
        files = {str(p.relative_to(version)): hashlib.sha256(p.read_bytes()).hexdigest()
                 for p in sorted(version.rglob("*")) if p.is_file() and p.name != "manifest.json"}
        manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
        manifest.pop("saved_at")
        return {**files, "manifest": json.dumps(manifest, sort_keys=True)}

    first, second = saved("1"), saved("2")
    assert any(name.startswith("bm25") for name in first) and "units.jsonl" in first
    assert first == second

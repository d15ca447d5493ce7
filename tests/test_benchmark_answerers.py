"""`benchmarks/answerers.py` as a user runs it: the extractive answerer over the bundled
conversations' own documents, its quality per file and the ceilings of a copied answer beside it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "answerers.py"
ARGS = ["--limit", "2", "--answerers", "extractive", "--setting", "given"]


def run(*extra: str) -> str:
    done = subprocess.run([sys.executable, str(SCRIPT), *ARGS, *extra], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_json_report_holds_each_file_quality_below_its_ceilings() -> None:
    report = json.loads(run("--json"))
    assert len(report["conversations"]) == 2
    quality = report["answerers"]["extractive"]["quality"]
    assert set(quality) == set(report["ceilings"]) == {"dev-gnome-cooking", "dev-officedocs"}
    for file, ceiling in report["ceilings"].items():
        assert 0.0 < ceiling["steps"] <= 1.0 and 0.0 < ceiling["w_rouge"] <= 1.0
        assert quality[file]["steps"] <= ceiling["steps"]
        assert quality[file]["w_rouge"] <= ceiling["w_rouge"]


def test_the_table_prints_the_ceilings_under_it() -> None:
    lines = run().splitlines()
    under = lines[next(i for i, line in enumerate(lines) if line.startswith("ceilings of an answer copied")):]
    assert [line.split()[0] for line in under[1:3]] == ["dev-gnome-cooking", "dev-officedocs"]
    assert all("step cov" in line and "W-RL" in line for line in under[1:3])

"""Importing the demo module changes nothing: no environment edits, no gradio, no cycle."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_has_no_side_effects_and_the_cli_does_not_import_the_demo() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in {"GRADIO_ANALYTICS_ENABLED", "HF_HUB_OFFLINE"}}
    code = (
        "import os, sys\n"
        "import inscoqa.cli.demo\n"
        "assert 'app' not in sys.modules, 'the CLI imports the demo only inside its command'\n"
        "import app\n"
        "assert 'gradio' not in sys.modules, 'gradio is imported when the page is built'\n"
        "assert 'GRADIO_ANALYTICS_ENABLED' not in os.environ\n"
        "assert 'HF_HUB_OFFLINE' not in os.environ\n"
        "app.set_offline_environment()\n"
        "assert os.environ['GRADIO_ANALYTICS_ENABLED'] == 'False'\n"
        "assert callable(app.reload_demo)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_app_never_imports_the_cli() -> None:
    """The CLI imports the demo inside its command; the demo does not import the CLI back."""
    import ast

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    modules = {getattr(n, "module", None) or n.names[0].name for n in imports}
    assert not any(m.startswith("inscoqa.cli") for m in modules), modules


def test_the_demo_command_hands_its_arguments_to_the_demo(capsys) -> None:
    import pytest

    from inscoqa.cli import main

    with pytest.raises(SystemExit) as info:
        main(["demo", "--help"])
    assert info.value.code == 0
    assert "--max-upload-kb" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["bench", "--no-such-flag"])  # other commands still refuse unknown flags

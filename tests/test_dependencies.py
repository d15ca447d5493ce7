"""Every third-party import of the project is declared in pyproject.toml.

A fresh install (``pip install -e ".[all]"`` after torch) must have everything the code imports;
a package that is only on a machine because something else pulled it in (or because it was
installed by hand) would break on a new machine. This walks every import of the shipped code.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("serving", "inscoqa", "procmem", "eval")
MODULES = ("app.py",)
# imports that come with a declared package under another distribution name
PROVIDED_BY = {"llama_cpp": "llama-cpp-python", "yaml": "pyyaml", "Stemmer": "pystemmer",
               "sklearn": "scikit-learn"}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {normalise(re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0]) for r in requirements}


def third_party_imports() -> dict[str, set[str]]:
    """Top-level module -> the files importing it (absolute imports of non-project modules)."""
    files = [f for pkg in PACKAGES for f in (ROOT / pkg).rglob("*.py")]
    files += [ROOT / m for m in MODULES]
    found: dict[str, set[str]] = {}
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in PACKAGES or top in {Path(m).stem for m in MODULES}:
                    continue
                if top in sys.stdlib_module_names or top == "__future__":
                    continue
                found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_third_party_import_is_declared() -> None:
    wanted = declared()
    owners = metadata.packages_distributions()
    missing = []
    for module, files in sorted(third_party_imports().items()):
        candidates = {normalise(d) for d in owners.get(module, [])}
        candidates.add(normalise(PROVIDED_BY.get(module, module)))
        if not candidates & wanted:
            missing.append(f"{module} (imported by {', '.join(sorted(files)[:3])})")
    assert not missing, "imported but declared in no pyproject.toml list: " + "; ".join(missing)


def test_the_walk_finds_imports_the_project_is_known_to_make() -> None:
    found = third_party_imports()
    assert {"httpx", "jsonschema", "bm25s", "numpy"} <= set(found)
    assert "json" not in found and "procmem" not in found

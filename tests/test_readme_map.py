"""README's Architecture section is a map of the tree: every module it names exists, and its
table of tiers is the architecture test's ``TIERS``.

A map that names a module which moved or went sends the next engineer to the wrong file; the
scan reads the section's backticked paths. A bare file name (``run.py``) is read in a folder
named before it in the same paragraph or table row (``pipeline/prove/`` … ``run.py``), or such
a folder's parent; the files of a run folder (``manifest.json``,
``results.json``, …) are documents, not modules, and are not looked up.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "perfproof"
RUN_FILES = frozenset({"manifest.json", "results.json", "prove.json", "hunt.json", "guard.json"})
PATH = re.compile(r"`([A-Za-z0-9_./-]+)`")
NAMED = re.compile(r"\.(py|json|j2)$|/$")


def architecture() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Architecture")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def missing_paths(section: str) -> list[str]:
    """The module paths ``section`` names that are not in the tree."""
    missing = []
    for part in re.split(r"\n\s*\n|\n\|", section):
        folders: list[Path] = [PACKAGE, ROOT]
        for m in PATH.finditer(part):
            name = m.group(1)
            if not NAMED.search(name) or name in RUN_FILES:
                continue
            here = [f / name for f in folders] + [f.parent / name for f in folders[2:]]
            found = next((p for p in here if p.exists()), None)
            if found is None:
                missing.append(name)
            elif name.endswith("/"):
                folders.append(found)
            elif "/" in name:
                folders.append(found.parent)
    return missing


def readme_tiers(section: str) -> list[set[str]]:
    """The packages of each row of the section's tier table, in order."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", section, flags=re.MULTILINE)
    out = []
    for _, cell in rows:
        names = {n.rstrip("/").removesuffix(".py") for n in re.findall(r"`([^`]+)`", cell)}
        out.append(names)
    return out


def test_every_module_the_map_names_exists() -> None:
    missing = missing_paths(architecture())
    assert not missing, f"README's Architecture names modules not in the tree: {missing}"


def test_the_map_check_sees_a_wrong_path() -> None:
    text = "`pipeline/prove/` (`run.py` the chain; `gone.py`), `stats/nowhere.py`, `results.json`"
    assert missing_paths(text) == ["gone.py", "stats/nowhere.py"]


def test_the_tiers_of_the_map_are_the_architecture_tests() -> None:
    spec = importlib.util.spec_from_file_location("arch", ROOT / "tests" / "test_architecture.py")
    assert spec is not None and spec.loader is not None
    arch = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("arch", arch)
    spec.loader.exec_module(arch)
    tiers = [set(t) for t in arch.TIERS]
    # the door's row names three tiers of the test (demo, cli, __main__) in one
    door = tiers[-3] | tiers[-2] | tiers[-1]
    assert readme_tiers(architecture()) == [*tiers[:-3], door]

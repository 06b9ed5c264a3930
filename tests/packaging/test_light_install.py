"""A lighter install (without matplotlib and tree-sitter) still gates: ``compare`` runs with
neither importable, and a verb that needs one stops with one line naming the extra."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = ROOT / "tests" / "fixtures" / "jmh" / "rounds-wi1-100ms"

# perfproof as a lighter install leaves it: the optional modules cannot be imported
BLOCKED = """
import sys
for name in ("matplotlib", "tree_sitter", "tree_sitter_java"):
    sys.modules[name] = None
from perfproof.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _perfproof(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    for name in ("THRESHOLD", "CONFIDENCE", "FAMILY", "DB"):
        env.pop(f"PERFPROOF_{name}", None)
    return subprocess.run(
        [sys.executable, "-c", BLOCKED, *map(str, args)],
        capture_output=True, text=True, env=env, cwd=cwd, check=False, timeout=120,
    )  # fmt: skip


def test_compare_gates_without_plotting_or_java_parsing(tmp_path: Path) -> None:
    done = _perfproof(
        "compare", ROUNDS / "1-base.json", ROUNDS / "1-head.json", "--format", "json",
        "--fail-on-regression", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    doc = json.loads(done.stdout)
    assert doc["comparisons"] and doc["settings"]["threshold"]["source"] == "default"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("argv", "extra", "package"),
    [
        (["report", ROOT / "tests" / "fixtures" / "runs" / "kryo-merged", "--format", "html"],
         "plots", "matplotlib"),
        (["scan", "--repo", "."], "code", "tree-sitter"),
    ],
)  # fmt: skip
def test_a_verb_needing_a_left_out_part_names_its_extra(
    tmp_path: Path, argv: list[str | Path], extra: str, package: str
) -> None:
    (tmp_path / "A.java").write_text("class A { void f() { Integer x = 1; } }\n")
    done = _perfproof(*argv, "--out", tmp_path / "out.html", cwd=tmp_path) if extra == "plots" \
        else _perfproof(*argv, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"perfproof: error: this needs {package}, which is not installed (a lighter install "
        f"leaves it out): pip install 'perfproof[{extra}]'"
    ]
    assert not (tmp_path / "out.html").exists()

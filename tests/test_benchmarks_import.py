"""Every script under ``benchmarks/`` (and its packages, ``lab/``) still imports, and does no
work when imported.

The scripts are run by hand, weeks apart, and a module moved in ``src/`` has broken their
imports before without any test noticing. Importing each is enough to catch that, and takes
milliseconds: the script's ``main`` is never called (a script runs it only under ``if __name__
== "__main__":``, which the second test holds every script to), and no process can start while
one imports, so a script that would build a project or run JMH at import fails here at once.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

OPTIONAL = {"msgspec": "codec_choice.py's rival codec (pip install msgspec), no dependency"}
"""Packages a script measures perfproof against and perfproof does not depend on: a script
that needs one is skipped where it is not installed."""


def _modules() -> list[str]:
    """The module names the scripts import each other by (``benchmarks/`` is on the path, as
    it is for ``python3 benchmarks/x.py``): each script, each package and its modules."""
    names = [p.stem for p in sorted(BENCHMARKS.glob("*.py"))]
    for init in sorted(BENCHMARKS.glob("*/__init__.py")):
        package = init.parent.name
        names.append(package)
        names += [f"{package}.{p.stem}" for p in sorted(init.parent.glob("*.py")) if p != init]
    return names


def _path(module: str) -> Path:
    parts = module.split(".")
    file = BENCHMARKS.joinpath(*parts).with_suffix(".py")
    return file if file.is_file() else BENCHMARKS.joinpath(*parts, "__init__.py")


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"a process started at import: {args[:1]}")


@pytest.mark.parametrize("module", _modules())
def test_the_script_imports(
    module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(subprocess, "Popen", _refuse)
    monkeypatch.setattr(subprocess, "run", _refuse)
    monkeypatch.setattr(sys, "argv", [str(_path(module))])
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top in OPTIONAL:
            pytest.skip(f"{module} needs {top}: {OPTIONAL[top]}")
        raise
    except SystemExit as exc:  # argparse or sys.exit: its main ran
        pytest.fail(f"{module} ran its main at import (exit {exc.code})")
    out, err = capsys.readouterr()
    assert out == err == "", f"{module} printed at import: {(out + err)[:200]}"


def _work_at_import(tree: ast.Module) -> list[int]:
    """Lines of top-level statements that do something when the module is imported: anything
    but a docstring, imports, definitions, assignments, the ``__main__`` guard and a
    ``sys.path`` entry for a sibling script."""
    allowed = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
               ast.Assign, ast.AnnAssign)  # fmt: skip
    found = []
    for node in tree.body:
        if isinstance(node, allowed):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring (of the module, or of the constant above it)
        if isinstance(node, ast.Expr) and ast.unparse(node.value).startswith("sys.path.insert("):
            continue
        if isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'":
            continue
        found.append(node.lineno)
    return found


def test_no_script_works_when_imported() -> None:
    found = {
        m: lines
        for m in _modules()
        if (lines := _work_at_import(ast.parse(_path(m).read_text(encoding="utf-8"))))
    }
    assert found == {}, f"top-level statements that run at import: {found}"


def test_the_rule_sees_what_it_forbids() -> None:
    code = (
        '"""doc"""\nimport sys\nsys.path.insert(0, "x")\nX = 1\n"""X\'s doc"""\n'
        "def main() -> int:\n    return 0\nmain()\nfor _ in []:\n    pass\n"
        'if __name__ == "__main__":\n    sys.exit(main())\n'
    )
    assert _work_at_import(ast.parse(code)) == [8, 9]

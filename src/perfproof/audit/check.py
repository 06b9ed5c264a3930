"""Verify the numbers a hand-written PR body quotes against a run's data.

Hand-written evidence goes wrong in small ways: a score copied from the wrong row, an error
from another run, a Δ% rounded the wrong way or with the wrong sign, "the intervals do not
overlap" when they do. :mod:`perfproof.audit.quotes` finds the quotes, :mod:`.truth` lists
what the run measured and :mod:`.match` checks one against the other; this module reads the
files and renders the outcome.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perfproof.audit.match import match_quotes
from perfproof.audit.quotes import Names, parse
from perfproof.audit.truth import Mismatch, truths
from perfproof.errors import InputError
from perfproof.report.rundir import RunFolder, load_run

SCHEMA = "perfproof.check/1"


@dataclass
class CheckResult:
    file: str
    run_dir: str
    checked: int
    unattributed: int
    mismatches: list[Mismatch]

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def document(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "file": self.file,
            "run_dir": self.run_dir,
            "ok": self.ok,
            "checked": self.checked,
            "unattributed": self.unattributed,
            "mismatches": [asdict(m) for m in self.mismatches],
        }


def check_text(text: str, run: RunFolder, name: str = "PR.md") -> CheckResult:
    """Check every quote of the Markdown ``text`` against ``run``."""
    all_truths = truths(run)
    values: dict[str, set[str]] = {}
    for t in all_truths:
        for k, v in t.params.items():
            values.setdefault(k, set()).add(v)
    names = Names(sorted({t.benchmark for t in all_truths}), sorted(values), values)
    checked, unattributed, mismatches = match_quotes(parse(text, names), all_truths)
    return CheckResult(name, "", checked, unattributed, mismatches)


def read_body(path: Path) -> str:
    """A PR body as text: a file, a pipe or ``/dev/stdin``; InputError naming it otherwise."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: no such file") from exc
    except IsADirectoryError as exc:
        raise InputError(f"{path}: is a folder, expected a Markdown file") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text") from exc
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def check_file(pr_path: str | Path, run_dir: str | Path) -> CheckResult:
    """Check a PR body file against a run folder (InputError if either is unreadable)."""
    path = Path(pr_path)
    text = read_body(path)
    run = load_run(run_dir)
    result = check_text(text, run, str(path))
    result.run_dir = str(run_dir)
    return result


def render_table(result: CheckResult) -> str:
    lines = [f"{result.file}:{m.line}: {m.kind}: {m.message}" for m in result.mismatches]
    verdict = "all match" if result.ok else f"{len(result.mismatches)} mismatch(es)"
    tail = f"{result.checked} numbers and claims checked against {result.run_dir}: {verdict}"
    if result.unattributed:
        tail += f" ({result.unattributed} numbers not tied to a benchmark of the run were skipped)"
    return "\n".join([*lines, tail]) + "\n"

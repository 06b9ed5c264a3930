"""A stopped guard run is continued with ``perfproof guard --resume``, never ``ab --resume``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.errors import ExternalError
from perfproof.measure.store import RunStore
from perfproof.model.enums import GuardKind
from perfproof.pipeline.ab import run as ab


class Messages:
    """A reporter that keeps what it is told."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def message(self, text: str) -> None:
        self.lines.append(text)

    def close(self) -> None:
        pass


@pytest.fixture
def run_copy(make_run_folder: Callable[[str], Path], tmp_path: Path) -> Path:
    dest = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), dest)
    return dest


@pytest.mark.parametrize("verb", ["ab", "guard"])
@pytest.mark.parametrize("error", [ExternalError("JMH step failed", None), KeyboardInterrupt()])
def test_hint_names_the_verb(monkeypatch, run_copy: Path, verb: str, error) -> None:
    def fail(*_a, **_k):
        raise error

    monkeypatch.setattr(ab, "_measure_and_compare", fail)
    store = RunStore.open(run_copy)
    opts = ab.AbOptions.of(store.manifest.options)
    reporter = Messages()
    with pytest.raises(type(error)):
        ab._execute(store, opts, reporter, verb)
    (hint,) = [line for line in reporter.lines if "--resume" in line]
    assert f"perfproof {verb} --resume {run_copy}" in hint


def test_resume_guard_resumes_as_guard(monkeypatch, run_copy: Path) -> None:
    from perfproof.pipeline.guard import run as guard

    seen = {}

    def fake_resume(run_dir, reporter, *, lock_timeout=None, verb="ab"):
        seen.update(run_dir=run_dir, lock_timeout=lock_timeout, verb=verb)
        raise KeyboardInterrupt

    monkeypatch.setattr(ab, "resume_ab", fake_resume)
    with pytest.raises(KeyboardInterrupt):
        guard.resume_guard(run_copy, GuardKind.TIME, 1.5, lock_timeout=7.0, reporter=Messages())
    assert seen == {"run_dir": run_copy, "lock_timeout": 7.0, "verb": "guard"}

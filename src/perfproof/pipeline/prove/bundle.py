"""The bundle folder of ``perfproof prove``, and what every stage gets to work with.

```
BUNDLE/
  prove.json      perfproof.prove/1: options, refs, each stage's status, timing and result
  ab/             the A/B run folder (manifest, jmh/, logs/, jfr/, results.json, report.md)
  guard/          the guard's run folder, when the feature adds or changes a benchmark
  tests/          build-tool logs of the tests on each side
  profile/        the differential flame graph
  e2e/            the end-to-end run, with --e2e-run
  results.json    the A/B comparisons, so `perfproof check report.md BUNDLE` reads them
  manifest.json   the A/B run's manifest, for the same reason
  report.md, report.html
```

Every write goes through :mod:`perfproof.storage` and ``prove.json`` is saved after every
stage, so a stop at any point loses at most the stage that was running.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.errors import InputError
from perfproof.model.documents import json_safe
from perfproof.model.documents.prove import (
    DONE,
    FAILED,
    PENDING,
    SKIPPED,
    STAGES,
    BundleView,
    ProveSettings,
    new_document,
    read_prove,
)
from perfproof.model.documents.prove_stages import StageDocument
from perfproof.model.documents.run import SideRef
from perfproof.storage import write_json_atomic

DOCUMENT = "prove.json"


@dataclass
class Bundle(BundleView):
    """A bundle folder and its ``prove.json`` held in memory, with the stage bookkeeping."""

    @classmethod
    def create(cls, path: Path, options: ProveSettings, refs: dict[str, SideRef]) -> Bundle:
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise InputError(
                f"--out {path}: exists and is not empty; choose a new folder or continue "
                f"with --resume {path}"
            )
        path.mkdir(parents=True, exist_ok=True)
        bundle = cls(path, new_document(options, refs))
        bundle.save()
        return bundle

    @classmethod
    def open(cls, path: Path) -> Bundle:
        if not (path / DOCUMENT).is_file():
            raise InputError(f"--resume {path}: not a prove bundle (no {DOCUMENT})")
        return cls(path, read_prove(path / DOCUMENT))

    def save(self) -> None:
        write_json_atomic(self.path / DOCUMENT, self.doc.dump())

    # stages ----------------------------------------------------------------------------------

    def pending(self) -> list[str]:
        return [s for s in STAGES if self.status(s) in (PENDING, FAILED)]

    def begin(self, name: str) -> None:
        entry = self.stage(name)
        entry.status, entry.started = PENDING, _now()
        entry.forget("error")
        self.save()

    def finish(self, name: str, result: StageDocument, seconds: float) -> None:
        entry = self.stage(name)
        entry.status, entry.finished, entry.duration_s = DONE, _now(), round(seconds, 3)
        # kept as --resume reads it back (a non-finite number as null)
        entry.result = type(result).model_validate(json_safe(_written(result)))
        self.save()

    def skip(self, name: str, reason: str) -> None:
        entry = self.stage(name)
        entry.status, entry.reason = SKIPPED, reason
        entry.forget("result")
        self.save()

    def fail(self, name: str, error: str, seconds: float) -> None:
        entry = self.stage(name)
        entry.status, entry.error, entry.duration_s = FAILED, error, round(seconds, 3)
        self.save()

    # folders ---------------------------------------------------------------------------------

    def folder(self, name: str) -> Path:
        return self.path / name

    def expose_run(self, run_dir: Path) -> None:
        """Copy the A/B run's results and manifest to the bundle's top, where ``check`` and
        ``report`` look for a run."""
        for name in ("results.json", "manifest.json"):
            source = run_dir / name
            if source.is_file():
                tmp = self.path / f".{name}.tmp"
                shutil.copyfile(source, tmp)
                tmp.replace(self.path / name)


@dataclass
class StageClock:
    """Elapsed time of the whole chain and a running estimate of what is left."""

    estimates: dict[str, float]
    started: float = field(default_factory=time.monotonic)

    def left(self, remaining: list[str]) -> float:
        return sum(self.estimates.get(s, 0.0) for s in remaining)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started


def _written(result: StageDocument) -> dict[str, object]:
    return result.model_dump(mode="json", by_alias=True)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())

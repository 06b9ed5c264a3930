"""Shard run folders written the way ``ab --shard I/N`` leaves them, with synthetic forks.

The forks are drawn from a seeded generator with known effects per key, so merged verdicts
have a truth; the folders hold exactly what a merge reads (manifest, raw JMH files).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from perfproof.measure.shard import Shard, shard_manifest
from perfproof.model.documents.run_plan import Machine

BASE_SHA = "a" * 40
HEAD_SHA = "b" * 40
JMH_OPTIONS = ["-f", "1", "-wi", "1", "-i", "3", "-w", "100ms", "-r", "100ms", "-prof", "gc"]


@dataclass(frozen=True)
class SuiteKey:
    benchmark: str
    n: str

    def label(self) -> str:
        return f"{self.benchmark} [n={self.n}]"


SUITE = [SuiteKey(f"org.acme.{b}Bench.run", n) for b in ("Alpha", "Beta", "Gamma") for n in
         ("16", "256")]  # fmt: skip
EFFECT = {"org.acme.AlphaBench.run": 0.7, "org.acme.GammaBench.run": 1.3}
"""head/base time factor per benchmark; the others have no change."""


def entry(key: SuiteKey, side: str, rng: np.random.Generator) -> dict[str, Any]:
    factor = EFFECT.get(key.benchmark, 1.0) if side == "head" else 1.0
    centre = 100.0 * int(key.n) ** 0.5 * factor * float(np.exp(rng.normal(0, 0.02)))
    raw = [list(centre * np.exp(rng.normal(0, 0.005, 3)))]
    alloc = 24.0 if side == "base" else 24.0 * (0 if factor < 1 else 1)
    return {
        "jmhVersion": "1.37",
        "benchmark": key.benchmark,
        "mode": "avgt",
        "threads": 1,
        "forks": 1,
        "params": {"n": key.n},
        "primaryMetric": {
            "score": float(np.mean(raw)),
            "scoreError": "NaN",
            "scoreUnit": "ns/op",
            "rawData": raw,
        },
        "secondaryMetrics": {
            "gc.alloc.rate.norm": {
                "score": alloc,
                "scoreError": "NaN",
                "scoreUnit": "B/op",
                "rawData": [[alloc, alloc, alloc]],
            }
        },
    }


def write_shard(
    root: Path,
    spec: Shard,
    *,
    rounds: int = 3,
    seed: int = 1,
    suite: list[SuiteKey] = SUITE,
    measure: list[SuiteKey] | None = None,
    host: str | None = None,
    head_sha: str = HEAD_SHA,
    jmh_options: list[str] = JMH_OPTIONS,
    status: str = "done",
) -> Path:
    """A finished shard folder; ``measure`` overrides which keys it measured (default: its own)."""
    mine, block = shard_manifest(spec, suite, identity=Machine(host=host or f"node-{spec.index}"))
    keys = mine if measure is None else measure
    rng = np.random.default_rng(seed * 100 + spec.index)
    path = root / f"shard-{spec.index}"
    (path / "jmh").mkdir(parents=True)
    steps = []
    for r in range(1, rounds + 1):
        for side in ("base", "head") if r % 2 else ("head", "base"):
            step_id = f"{r:02d}-{side}"
            if not keys:
                continue  # as ab plans it: a shard with no keys has no steps
            doc = [entry(k, side, rng) for k in keys]
            (path / "jmh" / f"{step_id}.json").write_text(json.dumps(doc))
            steps.append(
                {"index": len(steps), "id": step_id, "round": r, "side": side,
                 "kind": "jmh", "status": "done",
                 "result": f"jmh/{step_id}.json", "log": f"logs/{step_id}.jmh.log"}
            )  # fmt: skip
    manifest = {
        "schema": "perfproof.run/1",
        "id": path.name,
        "repo": "/src/project",
        "status": status,
        "refs": {"base": {"ref": "main", "sha": BASE_SHA}, "head": {"ref": "pr", "sha": head_sha}},
        "options": {"base": "main", "head": "pr", "rounds": rounds, "order": "abba",
                    "jmh_args": " ".join(jmh_options), "out": str(path), "shard": str(spec)},
        "plan": {"rounds": rounds, "order": "abba", "seed": None, "benchmarks": [],
                 "jmh_options": jmh_options, "steps": []},
        "steps": steps,
        "builds": [],
        "environment": {"cores": 2},
        "shard": block.dump(),
    }  # fmt: skip
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


def write_shards(root: Path, count: int = 2, **kw: Any) -> list[Path]:
    return [write_shard(root, Shard(i, count), **kw) for i in range(1, count + 1)]


@pytest.fixture
def kit() -> SimpleNamespace:
    """The shard writers and the suite, for the tests of this folder."""
    return SimpleNamespace(
        SUITE=SUITE, SuiteKey=SuiteKey, write_shard=write_shard, write_shards=write_shards
    )

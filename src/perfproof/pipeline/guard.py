"""``perfproof guard``: does a benchmark tell the baseline from the feature?

A performance PR should leave a benchmark behind that fails if the change is undone. The
pattern (used in Kafka, Ignite, OpenJDK) is to run the feature's benchmark against the old
production code: the baseline is built with the feature's benchmark sources overlaid, both
sides run interleaved (the same machinery as ``ab``), and the benchmark guards the change only
if, at every @Param, the baseline/feature ratio of the chosen metric — oriented so that > 1
means the feature is better — is at least ``--min-ratio`` and its interval excludes 1.

Every @Param must pass on its own (an intersection–union test), so no multiplicity adjustment
is needed: requiring all of k tests to reject at level α keeps the overall error at α.
The guard kind (time, alloc or both) is recorded with the run so a report can say what the
benchmark protects.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfproof.compare import CompareOptions, CompareResult
from perfproof.errors import InputError
from perfproof.model import ALLOC_NORM, PRIMARY, Comparison, Direction
from perfproof.storage import write_json_atomic

SCHEMA = "perfproof.guard/1"
KINDS = ("time", "alloc", "both")
KIND_METRICS = {"time": (PRIMARY,), "alloc": (ALLOC_NORM,), "both": (PRIMARY, ALLOC_NORM)}
METRIC_LABEL = {PRIMARY: "time", ALLOC_NORM: "alloc"}
PROTECTS = {
    "time": "the speed-up (time per operation or throughput)",
    "alloc": "the allocation cut (bytes per operation)",
    "both": "both the speed-up and the allocation cut",
}
JMH_IMPORT = "org.openjdk.jmh"


@dataclass(frozen=True)
class GuardRow:
    """One benchmark × @Param × metric: the oriented ratio and whether it passes."""

    benchmark: str
    mode: str
    params: dict[str, str]
    metric: str
    unit: str
    base: float | None
    head: float | None
    ratio: float
    ci: tuple[float, float]
    passed: bool
    reason: str

    @property
    def label(self) -> str:
        p = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.benchmark}({p})" if p else self.benchmark


@dataclass
class GuardResult:
    kind: str
    min_ratio: float
    confidence: float
    rows: list[GuardRow]
    run_dir: Path | None = None
    overlay_files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.rows) and all(r.passed for r in self.rows)


def _inverse(x: float) -> float:
    if x == 0:
        return math.inf
    return 1.0 / x


def oriented(c: Comparison) -> tuple[float, tuple[float, float]]:
    """The ratio and interval turned so that > 1 means the feature is better.

    Lower-is-better metrics (time per op, bytes per op) give baseline/feature; throughput gives
    feature/baseline. A feature that allocates nothing gives an infinite ratio.
    """
    lo, hi = c.ratio_ci
    if c.direction is Direction.LOWER:
        return _inverse(c.ratio), (_inverse(hi), _inverse(lo))
    return c.ratio, (lo, hi)


def judge(c: Comparison, min_ratio: float) -> GuardRow:
    ratio, (lo, hi) = oriented(c)
    if math.isinf(lo) and lo > 0:
        passed, reason = True, "the feature side is exactly zero"
    elif math.isnan(ratio) or math.isnan(lo):
        passed, reason = False, "no ratio could be computed"
    elif lo <= 1.0:
        passed, reason = False, "the interval includes 1"
    elif ratio < min_ratio:
        passed = False
        reason = f"ratio {ratio:.3g} is below --min-ratio {min_ratio:g}"
    elif lo == hi:
        passed, reason = True, f"ratio ≥ {min_ratio:g}, compared exactly (bytes/op)"
    else:
        passed, reason = True, f"ratio ≥ {min_ratio:g} and interval above 1"
    return GuardRow(
        benchmark=c.key.benchmark,
        mode=c.key.mode,
        params=c.key.params_dict,
        metric=METRIC_LABEL.get(c.key.metric, c.key.metric),
        unit=c.unit,
        base=c.base.value,
        head=c.head.value,
        ratio=ratio,
        ci=(lo, hi),
        passed=passed,
        reason=reason,
    )


def evaluate(
    result: CompareResult, kind: str, min_ratio: float, bench: Sequence[str] = ()
) -> GuardResult:
    """Judge every compared key of the guard's metric(s); keys on one side only fail."""
    if kind not in KINDS:
        raise InputError(f"--metric {kind!r}: choose one of {', '.join(KINDS)}")
    metrics = KIND_METRICS[kind]
    patterns = [re.compile(b) for b in bench]

    def selected(name: str) -> bool:
        return not patterns or any(p.search(name) for p in patterns)

    rows = [
        judge(c, min_ratio)
        for c in result.comparisons
        if c.key.metric in metrics and selected(c.key.benchmark)
    ]
    for u in result.unmatched:
        if u.key.metric in metrics and selected(u.key.benchmark):
            rows.append(
                GuardRow(u.key.benchmark, u.key.mode, u.key.params_dict,
                         METRIC_LABEL.get(u.key.metric, u.key.metric), "", None, None,
                         math.nan, (math.nan, math.nan), False, u.reason)
            )  # fmt: skip
    notes = []
    seen = {r.metric for r in rows}
    for m in metrics:
        if METRIC_LABEL[m] not in seen:
            hint = " (run with -prof gc)" if m == ALLOC_NORM else ""
            notes.append(f"no {METRIC_LABEL[m]} results to judge{hint}: the guard cannot pass")
    return GuardResult(kind, min_ratio, result.options.confidence, rows, notes=notes)


def jmh_sources_changed(repo: Path, base_sha: str, head_sha: str) -> list[str]:
    """Files the feature changed or added that use JMH: the benchmark sources to overlay."""
    from perfproof.workspace.git import git_out

    names = git_out(
        repo, "diff", "--name-only", "--diff-filter=AM", base_sha, head_sha, "--"
    ).splitlines()
    out = []
    for name in names:
        if not name.endswith((".java", ".kt", ".scala", ".groovy")):
            continue
        text = git_out(repo, "show", f"{head_sha}:{name}")
        if JMH_IMPORT in text:
            out.append(name)
    return sorted(out)


def guard_document(g: GuardResult) -> dict[str, Any]:
    def num(x: float | None) -> float | str | None:
        if x is None or math.isnan(x):
            return None
        return "inf" if math.isinf(x) else float(x)

    return {
        "schema": SCHEMA,
        "kind": g.kind,
        "protects": PROTECTS[g.kind],
        "min_ratio": g.min_ratio,
        "confidence": g.confidence,
        "passed": g.passed,
        "verdict": "PASS" if g.passed else "FAIL",
        "run_dir": None if g.run_dir is None else str(g.run_dir),
        "overlay_files": list(g.overlay_files),
        "rows": [
            {
                "benchmark": r.benchmark,
                "mode": r.mode,
                "params": r.params,
                "metric": r.metric,
                "unit": r.unit,
                "base": num(r.base),
                "head": num(r.head),
                "ratio": num(r.ratio),
                "ci": [num(r.ci[0]), num(r.ci[1])],
                "passed": r.passed,
                "reason": r.reason,
            }
            for r in g.rows
        ],
        "notes": list(g.notes),
    }


def _fmt(x: float) -> str:
    if math.isnan(x):
        return "–"
    return "∞" if math.isinf(x) else f"{x:.3g}"


def render_table(g: GuardResult) -> str:
    conf = f"{g.confidence * 100:g}%"
    lines = [
        f"guard ({g.kind}): baseline/feature ratio, > 1 means the feature is better; "
        f"needs ≥ {g.min_ratio:g} with its {conf} interval above 1 at every @Param",
    ]
    if g.overlay_files:
        lines.append(f"baseline built with the feature's {', '.join(g.overlay_files)}")
    width = max((len(r.label) for r in g.rows), default=10)
    for r in g.rows:
        mark = "ok  " if r.passed else "FAIL"
        lines.append(
            f"  {mark} {r.label:<{width}}  {r.metric:<5}  ratio {_fmt(r.ratio):>6} "
            f"[{_fmt(r.ci[0])}, {_fmt(r.ci[1])}]  {r.reason}"
        )
    lines.extend(f"  note: {n}" for n in g.notes)
    if g.passed:
        lines.append(f"PASS: the benchmark guards {PROTECTS[g.kind]} at every @Param")
    else:
        failed = sum(not r.passed for r in g.rows)
        lines.append(
            f"FAIL: {failed} of {len(g.rows)} checks do not tell the baseline from the feature"
            if g.rows
            else "FAIL: nothing to judge"
        )
    if g.run_dir is not None:
        lines.append(f"run folder: {g.run_dir}")
    return "\n".join(lines) + "\n"


def record(g: GuardResult, run_dir: Path, command: list[str]) -> None:
    """Write guard.json into the run folder and the guard's kind into its manifest."""
    write_json_atomic(run_dir / "guard.json", guard_document(g))
    _record_settings(run_dir, g.kind, g.min_ratio, g.confidence, command, g.passed)


def _record_settings(
    run_dir: Path,
    kind: str,
    min_ratio: float,
    confidence: float,
    command: list[str],
    passed: bool | None,
) -> None:
    from perfproof.measure.store import RunStore

    store = RunStore.open(run_dir)
    store.manifest["guard"] = {
        "kind": kind,
        "protects": PROTECTS[kind],
        "min_ratio": min_ratio,
        "confidence": confidence,
        "passed": passed,
        "command": command,
    }
    store.save()


def check_settings(kind: str, min_ratio: float, confidence: float) -> None:
    if kind not in KINDS:
        raise InputError(f"--metric {kind!r}: choose one of {', '.join(KINDS)}")
    if not min_ratio >= 1.0:
        raise InputError(f"--min-ratio {min_ratio:g}: must be at least 1 (1 = any real difference)")
    if not 0.5 <= confidence < 1.0:
        raise InputError(f"--confidence {confidence:g}: must be in [0.5, 1)")


def run_guard(
    ab_opts: Any,
    kind: str,
    min_ratio: float,
    *,
    confidence: float = 0.99,
    reporter: Any = None,
) -> GuardResult:
    """Build the baseline with the feature's benchmark sources, run both like ``ab``, judge.

    Without ``--overlay`` the overlay is every file the feature added or changed that uses JMH
    (the feature's new or updated benchmarks); with none, the baseline's own sources are used.
    """
    from perfproof.measure.progress import make_reporter
    from perfproof.measure.store import default_runs_dir, new_run_id
    from perfproof.pipeline.ab import start_ab
    from perfproof.workspace.git import require_repo, resolve_ref

    check_settings(kind, min_ratio, confidence)
    notes = []
    if not ab_opts.overlay:
        repo = require_repo(Path(ab_opts.repo).resolve())
        base, head = resolve_ref(repo, ab_opts.base), resolve_ref(repo, ab_opts.head)
        found = jmh_sources_changed(repo, base, head)
        ab_opts.overlay = tuple(found)
        if found:
            notes.append(f"overlay chosen automatically: the feature's JMH sources {found}")
        else:
            notes.append("the feature changes no JMH source: the baseline runs its own benchmark")
    if not ab_opts.out:
        repo = require_repo(Path(ab_opts.repo).resolve())
        ab_opts.out = str(default_runs_dir(repo) / new_run_id())
    command = [
        "perfproof", "guard", *ab_opts.reproduce_argv()[2:],
        "--metric", kind, "--min-ratio", f"{min_ratio:g}", "--confidence", f"{confidence:g}",
    ]  # fmt: skip
    try:
        outcome = start_ab(ab_opts, reporter or make_reporter())
    except BaseException:
        # keep what the guard was asked for, so --resume judges it the same way
        run_dir = Path(ab_opts.out)
        if (run_dir / "manifest.json").is_file():
            _record_settings(run_dir, kind, min_ratio, confidence, command, None)
        raise
    return finish_guard(outcome.run_dir, kind, min_ratio, confidence, command, notes)


def resume_guard(
    run_dir: Path,
    kind: str | None,
    min_ratio: float | None,
    *,
    confidence: float | None = None,
    reporter: Any = None,
) -> GuardResult:
    """Finish an interrupted guard run; settings not given come from its manifest."""
    from perfproof.measure.progress import make_reporter
    from perfproof.measure.store import RunStore
    from perfproof.pipeline.ab import resume_ab

    recorded = RunStore.open(run_dir.resolve()).manifest.get("guard") or {}
    kind = kind or recorded.get("kind") or "time"
    min_ratio = min_ratio if min_ratio is not None else recorded.get("min_ratio", 1.5)
    confidence = confidence if confidence is not None else recorded.get("confidence", 0.99)
    check_settings(kind, min_ratio, confidence)
    outcome = resume_ab(run_dir, reporter or make_reporter())
    command = recorded.get("command") or []
    return finish_guard(outcome.run_dir, kind, min_ratio, confidence, command, [])


def finish_guard(
    run_dir: Path,
    kind: str,
    min_ratio: float,
    confidence: float,
    command: list[str],
    notes: list[str],
) -> GuardResult:
    """Compare the run's raw results at the guard's confidence (no Holm: see the module doc),
    judge them and record the guard in the run folder."""
    from perfproof.measure.store import RunStore
    from perfproof.pipeline.ab import compare_run

    store = RunStore.open(run_dir)
    result = compare_run(store, CompareOptions(confidence=confidence, holm=False))
    bench = (store.manifest.get("options") or {}).get("bench") or ()
    g = evaluate(result, kind, min_ratio, bench)
    g.run_dir = run_dir
    g.overlay_files = list((store.manifest.get("overlay") or {}).get("files") or [])
    g.notes = notes + g.notes
    record(g, run_dir, command)
    return g

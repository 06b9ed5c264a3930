"""``perfproof guard``: does a benchmark tell the baseline from the feature?

A performance PR should leave a benchmark behind that fails if the change is undone. The
pattern (used in Kafka, Ignite, OpenJDK) is to run the feature's benchmark against the old
production code: the baseline is built with the feature's benchmark sources overlaid, both
sides run interleaved (the same machinery and run store as ``ab``), and the result is judged by
:mod:`perfproof.pipeline.guard.judge`. The guard kind (time, alloc or both) is recorded with
the run so a report can say what the benchmark protects.

This module only orchestrates: the ``ab`` options it is given are copied, never changed, and
everything that can be checked (settings, refs, overlay paths) is checked before the run
folder exists.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.compare import CompareOptions
from perfproof.model.documents.guard import guard_document
from perfproof.model.documents.run import GuardBlock
from perfproof.model.enums import Family, GuardKind
from perfproof.pipeline.guard.judge import GuardResult, GuardSettings, evaluate
from perfproof.storage import write_json_atomic

if TYPE_CHECKING:
    from perfproof.measure.progress import Reporter
    from perfproof.pipeline.ab.options import AbOptions

JMH_IMPORT = "org.openjdk.jmh"
VERB = "guard"


@dataclass(frozen=True)
class GuardOptions:
    """A new guard run: how to run both sides (``ab``'s options) and what to judge."""

    ab: AbOptions
    settings: GuardSettings


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


def record(g: GuardResult, run_dir: Path, command: list[str]) -> None:
    """Write guard.json into the run folder and the guard's kind into its manifest."""
    write_json_atomic(run_dir / "guard.json", guard_document(g))
    settings = GuardSettings(g.kind, g.min_ratio, g.confidence)
    _record_settings(run_dir, settings, command, g.passed)


def _record_settings(
    run_dir: Path, settings: GuardSettings, command: list[str], passed: bool | None
) -> None:
    from perfproof.measure.store import RunStore

    store = RunStore.open(run_dir)
    store.manifest.guard = settings.to_block(passed, command)
    store.save()


def run_guard(options: GuardOptions, reporter: Reporter | None = None) -> GuardResult:
    """Build the baseline with the feature's benchmark sources, run both like ``ab``, judge.

    Without ``--overlay`` the overlay is every file the feature added or changed that uses JMH
    (the feature's new or updated benchmarks); with none, the baseline's own sources are used.
    """
    from perfproof.measure.progress import make_reporter
    from perfproof.measure.store import default_runs_dir, new_run_id
    from perfproof.pipeline.ab.run import start_ab
    from perfproof.workspace.git import require_repo, resolve_ref
    from perfproof.workspace.overlay import check_overlay_paths

    ab, settings = options.ab, options.settings
    repo = require_repo(Path(ab.repo).resolve())
    base, head = resolve_ref(repo, ab.base), resolve_ref(repo, ab.head)
    notes = []
    overlay = tuple(ab.overlay)
    if overlay:
        check_overlay_paths(repo, head, overlay, f"--head {ab.head} ({head[:12]})")
    else:
        found = jmh_sources_changed(repo, base, head)
        overlay = tuple(found)
        if found:
            notes.append(f"overlay chosen automatically: the feature's JMH sources {found}")
        else:
            notes.append("the feature changes no JMH source: the baseline runs its own benchmark")
    out = ab.out or str(default_runs_dir(repo) / new_run_id())
    ab = replace(ab, overlay=overlay, out=out)
    command = ["perfproof", VERB, *ab.reproduce_argv()[2:], *settings.argv()]
    try:
        outcome = start_ab(ab, reporter or make_reporter(), verb=VERB)
    except BaseException:
        # keep what the guard was asked for, so --resume judges it the same way
        run_dir = Path(out)
        if (run_dir / "manifest.json").is_file():
            _record_settings(run_dir, settings, command, None)
        raise
    return finish_guard(outcome.run_dir, settings, command, notes)


def resume_guard(
    run_dir: Path,
    kind: GuardKind | None = None,
    min_ratio: float | None = None,
    *,
    confidence: float | None = None,
    lock_timeout: float | None = None,
    reporter: Reporter | None = None,
) -> GuardResult:
    """Finish an interrupted guard run; settings not given come from its manifest."""
    from perfproof.measure.progress import make_reporter
    from perfproof.measure.store import RunStore
    from perfproof.pipeline.ab.run import resume_ab

    recorded = RunStore.open(run_dir.resolve()).manifest.guard or GuardBlock()
    default = GuardSettings()
    settings = GuardSettings(
        kind=kind or recorded.kind or default.kind,
        min_ratio=_first(min_ratio, recorded.min_ratio, default.min_ratio),
        confidence=_first(confidence, recorded.confidence, default.confidence),
    )
    outcome = resume_ab(run_dir, reporter or make_reporter(), lock_timeout=lock_timeout, verb=VERB)
    command = list(recorded.command)
    return finish_guard(outcome.run_dir, settings, command, [])


def _first(given: float | None, recorded: float | None, default: float) -> float:
    """A setting given on the command line, else the run's own, else perfproof's default."""
    if given is not None:
        return given
    return recorded if recorded is not None else default


def finish_guard(
    run_dir: Path, settings: GuardSettings, command: list[str], notes: list[str]
) -> GuardResult:
    """Compare the run's raw results at the guard's confidence (no Holm: see
    :mod:`~perfproof.pipeline.guard.judge`), judge them and record the guard in the run folder."""
    from perfproof.measure.store import RunStore
    from perfproof.pipeline.ab.floor import noted, run_floor
    from perfproof.pipeline.ab.run import compare_run

    store = RunStore.open(run_dir)
    result = compare_run(store, CompareOptions(confidence=settings.confidence, family=Family.NONE))
    floor = run_floor(store)
    if floor is not None:
        result.comparisons = [noted(c, floor) for c in result.comparisons]
    bench = store.manifest.options.bench or ()
    g = evaluate(result, settings.kind, settings.min_ratio, bench)
    g.run_dir = run_dir
    g.overlay_files = list(store.manifest.overlay.files if store.manifest.overlay else [])
    g.notes = notes + g.notes
    record(g, run_dir, command)
    return g

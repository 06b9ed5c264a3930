"""``perfproof e2e``: an end-to-end A/B from options to results.

:func:`start` turns the user's choice of sides (two refs built in their own worktrees, two
directories, or two commands) into the commands each side runs and opens a run folder in the
one run store ``ab`` and ``guard`` use (kind ``e2e``, steps of the command target);
:func:`execute_and_analyse` runs whatever the schedule still lacks and analyses every metric.
All it needs to repeat itself is in the manifest, which is why ``--resume`` takes nothing but
the run folder. Anything that can be checked before the folder exists is (options, quoting,
directories, the programs to run), and an input error found after it exists but before any
run finished removes the folder again, so no "continue with --resume" is left that could
only fail again.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from perfproof import __version__
from perfproof.errors import InputError, PerfproofError
from perfproof.measure import environment
from perfproof.measure.metrics import MetricSpec
from perfproof.measure.plan import side_order
from perfproof.measure.store import (
    FAILED,
    MANIFEST,
    RunStore,
    default_runs_dir,
    new_run_id,
)
from perfproof.measure.targets import command as target
from perfproof.model import SIDES, Direction
from perfproof.model.documents.codec import encode, problem_line
from perfproof.model.documents.e2e import (
    AmdahlReport,
    E2EResult,
    E2ESettings,
    MetricAnalysis,
    e2e_document,
)
from perfproof.model.documents.run import PreparedSide, RunManifest
from perfproof.model.documents.run_options import RunOptions
from perfproof.pipeline.e2e.options import E2EOptions, reproduce_argv, split_command, validate
from perfproof.pipeline.e2e.sides import java_env_of
from perfproof.pipeline.lifecycle import attempt, finish_attempt
from perfproof.stats import end_to_end as analysis
from perfproof.stats.amdahl import amdahl_ceiling, amdahl_message
from perfproof.stats.power import runs_needed

StepCallback = Callable[[int, int, target.CommandStep, float, dict[str, float]], None]


def directory_sides(opts: E2EOptions, cwd: Path) -> dict[str, PreparedSide]:
    """Sides that run in given directories (or both in the current one): no build, no refs."""
    sides = {}
    for side, d in (("base", opts.base_dir), ("head", opts.head_dir)):
        path = Path(d) if d else cwd
        if not path.is_dir():
            raise InputError(f"--{side}-dir {d}: not a directory")
        sides[side] = PreparedSide(cwd=str(path.resolve()))
    return sides


def side_commands(
    opts: E2EOptions, prepared: Mapping[str, PreparedSide]
) -> dict[str, target.SideCommands]:
    cmds = {}
    env = tuple(java_env_of(opts).items())
    for side in SIDES:
        own = opts.base_cmd if side == "base" else opts.head_cmd
        flag = f"--{side}-cmd" if own is not None else "--run"
        cmds[side] = target.SideCommands(
            side=side,
            cwd=prepared[side].cwd,
            run=split_command(own if own is not None else opts.run or "", flag, opts.shell),
            setup=None if opts.setup is None else split_command(opts.setup, "--setup", opts.shell),
            teardown=(
                None
                if opts.teardown is None
                else split_command(opts.teardown, "--teardown", opts.shell)
            ),
            env=env,
        )
    return cmds


def check_programs(cmds: dict[str, target.SideCommands]) -> None:
    """Every program the runs will start exists and is executable, before anything is run.

    A name without a slash is looked up on PATH; a path is taken relative to the side's
    directory, where the command will run.
    """
    for side, c in cmds.items():
        for what, argv in (("command", c.run), ("setup", c.setup), ("teardown", c.teardown)):
            if not argv:
                continue
            program = argv[0]
            if "/" in program:
                path = Path(c.cwd) / program
                ok = path.is_file() and shutil.which(str(path)) is not None
            else:
                ok = shutil.which(program) is not None
            if not ok:
                raise InputError(
                    f"{side} {what}: program not found or not executable: {program} (in {c.cwd})"
                )


def _runs_root(opts: E2EOptions, cwd: Path, repo: Path) -> Path:
    if opts.runs_dir:
        return (cwd / opts.runs_dir).resolve()
    return default_runs_dir(repo if opts.base_ref is not None else cwd.resolve())


def start(opts: E2EOptions, cwd: Path | None = None) -> RunStore:
    """Validate, prepare the sides (worktrees and builds for refs) and open a new run folder."""
    validate(opts)
    cwd = cwd or Path.cwd()
    if opts.build_cmd is not None:
        split_command(opts.build_cmd, "--build-cmd", opts.shell)  # bad quoting: fail early
    if opts.java is not None:
        from perfproof.env.java import java_info

        java_info(opts.java)  # a java that cannot run is refused before anything is built
    repo = (cwd / opts.repo).resolve()
    side_commands(opts, {s: PreparedSide(cwd="") for s in SIDES})  # bad quoting: fail early
    shas: dict[str, str] = {}
    prepared: dict[str, PreparedSide] = {}
    if opts.base_ref is not None:
        from perfproof.pipeline.e2e import sides as e2e_sides

        shas = e2e_sides.resolve_refs(repo, opts.base_ref, opts.head_ref or "")
    else:
        prepared = directory_sides(opts, cwd)
        check_programs(side_commands(opts, prepared))
    root = _runs_root(opts, cwd, repo)
    root.mkdir(parents=True, exist_ok=True)
    run_dir = root / f"e2e-{new_run_id()}"
    store = RunStore.create(
        run_dir,
        RunManifest(
            kind="e2e",
            id=run_dir.name,
            perfproof_version=__version__,
            options=RunOptions.model_validate(encode(opts)),
            command=reproduce_argv(opts),
            environment=environment.capture_commands(),
        ),
        folders=("outputs", "logs"),
    )
    try:
        if opts.base_ref is not None:
            from perfproof.pipeline.e2e import sides as e2e_sides

            refs = {"base": opts.base_ref, "head": opts.head_ref or ""}
            prepared = e2e_sides.checkout_and_build(repo, refs, shas, opts, store.path / "logs")
            check_programs(side_commands(opts, prepared))
        cmds = side_commands(opts, prepared)
        steps = target.schedule(side_order(opts.runs, opts.order, opts.seed), opts.warmup_runs)
        store.manifest.sides = {s: cmds[s].prepared(prepared[s]) for s in SIDES}
        store.manifest.steps = target.step_entries(store, steps)
        store.save()
    except InputError:
        store.discard_if_unused()
        raise
    except PerfproofError as exc:
        store.set_status(FAILED, error=str(exc))
        raise
    return store


def open_run(run_dir: Path) -> RunStore:
    """An existing e2e run folder, for ``--resume``."""
    store = RunStore.open(run_dir, kind="e2e")
    options = store.manifest.options.dump()
    unknown = sorted(set(options) - {f.name for f in fields(E2EOptions)})
    if unknown:
        raise InputError(
            f"--resume {run_dir}: {MANIFEST} was edited: unknown option {unknown[0]!r}"
        )
    if not store.manifest.steps:
        raise InputError(
            f"--resume {run_dir}: the run stopped before its first run "
            f"({store.manifest.error or 'no steps planned'}); start a new one"
        )
    return store


def execute_and_analyse(
    store: RunStore,
    *,
    on_step: StepCallback | None = None,
    metrics_override: Sequence[str] | None = None,
    higher_is_better: Sequence[str] | None = None,
) -> E2EResult:
    """Run the unfinished steps, then analyse and write ``results.json``.

    ``metrics_override`` and ``higher_is_better`` (from ``--resume``) replace the recorded
    ones: both only change how the kept outputs are read, never what was run.
    """
    manifest = store.manifest
    written = manifest.options.dump()
    if metrics_override:
        written["metrics"] = list(metrics_override)
    if higher_is_better:
        written["higher_is_better"] = list(higher_is_better)
    manifest.options = RunOptions.model_validate(written)
    try:
        text = json.dumps(written, allow_nan=False)
        opts = TypeAdapter(E2EOptions).validate_json(text, strict=True)
    except ValidationError as exc:
        raise InputError(
            f"--resume {store.path}: {MANIFEST} was edited: {problem_line(exc, ('options',))}"
        ) from None
    specs = validate(opts)
    try:
        env = tuple(java_env_of(opts).items())
        sides = {
            s: target.SideCommands.of_prepared(s, (manifest.sides or {})[s], env) for s in SIDES
        }
    except (KeyError, TypeError) as exc:
        raise InputError(
            f"--resume {store.path}: {MANIFEST} was edited: side entry lacks {exc}"
        ) from None
    with store.exclusive():
        with attempt(store, events=False):
            target.execute(store, sides, specs, timeout=opts.timeout, on_step=on_step)
            result = analyse(store, opts, specs)
            store.write_results(e2e_document(result))
        finish_attempt(store, events=False)
    return result


def analyse(store: RunStore, opts: E2EOptions, specs: Sequence[MetricSpec]) -> E2EResult:
    """Read every measured step's metrics from its kept outputs and compare the sides."""
    manifest = store.manifest
    values: dict[str, dict[str, dict[int, float]]] = {
        s.name: {"base": {}, "head": {}} for s in specs
    }
    for step in target.steps_of(store):
        if step.warmup:
            continue
        got = target.extract_step(store.path, step.id, specs)
        for name, v in got.items():
            values[name][step.side][step.round] = v
    threshold = opts.threshold_pct / 100.0
    target_effect = None if opts.target_pct is None else opts.target_pct / 100.0
    results = []
    for spec in specs:
        base, head = values[spec.name]["base"], values[spec.name]["head"]
        rounds = sorted(set(base) & set(head))
        results.append(
            analysis.analyse_metric(
                spec.name,
                spec.unit,
                Direction.HIGHER if spec.name in opts.higher_is_better else Direction.LOWER,
                [base[r] for r in sorted(base)],
                [head[r] for r in sorted(head)],
                [(base[r], head[r]) for r in rounds],
                confidence=opts.confidence,
                threshold=threshold,
                target=target_effect,
            )
        )
    amdahl = _amdahl(opts, results) if opts.amdahl_share_pct is not None else None
    warnings = [w for m in results for w in m.warnings]
    return E2EResult(
        run_dir=store.path,
        settings=E2ESettings(
            opts.runs, opts.warmup_runs, str(opts.order), opts.confidence, opts.threshold_pct
        ),
        sides=dict(manifest.sides or {}),
        command=manifest.command,
        metrics=results,
        amdahl=amdahl,
        warnings=warnings,
    )


def _amdahl(opts: E2EOptions, results: list[MetricAnalysis]) -> AmdahlReport:
    assert opts.amdahl_share_pct is not None and opts.per_call_gain_pct is not None
    ceiling = amdahl_ceiling(opts.amdahl_share_pct / 100.0, opts.per_call_gain_pct / 100.0)
    name = opts.amdahl_metric or results[0].name
    m = next(r for r in results if r.name == name)
    sd_a, sd_b = m.relative_sd
    need = (
        runs_needed(ceiling.log_effect, sd_a, sd_b, 1.0 - opts.confidence)
        if ceiling.speedup > 0 and math.isfinite(sd_a) and math.isfinite(sd_b)
        else None
    )
    visible = None if m.mde_pct is None else ceiling.log_effect >= math.log1p(m.mde_pct / 100.0)
    return AmdahlReport(
        metric=name,
        ceiling=ceiling,
        mde_pct=m.mde_pct,
        runs_needed=need,
        visible=visible,
        message=amdahl_message(ceiling, m.mde_pct, need, min(m.base.n, m.head.n)),
    )

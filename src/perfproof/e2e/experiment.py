"""An end-to-end A/B from options to results: sides, run folder, schedule, analysis.

``start`` turns the user's choice of sides (two refs built in their own worktrees, two
directories, or two commands) into the commands each side runs and creates the run folder;
``execute_and_analyse`` runs whatever the schedule still lacks and analyses every metric.
All it needs to repeat itself is in the manifest, which is why ``--resume`` takes nothing but
the run folder.
"""

from __future__ import annotations

import json
import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from perfproof.e2e import analysis, render, runner
from perfproof.e2e.amdahl import AmdahlCeiling, amdahl_ceiling, amdahl_message
from perfproof.e2e.metrics import MetricSpec, parse_metric_spec
from perfproof.errors import InputError
from perfproof.measure import environment
from perfproof.measure.plan import ORDERS, side_order
from perfproof.model import Direction
from perfproof.stats.power import runs_needed
from perfproof.storage import write_json_atomic

MANIFEST_SCHEMA = "perfproof.e2e-run/1"


@dataclass
class E2EOptions:
    """Everything ``perfproof e2e`` was asked to do (percentages as the user typed them)."""

    metrics: list[str] = field(default_factory=list)
    run: str | None = None
    base_cmd: str | None = None
    head_cmd: str | None = None
    base_ref: str | None = None
    head_ref: str | None = None
    base_dir: str | None = None
    head_dir: str | None = None
    setup: str | None = None
    teardown: str | None = None
    shell: bool = False
    higher_is_better: list[str] = field(default_factory=list)
    runs: int = 10
    warmup_runs: int = 0
    order: str = "abba"
    seed: int = 1
    confidence: float = 0.99
    threshold_pct: float = 1.0
    target_pct: float | None = None
    amdahl_share_pct: float | None = None
    per_call_gain_pct: float | None = None
    amdahl_metric: str | None = None
    timeout: float | None = None
    build_cmd: str | None = None
    build: str | None = None
    module: str | None = None
    repo: str = "."
    runs_dir: str | None = None


@dataclass
class AmdahlReport:
    """The ceiling applied to one metric of this run: can the design see it at all?"""

    metric: str
    ceiling: AmdahlCeiling
    mde_pct: float | None
    runs_needed: int | None
    visible: bool | None
    message: str


@dataclass
class E2EResult:
    """A finished (or re-analysed) e2e run: what ``render`` turns into text or JSON."""

    run_dir: Path
    options: dict[str, Any]
    sides: dict[str, dict[str, Any]]
    command: list[str]
    metrics: list[analysis.MetricAnalysis]
    amdahl: AmdahlReport | None
    warnings: list[str]


StepCallback = Callable[[int, int, runner.Step, float, dict[str, float]], None]


_FLAGS = (
    ("base_ref", "--base"), ("head_ref", "--head"), ("base_dir", "--base-dir"),
    ("head_dir", "--head-dir"), ("build_cmd", "--build-cmd"), ("build", "--build"),
    ("module", "--module"), ("run", "--run"),
    ("base_cmd", "--base-cmd"), ("head_cmd", "--head-cmd"), ("setup", "--setup"),
    ("teardown", "--teardown"), ("amdahl_share_pct", "--amdahl-share"),
    ("per_call_gain_pct", "--per-call-gain"), ("amdahl_metric", "--amdahl-metric"),
    ("target_pct", "--target-effect"), ("timeout", "--timeout"),
)  # fmt: skip


def reproduce_argv(opts: E2EOptions) -> list[str]:
    """The ``perfproof e2e`` command line that repeats this experiment (for reports)."""
    argv = ["perfproof", "e2e"]
    if opts.base_ref is not None:
        argv += ["--repo", opts.repo]
    for name, flag in _FLAGS:
        value = getattr(opts, name)
        if value is not None:
            argv += [flag, f"{value:g}" if isinstance(value, float) else str(value)]
    for metric in opts.metrics:
        argv += ["--metric", metric]
    for name in opts.higher_is_better:
        argv += ["--higher-is-better", name]
    argv += ["--runs", str(opts.runs), "--order", opts.order]
    if opts.order == "random":
        argv += ["--seed", str(opts.seed)]
    if opts.warmup_runs:
        argv += ["--warmup-runs", str(opts.warmup_runs)]
    argv += ["--confidence", f"{opts.confidence:g}", "--threshold", f"{opts.threshold_pct:g}%"]
    if opts.shell:
        argv.append("--shell")
    return argv


def split_command(text: str, flag: str, shell: bool) -> tuple[str, ...]:
    """argv for a user's command: shlex-split, or handed to /bin/sh -c only with --shell."""
    if not text or not text.strip():
        raise InputError(f"{flag}: empty command")
    if shell:
        return ("/bin/sh", "-c", text)
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"{flag} {text!r}: {exc}") from None
    if not argv:
        raise InputError(f"{flag}: empty command")
    return tuple(argv)


def validate(opts: E2EOptions) -> list[MetricSpec]:
    """Check the options before any work; returns the parsed metric specs."""
    if not opts.metrics:
        raise InputError("--metric: give at least one metric (NAME=REGEX or NAME=json:$.path)")
    specs = [parse_metric_spec(m) for m in opts.metrics]
    names = [s.name for s in specs]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise InputError(f"--metric: metric {sorted(dup)[0]!r} is declared twice")
    for name in opts.higher_is_better:
        if name not in names:
            raise InputError(f"--higher-is-better {name!r}: no --metric of that name")
    if opts.amdahl_metric is not None and opts.amdahl_metric not in names:
        raise InputError(f"--amdahl-metric {opts.amdahl_metric!r}: no --metric of that name")
    if opts.runs < 2:
        raise InputError(f"--runs {opts.runs}: need at least 2 runs per side for an interval")
    if opts.warmup_runs < 0:
        raise InputError(f"--warmup-runs {opts.warmup_runs}: must be >= 0")
    if opts.order not in ORDERS:
        raise InputError(f"--order {opts.order!r}: choose one of {', '.join(ORDERS)}")
    if not 0.5 <= opts.confidence < 1.0:
        raise InputError(f"--confidence {opts.confidence}: must be in [0.5, 1)")
    if opts.threshold_pct < 0:
        raise InputError(f"--threshold {opts.threshold_pct}: must be >= 0")
    if (opts.amdahl_share_pct is None) != (opts.per_call_gain_pct is None):
        raise InputError("--amdahl-share and --per-call-gain go together; give both or neither")
    if opts.amdahl_share_pct is not None and not 0 < opts.amdahl_share_pct <= 100:
        raise InputError(f"--amdahl-share {opts.amdahl_share_pct}: must be in (0, 100]")
    if opts.per_call_gain_pct is not None and opts.per_call_gain_pct <= -100:
        raise InputError(f"--per-call-gain {opts.per_call_gain_pct}: must be > -100")
    refs = opts.base_ref is not None or opts.head_ref is not None
    if refs and (opts.base_ref is None or opts.head_ref is None):
        raise InputError("--base and --head go together; give both refs")
    if refs and (opts.base_dir or opts.head_dir):
        raise InputError("--base-dir/--head-dir cannot be combined with --base/--head refs")
    if (opts.base_cmd is None) != (opts.head_cmd is None):
        raise InputError("--base-cmd and --head-cmd go together; give both")
    if opts.run is None and opts.base_cmd is None:
        raise InputError("--run: give the command to run (or --base-cmd and --head-cmd)")
    if opts.run is not None and opts.base_cmd is not None:
        raise InputError("--run cannot be combined with --base-cmd/--head-cmd")
    if not refs and opts.base_cmd is None and not (opts.base_dir and opts.head_dir):
        raise InputError(
            "nothing to compare: give --base/--head refs, --base-dir/--head-dir, "
            "or --base-cmd/--head-cmd"
        )
    if not refs and (opts.build_cmd or opts.build or opts.module):
        raise InputError(
            "--build/--build-cmd/--module need --base/--head refs (directories run as they are)"
        )
    if opts.build_cmd is not None and opts.build is not None:
        raise InputError("--build-cmd cannot be combined with --build; give one of them")
    if opts.module is not None and opts.build is None:
        raise InputError("--module goes with --build maven|gradle")
    if opts.timeout is not None and opts.timeout <= 0:
        raise InputError(f"--timeout {opts.timeout}: must be > 0")
    return specs


def directory_sides(opts: E2EOptions, cwd: Path) -> dict[str, dict[str, Any]]:
    """Sides that run in given directories (or both in the current one): no build, no refs."""
    sides = {}
    for side, d in (("base", opts.base_dir), ("head", opts.head_dir)):
        path = Path(d) if d else cwd
        if not path.is_dir():
            raise InputError(f"--{side}-dir {d}: not a directory")
        sides[side] = {"cwd": str(path.resolve())}
    return sides


def side_commands(
    opts: E2EOptions, prepared: dict[str, dict[str, Any]]
) -> dict[str, runner.SideCommands]:
    cmds = {}
    for side in runner.SIDES:
        own = opts.base_cmd if side == "base" else opts.head_cmd
        flag = f"--{side}-cmd" if own is not None else "--run"
        cmds[side] = runner.SideCommands(
            side=side,
            cwd=prepared[side]["cwd"],
            run=split_command(own if own is not None else opts.run or "", flag, opts.shell),
            setup=None if opts.setup is None else split_command(opts.setup, "--setup", opts.shell),
            teardown=(
                None
                if opts.teardown is None
                else split_command(opts.teardown, "--teardown", opts.shell)
            ),
        )
    return cmds


def new_run_dir(root: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    base = root / f"e2e-{stamp}"
    path, i = base, 1
    while path.exists():
        i += 1
        path = Path(f"{base}-{i}")
    path.mkdir(parents=True)
    return path


def start(opts: E2EOptions, cwd: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Validate, prepare the sides (worktrees and builds for refs) and write a new manifest."""
    validate(opts)
    cwd = cwd or Path.cwd()
    build: tuple[str, ...] | str | None = opts.build
    if opts.build_cmd is not None:
        build = split_command(opts.build_cmd, "--build-cmd", opts.shell)
    repo = (cwd / opts.repo).resolve()
    if opts.runs_dir:
        root = (cwd / opts.runs_dir).resolve()
    else:
        root = (repo if opts.base_ref is not None else cwd.resolve()) / ".perfproof" / "runs"
    if opts.base_ref is not None:
        from perfproof.e2e import sides

        refs = {"base": opts.base_ref, "head": opts.head_ref or ""}
        shas = sides.resolve_refs(repo, refs["base"], refs["head"])
        side_commands(opts, {s: {"cwd": ""} for s in runner.SIDES})  # bad quoting: fail early
        run_dir = new_run_dir(root)
        prepared = sides.checkout_and_build(repo, refs, shas, build, run_dir / "logs", opts.module)
    else:
        prepared = directory_sides(opts, cwd)
        run_dir = new_run_dir(root)
    cmds = side_commands(opts, prepared)
    steps = runner.schedule(side_order(opts.runs, opts.order, opts.seed), opts.warmup_runs)
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "kind": "e2e",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "options": asdict(opts),
        "command": reproduce_argv(opts),
        "environment": {**environment.machine(), "load_before": environment.load_average()},
        "sides": {s: {**prepared[s], **cmds[s].to_json()} for s in runner.SIDES},
        "steps": [{"step": asdict(s), "status": "pending"} for s in steps],
    }
    write_json_atomic(run_dir / "manifest.json", manifest)
    return run_dir, manifest


def load(run_dir: Path) -> dict[str, Any]:
    """The manifest of an existing e2e run folder (for ``--resume``)."""
    path = run_dir / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"--resume {run_dir}: no manifest.json there") from None
    except ValueError as exc:
        raise InputError(f"--resume {run_dir}: manifest.json is not valid JSON: {exc}") from None
    schema = manifest.get("schema") if isinstance(manifest, dict) else None
    if schema != MANIFEST_SCHEMA:
        raise InputError(f"--resume {run_dir}: not an e2e run folder (schema {schema!r})")
    wrong = _misshapen(manifest)
    if wrong:
        raise InputError(f"--resume {run_dir}: manifest.json was edited: {wrong}")
    return manifest


def _misshapen(manifest: dict[str, Any]) -> str | None:
    """What a resume would trip over in a hand-edited manifest, or None."""
    options, sides, steps = (manifest.get(k) for k in ("options", "sides", "steps"))
    if not isinstance(options, dict):
        return "'options' is not a JSON object"
    unknown = sorted(set(options) - {f.name for f in fields(E2EOptions)})
    if unknown:
        return f"unknown option {unknown[0]!r}"
    if not isinstance(sides, dict) or not all(isinstance(sides.get(s), dict) for s in runner.SIDES):
        return "'sides' does not hold a 'base' and a 'head' object"
    if not isinstance(steps, list) or not all(isinstance(x, dict) for x in steps):
        return "'steps' is not a list of JSON objects"
    return None


def execute_and_analyse(
    run_dir: Path,
    manifest: dict[str, Any],
    *,
    on_step: StepCallback | None = None,
    metrics_override: Sequence[str] | None = None,
) -> E2EResult:
    """Run the unfinished steps of a manifest, then analyse and write ``results.json``."""
    opts = E2EOptions(**manifest["options"])
    if metrics_override:
        opts.metrics = list(metrics_override)
        manifest["options"]["metrics"] = list(metrics_override)
    specs = validate(opts)
    sides = {s: runner.SideCommands.from_json(s, manifest["sides"][s]) for s in runner.SIDES}
    runner.execute(run_dir, manifest, sides, specs, timeout=opts.timeout, on_step=on_step)
    manifest["environment"]["load_after"] = environment.load_average()
    write_json_atomic(run_dir / "manifest.json", manifest)
    result = analyse(run_dir, manifest, opts, specs)
    write_json_atomic(run_dir / "results.json", render.to_json(result))
    return result


def analyse(
    run_dir: Path, manifest: dict[str, Any], opts: E2EOptions, specs: Sequence[MetricSpec]
) -> E2EResult:
    """Read every measured step's metrics from its kept outputs and compare the sides."""
    values: dict[str, dict[str, dict[int, float]]] = {
        s.name: {"base": {}, "head": {}} for s in specs
    }
    for record in manifest["steps"]:
        step = runner.Step(**record["step"])
        if step.warmup:
            continue
        got = runner.extract_step(run_dir, step.id, specs)
        for name, v in got.items():
            values[name][step.side][step.round] = v
    threshold = opts.threshold_pct / 100.0
    target = None if opts.target_pct is None else opts.target_pct / 100.0
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
                target=target,
            )
        )
    amdahl = _amdahl(opts, results) if opts.amdahl_share_pct is not None else None
    warnings = [w for m in results for w in m.warnings]
    return E2EResult(
        run_dir=run_dir,
        options=manifest["options"],
        sides=manifest["sides"],
        command=manifest.get("command") or [],
        metrics=results,
        amdahl=amdahl,
        warnings=warnings,
    )


def _amdahl(opts: E2EOptions, results: list[analysis.MetricAnalysis]) -> AmdahlReport:
    assert opts.amdahl_share_pct is not None and opts.per_call_gain_pct is not None
    ceiling = amdahl_ceiling(opts.amdahl_share_pct / 100.0, opts.per_call_gain_pct / 100.0)
    name = opts.amdahl_metric or results[0].name
    m = next(r for r in results if r.name == name)
    sd_a, sd_b = m.relative_sd
    need = (
        runs_needed(ceiling.log_effect, sd_a, sd_b, 1.0 - opts.confidence)
        if ceiling.speedup > 0
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

"""What ``perfproof e2e`` was asked to do, checked before any work, and how to repeat it.

The options are stored in the run folder's manifest as they are here, which is why
``--resume`` needs nothing but the folder; :func:`validate` runs on them both when a run
starts and when it resumes, so a hand-edited manifest is refused the same way as a bad flag.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.measure.metrics import MetricSpec, parse_metric_spec
from perfproof.measure.plan import Order
from perfproof.stats.verdict import check_confidence, check_threshold
from perfproof.workspace.launcher import GRADLE, MAVEN
from perfproof.workspace.spec import BuildKind


@dataclass
class E2EOptions:
    """Everything ``perfproof e2e`` was asked to do (percentages as the user typed them)."""

    metrics: tuple[str, ...] = ()
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
    higher_is_better: tuple[str, ...] = ()
    runs: int = 10
    warmup_runs: int = 0
    order: Order = Order.ABBA
    seed: int = 1
    confidence: float = defaults.CONFIDENCE
    threshold_pct: float = 1.0
    target_pct: float | None = None
    amdahl_share_pct: float | None = None
    per_call_gain_pct: float | None = None
    amdahl_metric: str | None = None
    timeout: float | None = None
    build_cmd: str | None = None
    build: BuildKind | None = None
    """None: no build (unless --build-cmd); auto, maven, gradle or custom as ``ab`` takes it."""
    module: str | None = None
    jar: str | None = None
    """With --build-cmd: the jar it makes, checked after each side's build."""
    classpath_file: str | None = None
    """With --build-cmd: the classpath file it writes, checked after each side's build."""
    build_args: tuple[str, ...] = ()
    java: str | None = None
    """The JDK of the builds and of every command run (JAVA_HOME, PATH)."""
    maven: str = "auto"
    gradle: str = "auto"
    keep_checks: bool = False
    fresh_builds: bool = False
    """Build in a clean checkout (no output left by an earlier build of the commit)."""
    repo: str = "."
    runs_dir: str | None = None


_FLAGS = (
    ("base_ref", "--base"), ("head_ref", "--head"), ("base_dir", "--base-dir"),
    ("head_dir", "--head-dir"), ("build_cmd", "--build-cmd"), ("build", "--build"),
    ("module", "--module"), ("jar", "--jar"), ("classpath_file", "--classpath-file"),
    ("java", "--java"), ("run", "--run"),
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
    argv += ["--runs", str(opts.runs), "--order", str(opts.order)]
    if opts.order == Order.RANDOM:
        argv += ["--seed", str(opts.seed)]
    if opts.warmup_runs:
        argv += ["--warmup-runs", str(opts.warmup_runs)]
    argv += ["--confidence", f"{opts.confidence:g}", "--threshold", f"{opts.threshold_pct:g}%"]
    argv += [f"--build-arg={arg}" for arg in opts.build_args]
    for flag, launch in (("--maven", opts.maven), ("--gradle", opts.gradle)):
        if launch != "auto":
            argv += [flag, launch]
    for flag, on in (("--keep-checks", opts.keep_checks), ("--fresh-builds", opts.fresh_builds),
                     ("--shell", opts.shell)):  # fmt: skip
        if on:
            argv.append(flag)
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
    check_confidence(opts.confidence)
    check_threshold(opts.threshold_pct / 100.0, shown=f"{opts.threshold_pct:g}%")
    if opts.target_pct is not None and not (opts.target_pct > 0 and math.isfinite(opts.target_pct)):
        raise InputError(
            f"--target-effect {opts.target_pct:g}: must be a percentage > 0 (the effect the "
            "'runs needed' figure aims at)"
        )
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
    check_build(opts, refs)
    if opts.timeout is not None and opts.timeout <= 0:
        raise InputError(f"--timeout {opts.timeout}: must be > 0")
    return specs


def check_build(opts: E2EOptions, refs: bool) -> None:
    """The build options as ``ab`` checks them, where an application build differs: no build
    unless asked (--build or --build-cmd), and --build-cmd needs no jar (the command that
    runs next knows what the build made)."""
    given = [flag for flag, on in (
        ("--build", opts.build), ("--build-cmd", opts.build_cmd), ("--module", opts.module),
        ("--jar", opts.jar), ("--classpath-file", opts.classpath_file),
        ("--build-arg", opts.build_args), ("--keep-checks", opts.keep_checks),
        ("--fresh-builds", opts.fresh_builds),
    ) if on]  # fmt: skip
    if not refs and given:
        raise InputError(
            f"{given[0]}: builds need --base/--head refs (directories run as they are)"
        )
    if opts.build_cmd is not None and opts.build not in (None, BuildKind.AUTO, BuildKind.CUSTOM):
        raise InputError(f"--build-cmd cannot be combined with --build {opts.build}")
    if opts.build is BuildKind.CUSTOM and opts.build_cmd is None:
        raise InputError("--build custom needs --build-cmd")
    if opts.build_cmd is None and (opts.jar or opts.classpath_file):
        flag = "--jar" if opts.jar else "--classpath-file"
        raise InputError(f"{flag} says what --build-cmd makes; give --build-cmd too")
    tool = opts.build is not None and opts.build_cmd is None
    if opts.module is not None and not tool:
        raise InputError("--module goes with --build auto|maven|gradle")
    if opts.build_args and not tool:
        raise InputError(
            "--build-arg adds to a Maven or Gradle build (--build auto|maven|gradle); with "
            "--build-cmd, put the arguments in the command itself"
        )
    if any(not a.strip() for a in opts.build_args):
        raise InputError("--build-arg is empty")
    MAVEN.parse(opts.maven)
    GRADLE.parse(opts.gradle)

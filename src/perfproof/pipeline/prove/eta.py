"""How long each stage of ``prove`` should take, once it can be known: a measured stage's
length follows from the keys JMH lists, so the chain names no figure for the A/B and the
stages after it until the A/B has run; then the profile forks its verdicts call for and the
two build-tool runs of the tests (as long as the A/B's two builds took) are counted (the ETA
is a guide, never a gate)."""

from __future__ import annotations

from pathlib import Path

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.measure.progress import estimate_step_seconds
from perfproof.model.documents.prove_profile import ProfileDesign
from perfproof.model.documents.run_plan import JmhSettings
from perfproof.pipeline.prove.options import ProfileForks, ProveOptions
from perfproof.pipeline.prove.profile_keys import PROFILE_FORKS, still_to_record
from perfproof.report.rundir import read_manifest

RUN_START_S = 4.0
"""What a run of recorded forks costs besides its steps: the cached builds checked and both
sides' benchmarks listed (one JVM each)."""
PARSE_S = 1.5
"""Reading one recording for the diff, the census and the shares (the Java helper)."""
TESTS_S = 40.0


def stage_estimates(opts: ProveOptions, benchmarks: int) -> dict[str, float]:
    """Seconds each stage should take before the A/B has run: the profile forks then record
    every benchmark at most (what the verdicts call for is known only after it)."""
    settings = opts.ab.jmh_args.settings
    try:
        step = estimate_step_seconds(settings, max(benchmarks, 1))
        rounds = opts.ab.rounds or opts.ab.max_rounds or defaults.MAX_ROUNDS
    except Exception:  # an estimate must never stop the chain
        step, rounds = 30.0, 3
    measure = 2 * rounds * step + 40.0
    if opts.jfr == ProfileForks.AFTER:
        forks = settings.model_copy(update={"forks": PROFILE_FORKS})
        profile = RUN_START_S + 2 * estimate_step_seconds(forks, benchmarks)
        profile += PARSE_S * 2 * PROFILE_FORKS * max(benchmarks, 1)
    else:
        profile = RUN_START_S + 2 * rounds * step
    return {
        "changes": 3.0,
        "callers": 3.0,
        "benchmarks": 5.0,
        "guard": measure,
        "ab": measure,
        "profile": profile,
        "tests": TESTS_S,
        "e2e": 4.0 * opts.e2e_runs,
        "report": 5.0,
    }


def reach_estimate(settings: JmhSettings, benchmarks: int) -> float:
    """Seconds the reach round (``--reach profile``) should take: its run folder started and
    one JMH step, the baseline's, of one fork of each of ``benchmarks`` (``settings`` with
    one fork)."""
    return RUN_START_S + estimate_step_seconds(settings, benchmarks)


def tests_estimate(ab_run: Path) -> float:
    """Seconds the tests on both commits should take: one build-tool run a side, each about
    as long as that side's build for the A/B (compiling the same module); :data:`TESTS_S`
    when the builds were cached or are not recorded."""
    try:
        builds = read_manifest(ab_run / "manifest.json").builds
    except (InputError, OSError):
        return TESTS_S
    seconds = sum(b.duration_s or b.seconds or 0.0 for b in builds if not b.cached)
    return seconds if seconds > 0 else TESTS_S


def profile_estimate(design: ProfileDesign, settings: JmhSettings, rounds: int) -> float:
    """Seconds the profile stage should take for ``design``: each run of recorded forks, a
    step a side per fork still to record (``every``: ``rounds`` steps a side of every key),
    and the reading of every recording."""
    keys = len(design.recorded)
    if design.every:
        return RUN_START_S + 2 * rounds * estimate_step_seconds(settings, keys) + PARSE_S * keys
    total = 0.0
    for need, labels in still_to_record(design).items():
        step = settings.model_copy(update={"forks": need})  # one step a side
        total += RUN_START_S + 2 * estimate_step_seconds(step, len(labels))
    return total + PARSE_S * 2 * design.forks * keys

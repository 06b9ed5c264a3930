"""The chain's ETA: each stage's estimate follows the JMH steps it will run."""

from __future__ import annotations

from perfproof.measure.progress import estimate_step_seconds
from perfproof.model.documents.prove_profile import ProfileDesign, RecordedKey
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.prove.beside import left_together
from perfproof.pipeline.prove.eta import profile_estimate, stage_estimates
from perfproof.pipeline.prove.options import ProfileForks, ProveOptions
from perfproof.pipeline.prove.profile_keys import PROFILE_FORKS


def test_before_the_ab_the_profile_forks_are_estimated_for_every_benchmark() -> None:
    opts = ProveOptions(ab=AbOptions(base="a", head="b"))
    one = opts.ab.jmh_args.settings.model_copy(update={"forks": 1})
    after = stage_estimates(opts, 40)["profile"]
    assert after >= 2 * PROFILE_FORKS * (estimate_step_seconds(one, 40) - 1)
    assert stage_estimates(opts, 80)["profile"] > after
    every = ProveOptions(ab=AbOptions(base="a", head="b", rounds=6), jfr=ProfileForks.EVERY)
    step = estimate_step_seconds(opts.ab.jmh_args.settings, 40)
    assert stage_estimates(every, 40)["profile"] >= 2 * 6 * step


def test_after_the_ab_the_estimate_counts_only_the_forks_the_design_still_records() -> None:
    settings = AbOptions(base="a", head="b").jmh_args.settings
    fork = settings.fork_seconds()
    keys = [RecordedKey(key=f"B.m(n={n})", benchmark="B.m") for n in range(4)]
    fresh = ProfileDesign(recorded=tuple(keys), forks=PROFILE_FORKS)
    reused = ProfileDesign(
        recorded=tuple(k.model_copy(update={"reused": 1}) for k in keys), forks=PROFILE_FORKS
    )
    a, b = profile_estimate(fresh, settings, 0), profile_estimate(reused, settings, 0)
    # 4 keys × 2 forks × 2 sides of JMH in one step a side, then 1 fork a side less each once
    # the reach round's fork of the same builds and settings counts
    assert 16 * fork <= a < 16 * fork + 60
    assert a - b >= 8 * fork - 1
    assert profile_estimate(ProfileDesign(), settings, 0) == 0.0


def test_a_stage_beside_another_adds_only_what_outlasts_it() -> None:
    est = {"ab": 100.0, "profile": 30.0, "tests": 40.0, "report": 5.0}
    assert left_together(est, ["profile", "tests", "report"]) == 45.0
    assert left_together(est, ["tests", "report"]) == 45.0
    assert left_together(est, ["ab", "profile", "tests", "report"]) == 145.0


def test_the_tests_take_about_as_long_as_the_builds_of_the_ab(tmp_path) -> None:
    import json

    from perfproof.pipeline.prove.eta import TESTS_S, tests_estimate

    builds = [{"side": "base", "duration_s": 31.0}, {"side": "head", "duration_s": 29.0},
              {"side": "head", "cached": True, "duration_s": 0.2}]  # fmt: skip
    (tmp_path / "manifest.json").write_text(json.dumps({"steps": [], "builds": builds}))
    assert tests_estimate(tmp_path) == 60.0
    assert tests_estimate(tmp_path / "missing") == TESTS_S

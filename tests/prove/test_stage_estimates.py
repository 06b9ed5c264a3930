"""The chain's ETA: each stage's estimate follows the JMH steps it will run."""

from __future__ import annotations

from perfproof.measure.progress import estimate_step_seconds
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.prove.options import ProfileForks, ProveOptions
from perfproof.pipeline.prove.profile import PROFILE_ROUNDS
from perfproof.pipeline.prove.run import _estimates


def test_the_profile_forks_are_estimated_as_a_step_a_side_per_round() -> None:
    opts = ProveOptions(ab=AbOptions(base="a", head="b"))
    step = estimate_step_seconds(opts.ab.jmh_args.settings, 40)
    after = _estimates(opts, 40)["profile"]
    assert after >= 2 * PROFILE_ROUNDS * step
    # more benchmarks, longer steps: the estimate grows with the suite, as the forks do
    assert _estimates(opts, 80)["profile"] > after
    every = ProveOptions(ab=AbOptions(base="a", head="b", rounds=6), jfr=ProfileForks.EVERY)
    assert _estimates(every, 40)["profile"] >= 2 * 6 * step

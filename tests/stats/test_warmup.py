"""Unsettled leading iterations and slow drifts inside forks."""

from __future__ import annotations

import numpy as np

from lab.simulate import ForkNoise
from perfproof.stats.warmup import is_trending, trim, unsettled_prefix


def test_catches_the_16_us_then_0_4_us_fork() -> None:
    rng = np.random.default_rng(5)
    settled = 400.0 * np.exp(rng.normal(0, 0.02, 7))
    fork = np.concatenate([[16000.0, 15800.0, 16100.0], settled])
    assert unsettled_prefix(fork) == 3
    assert unsettled_prefix(fork, "above") == 3
    assert unsettled_prefix(fork, "below") == 0
    assert trim([fork], [3])[0].tolist() == settled.tolist()


def test_real_fixture_first_iteration() -> None:
    # fx.Codes.streamEmpty n=16, JMH 1.37, fork 1: 718.9 then 420.9, 449.7 ns/op
    fork = np.array([718.9220220643991, 420.88996892159355, 449.6804306327222])
    assert unsettled_prefix(fork) == 1


def test_throughput_warmup_is_low_then_high() -> None:
    fork = np.array([1e5, 1.2e5, 1e6, 1.01e6, 0.99e6, 1.0e6])
    assert unsettled_prefix(fork, "below") == 2
    assert unsettled_prefix(fork, "above") == 0


def test_a_later_jump_is_not_warmup() -> None:
    # real streamEmpty fork: fast first, slow later (a jump, not a warm-up)
    assert unsettled_prefix(np.array([790.8, 1043.5, 14944.8, 14918.4]), "above") == 0
    # a heavy-tailed rest: the first value is not beyond all later ones
    assert unsettled_prefix(np.array([8595.3, 1267.9, 660.7, 15316.9])) == 0


def test_noise_alone_is_rarely_flagged(make_forks) -> None:
    rng = np.random.default_rng(11)
    forks = make_forks(rng, 2000, 10, noise=ForkNoise(iteration_sd=0.02))
    flagged = sum(unsettled_prefix(f, "above") > 0 for f in forks)
    assert flagged / len(forks) < 0.005


def test_short_forks_are_never_flagged() -> None:
    assert unsettled_prefix(np.array([100.0, 1.0])) == 0


def test_trend_detection(make_forks) -> None:
    rng = np.random.default_rng(2)
    flat = make_forks(rng, 5, 12)
    assert not is_trending(flat)
    decay = np.exp(-np.arange(12) * 0.02)  # 20% down over the fork, every fork
    assert is_trending([f * decay for f in flat])
    # forks drifting in opposite directions are noise, not warm-up
    assert not is_trending([flat[0] * decay, flat[1] / decay])

"""The Amdahl share of a changed method: its samples found whatever JFR calls its class."""

from __future__ import annotations

import pytest

from perfproof.pipeline.prove.profile import _share
from perfproof.profile.census import census
from perfproof.profile.stacks import Profile


def test_a_nested_class_method_has_the_share_its_frames_hold() -> None:
    cpu = {
        ("java.lang.Thread.run", "com.acme.Codecs$Big.write", "java.util.Arrays.copyOf"): 30,
        ("java.lang.Thread.run", "com.acme.Other.run"): 70,
    }
    alloc = {(("java.lang.Thread.run", "com.acme.Codecs$Big.write"), "byte[]"): 400}
    profile = Profile(source="x", cpu=cpu, alloc=alloc, alloc_events=1, alloc_source="S")
    changed = "com.acme.Codecs.Big.write"  # as the change names it
    c = census([profile], (changed,))
    assert _share(c, "cpu", changed, c.cpu_samples) == pytest.approx(0.3)
    assert _share(c, "alloc", changed, c.alloc_bytes) == pytest.approx(1.0)
    assert _share(c, "cpu", "com.acme.Codecs.Big.read", c.cpu_samples) == 0.0

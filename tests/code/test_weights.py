"""Profile frames to method names, and inclusive weights."""

from __future__ import annotations

import pytest

from perfproof.code.weights import MethodWeights, normalise_frame


@pytest.mark.parametrize(
    ("frame", "method"),
    [
        ("org.x.Foo.bar", "org.x.Foo.bar"),
        ("org/x/Foo.bar", "org.x.Foo.bar"),
        ("org.x.Foo.bar_[j]", "org.x.Foo.bar"),
        ("org.x.Outer$Inner.run", "org.x.Outer.Inner.run"),
        ("org.x.Foo.lambda$handle$3", "org.x.Foo.handle"),
        ("org.x.Foo::bar", "org.x.Foo.bar"),
        ("org.x.Foo.bar(int, java.lang.String)", "org.x.Foo.bar"),
        ("org.x.Foo.bar:42", "org.x.Foo.bar"),
        ("org.x.Foo.<init>", "org.x.Foo.<init>"),
    ],
)
def test_normalise_frame(frame, method):
    assert normalise_frame(frame) == method


def test_inclusive_weight_counts_recursion_once():
    w = MethodWeights()
    w.add_stacks(
        "cpu", [(["a.A.main", "a.A.f", "a.A.f", "a.A.g"], 3.0), (["a.A.main", "a.B.h"], 1.0)]
    )
    assert w.by_method["a.A.f"]["cpu"] == 3.0
    assert w.by_method["a.A.main"]["cpu"] == 4.0
    assert w.share("a.A.f") == pytest.approx(0.75)
    assert w.share("a.Z.none") == 0.0

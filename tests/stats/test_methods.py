"""Every registered comparison method answers the whole protocol, under the names it records."""

from __future__ import annotations

import numpy as np
import pytest

from perfproof.model.diagnostics import ComparisonMethod
from perfproof.stats import methods
from perfproof.stats.method import Method

PROTOCOL = sorted(
    name for name in {*Method.__annotations__, *vars(Method)} if not name.startswith("_")
)


@pytest.mark.parametrize("method", methods.REGISTERED, ids=lambda m: str(m.name))
def test_a_registered_method_answers_every_question_of_the_protocol(method: Method) -> None:
    missing = [name for name in PROTOCOL if not hasattr(method, name)]
    assert not missing, missing
    assert methods.of(method.name) is method and methods.of(method.at_looks) is method


def test_every_name_a_comparison_records_has_its_method() -> None:
    assert {m for name in ComparisonMethod for m in [methods.of(name)]} == set(methods.REGISTERED)
    assert methods.of(None) is methods.DEFAULT


def test_the_fork_level_methods_are_the_ones_a_user_chooses() -> None:
    assert list(methods.FORK_METHODS) == ["fork-level", "fork-ranks"]
    with pytest.raises(ValueError, match="unknown method 'exact'"):
        methods.fork_method("exact")


def test_the_choice_of_a_method_follows_the_data() -> None:
    flat = [np.array([24.0, 24.0]), np.array([24.0, 24.0])]
    noisy = [np.array([10.0, 11.0]), np.array([12.0, 13.0])]
    ranks = methods.fork_method("fork-ranks")
    assert methods.choose(flat, flat, True, ranks) is methods.EXACT
    assert methods.choose(noisy, noisy, False, ranks) is ranks
    assert methods.choose(noisy[:1], noisy, False, ranks) is methods.ITERATION_LEVEL

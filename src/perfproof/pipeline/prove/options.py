"""What ``perfproof prove`` was asked to do: built once from the flags, stored in prove.json as
``options``, and read back by ``--resume`` so a resumed chain runs with the same settings."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.model.documents.prove import ProveSettings
from perfproof.pipeline.ab.options import AbOptions

E = TypeVar("E", bound=StrEnum)


class ProfileForks(StrEnum):
    """``--jfr``: when the profile forks run."""

    AFTER = "after"
    """After the A/B is decided: three rounds of each key on each side."""
    EVERY = "every"
    """As many rounds as the A/B ran."""


class Gate(StrEnum):
    """``--gate``: which regressions ``--fail-on-regression`` fails on."""

    ANY = "any"
    EXPLAINED = "explained"
    """Only regressions of benchmarks the change reaches."""


class Reach(StrEnum):
    """``--reach``: what is done about benchmarks only dynamic dispatch reaches."""

    PROFILE = "profile"
    """Record one baseline fork of each first; leave out those whose profile never samples
    the change."""
    STATIC = "static"
    """Measure them all, last (a budget cuts them first)."""


def _choice(enum: type[E], value: str | None, name: str, default: E) -> E:
    """A choice of a stored bundle, refused naming ``options.<name>`` when unknown."""
    if value is None:
        return default
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise InputError(f"options.{name}: {value!r} is not one of {choices}") from None


@dataclass
class ProveOptions:
    """What ``prove`` was asked to do (stored in prove.json as ``options``)."""

    ab: AbOptions
    out: str | None = None
    skip: tuple[str, ...] = ()
    depth: int = defaults.DEPTH
    e2e_run: str | None = None
    e2e_metric: tuple[str, ...] = ()
    e2e_runs: int = 10
    fail_on_regression: bool = False
    jfr: ProfileForks = ProfileForks.AFTER
    """When the profile forks run: ``after`` the A/B, three rounds; ``every``, as many rounds
    as the A/B ran."""
    gate: Gate = Gate.ANY
    """``any``: ``--fail-on-regression`` fails on every regression, explained or not;
    ``explained``: only on regressions the change can explain (a regression gate of its own)."""
    reach: Reach = Reach.PROFILE
    """``profile`` (the default): record the benchmarks only dynamic dispatch reaches, one fork
    a side, before the A/B, and leave out the ones whose baseline profile never samples the
    changed code; ``static``: measure every benchmark the call graph reaches, those only
    dynamic dispatch reaches measured last (a budget cuts them first)."""
    hypothesis: str | None = None
    hunt: str | None = None
    """``--hypothesis ID --from HUNT``: the hunt hypothesis the change claims to fix."""

    def to_document(self) -> ProveSettings:
        """``options`` of prove.json: every setting, the A/B's as a run manifest writes them."""
        return ProveSettings(
            ab=self.ab.to_document(),
            out=self.out,
            skip=list(self.skip),
            depth=self.depth,
            e2e_run=self.e2e_run,
            e2e_metric=list(self.e2e_metric),
            e2e_runs=self.e2e_runs,
            fail_on_regression=self.fail_on_regression,
            jfr=str(self.jfr),
            gate=str(self.gate),
            reach=str(self.reach),
            hypothesis=self.hypothesis,
            hunt=self.hunt,
        )

    @classmethod
    def of(cls, doc: ProveSettings) -> ProveOptions:
        """The options of a stored bundle (``--resume``)."""
        return cls(
            ab=AbOptions.of(doc.ab),
            out=doc.out,
            skip=tuple(doc.skip),
            depth=doc.depth or defaults.DEPTH,
            e2e_run=doc.e2e_run,
            e2e_metric=tuple(doc.e2e_metric),
            e2e_runs=doc.e2e_runs or 10,
            fail_on_regression=doc.fail_on_regression,
            gate=_choice(Gate, doc.gate, "gate", Gate.ANY),
            jfr=_choice(ProfileForks, doc.jfr, "jfr", ProfileForks.AFTER),
            # a bundle written before the recorded round was the default measured by the graph
            reach=_reach(doc.reach),
            hypothesis=doc.hypothesis,
            hunt=doc.hunt,
        )

    def reproduce_argv(self) -> list[str]:
        """The ``perfproof prove`` command line that repeats this chain."""
        argv = ["perfproof", "prove", *self.ab.reproduce_argv()[2:]]
        for stage in self.skip:
            argv += ["--skip", stage]
        if self.depth != defaults.DEPTH:
            argv += ["--depth", str(self.depth)]
        if self.gate != Gate.ANY:
            argv += ["--gate", str(self.gate)]
        if self.jfr != ProfileForks.AFTER:
            argv += ["--jfr", str(self.jfr)]
        if self.reach != Reach.PROFILE:
            argv += ["--reach", str(self.reach)]
        if self.hypothesis and self.hunt:
            argv += ["--hypothesis", self.hypothesis, "--from", self.hunt]
        if self.e2e_run:
            argv += ["--e2e-run", self.e2e_run, "--e2e-runs", str(self.e2e_runs)]
            for m in self.e2e_metric:
                argv += ["--e2e-metric", m]
        return argv


def _reach(value: str | None) -> Reach:
    """A bundle written before the recorded round was the default was chosen by the graph
    alone (``graph``, or no entry at all): it resumes as ``static``."""
    if value in (None, "graph"):
        return Reach.STATIC
    return _choice(Reach, value, "reach", Reach.STATIC)

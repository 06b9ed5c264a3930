"""The options of one ``perfproof ab`` run, and every check that needs no build.

A run's options are recorded in its manifest and read back by ``--resume``, ``guard`` and
``prove``; they are checked here, at the door, before a worktree or a run folder exists, so a
typo costs nothing and leaves nothing behind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TypeVar

from perfproof import defaults
from perfproof.compare import CompareOptions
from perfproof.errors import InputError
from perfproof.history.records import check_machine
from perfproof.measure.keys import check_bench_regexes
from perfproof.measure.plan import JmhArgs, Order, parse_budget, parse_jmh_args
from perfproof.measure.shard import Shard, parse_shard
from perfproof.model.budget import Budget
from perfproof.model.documents.run_options import RunOptions
from perfproof.model.enums import Family
from perfproof.pipeline.cluster import Executor, check_spread_options
from perfproof.workspace.spec import BuildKind, BuildSpec

_E = TypeVar("_E", bound=StrEnum)


class Explain(StrEnum):
    """``--explain``: what ``ab`` does about a verdict no static call path leads to."""

    RECORD = "record"
    """Record one fork a side of its benchmark with JFR before the report is written: the
    recording says whether the changed code runs there."""
    OFF = "off"
    """Record nothing: such a verdict says only that no static call path was found."""


@dataclass
class AbOptions:
    """Everything ``perfproof ab`` was asked to do (stored in the manifest as ``options``)."""

    base: str
    head: str
    repo: str = "."
    bench: tuple[str, ...] = ()
    build: BuildSpec = field(default_factory=BuildSpec)
    """How both commits are built (module, tool, command, java, launcher), checked when made."""
    rounds: int | None = None
    """A fixed design of exactly this many rounds, every key in every round (no early stop)."""
    max_rounds: int | None = None
    """The sequential design's most rounds (default :data:`perfproof.defaults.MAX_ROUNDS`)."""
    budget: Budget | None = None
    """Wall clock of measurement not to exceed (``15m``); no round starts that would end later."""
    futility: float | None = None
    """The sequential design's futility bound (default :data:`perfproof.defaults.FUTILITY`)."""
    order: Order = Order.ABBA
    seed: int | None = None
    jmh_args: JmhArgs = field(default_factory=lambda: parse_jmh_args(None))
    """``--jmh-args`` as typed, merged with perfproof's defaults, and what it asks of JMH."""
    overlay: tuple[str, ...] = ()
    fresh_builds: bool = False
    out: str | None = None
    lock_timeout: float = defaults.LOCK_TIMEOUT_S
    cache_dir: str | None = None
    jfr: bool = False
    explain: Explain = Explain.RECORD
    """Whether a decided key with no static call path is recorded to confirm or deny reach."""
    shard: Shard | None = None
    """``I/N``: measure only shard I of the suite's N parts (``perfproof merge`` joins them)."""
    executor: Executor = Executor.LOCAL
    """``local``, or ``ray``: key groups measured on the nodes of a Ray cluster."""
    ray_address: str | None = None
    machine: str | None = None
    measure_last: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    """Only these keys (suite labels, ``Bench.m(n=16)``) of those the ``--bench`` regexes
    select, in every round: ``prove``'s profile forks record the keys its verdicts need and
    no others. Empty: every key."""
    """Benchmarks whose keys a budget cuts first (set by ``prove``; not a flag)."""
    """The machine or testbed name (runner kind) the run measures on: the history files the
    run under it (``--record``, ``history record``), so runners of different kinds never share
    a series. None: unnamed."""
    confidence: float = defaults.CONFIDENCE
    """The confidence level 1 − α of every interval and verdict."""
    threshold: float = defaults.THRESHOLD
    """The practical threshold: smaller changes are negligible."""
    family: Family = field(default_factory=lambda: Family(defaults.FAMILY))
    """The family procedure across the run's comparisons: bh, holm or none."""
    history_db: str | None = None
    """The history database the run is recorded in (``--record``; a URL's password hidden)."""
    sources: dict[str, str] = field(default_factory=dict)
    """Where each pinnable setting came from: flag, environment, the repository's file (with
    its line) or default; shown in the report's methodology."""

    def compare_options(self) -> CompareOptions:
        """How the run's comparisons are judged (the fixed design, and a merge of shards)."""
        return CompareOptions(
            confidence=self.confidence, threshold=self.threshold, family=self.family
        )

    def to_document(self) -> RunOptions:
        """The manifest's typed ``options`` block: every value as the user typed it (``15m``,
        ``2/4``, the JMH options' text), so a resumed run reads them back as the door read
        them."""
        values: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(
            build_options(self.build),
            budget=str(self.budget) if self.budget is not None else None,
            jmh_args=self.jmh_args.text,
            shard=str(self.shard) if self.shard is not None else None,
            bench=list(self.bench),
            overlay=list(self.overlay),
            measure_last=list(self.measure_last),
            keys=list(self.keys),
            sources=dict(self.sources),
        )
        return RunOptions.model_validate(values)

    @classmethod
    def of(cls, doc: RunOptions, budget: Budget | None = None) -> AbOptions:
        """The options of a run's manifest, as ``--resume`` reads them back: the entries it
        holds, each parsed as the door parses its flag; an unknown choice is refused naming
        ``options.<name>``."""
        known = {f.name for f in fields(cls)} & doc.model_fields_set
        values: dict[str, object] = {name: getattr(doc, name) for name in known}
        for name in ("bench", "overlay", "measure_last", "keys"):
            values[name] = tuple(getattr(doc, name) or ())
        values["build"] = spec_of_options(doc)
        if doc.budget and budget is not None:  # the seconds the run's plan keeps, as typed
            values["budget"] = Budget(budget.seconds, doc.budget)
        else:  # a prove bundle's A/B not started yet: the text is all it keeps
            values["budget"] = parse_budget(doc.budget) if doc.budget else None
        values["shard"] = parse_shard(doc.shard) if doc.shard else None
        values["jmh_args"] = parse_jmh_args(doc.jmh_args)
        enums = (("order", Order), ("executor", Executor), ("explain", Explain))
        for name, enum in enums:
            if name in values:
                values[name] = _member(name, values[name], enum)
        opts = cls(base=doc.base or "", head=doc.head or "")
        for name, value in values.items():
            setattr(opts, name, value)
        return opts

    def build_flags(self) -> list[str]:
        """The flags that build and start the benchmarks as this run did (module, build tool
        and its arguments, JMH options, java): every verb that repeats the build spells them so."""
        return self.build.flags(self.jmh_args.text)

    def reproduce_argv(self) -> list[str]:
        """The ``perfproof ab`` command line that repeats this run."""
        argv = ["perfproof", "ab", "--repo", self.repo, "--base", self.base, "--head", self.head]
        for regex in self.bench:
            argv += ["--bench", regex]
        argv += self.build_flags()
        if self.rounds is not None:
            argv += ["--rounds", str(self.rounds)]
        else:
            argv += ["--max-rounds", str(self.max_rounds or defaults.MAX_ROUNDS)]
            if self.budget is not None:
                argv += ["--budget", self.budget.text]
            if self.futility is not None:
                argv += ["--futility", f"{self.futility:g}"]
        argv += ["--order", str(self.order)]
        if self.seed is not None:
            argv += ["--seed", str(self.seed)]
        for path in self.overlay:
            argv += ["--overlay", path]
        if self.fresh_builds:
            argv.append("--fresh-builds")
        if self.jfr:
            argv.append("--jfr")
        if self.explain != Explain.RECORD:
            argv += ["--explain", str(self.explain)]
        if self.shard is not None:
            argv += ["--shard", str(self.shard)]
        if self.executor != Executor.LOCAL:
            argv += ["--executor", str(self.executor)]
        if self.ray_address:
            argv += ["--ray-address", self.ray_address]
        if self.machine:
            argv += ["--machine", self.machine]
        if self.confidence != defaults.CONFIDENCE:
            argv += ["--confidence", f"{self.confidence:g}"]
        if self.threshold != defaults.THRESHOLD:
            argv += ["--threshold", f"{self.threshold:g}"]
        if self.family != Family(defaults.FAMILY):
            argv += ["--family", str(self.family)]
        return argv


def _member(name: str, raw: object, enum: type[_E]) -> _E:
    """``options.<name>`` read back as its enum; a value no flag takes is refused naming it."""
    if isinstance(raw, enum):
        return raw
    if not isinstance(raw, str) or raw not in {e.value for e in enum}:
        choices = ", ".join(e.value for e in enum)
        raise InputError(f"options.{name}: {raw!r} is not one of {choices}")
    return enum(raw)


_OPTION_NAMES = {"kind": "build", "jar_glob": "jar"}
"""The ``BuildSpec`` fields the flags (and the manifest's ``options``) name otherwise: both
directions below read this one table."""


def build_options(spec: BuildSpec) -> dict[str, object]:
    """The build settings as the manifest's ``options`` spells them: flat, under the flags'
    own names, the command as typed."""
    doc = {_OPTION_NAMES.get(f.name, f.name): getattr(spec, f.name) for f in fields(spec)}
    return doc | {"build": str(spec.kind), "build_args": list(spec.build_args)}


def spec_of_options(doc: RunOptions) -> BuildSpec:
    """The build settings of a manifest's ``options`` (as :func:`build_options` wrote them);
    an entry never written keeps ``BuildSpec``'s default."""
    kind = BuildKind.AUTO if doc.build is None else _member("build", doc.build, BuildKind)
    names = [f.name for f in fields(BuildSpec) if f.name not in ("kind", "build_args")]
    entries = {name: getattr(doc, _OPTION_NAMES.get(name, name)) for name in names}
    given = {name: value for name, value in entries.items() if value is not None}
    return BuildSpec(kind=kind, build_args=tuple(doc.build_args or ()), **given)


def check_lock_timeout(seconds: float) -> float:
    """Seconds to wait for the JMH lock: a number, 0 or more (``inf`` waits for ever)."""
    if math.isnan(seconds) or seconds < 0:
        raise InputError(f"--lock-timeout {seconds}: must be a number of seconds, 0 or more")
    return seconds


def check_options(opts: AbOptions) -> None:
    """Everything that can be judged without a build: refused here, exit 2, nothing built.

    Judges only what no one flag says alone: each value was typed and checked at the door, or
    read back from a manifest as the door reads it (budget, shard, JMH options, the enums, the
    confidence, threshold, futility and lock timeout), so only how the flags go together, the
    regexes and the machine name are judged here; nothing is changed and nothing is joined (a
    Ray cluster is joined when the run starts)."""
    check_bench_regexes(opts.bench)
    if opts.rounds is not None:
        if opts.rounds < 1:
            raise InputError(f"--rounds must be at least 1, got {opts.rounds}")
        for flag, value in (("--max-rounds", opts.max_rounds), ("--budget", opts.budget)):
            if value is not None:
                raise InputError(
                    f"{flag} belongs to the sequential design; --rounds {opts.rounds} runs a "
                    "fixed number of rounds with no early stop (drop one of them)"
                )
    if opts.rounds is not None and opts.futility is not None:
        raise InputError(
            f"--futility belongs to the sequential design; --rounds {opts.rounds} never stops a "
            "key early (drop one of them)"
        )
    if opts.max_rounds is not None and opts.max_rounds < 2:
        raise InputError(
            f"--max-rounds must be at least 2 (a look needs two forks a side), got "
            f"{opts.max_rounds}"
        )
    if opts.seed is not None and opts.order != Order.RANDOM:
        raise InputError(
            f"--seed only applies to --order random; the {opts.order} order is fixed (drop --seed)"
        )
    check_spread_options(opts.shard, opts.executor, opts.ray_address, opts.jfr)
    if opts.machine is not None:
        check_machine(opts.machine)

"""The run manifest's ``plan``, ``stopping`` and ``shard`` blocks, typed.

:class:`PlanBlock` is the plan of a run (``measure.plan.Plan``): what the run machinery works
with, what the manifest writes as it is and a cluster's machines receive, read back by
``--resume``, ``merge`` and ``report``. ``measure.rounds.SequentialState`` writes
:class:`StoppingBlock`: at which round each key stopped and why, which the report tells and
``results.json`` repeats. ``measure.shard`` writes :class:`ShardBlock`: a shard's part of the
suite's partition and the :class:`Machine` it ran on, which ``merge`` checks the shards against.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import ConfigDict, Field, model_validator

from perfproof.model.budget import Budget
from perfproof.model.diagnostics import ByValue, ComparisonMethod
from perfproof.model.documents.codec import Document, Text, TextList
from perfproof.model.documents.suite import Selection, SuiteKey
from perfproof.model.enums import Family
from perfproof.units import eta
from perfproof.units.durations import parse_time

FIXED: Final = "fixed"
"""The fixed design: every round runs every key."""
SEQUENTIAL: Final = "sequential"
"""The sequential design: rounds continue only for the keys still undecided at each look."""
Stopping = Literal["fixed", "sequential"]
"""A run's stopping rule, as the plan and the record of how its rounds ended name it."""


PAIR: Final = "pair"
"""The side of a step (and of its raw file, ``01-pair.json``) that measures both variants."""


def step_id(round_no: int, side: str, part: int = 1) -> str:
    """``01-base`` (``03-head-2`` for a second part): sorts by round, names the result file
    ``jmh/<id>.json``."""
    suffix = f"-{part}" if part > 1 else ""
    return f"{round_no:02d}-{side}{suffix}"


class PlannedStep(Document):
    """One JMH process of the plan: one side in one round, for the whole suite or a selection
    of keys. The run machinery works with this type (``measure.plan``) and the manifest's plan
    writes it as it is.

    A round of a sequential run measures only the undecided keys; when they are not one cross
    product of @Param values the round needs several JMH processes per side, its parts.
    """

    model_config = ConfigDict(frozen=True)

    index: int
    id: Text
    """:func:`step_id` of the round, side and part."""
    round: int
    side: str
    part: int = 1
    """Which JMH process of the round's side (a round may run one per benchmark)."""
    selection: Selection | None = None
    """The keys this step runs; None: the whole suite the ``--bench`` regexes select."""
    forks: int | None = None
    """Forks of this step when not the plan's ``-f``: a catch-up step that runs again the
    forks a look left out because they never warmed up."""
    warmup_iterations: int | None = None
    """Warm-up iterations of this step when not the plan's ``-wi``: chosen per benchmark from
    the first round's traces (``measure.warmup_choice``)."""

    @property
    def jfr_side(self) -> str:
        """The side's name in the JFR folder ``r<round>-<side>``: parts get their own folder."""
        return self.side if self.part == 1 else f"{self.side}-p{self.part}"


FORK_OVERHEAD_S: Final = 0.8
"""JVM start, benchmark setup and result hand-over per fork (measured ~0.5-1 s on 2 cores)."""


class JmhSettings(Document):
    """The JMH options that decide how long a step takes, as the plan keeps them
    (:func:`parse_settings` reads them from the options)."""

    model_config = ConfigDict(frozen=True)

    forks: int = 5
    warmup_iterations: int = 5
    warmup_s: float = 10.0
    iterations: int = 5
    measurement_s: float = 10.0

    def fork_seconds(self) -> float:
        return (
            self.warmup_iterations * self.warmup_s
            + self.iterations * self.measurement_s
            + FORK_OVERHEAD_S
        )


def parse_settings(options: tuple[str, ...] | list[str]) -> JmhSettings:
    """Read forks, iterations and iteration times out of a JMH option list (last one wins).

    Options perfproof cannot interpret fall back to JMH's own defaults, which over-estimate
    rather than under-estimate.
    """
    values: dict[str, str] = {}
    for i, token in enumerate(options[:-1]):
        if token in ("-f", "-wi", "-w", "-i", "-r"):
            values[token] = options[i + 1]
    base = JmhSettings()

    def number(name: str, default: int) -> int:
        try:
            return int(values[name])
        except (KeyError, ValueError):
            return default

    def seconds(name: str, default: float) -> float:
        try:
            return parse_time(values[name])
        except (KeyError, ValueError):
            return default

    return JmhSettings(
        forks=number("-f", base.forks),
        warmup_iterations=number("-wi", base.warmup_iterations),
        warmup_s=seconds("-w", base.warmup_s),
        iterations=number("-i", base.iterations),
        measurement_s=seconds("-r", base.measurement_s),
    )


class DesignBlock(Document):
    """A sequential design as the plan records it when the run starts: a resumed run judges
    with the very same looks, levels and family whatever perfproof's defaults became
    (``compare.sequential_design.SequentialDesign.to_block`` says why the two differ)."""

    max_looks: int
    confidence: float
    threshold: float
    family: Annotated[Family, ByValue]
    first_forks: int
    forks_per_look: int
    metrics: list[Text]
    futility: float = 0.0
    method: Annotated[ComparisonMethod, ByValue] = ComparisonMethod.FORK_LEVEL
    """The fork-level comparison method of the looks; a plan written before there was a
    choice looked with Welch's."""


class PlanBlock(Document):
    """Rounds × sides in a fixed order plus the JMH options every step uses, as the run
    machinery works with it and the manifest keeps it (``measure.plan`` lays it out).

    ``stopping`` is ``fixed`` (every round runs every key; all steps planned up front) or
    ``sequential`` (``rounds`` is the most rounds; each round after the first is planned from
    the keys still undecided when the round before it ended, ``measure.plan.round_steps``).
    ``budget_s`` caps the measurement's wall clock: no round starts that would end past it.
    """

    model_config = ConfigDict(frozen=True)

    rounds: int
    order: str
    seed: int | None = None
    stopping: Stopping = FIXED
    budget_s: float | None = None
    design: DesignBlock | None = None
    """The sequential design's own record (looks, levels, family; ``compare.sequential_design``),
    fixed when the run starts so that a resumed run judges with the very same design whatever
    perfproof's defaults became."""
    benchmarks: list[Text] = Field(default_factory=list)
    jmh_options: list[Text] = Field(default_factory=list)
    jmh_settings: JmhSettings | None = None
    """What ``jmh_options`` ask of JMH (forks, iterations and their times), read once when the
    run starts and kept with the plan: the ETA, the budget's rounds and a shard's cut use it
    (:attr:`settings`). None in a run folder written before the plan kept them."""
    steps: list[PlannedStep] = Field(default_factory=list)

    @property
    def budget(self) -> Budget | None:
        """The run's ``--budget`` as the ledger its decisions ask (``budget_s`` is where the
        manifest keeps its seconds, once); None for a run without one."""
        return None if self.budget_s is None else Budget(self.budget_s, eta(self.budget_s))

    paired: bool = Field(default=False, exclude=True)
    """A variant run's plan: each round's steps run both variants (side :data:`PAIR`). Not
    written: a plan read back is paired when its steps are."""

    @model_validator(mode="before")
    @classmethod
    def _paired_from_steps(cls, data: object) -> object:
        if isinstance(data, dict) and "paired" not in data:
            steps = data.get("steps")
            sides = [s.get("side") if isinstance(s, dict) else getattr(s, "side", None)
                     for s in steps] if isinstance(steps, list) else []  # fmt: skip
            return {**data, "paired": PAIR in sides}
        return data

    @property
    def planned_rounds(self) -> int:
        """The rounds planned so far: the last round that has steps. Rounds are planned in
        order from the first (a sequential run appends one after each look), so this is also
        how many rounds have steps."""
        return max((s.round for s in self.steps), default=0)

    @property
    def settings(self) -> JmhSettings:
        """What the plan's JMH options ask of JMH, as the plan kept them when the run
        started; a plan written before plans kept them reads them from its options."""
        if self.jmh_settings is not None:
            return self.jmh_settings
        return parse_settings(self.jmh_options)

    def with_steps(self, steps: list[PlannedStep]) -> PlanBlock:
        """The plan with ``steps`` appended (a sequential run's next round)."""
        return self.model_copy(update={"steps": [*self.steps, *steps]})


class StoppedKey(Document):
    """Where one key left the plan: the round (None: it never did), with a verdict or a
    futility stop (``decided``), before the most rounds (``early``)."""

    key: str
    benchmark: str | None = None
    params: dict[str, Text] = Field(default_factory=dict)
    stopped_round: int | None = None
    decided: bool = False
    early: bool = False
    notes: list[str] = Field(default_factory=list)


class StoppingBlock(Document):
    """How the rounds ended: the design, the most rounds, the rounds run, each key's stop."""

    design: Stopping | None = None
    max_rounds: int | None = None
    rounds_run: int | None = None
    looks: int | None = None
    ended: str | None = None
    keys: list[StoppedKey] = Field(default_factory=list)
    methodology: str | None = None
    """The method the final comparison used (``ab``'s record; absent on a shard's group)."""


class MachineFacts(Document):
    """The facts that tell machines apart, any of them unknown (None): a run's environment
    records them, and so does the machine each shard ran on, which ``merge`` names."""

    cpu_model: Text | None = None
    cores: int | None = None
    memory_bytes: int | None = None
    os: Text | None = None


class Machine(MachineFacts):
    """Which machine a shard ran on (``measure.shard.machine_identity``): its host name, the
    facts that tell machines apart, and a Ray node's id (two nodes may share a host name).
    ``shard`` numbers it among a merged run's machines."""

    host: Text | None = None
    ray_node: str | None = None
    shard: int | None = None


class ShardBlock(Document):
    """A shard's part of the suite: which shard of how many, the partition's method and
    digest, its own keys and the whole suite's, the time it was expected to take, where it
    ran. Every shard keeps the whole key list, so a merge checks the cut from the shards."""

    index: int
    count: int
    method: str | None = None
    digest: str | None = None
    keys: TextList | None = None
    all_keys: TextList = Field(default_factory=list)
    expected_s: float | None = None
    machine: Machine | None = None


class MeasuredEntry(Document):
    """A benchmark entry (all its metrics) a shard measured."""

    benchmark: str
    mode: str
    params: dict[str, Text] = Field(default_factory=dict)


class MergedShard(Document):
    """One shard of a merged run: where its folder was, where it ran, the keys it was given
    and the entries it measured, its partition digest and how its rounds ended."""

    index: int
    count: int
    run_dir: str
    machine: Machine | None = None
    keys: list[Text] = Field(default_factory=list)
    measured: list[MeasuredEntry] = Field(default_factory=list)
    digest: str | None = None
    stopping: StoppingBlock | None = None


class KeyGroup(Document):
    """One group of a cluster run: its number, how many there are, its keys."""

    index: int
    count: int
    keys: list[SuiteKey] = Field(default_factory=list)


class ClusterBlock(Document):
    """``ab --executor ray``: the run's key groups, cut once and read back by every resume,
    with the partition's method and digest, the whole suite and the plan each group runs."""

    executor: str = "ray"
    method: str | None = None
    digest: str | None = None
    all_keys: list[Text] = Field(default_factory=list)
    plan: PlanBlock | None = None
    groups: list[KeyGroup] = Field(default_factory=list)


class ClusterPart(Document):
    """Where a finished group's folder is and which node measured it, in how long."""

    path: str
    host: str | None = None
    node: str | None = None
    seconds: float | None = None

"""The flags of the verbs that build two commits and run JMH on them (``ab``, ``prove``,
``guard``), declared once, in groups, and the one function that turns them into ``AbOptions``.

A verb takes the groups it needs; which flags a resumed run refuses (the run folder fixes
them) is read off the same declarations, so no list of flags is written twice.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import click

from perfproof import defaults
from perfproof.cli.build_flags import BUILD, build_spec
from perfproof.cli.flag import Flag, fill
from perfproof.cli.options import (
    CONFIDENCE,
    CONFIDENCE_DEFAULT,
    FUTILITY,
    OUT_DIR,
    THRESHOLD,
    THRESHOLD_DEFAULT,
    enum_choice,
)
from perfproof.cli.parsed import BUDGET, JMH_ARGS, SHARD
from perfproof.errors import InputError
from perfproof.history.records import machine_name
from perfproof.measure.plan import Order
from perfproof.model.enums import Family
from perfproof.pipeline.ab.options import AbOptions, check_lock_timeout
from perfproof.pipeline.cluster import Executor
from perfproof.workspace.git import MERGE_BASE

DEFAULTS_TEXT = " ".join(defaults.JMH_ARGS)

BASE_HELP = (
    f"{MERGE_BASE}REF (`git merge-base REF HEAD`: where a pull request forked, e.g. "
    "origin/main) or any commit, branch or tag: the baseline."
)
"""``--base`` of every verb that takes refs: the merge-base spelling named where it is used."""


class Seconds(click.ParamType):
    """A wait in seconds, refused at the door when it is not a number, 0 or more."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return check_lock_timeout(value)
        try:
            seconds = float(str(value))
        except ValueError:
            raise InputError(f"--lock-timeout {value}: not a number of seconds") from None
        return check_lock_timeout(seconds)


SECONDS = Seconds()


REFS = (
    Flag(
        "repo",
        ("--repo",),
        {
            "default": ".",
            "show_default": True,
            "type": click.Path(file_okay=False),
            "help": "The git repository holding both refs (never modified).",
        },
        fixed_by_run=False,
    ),
    Flag("base", ("--base",), {"metavar": "REF", "help": BASE_HELP}),
    Flag("head", ("--head",), {"metavar": "REF", "help": "Feature commit, branch or tag."}),
)

JMH = (
    Flag(
        "bench",
        ("--bench",),
        {
            "multiple": True,
            "metavar": "REGEX",
            "help": "JMH benchmark regex (repeatable); default: every benchmark.",
        },
    ),
    Flag(
        "jmh_args",
        ("--jmh-args",),
        {
            "type": JMH_ARGS,
            "metavar": "ARGS",
            "help": f'JMH options, e.g. "-p n=16 -wi 5" (default "{DEFAULTS_TEXT}").',
        },
    ),
    Flag(
        "overlay",
        ("--overlay",),
        {
            "multiple": True,
            "metavar": "PATH",
            "help": "Copy PATH from head onto base before building base (repeatable).",
        },
    ),
    Flag(
        "lock_timeout",
        ("--lock-timeout",),
        {
            "type": SECONDS,
            "default": defaults.LOCK_TIMEOUT_S,
            "show_default": True,
            "metavar": "S",
            "help": "Seconds to wait for another JMH holding /tmp/jmh.lock.",
        },
        fixed_by_run=False,
    ),
)
"""Which benchmarks run, and how JMH runs them."""

DESIGN = (
    Flag(
        "budget",
        ("--budget",),
        {
            "type": BUDGET,
            "metavar": "DURATION",
            "help": "Time of measurement not to exceed (90s, 15m, 1h): the time JMH runs, not "
            "the time waiting for another JMH's lock; no round starts that would end after it; "
            "keys still undecided then stay inconclusive.",
        },
    ),
    Flag(
        "futility",
        ("--futility",),
        {
            "type": FUTILITY,
            "metavar": "PCT",
            "help": "Stop an undecided key without a verdict only on evidence of a small change: "
            "its interval inside ±5%, or inside ±50% with a predictive chance of a verdict by "
            f"--max-rounds below PCT (default {defaults.FUTILITY:.0%}; 0: never).",
        },
    ),
    Flag(
        "max_rounds",
        ("--max-rounds",),
        {
            "type": int,
            "metavar": "N",
            "help": f"Most rounds of the sequential design (default {defaults.MAX_ROUNDS}).",
        },
    ),
    Flag(
        "rounds",
        ("--rounds",),
        {
            "type": int,
            "metavar": "N",
            "help": "Fixed design: exactly N rounds, every key in every round, no early stop.",
        },
    ),
    Flag(
        "order",
        ("--order",),
        {
            "type": enum_choice(Order),
            "default": Order.ABBA.value,
            "show_default": True,
            "help": "Order of the sides within rounds.",
        },
    ),
    Flag(
        "seed",
        ("--seed",),
        {"type": int, "help": "Seed for --order random (recorded); refused with other orders."},
    ),
)
"""The sequential design of the A/B: rounds, looks, budget, order."""

RUN = (
    Flag(
        "out",
        ("--out",),
        {"type": OUT_DIR, "help": "Run folder (default <repo>/.perfproof/runs/<id>)."},
    ),
    Flag(
        "jfr",
        ("--jfr",),
        {
            "is_flag": True,
            "help": "Record every fork of every step with JFR (settings=profile), one file per "
            "fork: RUN_DIR/jfr/r<round>-<side>/fork-N.jfr. Read them with "
            "`perfproof profile RUN_DIR/jfr/r1-head` or `perfproof profile diff "
            "--before RUN_DIR/jfr/r*-base* --after RUN_DIR/jfr/r*-head*` (a step run in parts "
            "records into r<round>-<side>-p<part>).",
        },
    ),
    Flag(
        "shard",
        ("--shard",),
        {
            "type": SHARD,
            "metavar": "I/N",
            "help": "Measure only shard I of N (1-based) of the suite's keys, on this machine; "
            "join the N run folders with `perfproof merge`. With --resume: must name the "
            "folder's shard.",
        },
        fixed_by_run=False,
    ),
    Flag(
        "executor",
        ("--executor",),
        {
            "type": enum_choice(Executor),
            "default": Executor.LOCAL.value,
            "show_default": True,
            "help": "Where JMH runs: this machine, or key groups on the nodes of a Ray cluster "
            "that offer a 'jmh' resource (pip install 'perfproof[ray]').",
        },
    ),
    Flag(
        "ray_address",
        ("--ray-address",),
        {
            "metavar": "HOST:PORT",
            "help": "With --executor ray: the cluster to join (default: RAY_ADDRESS or a local "
            "one).",
        },
        fixed_by_run=False,
    ),
    Flag(
        "machine",
        ("--machine",),
        {
            "metavar": "NAME",
            "help": "Name of the machine or testbed (the runner kind, e.g. ci-large) this run "
            "measures on: kept in the run folder and filed with the run by --record or "
            "`perfproof history record`, so runners of different kinds never share a history "
            "series [default: $PERFPROOF_MACHINE, else none: unnamed, never a name made up "
            "from this host].",
        },
    ),
)
"""Where the run is kept and where it runs."""

VERDICT = (
    Flag(
        "confidence",
        ("--confidence",),
        {
            "type": CONFIDENCE,
            "metavar": "LEVEL",
            "help": "Confidence level 1-α of every interval and verdict (0.99 or 99%) "
            f"[default: {CONFIDENCE_DEFAULT}].",
        },
    ),
    Flag(
        "threshold",
        ("--threshold",),
        {
            "type": THRESHOLD,
            "metavar": "FRACTION",
            "help": "Practical threshold: smaller changes are 'negligible' (1% or 0.01) "
            f"[default: {THRESHOLD_DEFAULT}].",
        },
    ),
    Flag(
        "family",
        ("--family",),
        {
            "type": enum_choice(Family),
            "help": "Family procedure across the comparisons: bh (Benjamini-Hochberg), holm "
            f"or none [default: {defaults.FAMILY}].",
        },
    ),
)
"""How a verdict is made: shared by every verb that judges a comparison (``guard`` keeps its
own --confidence)."""

AB_GROUPS = (REFS, BUILD, JMH, DESIGN, RUN)
"""Everything ``ab`` is asked: what ``prove`` and ``guard`` take as ``ab`` spells it."""


AB_NOT_FLAGS = ("cache_dir", "measure_last", "keys", "history_db")
"""``AbOptions`` fields no flag fills: what a verb or a later stage sets on the options built."""

NOT_JUDGED = (*(f.name for f in VERDICT), "explain")
"""The flags of ``ab`` a verb that judges its own way does not take (``guard``: its own
--confidence, nothing recorded to explain a verdict); its ``AbOptions`` keep their defaults."""


def ab_options(
    params: Mapping[str, object],
    /,
    sources: Mapping[str, str] | None = None,
    unasked: Collection[str] = (),
    **fixed: object,
) -> AbOptions:
    """``AbOptions`` from the parsed values of :data:`AB_GROUPS`, :data:`VERDICT` and
    --explain, each field the flag of its name as the door typed it: the one builder of every
    verb that runs an A/B. ``fixed`` overrides flags (what a verb decides itself, like prove's
    --jfr), ``sources`` says where each pinned setting came from, ``unasked`` names the flags
    the verb does not take (:data:`NOT_JUDGED`)."""
    p = {**params, **fixed}
    return fill(
        AbOptions,
        p,
        unasked=(*AB_NOT_FLAGS, *unasked),
        base=p["base"] or "",
        head=p["head"] or "",
        build=build_spec(p),
        machine=machine_name(p["machine"]),  # type: ignore[arg-type]
        sources=dict(sources or {}),
    )

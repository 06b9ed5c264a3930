"""The Methodology section and the run-level warnings: how and where the numbers were made.

Values come from the manifest when the run recorded them and otherwise from the raw JMH
files (which always carry the JMH and JDK versions and the fork/iteration settings), so a
folder made from ``compare`` data still gets an honest, if shorter, methodology. The machine
block is read as the :class:`~perfproof.model.documents.run.Environment` that
:mod:`perfproof.measure.environment` writes: one type for the writer and the reader.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from perfproof.jmh.entries import JmhEntry, Setting
from perfproof.measure.rounds import (
    ALL_DECIDED,
    lock_holders,
    lock_wait_seconds,
    measuring_seconds,
)
from perfproof.model import PRIMARY
from perfproof.model.documents.run import Environment, SideRef
from perfproof.report.rundir import BASE, HEAD, RunFolder
from perfproof.units import duration, fraction_pct, short_sha

LOAD_PER_CORE = 0.5
"""Load average per core above which other work on the machine may have disturbed the run."""


def _distinct(values: Iterable[object]) -> list[str]:
    out: list[str] = []
    for v in values:
        text = str(v) if v is not None else ""
        if text and text not in out:
            out.append(text)
    return out


def _entries(run: RunFolder, side: str | None = None) -> list[JmhEntry]:
    files = run.raw if side is None else run.raw_for(side)
    return [e for f in files for e in f.entries]


def environment(run: RunFolder) -> Environment:
    """The run's machine block (empty for a folder made from ``compare`` data)."""
    return run.manifest.environment


def title(run: RunFolder) -> str:
    base, head = run.manifest.side(BASE), run.manifest.side(HEAD)
    if run.manifest.variants is not None:
        return f"Performance: {side_label(run, HEAD)} vs {side_label(run, BASE)}"
    if _ref_label(base) or _ref_label(head):
        return f"Performance: {_ref_label(head) or 'feature'} vs {_ref_label(base) or 'baseline'}"
    return "Performance comparison"


def side_label(run: RunFolder, side: str) -> str:
    """A side as the reader should know it: its ref, or its variant at the one ref
    (``sumOpt at v1 (2f42b584)``) for a run of two variants of one commit."""
    ref = _ref_label(run.manifest.side(side))
    variants = run.manifest.variants
    if variants is None:
        return ref
    names = variants.side_names()
    return f"{names[0] if side == BASE else names[1]} at {ref}"


def _ref_label(info: SideRef) -> str:
    ref, sha = info.ref, info.sha
    if ref and sha and str(ref) != str(sha):
        return f"{ref} ({short_sha(str(sha))})"
    return str(ref or sha or "")[:40]


def jdk_label(run: RunFolder, side: str | None = None) -> str:
    jdk = environment(run).jdk
    if jdk:
        parts = _distinct([jdk.vendor, jdk.vm_name, jdk.runtime_version or jdk.version])
        label = " ".join(parts)
        path = jdk.path or jdk.home
        return f"{label} ({path})" if path else label
    versions = _distinct(
        " ".join(_distinct([e.vm_name, e.vm_version or e.jdk_version])) for e in _entries(run, side)
    )
    return "; ".join(versions)


def jmh_versions(run: RunFolder) -> str:
    from_manifest = environment(run).jmh_version
    if from_manifest:
        return from_manifest
    return ", ".join(_distinct(e.jmh_version for e in _entries(run))) or "unknown"


def jvm_flags(run: RunFolder, side: str | None = None) -> str:
    flags = _distinct(" ".join(e.jvm_args) or "(none)" for e in _entries(run, side))
    return "; ".join(flags) if flags else "unknown"


def jmh_settings(run: RunFolder) -> str:
    """``2 forks × (2 × 1 s warm-up + 3 × 1 s measurement), 1 thread`` per distinct setting."""
    settings = _distinct(_setting(e) for e in _entries(run))
    return "; ".join(settings) if settings else "unknown"


def _setting(e: JmhEntry) -> str:
    forks = e.forks
    wi, wt = e.warmup_iterations, e.warmup_time
    mi, mt = e.measurement_iterations, e.measurement_time
    threads = e.threads
    fork_text = (
        "forks not recorded" if forks is None else f"{forks} fork{'s' if forks != 1 else ''}"
    )
    text = f"{fork_text} × ({_phase(wi, wt, 'warm-up')} + {_phase(mi, mt, 'measurement')})"
    if threads and threads != 1:
        text += f", {threads} threads"
    return text


def _phase(iterations: Setting, each: Setting, name: str) -> str:
    """``2 × 1 s warm-up``; a field JMH's file lacks is said to be missing, never ``None``."""
    if iterations == 0:
        return f"no {name}"
    if iterations is None or each is None:
        return f"{name} not recorded"
    return f"{iterations} × {each} {name}"


def rounds_text(run: RunFolder) -> str:
    plan = run.manifest.plan
    sequence = [s.id for s in plan.steps] if plan is not None else []
    if not sequence:
        sequence = [f"{r.round}-{r.side}" for r in run.raw]
    rounds = plan.rounds if plan is not None else None
    if plan is None or plan.stopping == "sequential":  # rounds run, not the most
        rounds = (plan.planned_rounds if plan else 0) or len({r.round for r in run.raw})
    plural = "s" if rounds != 1 else ""
    if run.manifest.variants is not None:  # the order within a round is JMH's own
        text = f"{rounds} round{plural}, each one JMH process running both variants"
    elif plan is not None and plan.order:
        text = f"{rounds} round{plural}, order {plan.order.upper()}"
    else:
        text = f"{rounds} round{plural} per side (order not recorded)"
    if sequence:
        text += ": " + ", ".join(sequence)
    return text


def stopping_text(run: RunFolder) -> str | None:
    """How the rounds ended: the fixed design, or at which round the keys of a sequential
    run stopped (counted, not listed: the results carry each key's round)."""
    stop = run.manifest.stopping
    plan = run.manifest.plan
    if stop is None:
        return None
    if (stop.design or (plan.stopping if plan else None)) != "sequential":
        return "fixed design: every key in every round, no early stop"
    keys = stop.keys
    early: dict[int, int] = {}
    for k in keys:
        if k.early and k.stopped_round:
            early[k.stopped_round] = early.get(k.stopped_round, 0) + 1
    rounds = ", ".join(f"{n} after round {r}" for r, n in sorted(early.items()))
    most = stop.max_rounds or (plan.rounds if plan else None)
    text = (
        f"sequential, up to {most} rounds; {sum(early.values())} of "
        f"{len(keys)} keys stopped early" + (f" ({rounds})" if rounds else "")
    )
    ran = stop.rounds_run or len({s.round for s in run.manifest.steps})
    return f"{text}; ended after round {ran}: {_ended(run, stop.ended, len(keys))}"


def _ended(run: RunFolder, ended: str | None, keys: int) -> str | None:
    """Why the rounds ended, in words a reader cannot take for "every key has a verdict":
    ``all keys decided`` counts a futility stop as decided (it stops without a verdict), so
    beside inconclusive rows the line says how many keys stopped that way and on what: an
    interval inside the equivalence margin, or a verdict by the last look predicted improbable
    (what was computed, no more)."""
    if ended != ALL_DECIDED:
        return ended
    futile = [
        c.diagnostics.sequential
        for c in run.document.comparisons
        if c.key.metric == PRIMARY
        and c.diagnostics.sequential is not None
        and c.diagnostics.sequential.futile
    ]
    if not futile:
        return ended
    rules = [
        look.futility_rule or ("estimate" if look.conditional_power is not None else None)
        for look in futile
    ]
    why = ""
    if all(rules):  # a look with no rule and no conditional power says nothing of its rule
        parts = [
            f"{rules.count('equivalence')} with an interval inside the equivalence margin",
            f"{rules.count('predictive')} whose verdict by the last look was predicted improbable",
            f"{rules.count('estimate')} whose verdict by the last look was improbable were its "
            "estimate so far the truth",
        ]
        why = ": " + "; ".join(p for p in parts if not p.startswith("0 "))
    return (
        f"every key stopped, {keys - len(futile)} with a verdict and {len(futile)} for futility "
        f"(no verdict{why})"
    )


def measuring_text(run: RunFolder) -> str | None:
    """The time JMH ran (what ``--budget`` counts) and, apart, the time the steps waited for
    another process's JMH lock and who held it: a run on a shared machine says where its wall
    clock went and that the wait bought no measurement."""
    steps = run.manifest.steps
    if not steps:
        return None
    ran, waited = measuring_seconds(steps), lock_wait_seconds(steps)
    recorded = (run.manifest.reach.recorded_s if run.manifest.reach else None) or 0.0
    budget = run.manifest.plan.budget_s if run.manifest.plan else None
    if not budget and waited < 1.0:
        return None  # the JMH time is in the step lines; nothing else to tell apart
    text = f"JMH ran {duration(ran + recorded)}"
    if recorded:
        text += f" ({duration(recorded)} of it recording forks to see what the change reaches)"
    if budget:
        text += f" of a --budget of {duration(float(budget))} (the budget counts this time only)"
    if waited >= 1.0:
        holders = lock_holders(steps)
        text += f"; {duration(waited)} waiting for the JMH lock, not counted"
        if holders:
            text += f" (held by {', '.join(holders[:3])}" + (", …)" if len(holders) > 3 else ")")
    return text


def forks_text(run: RunFolder) -> str:
    """Forks each benchmark had on each side, counted per key over every raw file: a merged
    run's files come from several shards, each with its own keys, so adding up the files
    would count one key's forks once per shard."""
    counts = []
    for side, name in ((BASE, "baseline"), (HEAD, "feature")):
        per_key: dict[str, int] = {}
        for f in run.raw_for(side):
            for e in f.entries:
                label = e.key.label() if e.key is not None else repr(e.benchmark)
                per_key[label] = per_key.get(label, 0) + e.fork_count
        values = sorted({n for n in per_key.values() if n}) or [0]  # 0: no raw values kept
        n = str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}"
        counts.append(f"{n} per benchmark on the {name}")
    return ", ".join(counts)


def builds_text(run: RunFolder) -> str | None:
    builds = run.manifest.builds
    if not builds:
        return None
    out = []
    for b in builds:
        side = {BASE: "baseline", HEAD: "feature"}.get(str(b.side), b.side or "?")
        if b.reused:
            out.append(f"{side}: the other side's build ({b.reused})")
            continue
        cached = b.cached
        state = "cached jar" if cached else "fresh build"
        took = b.duration_s or b.seconds
        out.append(
            f"{side}: {state}"
            + (f" ({duration(float(took))})" if took and not cached else "")
            + (f", built with {b.tool}" if b.tool else "")
        )
    return ", ".join(_distinct(out))


def overlay_text(run: RunFolder) -> str | None:
    overlay = run.manifest.overlay
    files = (overlay.files or overlay.paths) if overlay else []
    if overlay is None or not files:
        return None
    return f"{', '.join(files)} (from {overlay.source} onto {overlay.onto})"


def machine_text(run: RunFolder) -> str | None:
    env = environment(run)
    cpu, cores, mem, osname = env.cpu_model, env.cores, env.memory_bytes, env.os
    parts = []
    if cpu:
        parts.append(str(cpu))
    if cores:
        parts.append(f"{cores} cores")
    if mem is not None and mem > 0:
        parts.append(f"{mem / 2**30:.1f} GiB memory")
    if osname:
        parts.append(str(osname))
    return ", ".join(parts) or None


def loads(run: RunFolder) -> tuple[list[float] | None, list[float] | None]:
    env = environment(run)
    return env.load_before or None, env.load_after or None


def load_text(run: RunFolder) -> str | None:
    before, after = loads(run)
    if before is None and after is None:
        return None

    def fmt(v: list[float] | None) -> str:
        return " / ".join(f"{x:.2f}" for x in v) if v else "n/a"

    return f"{fmt(before)} before, {fmt(after)} after (1 / 5 / 15 min)"


def methodology(run: RunFolder) -> list[tuple[str, str]]:
    """Label/value lines for the Methodology section, skipping what the run did not record."""
    items: list[tuple[str | None, str | None]] = [
        ("Baseline", side_label(run, BASE) or None),
        ("Feature", side_label(run, HEAD) or None),
        ("Sides", run.manifest.variants.text if run.manifest.variants else None),
        ("JMH", jmh_versions(run)),
        ("JDK", _per_side(run, jdk_label)),
        ("JVM flags", _per_side(run, jvm_flags)),
        (
            "JMH options",
            " ".join(run.manifest.plan.jmh_options if run.manifest.plan else []) or None,
        ),
        ("Forks × iterations", jmh_settings(run)),
        ("Forks measured", forks_text(run)),
        ("Rounds and order", rounds_text(run)),
        ("Stopping", stopping_text(run)),
        ("Measuring time", measuring_text(run)),
        ("Builds", builds_text(run)),
        ("Overlay", overlay_text(run)),
        ("Machine", machine_text(run)),
        ("Load average", load_text(run)),
        ("perfproof", _perfproof_version(run)),
        ("Settings", settings_text(run)),
    ]
    return [(k, v) for k, v in items if k and v]


def settings_text(run: RunFolder) -> str | None:
    """Each pinnable setting the run was started with and where it came from (a flag, a
    ``PERFPROOF_…`` variable, the repository's file and line, or perfproof's default)."""
    options = run.manifest.options.dump()  # the entries written, by name
    sources = options.get("sources")
    if not isinstance(sources, dict) or not sources:
        return None
    parts = []
    for name, source in sources.items():
        if name == "db":  # the history database, shown only when the run was recorded
            if not options.get("history_db"):
                continue
            name, value = "history database", options["history_db"]
        elif name not in options:
            continue  # a setting of another verb's
        else:
            value = options.get(name)
        if name in ("threshold", "confidence") and isinstance(value, (int, float)):
            shown = fraction_pct(float(value))
        elif isinstance(value, list):
            shown = " ".join(map(str, value)) or "none"
        else:
            shown = "perfproof's default" if value is None else str(value)
        parts.append(f"{name.replace('_', ' ')} {shown} ({source})")
    return "; ".join(parts)


def _perfproof_version(run: RunFolder) -> str | None:
    v = environment(run).perfproof_version or run.manifest.perfproof_version
    return str(v) if v else None


def _per_side(run: RunFolder, fn: Callable[[RunFolder, str], str]) -> str:
    base, head = fn(run, BASE), fn(run, HEAD)
    if base == head or not head:
        return base
    if not base:
        return head
    return f"baseline {base}; feature {head}"


def run_warnings(run: RunFolder) -> list[str]:
    """Different JDKs or JVM flags between the sides, and a busy machine."""
    out = []
    base_jdk, head_jdk = jdk_label(run, BASE), jdk_label(run, HEAD)
    if base_jdk and head_jdk and base_jdk != head_jdk:
        out.append(f"Different JDKs: baseline {base_jdk}, feature {head_jdk}.")
    base_jmh = ", ".join(_distinct(e.jmh_version for e in _entries(run, BASE)))
    head_jmh = ", ".join(_distinct(e.jmh_version for e in _entries(run, HEAD)))
    if base_jmh and head_jmh and base_jmh != head_jmh:
        out.append(f"Different JMH versions: baseline {base_jmh}, feature {head_jmh}.")
    base_flags, head_flags = jvm_flags(run, BASE), jvm_flags(run, HEAD)
    if run.raw_for(BASE) and run.raw_for(HEAD) and base_flags != head_flags:
        out.append(f"Different JVM flags: baseline {base_flags}, feature {head_flags}.")
    cores = environment(run).cores
    before, after = loads(run)
    if cores:
        worst = max((v[0] for v in (before, after) if v), default=None)
        if worst is not None and worst > LOAD_PER_CORE * float(cores):
            out.append(
                f"The machine was busy: 1-minute load average {worst:.2f} on {cores} cores; "
                "other work inflates fork-to-fork variance. Rerun on an idle machine."
            )
    return out

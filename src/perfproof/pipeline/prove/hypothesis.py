"""``prove --hypothesis ID --from HUNT``: the hunt's hypothesis a change claims to fix.

``hunt`` ranks where a workload's time goes; ``prove`` measures a change. Joining them closes
the loop: the profile diff is focused on the hypothesis's class first, and the Amdahl section
sets the hunt's prediction beside the per-call speed-up this change measured, saying when the
change does not even touch the method the hunt named (a fix somewhere else, or a stale hunt).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.code.changes import REMOVED
from perfproof.errors import InputError
from perfproof.model.changes import ChangedMethod
from perfproof.model.documents.hunt import Hypothesis, read_hunt
from perfproof.model.documents.prove_measured import HypothesisFocus
from perfproof.model.documents.prove_stages import ReachedBenchmark
from perfproof.pipeline.reach.share import MIN_SAMPLES
from perfproof.stats.amdahl import amdahl_ceiling

if TYPE_CHECKING:
    from perfproof.model.documents.prove_reach import KeyShare
    from perfproof.profile.census import Census

HUNT_FILE = "hunt.json"


def hunt_path(source: str) -> Path:
    """``--from``: a hunt's folder or its ``hunt.json``."""
    path = Path(source)
    return path / HUNT_FILE if path.is_dir() else path


def load_hypothesis(source: str | None, wanted: str | None) -> Hypothesis | None:
    """The hypothesis ``wanted`` (its id, or ``Class.method`` as the hunt names it) of the hunt
    at ``source``; both flags or neither, a missing one is exit 2 naming the flag."""
    if wanted is None and source is None:
        return None
    if wanted is None:
        raise InputError("--from HUNT needs --hypothesis ID (an id from that hunt's table)")
    if source is None:
        raise InputError(f"--hypothesis {wanted} needs --from HUNT (the hunt's folder or JSON)")
    path = hunt_path(source)
    if not path.is_file():
        raise InputError(f"--from {source}: no {HUNT_FILE} (run perfproof hunt first)")
    hypotheses = read_hunt(path)
    found = [h for h in hypotheses if wanted in (h.id, h.method, h.frame)]
    if len(found) == 1:
        return found[0]
    known = ", ".join(f"{h.id} ({h.method})" for h in hypotheses[:5]) or "none"
    why = "names several hypotheses" if found else "is not one of its hypotheses"
    raise InputError(f"--hypothesis {wanted}: {why} in {path} (top ones: {known})")


def owner_class(h: Hypothesis) -> str:
    """``pkg.Outer$Inner`` of the frame ``pkg.Outer$Inner.method``."""
    return h.frame.rsplit(".", 1)[0]


def focus_of(h: Hypothesis | None, changed: Sequence[str]) -> tuple[str, ...]:
    """The profile diff's focus prefixes: the hypothesis's class first, then the changed ones."""
    first = (owner_class(h),) if h is not None else ()
    return tuple(dict.fromkeys((*first, *changed)))


def hunt_reach(
    h: Hypothesis, source: str, changed: Sequence[ChangedMethod], known: Collection[str]
) -> tuple[ReachedBenchmark, ...]:
    """The benchmarks the hunt's recordings showed running the hypothesis's method, when the
    change edits that method and the call graph found no path from them (``known`` are those
    it found): a recorded stack is evidence the call graph cannot overrule."""
    edited = [
        m
        for m in changed
        if m.kind != REMOVED and m.frame.replace("$", ".") == h.frame.replace("$", ".")
    ]
    if not edited:
        return ()
    label = edited[0].label
    path = (*reversed(h.path), label)
    where = str(hunt_path(source))
    return tuple(
        ReachedBenchmark(benchmark=b, path=path, changed=label, seen_in=where)
        for b in h.profiled_benchmarks
        if b not in known
    )


def hunt_benchmark(
    h: Hypothesis, gains: Mapping[str, float | None]
) -> tuple[str | None, float | None]:
    """The benchmark the hunt names that this A/B measured (the largest per-call gain if
    several), with that gain: None when none of its keys has a decided time verdict, whose
    ratio alone says how fast it got."""
    named = dict.fromkeys((*h.benchmarks, *h.profiled_benchmarks))
    measured = [b for b in named if b in gains]
    decided = [(b, g) for b in measured if (g := gains[b]) is not None]
    if decided:
        return max(decided, key=lambda bg: bg[1])
    return (measured[0], None) if measured else (None, None)


def hypothesis_focus(
    h: Hypothesis,
    source: str,
    census: Census | None,
    gains: Mapping[str, float | None],
    changed_frames: Sequence[str],
    own: KeyShare | None = None,
) -> HypothesisFocus:
    """The hunt's prediction beside this change's measurement of the same method.

    The share comes from the hunt's own benchmark's baseline profile forks when they hold
    enough samples (``own``), as the hunt's own prediction did: a method can be half of one
    benchmark and nothing in the others. Its ceiling is then what removing the method would
    give that benchmark, which the benchmark's measured gain can be set against (Amdahl with
    the benchmark's own gain as the per-call one would be circular). Otherwise the share is
    taken across every profiled benchmark and the ceiling is Amdahl's for a program of that
    shape, with the benchmark's gain as the method's per-call speed-up; the report says which.
    """
    bench, gain = hunt_benchmark(h, gains)
    cpu = None
    share_of = None
    ceiling = None
    if own is not None and own.cpu_share is not None and own.samples >= MIN_SAMPLES:
        cpu, share_of, ceiling = own.cpu_share, own.benchmark, own.ceiling
    elif census is not None and census.cpu_samples:
        below = sum(r.total for r in census.focus_rows if r.kind == "cpu" and r.frame == h.frame)
        cpu = min(below / census.cpu_samples, 1.0)
        if cpu and gain is not None and gain > -1:
            ceiling = amdahl_ceiling(cpu, gain).speedup
    return HypothesisFocus(
        id=h.id,
        method=h.method,
        frame=h.frame,
        where=f"{h.file}:{h.line}",
        hunt=str(hunt_path(source)),
        predicted=h.expected_gain,
        touched=h.frame in changed_frames,
        cpu_share=cpu,
        benchmark=bench,
        per_call_gain=gain,
        ceiling_speedup=ceiling,
        share_of=share_of,
    )

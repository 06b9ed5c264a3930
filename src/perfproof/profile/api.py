"""The census and diff jobs end to end: load, check, compute, write the side outputs.

The CLI calls these and renders what they return; other verbs (the PR report, ``ab --jfr``)
can call them the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from perfproof.errors import InputError
from perfproof.profile.census import Census, census, merge
from perfproof.profile.collapsed import format_alloc, format_cpu, write_collapsed
from perfproof.profile.diff import ProfileDiff, diff, mean_stacks
from perfproof.profile.flamegraph import Graph, diff_graph, graph, write_flamegraph
from perfproof.profile.jit import CallChange, changed_calls
from perfproof.profile.load import expand, load_profiles, refuse_repeated
from perfproof.profile.stacks import Profile, normalize_prefix
from perfproof.stats.verdict import check_confidence
from perfproof.storage import is_stream, refuse_overwriting_inputs

KINDS = {"both": ("cpu", "alloc"), "cpu": ("cpu",), "alloc": ("alloc",)}
UNITS = {"cpu": "samples", "alloc": "bytes"}


def _names(profiles: list[Profile]) -> str:
    return ", ".join(p.source for p in profiles)


def check_kinds(profiles: list[Profile], kinds: tuple[str, ...], asked: str) -> tuple[str, ...]:
    """The kinds the recordings can answer; an error when the one asked for is missing.

    A recording answers for allocations when it holds any allocation event, JFR's own included:
    a program that allocated nothing outside the recorder was still recorded with allocation
    events on, so its zero is a measurement and not a missing kind.
    """
    has_cpu = any(p.cpu for p in profiles)
    has_alloc = any(p.alloc_source is not None for p in profiles)
    if "alloc" in kinds and not has_alloc and asked == "alloc":
        raise InputError(
            f"{_names(profiles)}: no allocation events (jdk.ObjectAllocationSample or "
            "ObjectAllocationInNewTLAB/OutsideTLAB); record with settings=profile "
            "(perfproof record --settings profile)"
        )
    if "cpu" in kinds and not has_cpu and asked == "cpu":
        raise InputError(
            f"{_names(profiles)}: no CPU samples (jdk.ExecutionSample); record with "
            "settings=profile (perfproof record --settings profile)"
        )
    if not has_cpu and not has_alloc:
        raise InputError(
            f"{_names(profiles)}: no CPU samples nor allocation events with stacks; record "
            "with settings=profile (perfproof record --settings profile)"
        )
    return tuple(k for k in kinds if (k == "cpu" and has_cpu) or (k == "alloc" and has_alloc))


def _focus(prefixes: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(p for p in (normalize_prefix(x) for x in prefixes) if p)


def suffixed(path: Path, kind: str) -> Path:
    """``out.collapsed`` → ``out.cpu.collapsed``: one collapsed file per kind."""
    return path.with_name(f"{path.stem}.{kind}{path.suffix}")


def run_census(
    paths: list[Path],
    focus: tuple[str, ...] = (),
    kind: str = "both",
    java: str | None = None,
    collapsed: Path | None = None,
    flamegraph: Path | None = None,
    collapsed_kind: str = "cpu",
) -> tuple[Census, list[Path]]:
    """The census of the recordings, and the collapsed / flame-graph files it wrote."""
    inputs = expand(paths)
    refuse_repeated(inputs, "RECORDING")
    outputs: dict[str, Path | None] = {"--flamegraph": flamegraph}
    if collapsed is not None:
        outputs["--collapsed"] = collapsed
        for k in KINDS[kind] if not is_stream(collapsed) else ():
            outputs[f"--collapsed ({k})"] = suffixed(collapsed, k)
    refuse_overwriting_inputs(outputs, inputs)
    profiles = load_profiles(paths, java, alloc_leaf_is_class=collapsed_kind == "alloc")
    kinds = check_kinds(profiles, KINDS[kind], kind)
    fprefixes = _focus(focus)
    result = census(profiles, fprefixes, kinds)
    missing = [k for k in KINDS[kind] if k not in kinds]
    result.warnings += [
        f"no {'allocation events' if k == 'alloc' else 'CPU samples'} in the recordings; "
        "record with settings=profile for both"
        for k in missing
    ]
    written: list[Path] = []
    merged = merge(profiles)
    if collapsed is not None:
        texts = {
            k: format_cpu(merged.cpu) if k == "cpu" else format_alloc(merged.alloc) for k in kinds
        }
        if len(kinds) == 1 or is_stream(collapsed):  # one stream holds both (marked _[a])
            written.append(write_collapsed(collapsed, "".join(texts.values())))
        else:
            for k, text in texts.items():
                written.append(write_collapsed(suffixed(collapsed, k), text))
    if flamegraph is not None:
        graphs: list[Graph] = []
        for k in kinds:
            if k == "cpu":
                graphs.append(graph("CPU", UNITS[k], dict(merged.cpu), fprefixes))
            else:
                stacks = {(*s, c): w for (s, c), w in merged.alloc.items()}
                graphs.append(graph("Allocation", UNITS[k], stacks, fprefixes, class_leaves=True))
        title = "Flame graph: " + ", ".join(Path(p).name for p in result.sources)
        written.append(write_flamegraph(flamegraph, graphs, title, _subtitle(fprefixes)))
    return result, written


def _subtitle(focus: tuple[str, ...]) -> str:
    text = "click a frame to zoom, search with a regular expression"
    return text + (f"; focus: {', '.join(focus)}" if focus else "")


def by_replicate(
    profiles: list[Profile], paths: list[Path], replicate: Callable[[Path], str]
) -> list[Profile]:
    """One profile per replicate name, in first-seen order."""
    groups: dict[str, list[Profile]] = {}
    for profile, path in zip(profiles, paths, strict=True):
        groups.setdefault(replicate(path), []).append(profile)
    return [dataclasses.replace(merge(group), source=name) for name, group in groups.items()]


def run_diff(
    before: list[Path],
    after: list[Path],
    focus: tuple[str, ...] = (),
    kind: str = "both",
    java: str | None = None,
    normalize: bool = False,
    confidence: float = 0.95,
    flamegraph: Path | None = None,
    collapsed_kind: str = "cpu",
    per_second: bool = False,
    replicate: Callable[[Path], str] | None = None,
) -> tuple[ProfileDiff, list[Path]]:
    """Before/after diff of recordings, and the differential flame graph if asked.

    With ``replicate``, the recordings of a side that map to the same name are one replicate:
    their stacks are added up (a JMH step records each benchmark in a JVM of its own, and the
    step, not one benchmark's fork, is what repeats from round to round)."""
    if not before or not after:
        raise InputError(
            "profile diff needs recordings on both sides: --before A.jfr --after B.jfr"
        )
    check_confidence(confidence)
    before, after = expand(before), expand(after)
    refuse_repeated(before, "--before")
    refuse_repeated(after, "--after")
    refuse_overwriting_inputs({"--flamegraph": flamegraph}, [*before, *after])
    profiles = load_profiles([*before, *after], java, alloc_leaf_is_class=collapsed_kind == "alloc")
    b, a = profiles[: len(before)], profiles[len(before) :]
    if replicate is not None:
        b, a = by_replicate(b, before, replicate), by_replicate(a, after, replicate)
    # a kind is compared only when both sides hold it: a frame cannot "appear" in a side that
    # never recorded that kind of event
    kinds = tuple(
        k for k in check_kinds(b, KINDS[kind], kind) if k in check_kinds(a, KINDS[kind], kind)
    )
    if not kinds:
        raise InputError(
            f"--before {_names(b)} and --after {_names(a)} hold no kind of event in common "
            "(one side has only CPU samples, the other only allocations); record both with "
            "settings=profile (perfproof record --settings profile)"
        )
    fprefixes = _focus(focus)
    result = diff(b, a, fprefixes, kinds, normalize, confidence, per_second)
    result.warnings += [
        f"{'allocations' if k == 'alloc' else 'CPU samples'} not compared: one side has none; "
        "record both sides with settings=profile"
        for k in KINDS[kind]
        if k not in kinds
    ]
    written: list[Path] = []
    if flamegraph is not None:
        graphs = [
            diff_graph(
                "CPU" if k == "cpu" else "Allocation",
                UNITS[k],
                mean_stacks(b, k),
                mean_stacks(a, k),
                fprefixes,
            )
            for k in kinds
        ]
        title = f"Differential flame graph: {len(b)} before, {len(a)} after"
        sub = "width: larger of the before/after means; red grew, blue shrank; " + _subtitle(
            fprefixes
        )
        written.append(write_flamegraph(flamegraph, graphs, title, sub))
    return result, written


def jit_changes(diff: ProfileDiff, focus: tuple[str, ...], java: str | None) -> list[CallChange]:
    """The inlining decisions in or into ``focus`` that differ between a diff's two sides,
    read from its JFR recordings (none for collapsed stacks, or without a focus)."""
    sides = [[Path(s) for s in diff.before_sources], [Path(s) for s in diff.after_sources]]
    if not focus or not all(p.suffix == ".jfr" for side in sides for p in side):
        return []
    return changed_calls(sides[0], sides[1], focus, java)

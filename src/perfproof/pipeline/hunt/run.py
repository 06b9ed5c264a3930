"""``perfproof hunt``: a workload → JFR over several forks → cost per project method in
absolute units → ranked, source-linked hypotheses, written as a table, Markdown, HTML, JSON.

The workload is one of: JMH benchmarks of the repository at a ref (built as ``ab`` builds
them, see :mod:`perfproof.pipeline.hunt.jmh`), any command recorded with JFR
(:mod:`perfproof.pipeline.hunt.command`), or recordings the user already has. Whatever it was,
the recordings go through the same charge (:mod:`perfproof.profile.attribute`), the same
ranking (:mod:`perfproof.pipeline.hunt.rank`) and the same source lookups
(:mod:`perfproof.pipeline.hunt.source`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.code.query import open_project
from perfproof.errors import InputError
from perfproof.model.documents.hunt import (
    Group,
    HuntResult,
    WorkloadKind,
    hunt_document,
    read_hunt,
)
from perfproof.model.documents.hunt import Workload as WorkloadDoc
from perfproof.pipeline.hunt.analysis import ProveContext, analyse, compare_hunts
from perfproof.pipeline.hunt.rank import ForkOps, RecordedGroup, other_costs, outside_parts
from perfproof.pipeline.hunt.source import SourceMap
from perfproof.profile.attribute import attribute, combine, runs_project_code
from perfproof.profile.census import merge
from perfproof.profile.flamegraph import graph, render_html
from perfproof.profile.load import expand, load_profiles, refuse_repeated
from perfproof.profile.stacks import Profile
from perfproof.render.hunt import hunt_markdown
from perfproof.render.hunt_html import hunt_html
from perfproof.storage import refuse_overwriting_inputs, write_json_atomic, write_text_atomic

Say = Callable[[str], None]
_AB_STEP = re.compile(r"r\d+-(base|head)(?:-p\d+)?")
"""The folder ``ab --jfr`` keeps one step's fork recordings in."""


@dataclass
class Workload:
    """Recordings grouped as they were made: one group per benchmark, or one for all."""

    kind: WorkloadKind
    description: str
    groups: Sequence[tuple[str, list[Profile], list[ForkOps] | None]]
    scores: Mapping[str, tuple[float | None, str | None, float | None]] = field(
        default_factory=dict
    )
    """Per group: JMH's score, its unit and bytes/op, for the table of groups."""
    ref: str | None = None
    sha: str | None = None
    root: Path | None = None
    """The checkout the workload ran (the source index is built on it)."""
    warnings: list[str] = field(default_factory=list)


@dataclass
class HuntOutcome:
    result: HuntResult
    out_dir: Path
    files: dict[str, Path]


def recordings_workload(paths: list[Path], java: str | None) -> Workload:
    """``--jfr FILE…``: each file one fork of one workload (JFR or collapsed stacks)."""
    files = expand(paths)
    refuse_repeated(files, "--jfr")  # one recording counted as two forks narrows the interval
    profiles = load_profiles(files, java)
    if not any(p.cpu or p.alloc for p in profiles):
        raise InputError(
            f"--jfr {files[0]}: no CPU samples nor allocation stacks; record with "
            "settings=profile (perfproof record --settings profile)"
        )
    names = ", ".join(str(p) for p in files)
    warnings = []
    sides = {m.group(1) for p in files if (m := _AB_STEP.fullmatch(p.parent.name))}
    if len(sides) > 1:
        warnings.append(
            f"the recordings come from {len(sides)} sides of an A/B run "
            f"({', '.join(sorted(sides))}): they are counted as one workload; give one "
            "side's folders (r*-base*/ or r*-head*/) to hunt on one commit"
        )
    return Workload(
        "recordings",
        f"recordings: {names}",
        [("recordings", profiles, None)],
        warnings=warnings,
    )


def _one_run(groups: list[RecordedGroup]) -> tuple[list[RecordedGroup], list[str]]:
    """A command is one run, whatever number of JVMs it started: the JVMs that ran project
    code are counted as one recording (their intervals are the counts' own), and those that
    ran none (a build tool, a launcher's probe) are left out and named."""
    out: list[RecordedGroup] = []
    notes: list[str] = []
    for g in groups:
        kept = [a for a in g.forks if runs_project_code(a)]
        left = len(g.forks) - len(kept)
        if left:
            notes.append(
                f"{left} of the command's {len(g.forks)} JVMs ran no project code (a build "
                "tool, a launcher's probe) and are left out"
            )
        if kept:
            out.append(RecordedGroup(g.name, [combine(kept, "+".join(a.source for a in kept))]))
    return out, notes


def run_hunt(
    workload: Workload,
    repo: Path,
    out_dir: Path,
    *,
    compare: Path | None = None,
    prove_extra: tuple[str, ...] = (),
    inputs: tuple[Path, ...] = (),
    say: Say = lambda _text: None,
) -> HuntOutcome:
    """Charge, rank, look up and write: the part every workload shares."""
    files = {
        "json": out_dir / "hunt.json",
        "md": out_dir / "hunt.md",
        "html": out_dir / "hunt.html",
        "flamegraph": out_dir / "flamegraph.html",
    }
    refuse_overwriting_inputs({f"--out ({k})": p for k, p in files.items()}, list(inputs))
    old = read_hunt(compare) if compare is not None else None
    root = workload.root or repo
    say(f"reading the source index of {root}")
    sources = SourceMap(open_project(root))
    groups = [
        RecordedGroup(name, [attribute(p, sources.resolve) for p in profiles], ops)
        for name, profiles, ops in workload.groups
    ]
    warnings = list(workload.warnings)
    if workload.kind == "command":
        groups, note = _one_run(groups)
        warnings += note
    base = workload.sha[:12] if workload.sha else (workload.ref or "HEAD")
    analysis = analyse(groups, sources, root, ProveContext(str(repo), base, prove_extra))
    warnings += analysis.warnings
    if not analysis.hypotheses:
        warnings.append(
            "no project method carries a measurable share of the workload: is the source index "
            f"({root}) the code that was recorded?"
        )
    parts = {k: v for k, v in outside_parts(groups).items() if v}
    if parts:
        top = sorted(parts.items(), key=lambda kv: -kv[1])
        warnings.append(
            "outside the benchmark (CPU samples): " + ", ".join(f"{k} {v}" for k, v in top)
        )
    result = HuntResult(
        workload=WorkloadDoc(
            kind=workload.kind,
            description=workload.description,
            repo=str(repo),
            ref=workload.ref,
            sha=workload.sha,
            groups=[
                Group(name, tuple(p.source for p in profiles), *workload.scores.get(name, ()))
                for name, profiles, _ in workload.groups
            ],
        ),
        hypotheses=analysis.hypotheses,
        other=other_costs(groups),
        warnings=warnings,
        flamegraph=str(files["flamegraph"]),
    )
    if old is not None:
        result.changes = compare_hunts(old, result.hypotheses)
        result.compared_with = str(compare)
    out_dir.mkdir(parents=True, exist_ok=True)
    merged = merge([p for _, profiles, _ in workload.groups for p in profiles])
    graphs = []
    if merged.cpu:
        graphs.append(graph("CPU", "samples", {s: float(w) for s, w in merged.cpu.items()}))
    if merged.alloc:
        stacks = {(*s, c): float(w) for (s, c), w in merged.alloc.items()}
        graphs.append(graph("Allocation", "bytes", stacks, class_leaves=True))
    flame = render_html(graphs, "Flame graph: " + workload.description[:120])
    write_text_atomic(files["flamegraph"], flame)
    write_json_atomic(files["json"], hunt_document(result))
    write_text_atomic(files["md"], hunt_markdown(result))
    write_text_atomic(files["html"], hunt_html(result, flame))
    return HuntOutcome(result, out_dir, files)

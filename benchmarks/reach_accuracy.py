"""Does the call graph's reach match what runs? Static reach against one JFR fork per key.

For a real suite and a change, computes perfproof's static reach of every benchmark (the
``prove``/``ab`` call graph on the head commit: direct, via dispatch, none), records each
selected benchmark once on the head commit (one JFR fork per key, as ``hunt`` records them,
JMH's gc profiler on) and compares: recall (benchmarks whose recording shows a changed method
that the graph reaches) and precision (reached benchmarks whose recording shows one), with
the dispatch-only ones apart. The logic lives in :mod:`perfproof.pipeline.reach_accuracy`.

    PYTHONPATH=src python3 benchmarks/reach_accuracy.py --repo /work/real/kryo \\
        --base 3e7f4991^ --head 3e7f4991 --module benchmarks --bench BigDecimalBenchmark \\
        --jmh-args "-wi 2 -w 1s -i 2 -r 1s" --out /tmp/reach-kryo

``--seen OUT/seen.json`` (repeatable) reuses earlier recordings (the truth does not change
when the call graph does), so a new call graph is measured again in seconds; ``--static-only``
prints the reach alone. Prints a Markdown table; writes ``accuracy.json`` and ``seen.json``
into --out.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from pathlib import Path

from lab.reach_accuracy import (
    DISPATCH,
    Accuracy,
    Seen,
    accuracy,
    seen_by_benchmark,
    static_reach,
)
from perfproof.env.cache import cache_root
from perfproof.measure.plan import parse_jmh_args
from perfproof.measure.progress import make_reporter
from perfproof.pipeline.ab.options import AbOptions
from perfproof.workspace.git import resolve_ref
from perfproof.workspace.worktree import ensure_worktree


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.0f}%"


def table(acc: Accuracy) -> str:
    lines = [
        "| benchmark | static reach | recording: samples | in changed code | shows the change |",
        "|---|---|---:|---:|---|",
    ]
    for r in acc.rows:
        s = r.seen
        cells = ("–", "–", "not recorded") if s is None else (
            str(s.samples),
            f"{s.changed_samples} samples, {s.changed_bytes} B",
            ("yes: " + ", ".join(m.rsplit(".", 2)[-2] + "." + m.rsplit(".", 1)[-1]
                                 for m in s.methods)) if s.runs else "no",
        )  # fmt: skip
        lines.append(f"| {r.benchmark} | {r.reach} | {' | '.join(cells)} |")
    kinds = [r.reach for r in acc.rows]
    lines += [
        "",
        f"call graph: {kinds.count('direct')} reached directly, {kinds.count(DISPATCH)} only via "
        f"dispatch, {kinds.count('none')} not reached",
        f"benchmarks {len(acc.rows)}, judged {len(acc.judged)}, recordings showing the "
        f"change {len(acc.running)}, reached {len(acc.reached())} "
        f"({len(acc.reached(DISPATCH))} only via dispatch)",
        f"recall {_pct(acc.recall)}, precision {_pct(acc.precision())} "
        f"(direct {_pct(acc.precision('direct'))}, via dispatch {_pct(acc.precision(DISPATCH))}; "
        f"with the dispatch-only ones confirmed by a recording {_pct(acc.precision_confirmed)})",
    ]
    for r in acc.missed:
        lines.append(f"MISSED {r.benchmark}: records {', '.join(r.seen.methods if r.seen else ())}")
    for r in acc.over:
        lines.append(f"REACHED, NOT SEEN {r.benchmark} ({r.reach}): {' → '.join(r.path)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True, type=Path)
    ap.add_argument("--base", required=True)
    ap.add_argument("--head", required=True)
    ap.add_argument("--module")
    ap.add_argument("--bench", action="append", default=[], help="JMH regex (repeatable)")
    ap.add_argument("--build-arg", action="append", default=[])
    ap.add_argument("--jmh-args", default="-wi 2 -w 1s -i 2 -r 1s")
    ap.add_argument("--java")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--seen", type=Path, action="append", default=[],
        help="seen.json of an earlier run (repeatable, e.g. two selections): do not record",
    )  # fmt: skip
    ap.add_argument("--static-only", action="store_true")
    ap.add_argument("--format", choices=("md", "json"), default="md")
    args = ap.parse_args(argv)

    repo = args.repo.resolve()
    base, head = resolve_ref(repo, args.base), resolve_ref(repo, args.head)
    tree = ensure_worktree(repo, head, cache_root())
    graph = static_reach(repo, base, head, tree)
    wanted = [re.compile(b) for b in args.bench]
    names = tuple(n for n in graph.benchmarks if not wanted or any(w.search(n) for w in wanted))
    found = dataclasses.replace(
        graph.found, reached=tuple(r for r in graph.found.reached if r.benchmark in names)
    )
    frames = graph.frames
    args.out.mkdir(parents=True, exist_ok=True)
    seen: dict[str, Seen] = {}
    if args.seen:
        for path in args.seen:
            doc = json.loads(path.read_text(encoding="utf-8"))
            seen |= {b: Seen(**{**v, "methods": tuple(v["methods"])}) for b, v in doc.items()}
    elif not args.static_only:
        from perfproof.pipeline.hunt.jmh import jmh_workload

        opts = AbOptions(
            base=head, head=head, repo=str(repo), bench=tuple(args.bench), module=args.module,
            build_args=tuple(args.build_arg), jmh_args=parse_jmh_args(args.jmh_args),
            java=args.java,
        )  # fmt: skip
        workload = jmh_workload(opts, 1, args.out / "record", make_reporter(), 3600.0)
        seen = seen_by_benchmark(((n, ps) for n, ps, _ in workload.groups), frames)
        (args.out / "seen.json").write_text(
            json.dumps({b: dataclasses.asdict(s) for b, s in seen.items()}, indent=1)
        )
    acc = accuracy(names, found, seen)
    doc = {
        "base": base,
        "head": head,
        "changed": list(frames),
        "overloaded": list(graph.overloaded),
        "unreached": list(graph.found.unreached),
        **acc.document().dump(),
    }
    (args.out / "accuracy.json").write_text(json.dumps(doc, indent=1))
    print(json.dumps(doc, indent=1) if args.format == "json" else table(acc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

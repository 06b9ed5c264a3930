"""The commands ``ab --jfr`` prints so its recordings are read focused on the project's code.

Pure text from the run's benchmark names: the run folder decides nothing here, so the hints
can be tested and reused (a resumed run prints the same lines) without a JVM.
"""

from __future__ import annotations

from pathlib import Path


def focus_package(benchmarks: list[str]) -> str | None:
    """The project's package to focus a profile on, from its benchmark names.

    A JMH recording is mostly JVM start-up, JMH's harness and the JDK; without ``--focus``
    every row's focus frame is empty. The benchmarks' shared package root, cut to the
    project's name (``org.acme`` from ``org.acme.bench.QueueBench.offer``, ``demo`` from
    ``demo.bench.QueueBench.offer``), also covers the code under test, which rarely lives in
    the benchmarks' own package.
    """
    packages = [name.split(".")[:-2] for name in benchmarks if name.count(".") >= 2]
    if not packages:
        return None
    common: list[str] = []
    for parts in zip(*packages, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    # a short first segment is a reverse domain (org, com, io, net, de …): keep the name too
    keep = 2 if common and len(common[0]) <= 3 else 1
    return ".".join(common[:keep]) or None


def profile_hints(jfr_dir: Path | None, benchmarks: list[str] | None = None) -> list[str]:
    """How to read a ``--jfr`` run's recordings: a census of one step, a diff of the sides."""
    if jfr_dir is None:
        return []
    focus = focus_package(benchmarks or [])
    extra = f" --focus {focus}" if focus else ""
    return [
        f"recordings: {jfr_dir}/r<round>-<side>/fork-N.jfr (one per fork)",
        f"  perfproof profile {jfr_dir / 'r1-head'}{extra}",
        f"  perfproof profile diff --before {jfr_dir}/r*-base* --after {jfr_dir}/r*-head*{extra}",
    ]

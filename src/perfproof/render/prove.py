"""The PR body of ``perfproof prove``: one Markdown document from the stages' typed results
(:class:`~perfproof.model.documents.prove.ProveResults`), returned as text.

Sections, in the order a reviewer reads a JVM performance pull request: summary; what
changed; callers; results per benchmark and @Param; allocation; profile diff; what the JIT
did; Amdahl; tests; guard; end to end; methodology; reproduction. A test that passes on the
baseline and fails on the feature opens the body, above the summary, as a GitHub caution block
(red on GitHub, red in report.html). The results, methodology and reproduction of the A/B are
the A/B run's own report sections, rendered by :mod:`perfproof.report`, so ``perfproof check``
reads the same numbers it checks for ``ab``.
"""

from __future__ import annotations

from dataclasses import dataclass

from perfproof.model.documents.prove import NO_BENCHMARK, STAGES, TITLES, ProveResults
from perfproof.process import command_line
from perfproof.render.markdown import markdown_table, md_text
from perfproof.render.prove_jit import jit_md
from perfproof.render.prove_measured import e2e_md, profile_md, skipped
from perfproof.render.prove_reach import left_out_md, reach_md, unexplained_line

SECTIONS = (
    "What changed",
    "Callers",
    "Results",
    "Allocation",
    "Profile diff",
    "JIT",
    "Amdahl",
    "Tests",
    "Guard",
    "End to end",
    "Methodology",
    "Reproduce",
)


@dataclass(frozen=True)
class AbSection:
    """What the PR body shows of the A/B run: the lines of its own report's summary, results,
    methodology and reproduction, built from that run's report context."""

    summary: str
    results: tuple[str, ...]
    methodology: tuple[str, ...]
    reproduce: tuple[str, ...]


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def summary_line(bundle: ProveResults, ab_summary: str | None) -> str:
    """Counts, never lists: what changed, what measures it, whether the tests still pass,
    then the A/B's own summary."""
    changes = bundle.changes
    methods = changes.methods if changes is not None else ()
    classes = len(changes.classes) if changes is not None else 0
    parts = [
        f"{_n(len(methods), 'changed method')} in {classes} class{'' if classes == 1 else 'es'}"
    ]
    bench = bundle.benchmarks
    if bench is not None:
        parts.append(_n(len(bench.regexes), "affected benchmark"))
    tests = bundle.tests
    if tests is not None:
        c = tests.head.counts
        parts.append(
            f"tests on the feature: {c.passed} passed, {c.failed + c.error} failed, "
            f"{c.skipped} skipped ({len(tests.regressions)} broken by the change)"
        )
    line = "; ".join(parts) + "."
    if ab_summary:
        line += " " + ab_summary.strip()
    unexplained = unexplained_line(bundle)
    if unexplained:
        line += " " + unexplained
    return line


def _changes_md(bundle: ProveResults) -> list[str]:
    changes = bundle.changes
    if changes is None:
        return [skipped(bundle, "changes") or ""]
    rows = [
        (
            f"`{m.label}`",
            m.kind + (" (signature)" if m.signature_changed else ""),
            f"{m.file}:{m.lines[0]}-{m.lines[1]}",
        )
        for m in changes.methods
    ]
    out = (
        markdown_table(("Method", "Change", "Where"), rows, "lll")
        if rows
        else ["No production method or constructor changed."]
    )
    for scope in ("test", "benchmark"):
        if changes.in_scope(scope):
            files = ", ".join(f"`{f}`" for f in changes.in_scope(scope))
            out += ["", f"Changed {scope} files: {files}"]
    return out


def _callers_md(bundle: ProveResults) -> list[str]:
    callers = bundle.callers
    if callers is None:
        return [skipped(bundle, "callers") or ""]
    rows: list[tuple[object, ...]] = []
    for entry in callers.methods:
        doc = entry.callers
        if doc is None:
            rows.append((f"`{entry.method}`", "–", "–", "–", "–", "–", entry.note))
            continue
        rows.append(
            (
                f"`{entry.method}`",
                f"{doc.production} ({doc.exact} exact, {doc.likely} likely)",
                doc.distinct_callers,
                "yes" if doc.library_primitive else "no",
                doc.test,
                doc.benchmark,
                "",
            )
        )
    header: tuple[str, ...] = (
        "Method",
        "Production call sites",
        "Distinct callers",
        "Library primitive",
        "Test sites",
        "Benchmark sites",
        "Note",
    )
    if not any(r[-1] for r in rows):  # no removed or unindexed method: no Note column
        header, rows = header[:-1], [r[:-1] for r in rows]
    out = markdown_table(header, rows, "llrlrrl"[: len(header)])
    listed = [
        f"- `{e.method}`: "
        + ", ".join(f"`{s.file}:{s.line}` in {s.caller}" for s in e.callers.sites[:8])
        for e in callers.methods
        if e.callers is not None and e.callers.sites
    ]
    virtual = [
        f"- `{e.method}` is also called through "
        + ", ".join(f"`{d}`" for d in e.via_supertype.declarations)
        + f": {e.via_supertype.production} production call sites in "
        f"{e.via_supertype.distinct_callers} methods may dispatch to it"
        for e in callers.methods
        if e.via_supertype is not None and e.via_supertype.production
    ]
    return out + (["", *listed] if listed else []) + (["", *virtual] if virtual else [])


def _benchmarks_md(bundle: ProveResults) -> list[str]:
    bench = bundle.benchmarks
    if bench is None:
        return []
    out = []
    if bench.source == "--bench":
        out.append(
            "Benchmarks chosen with `--bench`: " + ", ".join(f"`{r}`" for r in bench.regexes)
        )
    if bench.reached:
        out += ["Benchmarks that reach a changed method, with one shortest call path each:", ""]
    left_out = {s.benchmark for s in bundle.ab.left_out} if bundle.ab is not None else set()
    for r in bench.reached:
        line = f"- `{r.benchmark}`: " + " → ".join(f"`{p}`" for p in r.path)
        if r.via_dispatch:
            # the reach round runs after this stage: say what it did with the benchmark
            fate = (
                "its baseline recording left it out of the A/B (below)"
                if r.benchmark in left_out
                else "measured last (a budget cuts it first)"
            )
            line += (
                f" — reached only through dynamic dispatch at `{r.dispatch}`: the call graph "
                f"cannot say it runs the changed override; {fate}"
            )
        if r.also:
            line += " — by sure calls it also runs the changed " + ", ".join(
                f"`{m}`" for m in r.also
            )
        if r.seen_in:
            line += (
                f" — seen in the recordings of the hunt `{r.seen_in}`; the call graph finds no "
                "path (a call through a JDK interface, or reflection)"
            )
        out.append(line)
    if not bench.regexes:
        out.append(f"**{NO_BENCHMARK}.**")
    if bench.unreached:
        out.append("")
        out.append(
            "Changed methods no benchmark reaches within "
            f"{bench.depth} calls: " + ", ".join(f"`{u}`" for u in bench.unreached)
        )
    return out


def _tests_md(bundle: ProveResults) -> tuple[list[str], list[str]]:
    """(the red block for the top, the Tests section)."""
    tests = bundle.tests
    if tests is None:
        return [], [skipped(bundle, "tests") or ""]
    if not tests.selected:
        return [], ["No test selected."]
    top: list[str] = []
    if tests.regressions:
        top = ["> [!CAUTION]", "> **Tests that pass on the baseline fail on the feature:**"]
        messages = dict(tests.head.messages)
        top += [f"> - `{n}`: {md_text(messages.get(n, ''))}" for n in tests.regressions]
        top.append("")
    rows = [
        (word, c.passed, c.failed, c.error, c.skipped)
        for word, c in (("baseline", tests.base.counts), ("feature", tests.head.counts))
    ]
    out = ["Test classes run: " + ", ".join(f"`{t}`" for t in tests.selected), ""]
    out += markdown_table(("Side", "Passed", "Failed", "Errors", "Skipped"), rows, "lrrrr")
    if tests.changes:
        out += ["", "Tests whose outcome differs:", ""]
        out += markdown_table(
            ("Test", "Baseline", "Feature"),
            [(f"`{c.name}`", c.base or "not run", c.head or "not run") for c in tests.changes],
            "lll",
        )
    return top, out


def _guard_md(bundle: ProveResults) -> list[str]:
    guard = bundle.guard
    if guard is None:
        return [skipped(bundle, "guard") or ""]
    rows = [
        (
            r.benchmark.rsplit(".", 2)[-2] + "." + r.benchmark.rsplit(".", 1)[-1],
            ", ".join(f"{k}={v}" for k, v in r.params) or "–",
            "PASS" if r.passed else "FAIL",
            md_text(r.reason),
        )
        for r in guard.rows
    ]
    out = [
        f"**Guard: {guard.verdict}** — does the benchmark tell the baseline from the "
        f"feature by at least {guard.min_ratio}× ({guard.kind})?",
        "",
    ]
    return out + markdown_table(("Benchmark", "@Param", "Guard", "Why"), rows, "llll")


def render_markdown(bundle: ProveResults, ab: AbSection | None) -> str:
    """The PR body; ``ab`` is the A/B run's part, None when the A/B did not run."""
    top, tests = _tests_md(bundle)
    alloc, diff, amdahl = profile_md(bundle)
    out = [f"## Performance evidence: {bundle.base_ref} → {bundle.head_ref}", ""]
    out += top
    out += [f"**Summary:** {summary_line(bundle, ab.summary if ab else None)}", ""]
    results = list(ab.results) if ab and ab.results else [skipped(bundle, "ab") or ""]
    body = {
        "What changed": _changes_md(bundle),
        "Callers": _callers_md(bundle),
        "Results": [
            *_benchmarks_md(bundle),
            *(["", *left_out_md(bundle)] if left_out_md(bundle) else []),
            "",
            *results,
            "",
            *reach_md(bundle),
        ],
        "Allocation": alloc,
        "Profile diff": diff,
        "JIT": jit_md(bundle),
        "Amdahl": amdahl,
        "Tests": tests,
        "Guard": _guard_md(bundle),
        "End to end": e2e_md(bundle),
        "Methodology": _methodology(bundle, ab),
        "Reproduce": _reproduce(bundle, ab),
    }
    for title in SECTIONS:
        out += [f"### {title}", "", *body[title], ""]
    return "\n".join(out).rstrip() + "\n"


def _methodology(bundle: ProveResults, ab: AbSection | None) -> list[str]:
    out = [
        "- **Chain:** "
        + "; ".join(f"{TITLES[s]}: {bundle.status(s)}" for s in STAGES if s != "report")
    ]
    out.append(
        "- **Changed methods:** `git diff` line ranges of both sides against tree-sitter "
        "method and constructor spans; tests and benchmarks left out."
    )
    bench = bundle.benchmarks
    if bench is not None and bench.source == "call graph":
        out.append(
            f"- **Affected benchmarks:** `@Benchmark` methods from which a changed method is "
            f"reachable within {bench.depth} calls, by the callers index (exact and likely "
            "call sites)."
        )
    return out + (list(ab.methodology) if ab else [])


def _reproduce(bundle: ProveResults, ab: AbSection | None) -> list[str]:
    out = ["The whole chain:", "", "```sh", command_line(list(bundle.command)), "```"]
    if ab and ab.reproduce:
        out += ["", "The A/B alone:", "", *ab.reproduce]
    return out

"""Callers and scan results as text tables, Markdown and versioned JSON documents."""

from __future__ import annotations

from perfproof.code.callers import PRIMITIVE_BAR, CallersResult, Site
from perfproof.code.classify import PRODUCTION
from perfproof.code.rules import RULES
from perfproof.code.scan import ScanResult
from perfproof.model.documents.code import (
    CallersDocument,
    Finding,
    RuleDoc,
    ScanDocument,
    SiteDoc,
)
from perfproof.model.documents.codec import by_name


def _site_doc(s: Site) -> SiteDoc:
    return SiteDoc.model_validate({**by_name(SiteDoc, s), "column": s.column + 1})


def callers_doc(result: CallersResult, show_all: bool) -> CallersDocument:
    sites = result.sites if show_all else result.in_scope(PRODUCTION)
    production = result.in_scope(PRODUCTION)
    return CallersDocument(
        method=result.method,
        class_=result.target.fqn,
        arity=result.target.arity,
        production=result.counts.get("production", 0),
        test=result.counts.get("test", 0),
        benchmark=result.counts.get("benchmark", 0),
        exact=sum(1 for s in production if s.confidence == "exact"),
        likely=sum(1 for s in production if s.confidence == "likely"),
        distinct_callers=result.distinct_callers,
        library_primitive=result.library_primitive,
        sites=[_site_doc(s) for s in sites],
    )


def _summary(result: CallersResult, show_all: bool) -> list[str]:
    doc = callers_doc(result, show_all)
    lines = [
        f"{doc.method} ({doc.class_}): {doc.production} production call sites "
        f"in {doc.distinct_callers} distinct methods "
        f"(exact {doc.exact}, likely {doc.likely})",
        f"library primitive: {'yes' if doc.library_primitive else 'no'} "
        f"({doc.distinct_callers} distinct production callers; the bar is {PRIMITIVE_BAR})",
    ]
    if show_all:
        lines.append(f"test: {doc.test}, benchmark: {doc.benchmark}")
    elif doc.test or doc.benchmark:
        # without this a benchmark helper reads as "nobody calls it"
        lines.append(
            f"not listed: {doc.test} test and {doc.benchmark} benchmark call sites "
            "(--all lists them)"
        )
    return lines


def _columns(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def callers_table(result: CallersResult, show_all: bool) -> str:
    sites = result.sites if show_all else result.in_scope(PRODUCTION)
    out = _summary(result, show_all)
    if sites:
        header = ["SITE", "CALLER", "KIND", "CONFIDENCE"] + (["SCOPE"] if show_all else [])
        rows = [[*header, "SOURCE"]]
        for s in sites:
            scope = [s.scope] if show_all else []
            rows.append([f"{s.file}:{s.line}", s.caller, s.kind, s.confidence, *scope, s.source])
        out += ["", *_columns(rows)]
    return "\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def callers_md(result: CallersResult, show_all: bool) -> str:
    sites = result.sites if show_all else result.in_scope(PRODUCTION)
    out = [f"### Callers of `{result.method}`", ""]
    out += [f"- {line}" for line in _summary(result, show_all)]
    if sites:
        out += [
            "",
            "| site | caller | kind | confidence | scope | source |",
            "|---|---|---|---|---|---|",
        ]
        for s in sites:
            out.append(
                f"| `{s.file}:{s.line}` | `{s.caller}` | {s.kind} | {s.confidence} | "
                f"{s.scope} | `{_md_cell(s.source)}` |"
            )
    return "\n".join(out) + "\n"


def _share_text(f: Finding) -> str:
    return "-" if f.share is None else f"{100 * f.share:.1f}%"


def _basis(result: ScanResult) -> str:
    return "profile share" if result.profiled else "production callers"


def scan_doc(result: ScanResult) -> ScanDocument:
    findings = result.findings
    return ScanDocument(
        ranked_by=_basis(result),
        warnings=result.warnings,
        findings=list(findings),
        rules={
            r.id: RuleDoc(title=r.title, explanation=r.explanation, rewrite=r.rewrite)
            for r in RULES.values()
            if any(f.rule == r.id for f in findings)
        },
    )


def _count(findings: list) -> str:
    return f"{len(findings)} finding" + ("" if len(findings) == 1 else "s")


def scan_table(result: ScanResult) -> str:
    findings = result.findings
    warnings = [f"warning: {w}" for w in result.warnings]
    if not findings:
        return "\n".join(["no findings", *warnings]) + "\n"
    basis = _basis(result)
    rows = [["SITE", "METHOD", "RULE", "CALLERS", "SHARE", "SOURCE"]]
    for f in findings:
        rows.append(
            [f"{f.file}:{f.line}", f.method, f.rule, str(f.callers), _share_text(f), f.source]
        )
    used = [r for r in RULES.values() if any(f.rule == r.id for f in findings)]
    legend = [f"{r.id}: {r.rewrite}" for r in used]
    head = f"{_count(findings)}, ranked by {basis}"
    return "\n".join([head, *warnings, "", *_columns(rows), "", *legend]) + "\n"


def scan_md(result: ScanResult) -> str:
    findings = result.findings
    out = [f"### Hot-path patterns ({_count(findings)}, ranked by {_basis(result)})", ""]
    out += [f"> warning: {w}" for w in result.warnings]
    if findings:
        out += ["| site | method | rule | callers | share | source |", "|---|---|---|---|---|---|"]
        for f in findings:
            out.append(
                f"| `{f.file}:{f.line}` | `{f.method}` | {f.rule} | {f.callers} | "
                f"{_share_text(f)} | `{_md_cell(f.source)}` |"
            )
        for r in RULES.values():
            if any(f.rule == r.id for f in findings):
                out += ["", f"**{r.id}** — {r.title}. {r.explanation}", "", f"Rewrite: {r.rewrite}"]
    return "\n".join(out) + "\n"

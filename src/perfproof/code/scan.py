"""Rule findings of a repository's production code, ranked by where they matter.

With profile weights a finding ranks by the share of CPU samples and allocated bytes of its
enclosing method, so the list starts on the measured hot path; without, by how many
production call sites reach that method, the next best proxy for "runs often".
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.code.binding import CONSTRUCTOR, Target
from perfproof.code.callers import SiteIndex, find_callers
from perfproof.code.classify import PRODUCTION
from perfproof.code.model import FileIndex, MethodDecl
from perfproof.code.project import Project
from perfproof.code.quote import quote
from perfproof.code.rules import RULES
from perfproof.code.weights import MethodWeights
from perfproof.model.documents.code import Finding


@dataclass
class ScanResult:
    """Ranked findings, whether a profile ranked them, and what the user should know."""

    findings: list[Finding]
    profiled: bool
    warnings: list[str] = field(default_factory=list)


def _callers_of(
    project: Project, sites: SiteIndex, method: MethodDecl, memo: dict[tuple, int]
) -> int:
    if method.kind not in ("method", "constructor"):
        return 0
    key = (method.owner, method.name, method.params)
    if key not in memo:
        name = CONSTRUCTOR if method.kind == "constructor" else method.name
        target = Target(method.owner, name, len(method.params))
        result = find_callers(project, target, sites, read_source=False)
        memo[key] = result.counts.get(PRODUCTION, 0)
    return memo[key]


def scan(
    project: Project,
    root: Path,
    rules: Collection[str] | None = None,
    weights: MethodWeights | None = None,
) -> ScanResult:
    sites = SiteIndex(project, eager=True)
    memo: dict[tuple, int] = {}
    findings: list[Finding] = []
    for f in project.files:
        if project.scope(f) != PRODUCTION or not f.findings:
            continue
        lines = _lines(root, f)
        for raw in f.findings:
            if rules and raw.rule not in rules:
                continue
            method = f.methods[raw.method] if raw.method >= 0 else None
            if method is None:
                label, fqn, callers = Path(f.path).stem, "", 0
            else:
                label = f"{project.label(method.owner)}.{method.name}"
                fqn = f"{method.owner}.{method.name}"
                callers = _callers_of(project, sites, method, memo)
            share = shares = None
            if weights is not None:
                shares = weights.shares(fqn)
                share = weights.share(fqn)
            source = quote(lines[raw.line - 1]) if 0 < raw.line <= len(lines) else ""
            findings.append(
                Finding(
                    raw.rule,
                    f.path,
                    raw.line,
                    label,
                    fqn,
                    callers,
                    share,
                    shares,
                    raw.detail,
                    source,
                )
            )
    order = list(RULES)
    if weights is None:
        findings.sort(key=lambda x: (-x.callers, order.index(x.rule), x.file, x.line))
        return ScanResult(findings, profiled=False)
    findings.sort(
        key=lambda x: (-(x.share or 0.0), -x.callers, order.index(x.rule), x.file, x.line)
    )
    warnings = []
    if findings and not any(x.share for x in findings):
        warnings.append(
            "no finding's method appears in the profile: was it recorded from this code "
            "(and with settings=profile)? Ranked by production callers among equals"
        )
    return ScanResult(findings, profiled=True, warnings=warnings)


def _lines(root: Path, f: FileIndex) -> list[str]:
    try:
        return (root / f.path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []

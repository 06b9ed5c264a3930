"""The PR body's JIT section: what the compiler did on each profiled benchmark's path to the
change, baseline against feature, from the profile forks' own compiler events.

Each call reads as the issue a reviewer would write by hand, "`Summer.sum` into
`InlineBench.sum`: not inlined (hot method too big) → inlined", in a table per benchmark, the
calls whose decision changed first-class in bold; then each changed method's tier and
deoptimizations. Nothing here is inferred: a call no compilation decided says so.
"""

from __future__ import annotations

from perfproof.model.documents.prove import ProveResults
from perfproof.render.markdown import markdown_table, md_text
from perfproof.render.prove_measured import skipped

LEAD = (
    "What the JIT did, from the profile forks' compiler events (JFR's `jdk.CompilerInlining`, "
    "`jdk.Compilation`, `jdk.Deoptimization`): for each call on the benchmark's path to the "
    "change, the decision of the most optimised compilation that made one in each fork "
    "(C2 before C1, the latest of them)."
)


def jit_line(caller: str, callee: str, base: str, head: str) -> str:
    """``Summer.sum`` into ``InlineBench.sum``: not inlined (hot method too big) → inlined."""
    change = f"{base} → {head}" if base != head else f"{base} on both sides"
    return f"`{md_text(callee)}` into `{md_text(caller)}`: {md_text(change)}"


def jit_md(bundle: ProveResults) -> list[str]:
    prof = bundle.profile
    if prof is None:
        return [skipped(bundle, "profile") or ""]
    if not prof.jit:
        return ["The recordings hold no compiler events of the changed classes."]
    out = [LEAD, ""]
    for account in prof.jit:
        forks = f"{account.base_recordings} + {account.head_recordings} recorded forks"
        out += [f"`{md_text(account.benchmark)}` ({forks}):", ""]
        changed = [c for c in account.calls if c.changed]
        out += [f"- **{jit_line(c.caller, c.callee, c.base, c.head)}**" for c in changed]
        same = [c for c in account.calls if not c.changed]
        out += [f"- {jit_line(c.caller, c.callee, c.base, c.head)}" for c in same]
        if account.methods:
            rows = [
                (f"`{md_text(m.method)}`", f"{m.base_tier} → {m.head_tier}",
                 f"{m.base_deopts} → {m.head_deopts}")
                for m in account.methods
            ]  # fmt: skip
            out += ["", *markdown_table(("Method", "Compiled", "Deoptimizations"), rows, "lll")]
        out.append("")
    return out[:-1]

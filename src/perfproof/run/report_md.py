"""The run folder's ``report.md``: a short Markdown summary of one run.

All report generation of a run goes through :func:`render_run_report`, so a fuller report
(methodology, plots, reproduction) can replace this one without touching the run machinery.
"""

from __future__ import annotations

from typing import Any

from perfproof.compare import CompareResult
from perfproof.compare_render import markdown


def render_run_report(manifest: dict[str, Any], result: CompareResult) -> str:
    """Markdown for a finished run: what was compared, how, and the comparison table."""
    refs = manifest.get("refs", {})
    plan = manifest.get("plan", {})
    env = manifest.get("environment", {}) or {}
    jdk = env.get("jdk") or {}

    def ref(side: str) -> str:
        info = refs.get(side, {})
        return f"`{info.get('ref', '?')}` ({str(info.get('sha', ''))[:12]})"

    lines = [
        f"# perfproof ab: {refs.get('base', {}).get('ref', '?')} → "
        f"{refs.get('head', {}).get('ref', '?')}",
        "",
        f"- baseline: {ref('base')}",
        f"- head: {ref('head')}",
        f"- rounds: {plan.get('rounds')} ({str(plan.get('order', '')).upper()}), "
        f"JMH options: `{' '.join(plan.get('jmh_options', []))}`",
        f"- JDK: {jdk.get('vendor', '?')} {jdk.get('runtime_version') or jdk.get('version', '?')}"
        f"; JMH {_jmh(env.get('jmh_version'))}; {env.get('cores', '?')} cores, "
        f"{env.get('cpu_model') or 'unknown CPU'}",
    ]
    overlay = manifest.get("overlay") or {}
    if overlay.get("files"):
        lines.append(
            f"- overlaid from head onto baseline: {', '.join(f'`{f}`' for f in overlay['files'])}"
        )
    lines += ["", markdown(result).rstrip(), ""]
    return "\n".join(lines)


def _jmh(version: Any) -> str:
    if isinstance(version, dict):
        values = sorted({str(v) for v in version.values() if v})
        return " / ".join(values) or "?"
    return str(version or "?")

"""The report's reach table: per measured benchmark, whether the change reaches it, and the
verdicts the change cannot explain, marked where they appear and counted apart."""

from __future__ import annotations

from perfproof.model.documents.prove import BundleView as Bundle
from perfproof.model.documents.prove_measured import AbStageResult
from perfproof.model.documents.prove_reach import unexplained_summary
from perfproof.render.markdown import markdown_table, md_text

SEE = "Reach under Results"


def unexplained_line(bundle: Bundle) -> str | None:
    """The summary's separate count of verdicts on keys the change does not reach."""
    ab = bundle.read("ab", AbStageResult.from_json)
    if ab is None:
        return None
    text = unexplained_summary(ab.reach, SEE)
    return None if text is None else text[0].upper() + text[1:] + "."


def reach_md(bundle: Bundle) -> list[str]:
    """The Reach table; nothing when the A/B did not run or knows no reach."""
    ab = bundle.read("ab", AbStageResult.from_json)
    if ab is None or not ab.reach:
        return []
    rows = [
        (
            f"`{k.benchmark}`",
            k.verdict + (" — **not explained by the change**" if k.unexplained else ""),
            "yes" if k.reached else "no",
            md_text(k.why),
        )
        for k in ab.reach
    ]
    out = [
        "**Reach.** A benchmark the change does not reach cannot be moved by it: an "
        "`improved` or `regressed` there is JIT, code-layout or machine noise, marked "
        "*not explained by the change*.",
        "",
    ]
    return out + markdown_table(("Benchmark", "Verdict", "Reached", "How"), rows, "llll")

"""The report's reach table: per measured benchmark, whether the change reaches it, and the
verdicts the change cannot explain, marked where they appear and counted apart."""

from __future__ import annotations

from perfproof.model.documents.prove import ProveResults
from perfproof.model.documents.prove_reach import KeyReach, KeyShare, unexplained_summary
from perfproof.model.reach import Reach
from perfproof.render.columns import collapse, every_row, param_cells, param_names
from perfproof.render.markdown import markdown_table, md_text
from perfproof.units import percent, significant

SEE = "Reach under Results"


def unexplained_line(bundle: ProveResults) -> str | None:
    """The summary's separate count of verdicts on keys the change does not reach."""
    ab = bundle.ab
    if ab is None:
        return None
    prof = bundle.profile
    text = unexplained_summary(ab.reach, SEE, prof.beyond if prof is not None else ())
    return None if text is None else text[0].upper() + text[1:] + "."


def reach_md(bundle: ProveResults) -> list[str]:
    """The Reach table; nothing when the A/B did not run or knows no reach."""
    ab = bundle.ab
    if ab is None or not ab.reach:
        return []
    prof = bundle.profile
    shares = {k.benchmark: k for k in prof.keys} if prof is not None else {}
    names = param_names([k.params for k in ab.reach])
    rows = []
    for k in ab.reach:
        share = shares.get(k.benchmark)
        beyond = share is not None and share.beyond and k.verdict == "improved"
        verdict = k.verdict + (" — **not explained by the change**" if k.unexplained else "")
        verdict += " — *no static call path found*" if k.unconfirmed else ""
        verdict += " — **far beyond its ceiling**" if beyond else ""
        rows.append(
            (
                f"`{k.benchmark}`",
                *param_cells(k.params, names),
                verdict,
                _reached(k),
                _share(share),
                _ceiling(share, k),
                md_text(k.why),
            )
        )
    out = [
        "**Reach.** A call path is a hypothesis and its absence no proof (reflection, lambdas, "
        "dynamic dispatch and field types can hide one): a verdict no static call path leads "
        "to is marked *no static call path found*; only a recording that shows the changed "
        "code never runs in a benchmark makes its verdict *not explained by the change*. "
        "Share: the changed methods' part of the benchmark's own baseline CPU samples and "
        "allocated bytes in the recorded forks; ceiling: the speed-up "
        "removing that code entirely would give (Amdahl, at the upper end of the share's "
        "interval); an improvement far beyond its ceiling, on enough baseline samples, is not "
        "explained either.",
        "",
    ]
    # no word a `check` reads as a change or a byte count: the shares are not deltas
    column = "Share in the edited code (CPU / heap)"
    header = ("Benchmark", *names, "Verdict", "Reached", column, "Ceiling", "How")
    align = "l" + "r" * len(names) + "llrrl"
    # the benchmark and the verdict name the row; any other column the same on every row
    # (a @Param of one value, one call path for all) is said once above the table
    shown, kept, notes = collapse(header, rows, keep=(0, 1 + len(names)))
    align = "".join(a for h, a in zip(header, align, strict=True) if h in shown)
    return out + every_row(notes) + markdown_table(shown, kept, align)


def left_out_md(bundle: ProveResults) -> list[str]:
    """What the reach round recorded (``--reach profile``) and the benchmarks it left out of
    the A/B, each with its reason."""
    ab = bundle.ab
    if ab is None or not (ab.left_out or ab.probed):
        return []
    out = []
    if ab.probed:
        n = len(ab.probed)
        text = (
            f"The reach round (`--reach profile`) recorded one baseline fork of each of the {n} "
            f"benchmark{'s' if n != 1 else ''} only dynamic dispatch reaches (`reach/`) before "
            "the A/B, to see whether the changed code runs there."
        )
        if not ab.left_out:
            text += (
                " None was left out: each recording sampled the changed code too often to bound "
                "its share below the threshold, allocated in it, or had no sample to judge by."
            )
        out += [text, ""]
    if ab.left_out:
        out += ["Left out of the A/B (`--reach profile`):", ""]
        out += [f"- `{s.benchmark}`: {md_text(s.reason)}" for s in ab.left_out]
    return out


def _share(share: KeyShare | None) -> str:
    if share is None:
        return "–"
    cells = [
        "–" if x is None else percent(x * 100, 1, sign=False)
        for x in (share.cpu_share, share.alloc_share)
    ]
    return " / ".join(cells)


def _reached(k: KeyReach) -> str:
    """Yes, no, or how strongly it is known either way."""
    if k.reach is Reach.STATIC_PATH:
        return "yes"
    if k.reach is Reach.NOT_RECORDED:
        return "no (recorded)"
    return str(k.reach)


def _ceiling(share: KeyShare | None, k: KeyReach) -> str:
    if k.reach.shown_not_to_run:
        return "none: never runs the change"
    if not k.reached:
        return "–"
    if share is None:
        return "–"
    if share.ceiling is None:
        return "unbounded"
    return f"{significant(1 + share.ceiling, 3)}× as fast"


def unexplained_keys(bundle: ProveResults) -> list[str]:
    """One line per verdict the change cannot explain, for the terminal."""
    ab = bundle.ab
    prof = bundle.profile
    beyond = set(prof.beyond) if prof is not None else set()
    out = [
        f"{k.benchmark}: {k.verdict}, not explained by the change ({k.why})"
        for k in (ab.reach if ab is not None else ())
        if k.unexplained
    ]
    out += [
        f"{k.benchmark}: {k.verdict}, but {k.why}"
        for k in (ab.reach if ab is not None else ())
        if k.unconfirmed
    ]
    out += [
        f"{k.benchmark}: improved far beyond the change's ceiling, not explained by the change"
        for k in (ab.reach if ab is not None else ())
        if k.verdict == "improved" and k.benchmark in beyond and not k.unexplained
    ]
    return out

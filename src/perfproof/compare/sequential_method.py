"""What a sequential design did, in the words a report's methodology uses.

Its own module beside the look (``sequential``): the paragraph reads the design and the final
decisions only.
"""

from __future__ import annotations

from perfproof.compare import notes
from perfproof.compare.sequential import KeyDecision
from perfproof.compare.sequential_design import SequentialDesign
from perfproof.compare.sequential_forks import MIN_STEADY
from perfproof.model import BenchKey
from perfproof.stats import bimodal
from perfproof.stats import family as procedures
from perfproof.stats.futility import FutilityRule


def methodology(design: SequentialDesign, decisions: dict[BenchKey, KeyDecision]) -> str:
    """What the sequential design did, in the words a report's methodology should use."""
    s = design.schedule
    stopped = sum(1 for d in decisions.values() if d.decided and d.look < s.max_looks)
    excluded = sum(len(v) for d in decisions.values() for v in d.excluded.values())
    trimmed = sum(len(v) for d in decisions.values() for v in d.trimmed.values())
    name, theta = procedures.DESCRIPTIONS[design.verdict.family], design.verdict.threshold
    text = (
        f"Sequential design with up to {s.max_looks} looks ({s.first_forks} forks per side "
        f"at the first look, {s.forks_per_look} more per look): at each look every undecided "
        f"comparison got a repeated confidence interval for the log ratio "
        f"{design.method.look_words(design.alpha, s)} "
        f"{name} ran at every look on sequential p-values of all statistical comparisons "
        f"(decided ones included), and each interval is shown at the level it was decided on. "
        f"A comparison stopped when its interval excluded 1 (improved/regressed beyond "
        f"±{theta * 100:g}%, negligible within) or lay inside "
        f"±{theta * 100:g}% (same); {stopped} of {len(decisions)} entries stopped "
        f"before the last look. Bytes/op was compared exactly (0.5 B or 0.1%)."
    )
    if design.futility > 0:
        rule = FutilityRule(design.futility)
        text += (
            " An entry also stopped without a verdict (futility, which cannot add false alarms) "
            "only on evidence that its change is small: its interval lay inside the "
            f"±{rule.margin * 100:g}% equivalence margin, or it lay inside "
            f"±{rule.bound * 100:g}% and the predictive chance of a verdict by the last look "
            f"was below {design.futility * 100:g}% (the effect averaged over its posterior from "
            "the look's estimate, the moderated spread and a normal prior on the log ratio "
            f"centred on no change, sd {rule.prior_sd:.3g}; the last look at the level of the "
            f"overall {design.alpha * 100:g}%). For an entry held by the bimodal-forks rule "
            "(below) that chance is the share of simulated continuations of its two groups, "
            "drawn from what its forks say about them, that the whole rule would decide; a held "
            "entry on a benchmark the change reaches was not stopped that way."
        )
    if trimmed:
        text += (
            f" {trimmed} fork(s) started unsettled (a leading run of iterations far from the "
            "rest of their own trace, judged fork by fork and blind to the side): those "
            "iterations were left out of the fork's mean and the fork counted with its steady "
            "iterations."
        )
    if excluded:
        text += (
            f" {excluded} fork(s) whose first iterations had not settled, with fewer than "
            f"{MIN_STEADY} steady ones after them, were left out, kept in the record and run "
            "again."
        )
    groups = [
        c.diagnostics.fork_groups
        for d in decisions.values()
        for c in d.comparisons
        if c.diagnostics.fork_groups is not None
    ]
    text += (
        " Where a comparison's fork means, both sides pooled, fell in two groups (2-means; "
        f"{bimodal.LEVEL * 100:g}% of single normal groups are called two), an improvement or "
        "regression stood only when the occupancy of the groups (Boschloo's exact test) or a "
        "shift inside a group (Welch) agreed with it at the same per-look level, or the groups "
        "split exactly by side on a benchmark the change reaches (the change itself); otherwise "
        f"the comparison ran more forks. {len(groups)} comparison(s) ended with two groups, "
        f"{sum(g.held for g in groups)} of them without a verdict for that reason"
    )
    explained = sum(notes.explained(g) for g in groups)
    if explained:
        text += f", {explained} decided as the change's clean split"
    text += "."
    return text

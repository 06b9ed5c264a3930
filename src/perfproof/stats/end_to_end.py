"""Statistics of an end-to-end A/B for one metric: pure functions on the per-run values.

The unit of replication is one run of the whole command. Each side gets its mean with a t
interval at its own degrees of freedom. The effect is head/base; its main interval is Welch's
on the logarithms of the runs (:func:`perfproof.stats.ratio.log_ratio`, the very function
``compare`` applies to fork means), so the verdicts mean the same thing. Two cross-checks
travel with it: a seeded percentile bootstrap of the ratio of means (no normality assumption,
fine with the tens of runs e2e designs have) and a paired analysis over the rounds of the
interleaved schedule (each round holds one base and one head run next to each other, so slow
drift of the machine cancels in their ratio).
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from perfproof.model import Direction, Verdict
from perfproof.model.documents.e2e import Interval, MetricAnalysis, PairedSummary, RunsSummary
from perfproof.stats import power as pw
from perfproof.stats.ratio import baseline_spans_zero, ratio_or_difference
from perfproof.stats.verdict import decide
from perfproof.stats.welch import WelchResult, mean_interval, welch

BOOTSTRAP_RESAMPLES = 10_000
DRIFT_WIDTH_RATIO = 0.5
BOOTSTRAP_BLOCK = 1_000_000
BOOTSTRAP_WORK = 20_000_000


def summarize_side(values: np.ndarray, confidence: float) -> RunsSummary:
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        v = float(x[0]) if len(x) else math.nan
        return RunsSummary(mean=v, ci=(math.nan, math.nan), n=len(x), df=math.nan, sd=math.nan)
    mi = mean_interval(x, confidence)
    sd = float(np.std(x, ddof=1))
    return RunsSummary(mean=mi.mean, ci=(mi.lo, mi.hi), n=mi.n, df=mi.df, sd=sd)


def bootstrap_ratio_ci(
    base: np.ndarray, head: np.ndarray, confidence: float, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float]:
    """Percentile bootstrap interval of mean(head)/mean(base), each side resampled on its own.

    Seeded from the data, so the same runs always give the same interval. Resamples are drawn
    in blocks of at most :data:`BOOTSTRAP_BLOCK` values, and long series get fewer resamples
    (never under 2,000), so memory and time stay bounded for any number of runs.
    """
    a = np.asarray(base, dtype=float)
    b = np.asarray(head, dtype=float)
    digest = hashlib.sha256(a.tobytes() + b"|" + b.tobytes()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    n = max(len(a), len(b))
    total = min(resamples, max(2_000, BOOTSTRAP_WORK // n))
    step = max(1, BOOTSTRAP_BLOCK // n)
    ratios = np.empty(total)
    for start in range(0, total, step):
        k = min(step, total - start)
        ma = a[rng.integers(0, len(a), size=(k, len(a)))].mean(axis=1)
        mb = b[rng.integers(0, len(b), size=(k, len(b)))].mean(axis=1)
        ratios[start : start + k] = mb / ma
    tail = (1.0 - confidence) / 2.0 * 100.0
    lo, hi = np.percentile(ratios, [tail, 100.0 - tail])
    return float(lo), float(hi)


def paired_log_ratio(pairs: list[tuple[float, float]], confidence: float) -> PairedSummary | None:
    """Mean log(head/base) over (base, head) pairs from the same round, with its t interval."""
    if len(pairs) < 2:
        return None
    d = np.array([math.log(h / b) for b, h in pairs], dtype=float)
    mi = mean_interval(d, confidence)
    return PairedSummary(
        pairs=len(pairs),
        delta_pct=math.expm1(mi.mean) * 100.0,
        ci=(math.expm1(mi.lo) * 100.0, math.expm1(mi.hi) * 100.0),
        df=mi.df,
    )


def analyse_metric(
    name: str,
    unit: str,
    direction: Direction,
    base: list[float],
    head: list[float],
    pairs: list[tuple[float, float]],
    *,
    confidence: float,
    threshold: float,
    target: float | None = None,
) -> MetricAnalysis:
    """Compare the runs of one metric. ``threshold`` and ``target`` are fractions (0.01 = 1%).

    ``target`` is the effect the "runs needed" figure aims at; it defaults to ``threshold``.
    """
    a = np.asarray(base, dtype=float)
    b = np.asarray(head, dtype=float)
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"metric {name}: need at least 2 runs per side, got {len(a)} and {len(b)}")
    alpha = 1.0 - confidence
    target = threshold if target is None else target
    warnings: list[str] = []
    side_a = summarize_side(a, confidence)
    side_b = summarize_side(b, confidence)
    est, non_positive = ratio_or_difference(a, b, confidence)
    lin = est.diff if est.diff is not None else welch(a, b, confidence)
    boot: tuple[float, float] | None = None
    paired: PairedSummary | None = None
    mde = need = None
    if non_positive is None:
        sd_a, sd_b = float(np.std(np.log(a), ddof=1)), float(np.std(np.log(b), ddof=1))
        method = "Welch t on log run values (ratio of geometric means), Welch–Satterthwaite df"
        boot = bootstrap_ratio_ci(a, b, confidence)
        paired = paired_log_ratio(pairs, confidence)
    elif est.relative:
        scale = abs(float(np.mean(a)))
        sd_a, sd_b = float(np.std(a, ddof=1)) / scale, float(np.std(b, ddof=1)) / scale
        method = "Welch t on raw run values, relative to the baseline mean (values not all > 0)"
        warnings.append(
            f"{name}: some values are <= 0, so the ratio uses the difference of means over the "
            "baseline mean's magnitude; the bootstrap and paired ratios are skipped."
        )
    elif side_a.mean != 0.0 and baseline_spans_zero(a, confidence):
        sd_a = sd_b = math.nan
        method = (
            "Welch t on raw run values (the baseline mean's interval includes 0: no relative "
            "change exists)"
        )
        lo, hi = side_a.ci
        warnings.append(
            f"{name}: some values are <= 0 and the baseline mean's {confidence:.0%} interval "
            f"[{lo:.4g}, {hi:.4g}] includes 0, so a percentage of it would mean nothing; the "
            "verdict is on the "
            "difference of means alone and --threshold cannot apply."
        )
    else:
        sd_a = sd_b = math.nan
        method = "Welch t on raw run values (the baseline mean is 0: no relative change exists)"
        warnings.append(
            f"{name}: the baseline mean is 0, so no percentage change exists; the verdict is on "
            "the difference of means alone and --threshold cannot apply."
        )
    if est.relative:
        significant = est.lo > 1.0 or est.hi < 1.0
        verdict = decide(est.ratio, est.lo, est.hi, significant, direction, threshold)
        mde = pw.minimal_detectable_effect(sd_a, len(a), sd_b, len(b), alpha)
        need = pw.runs_needed(math.log1p(target), sd_a, sd_b, alpha)
    else:
        verdict = _difference_verdict(lin, direction)
    if min(len(a), len(b)) < 5:
        warnings.append(
            f"{name}: only {min(len(a), len(b))} runs on a side; intervals are wide and the "
            "normality behind them cannot be checked — use --runs 10 or more."
        )
    if (
        paired is not None
        and _width(paired.ci) < DRIFT_WIDTH_RATIO * _width((est.lo, est.hi)) * 100
    ):
        warnings.append(
            f"{name}: the paired interval over rounds is less than half as wide as the "
            "unpaired one: the machine drifted during the run. The verdict uses the unpaired "
            "interval (ABBA keeps it fair but wide); the paired one cancels the drift."
        )
    return MetricAnalysis(
        name=name,
        unit=unit,
        direction=direction,
        base=side_a,
        head=side_b,
        diff=Interval(value=lin.diff, ci=(lin.lo, lin.hi)),
        ratio=est.ratio,
        ratio_ci=(est.lo, est.hi),
        delta_pct=(est.ratio - 1.0) * 100.0,
        delta_ci=((est.lo - 1.0) * 100.0, (est.hi - 1.0) * 100.0),
        welch_df=est.df,
        p_value=est.p_value,
        bootstrap_ci=None if boot is None else ((boot[0] - 1) * 100.0, (boot[1] - 1) * 100.0),
        paired=paired,
        verdict=verdict,
        mde_pct=None if mde is None else math.expm1(mde) * 100.0,
        runs_needed=need,
        target_pct=target * 100.0,
        relative_sd=(sd_a, sd_b),
        method=method,
        warnings=warnings,
    )


def _difference_verdict(w: WelchResult, direction: Direction) -> Verdict:
    """Improved/regressed when the difference's interval excludes 0, else inconclusive."""
    if w.lo > 0 or w.hi < 0:
        better = w.diff < 0 if direction is Direction.LOWER else w.diff > 0
        return Verdict.IMPROVED if better else Verdict.REGRESSED
    return Verdict.INCONCLUSIVE


def _width(ci: tuple[float, float]) -> float:
    return ci[1] - ci[0]

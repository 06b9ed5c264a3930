"""JMH's own view of one comparison, shown beside perfproof's so a reader can relate them."""

from __future__ import annotations

import math

import numpy as np

from perfproof.model import JmhScores, Samples
from perfproof.stats.welch import t_critical

JMH_CONFIDENCE = 0.999


def jmh_scores(b: Samples, h: Samples) -> JmhScores:
    """JMH's own score ± scoreError per side and whether the two 99.9% intervals overlap.

    One file per side: JMH's numbers as printed. Several rounds: recomputed the way JMH does
    (all iterations pooled, Student t at 99.9%), since JMH never saw the rounds together.
    """
    bs, be, b_re = _jmh_side(b)
    hs, he, h_re = _jmh_side(h)
    overlap = None
    if all(math.isfinite(v) for v in (bs, be, hs, he)):
        overlap = bool(bs - be <= hs + he and hs - he <= bs + be)
    return JmhScores(bs, be, hs, he, overlap, recomputed=b_re or h_re)


def _jmh_side(s: Samples) -> tuple[float, float, bool]:
    if len(s.jmh) == 1:
        return s.jmh[0].score, s.jmh[0].error, False
    values = np.concatenate(s.forks)
    score = float(values.mean())
    if values.size < 2:
        return score, math.nan, True
    err = t_critical(JMH_CONFIDENCE, values.size - 1) * float(values.std(ddof=1))
    return score, err / math.sqrt(values.size), True

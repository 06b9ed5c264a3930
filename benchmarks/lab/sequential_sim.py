"""Monte Carlo of sequential comparisons: many paths of looks at once, as whole-array operations.

A look's repeated interval is only honest if the chance that *any* look of a path crosses its
boundary stays within α when nothing changed. That probability depends on the look schedule
(how many forks per side at each look), on the ratio of the two sides' fork variances and on
the small-sample behaviour of Welch's t, none of which has a closed form; so it is measured by
simulating paths. The same generator serves the calibration of the shipped levels, the A/A
test in CI and the power table in BENCHMARKS.md, which is why it lives in
lab/, beside the scripts and the tests that use it (no verb does).

Each side draws a stream of log fork means (the fork levels of
:class:`~lab.simulate.ForkNoise`: sd ``fork_sd`` on the base side,
``fork_sd × √variance_ratio`` on the head side). A fork is "unwarmed" with probability
``unwarmed``, independently of its side and value (the detector judges a fork from its own
trace, blind to the side); such a fork is left out of the look and run again in the next
round, so the side's fork stream simply advances further.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from lab.simulate import JVM_NOISE, ForkNoise
from perfproof.stats import bimodal, welch_look
from perfproof.stats import sequential as seq
from perfproof.stats.sequential import Schedule
from perfproof.stats.warmup import unsettled_prefixes
from perfproof.stats.welch import SideMoments, welch_where_tested


@dataclass(frozen=True)
class ForkStreams:
    """Each side's stream of log fork means (forks × paths, NaN where a fork was left out) and
    how many forks of it each path had run at each look (paths × looks): what a look of the
    real design sees, for the bimodal-forks rule."""

    base: np.ndarray
    head: np.ndarray
    base_ran: np.ndarray
    head_ran: np.ndarray

    def at(self, k: int) -> bimodal.ForkRows:
        """Every path's usable forks at look index ``k`` (0-based), both sides in one row."""
        parts = []
        for values, ran in ((self.base, self.base_ran[:, k]), (self.head, self.head_ran[:, k])):
            width = int(ran.max(initial=0))
            block = values[:width].T
            parts.append(np.where(np.arange(width)[None, :] < ran[:, None], block, np.nan))
        head = np.zeros((parts[0].shape[0], parts[0].shape[1] + parts[1].shape[1]), dtype=bool)
        head[:, parts[0].shape[1] :] = True
        return bimodal.ForkRows(np.concatenate(parts, axis=1), head)


@dataclass(frozen=True)
class Paths:
    """Per path (rows) and look (columns): Welch on log fork means at that look.

    ``p_value`` is the two-sided nominal p-value (1 where a side has fewer than two usable
    forks); ``diff`` the log ratio head/base, ``se`` its standard error, ``df`` the Welch
    degrees of freedom, ``n_base``/``n_head`` the usable forks per side.
    """

    diff: np.ndarray
    se: np.ndarray
    df: np.ndarray
    p_value: np.ndarray
    n_base: np.ndarray
    n_head: np.ndarray
    forks: ForkStreams | None = None
    """The fork means themselves, when the paths were drawn here (None: moments only)."""
    var_base: np.ndarray | None = None
    var_head: np.ndarray | None = None
    """Each side's sample variance of log fork means per look, so that a family's keys can
    borrow each other's spread (:func:`play`); None: the Welch statistics only."""


def _side_stream(
    rng: np.random.Generator,
    paths: int,
    capacity: int,
    noise: ForkNoise,
    shift: float,
    unwarmed: float,
) -> tuple[np.ndarray, np.ndarray | None]:
    """One side's stream of log fork means (each fork its level) and which forks are usable
    (None: all), shaped (forks × paths) so that the running sums walk contiguous memory."""
    values = noise.levels(rng, (capacity, paths)) + shift
    usable = rng.random((capacity, paths)) >= unwarmed if unwarmed > 0 else None
    return values, usable


def cumulate(
    values: np.ndarray, usable: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Running (count, sum, sum of squares) of one side's log fork means, shaped (forks ×
    paths), over the usable forks only (all of them when ``usable`` is None): the input of
    :func:`at_looks` for any fork-mean law a caller wants to try."""
    if usable is None:
        capacity, paths = values.shape
        count = np.broadcast_to(np.arange(1, capacity + 1)[:, None], (capacity, paths))
    else:
        values = np.where(usable, values, 0.0)
        count = np.cumsum(usable, axis=0)
    return count, np.cumsum(values, axis=0), np.cumsum(values * values, axis=0)


def trace_stream(
    rng: np.random.Generator,
    paths: int,
    capacity: int,
    noise: ForkNoise,
    shift: float,
    cold_share: float,
    iterations: int,
    trim: bool = False,
) -> tuple[tuple[np.ndarray, np.ndarray | None], np.ndarray, np.ndarray]:
    """A side's forks as iteration traces (time per op, lower is better) drawn by ``noise``
    around ``shift``: a share ``cold_share`` of them start 1.5–5× slower for their first one or
    two iterations. The real detector
    (:func:`perfproof.stats.warmup.unsettled_prefixes`) judges every trace alone; the forks
    it flags are left out, or with ``trim`` keep the mean of their steady iterations (what a
    look does). Returns (log fork means, usable), which forks were cold, which were flagged."""
    level, scatter = noise.draw(rng, (capacity, paths), iterations)
    traces = 100.0 * np.exp((level + shift)[..., None] + scatter)
    cold = rng.random((capacity, paths)) < cold_share
    prefix = rng.integers(1, 3, (capacity, paths))
    factor = rng.uniform(1.5, 5.0, (capacity, paths))
    leading = np.arange(iterations) < prefix[..., None]
    traces = np.where(cold[..., None] & leading, traces * factor[..., None], traces)
    prefixes = unsettled_prefixes(traces.reshape(-1, iterations), "above")
    cut = np.array(prefixes).reshape(capacity, paths)
    flagged = cut > 0
    if trim:
        steady = np.arange(iterations) >= cut[..., None]
        means = (traces * steady).sum(axis=-1) / steady.sum(axis=-1)
        return (np.log(means), None), cold, flagged
    # an undetected cold fork keeps its slow start in its mean, as it would in a real run
    values = np.log(traces.mean(axis=-1))
    return (values, ~flagged), cold, flagged


def at_looks(
    cum: tuple[np.ndarray, np.ndarray, np.ndarray], schedule: Schedule
) -> tuple[SideMoments[np.ndarray], np.ndarray]:
    """Usable count, mean and variance at each look, re-running excluded forks next round,
    and per path and look how many forks of the stream had run.

    At look k the side has run ``forks_at(k)`` forks plus one more for every fork that was
    excluded at the previous look (the re-run), so it has run ``forks_at(k) + excluded(k−1)``.
    """
    count, total, squares = cum
    capacity, paths = count.shape
    cols = np.arange(paths)
    n_out = np.empty((paths, schedule.max_looks), dtype=int)
    mean = np.empty((paths, schedule.max_looks))
    var = np.empty((paths, schedule.max_looks))
    excluded = np.zeros(paths, dtype=int)
    ran_out = np.empty((paths, schedule.max_looks), dtype=int)
    for k in range(1, schedule.max_looks + 1):
        ran = np.minimum(schedule.forks_at(k) + excluded, capacity)
        ran_out[:, k - 1] = ran
        idx = ran - 1
        n = count[idx, cols]
        s, q = total[idx, cols], squares[idx, cols]
        safe = np.maximum(n, 1)
        m = s / safe
        v = np.where(n >= 2, (q - safe * m * m) / np.maximum(n - 1, 1), np.nan)
        n_out[:, k - 1], mean[:, k - 1], var[:, k - 1] = n, m, np.maximum(v, 0.0)
        excluded = ran - n
    return SideMoments(n_out, mean, var), ran_out


def paths_from_streams(
    base: tuple[np.ndarray, np.ndarray | None],
    head: tuple[np.ndarray, np.ndarray | None],
    schedule: Schedule,
) -> Paths:
    """Welch at every look, with the fork means kept, from each side's stream of log fork
    means and usable mask (forks × paths; None: every fork usable): any fork-mean law a
    caller wants to try (``benchmarks/sequential_power.py --bimodal`` draws two code shapes)."""
    looks, kept = [], []
    for values, usable in (base, head):
        side, ran = at_looks(cumulate(values, usable), schedule)
        looks.append(side)
        kept.append((values if usable is None else np.where(usable, values, np.nan), ran))
    paths = welch_paths(looks[0], looks[1])
    (b, b_ran), (h, h_ran) = kept
    return Paths(**{**vars(paths), "forks": ForkStreams(b, h, b_ran, h_ran)})


def simulate(
    rng: np.random.Generator,
    paths: int,
    schedule: Schedule,
    variance_ratio: float = 1.0,
    effect: float = 0.0,
    noise: ForkNoise = JVM_NOISE,
    unwarmed: float = 0.0,
    iterations: int = 0,
    trim: bool = False,
) -> Paths:
    """``paths`` sequential comparisons with a true log ratio ``effect`` (0 for A/A), the base
    side's forks drawn by ``noise`` and the head side's with ``variance_ratio`` times its fork
    variance.

    With ``iterations`` = 0 a fork is its log mean (its level) and a share ``unwarmed`` of
    forks is left out at random; with ``iterations`` > 0 every fork is an iteration trace, a share
    ``unwarmed`` of them starts slow, and the real detector decides which ones to leave out
    (``trim``: whose unsettled first iterations to leave out of the fork's mean).
    """
    last = schedule.forks_at(schedule.max_looks)
    # room for the re-runs of excluded forks: far more than a path ever needs
    capacity = last + (int(np.ceil(last * unwarmed * 3)) + 8 if unwarmed > 0 else 0)
    head_noise = replace(noise, fork_sd=noise.fork_sd * float(np.sqrt(variance_ratio)))
    if iterations:
        b = trace_stream(rng, paths, capacity, noise, 0.0, unwarmed, iterations, trim)
        h = trace_stream(rng, paths, capacity, head_noise, effect, unwarmed, iterations, trim)
        return paths_from_streams(b[0], h[0], schedule)
    base = _side_stream(rng, paths, capacity, noise, 0.0, unwarmed)
    head = _side_stream(rng, paths, capacity, head_noise, effect, unwarmed)
    return paths_from_streams(base, head, schedule)


def welch_paths(base: SideMoments[np.ndarray], head: SideMoments[np.ndarray]) -> Paths:
    """Welch's t at every look from each side's (usable count, mean, variance) per look (the
    output of :func:`at_looks`); kept apart so that fork streams of any shape, not only the
    normal ones drawn here, can be judged by the same design (``benchmarks/bimodal_aa.py``)."""
    w, _ = welch_where_tested(base, head)
    return Paths(
        diff=w.diff, se=w.se, df=w.df, p_value=w.p_value, n_base=base.n, n_head=head.n,
        var_base=base.var, var_head=head.var,
    )  # fmt: skip


def running_min_p(p_value: np.ndarray) -> np.ndarray:
    """Smallest nominal p-value so far along each path: column K−1 is what a design with K
    looks compares with its per-look level."""
    return np.minimum.accumulate(p_value, axis=1)


@dataclass(frozen=True)
class Played:
    """Per key (families × keys): the outcome code it stopped with (``CONTINUE`` if it ran out
    of looks undecided) and the look it stopped at (``max_looks`` if undecided)."""

    code: np.ndarray
    look: np.ndarray


def play(
    paths: Paths,
    keys: int,
    schedule: Schedule,
    alpha: float,
    method: str,
    threshold: float,
    futility: float = 0.0,
    bimodal_rule: bool = True,
    reached: bool = False,
    borrow: bool = True,
) -> Played:
    """Run the sequential design over simulated paths grouped into families of ``keys``.

    The same :func:`perfproof.stats.sequential.judge` as a real run decides every look,
    with the bimodal-forks rule when the paths carry their fork means (``bimodal_rule``
    False: without it, to show what it changes; ``reached``: every key is one the change
    reaches, so a clean split by side is not held); a key that stops keeps its sequential
    p-value in the family at later looks. Each side's variance borrows the family's fork
    spread as a run's looks do (``borrow``, when the paths carry their variances).
    """
    families = paths.p_value.shape[0] // keys
    shape = (families, keys)

    def at(values: np.ndarray, k: int) -> np.ndarray:
        """Every path's value at look index ``k``, a family per row."""
        return values[:, k].reshape(shape)

    frozen = np.full(shape, np.nan)
    code = np.full(shape, seq.CONTINUE, dtype=np.int8)
    look = np.full(shape, schedule.max_looks, dtype=int)
    for k in range(schedule.max_looks):
        tested = (paths.n_base[:, k] >= 2) & (paths.n_head[:, k] >= 2)
        if borrow and paths.var_base is not None and paths.var_head is not None:
            # the look's difference as the head's mean over a base at 0: the same Welch diff
            look_rows = welch_look.moments_rows(
                SideMoments(at(paths.n_base, k), np.zeros(shape), at(paths.var_base, k)),
                SideMoments(at(paths.n_head, k), at(paths.diff, k), at(paths.var_head, k)),
            )
        else:
            look_rows = welch_look.LookRows(
                diff=at(paths.diff, k),
                se=at(paths.se, k),
                df=at(paths.df, k),
                p_value=at(paths.p_value, k),
                tested=tested.reshape(shape),
            )
        forks = paths.forks.at(k) if bimodal_rule and paths.forks is not None else None
        j = seq.judge(
            look_rows, frozen, schedule, alpha, method, threshold, k + 1, futility, forks,
            np.full(shape, reached) if forks is not None else None,
        )  # fmt: skip
        newly = np.isnan(frozen) & (j.code != seq.CONTINUE)
        code[newly] = j.code[newly]
        look[newly] = k + 1
        frozen[newly] = j.seq_p[newly]
    return Played(code=code, look=look)

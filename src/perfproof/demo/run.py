"""``perfproof demo``: the whole A/B job on the embedded sample project, twice.

First baseline → feature, where both benchmarks should come out ``improved`` in time and in
bytes/op; then feature → docs-only, an A/A control (identical code built from two commits)
where nothing may come out improved or regressed. Seeing both is the quickest way to learn
what perfproof's verdicts mean and to trust that a calm result is calm.

Both runs use the sequential design ``perfproof ab`` uses by default: after every round each
benchmark's verdict is looked at, and a benchmark whose verdict is in stops. The feature's
many-fold effects are decided at the first look (round 3, three forks a side) and the run
ends there; the A/A control has nothing to find, and runs with the futility stop switched off
(``--futility 0``) to show the whole design: it runs to its most rounds (five) and ends
``inconclusive`` or ``same``, never ``improved``/``regressed``. Forks are short (3 × 0.5 s
warm-up, 4 × 0.5 s measurement), about 10 s per step: about a minute of benchmarking for the
feature, under two minutes for the control, plus three small Maven builds.

Last, ``perfproof prove`` runs the whole evidence chain on baseline → feature: the changed
methods, their callers, the benchmarks that reach them (found without ``--bench``), the A/B
with JFR, the profile diff with the Amdahl ceiling and the sample's JUnit tests on both
commits, into ``<root>/prove``.

It ends where a performance pull request begins: ``perfproof hunt`` on the baseline ranks
the two hot paths the feature fixes (with file, line, callers, ceiling and the benchmark
that reaches each), and a hunt on the feature, compared with it, shows both gone or fallen
tenfold. The sample also holds decoys a hunt must not rank: allocation in ``@Setup``, a
static initialiser, a buffer that grows once and is reused, a cold error path.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from perfproof import defaults
from perfproof.demo.project import DemoRepo, write_demo_repo
from perfproof.errors import InputError
from perfproof.measure.plan import JmhArgs, parse_jmh_args
from perfproof.measure.progress import Reporter
from perfproof.measure.progress import make_reporter as default_reporter
from perfproof.model.documents.demo import DemoDocument
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.run import AbOutcome, start_ab
from perfproof.pipeline.hunt.run import HuntOutcome
from perfproof.pipeline.prove.run import ProveOptions, ProveOutcome, start_prove

DEMO_MAX_ROUNDS = 5
DEMO_JMH_ARGS = "-f 1 -wi 3 -w 500ms -i 4 -r 500ms"
DEMO_HUNT_FORKS = 3

AA_CONTROL = "aa-control"
"""The A/A run: identical code on both sides, run to its maximum (no futility stop)."""

RUNS = (
    ("feature-vs-baseline", "baseline", "feature"),
    (AA_CONTROL, "feature", "docs-only"),
)


@dataclass
class DemoOutcome:
    """Where the demo left its project and runs, and what each run found."""

    root: Path
    repo: DemoRepo
    runs: dict[str, AbOutcome] = field(default_factory=dict)
    prove: ProveOutcome | None = None
    """``perfproof prove`` baseline → feature: the whole evidence chain."""
    hunts: dict[str, HuntOutcome] = field(default_factory=dict)
    """``perfproof hunt`` on the baseline, then on the feature compared with it."""


def demo_document(outcome: DemoOutcome) -> DemoDocument:
    """The ``perfproof.demo/1`` document of a finished demo: each run's comparisons as
    ``ab --format json`` prints them, the prove chain and the hunts, each as its verb writes it."""
    return DemoDocument(
        project=str(outcome.repo.path),
        runs={name: outcome.runs[name].document for name, _, _ in RUNS},
        prove=outcome.prove.doc if outcome.prove is not None else None,
        hunt={ref: h.result for ref, h in outcome.hunts.items()},
    )


def demo_root(out: Path | None) -> Path:
    """``--out DIR`` as given (must be empty or new), else a fresh temporary folder."""
    if out is None:
        return Path(tempfile.mkdtemp(prefix="perfproof-demo-"))
    out = out.resolve()
    if out.exists() and any(out.iterdir()):
        raise InputError(f"--out {out} is not empty; the demo needs a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    return out


def run_demo(
    out: Path | None,
    *,
    make_reporter: Callable[[], Reporter] | None = None,
    max_rounds: int | None = None,
    jmh_args: str | None = None,
    lock_timeout: float = defaults.LOCK_TIMEOUT_S,
) -> DemoOutcome:
    """Write the sample repository to ``<root>/project`` and run both comparisons.

    ``make_reporter`` is a zero-argument callable giving a fresh progress reporter per run
    (each ``ab`` run closes its reporter).
    """
    root = demo_root(out)
    repo = write_demo_repo(root / "project")
    outcome = DemoOutcome(root, repo)
    jmh = parse_jmh_args(jmh_args or DEMO_JMH_ARGS)  # read once for every run of the demo
    for name, base, head in RUNS:
        opts = AbOptions(
            base=base,
            head=head,
            repo=str(repo.path),
            max_rounds=max_rounds or DEMO_MAX_ROUNDS,
            jmh_args=jmh,
            out=str(root / "runs" / name),
            lock_timeout=lock_timeout,
            futility=0.0 if name == AA_CONTROL else None,
        )
        reporter = (make_reporter or default_reporter)()
        reporter.message(f"== {name}: {base} → {head} ==")
        outcome.runs[name] = start_ab(opts, reporter)
    outcome.prove = _prove(root, repo, make_reporter, max_rounds, jmh, lock_timeout)
    outcome.hunts = _hunts(root, repo, jmh, lock_timeout)
    return outcome


def _hunts(root: Path, repo: DemoRepo, jmh: JmhArgs, lock_timeout: float) -> dict[str, HuntOutcome]:
    """Last, the hunt that would have found the feature's change: on the baseline, then on
    the feature with ``--compare`` against the first, where both hot paths are gone
    or fell tenfold."""
    from perfproof.pipeline.hunt.start import HuntRequest, hunt

    def say(text: str) -> None:
        print(text, file=sys.stderr)

    out: dict[str, HuntOutcome] = {}
    for ref in ("baseline", "feature"):
        say(f"== hunt: {ref} ==")
        out[ref] = hunt(
            HuntRequest(
                repo=repo.path,
                ref=ref,
                jmh_args=jmh,
                forks=DEMO_HUNT_FORKS,
                out=root / "hunt" / ref,
                compare=out["baseline"].files["json"] if "baseline" in out else None,
                lock_timeout=lock_timeout,
            ),
            say,
        )
    return out


def _prove(
    root: Path,
    repo: DemoRepo,
    make_reporter: Callable[[], Reporter] | None,
    max_rounds: int | None,
    jmh: JmhArgs,
    lock_timeout: float,
) -> ProveOutcome:
    """Last, the chain a performance pull request needs, on baseline → feature: changed
    methods, callers, the benchmarks that reach them (found without --bench), the A/B with JFR,
    the profile diff, Amdahl and the sample's JUnit tests on both commits, in one bundle."""
    header = (make_reporter or default_reporter)()
    header.message("== prove: baseline → feature ==")
    header.close()  # prove's stages open their own progress displays
    opts = ProveOptions(
        ab=AbOptions(
            base="baseline",
            head="feature",
            repo=str(repo.path),
            max_rounds=max_rounds or DEMO_MAX_ROUNDS,
            jmh_args=jmh,
            lock_timeout=lock_timeout,
            jfr=True,
        ),
        out=str(root / "prove"),
    )
    return start_prove(opts, lambda text: print(text, file=sys.stderr))

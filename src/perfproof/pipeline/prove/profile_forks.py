"""The recorded forks of ``prove``'s profile stage: run for the keys its design chose
(:mod:`perfproof.pipeline.prove.profile_keys`), one fork a step, and gathered key by key with
the reach round's forks where those ran the same builds with the same JMH settings on both
sides (a reach round of the baseline alone, this version's, has none to give).

A replicate of the diff is one fork of every recorded key on a side (the i-th of each), so a
fork reused from the reach round and one recorded here stand side by side as the same kind of
replicate, and the forks a key still needs run in one step a side (``-f N``): one turn at JMH's
lock a side instead of one a fork. No timing comes from these forks: they run apart from the
A/B.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.measure.keys import java_escape
from perfproof.measure.progress import make_reporter
from perfproof.model import SIDES, benchmark_of_label
from perfproof.model.documents.prove_profile import ProfileDesign
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.ab.recorded import recorded_round
from perfproof.pipeline.prove.alloc import ForkRecording, fork_recordings
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.prove.profile_keys import still_to_record
from perfproof.report.rundir import read_manifest

Forks = dict[str, dict[str, list[ForkRecording]]]
"""Benchmark entry (``BenchKey.label``, with its mode) → side → its recorded forks."""
REACH = "reach"
"""The bundle folder of the reach round (``prove --reach profile``)."""


def suite_label(entry: str) -> str:
    """``B.m(n=16)`` of an entry label ``B.m(n=16) [avgt]``: the key ``ab``'s plan selects."""
    return entry.rsplit(" [", 1)[0]


@dataclass(frozen=True)
class RecordedForks:
    """Every recording the profile reads, key by key."""

    forks: Forks
    folder: Path
    """The profile stage's own first run folder (``profile/forks``)."""

    def side(self, side: str) -> list[Path]:
        return [f.path for sides in self.forks.values() for f in sides.get(side, [])]

    def replicate(self) -> Callable[[Path], str]:
        """A recording's replicate: its fork's place among its key's forks on its side."""
        place = {f.path: str(i) for sides in self.forks.values() for fs in sides.values()
                 for i, f in enumerate(fs)}  # fmt: skip
        return lambda path: place.get(path, path.parent.name)

    def by_benchmark(self, side: str) -> dict[str, list[Path]]:
        out: dict[str, list[Path]] = {}
        for label, sides in self.forks.items():
            paths = [f.path for f in sides.get(side, [])]
            out.setdefault(benchmark_of_label(label), []).extend(paths)
        return out


def reusable_reach(bundle: Bundle, ab: AbOptions, ab_run: Path) -> dict[str, int]:
    """Key label → forks a side the reach round recorded of it, when that round recorded both
    sides and ran the A/B's builds with the JMH settings the profile forks use; empty
    otherwise. The reach round records the baseline alone
    (:func:`perfproof.pipeline.prove.dispatch.reach_forks`), and a replicate of the diff is a
    fork of each side, so only a round an earlier perfproof recorded of both sides (a bundle
    it began, resumed) has forks to reuse."""
    folder = bundle.folder(REACH)
    if not (folder / "manifest.json").is_file() or not (ab_run / "manifest.json").is_file():
        return {}
    reach, timed = read_manifest(folder / "manifest.json"), read_manifest(ab_run / "manifest.json")
    if set(reach.refs) != set(SIDES):
        return {}

    def builds(m: object) -> set[tuple[str | None, str | None]]:
        return {(b.side, b.key) for b in getattr(m, "builds", [])}

    same_builds = builds(reach) == builds(timed) and all(k for _, k in builds(reach))
    options = list(reach.plan.jmh_options) if reach.plan is not None else None
    same_settings = options == list(ab.jmh_args.with_forks(1).options)
    if not (same_builds and same_settings):
        return {}
    out = {}
    for label, sides in fork_recordings(folder).items():
        both = min(len(sides.get(side, [])) for side in SIDES)
        if both:
            out[suite_label(label)] = both
    return out


def _run(bundle: Bundle, ab: AbOptions, name: str, keys: Sequence[str], rounds: int,
         regexes: Sequence[str], forks: int = 1) -> Path:  # fmt: skip
    """One fixed design of recorded forks in ``profile/<name>``, resumed when started."""
    folder = bundle.folder("profile") / name
    reporter = make_reporter()
    return recorded_round(folder, ab, regexes, reporter, rounds=rounds, keys=keys, forks=forks)


def _name(need: int, design: ProfileDesign) -> str:
    """``forks`` for the keys recorded from scratch, ``forks-N`` for those needing N more."""
    return "forks" if need == design.forks else f"forks-{need}"


def record(
    bundle: Bundle, ab: AbOptions, design: ProfileDesign, regexes: Sequence[str], rounds: int
) -> RecordedForks:
    """Record what ``design`` still needs (``every``: every key of ``regexes`` for ``rounds``
    rounds) and gather it with the reach round's reused forks."""
    forks: Forks = {}
    if design.every:
        folder = _run(bundle, ab, "forks", (), rounds, regexes)
        return RecordedForks(fork_recordings(folder), folder)
    reused = {k.key: k.reused for k in design.recorded if k.reused}
    if reused:
        for label, sides in fork_recordings(bundle.folder(REACH)).items():
            n = reused.get(suite_label(label), 0)
            if n:
                forks[label] = {side: fs[:n] for side, fs in sides.items()}
    folders = []
    for need, keys in still_to_record(design).items():
        benches = sorted({benchmark_of_label(k) for k in keys})
        anchored = [f"^{java_escape(b)}$" for b in benches]
        # the forks a key still needs in one step a side: a fork, not a step, is the diff's
        # replicate, and on a shared machine every step waits its turn for JMH's lock
        folders.append(_run(bundle, ab, _name(need, design), keys, 1, anchored, forks=need))
    for folder in folders:
        for label, sides in fork_recordings(folder).items():
            mine = forks.setdefault(label, {})
            for side, fs in sides.items():
                mine.setdefault(side, []).extend(fs)
    main = folders[0] if folders else bundle.folder(REACH)
    return RecordedForks(forks, main)


def runs_read(bundle: Bundle, design: ProfileDesign) -> tuple[str, ...]:
    """The run folders whose recordings the profile read, the reach round's first."""
    out = [str(bundle.folder(REACH))] if design.reused else []
    for need in still_to_record(design):
        out.append(str(bundle.folder("profile") / _name(need, design)))
    if design.every:
        out.append(str(bundle.folder("profile") / "forks"))
    return tuple(out)

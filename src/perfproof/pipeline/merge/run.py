"""``perfproof merge``: one run folder from the shards of a suite measured on several machines.

Each shard (``ab --shard I/N``) ran a complete interleaved A/B of its own keys on its own
machine, so every key's base and head forks come from one machine. Merging only has to prove
that the shards belong together and then compare all keys as one family:

- same commits, same JMH settings and comparison settings, same partition of the same suite;
- every shard 1..N present exactly once and finished;
- no key measured by two shards (its forks would mix machines).

Any failed check is bad input naming the shard, before anything is written. The family
procedure then runs across all keys at once (``compare_sides`` over the union of the shards'
forks), exactly as if one machine had measured them: splitting a suite must not loosen the
family error rate by adjusting each shard on its own.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from perfproof import __version__
from perfproof.compare import CompareOptions, CompareResult, compare_sides
from perfproof.compare import document as compare_document
from perfproof.errors import InputError
from perfproof.jmh.reader import read_results
from perfproof.measure.shard import Shard, machine_name
from perfproof.measure.store import DONE, MANIFEST, RESULTS, new_run_id, now_iso
from perfproof.model import SIDES, BenchKey, Samples
from perfproof.model.documents import read_document
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.run import (
    MAJOR,
    NAME,
    Environment,
    ManifestShapeError,
    Merged,
    RunManifest,
    StepEntry,
)
from perfproof.model.documents.run_options import RunOptions
from perfproof.model.documents.run_plan import Machine, MeasuredEntry, MergedShard, ShardBlock
from perfproof.storage import write_json_atomic

PLAN_PER_SHARD = frozenset({"steps", "seed"})
"""Plan entries that may differ between shards: their own steps, and the seed of a random
side order (each shard draws its own; the sides stay balanced within every shard)."""

OPTIONS_PER_SHARD = frozenset(
    {"repo", "base", "head", "seed", "java", "out", "lock_timeout", "cache_dir", "shard",
     "executor", "ray_address"}
)  # fmt: skip
"""``ab`` options that may differ between the shards of one run: where things are on each
machine, how a ref was spelled (the SHAs are compared instead) and the shard itself."""


@dataclass
class ShardRun:
    """One shard's run folder as the merge sees it."""

    path: Path
    manifest: RunManifest
    spec: Shard
    files: dict[str, list[Path]] = field(default_factory=dict)
    samples: dict[str, dict[BenchKey, Samples]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """``shard 2/4 (path)``: how every message names this shard."""
        return f"shard {self.spec} ({self.path})"

    @property
    def block(self) -> ShardBlock:
        """The manifest's shard block (:func:`load_shard` reads only folders that have one)."""
        return self.manifest.shard or ShardBlock(index=self.spec.index, count=self.spec.count)

    @property
    def machine(self) -> str:
        return machine_name(self.block.machine)

    def entries(self) -> set[BenchKey]:
        return {k.entry() for side in SIDES for k in self.samples.get(side, {})}


@dataclass
class MergeOutcome:
    out: Path
    result: CompareResult
    document: CompareDocument
    """results.json: the comparisons, each with the machine that measured it."""
    shards: list[ShardRun]
    report_path: Path | None = None


# ---------------------------------------------------------------------------- loading


def load_shard(path: Path) -> ShardRun:
    """Read a shard's manifest and raw files; a folder that is no finished shard is bad input."""
    path = path.resolve()
    if not path.is_dir():
        raise InputError(f"{path}: no such run folder")
    doc = read_document(path / MANIFEST, NAME, MAJOR)
    try:
        manifest = RunManifest.read(doc, str(path / MANIFEST))
    except ManifestShapeError as exc:
        raise InputError(f"{path}: {MANIFEST} was edited: {exc}") from None
    block = manifest.shard
    if block is None:
        raise InputError(f"{path}: not a shard run (it was not started with ab --shard I/N)")
    try:
        spec = Shard(block.index, block.count)
    except (TypeError, ValueError):
        raise InputError(f"{path}: the manifest's shard entry was edited") from None
    shard = ShardRun(path, manifest, spec)
    if manifest.status != DONE:
        raise InputError(
            f"{shard.name} is not finished (status {manifest.status}); "
            f"continue it with: perfproof ab --resume {path}"
        )
    for side in SIDES:
        shard.files[side] = result_files(path, manifest, side)
        shard.samples[side] = read_results(shard.files[side]) if shard.files[side] else {}
    return shard


def result_files(path: Path, manifest: RunManifest, side: str) -> list[Path]:
    """The finished raw JMH files of one side, in the order the run measured them.

    A finished shard's steps are a list of step objects, and a finished step's raw file is
    there: anything else is an edited or damaged folder, refused naming the shard and field,
    since skipping it would drop keys (regressions included) from the merged run in silence.
    """
    out: list[Path] = []
    for i, step in enumerate(manifest.steps):
        if step.side != side or not step.done or step.kind != "jmh":
            continue
        result = step.result
        if not result:
            raise InputError(
                f"{path}: manifest.json: steps[{i}].result: a finished step names no raw file"
            )
        file = path / result
        if not file.is_file():
            raise InputError(
                f"{path}: manifest.json: steps[{i}] ({step.id or '?'}) is finished but "
                f"its raw file {result} is missing"
            )
        out.append(file)
    return out


# ---------------------------------------------------------------------------- checks


def settings_of(manifest: RunManifest) -> dict[str, dict[str, object]]:
    """What must be equal for two shards' forks to be one experiment."""
    written = manifest.plan.dump() if manifest.plan is not None else {}
    plan = {k: v for k, v in written.items() if k not in PLAN_PER_SHARD}
    options = manifest.options.dump()
    return {
        "plan": plan,
        "options": {k: v for k, v in options.items() if k not in OPTIONS_PER_SHARD},
    }


def check_shards(shards: list[ShardRun]) -> None:
    """Refuse shards that are not the N parts of one partitioned run, naming the culprit."""
    if not shards:
        raise InputError("merge: give the run folders of the shards")
    first = shards[0]
    want_refs = _shas(first)
    want_settings = settings_of(first.manifest)
    want_partition = _partition(first)
    for shard in shards[1:]:
        if _shas(shard) != want_refs:
            got = _shas(shard)
            raise InputError(
                f"{shard.name} measured base {got[0][:12]} and head {got[1][:12]}, not the "
                f"commits of {first.name} (base {want_refs[0][:12]}, head {want_refs[1][:12]})"
            )
        mine, theirs = _machine(first), _machine(shard)
        if mine != theirs:
            raise InputError(
                f"{shard.name} was measured as machine {theirs or '(unnamed)'}, {first.name} as "
                f"{mine or '(unnamed)'}; shards of one run share one --machine name"
            )
        if settings_of(shard.manifest) != want_settings:
            raise InputError(
                f"{shard.name} ran with other JMH or comparison settings than {first.name}; "
                "shards of one run share every setting"
            )
        if _partition(shard) != want_partition:
            raise InputError(
                f"{shard.name} is a shard of another partition than {first.name} "
                "(other shard count, suite or key list)"
            )
    seen: dict[int, ShardRun] = {}
    for shard in shards:
        if shard.spec.index in seen:
            raise InputError(f"{shard.name} is given twice (also {seen[shard.spec.index].path})")
        seen[shard.spec.index] = shard
    missing = [i for i in range(1, first.spec.count + 1) if i not in seen]
    if missing:
        names = ", ".join(f"{i}/{first.spec.count}" for i in missing)
        raise InputError(f"merge: shard {names} is missing (have {len(shards)} of the shards)")
    _check_key_lists(shards)
    owner: dict[BenchKey, ShardRun] = {}
    for shard in sorted(shards, key=lambda s: s.spec.index):
        for entry in sorted(shard.entries()):
            if entry in owner:
                raise InputError(
                    f"{shard.name} measured {entry.label()}, which {owner[entry].name} measured "
                    "too; a key is measured on one machine only"
                )
            owner[entry] = shard


def _check_key_lists(shards: list[ShardRun]) -> None:
    """The shards' own key lists must together be the suite, each key in one of them: a list
    cut short would leave its keys out of the merged run without a word."""
    suite = list(shards[0].block.all_keys)
    listed: dict[str, ShardRun] = {}
    for shard in sorted(shards, key=lambda s: s.spec.index):
        keys = shard.block.keys
        if keys is None:
            raise InputError(f"{shard.name}: manifest.json: shard.keys: expected a list of keys")
        for k in keys:
            if k in listed:
                raise InputError(
                    f"{shard.name}: manifest.json: shard.keys lists {k}, which "
                    f"{listed[k].name} lists too"
                )
            listed[k] = shard
    missing = [k for k in suite if k not in listed]
    if missing:
        more = f" (+{len(missing) - 1} more)" if len(missing) > 1 else ""
        raise InputError(
            f"merge: {missing[0]}{more} of the suite is in no shard's key list "
            "(manifest.json: shard.keys cut short?)"
        )


def _machine(shard: ShardRun) -> str | None:
    """The ``--machine`` name the shard was measured under (None: unnamed)."""
    return shard.manifest.options.machine or None


def _shas(shard: ShardRun) -> tuple[str, str]:
    base, head = (shard.manifest.side(side).sha or "" for side in SIDES)
    return base, head


def _partition(shard: ShardRun) -> tuple[Any, ...]:
    b = shard.block
    return (b.count, b.method, b.digest, tuple(b.all_keys))


# ---------------------------------------------------------------------------- merging


def compare_options_of(manifest: RunManifest) -> CompareOptions:
    """The comparison settings a shard ran with (perfproof's defaults for those it lacks)."""
    o, default = manifest.options, CompareOptions()
    return CompareOptions(
        confidence=default.confidence if o.confidence is None else o.confidence,
        threshold=default.threshold if o.threshold is None else o.threshold,
        metrics=default.metrics if o.metrics is None else tuple(o.metrics),
        family=default.family if o.family is None else o.family,
    )


def merge_samples(shards: list[ShardRun], side: str) -> dict[BenchKey, Samples]:
    """One side's forks of every key, each key taken whole from the one shard that measured it."""
    merged: dict[BenchKey, Samples] = {}
    for shard in shards:
        merged.update(shard.samples.get(side, {}))
    return merged


def compare_shards(shards: list[ShardRun], options: CompareOptions | None = None) -> CompareResult:
    """All keys of all shards compared as one family, as if one machine had run them."""
    options = options or compare_options_of(shards[0].manifest)
    return compare_sides(merge_samples(shards, "base"), merge_samples(shards, "head"), options)


def machines_by_entry(shards: list[ShardRun]) -> dict[BenchKey, str]:
    return {entry: shard.machine for shard in shards for entry in shard.entries()}


def merge_runs(
    paths: list[Path],
    out: Path,
    *,
    write_report: bool = True,
    verdict: dict[str, object] | None = None,
) -> MergeOutcome:
    """Check the shards, then write one new run folder holding all of them; ``verdict``
    (confidence, threshold, family) replaces what the shards were started with."""
    shards = [load_shard(p) for p in paths]
    check_shards(shards)
    out = out.resolve()
    if any(out == s.path for s in shards):
        raise InputError(f"--out {out} is one of the shards")
    if out.exists() and any(out.iterdir()):
        raise InputError(f"--out {out} is not empty")
    manifest = _header(shards[0].manifest, out)
    manifest.options = RunOptions.model_validate({**manifest.options.dump(), **(verdict or {})})
    compare_options_of(manifest)  # a bad override is refused before anything is written
    return write_merged(shards, out, manifest, write_report=write_report)


def write_merged(
    shards: list[ShardRun], out: Path, manifest: RunManifest, *, write_report: bool = True
) -> MergeOutcome:
    """Compare checked shards as one family and write the run folder ``out``.

    ``manifest`` is the folder's manifest (a new header, or the running ``ab`` run's own); the
    shards, their machines and the copied raw files are added to it in place.
    """
    shards = sorted(shards, key=lambda s: s.spec.index)
    result = compare_shards(shards, compare_options_of(manifest))
    machines = machines_by_entry(shards)
    (out / "jmh").mkdir(parents=True, exist_ok=True)
    steps = _copy_raw_files(shards, out)
    document = compare_document(result).model_copy(
        update={
            "run_dir": str(out),
            "machines": {s.machine: list(s.block.keys or []) for s in shards},
            "comparisons": [
                replace(c, extra={"machine": machines.get(c.key.entry(), "?")})
                for c in result.comparisons
            ],
        }
    )
    write_json_atomic(out / RESULTS, document.dump())
    if manifest.environment == Environment():
        manifest.environment = shards[0].manifest.environment.model_copy(deep=True)
    manifest.environment.machines = [
        (s.block.machine or Machine()).model_copy(update={"shard": s.spec.index}) for s in shards
    ]
    if manifest.plan is not None:
        manifest.plan = manifest.plan.model_copy(update={"steps": []})
    manifest.steps = steps
    manifest.shards = [
        MergedShard(
            index=s.spec.index,
            count=s.spec.count,
            run_dir=str(s.path),
            machine=s.block.machine,
            keys=list(s.block.keys or []),
            measured=[
                MeasuredEntry(benchmark=e.benchmark, mode=e.mode, params=e.params_dict)
                for e in sorted(s.entries())
            ],
            digest=s.block.digest,
            stopping=s.manifest.stopping,
        )
        for s in shards
    ]
    if manifest.merged is not None:
        manifest.merged.sources = [str(s.path) for s in shards]
    manifest.updated = now_iso()
    write_json_atomic(out / MANIFEST, manifest.dump())
    outcome = MergeOutcome(out, result, document, shards)
    if write_report:
        from perfproof.report import write_reports

        written = write_reports(out)
        outcome.report_path = next((p for p in written if p.suffix == ".md"), None)
    return outcome


def _copy_raw_files(shards: list[ShardRun], out: Path) -> list[StepEntry]:
    """Copy every shard's raw files as ``jmh/s<I>.<name>``; return their step entries."""
    steps: list[StepEntry] = []
    for shard in shards:
        for entry in shard.manifest.steps:
            if not entry.done:
                continue
            source = shard.path / str(entry.result or "")
            if not source.is_file():
                continue
            target = out / "jmh" / f"s{shard.spec.index}.{source.name}"
            shutil.copy2(source, target)
            steps.append(
                entry.model_copy(
                    update={
                        "id": f"s{shard.spec.index}.{entry.id or source.stem}",
                        "shard": shard.spec.index,
                        "machine": shard.machine,
                        "result": str(target.relative_to(out)),
                        "log": str(shard.path / entry.log) if entry.log else None,
                    }
                )
            )
    return steps


def _header(first: RunManifest, out: Path) -> RunManifest:
    """The merged folder's own manifest entries, taken from the first shard."""
    options = first.options.dump()
    options.pop("shard", None)
    return RunManifest(
        id=out.name or new_run_id(),
        perfproof_version=__version__,
        created=now_iso(),
        status=DONE,
        repo=first.repo,
        refs=dict(first.refs),
        command=list(first.command),
        build_spec=first.build_spec,
        plan=first.plan,
        options=RunOptions.model_validate(options),
        merged=Merged(at=now_iso()),
    )

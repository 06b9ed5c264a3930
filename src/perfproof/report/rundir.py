"""Read a run folder (manifest, results, raw JMH files, logs) into the typed values reports read.

A report must render from whatever a run left behind: a full ``ab`` run has a manifest with
builds and environment, a folder made from ``compare`` data has results and raw JMH files but
no build information, and an interrupted run may lack ``results.json`` (then the comparison is
recomputed from the raw files). Every optional piece is therefore optional here too; only an
unreadable or empty folder is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfproof.errors import InputError
from perfproof.jmh.entries import JmhEntry, read_entries
from perfproof.jmh.reader import load_json
from perfproof.model.documents import loads_strict
from perfproof.model.documents.compare import SCHEMA, CompareDocument
from perfproof.model.documents.run import SCHEMA as RUN_SCHEMA
from perfproof.model.documents.run import ManifestShapeError, RunManifest
from perfproof.model.documents.run_plan import PAIR
from perfproof.model.documents.variants import Variants

BASE = "base"
HEAD = "head"
SIDE_NAMES: dict[str, str] = {
    "base": BASE,
    "baseline": BASE,
    "a": BASE,
    "head": HEAD,
    "feature": HEAD,
    "b": HEAD,
}
"""File-name spellings of the two sides (``1-base.json``, ``2-feature.json``)."""

_ROUND_FILE = re.compile(r"^(?P<round>[^-]+)-(?P<side>[A-Za-z]+)(?:-(?P<part>\d+))?$")
"""``03-base.json``, and ``03-base-2.json`` for the second JMH process of a round split by
benchmark or by @Param values: a part belongs to its round and side like the first."""


@dataclass
class RawFile:
    """One raw JMH result file of one side and round."""

    path: Path
    side: str
    round: str
    entries: list[JmhEntry]


@dataclass
class RunFolder:
    """Everything a report reads from a run folder: the typed manifest and comparisons (each
    decoded once, here), the raw JMH files of each side and round, and the logs."""

    path: Path
    manifest: RunManifest
    """Empty for a folder made from ``compare`` data (no manifest.json)."""
    document: CompareDocument
    """The comparisons: results.json's, or recomputed from the raw files when it is absent."""
    raw: list[RawFile] = field(default_factory=list)
    logs: dict[str, list[Path]] = field(default_factory=dict)

    def raw_for(self, side: str) -> list[RawFile]:
        return [r for r in self.raw if r.side == side]


def _read_json(path: Path) -> Any:
    """Strict JSON (no NaN, no nesting deeper than any perfproof document), naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc}") from exc
    return loads_strict(text, str(path))


def side_of(stem: str) -> tuple[str, str] | None:
    """``"2-head"`` → ``("2", "head")``; names that are not round files → ``None``."""
    m = _ROUND_FILE.match(stem)
    if not m:
        return None
    side = SIDE_NAMES.get(m.group("side").lower())
    return (m.group("round"), side) if side else None


def _round_order(raw: RawFile) -> tuple[int, str, str]:
    digits = re.sub(r"\D", "", raw.round)
    return (int(digits) if digits else 0, raw.round, raw.side)


def find_compare_document(results: dict[str, object]) -> dict[str, object] | None:
    """The compare document inside results.json: top level, or nested under one key."""
    if isinstance(results.get("comparisons"), list):
        return results
    for value in results.values():
        if isinstance(value, dict) and isinstance(value.get("comparisons"), list):
            return value
    return None


def read_compare_document(results: dict[str, object], source: str) -> CompareDocument:
    """The typed comparisons of results.json (decoded once: a field of the wrong type is an
    error naming ``source`` and the field path); a document without a ``schema`` (written
    by hand, or nested by an older writer) is read as ``perfproof.compare/1``."""
    found = find_compare_document(results)
    if found is None:
        raise InputError(f"{source}: has no 'comparisons' list")
    doc = found if "schema" in found else {"schema": SCHEMA, **found}
    return CompareDocument.read(doc, source)


def load_raw_files(run_dir: Path, variants: Variants | None = None) -> list[RawFile]:
    """The raw JMH files by side and round. A run of two variants of one commit
    (``NN-pair.json``, both variants in one file) gives each file to both sides, each side
    seeing the entries of its own variant under JMH's own names."""
    raws: list[RawFile] = []
    jmh_dir = run_dir / "jmh"
    if not jmh_dir.is_dir():
        return raws
    for path in sorted(jmh_dir.glob("*.json")):
        named = side_of(path.stem)
        pair = _ROUND_FILE.match(path.stem)
        if named is None and not (variants and pair and pair.group("side") == PAIR):
            continue
        doc = load_json(path)  # JMH's reader: JMH writes NaN scores, which strict JSON refuses
        if not isinstance(doc, list):
            raise InputError(f"{path}: not a JMH result file (expected a JSON list)")
        entries = read_entries(doc)
        if named is not None:
            raws.append(RawFile(path, named[1], named[0], entries))
        elif variants is not None and pair is not None:
            raws += _pair_sides(path, pair.group("round"), entries, variants)
    raws.sort(key=_round_order)
    return raws


def _pair_sides(
    path: Path, round_no: str, entries: list[JmhEntry], variants: Variants
) -> list[RawFile]:
    sides: dict[str, list[JmhEntry]] = {BASE: [], HEAD: []}
    for entry in entries:
        side = variants.side_of(entry.key) if entry.key is not None else None
        if side is not None:
            sides[side].append(entry)
    return [RawFile(path, side, round_no, found) for side, found in sides.items()]


def load_logs(run_dir: Path) -> dict[str, list[Path]]:
    """JMH logs per side, keyed like the raw files (``logs/<round>-<side>*.log``)."""
    logs: dict[str, list[Path]] = {BASE: [], HEAD: []}
    log_dir = run_dir / "logs"
    if not log_dir.is_dir():
        return logs
    for path in sorted(log_dir.glob("*.log")):
        stem = path.stem.removeprefix("jmh-").removesuffix(".jmh").removesuffix("-jmh")
        named = side_of(stem)
        if named is not None:
            logs[named[1]].append(path)
    return logs


def load_run(run_dir: str | Path) -> RunFolder:
    """Load a run folder; recompute the comparison from raw files when results.json is absent."""
    path = Path(run_dir)
    if not path.is_dir():
        raise InputError(f"{path}: not a run folder (no such directory)")
    manifest_path = path / "manifest.json"
    manifest = read_manifest(manifest_path)
    raws = load_raw_files(path, manifest.variants)
    results_path = path / "results.json"
    if results_path.is_file():
        results = _read_json(results_path)
        if not isinstance(results, dict):
            raise InputError(f"{results_path}: expected a JSON object")
        # decoded before the logs are listed: a malformed field fails before anything else
        document = read_compare_document(results, str(results_path))
    elif raws:
        document = recompute(raws)
    else:
        raise InputError(f"{path}: no results.json and no raw JMH files under jmh/")
    return RunFolder(path, manifest, document, raws, load_logs(path))


def run_in_memory(path: Path, manifest: RunManifest, results: CompareDocument) -> RunFolder:
    """A run just measured, as its reports read it: the manifest and the typed results the
    pipeline holds (with the values results.json holds: non-finite numbers as null), the raw
    JMH files and logs from its folder; nothing written a moment ago is read back."""
    document = CompareDocument.read(results.dump(), str(path / "results.json"))
    raws = load_raw_files(path, manifest.variants)
    return RunFolder(path, manifest, document, raws, load_logs(path))


def read_manifest(path: Path) -> RunManifest:
    """The typed manifest of a run folder; an empty one when the folder has none (made from
    ``compare`` data by hand), a hand edit named by its field path."""
    if not path.is_file():
        return RunManifest()
    doc = _read_json(path)
    if not isinstance(doc, dict):
        raise InputError(f"{path}: expected a JSON object")
    try:
        return RunManifest.read({"schema": RUN_SCHEMA, **doc}, str(path))
    except ManifestShapeError as exc:
        raise InputError(f"{path}: {exc}") from None


def recompute(raws: list[RawFile]) -> CompareDocument:
    """The compare document for raw files, with the default options (no results.json yet),
    with the values results.json would hold (non-finite numbers as null)."""
    from perfproof.compare import CompareOptions, compare_sides
    from perfproof.compare import document as compare_document
    from perfproof.jmh.reader import read_results

    base = [r.path for r in raws if r.side == BASE]
    head = [r.path for r in raws if r.side == HEAD]
    if not base or not head:
        missing = "baseline" if not base else "feature"
        raise InputError(f"{raws[0].path.parent}: no {missing} JMH files and no results.json")
    result = compare_sides(read_results(base), read_results(head), CompareOptions())
    source = f"{raws[0].path.parent.parent / 'results.json'} (recomputed)"
    return CompareDocument.read(compare_document(result).dump(), source)

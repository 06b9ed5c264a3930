"""The repository index, cached by file content hash.

Every query reads and hashes the repository's ``.java`` files (cheap: tens of megabytes per
second) and parses only those whose content is not in the cache, in parallel across the
available cores. The cache is one pickle per repository under
``$XDG_CACHE_HOME/perfproof/code-index/`` keyed by content digest, so renames, branch
switches and worktrees of the same repository reuse entries, and an edit re-parses one file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from perfproof.code.classify import matches
from perfproof.code.index import digest, index_file
from perfproof.code.model import FileIndex
from perfproof.code.rules import RULES_VERSION
from perfproof.env.cache import cache_root
from perfproof.errors import InputError
from perfproof.storage import write_bytes_atomic

INDEX_VERSION = 14
"""Bump when the records or the extraction change."""
_PRUNE = frozenset({"target", "build", "out", "node_modules", "bin"})
_PARALLEL_FROM = 48
"""Below this many files to parse, starting worker processes costs more than it saves."""


def _format_key() -> str:
    try:
        grammar = version("tree-sitter-java")
    except PackageNotFoundError:  # pragma: no cover - installed with perfproof
        grammar = "?"
    return f"{INDEX_VERSION}.{RULES_VERSION}.{grammar}"


def pack_path(root: Path) -> Path:
    key = hashlib.blake2b(str(root.resolve()).encode(), digest_size=10).hexdigest()
    return cache_root() / "code-index" / f"{key}.pickle"


def java_files(root: Path, exclude: Sequence[str] = ()) -> list[str]:
    """Relative paths of the repository's Java sources, skipping VCS and build output."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/")
        under_src = "src" in rel_dir.split("/")
        dirnames[:] = sorted(
            d for d in dirnames if not d.startswith(".") and (under_src or d not in _PRUNE)
        )
        for name in sorted(filenames):
            if name.endswith(".java"):
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if not (exclude and matches(rel, exclude)):
                    found.append(rel)
    return found


def _parse_batch(root: str, paths: list[str]) -> list[FileIndex]:
    out = []
    for rel in paths:
        with open(os.path.join(root, rel), "rb") as fh:
            out.append(index_file(rel, fh.read()))
    return out


def _parse_batch_safe(root: str, paths: list[str]) -> list[FileIndex]:
    """Like :func:`_parse_batch` but a file that vanished since hashing is left out."""
    out = []
    for rel in paths:
        try:
            out.extend(_parse_batch(root, [rel]))
        except OSError:
            continue
    return out


def _load_pack(path: Path) -> dict[str, FileIndex]:
    try:
        with open(path, "rb") as fh:
            doc = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError):
        return {}
    if not isinstance(doc, dict) or doc.get("format") != _format_key():
        return {}
    entries = doc.get("entries")
    return entries if isinstance(entries, dict) else {}


def workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def load_index(
    root: Path,
    exclude: Sequence[str] = (),
    *,
    use_cache: bool = True,
    jobs: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[FileIndex]:
    """Index every Java file under ``root``, reusing cached entries for unchanged content."""
    root = Path(root)
    if not root.is_dir():
        raise InputError(f"--repo {root}: not a directory")
    paths = java_files(root, exclude)
    if not paths:
        raise InputError(f"--repo {root}: no .java files found")
    pack_file = pack_path(root)
    cached = _load_pack(pack_file) if use_cache else {}
    digests: dict[str, str] = {}
    result: dict[str, FileIndex] = {}
    missing: list[str] = []
    for rel in list(paths):
        try:
            with open(root / rel, "rb") as fh:
                key = digest(fh.read())
        except OSError:
            paths.remove(rel)  # unreadable (permissions, vanished): nothing to index
            continue
        digests[rel] = key
        hit = cached.get(key)
        if hit is not None:
            result[rel] = hit if hit.path == rel else hit.moved(rel)
        else:
            missing.append(rel)
    for done, parsed in enumerate(_parse(str(root), missing, jobs or workers()), start=1):
        result[parsed.path] = parsed
        if on_progress is not None:
            on_progress(done, len(missing))
    paths = [rel for rel in paths if rel in result]
    if use_cache and (missing or len(cached) != len(set(digests.values()))):
        entries = {digests[rel]: result[rel] for rel in paths}
        blob = pickle.dumps({"format": _format_key(), "entries": entries}, protocol=5)
        with contextlib.suppress(OSError):  # a read-only cache only costs speed
            write_bytes_atomic(pack_file, blob)
    return [result[rel] for rel in paths]


def _parse(root: str, paths: list[str], jobs: int):
    """Parsed files in any order; in worker processes when there are enough of them."""
    if jobs <= 1 or len(paths) < _PARALLEL_FROM:
        yield from _parse_batch_safe(root, paths)
        return
    size = max(8, min(64, len(paths) // (jobs * 8) or 1))
    batches = [paths[i : i + size] for i in range(0, len(paths), size)]
    done: set[str] = set()
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for batch in pool.map(_parse_batch_safe, [root] * len(batches), batches):
                done.update(f.path for f in batch)
                yield from batch
    except (BrokenProcessPool, OSError):
        # no worker processes here (a sandbox, a crashed worker): finish in this process
        yield from _parse_batch_safe(root, [p for p in paths if p not in done])

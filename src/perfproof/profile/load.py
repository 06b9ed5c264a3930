"""Profiles from the files a user names: JFR recordings or collapsed-stack text."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from perfproof.errors import InputError
from perfproof.profile.collapsed import parse_collapsed, read_collapsed
from perfproof.profile.jfr import JFR_MAGIC, is_jfr, read_recordings
from perfproof.profile.stacks import Profile


def expand(paths: list[Path]) -> list[Path]:
    """Folders stand for the recordings under them (an ``ab --jfr`` run's ``jfr/`` folder)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.rglob("*.jfr"))
            if not found:
                raise InputError(f"{p}: folder holds no .jfr recordings")
            out += found
        else:
            out.append(p)
    return out


def refuse_repeated(paths: list[Path], what: str) -> None:
    """One recording named twice on a side (or a copy of it) would count as two forks and
    shrink the interval to nothing: refused, naming both. Files are compared by content, so a
    copy or a link is caught as well as the same path twice; pipes are read once and skipped."""
    seen: dict[str, Path] = {}
    for p in paths:
        if not p.is_file():
            continue
        digest = hashlib.sha256()
        with open(p, "rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
        first = seen.setdefault(digest.hexdigest(), p)
        if first is not p:
            raise InputError(
                f"{what}: {p} is the same recording as {first}; each recording is one fork "
                "and must be given once"
            )


def load_profiles(
    paths: list[Path], java: str | None = None, alloc_leaf_is_class: bool = False
) -> list[Profile]:
    """One profile per file, in the order given; all JFR files go through one helper run.

    A pipe (``<(zcat app.collapsed.gz)``) or a device can be read only once and has no size,
    so its bytes are read here first; a JFR recording among them is spooled to a temporary
    file for the reader, collapsed stacks are parsed from memory.
    """
    paths = expand(paths)
    with tempfile.TemporaryDirectory(prefix="perfproof-profile-") as spool:
        sources: list[Path] = []
        texts: dict[int, str] = {}
        for i, p in enumerate(paths):
            if not p.exists():
                raise InputError(f"{p}: no such file")
            if p.is_file():
                if p.stat().st_size == 0:
                    raise InputError(f"{p}: empty file (not a JFR recording)")
                sources.append(p)
                continue
            data = _read_stream(p)
            if data.startswith(JFR_MAGIC):
                copy = Path(spool) / f"{i}.jfr"
                copy.write_bytes(data)
                sources.append(copy)
            else:
                texts[i] = _decode(data, p)
                sources.append(p)
        kinds = [i not in texts and is_jfr(src) for i, src in enumerate(sources)]
        recorded = iter(
            read_recordings([s for s, j in zip(sources, kinds, strict=True) if j], java)
        )
        out: list[Profile] = []
        for i, (p, j) in enumerate(zip(paths, kinds, strict=True)):
            if j:
                profile = next(recorded)
                profile.source = str(p)
            elif i in texts:
                profile = parse_collapsed(texts[i], str(p), alloc_leaf_is_class)
            else:
                profile = read_collapsed(p, alloc_leaf_is_class)
            out.append(profile)
        return out


def _read_stream(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not data:
        raise InputError(f"{path}: empty input (not a JFR recording nor collapsed stacks)")
    return data


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a JFR recording nor collapsed stacks (binary)") from None

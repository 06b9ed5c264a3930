"""Profiles from the files a user names: JFR recordings or collapsed-stack text."""

from __future__ import annotations

from pathlib import Path

from perfproof.errors import InputError
from perfproof.profile.collapsed import read_collapsed
from perfproof.profile.jfr import is_jfr, read_recordings
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


def load_profiles(
    paths: list[Path], java: str | None = None, alloc_leaf_is_class: bool = False
) -> list[Profile]:
    """One profile per file, in the order given; all JFR files go through one helper run."""
    paths = expand(paths)
    kinds: list[bool] = []
    for p in paths:
        if not p.is_file():
            raise InputError(f"{p}: no such file")
        if p.stat().st_size == 0:
            raise InputError(f"{p}: empty file (not a JFR recording)")
        kinds.append(is_jfr(p))
    recorded = iter(read_recordings([p for p, j in zip(paths, kinds, strict=True) if j], java))
    return [
        next(recorded) if j else read_collapsed(p, alloc_leaf_is_class)
        for p, j in zip(paths, kinds, strict=True)
    ]

"""The entry points the CLI calls: open a repository's index, ask for callers, scan."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.code.cache import load_index
from perfproof.code.callers import CallersResult, find_callers, find_target
from perfproof.code.classify import classify
from perfproof.code.project import Project
from perfproof.code.rules import RULES
from perfproof.code.scan import ScanResult, scan
from perfproof.code.weights import MethodWeights, from_profiles
from perfproof.errors import InputError

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Sources:
    """Which Java sources a question reads: the repository, the globs it leaves out or counts
    as production, and whether the index cache is used (``--repo``, ``--exclude``,
    ``--include``, ``--no-cache``: the same for ``callers`` and ``scan``)."""

    root: Path
    exclude: Sequence[str] = ()
    include: Sequence[str] = ()
    use_cache: bool = True
    on_progress: Progress | None = None
    """``done/total`` while a cold index parses."""

    def open(self) -> Project:
        return open_project(self.root, self.exclude, self.include, self.use_cache, self.on_progress)


def open_project(
    root: Path,
    exclude: Sequence[str] = (),
    include: Sequence[str] = (),
    use_cache: bool = True,
    on_progress: Progress | None = None,
) -> Project:
    files = load_index(root, exclude, use_cache=use_cache, on_progress=on_progress)
    return Project.build(files, {f.path: classify(f, include) for f in files})


def callers(sources: Sources, spec: str, arity: int | None = None) -> CallersResult:
    project = sources.open()
    target = find_target(project, spec, arity)
    return find_callers(project, target, root=sources.root)


def profile_weights(paths: Sequence[Path]) -> MethodWeights:
    """Weights from JFR recordings or collapsed-stack files, read by the profile package."""
    from perfproof.profile.load import load_profiles

    profiles = load_profiles(list(paths))
    if not any(p.cpu or p.alloc for p in profiles):
        raise InputError(f"--profile {paths[0]}: no CPU samples or allocation stacks")
    return from_profiles(profiles)


def scan_repo(
    sources: Sources, rules: Sequence[str] = (), profiles: Sequence[Path] = ()
) -> ScanResult:
    unknown = [r for r in rules if r not in RULES]
    if unknown:
        raise InputError(f"--rule {unknown[0]}: unknown rule (known: {', '.join(RULES)})")
    weights = profile_weights(profiles) if profiles else None
    return scan(sources.open(), sources.root, set(rules) or None, weights)

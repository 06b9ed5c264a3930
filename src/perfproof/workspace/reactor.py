"""Which folders of a Maven reactor a ``-pl MODULE -am`` build reads, and whether a change
between two commits touches any of them.

When it touches none, the two commits' builds of that module are the same build (the jar is
made from the same files by the same poms), so the base's build serves the head: on a big
reactor that saves one build of several minutes. The set is a superset, never a guess that
could leave a module out: a module is in it when the benchmark module's pom (or one already in
the set) names its artifactId anywhere (dependency, parent, plugin, import), and every file of
the repository belongs to the deepest folder holding a pom, so a file beside the root pom
belongs to the root module. Any changed pom, ``.mvn`` file or wrapper script, a property
standing for an artifactId, or a pom that cannot be read means no reuse.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from perfproof.workspace.build_reuse import changed_build_file

_SKIPPED_DIRS = frozenset({"target", "node_modules", "build"})
_BUILD_FILE_NAMES = frozenset({"pom.xml", "mvnw", "mvnw.cmd"})
_PROPERTY = re.compile(r"\$\{([^}]+)\}")


def pom_files(worktree: Path) -> list[Path]:
    """Every pom.xml of the worktree outside build outputs and hidden folders, in a stable order."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(worktree):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        if "pom.xml" in files:
            found.append(Path(folder) / "pom.xml")
    return found


@dataclass(frozen=True)
class Pom:
    """One module: its folder (relative, ``.`` for the root), artifactId and every artifactId
    its pom mentions."""

    folder: PurePosixPath
    artifact_id: str
    mentions: frozenset[str]


def read_reactor(worktree: Path) -> list[Pom] | None:
    """The modules of the worktree, or None when one pom cannot be read, a module names its own
    artifactId through a property, or a pom mentions an artifactId through a property that no
    pom defines (the closure could then miss a module). A property defined in several poms or
    profiles stands for every value it is given anywhere."""
    parsed = []
    properties: dict[str, set[str]] = {}
    for path in pom_files(worktree):
        try:
            root = ElementTree.parse(path).getroot()
        except (OSError, ElementTree.ParseError):
            return None
        parsed.append((path, root))
        for block in root.iter():
            if _local(block.tag) == "properties":
                for prop in block:
                    properties.setdefault(_local(prop.tag), set()).add((prop.text or "").strip())
    poms = []
    for path, root in parsed:
        own = next((c.text or "" for c in root if _local(c.tag) == "artifactId"), "").strip()
        if not own or "${" in own:
            return None
        mentions: set[str] = set()
        for e in root.iter():
            if _local(e.tag) == "artifactId":
                values = _expand((e.text or "").strip(), properties)
                if values is None:
                    return None
                mentions |= values
        folder = PurePosixPath(path.parent.relative_to(worktree).as_posix())
        poms.append(Pom(folder, own, frozenset(mentions - {own})))
    return poms


def _expand(text: str, properties: dict[str, set[str]]) -> set[str] | None:
    """Every value ``text`` can take with the properties substituted (None: one is unknown)."""
    found = _PROPERTY.search(text)
    if found is None:
        return {text}
    values = properties.get(found.group(1))
    if not values:
        return None
    out: set[str] = set()
    for value in values:
        if "${" in value:
            return None
        more = _expand(text[: found.start()] + value + text[found.end() :], properties)
        if more is None:
            return None
        out |= more
    return out


def _local(tag: str) -> str:
    """An element's name without its XML namespace."""
    return tag.rsplit("}", 1)[-1]


def included(poms: list[Pom], module: str) -> set[PurePosixPath] | None:
    """The folders of ``module`` and every reactor module it reaches by artifactId (None when
    ``module`` is not one of them)."""
    by_folder = {p.folder: p for p in poms}
    by_id = {p.artifact_id: p for p in poms}
    start = by_folder.get(PurePosixPath(PurePosixPath(module).as_posix()))
    if start is None:
        return None
    seen = {start.folder}
    todo = [start]
    while todo:
        for name in sorted(todo.pop().mentions):
            dep = by_id.get(name)
            if dep is not None and dep.folder not in seen:
                seen.add(dep.folder)
                todo.append(dep)
    return seen


def owner(path: str, folders: set[PurePosixPath]) -> PurePosixPath | None:
    """The deepest module folder holding ``path`` (None when none does)."""
    parts = PurePosixPath(path).parts
    for n in range(len(parts) - 1, -1, -1):
        folder = PurePosixPath(*parts[:n]) if n else PurePosixPath(".")
        if folder in folders:
            return folder
    return None


def is_build_file(path: str) -> bool:
    """A file that changes how any module is built: a pom, the wrapper, ``.mvn/``."""
    p = PurePosixPath(path)
    return p.name in _BUILD_FILE_NAMES or ".mvn" in p.parts


def blocking_change(worktree: Path, module: str, changed: list[str]) -> str | None:
    """Why the base's build of ``module`` cannot serve a head that differs by ``changed``
    files (None: it can). ``worktree`` is the base's checkout, read for its poms."""
    reason = changed_build_file(changed, is_build_file)
    if reason is not None or not changed:
        return reason
    poms = read_reactor(worktree)
    if poms is None:
        return "a pom could not be read, or names an artifactId through a property"
    folders = included(poms, module)
    if folders is None:
        return f"module {module!r} has no pom"
    every = {p.folder for p in poms}
    for path in changed:
        home = owner(path, every)
        if home is None or home in folders:
            where = "the root module" if home == PurePosixPath(".") else f"module {home}"
            return f"{path} is in {where}, which the build of {module} includes"
    return None

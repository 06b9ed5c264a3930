"""A pom read for the few questions perfproof asks before a build: its profiles, plugins and
their executions, its properties, and the chain of parents found on disk.

Maven's own model (the effective pom) needs Maven running and every parent downloaded; the
questions here (which profile compiles the benchmarks, which plugin needs which Maven, which
execution would start JMH) must be answered before the first build, from what is on disk:
the worktree's poms and the parents already in the local repository. A parent not there yet is
simply not read, so every answer is a "found", never a "there is none".
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

_PROPERTY = re.compile(r"\$\{([^}]+)\}")


def _strip(root: ElementTree.Element) -> ElementTree.Element:
    for e in root.iter():
        if isinstance(e.tag, str):
            e.tag = e.tag.rsplit("}", 1)[-1]
    return root


def read_pom(path: Path) -> ElementTree.Element | None:
    """The pom's root element with namespaces dropped (None when it cannot be read)."""
    try:
        return _strip(ElementTree.parse(path).getroot())
    except (OSError, ElementTree.ParseError):
        return None


def text(e: ElementTree.Element | None, path: str) -> str:
    """The stripped text at ``path`` under ``e`` ("" when absent)."""
    if e is None:
        return ""
    found = e.find(path)
    return (found.text or "").strip() if found is not None else ""


def local_repository() -> Path:
    """The local repository: ``maven.repo.local`` in ``MAVEN_OPTS``, else ``~/.m2/repository``."""
    found = re.search(r"-Dmaven\.repo\.local=(\S+)", os.environ.get("MAVEN_OPTS", ""))
    return Path(found.group(1)) if found else Path.home() / ".m2" / "repository"


def repository_file(group: str, artifact: str, version: str, ext: str) -> Path:
    """Where the local repository keeps ``group:artifact:version`` as ``ext`` (jar, pom)."""
    folder = local_repository().joinpath(*group.split("."), artifact, version)
    return folder / f"{artifact}-{version}.{ext}"


def chain(pom: Path) -> list[ElementTree.Element]:
    """``pom`` and its parents, nearest first, as far as they are on disk (the parent's folder
    by ``relativePath``, default ``../pom.xml``, when its coordinates match; else the local
    repository)."""
    out: list[ElementTree.Element] = []
    path: Path | None = pom
    while path is not None and len(out) < 16:
        root = read_pom(path)
        if root is None:
            break
        out.append(root)
        parent = root.find("parent")
        if parent is None:
            break
        coords = (text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"))
        rel = parent.find("relativePath")
        near = path.parent / (text(parent, "relativePath") if rel is not None else "../pom.xml")
        near = near / "pom.xml" if near.is_dir() else near
        here = read_pom(near) if near.is_file() else None
        if here is not None and _coords(here) == coords:
            path = near
        else:
            path = repository_file(*coords, "pom") if all(coords) else None
            path = path if path is not None and path.is_file() else None
    return out


def _coords(root: ElementTree.Element) -> tuple[str, str, str]:
    parent = root.find("parent")
    group = text(root, "groupId") or text(parent, "groupId")
    version = text(root, "version") or text(parent, "version")
    return group, text(root, "artifactId"), version


def properties(poms: list[ElementTree.Element]) -> dict[str, set[str]]:
    """Every value each property takes in the chain, its profiles included (a profile chosen by
    the JDK or the OS cannot be told apart here, so each of its values counts)."""
    out: dict[str, set[str]] = {}
    for root in poms:
        group, artifact, version = _coords(root)
        for name, value in (("project.version", version), ("project.groupId", group)):
            out.setdefault(name, set()).add(value)
        out.setdefault("project.artifactId", set()).add(artifact)
        for block in root.iter("properties"):
            for prop in block:
                if isinstance(prop.tag, str):
                    out.setdefault(prop.tag, set()).add((prop.text or "").strip())
    return out


def expand(value: str, props: dict[str, set[str]], depth: int = 0) -> set[str]:
    """Every value ``value`` can take with its properties substituted; one still naming an
    unknown property is left out."""
    found = _PROPERTY.search(value)
    if found is None:
        return {value}
    if depth > 8:
        return set()
    out: set[str] = set()
    for sub in props.get(found.group(1), set()):
        out |= expand(value[: found.start()] + sub + value[found.end() :], props, depth + 1)
    return out


@dataclass(frozen=True)
class Plugin:
    """A plugin as one pom declares it, and the profile it is declared in (None: the build)."""

    element: ElementTree.Element
    profile: str | None

    @property
    def group(self) -> str:
        return text(self.element, "groupId") or "org.apache.maven.plugins"

    @property
    def artifact(self) -> str:
        return text(self.element, "artifactId")

    @property
    def version(self) -> str:
        return text(self.element, "version")


def plugins(root: ElementTree.Element) -> Iterator[Plugin]:
    """The plugins of a pom's build and of each profile's build (management included)."""
    builds: list[tuple[ElementTree.Element | None, str | None]] = [(root.find("build"), None)]
    builds += [(p.find("build"), text(p, "id")) for p in root.iterfind("profiles/profile")]
    for build, profile in builds:
        if build is None:
            continue
        for path in ("plugins/plugin", "pluginManagement/plugins/plugin"):
            for element in build.iterfind(path):
                yield Plugin(element, profile)


def active_by_default(root: ElementTree.Element) -> set[str]:
    return {
        text(p, "id")
        for p in root.iterfind("profiles/profile")
        if text(p, "activation/activeByDefault") == "true"
    }

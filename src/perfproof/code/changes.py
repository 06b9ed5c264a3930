"""Which Java methods and constructors a commit range changed.

``git diff`` knows lines, a reviewer thinks in methods. Each changed Java file is parsed on
both sides with the same tree-sitter index the other ``code`` verbs use, and a method counts
as changed when a changed line range of its side falls inside its declaration (signature,
annotations or body). A method is matched across the two sides by its declaring type, name
and erased parameter types; a method found on one side only is ``added`` or ``removed``,
unless the other side has exactly one unmatched method of the same type and name whose span
was also touched, which is the same method with a changed signature (``modified``).

Test and benchmark sources are left out: the question is what production code changed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.code.classify import PRODUCTION, classify
from perfproof.code.index import index_file
from perfproof.code.model import FileIndex, MethodDecl
from perfproof.model.changes import ADDED, MODIFIED, REMOVED, ChangedMethod
from perfproof.workspace.git import git

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class LineRange:
    """Lines ``start``..``end`` (inclusive) of one side; ``end < start`` marks a point: the
    other side changed between line ``start - 1`` and ``start`` of this side."""

    start: int
    end: int

    def touches(self, first: int, last: int) -> bool:
        if self.end < self.start:  # an insertion/deletion point between two lines
            return first < self.start <= last
        return self.start <= last and first <= self.end


@dataclass
class FileDiff:
    """One changed file: its paths on both sides (None when added or deleted) and the changed
    line ranges of each side."""

    old_path: str | None
    new_path: str | None
    old_ranges: list[LineRange] = field(default_factory=list)
    new_ranges: list[LineRange] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""


@dataclass
class ChangeSet:
    """Everything the diff of a commit range says about Java code."""

    methods: list[ChangedMethod]
    """Changed production methods and constructors, in file and line order."""
    files: list[FileDiff]
    """Every changed ``.java`` file."""
    scopes: dict[str, str]
    """Changed ``.java`` path -> production, test or benchmark."""

    def in_scope(self, scope: str) -> list[str]:
        return sorted(p for p, s in self.scopes.items() if s == scope)

    @property
    def changed_classes(self) -> list[str]:
        return sorted({m.owner for m in self.methods})


def parse_diff(text: str) -> list[FileDiff]:
    """Changed line ranges per file from ``git diff -U0 --no-renames`` output."""
    files: list[FileDiff] = []
    current: FileDiff | None = None
    for line in text.splitlines():
        if line.startswith("diff --git "):
            current = FileDiff(None, None)
            files.append(current)
        elif current is None:
            continue
        elif line.startswith("--- "):
            current.old_path = _side_path(line[4:], "a/")
        elif line.startswith("+++ "):
            current.new_path = _side_path(line[4:], "b/")
        elif line.startswith("@@"):
            m = _HUNK.match(line)
            if m is None:
                continue
            old_start, old_len = int(m.group(1)), int(m.group(2) or 1)
            new_start, new_len = int(m.group(3)), int(m.group(4) or 1)
            current.old_ranges.append(_range(old_start, old_len))
            current.new_ranges.append(_range(new_start, new_len))
    return [f for f in files if f.old_path or f.new_path]


def _side_path(text: str, prefix: str) -> str | None:
    text = text.rstrip("\t")
    if text == "/dev/null":
        return None
    if text.startswith('"'):
        text = text[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()
    return text[len(prefix) :] if text.startswith(prefix) else text


def _range(start: int, length: int) -> LineRange:
    """Git's ``-a,0`` means "after line a": the point before line ``a + 1``."""
    if length == 0:
        return LineRange(start + 1, start)
    return LineRange(start, start + length - 1)


def touched(methods: Iterable[MethodDecl], ranges: list[LineRange]) -> list[MethodDecl]:
    """Methods and constructors whose declaration overlaps a changed range."""
    kinds = ("method", "constructor")
    return [
        m for m in methods if m.kind in kinds and any(r.touches(m.line, m.end_line) for r in ranges)
    ]


def _show(repo: Path, sha: str, path: str) -> bytes | None:
    res = git(repo, "show", f"{sha}:{path}", check=False, what="git show")
    return res.output.encode("utf-8") if res.ok else None


def _methods(f: FileIndex | None) -> list[MethodDecl]:
    return [m for m in f.methods if m.kind in ("method", "constructor")] if f else []


def compare_methods(
    diff: FileDiff, base: FileIndex | None, head: FileIndex | None
) -> list[ChangedMethod]:
    """The changed methods of one file, from both sides' indexes and the changed ranges."""
    old = {(m.owner, m.name, m.params): m for m in _methods(base)}
    new = {(m.owner, m.name, m.params): m for m in _methods(head)}
    hit_old = {(m.owner, m.name, m.params) for m in touched(old.values(), diff.old_ranges)}
    hit_new = {(m.owner, m.name, m.params) for m in touched(new.values(), diff.new_ranges)}
    named = Counter(k[:2] for k in old)  # a recording tells no overload of a name apart
    out: dict[tuple, ChangedMethod] = {}
    for key in sorted(hit_old | hit_new, key=lambda k: (k[0], k[1], k[2])):
        b, h = old.get(key), new.get(key)
        if b is not None and h is not None:
            out[key] = _changed(key, MODIFIED, diff, b, h, named[key[:2]])
    only_old = sorted(k for k in hit_old if k not in new)
    only_new = sorted(k for k in hit_new if k not in old)
    for key in list(only_old):
        twins = [k for k in only_new if k[:2] == key[:2]]
        if len(twins) == 1 and len([k for k in only_old if k[:2] == key[:2]]) == 1:
            out[twins[0]] = _changed(
                twins[0], MODIFIED, diff, old[key], new[twins[0]], named[key[:2]], True
            )
            only_new.remove(twins[0])
            only_old.remove(key)
    for key in only_old:
        out[key] = _changed(key, REMOVED, diff, old[key], None, named[key[:2]])
    for key in only_new:
        out[key] = _changed(key, ADDED, diff, None, new[key], named[key[:2]])
    return sorted(out.values(), key=lambda c: (c.file, c.lines[0], c.name))


def _changed(
    key: tuple,
    kind: str,
    diff: FileDiff,
    b: MethodDecl | None,
    h: MethodDecl | None,
    overloads: int,
    signature: bool = False,
) -> ChangedMethod:
    base_lines = (b.line, b.end_line) if b else None
    head_lines = (h.line, h.end_line) if h else None
    where = head_lines or base_lines or (0, 0)
    file = (diff.new_path if h else diff.old_path) or diff.path
    return ChangedMethod(
        key[0], key[1], key[2], kind, file, where, base_lines, head_lines, signature, overloads
    )


def changed_methods(repo: Path, base_sha: str, head_sha: str) -> ChangeSet:
    """The production methods changed between two commits, and the scope of every changed
    Java file (tests and benchmarks are listed by file, never as changed methods)."""
    text = git(
        repo,
        "diff",
        "-U0",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        f"{base_sha}..{head_sha}",
        "--",
        "*.java",
        what="git diff",
    ).output
    files = parse_diff(text)
    methods: list[ChangedMethod] = []
    scopes: dict[str, str] = {}
    for d in files:
        base = _index(repo, base_sha, d.old_path)
        head = _index(repo, head_sha, d.new_path)
        indexed = head or base
        scope = classify(indexed) if indexed is not None else PRODUCTION
        scopes[d.path] = scope
        if scope == PRODUCTION:
            methods.extend(compare_methods(d, base, head))
    return ChangeSet(methods, files, scopes)


def _index(repo: Path, sha: str, path: str | None) -> FileIndex | None:
    if path is None:
        return None
    src = _show(repo, sha, path)
    return index_file(path, src) if src is not None else None

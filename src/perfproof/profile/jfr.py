"""JFR recordings into :class:`Profile` objects, through the Java helper's compact output."""

from __future__ import annotations

from pathlib import Path

from perfproof.env.java import HOW_TO_POINT, find_java, java_info
from perfproof.errors import ExternalError, InputError
from perfproof.profile.jdk import run_helper
from perfproof.profile.stacks import (
    ALLOC_SOURCES,
    Profile,
    Stack,
    normalize_class,
    normalize_frame,
)

JFR_MAGIC = b"FLR\0"
RECORDER_ROOT = "jdk.jfr.internal."
"""Stacks rooted here are JFR's own work. The first allocation sample of a thread weighs
everything the thread allocated before it, so the sample JFR takes while starting the
recording carries the whole JVM start-up (tens of MB on a JMH fork) and would top the census."""


def is_jfr(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == JFR_MAGIC


class _Reader:
    """Turns the helper's line protocol into profiles, one per ``R … E`` section."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.raw: list[str] = []
        self.classes: dict[int, str] = {}
        self.profiles: list[Profile] = []
        self.current: Profile | None = None
        self.by_source: dict[str, dict[tuple[Stack, str], int]] = {}
        self.events_by_source: dict[str, int] = {}
        self.meta: dict[str, int] = {}

    def class_name(self, i: int) -> str:
        name = self.classes.get(i)
        if name is None:
            name = self.classes[i] = normalize_class(self.raw[i])
        return name

    def stack(self, ids: str) -> Stack:
        names = self.names
        return tuple(names[int(i)] for i in ids.split(",")) if ids else ()

    def line(self, line: str) -> None:
        tag = line[:2]
        if tag == "N\t":
            _, _, text = line.split("\t", 2)
            self.raw.append(text)
            self.names.append(normalize_frame(text))
        elif tag == "C\t":
            _, weight, ids = line.split("\t")
            stack = self.stack(ids)
            if self.current is None:
                raise ValueError("a CPU sample before any recording header")
            cpu = self.current.cpu
            cpu[stack] = cpu.get(stack, 0) + int(weight)
        elif tag == "A\t":
            _, source, weight, events, cls, ids = line.split("\t")
            key = (self.stack(ids), self.class_name(int(cls)))
            agg = self.by_source.setdefault(source, {})
            agg[key] = agg.get(key, 0) + int(weight)
            self.events_by_source[source] = self.events_by_source.get(source, 0) + int(events)
        elif tag == "M\t":
            _, name, value = line.split("\t")
            self.meta[name] = int(value)
        elif tag == "R\t":
            _, _, path = line.split("\t", 2)
            self.current = Profile(source=path)
            self.by_source, self.events_by_source, self.meta = {}, {}, {}
        elif tag == "E\t":
            self.finish()

    def finish(self) -> None:
        p = self.current
        assert p is not None
        # One allocation source only: the sampled event already stands for all allocations,
        # and adding TLAB events on top would count the same bytes twice.
        chosen = [s for s in ("S", "T", "O") if s in self.by_source]
        if "S" in chosen:
            chosen = ["S"]
        for s in chosen:
            for key, w in self.by_source[s].items():
                if key[0] and key[0][0].startswith(RECORDER_ROOT):
                    p.recorder_alloc_bytes += w
                    continue
                p.alloc[key] = p.alloc.get(key, 0) + w
            p.alloc_events += self.events_by_source.get(s, 0)
        if chosen:
            p.alloc_source = "+".join(ALLOC_SOURCES[s] for s in chosen)
        p.truncated_stacks = self.meta.get("truncated", 0)
        p.max_depth = self.meta.get("max_depth", 0)
        if "first_ms" in self.meta:
            p.duration_s = (self.meta["last_ms"] - self.meta["first_ms"]) / 1000.0
        self.profiles.append(p)
        self.current = None


def read_recordings(paths: list[Path], java: str | None = None) -> list[Profile]:
    """Census aggregates of each recording, in order, from one run of the helper."""
    if not paths:
        return []
    reader = _Reader()
    executable = find_java(java)
    if java is not None:
        java_info(java)  # a --java that does not answer as a JVM is the user's input at fault
    run_helper(executable, paths, reader.line)
    if len(reader.profiles) != len(paths):
        # the program ran and exited 0 but did not answer for every recording: not a JVM
        missing = paths[len(reader.profiles)]
        what = f"{executable} read no census of {missing}"
        if java is not None:
            raise InputError(f"--java {java}: {what}; is it a java executable? ({HOW_TO_POINT})")
        raise ExternalError(f"JFR reader: {what}")
    for p, path in zip(reader.profiles, paths, strict=False):
        p.source = str(path)
    return reader.profiles

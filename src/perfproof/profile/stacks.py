"""The aggregates one profile is made of: whole stacks with their CPU samples or bytes.

A recording (or a collapsed-stack file) becomes one :class:`Profile`. Everything after
parsing (census, diff, collapsed output, flame graphs) works on these, so a profile from
async-profiler's collapsed output and one from JFR are treated alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Stack = tuple[str, ...]
"""Method frames, root first, as ``package.Class.method``."""

ALLOC_SOURCES: dict[str, str] = {
    "S": "jdk.ObjectAllocationSample",
    "T": "jdk.ObjectAllocationInNewTLAB",
    "O": "jdk.ObjectAllocationOutsideTLAB",
}

# Hidden lambda classes carry a per-run counter and address; without them the same lambda
# gets one name in every recording, so recordings can be compared and merged.
_LAMBDA = re.compile(r"\$\$Lambda\$\d+(?:[+/]0x[0-9a-fA-F]+)?(?:\.\d+)?")


def normalize_frame(name: str) -> str:
    """One spelling per method whatever tool wrote it (``a/b/C.m`` or JFR's lambda names)."""
    name = _LAMBDA.sub("$$Lambda", name)
    if "/" in name and " " not in name:
        name = name.replace("/", ".")
    return name


def source_name(frame: str) -> str:
    """A frame spelled as the source index spells a method (``pkg.Outer.Inner.m``): JFR names
    a nested class ``Outer$Inner``, the index ``Outer.Inner``, so a changed method of a nested
    class is matched against recordings in this spelling on both sides."""
    return frame.replace("$", ".")


@dataclass
class Profile:
    """One recording's stacks: CPU samples per stack and allocated bytes per stack and class."""

    source: str
    cpu: dict[Stack, int] = field(default_factory=dict)
    alloc: dict[tuple[Stack, str], int] = field(default_factory=dict)
    alloc_events: int = 0
    alloc_source: str | None = None
    truncated_stacks: int = 0
    max_depth: int = 0
    duration_s: float | None = None
    recorder_alloc_bytes: int = 0
    """Bytes JFR's own recorder was sampled allocating, left out of ``alloc``."""

    @property
    def cpu_samples(self) -> int:
        return sum(self.cpu.values())

    @property
    def alloc_bytes(self) -> int:
        return sum(self.alloc.values())

    @property
    def stack_events(self) -> int:
        return sum(self.cpu.values()) + self.alloc_events


_PRIMITIVES = {
    "Z": "boolean",
    "B": "byte",
    "C": "char",
    "S": "short",
    "I": "int",
    "J": "long",
    "F": "float",
    "D": "double",
}


def normalize_class(name: str) -> str:
    """Java source spelling of a class name: JFR reports arrays as descriptors (``[J``)."""
    dims = len(name) - len(name.lstrip("["))
    if dims == 0:
        return normalize_frame(name)
    element = name[dims:]
    if element.startswith("L") and element.endswith(";"):
        element = element[1:-1]
    else:
        element = _PRIMITIVES.get(element, element)
    return normalize_frame(element.replace("/", ".")) + "[]" * dims


def frame_matches(frame: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a frame lies in one of the focus packages, classes or methods (``com.acme``
    matches ``com.acme.X.m``). Both are compared in source spelling (:func:`source_name`): a
    changed method's owner says ``Outer.Inner`` where JFR says ``Outer$Inner``, and a focus on
    a nested class's method that only matched the one spelling would find none of its samples."""
    name = source_name(frame)
    for p in prefixes:
        q = source_name(p)
        if name.startswith(q) and (len(name) == len(q) or q[-1] == "." or name[len(q)] == "."):
            return True
    return False


def focus_frame(stack: Stack, prefixes: tuple[str, ...]) -> str | None:
    """The leaf-most frame of the stack inside the focus packages, if any."""
    if not prefixes:
        return None
    for frame in reversed(stack):
        if frame_matches(frame, prefixes):
            return frame
    return None


def normalize_prefix(prefix: str) -> str:
    return prefix.strip().replace("/", ".")

"""Why a reactor build failed, in the user's terms: which module, what kind of cause, which
flag usually gets past it.

``-pl M -am`` builds every module the benchmarks need, and on big projects one of them is often
something the benchmarks never use at run time: a JNI module compiling C, a code generator
fetching sources from a snapshot repository, a plugin that wants a newer Maven. The compile
error itself (:mod:`.build_errors`) rarely says that; the kind of cause does, and it points at
the flag that skips or fixes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from perfproof.workspace.build_errors import without_colours

_ON_PROJECT = re.compile(r"\bon project ([\w.\-]+)")
_REACTOR_FAILURE = re.compile(r"^\[INFO\][ \t]+(\S.*?)[ \t]+\.{2,}[ \t]*FAILURE\b", re.M)
_GRADLE_TASK = re.compile(r"Execution failed for task '(:[^']*?):[\w]+'")


@dataclass(frozen=True)
class CauseClass:
    """A kind of build failure: the log lines that show it and what to try."""

    name: str
    pattern: re.Pattern[str]
    remedy: str


CLASSES = (
    CauseClass(
        "native toolchain",
        re.compile(
            r"jni\.h: No such file|fatal error: [\w/.\-]+\.h: No such file|"
            r"gcc: (error|command not found)|cc: command not found|make(\[\d+\])?: \*\*\*|"
            r"No CMAKE_C(XX)?_COMPILER|configure: error|autoreconf: not found|"
            r"libtool: (not found|command not found)|exec-maven-plugin.*compile-native",
            re.I,
        ),
        "a module compiles native code: skip it with the profile that builds it "
        "(--build-arg=-P!PROFILE) or its -D...skip property",
    ),
    CauseClass(
        "unreachable repository",
        re.compile(
            r"Could not transfer artifact|Could not resolve dependencies|"
            r"Could not resolve plugin|Plugin .* could not be resolved|"
            r"Non-resolvable (parent POM|import POM)|UnknownHostException|Unknown host|"
            r"Connection refused|Connect to \S+ .*failed|Network is unreachable|"
            r"Could not (GET|HEAD) '|Could not resolve all (files|dependencies)",
            re.I,
        ),
        "a repository cannot be reached: if ~/.m2 already holds what the build needs, add "
        "--build-arg=-o; otherwise declare a reachable mirror in ~/.m2/settings.xml",
    ),
    CauseClass(
        "plugin needs another Maven or JDK",
        re.compile(
            r"requires Maven version|Detected (Maven|JDK) Version: .* is not in the allowed|"
            r"Unsupported class file major version|release version \d+ not supported|"
            r"invalid target release|class file has wrong version|UnsupportedClassVersionError|"
            r"Unsupported Java\. |requires a Java version|The plugin .* requires Maven",
            re.I,
        ),
        "a plugin wants another Maven or JDK: put a matching Maven on PATH (or --maven wrapper "
        "for the project's pinned one), or pass --java with a matching JDK",
    ),
    CauseClass(
        "tests",
        re.compile(r"There are test failures|There were test failures|Tests run:.*Failures: [1-9]"),
        "a module runs its tests anyway: add --build-arg=-Dmaven.test.skip=true",
    ),
)


@dataclass(frozen=True)
class BuildCause:
    """The failing module (when the log names one), the cause class and the remedy."""

    module: str | None
    cause: CauseClass
    evidence: str

    def advice(self) -> str:
        where = f"module {self.module} failed" if self.module else "the build failed"
        return f"{where} ({self.cause.name}: {self.evidence}); {self.cause.remedy}"


def diagnose(log_text: str) -> BuildCause | None:
    """The first known cause class in a failed build's log, with the module it failed in."""
    text = without_colours(log_text)
    for cls in CLASSES:
        match = cls.pattern.search(text)
        if match:
            line_start = text.rfind("\n", 0, match.start()) + 1
            line_end = text.find("\n", match.end())
            line = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            return BuildCause(failing_module(text), cls, _short(line))
    return None


def failing_module(log_text: str) -> str | None:
    """The module Maven's goal error names (its artifactId, what ``-pl`` takes), else the
    reactor summary's display name, else Gradle's failing task's project."""
    for line in log_text.splitlines():
        if line.startswith("[ERROR] Failed to execute goal"):
            found = _ON_PROJECT.search(line)
            if found:
                return found.group(1).rstrip(":")
    summary = _REACTOR_FAILURE.search(log_text)
    if summary:
        return summary.group(1).strip()
    task = _GRADLE_TASK.search(log_text)
    return task.group(1) if task else None


def _short(line: str, limit: int = 160) -> str:
    line = re.sub(r"^\[(ERROR|WARNING|INFO)\]\s*", "", line)
    return line if len(line) <= limit else line[: limit - 1] + "…"

"""The line of a failed build's log that says why it failed.

A build log runs to thousands of lines; the error a user needs (a compile error, an
unresolvable dependency) is usually one of them. Naming it in the one-line error saves opening
the log for the common cases; the log path is still given for the rest.
"""

from __future__ import annotations

import re
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_MAVEN_ERROR = re.compile(r"^\[ERROR\]\s*(.*\S)")
_JAVAC_ERROR = re.compile(r"^(?:e: )?(\S+\.(?:java|kt|scala|groovy):\[?\d+.*\berror\b.*)")
_MAVEN_NOISE = re.compile(
    r"^(COMPILATION ERROR|BUILD FAILURE|-> \[Help|Re-run Maven|To see the full stack|"
    r"For more information|After correcting|\[Help \d|Failed to execute goal)"
)
_MAX = 300


def without_colours(log_text: str) -> str:
    """A build log as plain text: Maven and Gradle colour what they write when they take the
    log for a terminal, and the escapes would split the words the readers look for."""
    return _ANSI.sub("", log_text)


def first_error(log_text: str, root: Path | None = None) -> str | None:
    """The first specific error line of a Maven or Gradle log, paths shown relative to
    ``root``; Maven's generic "Failed to execute goal" line when there is nothing better."""
    fallback: str | None = None
    lines = [raw.rstrip() for raw in without_colours(log_text).splitlines()]
    for i, line in enumerate(lines):
        found: str | None = None
        maven = _MAVEN_ERROR.match(line)
        if maven:
            text = maven.group(1)
            if not _MAVEN_NOISE.match(text):
                found = text
            elif fallback is None and text.startswith("Failed to execute goal"):
                fallback = text
        elif javac := _JAVAC_ERROR.match(line):
            found = javac.group(1)
        elif line.strip() == "* What went wrong:":
            found = next((n.strip() for n in lines[i + 1 :] if n.strip()), None)
        if found:
            return _tidy(found, root)
    return _tidy(fallback, root) if fallback else None


def _tidy(text: str, root: Path | None) -> str:
    if root is not None:
        text = text.replace(f"{root}/", "")
    return text if len(text) <= _MAX else text[: _MAX - 1] + "…"

"""The exceptions that carry perfproof's exit codes.

Every verb reports failure by raising one of these; the CLI turns it into a single line on
stderr and the documented exit code, so agents and CI can rely on the codes and users never
see a traceback for a problem that is theirs to fix.
"""

from __future__ import annotations

from pathlib import Path

EXIT_GATE = 1
EXIT_INPUT = 2
EXIT_EXTERNAL = 3


class PerfproofError(Exception):
    """Base of all errors perfproof reports to the user as one line."""

    exit_code: int = EXIT_INPUT


class InputError(PerfproofError):
    """Bad input or usage: a missing or malformed file, an unknown ref, a bad flag value."""

    exit_code = EXIT_INPUT


class ExternalError(PerfproofError):
    """An external step failed (build, JMH, git, a JVM); the message names the log to read."""

    exit_code = EXIT_EXTERNAL

    def __init__(self, message: str, log_path: Path | None = None) -> None:
        if log_path is not None:
            message = f"{message} (log: {log_path})"
        super().__init__(message)
        self.log_path = log_path


class GateFailed(PerfproofError):
    """A gate the user asked for failed, e.g. ``--fail-on-regression`` saw a regression."""

    exit_code = EXIT_GATE


def unreadable(path: Path | str, exc: OSError | UnicodeDecodeError, expected: str) -> InputError:
    """Why a file the user named cannot be read as text, in one line naming it: the same
    words for every verb's input (a missing file, a folder, bytes that are not UTF-8)."""
    if isinstance(exc, FileNotFoundError):
        return InputError(f"{path}: no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(f"{path}: is a folder, expected {expected}")
    if isinstance(exc, UnicodeDecodeError):
        return InputError(f"{path}: not UTF-8 text, expected {expected}")
    if isinstance(exc, PermissionError):
        return InputError(f"{path}: permission denied")
    return InputError(f"{path}: cannot read: {exc.strerror or exc}")

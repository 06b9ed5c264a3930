"""What the CLI does with an exception that is not a :class:`PerfproofError`: a bug.

A bug must never look like bad input (exit 2 tells an agent to fix its arguments and try
again, which cannot help), so it gets an exit code of its own, 4, and one line that says it is
perfproof's fault. The traceback goes to a crash log in perfproof's cache (the one place besides
the run folder perfproof writes to) and is printed as well under ``--debug`` or
``PERFPROOF_DEBUG=1``, so the line stays one line for CI logs while nothing is lost.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

from perfproof import __version__
from perfproof.env.cache import cache_root
from perfproof.storage import write_text_atomic

EXIT_INTERNAL = 4


def debug_requested(argv: list[str]) -> bool:
    """``--debug`` before the verb, or ``PERFPROOF_DEBUG`` set to anything but 0/empty."""
    flag = os.environ.get("PERFPROOF_DEBUG", "").strip()
    return (flag not in ("", "0")) or "--debug" in argv[: _verb_index(argv)]


def _verb_index(argv: list[str]) -> int:
    for i, arg in enumerate(argv):
        if not arg.startswith("-"):
            return i
    return len(argv)


def write_crash_log(exc: BaseException, argv: list[str]) -> Path | None:
    """The traceback, the argv and the version in ``<cache>/crashes/<time>-<pid>.log``;
    ``None`` when even that cannot be written (the message then says so)."""
    text = "".join(
        [
            f"perfproof {__version__} on Python {sys.version.split()[0]}\n",
            f"argv: {argv!r}\n\n",
            *traceback.format_exception(exc),
        ]
    )
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = cache_root() / "crashes" / f"{stamp}-{os.getpid()}.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
    except OSError:
        return None
    return path


def internal_error_line(exc: BaseException, log: Path | None) -> str:
    """The one stderr line of a bug: what broke, that it is perfproof's, where the rest is."""
    where = f"traceback in {log}" if log else "run again with --debug for the traceback"
    return (
        f"perfproof: internal error: {type(exc).__name__}: {exc} (a bug in perfproof, not in "
        f"your input; {where}; please report it)"
    )

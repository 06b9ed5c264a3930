"""Finding the user's JDK and running the JFR helper with it, compiled once into the cache.

The helper is compiled on first use and kept under ``$XDG_CACHE_HOME/perfproof`` keyed by the
source's hash and the JDK's version, because a single-file source launch recompiles on every
call (about a second of a short census). A JDK without ``javac`` still works through the
source launcher.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from perfproof.env.cache import cache_root
from perfproof.env.java import HOW_TO_POINT, java_version_key, javac_of
from perfproof.errors import ExternalError, InputError
from perfproof.process import Command, Watch, run

HELPER = "JfrCensus"
"""The census reader; ``JfrJit`` reads the compiler's events (:mod:`perfproof.profile.jit`)."""


def helper_source(helper: str = HELPER) -> str:
    return (resources.files("perfproof.profile") / "java" / f"{helper}.java").read_text("utf-8")


def helper_command(java: Path, helper: str = HELPER) -> list[str]:
    """The argv prefix that runs a helper: compiled class from the cache if javac exists."""
    source = helper_source(helper)
    digest = hashlib.sha256((source + "\0" + java_version_key(java)).encode()).hexdigest()[:16]
    jvm = [str(java), "-XX:+UseSerialGC"]
    target = cache_root() / "jfr-helper" / digest
    if (target / f"{helper}.class").is_file():
        return [*jvm, "-cp", str(target), helper]
    javac = javac_of(java)
    if javac is None:
        return _source_launch(jvm, source, helper)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        src = work / f"{helper}.java"
        src.write_text(source, "utf-8")
        out = work / "classes"
        result = run(Command([javac, "-d", out, src]), Watch(what="javac", timeout=300))
        if not result.ok:
            detail = result.output.strip().splitlines()[-1:] or ["no output"]
            raise InputError(
                f"{javac}: cannot compile perfproof's JFR reader, which needs JDK 17 or newer "
                f"({detail[0][:120]}); {HOW_TO_POINT}"
            )
        try:
            os.replace(out, target)
        except OSError:
            if not (target / f"{helper}.class").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return [*jvm, "-cp", str(target), helper]


def _source_launch(jvm: list[str], source: str, helper: str) -> list[str]:
    folder = cache_root() / "jfr-helper" / "source"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{helper}.java"
    if not path.is_file() or path.read_text("utf-8") != source:
        path.write_text(source, "utf-8")
    return [*jvm, str(path)]


def run_helper(
    java: Path,
    files: list[Path],
    on_line: Callable[[str], None],
    helper: str = HELPER,
    args: tuple[str, ...] = (),
) -> None:
    """Run a helper over ``files`` (after its ``args``), feeding each stdout line to ``on_line``.

    A bad recording makes the helper print ``perfproof-jfr: KIND: path: detail`` and exit 2,
    which becomes an :class:`InputError` naming the file and what to do.
    """
    argv = [*helper_command(java, helper), *args, *[str(f) for f in files]]
    errors: list[str] = []

    def route(line: str) -> None:
        if line.startswith("perfproof-jfr: "):
            errors.append(line)
        else:
            on_line(line)

    result = run(Command(argv), Watch(what="JFR reader", on_line=route, capture=False))
    if errors:
        raise InputError(_explain(errors[-1]))
    if not result.ok:
        raise ExternalError(f"JFR reader failed with exit code {result.returncode}")


def _explain(line: str) -> str:
    body = line[len("perfproof-jfr: ") :]
    kind, _, rest = body.partition(": ")
    path, _, detail = rest.partition(": ")
    if kind == "NOT_JFR":
        return f"{path}: not a JFR recording ({detail}; record one with `perfproof record`)"
    if kind == "TRUNCATED":
        return (
            f"{path}: truncated JFR recording ({detail}); the file was cut short (an "
            "unfinished copy, a full disk, a JVM killed while dumping): copy or record it again"
        )
    if kind == "MISSING":
        return f"{path}: no such file"
    return f"{path}: corrupt JFR recording ({detail}); record it again"

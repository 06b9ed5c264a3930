"""Which JVM a side runs on, asked of the JVM itself.

Comparing a baseline on one JDK with a head on another measures the JDKs, not the change, so
both sides are described the same way (``java -XshowSettings:properties -version``, which every
JDK since 8 understands and which prints the real ``java.home`` behind any launcher symlink) and
checked to be equal before anything runs.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.model.documents.run import JavaInfo
from perfproof.process import Command, Watch, run

HOW_TO_POINT = "put a JDK 17+ on PATH, set JAVA_HOME, or pass --java /path/to/bin/java"


def find_java(java: str | os.PathLike[str] | None = None, flag: str = "--java") -> Path:
    """The java executable: ``java`` (an executable, a name on PATH or a JDK folder), else
    ``$JAVA_HOME/bin/java``, else ``java`` on PATH; the real path behind any symlink.

    Every verb finds its JVM here, so ``--java /opt/jdk-21`` means the same to ``ab``,
    ``profile`` and ``record``.
    """
    if java is not None and str(java).strip():
        text = str(java)
        p = Path(text)
        if p.is_dir():
            p = p / "bin" / "java"
        elif os.sep not in text:
            found = shutil.which(text)
            p = Path(found) if found else p
        if not (p.is_file() and os.access(p, os.X_OK)):
            raise InputError(f"{flag} {java}: not an executable java ({HOW_TO_POINT})")
        return Path(os.path.realpath(p))
    home = os.environ.get("JAVA_HOME", "").strip()
    if home:
        p = Path(home) / "bin" / "java"
        if p.is_file() and os.access(p, os.X_OK):
            return Path(os.path.realpath(p))
    found = shutil.which("java")
    if found is None:
        raise InputError(f"no JDK found: {HOW_TO_POINT}")
    return Path(os.path.realpath(found))


def java_info(java: str | None = None, flag: str = "--java") -> JavaInfo:
    """Describe the JVM started by ``java`` (a path, a JDK folder or a name on PATH).

    An executable the user named that does not answer as a JVM (``--java /bin/false``) is
    their input at fault (exit 2 naming the flag), not a failed step later on."""
    exe = str(find_java(java, flag))
    if java is None or not str(java).strip():
        return _java_info(exe)
    try:
        return _java_info(exe)
    except ExternalError as exc:
        raise InputError(f"{flag} {java}: not a JVM ({exc}); {HOW_TO_POINT}") from None


@functools.lru_cache(maxsize=16)
def _java_info(exe: str) -> JavaInfo:
    command = Command([exe, "-XshowSettings:properties", "-version"])
    res = run(command, Watch(what=f"{exe} -version", timeout=60))
    props = parse_properties(res.output)
    if not res.ok or "java.home" not in props:
        raise ExternalError(f"could not describe the JVM {exe} (exit {res.returncode})")
    return JavaInfo(
        path=exe,
        home=props["java.home"],
        vendor=props.get("java.vendor", ""),
        version=props.get("java.version", ""),
        runtime_version=props.get("java.runtime.version", ""),
        vm_name=props.get("java.vm.name", ""),
    )


def parse_properties(text: str) -> dict[str, str]:
    """The ``key = value`` lines of ``-XshowSettings:properties`` (first value of each key)."""
    props: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("    ") or line.startswith("     ") or " = " not in line:
            continue
        key, _, value = line.strip().partition(" = ")
        props.setdefault(key, value)
    return props


def java_version_key(java: Path) -> str:
    """The JDK's identity for a cache of what it compiled: its ``release`` file, else
    ``java -version``."""
    real = java.resolve()
    release = real.parent.parent / "release"
    if release.is_file():
        text = release.read_text("utf-8", errors="replace")
        return f"{real}\n{text}"
    result = run(Command([java, "-version"]), Watch(what="java -version", timeout=60))
    return f"{real}\n{result.output}"


def javac_of(java: Path) -> Path | None:
    """The ``javac`` beside ``java`` (through its symlink or not), None for a JRE."""
    return next(
        (p for p in (java.resolve().parent / "javac", java.parent / "javac") if p.is_file()), None
    )


def check_same_jdk(base: JavaInfo, head: JavaInfo) -> JavaInfo:
    """The common JVM of both sides, or InputError saying how they differ."""
    if (base.home, base.runtime_version) != (head.home, head.runtime_version):
        raise InputError(
            f"base and head would run on different JDKs: {base.label} vs {head.label}; "
            "pass --java to choose one"
        )
    return base

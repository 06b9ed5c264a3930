"""The machine a run measured on, recorded in the manifest next to the numbers.

The block is a :class:`perfproof.model.documents.run.Environment`, the type the report reads.

A benchmark figure means little without the JDK, the JMH version, the CPU and how busy the
machine was; the load average is taken before the first and after the last step so that a
reader can see whether something else competed for the cores during the run.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from perfproof import __version__
from perfproof.model.documents.run import Environment, Jdk


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    """The CPU's marketing name (Linux ``/proc/cpuinfo``; else what Python knows)."""
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Hardware", "Processor") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or None


def memory_bytes(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """Total physical memory (Linux ``/proc/meminfo``; else ``sysconf``)."""
    try:
        for line in meminfo.read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def load_average() -> list[float] | None:
    """1, 5 and 15 minute load averages, where the OS has them."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def machine_environment() -> Environment:
    """Everything about the host that does not depend on the run's settings."""
    return Environment(
        cpu_model=cpu_model(),
        cores=os.cpu_count(),
        memory_bytes=memory_bytes(),
        os=platform.platform(),
        python=sys.version.split()[0],
        perfproof_version=__version__,
    )


def capture(
    *,
    jdk: Jdk | None,
    jmh_version: str | None,
    shas: dict[str, str],
) -> Environment:
    """The manifest's ``environment`` block at the start of a run (``load_after`` comes later)."""
    env = machine_environment()
    env.jdk = jdk
    env.jmh_version = jmh_version
    env.git = dict(shas)
    env.load_before = load_average()
    return env


def capture_commands() -> Environment:
    """The ``environment`` block of an e2e run: the machine and its load (no JDK or JMH: the
    commands are the user's)."""
    env = machine_environment()
    env.load_before = load_average()
    return env

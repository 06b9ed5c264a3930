"""What a built jar is, read from the jar itself rather than from its file name.

Projects name their benchmark jars every which way (``benchmarks.jar``, ``*-jmh.jar``,
``*-all.jar``, ``*-shaded.jar``), so the uber/thin decision looks inside: a jar holding
``META-INF/BenchmarkList`` has benchmarks, and one that also holds JMH's own classes runs alone.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

JMH_MAIN = "org.openjdk.jmh.Main"
BENCHMARK_LIST = "META-INF/BenchmarkList"
JMH_POM_PROPERTIES = "META-INF/maven/org.openjdk.jmh/jmh-core/pom.properties"
_JMH_CORE_NAME = re.compile(r"^jmh-core-(\d[\w.\-]*)\.jar$")
_SKIP_SUFFIXES = ("-sources.jar", "-javadoc.jar", "-tests.jar", "-test-sources.jar")


def jar_names(jar: Path) -> set[str]:
    try:
        with zipfile.ZipFile(jar) as zf:
            return set(zf.namelist())
    except (OSError, zipfile.BadZipFile):
        return set()


def main_class(jar: Path) -> str | None:
    """The Main-Class of the jar's manifest (continuation lines joined), if any."""
    try:
        with zipfile.ZipFile(jar) as zf:
            text = zf.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    joined = re.sub(r"\r?\n ", "", text)
    for line in joined.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "main-class":
            return value.strip() or None
    return None


def has_benchmarks(jar: Path) -> bool:
    return BENCHMARK_LIST in jar_names(jar)


def bundles_jmh(jar: Path) -> bool:
    """The jar carries JMH itself (an uber jar), so it needs no classpath."""
    names = jar_names(jar)
    return BENCHMARK_LIST in names and "org/openjdk/jmh/Main.class" in names


def candidate_jars(folder: Path) -> list[Path]:
    """Jars a build left in ``folder`` that could be the benchmark jar, sorted by name."""
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.glob("*.jar")
        if p.is_file()
        and not p.name.endswith(_SKIP_SUFFIXES)
        and not p.name.startswith("original-")
    )


def pick_uber(jars: list[Path]) -> Path | None:
    """The jar that runs JMH by itself; one whose Main-Class is JMH's wins a tie."""
    uber = [j for j in jars if bundles_jmh(j)]
    uber.sort(key=lambda j: (main_class(j) != JMH_MAIN, j.name))
    return uber[0] if uber else None


def jmh_version_of_jar(jar: Path) -> str | None:
    """JMH's version from a jar: its file name (``jmh-core-1.37.jar``) or bundled pom."""
    m = _JMH_CORE_NAME.match(jar.name)
    if m:
        return m.group(1)
    try:
        with zipfile.ZipFile(jar) as zf:
            text = zf.read(JMH_POM_PROPERTIES).decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    for line in text.splitlines():
        if line.startswith("version="):
            return line.partition("=")[2].strip() or None
    return None

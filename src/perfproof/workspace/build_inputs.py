"""Which changed files a build reads: the files outside the Java sources that can move a
benchmark.

A change to a file the build reads (a build definition, a resource it packages, a source in
another JVM language, anything a build script names) can move any benchmark, so it reaches
every one. A changelog, the documentation, the site, checked-in results and every other file
no build reads move nothing: counting them as reaching everything would make a commit that
adds a results file and a line to the changelog "explain" every verdict of its run.

The conventions are Maven's and Gradle's (``src/<set>/resources``; ``src/site`` and
``src/changes`` feed reports, not jars); past them, a file reaches only when a build script of
the commit names it or a folder holding it. A custom build command may read anything, so with
one every file outside the documentation reaches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

BUILD_FILES = frozenset(
    {
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "gradle.properties",
        "mvnw",
        "mvnw.cmd",
        "gradlew",
        "gradlew.bat",
        "build.xml",
        "lombok.config",
    }
)
"""Build definitions and the files their tools read beside them."""
BUILD_FOLDERS = (".mvn", "gradle", "buildSrc")
"""Folders whose every file the build tool reads (wrapper, JVM options, version catalogs,
Gradle's build logic)."""
SCRIPTS = ("pom.xml", ".gradle", ".gradle.kts")
"""Names of the build scripts whose text may name a file the build reads."""
JVM_SOURCES = (".kt", ".kts", ".scala", ".groovy", ".clj", ".cljc")
"""Sources the build compiles that the Java call graph cannot see into."""
NOT_READ = (".md", ".txt", ".adoc", ".rst", ".html", ".png", ".svg", ".jpg", ".jpeg", ".gif")
"""Documentation and pictures: read by no build unless packaged as a resource."""
REPORT_SETS = frozenset({"site", "changes"})
"""``src/<set>`` folders that feed reports and the web site, never a jar."""
_RESOURCES = re.compile(r"(?:^|/)src/(?P<set>[^/]+)/resources[^/]*/")


def is_build_script(path: str) -> bool:
    """A pom or a Gradle script, whose text is searched for the files it names."""
    name = PurePosixPath(path).name
    return name == "pom.xml" or name.endswith(SCRIPTS[1:])


def _named_in(text: str, rel: str) -> bool:
    """Whether ``text`` names ``rel`` or a folder holding it, as a whole path (``src/main/c``
    in ``${basedir}/src/main/c``, never ``src`` in ``src/main/java``)."""
    parts = rel.split("/")
    for n in range(len(parts), 0, -1):
        prefix = re.escape("/".join(parts[:n]))
        if re.search(rf"(?<![\w.\-]){prefix}/?(?![\w.\-/])", text):
            return True
    return False


def read_by_build(path: str, scripts: Mapping[str, str], custom: bool = False) -> bool:
    """Whether a build reads the changed file ``path`` (repository-relative, not a ``.java``
    source): see the module docstring. ``scripts`` maps each build script of the commit to
    its text; ``custom``: the build is the user's own command."""
    p = PurePosixPath(path)
    resources = _RESOURCES.search(path)
    if resources is not None and resources.group("set") not in REPORT_SETS:
        return True
    if p.name in BUILD_FILES or is_build_script(path) or p.parts[0] in BUILD_FOLDERS:
        return True
    if p.suffix in JVM_SOURCES:
        return True
    if re.search(r"(?:^|/)src/(?:site|changes)/", path) or p.suffix.lower() in NOT_READ:
        return False
    if custom:
        return True
    for script, text in scripts.items():
        folder = PurePosixPath(script).parent
        if folder == PurePosixPath(".") or folder in p.parents:
            rel = p.relative_to(folder).as_posix() if folder != PurePosixPath(".") else path
            if _named_in(text, rel):
                return True
    return False


def read_files(
    paths: Iterable[str], scripts: Mapping[str, str], custom: bool = False
) -> tuple[str, ...]:
    """The changed files other than Java sources that a build reads (each reaches every
    benchmark)."""
    return tuple(p for p in paths if not p.endswith(".java") and read_by_build(p, scripts, custom))

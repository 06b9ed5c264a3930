"""The build options, declared once: every verb that builds a commit takes them from here.

A build option means the same on every verb (``ab``, ``prove``, ``guard``, ``hunt``, ``e2e``):
the verbs take the group whole, so none of them lacks one another has, and the typed
``BuildSpec`` they build from is made by the one function here.
"""

from __future__ import annotations

from collections.abc import Mapping

import click

from perfproof.cli.flag import Flag
from perfproof.cli.options import enum_choice
from perfproof.workspace.launcher import GRADLE, MAVEN
from perfproof.workspace.spec import BuildKind, BuildSpec


def text_of(p: Mapping[str, object], name: str) -> str | None:
    """A parsed flag's value as text (None when not given)."""
    value = p.get(name)
    return None if value is None else str(value)


def texts_of(p: Mapping[str, object], name: str) -> tuple[str, ...]:
    """A repeatable flag's values as texts."""
    value = p.get(name) or ()
    return tuple(str(v) for v in value) if isinstance(value, (tuple, list)) else ()


LAUNCH = (
    Flag(
        "maven",
        ("--maven",),
        {
            "type": click.Choice(MAVEN.choices()),
            "help": "How Maven starts: the project's ./mvnw, mvn from PATH, or auto (the "
            "wrapper unless its Maven is not downloaded and cannot be) [default: auto].",
        },
    ),
    Flag(
        "gradle",
        ("--gradle",),
        {
            "type": click.Choice(GRADLE.choices()),
            "help": "How Gradle starts: ./gradlew, gradle from PATH, or auto [default: auto].",
        },
    ),
    Flag(
        "keep_checks",
        ("--keep-checks",),
        {
            "is_flag": True,
            "help": "Run the checks a benchmark build skips by default (javadoc, source jars, "
            "checkstyle, enforcer, rat, spotbugs, pmd, japicmp, revapi, license, jacoco).",
        },
    ),
)
"""How the build tool is started: shared by every verb that builds (``hunt`` too)."""

BUILD = (
    Flag(
        "module",
        ("--module",),
        {"metavar": "PATH", "help": "Build module (the one holding the benchmarks)."},
    ),
    Flag(
        "build",
        ("--build",),
        {
            "type": enum_choice(BuildKind),
            "help": "Build tool; auto detects it from pom.xml / Gradle files (the default "
            "where a verb needs a build; e2e builds only when asked).",
        },
    ),
    Flag(
        "build_cmd",
        ("--build-cmd",),
        {
            "metavar": "CMD",
            "help": "Custom build command (split like a shell would, never run by one).",
        },
    ),
    Flag(
        "jar",
        ("--jar",),
        {"metavar": "GLOB", "help": "With --build-cmd: the jar it makes (the benchmark jar)."},
    ),
    Flag(
        "classpath_file",
        ("--classpath-file",),
        {
            "metavar": "FILE",
            "help": "With --build-cmd: the file it writes listing the classpath (the benchmarks').",
        },
    ),
    Flag(
        "build_args",
        ("--build-arg",),
        {
            "multiple": True,
            "metavar": "ARG",
            "help": "Extra argument for the detected Maven/Gradle build (repeatable): "
            "-Pexamples, -Dcheckstyle.skip.",
        },
    ),
    Flag(
        "java",
        ("--java",),
        {"metavar": "PATH", "help": "java executable for the builds and the JVMs run on them."},
    ),
    *LAUNCH,
    Flag(
        "fresh_builds",
        ("--fresh-builds",),
        {
            "is_flag": True,
            "help": "Rebuild every side before every round instead of using cached builds.",
        },
    ),
)
"""How each commit is built: every verb that builds (``ab``, ``prove``, ``guard``, ``hunt``,
``e2e``) takes this group whole, so a build option added here is an option of each of them."""


def build_spec(p: Mapping[str, object]) -> BuildSpec:
    """The build flags of :data:`BUILD` (or the part of them a verb takes) as the one typed
    ``BuildSpec``: every verb that builds reads them here, refused here when they do not go
    together (exit 2, before anything is built)."""
    return BuildSpec(
        kind=BuildKind(text_of(p, "build") or BuildKind.AUTO),
        module=text_of(p, "module"),
        build_cmd=text_of(p, "build_cmd"),
        jar_glob=text_of(p, "jar"),
        classpath_file=text_of(p, "classpath_file"),
        java=text_of(p, "java"),
        build_args=texts_of(p, "build_args"),
        maven=text_of(p, "maven") or "auto",
        gradle=text_of(p, "gradle") or "auto",
        keep_checks=bool(p.get("keep_checks")),
    )

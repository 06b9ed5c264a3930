"""The build options, declared once: every verb that builds a commit takes them from here.

A build option means the same on every verb (``ab``, ``prove``, ``guard``, ``hunt``, ``e2e``):
the verbs take the group whole, so none of them lacks one another has, and the typed
``BuildSpec`` they build from is made by the one function here.
"""

from __future__ import annotations

from collections.abc import Mapping

import click

from perfproof.cli.flag import Flag, fill
from perfproof.cli.options import enum_choice
from perfproof.workspace.launcher import GRADLE, MAVEN
from perfproof.workspace.spec import BuildKind, BuildSpec

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
    """The build flags of :data:`BUILD` as the one typed ``BuildSpec``: every verb that builds
    reads them here, refused here when they do not go together (exit 2, before anything is
    built). Each field takes the flag of its name; ``--build`` and ``--jar`` fill ``kind`` and
    ``jar_glob``; a flag not given keeps the field's default (``auto``)."""
    return fill(
        BuildSpec,
        p,
        kind=p["build"],
        jar_glob=p["jar"],
    )

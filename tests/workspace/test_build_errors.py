"""The one line of a failed build's log that says why."""

from __future__ import annotations

from pathlib import Path

from perfproof.workspace.build_errors import first_error

ROOT = Path("/cache/worktrees/acme/0123abcd")

MAVEN_COMPILE = f"""\x1b[0m[INFO] Compiling 52 source files to {ROOT}/core/target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR :
[INFO] -------------------------------------------------------------
[ERROR] {ROOT}/core/src/main/java/a/Q.java:[194,44] incompatible types: possible lossy conversion
[ERROR] {ROOT}/core/src/main/java/a/R.java:[33,76] cannot find symbol
[INFO] BUILD FAILURE
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:compile
[ERROR] -> [Help 1]
"""

MAVEN_RESOLVE = """[INFO] BUILD FAILURE
[ERROR] Failed to execute goal on project bench: Could not resolve dependencies for project a:b:1
[ERROR]
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] -> [Help 1]
"""

GRADLE = f"""> Task :core:compileJava FAILED
{ROOT}/core/src/main/java/a/Q.java:4: error: illegal start of expression
    int missing = ;
1 error

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':core:compileJava'.
"""

GRADLE_CONFIG = """FAILURE: Build failed with an exception.

* What went wrong:

Plugin [id: 'me.champeau.jmh'] was not found in any of the following sources:
"""


def test_maven_compile_error_is_the_first_specific_line_relative_to_the_worktree():
    assert first_error(MAVEN_COMPILE, ROOT) == (
        "core/src/main/java/a/Q.java:[194,44] incompatible types: possible lossy conversion"
    )


def test_maven_goal_failure_when_nothing_more_specific():
    assert first_error(MAVEN_RESOLVE, ROOT) == (
        "Failed to execute goal on project bench: Could not resolve dependencies for project a:b:1"
    )


def test_gradle_javac_error_and_what_went_wrong():
    assert first_error(GRADLE, ROOT) == (
        "core/src/main/java/a/Q.java:4: error: illegal start of expression"
    )
    assert first_error(GRADLE_CONFIG) == (
        "Plugin [id: 'me.champeau.jmh'] was not found in any of the following sources:"
    )


def test_nothing_recognisable_and_long_lines():
    assert first_error("[INFO] BUILD FAILURE\nKilled\n") is None
    long = first_error("[ERROR] " + "x" * 1000)
    assert long is not None and len(long) == 300 and long.endswith("…")

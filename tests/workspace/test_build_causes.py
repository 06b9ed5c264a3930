"""A failed reactor build named by module, cause class and the flag that usually gets past it.

The logs are the lines real builds print for each cause (abridged), with the reactor summary
Maven ends every multi-module build with.
"""

from __future__ import annotations

import pytest

from perfproof.workspace.build_causes import diagnose, failing_module

SUMMARY = """[INFO] Reactor Summary for parent 1.0:
[INFO]
[INFO] common ............................................. SUCCESS [  2.113 s]
[INFO] {module} ........................................ FAILURE [  1.020 s]
[INFO] microbench ......................................... SKIPPED
[INFO] BUILD FAILURE
"""

CASES = [
    (
        "transport-native-epoll",
        "src/main/c/netty_epoll_native.c:17:10: fatal error: jni.h: No such file or directory\n"
        "make: *** [Makefile:12: epoll.o] Error 1\n",
        "native toolchain",
        "-P!PROFILE",
    ),
    (
        "codec-generator",
        "[ERROR] Failed to execute goal on project codec-generator: Could not resolve "
        "dependencies for project x:codec-generator:jar:1.0: Could not transfer artifact "
        "x:y:pom:1.0-SNAPSHOT from/to snapshots (https://snapshots.example/): Unknown host\n",
        "unreachable repository",
        "-o",
    ),
    (
        "core",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:"
        "compile (default-compile) on project core: Fatal error compiling: error: release "
        "version 21 not supported\n",
        "plugin needs another Maven or JDK",
        "--java",
    ),
    (
        "core",
        "[ERROR] There are test failures.\n",
        "tests",
        "-Dmaven.test.skip=true",
    ),
]


@pytest.mark.parametrize(("module", "log", "cause", "flag"), CASES)
def test_each_cause_class_names_the_module_and_a_flag(
    module: str, log: str, cause: str, flag: str
) -> None:
    found = diagnose(log + SUMMARY.format(module=module))
    assert found is not None
    assert (found.module, found.cause.name) == (module, cause)
    advice = found.advice()
    assert advice.startswith(f"module {module} failed ({cause}: ")
    assert flag in advice


def test_a_real_enforcer_failure_names_the_artifact_and_the_maven_it_wants() -> None:
    # abridged from a real reactor build of a library that requires Maven 3.9 (Maven 3.8.7 here)
    log = (
        "[INFO] ------------------------------------------------------------------------\n"
        "[INFO] Reactor Summary for Apache Commons RNG 1.7-SNAPSHOT:\n"
        "[INFO] \n"
        "[INFO] Apache Commons RNG ................................. FAILURE [  1.210 s]\n"
        "[INFO] Apache Commons RNG Client API ..................... SKIPPED\n"
        "[INFO] BUILD FAILURE\n"
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.6.2:"
        "enforce (enforce-maven-version) on project commons-rng-parent: \n"
        "[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed\n"
        "[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).\n"
    )
    found = diagnose(log)
    assert found is not None and found.module == "commons-rng-parent"
    assert found.cause.name == "plugin needs another Maven or JDK"
    assert "Detected Maven Version: 3.8.7" in found.evidence
    assert failing_module(log.split("[ERROR]")[0]) == "Apache Commons RNG"


def test_a_plain_compile_error_has_no_cause_class() -> None:
    log = "[ERROR] /w/core/src/main/java/A.java:[3,9] cannot find symbol\n" + SUMMARY.format(
        module="core"
    )
    assert diagnose(log) is None


def test_the_module_comes_from_the_goal_error_or_gradles_task_without_a_summary() -> None:
    goal = "[ERROR] Failed to execute goal x:y:1:exec (native) on project epoll-native: boom\n"
    assert failing_module(goal) == "epoll-native"
    assert failing_module("Execution failed for task ':native:compileJni'.\n") == ":native"
    assert failing_module("nothing useful\n") is None

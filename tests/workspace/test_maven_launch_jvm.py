"""A real Maven build as a firewalled runner sees it: a wrapper that cannot download Maven, and
a module compiling JNI code that finds ``jni.h`` only through ``JAVA_HOME``.

The wrapper's distribution URL is an address on this machine where nothing listens, and the
wrapper script itself fails the way a real one does without network, so the build succeeds only
if perfproof leaves the wrapper for ``mvn`` from PATH (and says so), which fetches the wrapper's
pinned Maven through the repositories it reaches when it is older itself. The JNI step runs gcc with
``-I${JAVA_HOME}/include``: with JAVA_HOME unset in the user's environment it fails, as a real
native module does, unless perfproof sets JAVA_HOME to the JDK that runs the build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from perfproof.workspace.maven_fetch import program_version
from perfproof.workspace.maven_need import MavenNeed

TINY = "-f 1 -wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [
    pytest.mark.jvm,
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.skipif(
        shutil.which("mvn") is None or shutil.which("gcc") is None, reason="needs mvn and gcc"
    ),
]

EXEC = """
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.1.0</version>
        <executions><execution>
          <id>compile-native</id><phase>compile</phase><goals><goal>exec</goal></goals>
          <configuration>
            <executable>gcc</executable>
            <arguments>
              <argument>-fsyntax-only</argument>
              <argument>-I${env.JAVA_HOME}/include</argument>
              <argument>-I${env.JAVA_HOME}/include/linux</argument>
              <argument>src/main/c/native.c</argument>
            </arguments>
          </configuration>
        </execution></executions>
      </plugin>
    </plugins>"""

NATIVE_C = """#include <jni.h>
JNIEXPORT jint JNICALL Java_j_Native_one(JNIEnv *env, jclass cls) { return 1; }
"""

BENCH = """package j;

import org.openjdk.jmh.annotations.*;

@State(Scope.Thread)
public class Codes {
    int code = 42;

    @Benchmark
    public int describe() {
        return %s;
    }
}
"""

MVNW = """#!/bin/sh
echo "Downloading from central: http://127.0.0.1:9/apache-maven-3.9.6-bin.zip"
echo 'Exception in thread "main" java.net.ConnectException: Connection refused'
exit 1
"""

PROPS = "distributionUrl=http\\://127.0.0.1\\:9/maven2/apache-maven-3.9.6-bin.zip\n"

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}  # fmt: skip


def test_auto_builds_with_mvn_and_a_jni_module_finds_its_headers(
    tiny_pom, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MAVEN_USER_HOME", str(tmp_path / "m2-wrapper"))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    pom = tiny_pom("jni").replace("    </plugins>", EXEC, 1)
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=GIT_ENV)
    for tag, files in (
        ("base", {"pom.xml": pom, ".gitignore": "target/\n", "mvnw": MVNW,
                  ".mvn/wrapper/maven-wrapper.properties": PROPS,
                  "src/main/c/native.c": NATIVE_C,
                  "src/main/java/j/Codes.java": BENCH % "Integer.valueOf(code).hashCode() % 7"}),
        ("head", {"src/main/java/j/Codes.java": BENCH % "code % 7"}),
    ):  # fmt: skip
        for rel, text in files.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_text(text)
        (repo / "mvnw").chmod(0o755)
        for args in (["add", "--all"], ["commit", "-q", "-m", tag], ["tag", tag]):
            subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True)
    out = tmp_path / "run"
    res = run_cli("ab", "--repo", repo, "--base", "base", "--head", "head", "--rounds", "2",
                  "--jmh-args", TINY, "--out", out)  # fmt: skip
    assert res.code == 0, res.err
    assert "./mvnw's distribution (apache-maven-3.9.6-bin.zip) is not downloaded" in res.err
    assert "building with mvn from PATH" in res.err
    manifest = json.loads((out / "manifest.json").read_text())
    builds = [b for b in manifest["builds"] if b["status"] == "done"]
    assert {b["side"] for b in builds} == {"base", "head"}
    # the wrapper pins 3.9.6: mvn from PATH when it is that new, else the same Maven fetched
    path_meets = MavenNeed("3.9.6", "the wrapper", exact=True).allows(program_version("mvn") or "0")
    fetched = "/perfproof/maven/apache-maven-3.9.6/bin/mvn"
    assert all(b["command"][0] == "mvn" if path_meets else b["command"][0].endswith(fetched)
               for b in builds), [b["command"][0] for b in builds]  # fmt: skip
    log = (out / manifest["builds"][0]["log"]).read_text()
    assert "compile-native" in log  # the JNI step ran, with JAVA_HOME set by perfproof

    # the user's word wins: --maven wrapper runs the wrapper, which fails, and the hint says
    # what to do about it (not a generic wrapper warning on every failure). The launcher is no
    # part of the cache key (it does not change the jar), so only a fresh build runs it.
    res = run_cli("ab", "--repo", repo, "--base", "base", "--head", "head", "--rounds", "2",
                  "--jmh-args", TINY, "--out", tmp_path / "run2", "--maven", "wrapper",
                  "--fresh-builds")  # fmt: skip
    assert res.code == 3
    assert "pass --maven mvn to use mvn from PATH" in res.err.strip().splitlines()[-1]

"""The CI examples feed the dashboards from the files ``perfproof export`` really writes, cache
Maven's repository and perfproof's built jars where perfproof looks for them, and GitLab's
jobs start from cached tools instead of running apt."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from perfproof.env.cache import cache_root
from perfproof.export import github_action
from perfproof.workspace.build_cache import entry_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ci"
HISTORY = EXAMPLES / "github" / "perf-history.yml"
GATE = EXAMPLES / "github" / "perf-gate.yml"
GITLAB = EXAMPLES / "gitlab" / ".gitlab-ci.yml"

GAB = "benchmark-action/github-action-benchmark@v1"
GAB_INPUTS = {
    "name", "tool", "output-file-path", "gh-pages-branch", "gh-repository",
    "benchmark-data-dir-path", "github-token", "ref", "auto-push", "skip-fetch-gh-pages",
    "comment-on-pull-request", "pr-comment-percentage-threshold",
    "pr-comment-absolute-threshold", "comment-always", "summary-always", "save-data-file",
    "comment-on-alert", "alert-threshold", "fail-on-alert", "fail-threshold",
    "alert-comment-cc-users", "external-data-json-path", "max-items-in-chart",
}  # fmt: skip
"""The inputs github-action-benchmark v1 documents in its action.yml (actionlint does not
know this action, so a misspelt input would pass it silently)."""


def _load(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text())


def _export_out(script: str, fmt: str) -> str:
    """The ``--out`` of the ``perfproof export ... --to FMT`` line of a script."""
    for line in script.splitlines():
        words = shlex.split(line.strip()) if "perfproof export" in line else []
        if words and words[words.index("--to") + 1] == fmt:
            return words[words.index("--out") + 1]
    raise AssertionError(f"no `perfproof export --to {fmt}` in:\n{script}")


def _export(run_cli, run: Path, fmt: str, out: Path) -> list[str]:
    result = run_cli("export", run, "--to", fmt, "--out", out)
    assert result.code == 0, result.err
    return [line.removeprefix("wrote ") for line in result.out.splitlines()]


def test_history_feeds_github_action_benchmark_every_file_export_writes(
    make_run_folder, run_cli, tmp_path
):
    job = _load(HISTORY)["jobs"]["record"]
    steps = job["steps"]
    (export_at,) = [i for i, s in enumerate(steps) if "perfproof export" in s.get("run", "")]
    out = _export_out(steps[export_at]["run"], "github-action-benchmark")
    feeds = {s["with"]["output-file-path"]: (i, s) for i, s in enumerate(steps)
             if s.get("uses") == GAB}  # fmt: skip
    # the files of a run with both directions, written where the workflow says
    written = _export(run_cli, make_run_folder("ab"), "github-action-benchmark", tmp_path / out)
    assert sorted(Path(p).name for p in written) == sorted(github_action.FILES.values())
    assert sorted(feeds) == sorted(f"{out}/{name}" for name in github_action.FILES.values())
    for path, (at, step) in feeds.items():
        inputs = step["with"]
        assert at > export_at and set(inputs) <= GAB_INPUTS, set(inputs) - GAB_INPUTS
        assert inputs["tool"] == Path(path).stem  # customSmallerIsBetter / customBiggerIsBetter
        # a suite with one direction writes one file: the other step must not run
        assert step["if"] == f"hashFiles('{path}') != ''"
        assert inputs["auto-push"] is True and "github-token" in inputs
    names = {s["with"]["name"] for _, s in feeds.values()}
    assert len(names) == len(feeds)  # one chart set per direction, never mixed
    assert job["permissions"]["contents"] == "write"  # auto-push to gh-pages


def test_gitlab_history_feeds_bencher_the_file_export_writes(make_run_folder, run_cli, tmp_path):
    job = _load(GITLAB)["perf-history"]
    script = "\n".join(job["script"])
    out = _export_out(script, "bencher")
    (bencher,) = [shlex.split(part.replace("\\\n", " ")) for part in job["script"]
                  if "bencher run" in part]  # fmt: skip
    run = bencher[bencher.index("bencher") :]
    assert run[run.index("--adapter") + 1] == "json" and run[run.index("--file") + 1] == out
    assert script.index("perfproof export") < script.index("bencher run")
    assert _export(run_cli, make_run_folder("ab"), "bencher", tmp_path / out) == [
        str(tmp_path / out)
    ]


def _builds(step: dict) -> bool:
    """The step runs perfproof's builds (``ab`` itself, or the gate script that runs it)."""
    return "perfproof ab" in step.get("run", "") or "perf-gate.sh" in step.get("run", "")


def _cache_steps(job: dict) -> dict[str, dict]:
    return {s["with"]["path"]: s for s in job["steps"] if s.get("uses") == "actions/cache@v4"}


@pytest.mark.parametrize("workflow", [HISTORY, GATE], ids=lambda p: p.name)
def test_github_jobs_that_build_cache_maven_and_perfproof_builds(workflow, monkeypatch):
    monkeypatch.setenv("HOME", "/home/runner")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    builds = entry_dir(cache_root(), "KEY").parent  # where perfproof looks for built jars
    building = {name: job for name, job in _load(workflow)["jobs"].items()
                if any(_builds(s) for s in job["steps"])}  # fmt: skip
    assert building
    for name, job in building.items():
        caches = _cache_steps(job)
        paths = {Path(os.path.expanduser(p)) for p in caches}
        assert paths == {Path("/home/runner/.m2/repository"), builds}, name
        for step in caches.values():
            assert step["with"]["key"] and step["with"]["restore-keys"]
            assert step["with"]["key"].startswith(step["with"]["restore-keys"])
        first_build = min(i for i, s in enumerate(job["steps"]) if _builds(s))
        assert all(job["steps"].index(s) < first_build for s in caches.values())
        java = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/setup-java")]
        assert all("cache" not in s["with"] for s in java)  # one cache of ~/.m2, not two


def test_gitlab_caches_maven_and_builds_and_never_runs_apt():
    doc = _load(GITLAB)
    text = GITLAB.read_text()
    assert "apt-get" not in text and "apt " not in text
    template = doc[".perfproof"]
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    assert set(jobs) == {"perf-gate", "perf-history"}
    assert all(job["extends"] == ".perfproof" and "image" not in job for job in jobs.values())
    paths = {p for c in template["cache"] for p in c["paths"]}
    assert paths == {".perfproof-tools/", ".m2/repository/", ".perfproof-builds/"}
    assert all(c["key"] for c in template["cache"])
    maven_opts = template["variables"]["MAVEN_OPTS"]
    assert maven_opts == "-Dmaven.repo.local=$CI_PROJECT_DIR/.m2/repository"


def _gitlab_before_script(project: Path, home: Path) -> subprocess.CompletedProcess[str]:
    doc = _load(GITLAB)
    template = doc[".perfproof"]
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "CI_PROJECT_DIR": str(project),
        "PERFPROOF_SPEC": doc["variables"]["PERFPROOF_SPEC"],
        "UV_VERSION": doc["variables"]["UV_VERSION"],
        # nothing may be downloaded: a proxy that refuses makes any download fail at once
        "https_proxy": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
    }
    for name, value in template["variables"].items():
        env[name] = value.replace("$CI_PROJECT_DIR", str(project))
    script = "\n".join(template["before_script"])
    check = 'command -v perfproof; perfproof --version; readlink "$HOME/.cache/perfproof/builds"'
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", f"{script}\n{check}"],
        cwd=project, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_gitlab_before_script_with_cached_tools_installs_nothing(tmp_path, monkeypatch):
    """With the tools cache restored, the job starts at once: no download (there is no network
    to download from here, so an install attempt would fail the script), perfproof on PATH,
    the build cache linked where perfproof looks, and old build entries dropped."""
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    spec = "perfproof[postgresql] @ " + _load(GITLAB)["variables"]["PERFPROOF_SPEC"]
    tools = project / ".perfproof-tools"
    (tools / "venv" / "bin").mkdir(parents=True)
    (tools / "spec").write_text(spec + "\n")
    launcher = tools / "venv" / "bin" / "perfproof"  # the real perfproof, as a venv's entry point
    src = Path(__file__).resolve().parents[2] / "src"
    python = sys.executable
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{src}" exec "{python}" -m perfproof "$@"\n')
    launcher.chmod(0o755)
    old, new = project / ".perfproof-builds" / "old", project / ".perfproof-builds" / "new"
    old.mkdir(parents=True)
    new.mkdir()
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))

    result = _gitlab_before_script(project, home)
    assert result.returncode == 0, result.stdout + result.stderr
    where, version, link = result.stdout.splitlines()[-3:]
    assert where == str(launcher) and version.startswith("perfproof")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert link == str(project / ".perfproof-builds")
    assert (entry_dir(cache_root(), "k").parent).resolve() == project / ".perfproof-builds"
    assert not old.exists() and new.exists()


def test_gitlab_before_script_reinstalls_when_the_pinned_spec_changed(tmp_path):
    """A cached install of another PERFPROOF_SPEC is not used: the script goes to install
    (here it fails at the download, having removed the stale copy)."""
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".perfproof-tools" / "venv" / "bin").mkdir(parents=True)
    home.mkdir()
    (project / ".perfproof-tools" / "spec").write_text("perfproof @ git+https://old/perfproof@v0\n")
    result = _gitlab_before_script(project, home)
    assert result.returncode != 0
    assert not (project / ".perfproof-tools" / "spec").exists()

"""``perfproof ab`` for real: git worktrees, Maven builds, JMH runs, the run folder, failures."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from tests.conftest import ctrl_c_when, steps_of

TINY = "-wi 1 -w 100ms -i 2 -r 100ms"
pytestmark = [pytest.mark.jvm, pytest.mark.slow, pytest.mark.timeout(300)]


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def git_out(repo: Path, *args: str) -> str:
    # no optional locks: a plain `git status` may rewrite the index to refresh its stat cache,
    # which would make the test's own look change what it compares
    return subprocess.run(
        ["git", "--no-optional-locks", *args], cwd=repo, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip


def snapshot(repo: Path) -> dict[str, object]:
    """Every byte of the user's side of the repository: files, index, HEAD, refs, stash."""
    files = {}
    for path in sorted(repo.rglob("*")):
        rel = path.relative_to(repo)
        if rel.parts[0] in (".git", ".perfproof") or not path.is_file():
            continue
        files[str(rel)] = hashlib.sha256(path.read_bytes()).hexdigest()
    git_dir = repo / ".git"
    return {
        "files": files,
        "index": hashlib.sha256((git_dir / "index").read_bytes()).hexdigest(),
        "HEAD": (git_dir / "HEAD").read_text(),
        "refs": git_out(repo, "for-each-ref"),
        "stash": git_out(repo, "stash", "list"),
        "status": git_out(repo, "status", "--porcelain=v1", "--untracked-files=all"),
    }


def make_dirty(repo: Path) -> None:
    readme = repo / "README.md"
    readme.write_text(readme.read_text() + "\nstashed change\n")
    subprocess.run(["git", "stash", "-q"], cwd=repo, check=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"})  # fmt: skip
    (repo / "pom.xml").write_text((repo / "pom.xml").read_text() + "<!-- staged -->\n")
    subprocess.run(["git", "add", "pom.xml"], cwd=repo, check=True)
    bus = repo / "src/main/java/perfdemo/EventBus.java"
    bus.write_text(bus.read_text() + "// modified, not staged\n")
    (repo / "notes.txt").write_text("untracked\n")


def test_ab_end_to_end_leaves_the_user_tree_alone(ab_env, run_cli) -> None:
    repo = ab_env.repo
    make_dirty(repo)
    before = snapshot(repo)
    res = run_cli("ab", "--repo", repo, "--base", "baseline", "--head", "feature",
                  "--rounds", "3", "--jmh-args", TINY, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["schema"] == "perfproof.compare/1"
    run_dir = Path(doc["run_dir"])
    assert run_dir.parent == repo / ".perfproof" / "runs"
    assert snapshot(repo) == before

    by_key = {(c["benchmark"].rsplit(".", 1)[-1], c["metric"]): c for c in doc["comparisons"]}
    # allocation per op: 2048 B and 6400 B before, nothing after (three forks a side, so even
    # if a short warm-up leaves the baseline's bytes/op uneven, the fork-level test decides)
    assert by_key[("report", "gc.alloc.rate.norm")]["verdict"] == "improved"
    assert by_key[("publishNoListeners", "gc.alloc.rate.norm")]["verdict"] == "improved"
    assert ("report", "primary") in by_key and ("publishNoListeners", "primary") in by_key

    m = manifest(run_dir)
    assert m["schema"] == "perfproof.run/1" and m["status"] == "done"
    shas = {
        s: git_out(repo, "rev-parse", t).strip()
        for s, t in (("base", "baseline"), ("head", "feature"))
    }
    assert {s: m["refs"][s]["sha"] for s in shas} == shas
    assert m["environment"]["git"] == shas
    assert m["environment"]["jmh_version"] == "1.37"
    assert m["environment"]["jdk"]["home"] and m["environment"]["cores"] >= 1
    assert m["environment"]["load_before"] is not None and m["environment"]["load_after"]
    assert [s["id"] for s in m["steps"]] == [
        "01-base", "01-head", "02-head", "02-base", "03-base", "03-head"]  # fmt: skip
    for step in m["steps"]:
        assert step["status"] == "done" and step["exit_code"] == 0
        assert (run_dir / step["result"]).is_file() and (run_dir / step["log"]).is_file()
        assert "-prof" in step["argv"] and step["argv"][-4:-1] == ["-rf", "json", "-rff"]
    assert {b["side"] for b in m["builds"]} == {"base", "head"}
    results = json.loads((run_dir / "results.json").read_text())
    assert results == doc
    report_md = (run_dir / "report.md").read_text()
    assert "ErrorReporterBench" in report_md
    # the report is written after the load is measured, so it shows both readings
    assert "n/a after" not in report_md and " after (1 / 5 / 15 min)" in report_md
    assert (run_dir / "report.html").read_text().lstrip().lower().startswith("<!doctype html")
    assert not list((run_dir / "jmh").glob(".*partial*"))
    # ab renders its reports from the manifest and results it holds; `perfproof report` reads
    # the folder back and renders the same pages
    for fmt, extra in (("md", ("--max-chars", "0")), ("html", ())):
        read_back = run_cli("report", run_dir, "--format", fmt, *extra)
        assert read_back.code == 0, read_back.err
        assert read_back.out == (run_dir / f"report.{fmt}").read_text(), fmt

    # the second run on the same commits takes both builds from the cache
    again = run_cli("ab", "--repo", repo, "--base", "baseline", "--head", "feature",
                    "--rounds", "1", "--bench", "EventBusBench", "--jmh-args", TINY,
                    "--format", "md")  # fmt: skip
    assert again.code == 0, again.err
    # --format md prints the results section of the run's report.md, word for word
    assert "### Results" in again.out and "| Verdict |" in again.out
    assert "run folder:" in again.out
    latest = Path(again.out.split("run folder: ")[1].split()[0])
    assert all(b["cached"] for b in manifest(latest)["builds"])
    section = again.out.split("run folder:")[0].strip()
    assert section and section in (latest / "report.md").read_text()
    _rerun_reproduce_of_the_baseline(latest, repo)


def _reproduce_steps(report_md: str) -> list[tuple[str, str]]:
    """(caption, shell text) of each numbered step under the report's Reproduce heading."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt().parse(report_md[report_md.index("### Reproduce") :])
    out: list[tuple[str, str]] = []
    caption = ""
    for tok in tokens:
        if tok.type == "inline":
            caption = tok.content
        elif tok.type == "fence":
            out.append((caption, tok.content.strip()))
    return out


def _rerun_reproduce_of_the_baseline(run_dir: Path, repo: Path) -> None:
    """Pasted as a reader would (check out, build, set the classpath, run JMH), the baseline's
    Reproduce commands run the JMH invocation the run recorded: same benchmarks, @Param values,
    forks, iterations and profiler, into the file the manifest names."""
    m = manifest(run_dir)
    sha = m["refs"]["base"]["sha"]
    scratch = Path(tempfile.mkdtemp(prefix="reproduce-"))
    checkout = f"/tmp/perfproof-baseline-{sha[:12]}"
    wanted = ("Check out the baseline", "Build the baseline", "Set the baseline classpath",
              "Run JMH on the baseline in round 1")  # fmt: skip
    steps = [(c, text) for c, text in _reproduce_steps((run_dir / "report.md").read_text())
             if c.startswith(wanted)]  # fmt: skip
    # an uber jar runs with -jar: no classpath step
    assert [c.split(" ")[0] for c, _ in steps if not c.startswith("Set")] == [
        "Check", "Build", "Run"], steps  # fmt: skip
    # the same commands in a folder of the test's own, so parallel sessions never share one
    script = "set -e\n" + "\n".join(t.replace(checkout, str(scratch / "base")) for _, t in steps)
    try:
        for _ in range(20):  # another JMH on this machine holds JMH's own lock: wait for it
            res = subprocess.run(["bash", "-c", script], cwd=scratch, capture_output=True,
                                 text=True, timeout=240)  # fmt: skip
            if "Unable to acquire the JMH lock" not in res.stdout + res.stderr:
                break
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force",
                            str(scratch / "base")], check=False)  # fmt: skip
            time.sleep(3)
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
        first = next(s for s in m["steps"] if s["id"] == "01-base")
        # the build step's `cd` leaves the shell in the checkout, where JMH writes its file
        again = json.loads((scratch / "base" / Path(first["result"]).name).read_text())
        recorded = json.loads((run_dir / first["result"]).read_text())

        def invocation(doc: list[dict]) -> list[tuple]:
            return sorted(
                (e["benchmark"], tuple(sorted((e.get("params") or {}).items())), e["forks"],
                 e["warmupIterations"], e["measurementIterations"], e["measurementTime"],
                 tuple(sorted(k for k in e["secondaryMetrics"] if k.startswith("gc.alloc"))))
                for e in doc
            )  # fmt: skip

        assert invocation(again) == invocation(recorded)
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force",
                        str(scratch / "base")], check=False, capture_output=True)  # fmt: skip
        shutil.rmtree(scratch, ignore_errors=True)


def _kill_run(proc: subprocess.Popen, run_dir: Path) -> None:
    """kill -9 the perfproof process and the JMH it started (JMH runs in its own session)."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for pid in _jmh_processes_of(run_dir):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def test_resume_after_kill_redoes_only_unfinished_steps(ab_env, run_cli, tmp_path) -> None:
    run_dir = tmp_path / "run"
    argv = [sys.executable, "-m", "perfproof", "ab", "--repo", str(ab_env.repo),
            "--base", "baseline", "--head", "feature", "--rounds", "2",
            "--jmh-args", TINY, "--out", str(run_dir)]  # fmt: skip
    proc = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ})  # fmt: skip
    deadline = time.monotonic() + 240
    done: list[str] = []
    try:
        while time.monotonic() < deadline:
            if (run_dir / "manifest.json").is_file():
                done = [s["id"] for s in manifest(run_dir).get("steps", [])
                        if s["status"] == "done"]  # fmt: skip
                if len(done) >= 2:
                    break
            assert proc.poll() is None, "ab finished or died before it could be killed"
            time.sleep(0.05)
    finally:
        _kill_run(proc, run_dir)
    assert done[:2] == ["01-base", "01-head"]
    killed = manifest(run_dir)
    assert killed["status"] == "running"  # kill -9: nobody could write anything else
    finished = sorted((run_dir / "jmh").glob("[0-9]*.json"))
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns, p.stat().st_ino) for p in finished}
    assert {"01-base.json", "01-head.json"} <= set(before)

    res = run_cli("ab", "--resume", run_dir, "--format", "json")
    assert res.code == 0, res.err
    after = manifest(run_dir)
    assert after["status"] == "done"
    for name, (data, mtime, inode) in before.items():
        path = run_dir / "jmh" / name
        assert (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_ino) == (
            data, mtime, inode)  # fmt: skip
    resumed = [e for e in after["history"] if e["event"] == "resumed"]
    assert len(resumed) == 1
    kept = {name.removesuffix(".json") for name in before}
    assert set(resumed[0]["pending"]) == {"01-base", "01-head", "02-head", "02-base"} - kept
    assert sorted(p.name for p in (run_dir / "jmh").glob("[0-9]*.json")) == [
        "01-base.json", "01-head.json", "02-base.json", "02-head.json"]  # fmt: skip
    assert json.loads(res.out)["run_dir"] == str(run_dir)


def _jmh_processes_of(run_dir: Path) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if str(run_dir).encode() in cmdline and b"-rff" in cmdline:
                found.append(int(pid))
    return found


def test_ctrl_c_stops_cleanly_and_keeps_finished_steps(ab_env, tmp_path) -> None:
    run_dir = tmp_path / "run"
    argv = [sys.executable, "-m", "perfproof", "ab", "--repo", str(ab_env.repo),
            "--base", "baseline", "--head", "feature", "--rounds", "2",
            "--bench", "EventBusBench", "--jmh-args", TINY, "--out", str(run_dir)]  # fmt: skip
    code, err = ctrl_c_when(
        argv,
        lambda: (
            steps_of(run_dir).get("01-base") == "done"
            and steps_of(run_dir).get("01-head") == "running"
        ),
        240,
    )
    assert code == 130, err
    assert f"perfproof ab --resume {run_dir}" in err
    m = manifest(run_dir)
    assert m["status"] == "interrupted"
    steps = {s["id"]: s for s in m["steps"]}
    assert steps["01-base"]["status"] == "done" and (run_dir / "jmh" / "01-base.json").is_file()
    assert steps["01-head"]["status"] == "interrupted"
    assert not list((run_dir / "jmh").glob(".*"))  # no partial file left behind
    assert _jmh_processes_of(run_dir) == []  # the JMH JVMs were stopped too


def test_resume_refuses_new_settings(ab_env, run_cli, tmp_path) -> None:
    res = run_cli("ab", "--resume", tmp_path, "--rounds", "5")
    assert res.code == 2 and "--rounds" in res.err


def test_failing_build_on_one_side_exits_3_naming_side_and_log(ab_env, run_cli, tmp_path):
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "broken",
                  "--rounds", "1", "--jmh-args", TINY, "--out", run_dir)  # fmt: skip
    assert res.code == 3, res.err
    line = [ln for ln in res.err.splitlines() if ln.startswith("perfproof: error:")]
    assert len(line) == 1
    assert "head side" in line[0] and "build head" in line[0]
    log = run_dir / "logs" / "build-head.log"
    assert str(log) in line[0]
    assert "COMPILATION ERROR" in log.read_text() or "ERROR" in log.read_text()
    m = manifest(run_dir)
    assert m["status"] == "failed" and "build" in m["error"]
    assert all(s["status"] == "pending" for s in m["steps"])


def test_benchmark_that_throws_exits_3_and_keeps_finished_steps(ab_env, run_cli, tmp_path):
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "throws",
                  "--bench", "EventBusBench", "--rounds", "1", "--jmh-args", TINY,
                  "--out", run_dir)  # fmt: skip
    assert res.code == 3, res.err
    line = next(ln for ln in res.err.splitlines() if ln.startswith("perfproof: error:"))
    assert "01-head" in line and "head side" in line
    assert "boom from the benchmark" in line
    assert str(run_dir / "logs" / "01-head.jmh.log") in line
    m = manifest(run_dir)
    steps = {s["id"]: s for s in m["steps"]}
    assert steps["01-base"]["status"] == "done" and (run_dir / "jmh" / "01-base.json").is_file()
    assert steps["01-head"]["status"] == "failed" and steps["01-head"]["exit_code"] != 0
    assert not (run_dir / "jmh" / "01-head.json").exists()


def test_bench_matching_nothing_is_bad_input_naming_the_side(ab_env, run_cli, tmp_path):
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                  "--bench", "NoSuchBench", "--out", tmp_path / "run")  # fmt: skip
    assert res.code == 2, res.err
    assert "NoSuchBench" in res.err and "base side" in res.err and "list-base.log" in res.err
    named = res.err.split("(log: ")[1].split(")")[0]
    assert Path(named).is_file() and "NoSuchBench" in Path(named).read_text()  # it is kept


def test_benchmark_only_the_feature_has_suggests_overlay(ab_env, run_cli, tmp_path):
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "guard",
                  "--bench", "GuardBench", "--out", tmp_path / "run")  # fmt: skip
    assert res.code == 2, res.err
    error = res.err.strip().splitlines()[-1]
    assert error.startswith("perfproof: error: --bench GuardBench matches no benchmark on the base")
    assert error.endswith("if head adds it, copy its source onto base with --overlay PATH")


def test_overlay_measures_the_heads_new_benchmark_on_the_baseline(ab_env, run_cli, tmp_path):
    path = "src/main/java/perfdemo/bench/GuardBench.java"
    run_dir = tmp_path / "run"
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "guard",
                  "--overlay", path, "--bench", "GuardBench", "--rounds", "1",
                  "--jmh-args", TINY, "--out", run_dir, "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    m = manifest(run_dir)
    assert m["overlay"] == {"paths": [path], "from": "head", "onto": "base", "files": [path]}
    base_build = next(b for b in m["builds"] if b["side"] == "base")
    assert base_build["overlaid"] == [path]
    doc = json.loads(res.out)
    assert {c["benchmark"] for c in doc["comparisons"]} == {"perfdemo.bench.GuardBench.publishOnce"}


HOLDER = """
import fcntl, sys, time
fh = open("/tmp/jmh.lock", "a+")
fcntl.lockf(fh, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[1]))
"""


def _hold_jmh_lock(seconds: float) -> subprocess.Popen:
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(seconds)],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    return holder


def _ab_while_lock_held(ab_env, run_cli, out: Path, hold_s: float, timeout_s: str):
    holder = _hold_jmh_lock(hold_s)
    try:
        return run_cli("ab", "--repo", ab_env.repo, "--base", "baseline", "--head", "feature",
                       "--bench", "EventBusBench", "--rounds", "1", "--jmh-args", TINY,
                       "--lock-timeout", timeout_s, "--out", out)  # fmt: skip
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_jmh_lock_held_elsewhere_times_out_without_forcing(ab_env, run_cli, tmp_path):
    res = _ab_while_lock_held(ab_env, run_cli, tmp_path / "run", 60, "2")
    assert res.code == 3, res.err
    assert "waiting up to 2s" in res.err
    assert "still holds /tmp/jmh.lock" in res.err and "--lock-timeout" in res.err
    assert not list((tmp_path / "run" / "jmh").glob("[0-9]*.json"))


def test_jmh_lock_released_in_time_lets_the_run_go_on(ab_env, run_cli, tmp_path):
    res = _ab_while_lock_held(ab_env, run_cli, tmp_path / "run", 3, "120")
    assert res.code == 0, res.err
    assert "is held" in res.err and "waiting up to 120s" in res.err
    first = manifest(tmp_path / "run")["steps"][0]
    assert first["lock_wait_s"] > 0.5


def test_fail_on_regression_gates_with_exit_1(ab_env, run_cli, tmp_path):
    """Swapping the refs turns the feature's allocation savings into a regression."""
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "feature", "--head", "baseline",
                  "--bench", "EventBusBench", "--rounds", "1", "--jmh-args", TINY,
                  "--order", "random", "--seed", "5", "--fail-on-regression",
                  "--out", tmp_path / "run")  # fmt: skip
    assert res.code == 1, res.err
    assert "regressed" in res.err and "perfdemo.bench.EventBusBench.publishNoListeners" in res.err
    m = manifest(tmp_path / "run")
    assert m["status"] == "done" and m["plan"]["order"] == "random" and m["plan"]["seed"] == 5


def test_thin_jar_with_maven_classpath_runs_on_the_classpath(ab_env, run_cli, tmp_path):
    """No shade plugin: the benchmark jar runs with the classpath Maven resolved."""
    res = run_cli("ab", "--repo", ab_env.repo, "--base", "thin", "--head", "thin",
                  "--bench", "EventBusBench", "--rounds", "1", "--jmh-args", TINY,
                  "--out", tmp_path / "run", "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    m = manifest(tmp_path / "run")
    assert {b["layout"] for b in m["builds"]} == {"classpath"}
    argv = m["steps"][0]["argv"]
    assert argv[1] == "-cp" and "org.openjdk.jmh.Main" in argv
    assert any("jmh-core-1.37.jar" in part for part in argv[2].split(":"))
    # time and bytes/op of the one selected key (beside them the costs families: off-heap
    # bytes and GC time per operation)
    metrics = [c["metric"] for c in json.loads(res.out)["comparisons"]]
    assert metrics.count("primary") == 1 and metrics.count("gc.alloc.rate.norm") == 1, metrics


def test_off_heap_bytes_per_operation_are_counted_exactly(ab_env, run_cli) -> None:
    """perfproof's own JMH profiler in the timing forks: a direct buffer per call is 4,096
    bytes per operation, a reused heap buffer none, compared exactly; -prof gc sees neither."""
    res = run_cli("ab", "--repo", ab_env.repo, "--ref", "direct", "--pair", "direct=heap",
                  "--rounds", "1", "--jmh-args", f"-f 1 {TINY}", "--format", "json")  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    by_metric = {c["metric"]: c for c in doc["comparisons"]}
    direct = by_metric["direct.alloc.norm"]
    assert direct["base"]["estimate"] == 4096.0 and direct["head"]["estimate"] == 0.0
    assert direct["method"] == "exact" and direct["verdict"] == "improved"
    assert by_metric["native.alloc.norm"]["verdict"] == "same"
    report = (Path(doc["run_dir"]) / "report.md").read_text()
    assert "| 4,096 → 0 B/op (-100.0%) |" in report

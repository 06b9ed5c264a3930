"""``perfproof e2e`` end to end with small Python commands printing seeded metrics."""

from __future__ import annotations

import json
import math
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st

# Each run prints a value drawn from a known distribution, seeded by the step id the runner
# exports, so the test can recompute every value the command printed.
GEN = (
    "import os, random, json; step = os.environ['PERFPROOF_STEP']; "
    "r = random.Random(step); v = r.gauss({mean}, {sd}); "
    "print('warming up'); print('took %.9f ms' % v); "
    "print(json.dumps({{'rps': {{'hist': [0, 1e6 / v]}}}}))"
)


def gen_cmd(mean: float, sd: float) -> str:
    return shlex.join([sys.executable, "-c", GEN.format(mean=mean, sd=sd)])


def expected(side: str, runs: int, mean: float, sd: float) -> np.ndarray:
    vals = [random.Random(f"r{r:03d}-{side}").gauss(mean, sd) for r in range(1, runs + 1)]
    return np.array([float(f"{v:.9f}") for v in vals])


METRIC_KEYS = {
    "name", "unit", "base", "head", "delta_pct", "delta_ci", "welch_df", "paired", "verdict",
    "mde_pct", "runs_needed",
}  # fmt: skip


def test_json_document_matches_scipy_on_the_printed_values(run_cli, tmp_path: Path) -> None:
    runs = 8
    res = run_cli(
        "e2e", "--base-cmd", gen_cmd(100, 3), "--head-cmd", gen_cmd(90, 3),
        "--metric", r"time[ms]=took ([\d.]+) ms", "--metric", "rps=json:$.rps.hist[1]",
        "--higher-is-better", "rps", "--runs", str(runs), "--confidence", "0.95",
        "--runs-dir", str(tmp_path / "runs"), "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["schema"] == "perfproof.e2e/1"
    assert [m["name"] for m in doc["metrics"]] == ["time", "rps"]
    a, b = expected("base", runs, 100, 3), expected("head", runs, 90, 3)
    time_m, rps_m = doc["metrics"]
    assert set(time_m) >= METRIC_KEYS
    assert time_m["unit"] == "ms" and time_m["direction"] == "lower"
    assert time_m["base"]["mean"] == pytest.approx(a.mean(), rel=1e-12)
    lo, hi = st.t.interval(0.95, runs - 1, loc=b.mean(), scale=st.sem(b))
    assert time_m["head"]["ci"] == pytest.approx([lo, hi], rel=1e-12)
    assert time_m["head"]["n"] == runs and time_m["head"]["df"] == runs - 1
    ref = st.ttest_ind(np.log(b), np.log(a), equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert time_m["welch_df"] == pytest.approx(ref.df, rel=1e-10)
    assert time_m["delta_ci"] == pytest.approx(
        [math.expm1(ci.low) * 100, math.expm1(ci.high) * 100], rel=1e-9
    )
    assert time_m["verdict"] == "improved"
    # paired: rounds pair base and head runs of the same round
    pair = st.ttest_rel(np.log(b), np.log(a)).confidence_interval(0.95)
    assert time_m["paired"]["ci"] == pytest.approx(
        [math.expm1(pair.low) * 100, math.expm1(pair.high) * 100], rel=1e-9
    )
    assert time_m["mde_pct"] > 0 and time_m["runs_needed"] > runs
    # rps = 1e6 / time is higher-is-better: the same change is an improvement there too
    assert rps_m["direction"] == "higher" and rps_m["verdict"] == "improved"
    assert rps_m["delta_pct"] > 5
    # every raw output is kept; the manifest has the plan in ABBA order
    run_dir = Path(doc["run_dir"])
    assert len(list((run_dir / "outputs").glob("r*.stdout"))) == 2 * runs
    assert "took" in (run_dir / "outputs" / "r003-head.stdout").read_text()
    manifest = json.loads((run_dir / "manifest.json").read_text())
    ids = [s["id"] for s in manifest["steps"]]
    assert ids[:4] == ["r001-base", "r001-head", "r002-head", "r002-base"]
    assert all(s["status"] == "done" for s in manifest["steps"])
    assert json.loads((run_dir / "results.json").read_text()) == doc
    # the recorded command line repeats the experiment
    assert doc["command"].startswith("perfproof e2e --base-cmd ")
    assert "--higher-is-better rps --runs 8 --order abba --confidence 0.95" in doc["command"]
    again = run_cli(*shlex.split(doc["command"])[1:], "--runs-dir", str(tmp_path / "again"),
                    "--format", "json")  # fmt: skip
    assert again.code == 0, again.err
    redo = json.loads(again.out)
    assert redo["metrics"] == doc["metrics"]  # seeded commands: the very same numbers
    assert redo["command"] == doc["command"]


def test_table_output_with_amdahl_ceiling(run_cli, tmp_path: Path) -> None:
    res = run_cli(
        "e2e", "--base-cmd", gen_cmd(100, 4), "--head-cmd", gen_cmd(100, 4),
        "--metric", r"time[ms]=took ([\d.]+) ms", "--runs", "5",
        "--amdahl-share", "2", "--per-call-gain", "19", "--runs-dir", str(tmp_path),
    )  # fmt: skip
    assert res.code == 0, res.err
    assert "time (lower is better)" in res.out
    assert "paired over 5 rounds" in res.out
    assert "Amdahl ceiling: 2% share × 19% per-call speed-up → at most 0.32%" in res.out
    assert "inconclusive by design; about " in res.out
    assert "runs per side would be needed" in res.out
    assert "[10/10] r005-" in res.err  # progress, one line per run
    run_dir = next(tmp_path.iterdir())
    md = run_cli("e2e", "--resume", str(run_dir), "--format", "md")
    assert md.code == 0 and "| time | " in md.out and "Amdahl ceiling" in md.out
    assert md.err == ""  # nothing ran again


def test_run_folder_resume_and_failing_run(run_cli, tmp_path: Path) -> None:
    """A failing run stops with exit 3 naming the run and its log; --resume redoes only it."""
    marker = tmp_path / "fail-now"
    counter = tmp_path / "count"
    code = (
        "import os, pathlib, sys; step = os.environ['PERFPROOF_STEP']; "
        f"open({str(counter)!r}, 'a').write(step + '\\n'); "
        f"p = pathlib.Path({str(marker)!r}); "
        "fail = step == 'r002-head' and p.exists(); "
        "print('boom', file=sys.stderr) if fail else None; sys.exit(4) if fail else None; "
        "print('value', 10 + (1 if step.endswith('head') else 0) + int(step[1:4]) * 0.01)"
    )
    cmd = shlex.join([sys.executable, "-c", code])
    marker.write_text("x")
    res = run_cli(
        "e2e", "--base-cmd", cmd, "--head-cmd", cmd, "--metric", r"v=value ([\d.]+)",
        "--runs", "3", "--runs-dir", str(tmp_path / "runs"),
    )  # fmt: skip
    assert res.code == 3
    run_dir = next((tmp_path / "runs").iterdir())
    log = run_dir / "outputs" / "r002-head.log"
    assert "run r002-head" in res.err and "exit code 4" in res.err and str(log) in res.err
    assert "boom" in log.read_text() and "$ " in log.read_text()
    manifest = json.loads((run_dir / "manifest.json").read_text())
    status = {s["id"]: s["status"] for s in manifest["steps"]}
    assert status["r002-head"] == "failed" and status["r001-head"] == "done"
    marker.unlink()
    res = run_cli("e2e", "--resume", str(run_dir), "--format", "json")
    assert res.code == 0, res.err
    ran = counter.read_text().split()
    assert sorted(set(ran)) == sorted(status)
    assert ran.count("r002-head") == 2 and ran.count("r001-base") == 1
    doc = json.loads(res.out)
    assert doc["metrics"][0]["base"]["n"] == 3
    assert doc["metrics"][0]["delta_pct"] > 9


def test_metric_not_found_names_run_and_log_then_resume_with_fixed_regex(
    run_cli, tmp_path: Path
) -> None:
    res = run_cli(
        "e2e", "--base-cmd", gen_cmd(100, 1), "--head-cmd", gen_cmd(95, 1),
        "--metric", r"time=elapsed ([\d.]+)", "--runs", "3", "--runs-dir", str(tmp_path),
    )  # fmt: skip
    assert res.code == 2
    run_dir = next(tmp_path.iterdir())
    assert "matched nothing in the output of run r001-base" in res.err
    assert str(run_dir / "outputs" / "r001-base.log") in res.err
    (error,) = [line for line in res.err.splitlines() if line.startswith("perfproof: error:")]
    assert "matched nothing" in error and "Traceback" not in res.err
    assert f"perfproof e2e --resume {run_dir}" in res.err
    refused = run_cli("e2e", "--resume", str(run_dir), "--runs", "5", "--order", "abab")
    assert refused.code == 2 and "drop --runs, --order" in refused.err
    # the outputs are kept: a corrected pattern re-reads them and runs the rest
    res = run_cli(
        "e2e", "--resume", str(run_dir), "--metric", r"time=took ([\d.]+)", "--format", "json"
    )
    assert res.code == 0, res.err
    values = expected("base", 3, 100, 1)
    assert json.loads(res.out)["metrics"][0]["base"]["mean"] == pytest.approx(values.mean())


def test_setup_and_teardown_wrap_every_run_even_a_failed_one(run_cli, tmp_path: Path) -> None:
    log = tmp_path / "events"

    def append(word: str, fail: bool = False) -> str:
        code = (
            f"import os, sys; open({str(log)!r}, 'a').write('{word} ' + "
            "os.environ['PERFPROOF_STEP'] + '\\n'); print('took 1 ms')"
        )
        if fail:
            code += "; sys.exit(os.environ['PERFPROOF_STEP'] == 'r002-base')"
        return shlex.join([sys.executable, "-c", code])

    res = run_cli(
        "e2e", "--base-cmd", append("run", fail=True), "--head-cmd", append("run"),
        "--setup", append("setup"), "--teardown", append("teardown"), "--warmup-runs", "1",
        "--metric", r"t=took (\d+)", "--runs", "2", "--runs-dir", str(tmp_path / "r"),
    )  # fmt: skip
    assert res.code == 3 and "run r002-base" in res.err
    events = log.read_text().splitlines()
    assert events[:3] == ["setup w01-base", "run w01-base", "teardown w01-base"]
    assert events[-3:] == ["setup r002-base", "run r002-base", "teardown r002-base"]
    assert len(events) == 3 * 6  # 2 warm-up runs, then r001-base r001-head r002-head r002-base


def test_commands_are_not_run_through_a_shell_unless_asked(run_cli, tmp_path: Path) -> None:
    printer = f"{shlex.quote(sys.executable)} -c 'import sys; print(*sys.argv[1:])'"
    res = run_cli(
        "e2e", "--base-cmd", printer + " took 5 ';' echo $((1+1))",
        "--head-cmd", printer + " took 6 '&&' true", "--metric", r"cmd=took \d+ (\S+)",
        "--runs", "2", "--runs-dir", str(tmp_path), "--format", "json",
    )  # fmt: skip
    # the regex needs a number after 'took N': ';' is an argument, not a separator
    assert res.code == 2 and "not a number" in res.err
    run_dir = next(tmp_path.iterdir())
    assert (run_dir / "outputs" / "r001-base.stdout").read_text() == "took 5 ; echo $((1+1))\n"
    res = run_cli(
        "e2e", "--shell", "--base-cmd", "echo took $((2+3))", "--head-cmd", "echo took 6",
        "--metric", r"t=took (\d+)", "--runs", "2", "--runs-dir", str(tmp_path / "s"),
        "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    assert json.loads(res.out)["metrics"][0]["base"]["mean"] == 5


def test_same_command_in_two_directories(run_cli, tmp_path: Path) -> None:
    for name, value in (("v1", 10), ("v2", 12)):
        d = tmp_path / name
        d.mkdir()
        (d / "bench.py").write_text(
            f"import random\nprint('took', {value} + random.random() * 0.1)\n"
        )
    res = run_cli(
        "e2e", "--base-dir", str(tmp_path / "v1"), "--head-dir", str(tmp_path / "v2"),
        "--run", f"{shlex.quote(sys.executable)} bench.py", "--metric", r"t=took ([\d.]+)",
        "--runs", "4", "--runs-dir", str(tmp_path / "runs"), "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    m = json.loads(res.out)["metrics"][0]
    assert m["verdict"] == "regressed" and 15 < m["delta_pct"] < 25


def test_refs_run_in_their_own_worktrees_after_a_build(run_cli, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (repo / ".gitignore").write_text("built.txt\n")
    for msg, value in (("slow", 20), ("fast", 10)):
        (repo / "app.py").write_text(
            f"import pathlib, random\nassert pathlib.Path('built.txt').read_text() == 'ok'\n"
            f"print('took', {value} + random.random())\n"
        )
        git("add", ".")
        git("commit", "-q", "-m", msg)
        git("tag", msg)
    build = f"{shlex.quote(sys.executable)} -c \"open('built.txt', 'w').write('ok')\""
    res = run_cli(
        "e2e", "--repo", str(repo), "--base", "slow", "--head", "fast", "--build-cmd", build,
        "--run", f"{shlex.quote(sys.executable)} app.py", "--metric", r"t=took ([\d.]+)",
        "--runs", "3", "--format", "json",
    )  # fmt: skip
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["metrics"][0]["verdict"] == "improved"
    assert doc["sides"]["base"]["ref"] == "slow"
    assert len(doc["sides"]["head"]["sha"]) == 40
    assert Path(doc["run_dir"]).is_relative_to(repo / ".perfproof" / "runs")
    assert Path(doc["sides"]["base"]["build_log"]).is_file()
    assert not (repo / "built.txt").exists()  # the user's checkout is untouched
    java = shutil.which("java")
    if java is not None:  # --java: the JDK of the builds and of every command run
        show = "import os; print('took', len(os.environ['JAVA_HOME']))"
        res = run_cli(
            "e2e", "--repo", str(repo), "--base", "slow", "--head", "fast", "--build-cmd", build,
            "--jar", "built.txt", "--java", java, "--run", shlex.join([sys.executable, "-c", show]),
            "--metric", r"t=took (\d+)", "--runs", "2", "--format", "json",
        )  # fmt: skip
        assert res.code == 0, res.err
        assert json.loads(res.out)["metrics"][0]["base"]["mean"] > 0
    res = run_cli(
        "e2e", "--repo", str(repo), "--base", "slow", "--head", "fast", "--build-cmd", build,
        "--jar", "out/*.jar", "--run", "true", "--metric", "t=(x)",
    )  # fmt: skip
    assert res.code == 3 and "--jar out/*.jar matches no file" in res.err
    broken = shlex.join([sys.executable, "-c", "import sys; print('no compiler'); sys.exit(5)"])
    res = run_cli(
        "e2e", "--repo", str(repo), "--base", "slow", "--head", "fast",
        "--build-cmd", broken, "--run", "true", "--metric", "t=(x)",
    )  # fmt: skip
    assert res.code == 3 and "build of base (slow = " in res.err
    assert "build-base.log" in res.err and "exit code 5" in res.err
    res = run_cli(
        "e2e", "--repo", str(repo), "--base", "nope", "--head", "fast",
        "--run", "true", "--metric", "t=(x)",
    )  # fmt: skip
    assert res.code == 2 and "unknown ref 'nope'" in res.err


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--base-cmd", "true", "--head-cmd", "true"], "--metric"),
        (["--base-cmd", "true", "--metric", "t=(1)"], "--base-cmd and --head-cmd"),
        (["--run", "true", "--metric", "t=(1)"], "nothing to compare"),
        (["--base-cmd", "a", "--head-cmd", "b", "--metric", "t=(1)", "--runs", "1"], "--runs 1"),
        (["--base-cmd", "'a", "--head-cmd", "b", "--metric", "t=(1)"], "--base-cmd"),
        (
            ["--base-cmd", "a", "--head-cmd", "b", "--metric", "t=(1)", "--higher-is-better", "x"],
            "--higher-is-better 'x'",
        ),
        (
            ["--base-cmd", "a", "--head-cmd", "b", "--metric", "t=(1)", "--amdahl-share", "5"],
            "--per-call-gain",
        ),
        (
            ["--base-cmd", "a", "--head-cmd", "b", "--metric", "t=(1)", "--metric", "t=(2)"],
            "declared twice",
        ),
        (["--resume", "/nonexistent/run"], "no manifest.json"),
    ],
)
def test_bad_input_is_one_line_exit_2(run_cli, args: list[str], fragment: str) -> None:
    res = run_cli("e2e", *args)
    assert res.code == 2
    assert fragment in res.err
    assert res.err.count("\n") == 1


def test_missing_program_is_an_input_error(run_cli, tmp_path: Path) -> None:
    res = run_cli(
        "e2e",
        "--base-cmd",
        "no-such-program-xyz",
        "--head-cmd",
        "true",
        "--metric",
        "t=(1)",
        "--runs",
        "2",
        "--runs-dir",
        str(tmp_path),
    )
    assert res.code == 2 and "no-such-program-xyz" in res.err


def test_random_order_is_seeded_and_recorded(run_cli, tmp_path: Path) -> None:
    orders = []
    for i in range(2):
        res = run_cli(
            "e2e", "--base-cmd", "echo took 1", "--head-cmd", "echo took 2",
            "--metric", r"t=took (\d+)", "--runs", "8", "--order", "random", "--seed", "7",
            "--runs-dir", str(tmp_path / str(i)), "--format", "json",
        )  # fmt: skip
        assert res.code == 0, res.err
        run_dir = Path(json.loads(res.out)["run_dir"])
        manifest = json.loads((run_dir / "manifest.json").read_text())
        orders.append([s["id"] for s in manifest["steps"]])
    assert orders[0] == orders[1]  # same seed, same order
    firsts = [step.split("-")[1] for step in orders[0][::2]]
    assert len(orders[0]) == 16 and set(firsts) == {"base", "head"}


def test_a_run_past_its_timeout_is_stopped_and_named(run_cli, tmp_path: Path) -> None:
    slow = shlex.join([sys.executable, "-c", "import time; time.sleep(30)"])
    res = run_cli(
        "e2e", "--base-cmd", slow, "--head-cmd", slow, "--metric", "t=(x)", "--runs", "2",
        "--timeout", "0.5", "--runs-dir", str(tmp_path),
    )  # fmt: skip
    assert res.code == 3
    assert "run r001-base timed out" in res.err and "r001-base.log" in res.err


def test_build_options_need_refs_and_do_not_mix(run_cli, tmp_path: Path) -> None:
    common = ["--base-cmd", "true", "--head-cmd", "true", "--metric", "t=(1)"]
    res = run_cli("e2e", *common, "--build", "maven")
    assert res.code == 2 and "need --base/--head refs" in res.err
    res = run_cli("e2e", "--base", "a", "--head", "b", "--run", "x", "--metric", "t=(1)",
                  "--build", "maven", "--build-cmd", "make")  # fmt: skip
    assert res.code == 2 and "cannot be combined with --build" in res.err


def test_tool_build_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from perfproof.errors import InputError
    from perfproof.pipeline.e2e.options import E2EOptions
    from perfproof.pipeline.e2e.sides import tool_build_argv
    from perfproof.workspace.spec import BuildKind

    tools = tmp_path / "bin"  # mvn and gradle on PATH are stand-ins: only the argv is checked
    tools.mkdir()
    for name in ("mvn", "gradle"):
        (tools / name).write_text("#!/bin/sh\n")
        (tools / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))

    def argv(build: str, module: str | None = None, **more: object) -> tuple[str, ...] | None:
        return tool_build_argv(E2EOptions(build=BuildKind(build), module=module, **more), tmp_path)

    assert argv("gradle")[0] == "gradle"
    (tools / "gradle").unlink()

    assert argv("maven", "app/server", keep_checks=True) == (
        "mvn", "-B", "-q", "-DskipTests", "-pl", "app/server", "-am", "package",
    )  # fmt: skip
    # the build options mean what they mean to ab: checks skipped unless kept, args added
    built = argv("maven", build_args=("-Pdist",))
    assert "-Dcheckstyle.skip=true" in built and built[-2:] == ("-Pdist", "package")
    (tmp_path / "mvnw").write_text("#!/bin/sh\n")
    assert argv("maven")[0] == "./mvnw"
    assert argv("maven", maven="mvn")[0] == "mvn"
    with pytest.raises(InputError, match=r"no gradlew in .* and no gradle on PATH"):
        argv("gradle")
    (tmp_path / "gradlew").write_text("#!/bin/sh\n")
    assert argv("gradle", "app/server")[-1] == ":app:server:assemble"
    assert argv("auto", build_args=("--offline",))[-2:] == ("assemble", "--offline")
    assert tool_build_argv(E2EOptions(), tmp_path) is None  # no build unless asked

"""What counts as a finished JMH step: exit code, <failure>, missing results, the JDK used."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from perfproof.errors import ExternalError
from perfproof.measure.argv import step_argv
from perfproof.measure.plan import Plan, jmh_options, make_plan
from perfproof.measure.progress import PlainReporter
from perfproof.measure.scheduler import Scheduler, SideTarget, check_step_output, publish_result
from perfproof.measure.store import RunStore
from perfproof.model.documents.run import RunManifest
from perfproof.model.documents.run_plan import parse_settings
from perfproof.process import ProcessResult

HOME = "/usr/lib/jvm/java-17"


def result(code: int = 0, output: str = "# Run complete.\n") -> ProcessResult:
    return ProcessResult(("java",), code, 1.0, output, None)


def entry(name: str, jvm: str = f"{HOME}/bin/java") -> dict[str, object]:
    return {"benchmark": name, "jvm": jvm, "mode": "avgt", "primaryMetric": {"score": 1.0}}


def write(tmp_path: Path, entries: object) -> Path:
    path = tmp_path / ".01-base.partial.json"
    path.write_text(json.dumps(entries))
    return path


def test_good_step_is_accepted(tmp_path: Path) -> None:
    partial = write(tmp_path, [entry("a.B.x"), entry("a.B.y")])
    entries, failure = check_step_output(result(), partial, ["a.B.x", "a.B.y"], HOME)
    assert failure is None and entries is not None and len(entries) == 2


def test_nonzero_exit_names_the_exception_after_failure_marker(tmp_path: Path) -> None:
    out = (
        "# Benchmark: a.B.x\n<failure>\n\n"
        "java.lang.IllegalStateException: boom\n\tat a.B.x(B.java:10)\n"
    )
    _, failure = check_step_output(result(1, out), tmp_path / "none.json", ["a.B.x"], HOME)
    assert failure is not None
    assert "exited with code 1" in failure.reason
    assert "IllegalStateException: boom" in failure.reason


def test_failure_marker_with_exit_zero_still_fails(tmp_path: Path) -> None:
    partial = write(tmp_path, [entry("a.B.y")])
    out = "<failure>\n\njava.lang.ArithmeticException: / by zero\n"
    _, failure = check_step_output(result(0, out), partial, ["a.B.x", "a.B.y"], HOME)
    assert failure is not None and "threw" in failure.reason and "by zero" in failure.reason


def test_missing_expected_benchmark_fails(tmp_path: Path) -> None:
    partial = write(tmp_path, [entry("a.B.y")])
    _, failure = check_step_output(result(), partial, ["a.B.x", "a.B.y"], HOME)
    assert failure is not None and "no result for a.B.x" in failure.reason


def test_missing_or_empty_or_broken_file_fails(tmp_path: Path) -> None:
    _, f1 = check_step_output(result(), tmp_path / "absent.json", [], HOME)
    assert f1 is not None and "no readable result file" in f1.reason
    _, f2 = check_step_output(result(), write(tmp_path, []), [], HOME)
    assert f2 is not None and "no results" in f2.reason
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    _, f3 = check_step_output(result(), broken, [], HOME)
    assert f3 is not None


def test_forks_on_another_jdk_fail(tmp_path: Path) -> None:
    partial = write(tmp_path, [entry("a.B.x", jvm="/opt/jdk-21/bin/java")])
    _, failure = check_step_output(result(), partial, ["a.B.x"], HOME)
    assert failure is not None and "/opt/jdk-21/bin/java" in failure.reason
    # a home that is only a prefix of another folder's name is not the same JDK
    partial = write(tmp_path, [entry("a.B.x", jvm=f"{HOME}-other/bin/java")])
    _, failure = check_step_output(result(), partial, ["a.B.x"], HOME)
    assert failure is not None


def test_publish_moves_the_file_and_never_overwrites(tmp_path: Path) -> None:
    partial = write(tmp_path, [entry("a.B.x")])
    final = tmp_path / "01-base.json"
    publish_result(partial, final)
    assert not partial.exists() and json.loads(final.read_text())[0]["benchmark"] == "a.B.x"
    kept = final.read_bytes()
    again = write(tmp_path, [entry("other")])
    with pytest.raises(ExternalError, match="never rewritten"):
        publish_result(again, final)
    assert final.read_bytes() == kept


def jfr_scheduler(tmp_path: Path, user_args: list[str]) -> tuple[Scheduler, Plan]:
    store = RunStore.create(tmp_path / "run", RunManifest(id="run"))
    plan = make_plan(2, "abba", None, ("Foo",), jmh_options(user_args))
    store.init_steps(plan)
    target = SideTarget("base", lambda step: ["java", "-jar", "b.jar"], ["a.Foo.x"])
    sched = Scheduler(
        store,
        {"base": target, "head": target},
        PlainReporter(io.StringIO()),
        settings=parse_settings(plan.jmh_options),
        lock_timeout_s=0,
        java_home=None,
        lock_path=tmp_path / "jmh.lock",
        jfr_dir=store.jfr_dir(),
    )
    return sched, plan


def test_step_with_jfr_records_every_fork_into_its_own_emptied_folder(tmp_path: Path) -> None:
    sched, plan = jfr_scheduler(tmp_path, ["-f", "2", "-jvmArgsAppend", "-Xmx1g -Da=b"])
    step = plan.steps[3]  # round 2, base
    folder = tmp_path / "run" / "jfr" / "r2-base"
    folder.mkdir(parents=True)
    (folder / "hotspot-pid-9-id-1-dead.jfr").write_bytes(b"FLR\0 from a killed attempt")
    argv = step_argv(["java", "-jar", "b.jar"], plan.benchmarks, sched.step_options(step, plan),
                     "/run/jmh/.02-base.partial.json")  # fmt: skip
    assert argv == [
        "java", "-jar", "b.jar", "Foo", "-wi", "3", "-w", "500ms", "-i", "4", "-r", "500ms",
        "-foe", "true", "-f", "2", "-jvmArgsAppend",
        f"-Xmx1g -Da=b -XX:StartFlightRecording=filename={folder}/,settings=profile,"
        "dumponexit=true",
        "-prof", "gc", "-rf", "json", "-rff", "/run/jmh/.02-base.partial.json",
    ]  # fmt: skip
    assert folder.is_dir() and not list(folder.iterdir())  # the dead attempt's file is gone
    assert not (tmp_path / "run" / "jfr" / "r1-base").exists()  # other steps left alone


def test_step_without_jfr_keeps_the_plans_options(tmp_path: Path) -> None:
    sched, plan = jfr_scheduler(tmp_path, [])
    sched.jfr_dir = None
    assert sched.step_options(plan.steps[0], plan) == tuple(plan.jmh_options)

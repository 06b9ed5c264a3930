"""The run folder: creation, manifest bookkeeping and what --resume may trust."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.measure.plan import make_plan
from perfproof.measure.store import (
    DONE,
    FAILED,
    PENDING,
    RUNNING,
    SCHEMA,
    RunStore,
    default_runs_dir,
)
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.run import Jdk, RunManifest


def new_store(tmp_path: Path, rounds: int = 2) -> RunStore:
    store = RunStore.create(tmp_path / "run", RunManifest(id="run", repo="/r"))
    store.init_steps(make_plan(rounds, "abba", None, ("Foo",), ("-f", "1")))
    return store


def test_create_writes_a_versioned_manifest_and_the_folders(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    doc = json.loads((store.path / "manifest.json").read_text())
    assert doc["schema"] == SCHEMA
    assert doc["status"] == RUNNING
    assert [s["id"] for s in doc["steps"]] == ["01-base", "01-head", "02-head", "02-base"]
    assert all(s["status"] == PENDING for s in doc["steps"])
    assert doc["steps"][0]["result"] == "jmh/01-base.json"
    assert doc["steps"][0]["log"] == "logs/01-base.jmh.log"
    assert (store.path / "jmh").is_dir() and (store.path / "logs").is_dir()
    assert not [p for p in store.path.iterdir() if p.name.endswith(".tmp")]


def test_create_refuses_an_existing_run_or_a_non_empty_folder(tmp_path: Path) -> None:
    new_store(tmp_path)
    with pytest.raises(InputError, match="already holds a run"):
        RunStore.create(tmp_path / "run", RunManifest())
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("x")
    with pytest.raises(InputError, match="not empty"):
        RunStore.create(tmp_path / "other", RunManifest())


def test_open_rejects_folders_that_are_not_runs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no manifest\.json"):
        RunStore.open(tmp_path)
    (tmp_path / "manifest.json").write_text("{broken")
    with pytest.raises(InputError, match="unreadable"):
        RunStore.open(tmp_path)
    (tmp_path / "manifest.json").write_text('{"schema": "other/1"}')
    with pytest.raises(InputError, match=r"not a perfproof\.run/1"):
        RunStore.open(tmp_path)


def test_pending_steps_trust_files_not_statuses(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    steps = store.plan.steps
    # step 0 finished normally
    store.result_path(steps[0]).write_text("[]")
    store.update_step(steps[0], status=DONE)
    # step 1: its file was renamed into place but the process died before the manifest said so
    store.result_path(steps[1]).write_text("[]")
    store.update_step(steps[1], status=RUNNING)
    # step 2: killed while running (no file); step 3 had failed
    store.update_step(steps[2], status=RUNNING)
    store.update_step(steps[3], status=FAILED)
    reopened = RunStore.open(store.path)
    todo = reopened.pending_steps()
    assert [s.id for s in todo] == ["02-head", "02-base"]
    entries = {e["id"]: e for e in json.loads((store.path / "manifest.json").read_text())["steps"]}
    assert entries["01-head"]["status"] == DONE and "recovered" in entries["01-head"]["note"]
    assert entries["02-head"]["status"] == PENDING
    assert entries["02-head"]["previous_status"] == RUNNING
    assert entries["02-base"]["previous_status"] == FAILED


def test_a_done_step_whose_file_vanished_is_run_again(tmp_path: Path) -> None:
    store = new_store(tmp_path, rounds=1)
    store.update_step(store.plan.steps[0], status=DONE)
    assert [s.id for s in store.pending_steps()] == ["01-base", "01-head"]


def test_finished_result_files_per_side_in_plan_order(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    for step in store.plan.steps:
        if step.id != "02-base":
            store.result_path(step).write_text("[]")
    assert [p.name for p in store.finished_result_files("base")] == ["01-base.json"]
    assert [p.name for p in store.finished_result_files("head")] == ["01-head.json", "02-head.json"]


def test_only_one_process_may_work_on_a_run(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    other = RunStore.open(store.path)
    with store.exclusive(), pytest.raises(InputError, match="in use"), other.exclusive():
        pass
    with other.exclusive():  # released again
        pass


def test_manifest_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = new_store(tmp_path)
    before = (store.path / "manifest.json").read_bytes()

    def boom(*_a: object, **_k: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError):
        store.update_step(store.plan.steps[0], status=DONE)
    assert (store.path / "manifest.json").read_bytes() == before
    assert not [p for p in store.path.iterdir() if p.name.endswith(".tmp")]


def test_default_runs_dir_keeps_git_status_clean(tmp_path: Path) -> None:
    runs = default_runs_dir(tmp_path)
    assert runs == tmp_path / ".perfproof" / "runs"
    assert (tmp_path / ".perfproof" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_open_names_another_major_version_and_refuses_nan(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text('{"schema": "perfproof.run/2"}')
    with pytest.raises(InputError, match=r"perfproof\.run/2 is a newer schema .*perfproof\.run/1"):
        RunStore.open(tmp_path)
    (tmp_path / "manifest.json").write_text('{"schema": "perfproof.run/1", "x": NaN}')
    with pytest.raises(InputError, match="NaN"):
        RunStore.open(tmp_path)


def test_environment_written_is_the_environment_the_report_reads(tmp_path: Path) -> None:
    """One type for the writer and the reader: every machine fact captured is shown."""
    from perfproof.measure import environment
    from perfproof.report.environment import load_text, machine_text, run_warnings
    from perfproof.report.rundir import RunFolder, read_manifest

    store = new_store(tmp_path)
    env = environment.capture(
        jdk=Jdk(vendor="Acme", runtime_version="21", home="/jdk", vm_name="VM"),
        jmh_version="1.37",
        shas={"base": "a" * 40, "head": "b" * 40},
    )
    env.cores, env.memory_bytes, env.load_after = 2, 8 * 2**30, [9.0, 1, 1]
    store.manifest.environment = env
    store.save()
    written = json.loads((store.path / "manifest.json").read_text())
    nothing = CompareDocument(confidence=0.95, threshold=0.02, family="holm", comparisons=[])
    run = RunFolder(store.path, read_manifest(store.path / "manifest.json"), nothing)
    text = machine_text(run)
    assert text is not None and "2 cores" in text and "8.0 GiB memory" in text
    assert store.environment.load_before == written["environment"]["load_before"]
    assert "9.00 / 1.00 / 1.00 after" in (load_text(run) or "")
    assert any("busy" in w and "2 cores" in w for w in run_warnings(run))


def test_a_hand_edited_environment_is_named(tmp_path: Path) -> None:
    from perfproof.report.rundir import read_manifest

    store = new_store(tmp_path)
    doc = {**store.manifest.dump(), "environment": {"cores": "two"}}
    (store.path / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"'environment\.cores' is not a whole number"):
        RunStore.open(store.path)
    with pytest.raises(InputError, match=r"manifest\.json: 'environment\.cores'"):
        read_manifest(store.path / "manifest.json")


def test_manifest_round_trips_through_its_type(tmp_path: Path) -> None:
    from perfproof.model.documents.run import RunManifest

    store = new_store(tmp_path)
    written = store.manifest.dump()
    written["environment"] = {"cores": 4, "load_before": [0.5, 0.4, 0.3], "new": 1}
    written["from_a_newer_version"] = {"x": [1, 2]}
    typed = RunManifest.read(written, "m")
    assert typed.kind == "ab" and typed.environment.cores == 4
    assert typed.environment.model_extra == {"new": 1}  # a newer minor version's entries are kept
    assert typed.model_extra == {"from_a_newer_version": {"x": [1, 2]}}
    again = typed.dump()
    assert again["environment"]["new"] == 1 and again["steps"] == written["steps"]
    assert {k: v for k, v in again.items() if k != "environment"} == {
        k: v for k, v in written.items() if k != "environment"
    }


def test_discard_if_unused_keeps_a_folder_with_a_finished_step(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    step = store.plan.steps[0]
    store.update_step(step, status=DONE)
    assert not store.discard_if_unused() and store.path.is_dir()
    store.update_step(step, status=FAILED)
    assert store.discard_if_unused() and not store.path.exists()

"""``perfproof export --format json``: what was written, checked against the files themselves."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest


@pytest.fixture
def ab_run(make_run_folder, tmp_path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), copy)
    return copy


def _json(result) -> dict:
    assert result.code == 0, result.err
    return json.loads(result.out)


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def test_bencher_says_where_it_wrote_and_what_the_file_holds(ab_run, run_cli, tmp_path):
    out = tmp_path / "bmf.json"
    doc = _json(run_cli("export", ab_run, "--to", "bencher", "--out", out, "--format", "json"))
    assert doc["schema"] == "perfproof.export/1" and doc["format"] == "bencher"
    assert doc["metrics"] == [
        "primary",
        "gc.alloc.rate.norm",
        "direct.alloc.norm",
        "native.alloc.norm",
        "gc.time.norm",
        "gc.count.norm",
    ]
    assert doc["samples"] is None
    (run,) = doc["runs"]
    refs = _manifest(ab_run)["refs"]
    assert run["run_dir"] == str(ab_run) and run["run_id"] == _manifest(ab_run).get("id", "run")
    assert run["commit"] == refs["head"]["sha"] and run["base_commit"] == refs["base"]["sha"]
    assert run["machine"] is None
    (file,) = doc["files"]
    bmf = json.loads(out.read_text())
    measures = sum(len(m) for m in bmf.values())
    assert file == {
        "path": str(out),
        "keys": measures,
        "rows": measures,
        "bytes": out.stat().st_size,
        "omitted_intervals": [],  # 4 forks a side: every interval within 1,000x its value
        "not_compared": [],
    }


def test_machine_comes_from_the_run_and_counts_follow_the_metrics(ab_run, run_cli, tmp_path):
    manifest = _manifest(ab_run)
    manifest.setdefault("options", {})["machine"] = "ci-large"
    (ab_run / "manifest.json").write_text(json.dumps(manifest))
    both = _json(run_cli("export", ab_run, "--to", "bencher", "--out", tmp_path / "a.json",
                         "--format", "json"))  # fmt: skip
    primary = _json(run_cli("export", ab_run, "--to", "bencher", "--out", tmp_path / "b.json",
                            "--metric", "primary", "--format", "json"))  # fmt: skip
    assert both["runs"][0]["machine"] == "ci-large"
    assert primary["metrics"] == ["primary"]
    assert 0 < primary["files"][0]["keys"] < both["files"][0]["keys"]


def test_github_action_benchmark_counts_each_file(ab_run, run_cli, tmp_path):
    out = tmp_path / "gab"
    doc = _json(run_cli("export", ab_run, "--to", "github-action-benchmark", "--out", out,
                        "--format", "json"))  # fmt: skip
    assert {Path(f["path"]).name for f in doc["files"]} == {
        "customSmallerIsBetter.json",
        "customBiggerIsBetter.json",
    }
    for f in doc["files"]:
        entries = json.loads(Path(f["path"]).read_text())
        assert Path(f["path"]).parent == out
        assert f["rows"] == f["keys"] == len(entries) > 0


@pytest.mark.parametrize("samples", ["forks", "iterations", "auto"])
def test_benchstat_counts_result_lines_and_names_its_sample(ab_run, run_cli, tmp_path, samples):
    out = tmp_path / "bench.txt"
    doc = _json(run_cli("export", ab_run, "--to", "benchstat", "--samples", samples,
                        "--out", out, "--format", "json"))  # fmt: skip
    text = out.read_text()
    assert text.startswith(f"samples: {doc['samples']}")
    assert doc["samples"] == (samples if samples != "auto" else "iterations")  # 2 forks a side
    (f,) = doc["files"]
    lines = [line for line in text.splitlines() if line.startswith("Benchmark")]
    assert f["rows"] == len(lines)
    # each name's line: name, count, score, unit, then a value and unit per cost beside it
    beside = {line.split()[0]: (len(line.split()) - 4) // 2 for line in lines}
    assert f["keys"] == len(beside) + sum(beside.values())


def test_otava_counts_runs_and_columns(ab_run, make_run_folder, run_cli, tmp_path):
    out = tmp_path / "otava"
    other = make_run_folder("ab")
    doc = _json(run_cli("export", ab_run, other, "--to", "otava", "--out", out,
                        "--format", "json"))  # fmt: skip
    rows = list(csv.DictReader((out / "otava.csv").read_text().splitlines()))
    f, config = doc["files"]
    assert f["path"] == str(out / "otava.csv") and config["path"] == str(out / "otava.yaml")
    assert f["rows"] == len(rows) == 2
    assert f["keys"] == len(rows[0]) - 2 == config["keys"]  # time and commit are not keys
    assert [r["run_dir"] for r in doc["runs"]] == [str(ab_run), str(other)]


def test_text_stays_the_default(ab_run, run_cli, tmp_path):
    out = tmp_path / "o"
    result = run_cli("export", ab_run, "--to", "otava", "--out", out)
    assert result.code == 0 and result.out == f"wrote {out}/otava.csv\nwrote {out}/otava.yaml\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--to", "bencher", "--out", "-"), "--format json: stdout carries the description"),
        (("--to", "xml"), "--to xml: unknown export format"),
        (("--to", "bencher", "--samples", "forks"), "--samples: only for --to benchstat"),
    ],
)
def test_errors_still_exit_2_with_one_line_and_no_document(ab_run, run_cli, args, says):
    result = run_cli("export", ab_run, *args, "--format", "json")
    assert result.code == 2 and result.out == ""
    (line,) = result.err.strip().splitlines()
    assert says in line
    assert not (ab_run / "export").exists()

"""Pinned settings: perfproof.toml or [tool.perfproof], flag > environment > file > default,
refused naming the file and line, and shown with their source in the run's report."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from perfproof.cli.config import both_files, read_pinned, settle
from perfproof.errors import InputError

OPTIONS = ("threshold", "confidence", "family", "jmh_args", "build_args")
DEFAULTS = {"threshold": 0.01, "confidence": 0.99, "family": "bh", "jmh_args": None}


def _repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_perfproof_toml_pins_values_with_their_lines(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    (root / "perfproof.toml").write_text(
        '# the team gate\nthreshold = "5%"\nfamily = "holm"\nbuild-args = ["-Pfast", "-q"]\n'
    )
    pinned = read_pinned(root)
    found = settle(pinned, OPTIONS, {}, DEFAULTS, environ={})
    assert found["threshold"].value == pytest.approx(0.05)
    assert found["threshold"].source == f"{root / 'perfproof.toml'}:2"
    assert found["family"].source.endswith("perfproof.toml:3")
    assert found["build_args"].value == ("-Pfast", "-q")
    assert (found["confidence"].value, found["confidence"].source) == (0.99, "default")
    assert "jmh_args" in found and found["jmh_args"].value is None


def test_flag_beats_environment_beats_file(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.perfproof]\nthreshold = 0.05\nconfidence = "95%"\n'
    )
    pinned = read_pinned(root)
    env = {"PERFPROOF_THRESHOLD": "3%", "PERFPROOF_CONFIDENCE": ""}
    found = settle(pinned, OPTIONS, {}, DEFAULTS, environ=env)
    assert found["threshold"].value == pytest.approx(0.03)
    assert found["threshold"].source == "environment PERFPROOF_THRESHOLD"
    assert found["confidence"].source.endswith("pyproject.toml:6")  # an empty variable is unset
    found = settle(pinned, OPTIONS, {"threshold": 0.02}, DEFAULTS, environ=env)
    assert (found["threshold"].value, found["threshold"].source) == (0.02, "flag")


def test_both_files_merge_key_by_key_perfproof_toml_first(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\n[tool.perfproof]\nthreshold = 0.05\nconfidence = "95%"\n'
    )
    (root / "perfproof.toml").write_text("threshold = 0.02\n")
    pinned = read_pinned(root)
    found = settle(pinned, OPTIONS, {}, DEFAULTS, environ={})
    assert (found["threshold"].value, found["threshold"].source) == (
        0.02,
        f"{root / 'perfproof.toml'}:1",
    )
    # the key only pyproject pins is kept, not dropped with the whole table
    assert (found["confidence"].value, found["confidence"].source) == (
        0.95,
        f"{root / 'pyproject.toml'}:5",
    )
    warning = both_files(pinned)
    assert warning is not None
    assert str(root / "perfproof.toml") in warning and str(root / "pyproject.toml") in warning
    assert "pyproject.toml's threshold not used" in warning


def test_one_file_or_a_pyproject_without_the_table_warns_of_nothing(tmp_path: Path) -> None:
    root = _repo(tmp_path / "r")
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.ruff]\nline-length = 99\n')
    (root / "perfproof.toml").write_text("threshold = 0.02\n")
    pinned = read_pinned(root)
    assert both_files(pinned) is None and pinned.paths == (root / "perfproof.toml",)
    (root / "perfproof.toml").unlink()
    assert read_pinned(root).values == {} and both_files(read_pinned(root)) is None


def test_compare_json_says_where_each_setting_came_from(
    tmp_path: Path, run_cli, fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "r")
    (root / "pyproject.toml").write_text('[tool.perfproof]\nthreshold = 0.05\nconfidence = "95%"\n')
    (root / "perfproof.toml").write_text('# gate\nthreshold = "60%"\n')
    rounds = fixtures_dir / "jmh" / "rounds-wi1-100ms"
    base, head = rounds / "1-base.json", rounds / "1-head.json"
    for name in ("THRESHOLD", "CONFIDENCE", "DB"):
        monkeypatch.delenv(f"PERFPROOF_{name}", raising=False)
    monkeypatch.setenv("PERFPROOF_FAMILY", "holm")
    monkeypatch.chdir(root)
    res = run_cli("compare", base, head, "--format", "json")
    assert res.code == 0
    warning = [line for line in res.err.splitlines() if line.startswith("perfproof: warning:")]
    assert len(warning) == 1
    assert str(root / "perfproof.toml") in warning[0] and str(root / "pyproject.toml") in warning[0]
    settings = json.loads(res.out)["settings"]
    assert settings["threshold"] == {"value": 0.6, "source": f"{root / 'perfproof.toml'}:2"}
    assert settings["confidence"] == {"value": 0.95, "source": f"{root / 'pyproject.toml'}:3"}
    assert settings["family"] == {"value": "holm", "source": "environment PERFPROOF_FAMILY"}
    assert "db" not in settings  # no history database without --record
    db = tmp_path / "h.sqlite"
    res = run_cli("compare", base, head, "--format", "json", "--confidence", "90%",
                  "--record", "--commit", "abc1234", "--db", db)  # fmt: skip
    assert res.code == 0, res.err
    settings = json.loads(res.out)["settings"]
    assert settings["confidence"] == {"value": 0.9, "source": "flag"}
    assert settings["db"] == {"value": str(db), "source": "flag"}


def test_the_report_settings_line_names_the_history_database(tmp_path: Path) -> None:
    from perfproof.model.documents.compare import CompareDocument
    from perfproof.model.documents.run import RunManifest
    from perfproof.report.environment import settings_text
    from perfproof.report.rundir import RunFolder

    nothing = CompareDocument(confidence=0.95, threshold=0.02, family="holm", comparisons=[])

    def line(options: dict[str, object]) -> str | None:
        return settings_text(RunFolder(tmp_path, RunManifest(options=options), nothing))

    sources = {"threshold": "default", "db": "environment PERFPROOF_DB"}
    recorded = line({"threshold": 0.01, "history_db": "postgresql://ci:***@db/perf",
                     "sources": sources})  # fmt: skip
    assert recorded == (
        "threshold 1% (default); "
        "history database postgresql://ci:***@db/perf (environment PERFPROOF_DB)"
    )
    assert line({"threshold": 0.01, "history_db": None, "sources": sources}) == (
        "threshold 1% (default)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("threshold = 0.05\nthreshhold = 0.1\n", r"perfproof.toml:2: threshhold: not a setting"),
        ('\n\nconfidence = "120%"\n', r"perfproof.toml:3: confidence .*must be in"),
        ('family = "bonferroni"\n', r"perfproof.toml:1: family: expected one of bh, holm"),
        ("build-args = [1, 2]\n", r"perfproof.toml:1: build-args: expected a list of strings"),
        ('budget = "soon"\n', r"perfproof.toml:1: budget: 'soon' is not a duration"),
        ("threshold = \n", r"perfproof.toml: not valid TOML: .*line 1"),
    ],
)
def test_a_bad_file_is_refused_naming_file_and_line(
    tmp_path: Path, text: str, message: str
) -> None:
    root = _repo(tmp_path / "r")
    (root / "perfproof.toml").write_text(text)
    with pytest.raises(InputError, match=message):
        read_pinned(root)


def test_ab_refuses_a_bad_file_before_any_build(tmp_path: Path, run_cli) -> None:
    root = _repo(tmp_path / "r")
    (root / "pyproject.toml").write_text('[tool.perfproof]\nmodule = "bench"\njmh-arg = "-f 1"\n')
    res = run_cli("ab", "--repo", root, "--base", "main", "--head", "HEAD")
    assert res.code == 2
    assert (
        res.err.strip()
        .splitlines()[-1]
        .startswith(f"perfproof: error: {root / 'pyproject.toml'}:3: jmh-arg: not a setting")
    )


def test_compare_reads_the_pinned_gate_and_a_flag_beats_it(
    tmp_path: Path, run_cli, fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "r")
    (root / "perfproof.toml").write_text('threshold = "60%"\nfamily = "none"\n')
    rounds = fixtures_dir / "jmh" / "rounds-wi1-100ms"
    base, head = rounds / "1-base.json", rounds / "1-head.json"
    monkeypatch.delenv("PERFPROOF_THRESHOLD", raising=False)
    monkeypatch.chdir(root)
    pinned = run_cli("compare", base, head, "--format", "json")
    flagged = run_cli("compare", base, head, "--format", "json", "--threshold", "1%")
    monkeypatch.chdir(tmp_path)
    unpinned = run_cli("compare", base, head, "--format", "json", "--threshold", "60%",
                       "--family", "none")  # fmt: skip
    assert pinned.code == flagged.code == unpinned.code == 0
    assert json.loads(pinned.out)["comparisons"] == json.loads(unpinned.out)["comparisons"]
    assert json.loads(pinned.out)["threshold"] == 0.6
    assert json.loads(flagged.out)["threshold"] == 0.01


def test_a_pinned_budget_gives_way_to_the_fixed_design(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from perfproof.cli.ab import command
    from perfproof.cli.pinned import settled

    root = _repo(tmp_path / "r")
    (root / "perfproof.toml").write_text('budget = "20m"\n')
    monkeypatch.delenv("PERFPROOF_BUDGET", raising=False)
    ctx = command.make_context("ab", ["--repo", str(root), "--rounds", "3"])
    params, sources = settled(ctx, root)
    assert params["budget"] is None and sources["budget"] == "not used by --rounds"
    ctx = command.make_context("ab", ["--repo", str(root)])
    params, sources = settled(ctx, root)
    assert str(params["budget"]) == "20m" and sources["budget"].endswith("perfproof.toml:1")


def test_e2e_reads_the_pinned_gate(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "r")
    (root / "perfproof.toml").write_text('threshold = "40%"\nconfidence = "95%"\n')
    monkeypatch.delenv("PERFPROOF_THRESHOLD", raising=False)
    monkeypatch.delenv("PERFPROOF_CONFIDENCE", raising=False)
    monkeypatch.chdir(root)
    runs = str(tmp_path / "runs")
    argv = ["e2e", "--base-cmd", "echo t=1", "--head-cmd", "echo t=1.1", "--runs", "3",
            "--metric", "t=t=([0-9.]+)", "--runs-dir", runs, "--format", "json"]  # fmt: skip
    pinned = json.loads(run_cli(*argv).out)
    assert (pinned["threshold_pct"], pinned["confidence"]) == (40.0, 0.95)
    flagged = json.loads(run_cli(*argv, "--threshold", "2%").out)
    assert (flagged["threshold_pct"], flagged["confidence"]) == (2.0, 0.95)


def test_a_run_folder_says_where_its_settings_came_from_history_database_included(
    tmp_path: Path,
) -> None:
    """What prove, guard and merge print in their JSON: the settings their run was made with,
    as its manifest recorded them with their sources; the history database only where the run
    was recorded into one."""
    import shutil

    from perfproof.cli.pinned import run_settings

    run = tmp_path / "run"
    fixture = Path(__file__).parents[1] / "fixtures" / "runs" / "kryo-budget-cut-1-round"
    shutil.copytree(fixture, run)
    settings = run_settings(run)
    assert settings["module"].dump() == {"value": "benchmarks", "source": "flag"}
    assert settings["threshold"].source == "default"
    assert "db" not in settings
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["options"]["history_db"] = "/srv/perf/history.sqlite"
    manifest["options"]["sources"]["db"] = "environment PERFPROOF_DB"
    (run / "manifest.json").write_text(json.dumps(manifest))
    assert run_settings(run)["db"].dump() == {
        "value": "/srv/perf/history.sqlite",
        "source": "environment PERFPROOF_DB",
    }
    assert run_settings(tmp_path / "no-run") == {}

"""``perfproof compare --sequential``: replay recorded rounds, one file per side per round."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from lab.simulate import ForkNoise, hierarchical

FIXTURES = Path(__file__).parent.parent / "fixtures" / "jmh"


def _write_rounds(
    tmp_path: Path, make_jmh_entry, rounds: int, effects: dict[str, float], first: int = 1
) -> Path:
    """Synthetic rounds: ``first`` forks per side in round 1, then one per side per round,
    for each @Param value of ``fx.P.work``."""
    rng = np.random.default_rng(31)
    folder = tmp_path / "rounds"
    folder.mkdir()
    for r in range(1, rounds + 1):
        for side in ("base", "head"):
            entries = []
            for n, ratio in effects.items():
                level = 100.0 * (ratio if side == "head" else 1.0)
                fork = hierarchical(rng, first if r == 1 else 1, 6, level, ForkNoise(0.03, 0.01))
                alloc = 48.0 if side == "base" or ratio == 1.0 else 0.0
                entries.append(make_jmh_entry("fx.P.work", fork, params={"n": n}, alloc=alloc))
            (folder / f"{r}-{side}.json").write_text(json.dumps(entries))
    return folder


def test_replay_reports_each_entry_and_its_stopping_round(
    run_cli, make_jmh_entry, tmp_path
) -> None:
    folder = _write_rounds(tmp_path, make_jmh_entry, 8, {"1": 0.6, "2": 1.0, "3": 1.0})
    r = run_cli(
        "compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    seq = doc["sequential"]
    assert (seq["rounds"], seq["first_look_round"], seq["looks"], seq["max_looks"]) == (8, 3, 6, 6)
    entries = {e["params"]["n"]: e for e in seq["entries"]}
    assert entries["1"]["verdicts"] == {"primary": "improved", "gc.alloc.rate.norm": "improved"}
    assert entries["1"]["round"] < 8 and entries["1"]["decided"]
    for n in ("2", "3"):
        assert entries[n]["verdicts"]["primary"] not in ("improved", "regressed")
    assert "Pocock-type" in seq["methodology"]
    # the comparison of the entry that stopped uses only the forks it had when it stopped
    big = next(
        c for c in doc["comparisons"] if c["params"] == {"n": "1"} and c["metric"] == "primary"
    )
    assert big["base"]["forks"] == entries["1"]["round"]
    assert big["diagnostics"]["sequential"]["look"] == entries["1"]["look"]
    assert big["ratio_ci"][1] < 1.0


def test_replay_table_and_markdown(run_cli, make_jmh_entry, tmp_path) -> None:
    folder = _write_rounds(tmp_path, make_jmh_entry, 5, {"1": 0.6, "2": 1.0})
    table = run_cli("compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json")
    assert table.code == 0, table.err
    assert "Sequential replay: where each entry stopped" in table.out
    assert "undecided" not in table.out or "last look" in table.out
    md = run_cli(
        "compare", "--sequential", str(folder / "*-base.json"), str(folder / "*-head.json"),
        "--format", "md", "--max-looks", "3",
    )  # fmt: skip
    assert md.code == 0, md.err
    assert "### Sequential replay" in md.out
    assert "| entry | stopped |" in md.out
    assert "Sequential design with up to 3 looks" in md.out


def test_replay_of_real_jmh_forks_split_into_rounds(run_cli, tmp_path) -> None:
    """Real JMH 1.37 data (streamEmpty vs loopEmpty, 4 forks each, -prof gc), one fork per
    round file: bytes/op is decided exactly, and the fork that starts at ~15 µs/op before
    settling is left out as unwarmed. The time's forks, pooled, fall in two groups split by
    side, as two code shapes met by chance would; but 7 µs against 2 ns is three thousand-fold,
    far beyond what two shapes of one build differ by, so the change is decided, not held."""
    recorded = json.loads((FIXTURES / "jmh-1.37-empty-f4-gc.json").read_text())
    for side, method in (("base", "streamEmpty"), ("head", "loopEmpty")):
        entries = [e for e in recorded if e["benchmark"].endswith(method)]
        for i in range(4):
            one = []
            for e in entries:
                e = copy.deepcopy(e)
                e["benchmark"] = "fx.Codes.empty"
                e["forks"] = 1
                e["primaryMetric"]["rawData"] = [e["primaryMetric"]["rawData"][i]]
                for m in e["secondaryMetrics"].values():
                    if "rawData" in m:
                        m["rawData"] = [m["rawData"][i]]
                one.append(e)
            (tmp_path / f"{i + 1}-{side}.json").write_text(json.dumps(one))
    r = run_cli(
        "compare", "--sequential", f"{tmp_path}/*-base.json", f"{tmp_path}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    (entry,) = doc["sequential"]["entries"]
    assert entry["verdicts"] == {"primary": "improved", "gc.alloc.rate.norm": "improved"}
    # base fork 1 started unsettled: its first iterations are left out, the fork counts
    assert entry["excluded_forks"] == {} and list(entry["trimmed_forks"]) == ["base"]
    assert list(entry["trimmed_forks"]["base"]) == ["0"]
    primary = next(c for c in doc["comparisons"] if c["metric"] == "primary")
    assert primary["diagnostics"].get("fork_groups") is None  # not two shapes: the change
    assert not any(w.startswith("bimodal:") for w in primary["warnings"])
    assert primary["delta_pct"] < -99.0 and primary["ratio_ci"][1] < 1.0
    assert primary["diagnostics"]["sequential"]["decided"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--max-looks", "3"), "--max-looks: only with --sequential"),
        (("--sequential", "--max-looks", "0"), "--max-looks 0: must be at least 1"),
    ],
)
def test_option_errors(run_cli, make_jmh_entry, tmp_path, args, message) -> None:
    folder = _write_rounds(tmp_path, make_jmh_entry, 3, {"1": 1.0})
    r = run_cli("compare", f"{folder}/*-base.json", f"{folder}/*-head.json", *args)
    assert r.code == 2
    assert message in r.err


def test_unequal_rounds_and_too_few_rounds_are_input_errors(
    run_cli, make_jmh_entry, tmp_path
) -> None:
    folder = _write_rounds(tmp_path, make_jmh_entry, 4, {"1": 1.0})
    (folder / "4-head.json").unlink()
    r = run_cli("compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json")
    assert r.code == 2
    assert "4 base file(s)" in r.err and "3 head file(s)" in r.err
    r = run_cli("compare", "--sequential", str(folder / "1-base.json"), str(folder / "1-head.json"))
    assert r.code == 2
    assert "the first look needs 3 forks per side" in r.err
    assert len(r.err.strip().splitlines()) == 1


def _recorded_rounds(tmp_path: Path, folder: str) -> Path:
    """Recorded rounds with ``streamEmpty`` (base) and ``loopEmpty`` (head) renamed to one
    benchmark, so they match like two versions of one method; ``sum`` runs on both sides."""
    out = tmp_path / folder
    out.mkdir()
    for path in sorted((FIXTURES / folder).glob("*.json")):
        entries = json.loads(path.read_text())
        for e in entries:
            for method in ("streamEmpty", "loopEmpty"):
                e["benchmark"] = e["benchmark"].replace(method, "empty")
        (out / path.name).write_text(json.dumps(entries))
    return out


def test_replay_of_recorded_rounds_with_too_short_warm_up(run_cli, tmp_path) -> None:
    """Six real rounds (JMH 1.37, one fork per side per round, 100 ms of warm-up): many forks
    start far above their settled level and count with their steady iterations; ``sum`` runs
    the same code on both sides and never comes out improved/regressed; bytes/op 4,736 → 0 is
    decided exactly."""
    folder = _recorded_rounds(tmp_path, "rounds-wi1-100ms")
    r = run_cli(
        "compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    entries = {(e["benchmark"], e["params"]["n"]): e for e in doc["sequential"]["entries"]}
    assert doc["sequential"]["first_look_round"] == 3
    for n in ("16", "128"):
        assert entries[("fx.Codes.sum", n)]["verdicts"]["primary"] not in ("improved", "regressed")
    alloc = next(
        c
        for c in doc["comparisons"]
        if c["benchmark"] == "fx.Codes.empty" and c["metric"] == "gc.alloc.rate.norm"
        and c["params"] == {"n": "16"}
    )  # fmt: skip
    assert alloc["verdict"] == "improved" and alloc["diagnostics"]["sequential"]["look"] == 1
    # head fork 3 of empty(n=16) ran 1,605 ns/op, then 17 and 12: it counts with 17 and 12
    assert entries[("fx.Codes.empty", "16")]["trimmed_forks"]["head"]["2"] == 1
    warned = [w for c in doc["comparisons"] for w in c["warnings"] if "not warmed up" in w]
    assert warned


def test_a_first_round_of_three_forks_is_the_first_look(run_cli, make_jmh_entry, tmp_path) -> None:
    """A run that starts with 3 forks per side and adds one per round (the design's default
    schedule) is replayed with its first look at round 1."""
    folder = _write_rounds(tmp_path, make_jmh_entry, 4, {"1": 0.6, "2": 1.0}, first=3)
    r = run_cli(
        "compare", "--sequential", str(folder), str(folder), "--format", "json",
    )  # fmt: skip
    assert r.code == 2  # one folder for both sides: every round has 2 files per side
    r = run_cli(
        "compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert r.code == 0, r.err
    seq = json.loads(r.out)["sequential"]
    assert (seq["first_look_round"], seq["first_forks"], seq["forks_per_look"]) == (1, 3, 1)
    assert seq["max_looks"] == 4
    entries = {e["params"]["n"]: e for e in seq["entries"]}
    assert entries["1"]["verdicts"]["primary"] == "improved"


def test_replay_of_recorded_rounds_finds_the_real_change(run_cli, tmp_path) -> None:
    """Five real rounds with 3 × 200 ms of warm-up on a loaded 2-core machine: the stream →
    loop change is improved in bytes/op and in time (its usable forks, 4 base and 5 head, fall
    in two groups split by side, but thousands of times apart: the change, not two code
    shapes); ``sum`` (same code) is never improved/regressed."""
    folder = _recorded_rounds(tmp_path, "rounds-wi3-200ms")
    r = run_cli(
        "compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json",
        "--format", "json",
    )  # fmt: skip
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    entries = {e["benchmark"]: e for e in doc["sequential"]["entries"]}
    assert entries["fx.Codes.empty"]["verdicts"] == {
        "primary": "improved",
        "gc.alloc.rate.norm": "improved",
    }
    assert entries["fx.Codes.sum"]["verdicts"]["primary"] not in ("improved", "regressed")
    time = next(c for c in doc["comparisons"] if c["benchmark"] == "fx.Codes.empty")
    assert time["method"] == "fork-level, sequential" and time["ratio_ci"][1] < 1.0
    assert time["diagnostics"].get("fork_groups") is None
    table = run_cli(
        "compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json",
    )  # fmt: skip
    assert "fast 0 base / 5 head" not in table.out and "bimodal: 0 of 4" not in table.out


def test_futility_option(run_cli, make_jmh_entry, tmp_path) -> None:
    folder = _write_rounds(tmp_path, make_jmh_entry, 10, {"1": 0.6, "2": 1.0})
    args = ("compare", "--sequential", f"{folder}/*-base.json", f"{folder}/*-head.json")
    r = run_cli(*args, "--futility", "5%", "--format", "json")
    assert r.code == 0, r.err
    seq = json.loads(r.out)["sequential"]
    assert seq["futility"] == 0.05
    entries = {e["params"]["n"]: e for e in seq["entries"]}
    assert entries["2"]["decided"] and entries["2"]["look"] < seq["max_looks"]
    assert run_cli(*args, "--futility", "150%").code == 2
    no_seq = run_cli(
        "compare", f"{folder}/1-base.json", f"{folder}/1-head.json", "--futility", "5%"
    )
    assert no_seq.code == 2 and "--futility: only with --sequential" in no_seq.err

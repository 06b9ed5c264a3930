"""``perfproof check``: a clean hand-written PR body passes; each planted error is caught,
reported on its line with the correct value, and makes the command exit 1."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from perfproof.audit.check import check_file, check_text
from perfproof.report.rundir import load_run


def _cmp(doc: dict[str, Any], bench: str, n: str, metric: str = "primary") -> dict[str, Any]:
    return next(
        c
        for c in doc["comparisons"]
        if c["benchmark"] == bench and c["params"] == {"n": n} and c["metric"] == metric
    )


def _half(side: dict[str, Any]) -> float:
    lo, hi = side["ci"]
    return (hi - lo) / 2


@pytest.fixture(scope="module")
def ab_run(make_run_folder: Callable[[str], Path]) -> Path:
    return make_run_folder("ab")


@pytest.fixture(scope="module")
def values(ab_run: Path) -> dict[str, str]:
    """The numbers a careful author would quote, rounded by hand from results.json."""
    doc = json.loads((ab_run / "results.json").read_text())
    s128 = _cmp(doc, "fx.Codes.sum", "128")
    s16 = _cmp(doc, "fx.Codes.sum", "16")
    se = _cmp(doc, "fx.Codes.streamEmpty", "16")
    return {
        "s128_b": f"{s128['base']['estimate']:.1f}",
        "s128_be": f"{_half(s128['base']):.1f}",
        "s128_h": f"{s128['head']['estimate']:.1f}",
        "s128_he": f"{_half(s128['head']):.1f}",
        "s128_d": f"{s128['delta_pct']:+.1f}",
        "s16_b": f"{s16['base']['estimate']:.2f}",
        "s16_h": f"{s16['head']['estimate']:.2f}",
        "s16_d": f"{s16['delta_pct']:+.1f}",
        "se_b": f"{se['base']['estimate']:.0f}",
        "se_h": f"{se['head']['estimate']:.0f}",
        "se_d": f"{se['delta_pct']:+.1f}",
        "se_jmh_b": f"{se['jmh']['base_score']:.3f}",
        "se_jmh_be": f"{se['jmh']['base_error']:.3f}",
        "s128_abs_d": f"{abs(s128['delta_pct']):.1f}",
    }


BODY = """\
## Replace the stream in Codes.streamEmpty with a loop

The stream pipeline allocated on every call; a plain loop does not.

| Benchmark | n | Before (ns/op) | After (ns/op) | Δ% |
|---|---:|---:|---:|---:|
| `Codes.sum` | 16 | {s16_b} | {s16_h} | {s16_d}% |
| `Codes.sum` | 128 | {s128_b} ± {s128_be} | {s128_h} ± {s128_he} | {s128_d}% |
| `Codes.streamEmpty` | 16 | {se_b} | {se_h} | {se_d}% |

Allocation of `Codes.streamEmpty` (n=16) drops from 4,736 B/op to 0 B/op (-100%).

`Codes.sum` n=128 got slower: {s128_b} ns/op → {s128_h} ns/op, {s128_abs_d}% slower, \
and the 99% intervals do not overlap.

JMH's way, every iteration of both rounds pooled, on the baseline for `Codes.streamEmpty` \
(n=16): {se_jmh_b} ± {se_jmh_be} ns/op.

Measured on a 2-core machine at 99% confidence with a 1% threshold; fork-to-fork sd ≈ 3%.
"""


def _body(values: dict[str, str], **override: str) -> str:
    return BODY.format(**{**values, **override})


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_clean_body_passes(ab_run: Path, values: dict[str, str]) -> None:
    result = check_text(_body(values), load_run(ab_run))
    assert result.mismatches == []
    assert result.checked >= 14  # 3 rows × (2 scores + Δ%) + errors, bytes, text and a claim


def _one(result: Any, kind: str, line: int) -> Any:
    assert len(result.mismatches) == 1, [m.message for m in result.mismatches]
    m = result.mismatches[0]
    assert (m.kind, m.line) == (kind, line), m
    return m


def test_wrong_score(ab_run: Path, values: dict[str, str]) -> None:
    wrong = f"{float(values['s128_b']) + 0.4:.1f}"
    text = _body(values, s128_b=wrong).replace(
        f"slower: {wrong} ns/op", f"slower: {values['s128_b']} ns/op"
    )
    m = _one(check_text(text, load_run(ab_run)), "score", _line_of(text, "| 128 |"))
    assert wrong in m.quoted and values["s128_b"] in m.expected


def test_wrong_error(ab_run: Path, values: dict[str, str]) -> None:
    text = _body(values, s128_be="1.2")
    m = _one(check_text(text, load_run(ab_run)), "error", _line_of(text, "| 128 |"))
    assert f"{values['s128_b']} ± {values['s128_be']}" in m.expected


def test_delta_off_by_one_rounding_step(ab_run: Path, values: dict[str, str]) -> None:
    doc = json.loads((ab_run / "results.json").read_text())
    measured = _cmp(doc, "fx.Codes.sum", "128")["delta_pct"]
    from_quotes = (float(values["s128_h"]) / float(values["s128_b"]) - 1) * 100
    accepted = {round(measured, 1), round(from_quotes, 1)}
    planted = f"{max(accepted) + 0.1:+.1f}"
    text = _body(values, s128_d=planted)
    m = _one(check_text(text, load_run(ab_run)), "delta", _line_of(text, "| 128 |"))
    assert f"{measured:+.1f}% measured" in m.expected
    assert f"{from_quotes:+.1f}% from the quoted numbers" in m.expected


def test_delta_with_wrong_sign(ab_run: Path, values: dict[str, str]) -> None:
    flipped = values["s128_d"].replace("+", "-")
    text = _body(values, s128_d=flipped)
    m = _one(check_text(text, load_run(ab_run)), "sign", _line_of(text, "| 128 |"))
    assert values["s128_d"] in m.expected


def test_direction_word_with_wrong_sense(ab_run: Path, values: dict[str, str]) -> None:
    text = _body(values).replace("% slower, and", "% faster, and")
    _one(check_text(text, load_run(ab_run)), "sign", _line_of(text, "% faster"))


def test_false_non_overlap_claim(ab_run: Path, values: dict[str, str]) -> None:
    text = _body(values) + "\nFor `Codes.streamEmpty` n=16 the intervals do not overlap either.\n"
    m = _one(check_text(text, load_run(ab_run)), "overlap", _line_of(text, "either."))
    assert "overlap" in m.expected and "baseline [" in m.expected


def test_misattributed_benchmark_row(ab_run: Path, values: dict[str, str]) -> None:
    """The n=16 row quotes the n=128 numbers: the check names the row they belong to."""
    text = _body(values, s16_b=values["s128_b"], s16_h=values["s128_h"], s16_d=values["s128_d"])
    result = check_text(text, load_run(ab_run))
    line = _line_of(text, "| 16 |")
    kinds = {(m.kind, m.line) for m in result.mismatches}
    assert ("misattributed", line) in kinds
    assert all(m.line == line for m in result.mismatches)
    assert any("Codes.sum (n=128)" in m.message for m in result.mismatches)


def test_benchmark_not_in_run(ab_run: Path, values: dict[str, str]) -> None:
    text = _body(values).replace("| `Codes.sum` | 16 |", "| `Codes.sum` | 64 |")
    m = _one(check_text(text, load_run(ab_run)), "not-in-run", _line_of(text, "| 64 |"))
    assert "n=128" in m.expected and "n=16" in m.expected


def test_a_benchmark_named_like_an_english_word_is_named_only_as_a_call(
    ab_run: Path, values: dict[str, str]
) -> None:
    """``sum`` is also a word: "in sum" ties no number to ``Codes.sum``, ``sum()`` does."""
    prose = (
        "\n## Method\n\nIn sum, n=128 ran with a single fork per side, and 55 comparisons were "
        "exact (0.1%).\n"
    )
    assert check_text(_body(values) + prose, load_run(ab_run)).mismatches == []
    wrong = f"{float(values['s128_d']) + 3:+.1f}"
    call = f"\n## Method\n\nFor n=128, sum() changed by {wrong}%.\n"
    text = _body(values) + call
    m = _one(check_text(text, load_run(ab_run)), "delta", _line_of(text, "sum() changed"))
    assert values["s128_d"] in m.expected


def test_cli_exit_codes_and_json(
    ab_run: Path, values: dict[str, str], tmp_path: Path, run_cli: Callable[..., Any]
) -> None:
    clean = tmp_path / "clean.md"
    clean.write_text(_body(values))
    ok = run_cli("check", clean, ab_run)
    assert ok.code == 0 and "all match" in ok.out
    bad = tmp_path / "bad.md"
    bad.write_text(_body(values, s128_d=values["s128_d"].replace("+", "-")))
    res = run_cli("check", bad, ab_run)
    assert res.code == 1
    assert f"{bad}:{_line_of(bad.read_text(), '| 128 |')}: sign:" in res.out
    as_json = run_cli("check", bad, ab_run, "--format", "json")
    doc = json.loads(as_json.out)
    assert as_json.code == 1 and doc["schema"] == "perfproof.check/1" and not doc["ok"]
    assert [m["kind"] for m in doc["mismatches"]] == ["sign"]
    missing = run_cli("check", tmp_path / "nope.md", ab_run)
    assert missing.code == 2 and "nope.md" in missing.err
    binary = tmp_path / "binary.md"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert run_cli("check", binary, ab_run).code == 2
    assert run_cli("check", clean, tmp_path).code == 2


def test_own_reports_pass_the_check(make_run_folder: Callable[[str], Path]) -> None:
    """perfproof's own Markdown (tables, summary, JMH tables) quotes only numbers of the run."""
    from perfproof.report import write_reports

    for kind in ("ab", "compare"):
        run = make_run_folder(kind)
        md = next(p for p in write_reports(run, ("md",)))
        result = check_file(md, run)
        assert result.mismatches == [], [m.message for m in result.mismatches]
        assert result.checked > 20

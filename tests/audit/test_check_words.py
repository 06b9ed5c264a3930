"""``check`` holds words and levels to the run folder, not only numbers.

On a real run of kryo's 24-key BigDecimalBenchmark with the defaults (``kryo-24-keys-defaults``:
three rounds on a busy machine, every key stopped at its first look without a verdict), the
report perfproof writes passes, and a copy with one sentence of the kind a reviewer sent back
planted in it fails, naming the line: "unchanged" where no key is ``same``, a level the run
never decided at, "not warmed up" on forks whose warm-up had reached the steady level, "JMH's
own" for numbers perfproof recomputed, a bytes/op geometric mean silent about the keys going
to 0 B/op, "two code shapes" for groups that are the rounds, "run more forks" for a key that
stopped.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from perfproof.audit.check import check_text, load_evidence
from perfproof.report import render

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
KRYO = RUNS / "kryo-24-keys-defaults"


@pytest.fixture(scope="module")
def kryo() -> tuple[str, object]:
    """The report of the run and the evidence it is checked against; the report as written
    passes (every case below plants one sentence in it)."""
    text, evidence = render(KRYO, "md"), load_evidence(KRYO)
    result = check_text(text, evidence, "report.md")
    assert result.ok, [m.message for m in result.mismatches]
    return text, evidence


def _planted(text: str, after: str, sentence: str) -> str:
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(after))
    return "\n".join([*lines[: i + 1], sentence, *lines[i + 1 :]]) + "\n"


@pytest.mark.parametrize(
    ("after", "sentence", "kind", "said"),
    [
        ("**Summary:**", "- 10 unchanged or undecided.", "words", "unchanged"),
        ("**Summary:**", "- Each Δ% interval at 99% CI.", "level", "99%"),
        ("**Summary:**", "- every interval is at 99.42% per look for one comparison", "level",
         "99.42%"),
        ("- **BigDecimalBenchmark.read (numOfDigits=2)**",
         "  - first iterations not warmed up in base fork 3", "words", "not warmed up"),
        ("### Raw JMH results", "JMH's own score ± scoreError per side:", "words", "JMH's own"),
        ("| throughput |", "| bytes/op | 11 | 64 B/op | 46 B/op | -27.3% |", "words",
         "geometric mean"),
        ("- **BigDecimalBenchmark.read (numOfDigits=0)**",
         "  - bimodal base forks: the mean mixes two code shapes; run more forks to weigh them",
         "words", "run more forks"),
    ],
)  # fmt: skip
def test_a_sentence_the_run_does_not_support_fails_the_report(
    kryo: tuple[str, object], after: str, sentence: str, kind: str, said: str
) -> None:
    text, evidence = kryo
    planted = _planted(text, after, sentence)
    result = check_text(planted, evidence, "report.md")  # type: ignore[arg-type]
    line = planted.splitlines().index(sentence) + 1
    found = [m for m in result.mismatches if m.line == line]
    assert not result.ok and found, [m.message for m in result.mismatches]
    assert any(m.kind == kind and m.quoted == said for m in found), found


def test_two_code_shapes_that_are_the_rounds_fail_a_pr_body(
    tmp_path: Path, make_drifting_run: Callable[[Path], Path]
) -> None:
    run = make_drifting_run(tmp_path)
    evidence = load_evidence(run)
    body = (
        "## BigDecimal read\n\n"
        "BigDecimalBenchmark.read (numOfDigits=0): the base forks fall in two groups; "
        "the mean mixes two code shapes.\n"
    )
    result = check_text(body, evidence)
    assert [m.kind for m in result.mismatches] == ["words"]
    assert "the rounds" in result.mismatches[0].message
    # the same words about a key whose groups are not the rounds stand
    assert check_text(body.replace("two code shapes", "two levels"), evidence).ok


def test_unchanged_fails_a_pr_body_unless_a_key_is_same(tmp_path: Path) -> None:
    body = "One key is unchanged within ±1%.\n"
    refused = check_text(body, load_evidence(KRYO))
    assert [m.quoted for m in refused.mismatches] == ["unchanged"]
    run = tmp_path / "run"
    shutil.copytree(KRYO, run)
    path = run / "results.json"
    doc = json.loads(path.read_text())
    doc["comparisons"][0]["verdict"] = "same"
    path.write_text(json.dumps(doc))
    result = check_text(body, load_evidence(run))
    assert not [m for m in result.mismatches if m.quoted == "unchanged"]


def test_stopped_for_futility_holds_only_for_keys_a_look_stopped_so(
    kryo: tuple[str, object],
) -> None:
    """A reader takes "stopped for futility" for "no effect here": it stands for a key a look
    stopped so (every key of the kryo run), and fails for a decided key or a wrong count."""
    text, evidence = kryo
    true = "- BigDecimalBenchmark.read (numOfDigits=2) stopped for futility."
    assert check_text(_planted(text, "**Summary:**", true), evidence, "report.md").ok  # type: ignore[arg-type]
    miscounted = _planted(text, "**Summary:**", "- 20 for futility, 4 with a verdict.")
    found = check_text(miscounted, evidence, "report.md").mismatches  # type: ignore[arg-type]
    assert [m.quoted for m in found if m.kind == "words"] == ["20 for futility"], found
    demo = RUNS / "demo-feature-vs-baseline"  # every key decided at its first look
    decided = "- EventBusBench.publishNoListeners stopped for futility: no change beyond ±5%.\n"
    result = check_text(decided, load_evidence(demo))
    assert [m.quoted for m in result.mismatches] == ["stopped for futility"], result.mismatches
    assert "no look of the run stopped it" in result.mismatches[0].message
    group = "- `EventBusBench` stopped for futility on every key.\n"  # no key named: the run's keys
    assert [m.quoted for m in check_text(group, load_evidence(demo)).mismatches] == [
        "stopped for futility"
    ]

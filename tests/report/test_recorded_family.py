"""A comparison's ``family`` is a word of a closed set (a family procedure, or ``exact`` for a
comparison outside every family): read as such from a run's ``results.json``, written back as
the same word, and any other word refused in one line that lists the words it takes."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

RUN = Path(__file__).parents[1] / "fixtures" / "runs" / "demo-feature-vs-baseline"


def test_each_comparisons_family_comes_back_as_the_word_it_was(run_cli) -> None:
    stored = json.loads((RUN / "results.json").read_text())
    words = Counter(c["family"] for c in stored["comparisons"])
    assert set(words) == {"none", "exact"} and stored["family"] == "bh"  # the run's own word
    res = run_cli("report", RUN, "--format", "json")
    assert res.code == 0, res.err
    embedded = json.loads(res.out)["compare"]
    assert Counter(c["family"] for c in embedded["comparisons"]) == words
    assert embedded["family"] == stored["family"]


@pytest.mark.parametrize(
    ("where", "path"),
    [(lambda d: d["comparisons"][0], "comparisons[0].family"), (lambda d: d, "family")],
    ids=["comparison", "run"],
)
def test_a_family_word_perfproof_never_writes_is_refused_naming_the_words(
    run_cli, tmp_path: Path, where, path: str
) -> None:
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    doc = json.loads((run / "results.json").read_text())
    where(doc)["family"] = "bonferroni"
    (run / "results.json").write_text(json.dumps(doc))
    before = (run / "results.json").read_bytes()
    res = run_cli("report", run)
    assert res.code == 2, res.err
    (line,) = [ln for ln in res.err.splitlines() if ln.startswith("perfproof: error:")]
    assert f"{run / 'results.json'}: {path}: expected one of bh, holm, none" in line
    assert ("exact" in line) == (path != "family")  # only a comparison may be exact
    assert "'bonferroni'" in line
    assert (run / "results.json").read_bytes() == before  # nothing rewritten

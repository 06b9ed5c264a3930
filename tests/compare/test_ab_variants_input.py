"""``ab --ref C`` with a variant rule: what is refused before anything is built, and the rule
as the manifest keeps it."""

from __future__ import annotations

import json

import pytest

from perfproof.model import BenchKey
from perfproof.model.documents.run import SCHEMA, RunManifest
from perfproof.model.documents.variants import Variants


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ref", "HEAD"], "--ref measures one commit's variants: add --pair"),
        (["--pair", "a=b"], "--pair makes the sides of one commit: give --ref REF"),
        (["--ref", "HEAD", "--pair", "a=b", "--base", "x"], "not with --base"),
        (["--ref", "HEAD", "--pair", "a=b", "--overlay", "X.java"], "not with --overlay"),
        (["--ref", "HEAD", "--pair", "a=b", "--pair-suffix", "Opt"], "both make the sides"),
        (["--ref", "HEAD", "--sides-by-param", "opt=true"], "expected NAME=BASE,HEAD"),
    ],
)
def test_a_variant_run_is_refused_before_any_work(run_cli, tmp_path, args, message) -> None:
    res = run_cli("ab", "--repo", str(tmp_path), *args)
    assert res.code == 2
    assert res.err.startswith("perfproof: error:") and message in res.err


def test_the_rule_survives_the_manifest_and_places_keys_as_split_does() -> None:
    for rule in (
        Variants(pairs=(("sum", "sumOpt"), ("a.B.x", "a.B.y"))),
        Variants(suffix="Opt"),
        Variants(param=("optimized", "false", "true")),
    ):
        written = RunManifest(variants=rule).dump()["variants"]
        again = RunManifest.read({"schema": SCHEMA, "variants": written}, "manifest.json")
        assert again.variants == rule and written["text"] == rule.describe()
    pairs = Variants(pairs=(("sum", "sumOpt"),))
    assert pairs.side_of(BenchKey("p.S.sumOpt", "thrpt")) == "head"
    assert pairs.side_of(BenchKey("p.S.sum", "thrpt")) == "base"
    assert pairs.side_of(BenchKey("p.S.other", "thrpt")) is None
    assert pairs.side_names() == ("sum", "sumOpt")
    param = Variants(param=("optimized", "false", "true"))
    key = BenchKey("p.S.run", "avgt", (("optimized", "true"), ("size", "8")))
    assert param.side_of(key) == "head" and param.side_names()[1] == "optimized=true"


@pytest.mark.parametrize(
    "block",
    [
        {"pairs": [["a", "aOpt"], ["X.b", "X.c"]],
         "text": "sides by pair: base a, head aOpt; base X.b, head X.c"},
        {"suffix": "Opt", "text": "sides by suffix: base X, head XOpt"},
        {"param": ["optimized", "false", "true"],
         "text": "sides by @Param optimized: base optimized=false, head optimized=true"},
    ],
)  # fmt: skip
def test_a_recorded_rule_reads_back_and_is_written_as_it_was(block: dict[str, object]) -> None:
    """The manifest's ``variants`` blocks as earlier perfproof versions wrote them: read as the
    rule, written back entry for entry, in the same order, its words made again the same."""
    rule = Variants.read(block, "manifest.json")
    assert json.dumps(rule.dump()) == json.dumps(block)
    assert rule.describe() == block["text"]

"""``prove --reach``: checked by the command line, kept in prove.json, repeated by the
reproduce line, and the benchmarks it leaves out are named with their reason."""

from __future__ import annotations

from perfproof.model.documents.prove import ProveSettings
from perfproof.model.documents.prove_measured import AbStageResult
from perfproof.model.documents.prove_stages import DispatchSkip
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.prove.dispatch import measured
from perfproof.pipeline.prove.options import ProveOptions, Reach

from .conftest import round_trip


def settings(doc: dict) -> ProveSettings:
    return ProveSettings.model_validate(doc)


def test_reach_round_trips_and_is_repeated() -> None:
    opts = ProveOptions(ab=AbOptions(base="a", head="b"), reach=Reach.STATIC)
    back = ProveOptions.of(opts.to_document())
    assert back.reach == "static"
    argv = back.reproduce_argv()
    assert argv[argv.index("--reach") + 1] == "static"
    default = ProveOptions(ab=AbOptions(base="a", head="b"))
    assert default.reach == "profile" and "--reach" not in default.reproduce_argv()
    # a bundle written when the graph alone chose (named "graph", or before the option) resumes so
    assert ProveOptions.of(settings({"ab": {"base": "a", "head": "b"}})).reach == "static"
    old = {"ab": {"base": "a", "head": "b"}, "reach": "graph"}
    assert ProveOptions.of(settings(old)).reach == "static"


def test_an_unknown_reach_is_refused(run_cli) -> None:
    res = run_cli("prove", "--base", "a", "--head", "b", "--reach", "calls")
    assert res.code == 2
    assert "--reach" in res.err and "calls" in res.err


def test_left_out_benchmarks_leave_the_ab_and_keep_their_reason() -> None:
    skip = DispatchSkip.of(
        "p.B.publish", "Bus.publish(int) → Listener.onEvent(int)", 412, "reach/x.jfr"
    )
    assert skip.reason == (
        "reached only through dynamic dispatch at Bus.publish(int) → Listener.onEvent(int); "
        "the baseline profile never sampled the changed code: 0 of 412 samples, no allocation"
    )
    regexes = (r"^p\.B\.record$", r"^p\.B\.publish$")
    assert measured(regexes, [skip]) == (r"^p\.B\.record$",)
    result = AbStageResult(run_dir="ab", report="r.md", left_out=(skip,))
    back = round_trip(result)
    assert back.left_out == (skip,)
    assert result.model_dump()["left_out"][0]["reason"] == skip.reason

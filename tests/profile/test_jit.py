"""The JIT's account from recorded compiler events: what the helper prints, read back.

``tests/fixtures/jit/{base,head}.txt`` are ``JfrJit``'s real output (the lines of the
``costs`` classes) for one fork of ``InlineBench.sum`` of ``benchmarks/costs_project.py`` on
each side, recorded with the JDK's ``profile`` settings plus inlining decisions and every
compilation: on the baseline ``Summer.sum`` is too big to inline into its hot caller, on the
feature (its cold checks moved out) C2 inlines it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.model.documents.prove_jit import JitAccount, JitCall, JitMethod
from perfproof.profile import jit
from perfproof.render.prove_jit import jit_line

FIXTURES = Path(__file__).parents[1] / "fixtures" / "jit"
CALL = ("InlineBench.sum", "Summer.sum")


@pytest.fixture(scope="module")
def sides() -> tuple[list[jit.Recording], list[jit.Recording]]:
    return tuple(  # type: ignore[return-value]
        jit.read((FIXTURES / f"{side}.txt").read_text().splitlines()) for side in ("base", "head")
    )


def test_the_most_optimised_compilation_decides(sides) -> None:
    base, head = sides
    (b,) = base
    decisions = [d.reason for d in b.calls[CALL]]
    assert "callee is too large" in decisions  # C1 (tier 3) said so first
    assert jit.side_call(base, CALL).text() == "not inlined (hot method too big)"
    assert jit.side_call(head, CALL).text() == "inlined"
    assert b.decision(CALL).level == jit.C2


def test_a_call_only_c1_decided_says_so(sides) -> None:
    _, head = sides
    text = jit.side_call(head, ("Summer.sum", "Summer.checkRange")).text()
    assert text == "not inlined (callee is too large) by C1 only"
    assert jit.side_call(head, ("Nobody.calls", "This.one")).text() == "no decision recorded"


def test_forks_that_disagree_are_counted() -> None:
    def rec(cid: int, ok: bool) -> jit.Recording:
        r = jit.Recording("f.jfr", levels={cid: 4})
        r.calls[CALL] = [jit.Decision(cid, 0, ok, "inline (hot)" if ok else "too big")]
        return r

    call = jit.side_call([rec(1, True), rec(2, False), rec(3, True)], CALL)
    assert call.text() == "inlined in 2 of 3 forks, not in the others (too big)"


def test_tiers_and_deoptimizations(sides) -> None:
    base, _ = sides
    assert jit.tier_text(base, "Summer.sum") == "C2 (tier 4)"
    assert jit.tier_text(base, "Nowhere.m") == "not compiled on its own"
    lines = ["R\t0\tx.jfr", "D\t7\tcosts.Summer.sum([III)J\t12\tunstable_if\treinterpret", "E\t0"]
    assert (
        jit.deopt_text(jit.read(lines), "Summer.sum") == "1 in 1 forks (unstable_if (reinterpret))"
    )


def test_short_names_match_call_paths_and_nested_classes() -> None:
    assert jit.short("costs.InlineBench.sum()J") == "InlineBench.sum"
    assert jit.short("InlineBench.sum(int[], int)") == "InlineBench.sum"
    assert jit.short("a.b.Outer$Inner.m(I)V") == "Inner.m"


def test_the_pr_body_line_reads_as_a_reviewer_would_write_it() -> None:
    line = jit_line("InlineBench.sum", "Summer.sum", "not inlined (hot method too big)", "inlined")
    assert line == "`Summer.sum` into `InlineBench.sum`: not inlined (hot method too big) → inlined"
    account = JitAccount(
        benchmark="costs.InlineBench.sum",
        calls=(JitCall(caller="InlineBench.sum", callee="Summer.sum", base="x", head="y"),),
        methods=(
            JitMethod(
                method="Summer.sum",
                base_tier="C2 (tier 4)",
                head_tier="C2 (tier 4)",
                base_deopts="none",
                head_deopts="none",
            ),
        ),
    )
    again = JitAccount.model_validate(account.model_dump(mode="json"))
    assert again == account and again.calls[0].changed

"""Property-based fuzzing of every parser perfproof owns.

The property: a parser given any input returns a value or raises perfproof's
:class:`InputError` (the one-line, exit-2 error), never anything else, and within a time
proportional to the input's size. Runs are seeded (``derandomize``) so CI sees the same
examples every time; ``PERFPROOF_FUZZ_EXAMPLES=5000`` makes a long run by hand.
"""

from __future__ import annotations

import json
import os
import string
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from perfproof.errors import InputError

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("PERFPROOF_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SECONDS_PER_MB = 100.0
"""Time bound: a fixed second plus this much per MB of input. Typical input reads at about a
second per MB; pathological input (100,000 nested brackets) at up to 50: linear, but slower.
Anything quadratic blows through the bound at the sizes of the explicit examples."""


def _within_bound(fn: Callable[[], Any], size: int) -> Any:
    """Call ``fn``; only InputError may escape, and only within the time bound (CPU time, so
    other work on a shared CI machine does not count)."""
    t0 = time.process_time()
    try:
        result = fn()
    except InputError as exc:
        result = exc
        assert str(exc) and "\n" not in str(exc), f"not one line: {exc!r}"
    elapsed = time.process_time() - t0
    assert elapsed < 1.0 + SECONDS_PER_MB * size / 1e6, f"{elapsed:.2f} s for {size} bytes"
    return result


# ----------------------------------------------------------------------------- JMH JSON

JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["NaN", "+INF", "-INF", "ns/op", "ops/s", "B/op", "avgt", "thrpt", ""]),
    st.text(max_size=12),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
METRIC_KEYS = [
    "score",
    "scoreError",
    "scoreUnit",
    "rawData",
    "rawDataHistogram",
    "scorePercentiles",
]
ENTRY_KEYS = ["benchmark", "mode", "params", "forks", "primaryMetric", "secondaryMetrics"]


@st.composite
def jmh_entry(draw: st.DrawFn) -> dict[str, Any]:
    """A JMH-shaped entry whose every field may be replaced by any JSON value."""
    raw = draw(
        st.one_of(
            st.lists(
                st.lists(
                    st.one_of(st.floats(allow_nan=False), st.sampled_from(["NaN", 1, "x"])),
                    max_size=4,
                ),
                max_size=3,
            ),
            JSON_VALUE,
        )
    )
    metric: dict[str, Any] = {"score": 1.0, "scoreError": 0.1, "scoreUnit": "ns/op", "rawData": raw}
    for key in draw(st.lists(st.sampled_from(METRIC_KEYS), max_size=3)):
        metric[key] = draw(JSON_VALUE)
    entry: dict[str, Any] = {
        "benchmark": draw(st.sampled_from(["a.B.m", "a.B.n", ""])),
        "mode": draw(st.sampled_from(["avgt", "thrpt", "sample", "ss", "??"])),
        "params": draw(st.dictionaries(st.sampled_from(["n", "size"]), st.text(max_size=5))),
        "primaryMetric": metric,
        "secondaryMetrics": {"gc.alloc.rate.norm": dict(metric)},
    }
    for key in draw(st.lists(st.sampled_from(ENTRY_KEYS), max_size=2)):
        entry[key] = draw(JSON_VALUE)
    return entry


SCRATCH = Path(tempfile.mkdtemp(prefix="perfproof-fuzz-"))


def _read_jmh_text(text: str) -> Any:
    from perfproof.jmh.reader import read_file

    path = SCRATCH / "r.json"
    path.write_text(text, encoding="utf-8")
    return _within_bound(lambda: read_file(path), len(text.encode()))


@FUZZ
@given(st.lists(jmh_entry(), min_size=1, max_size=3))
def test_jmh_reader_on_jmh_shaped_documents(entries: list[dict[str, Any]]) -> None:
    _read_jmh_text(json.dumps(entries))


@FUZZ
@given(st.one_of(st.text(max_size=200), JSON_VALUE.map(json.dumps)))
@example("[" * 200_000 + "]" * 200_000)
@example('[{"benchmark": "a.B.m"' + "," * 10_000)
@example('[{"benchmark":"a","mode":"avgt","primaryMetric":{"score":1e999,"rawData":[[1e999]]}}]')
def test_jmh_reader_on_any_text(text: str) -> None:
    _read_jmh_text(text)


# ----------------------------------------------------------------------------- collapsed stacks

FRAME = st.one_of(
    st.sampled_from(["main", "a.B.c", "java.util.Arrays.copyOf", "long[]_[a]", "x_[j]", ";", ""]),
    st.text(alphabet=string.printable, max_size=10),
)
WEIGHT = st.one_of(
    st.integers(min_value=-5, max_value=10**30).map(str),
    st.floats().map(repr),
    st.sampled_from(["1e400", "-0", "nan", "inf", "0x10", "1_000", "", "½"]),
)


@st.composite
def collapsed_text(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        frames = draw(st.lists(FRAME, max_size=5))
        lines.append(";".join(frames) + draw(st.sampled_from([" ", "\t", "  "])) + draw(WEIGHT))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


@FUZZ
@given(st.one_of(collapsed_text(), st.text(max_size=200)), st.booleans())
@example("main;a 1e308\nmain;b 1e308\n", False)
@example("a;" * 100_000 + "b 3\n", False)
def test_collapsed_reader(text: str, alloc_leaf_is_class: bool) -> None:
    from perfproof.profile.collapsed import parse_collapsed

    profile = _within_bound(
        lambda: parse_collapsed(text, "fuzz.collapsed", alloc_leaf_is_class), len(text.encode())
    )
    if not isinstance(profile, InputError):
        totals = [*profile.cpu.values(), *profile.alloc.values()]
        assert all(0 <= w < float("inf") for w in totals)
        assert sum(totals) < float("inf")


# ----------------------------------------------------------------------------- PR bodies

TITLE = "## Performance: faster-codes (9a8b7c6d5e4f) vs main (1f2e3d4c5b6a)\n"
"""The title of the fixture run's own report: a body opening with it is held to every number."""

MD_PIECES = st.sampled_from(
    [
        "| ",
        " |",
        "|---|---:|",
        "\n",
        "\n\n",
        "```\n",
        "~~~\n",
        "    ",
        "# ",
        "**",
        "`",
        "> ",
        "- ",
        "Codes.sum",
        "fx.Codes.streamEmpty",
        "Thr.concat",
        "n=16",
        "n=128",
        " (n) ",
        "Benchmark  (n)  Mode  Cnt  Score  Error  Units\n",
        "fx.Codes.sum  16  avgt  6  11.4 ± 0.5  ns/op",
        "11.44",
        "-12.0%",
        "+3%",
        "1,234.5",
        "1.234,5",
        "± 0.3",
        "ns/op",
        " M ops/s",
        "B/op",
        " → ",
        " to ",
        "Before",
        "After",
        "baseline",
        "feature",
        "faster",
        "less",
        "do not overlap",
        "[",
        "]",
        "(",
        ")",
        "\\|",
        "<br>",
        "<details>",
        "1e400",
        "99.9% CI",
        "p=0.01",
        "≈ 10⁻⁵",
        TITLE,
        "**Summary:** 0 of 9 faster, 1 allocates less, 1 regressed (+12%)",
        "### Raw JMH results\n",
        "`v1.2.3` 2026-11-25 9a8b7c6 x86_64 #12 https://e.x/1",
    ]
)


@st.composite
def markdown_body(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.one_of(MD_PIECES, st.text(max_size=6)), max_size=60))
    return "".join(pieces)


RUN: dict[str, Any] = {}


@pytest.fixture(scope="module")
def ab_run(make_run_folder: Callable[[str], Path]) -> None:
    """The fixture run every PR body is checked against (a global: examples stay short), with
    the pages perfproof renders for it (a body opening with their title is held to them)."""
    from perfproof.audit.check import load_evidence

    RUN["ab"] = load_evidence(make_run_folder("ab"))


@FUZZ
@given(markdown_body())
@example("1" * 100_000 + "%")
@example("Codes.sum n=16 " + "1 ns/op → " * 5_000)
@example(">" * 20_000 + " Codes.sum 1 ns/op")
@example("[" * 10_000 + "Codes.sum 1 ns/op" + "]" * 10_000)
@example("Benchmark Mode Score" + " Mode" * 20_000)
@example("Codes.sum n=16: 1e400 ns/op → 1e-400 ns/op (+1e999%)")
@example(TITLE + "| 1 | 2 |\n" * 20_000)
@example(TITLE + "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 20_000)
@example(TITLE + "1 ns/op, " * 20_000)
@example(TITLE + "\n" * 50_000 + "x 1\n" * 1_000)
@example(TITLE + "`" + "1.2.3 " * 20_000 + "`")
@pytest.mark.usefixtures("ab_run")
def test_check_reader(text: str) -> None:
    from perfproof.audit.check import check_text

    result = _within_bound(lambda: check_text(text, RUN["ab"]), len(text.encode()))
    assert not isinstance(result, InputError), "a PR body is never bad input"
    untied = sum(1 for m in result.mismatches if m.kind == "untied")
    assert result.checked + untied >= len(result.mismatches) - result.unattributed - 1
    for m in result.mismatches:
        assert m.line >= 1 and "\n" not in m.kind


# ----------------------------------------------------------------------------- e2e metrics


def _metrics() -> Any:
    try:
        from perfproof.measure import metrics
    except ImportError:  # older layout
        from perfproof.e2e import metrics  # type: ignore[no-redef]
    return metrics


@FUZZ
@given(
    st.one_of(
        st.text(max_size=40),
        st.tuples(
            st.sampled_from(["t", "t[ms]", "x.y", "", "1bad", "t[", "rps"]),
            st.sampled_from(["=", "", "=="]),
            st.sampled_from(["json:", "", "json:$", "t=(\\d+)", "(", "json:$.a[0]['b']"]),
            st.text(max_size=10),
        ).map("".join),
    )
)
@example("t=json:$" + ".a" * 50_000)
@example("t=json:$" + "[0]" * 50_000)
def test_metric_spec_parser(text: str) -> None:
    metrics = _metrics()
    _within_bound(lambda: metrics.parse_metric_spec(text), len(text.encode()))


@FUZZ
@given(
    st.sampled_from(["t=t=([-0-9.e,_]+)", "t=json:$.a", "t=json:$[0].b", "t=json:$['k']"]),
    st.one_of(st.text(max_size=80), JSON_VALUE.map(json.dumps)),
)
@example("t=json:$.a", "[" * 100_000 + "]" * 100_000)
@example("t=json:$.a", "noise\n" + "{" * 100_000)
@example("t=t=([-0-9.e,_]+)", "t=" + "9" * 400)
def test_metric_extractors(spec_text: str, stdout: str) -> None:
    metrics = _metrics()
    spec = metrics.parse_metric_spec(spec_text)
    t0 = time.process_time()
    try:
        value = metrics.extract(spec, stdout, stdout[::-1])
    except metrics.MetricNotFound as exc:  # the caller adds the run and its log: exit 3
        assert str(exc)
    else:
        assert isinstance(value, float) and value == value and abs(value) < float("inf")
    assert time.process_time() - t0 < 1.0 + SECONDS_PER_MB * len(stdout.encode()) / 1e6


# ----------------------------------------------------------------------------- argument splitting

SHELLISH = st.text(alphabet=string.printable + "é€\\'\"", max_size=60)


@FUZZ
@given(SHELLISH)
@example("'" * 10_000)
@example('-p n="16,32" -wi 5 -rf csv')
def test_jmh_args_splitting(text: str) -> None:
    from perfproof.measure.plan import jmh_options, split_jmh_args

    argv = _within_bound(lambda: split_jmh_args(text), len(text.encode()))
    if not isinstance(argv, InputError):
        assert all(isinstance(a, str) for a in argv)
        _within_bound(lambda: jmh_options(argv), len(text.encode()))


@FUZZ
@given(SHELLISH, st.booleans())
@example('mvn "package', False)
@example("", True)
def test_command_splitting(text: str, shell: bool) -> None:
    from perfproof.pipeline.e2e.options import split_command
    from perfproof.workspace.spec import split_build_cmd

    argv = _within_bound(lambda: split_build_cmd(text), len(text.encode()))
    assert isinstance(argv, (list, InputError))
    cmd = _within_bound(lambda: split_command(text, "--run", shell), len(text.encode()))
    if not isinstance(cmd, InputError):
        assert cmd and all(isinstance(a, str) for a in cmd)

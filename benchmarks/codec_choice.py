"""Which codec library reads perfproof's documents: msgspec or pydantic v2, measured.

Three questions, each answered on the same ``perfproof.compare/1`` shape (``results.json``):

1. decode time of a 2,000-entry document (built from a real fixture's comparisons with varied
   keys), beside perfproof's own read (``loads_strict`` + ``CompareDocument.read``, which
   checks the document with the codec chosen here, pydantic, in one pass), and the parts of
   that read as perfproof does them now: each comparison's diagnostics and JMH scores (the
   lenient types, a field of another shape kept) and the rows a history record keeps;
2. strictness: what each library does with a wrong type, a bool for a number, a whole number
   for a float, a float for a whole number, a missing field, an unknown field, NaN;
3. the error a user would see: the library's own message, and the one line perfproof prints
   from it (``results.json: comparisons[3].base.forks: expected ...``).

    pip install msgspec                            # not a perfproof dependency
    python3 benchmarks/codec_choice.py             # 2,000 entries, best of 15 runs
    python3 benchmarks/codec_choice.py --entries 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pydantic

from perfproof.errors import InputError
from perfproof.model.diagnostics import Diagnostics, JmhScores
from perfproof.model.documents import check_depth, loads_strict
from perfproof.model.documents.codec import decode_value
from perfproof.model.documents.compare import CompareDocument
from perfproof.model.documents.compare_wire import ComparisonDoc, comparison_rows
from perfproof.model.enums import Direction, Verdict

FIXTURE = Path(__file__).parent.parent / "tests/fixtures/runs/kryo-merged/results.json"

# -------------------------------------------------------------------------------- msgspec


class MEstimate(msgspec.Struct):
    estimate: float | None
    ci: tuple[float | None, float | None]
    forks: int
    iterations: int


class MNote(msgspec.Struct):
    kind: str
    text: str


class MDiagnostics(msgspec.Struct):
    strategy: str | None = None
    df: float | None = None
    forks: dict[str, int] | None = None
    iterations: dict[str, int] | None = None
    notes: list[MNote] | None = None


class MJmh(msgspec.Struct):
    base_score: float | None
    base_error: float | None
    head_score: float | None
    head_error: float | None
    overlap: bool | None
    recomputed: bool | None = None


class MComparison(msgspec.Struct):
    benchmark: str
    mode: str
    base: MEstimate
    head: MEstimate
    ratio: float | None
    ratio_ci: tuple[float | None, float | None]
    verdict: Verdict
    params: dict[str, str] = {}
    metric: str = "primary"
    unit: str = ""
    direction: Direction = Direction.LOWER
    method: str = ""
    interval_confidence: float | None = None
    delta_pct: float | None = None
    delta_ci_pct: tuple[float | None, float | None] | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    family: str = ""
    p_holm: float | None = None
    mde_pct: float | None = None
    forks_needed: int | None = None
    jmh: MJmh | None = None
    warnings: list[str] = []
    diagnostics: MDiagnostics = msgspec.field(default_factory=MDiagnostics)


class MCompare(msgspec.Struct):
    schema: str
    confidence: float
    threshold: float
    comparisons: list[MComparison]
    family: str | None = None
    metrics: list[str] = []
    notes: list[str] = []


# -------------------------------------------------------------------------------- pydantic

_STRICT = pydantic.ConfigDict(strict=True, extra="allow", allow_inf_nan=False)


class PEstimate(pydantic.BaseModel):
    model_config = _STRICT
    estimate: float | None
    ci: tuple[float | None, float | None]
    forks: int
    iterations: int


class PNote(pydantic.BaseModel):
    model_config = _STRICT
    kind: str
    text: str


class PDiagnostics(pydantic.BaseModel):
    model_config = _STRICT
    strategy: str | None = None
    df: float | None = None
    forks: dict[str, int] | None = None
    iterations: dict[str, int] | None = None
    notes: list[PNote] | None = None


class PJmh(pydantic.BaseModel):
    model_config = _STRICT
    base_score: float | None
    base_error: float | None
    head_score: float | None
    head_error: float | None
    overlap: bool | None
    recomputed: bool | None = None


class PComparison(pydantic.BaseModel):
    model_config = _STRICT
    benchmark: str
    mode: str
    base: PEstimate
    head: PEstimate
    ratio: float | None
    ratio_ci: tuple[float | None, float | None]
    verdict: Verdict
    params: dict[str, str] = {}
    metric: str = "primary"
    unit: str = ""
    direction: Direction = Direction.LOWER
    method: str = ""
    interval_confidence: float | None = None
    delta_pct: float | None = None
    delta_ci_pct: tuple[float | None, float | None] | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    family: str = ""
    p_holm: float | None = None
    mde_pct: float | None = None
    forks_needed: int | None = None
    jmh: PJmh | None = None
    warnings: list[str] = []
    diagnostics: PDiagnostics = pydantic.Field(default_factory=PDiagnostics)


class PCompare(pydantic.BaseModel):
    model_config = _STRICT
    schema_: str = pydantic.Field(alias="schema")
    confidence: float
    threshold: float
    comparisons: list[PComparison]
    family: str | None = None
    metrics: list[str] = []
    notes: list[str] = []


# -------------------------------------------------------------------------------- inputs


def big_document(entries: int) -> dict[str, Any]:
    """A results.json with ``entries`` comparisons: the fixture's, each under its own key."""
    doc = json.loads(FIXTURE.read_text())
    rows = doc["comparisons"]
    doc["comparisons"] = []
    for i in range(entries):
        row = copy.deepcopy(rows[i % len(rows)])
        row["params"] = {**row.get("params", {}), "n": str(i)}
        doc["comparisons"].append(row)
    return doc


def best_ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def msgspec_where(message: str) -> tuple[str, str]:
    """``Expected `int`, got `str` - at `$.comparisons[3].base.forks``` → (path, what)."""
    what, _, at = message.partition(" - at `$")
    return at.rstrip("`").lstrip("."), what


def pydantic_where(error: pydantic.ValidationError) -> tuple[str, str]:
    first = error.errors()[0]
    path = ""
    for part in first["loc"]:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path, f"{first['type']}: {first['msg']}"


CASES: list[tuple[str, tuple[Any, ...], Any]] = [
    ("string for a whole number", ("comparisons", 3, "base", "forks"), "3"),
    ("float for a whole number", ("comparisons", 3, "base", "forks"), 3.0),
    ("bool for a whole number", ("comparisons", 3, "base", "forks"), True),
    ("whole number for a float", ("comparisons", 3, "ratio"), 2),
    ("object for a list", ("comparisons",), {}),
    ("value not in the choice", ("comparisons", 3, "verdict"), "better"),
    ("missing field", ("comparisons", 3, "base"), None),
    ("unknown field", ("comparisons", 3, "machine"), "vm"),
]


def _edited(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> bytes:
    doc = copy.deepcopy(doc)
    *parents, last = path
    target: Any = doc
    for p in parents:
        target = target[p]
    if value is None:
        del target[last]
    else:
        target[last] = value
    return json.dumps(doc).encode()


def strictness(doc: dict[str, Any]) -> None:
    print("\n| input | perfproof (its codec) | msgspec | pydantic v2 (strict) |")
    print("| --- | --- | --- | --- |")
    cases = [(name, _edited(doc, path, value)) for name, path, value in CASES]
    nan = re.sub(r'"ratio": [0-9.e+-]+', '"ratio": NaN', json.dumps(doc), count=1)
    cases.append(("NaN literal", nan.encode()))
    for name, raw in cases:
        cells = []
        try:
            CompareDocument.read(loads_strict(raw.decode(), "results.json"), "results.json")
            cells.append("accepted")
        except InputError as exc:
            cells.append(str(exc))
        try:
            msgspec.json.decode(raw, type=MCompare)
            cells.append("accepted")
        except msgspec.ValidationError as exc:
            cells.append(f"`{exc}` → results.json: {': '.join(msgspec_where(str(exc)))}")
        except msgspec.DecodeError as exc:
            cells.append(f"`{exc}`")
        try:
            PCompare.model_validate_json(raw)
            cells.append("accepted")
        except pydantic.ValidationError as exc:
            cells.append("results.json: " + ": ".join(pydantic_where(exc)))
        print(f"| {name} | " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    raw = _edited(doc, ("comparisons", 3, "machine"), "vm")
    m = msgspec.json.encode(msgspec.json.decode(raw, type=MCompare))
    p = PCompare.model_validate_json(raw).model_dump_json(by_alias=True)
    print("\nunknown field kept on a round trip (decode, encode):")
    print(f"  msgspec: {b'machine' in m}; pydantic (extra='allow'): {'machine' in p}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    doc = big_document(args.entries)
    raw = json.dumps(doc, indent=2).encode()
    text = raw.decode()
    parsed = json.loads(text)
    print(f"results.json: {args.entries} comparisons, {len(raw) / 1e6:.2f} MB")
    python = sys.version.split()[0]
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}, Python {python}")
    decoder = msgspec.json.Decoder(MCompare)
    adapter = PCompare.model_validate_json
    rows_of = parsed["comparisons"]
    typed = CompareDocument.read(parsed, "r.json")
    rows = [
        ("json.loads only (no checks)", lambda: json.loads(text)),
        ("perfproof: loads_strict + CompareDocument.read",
         lambda: CompareDocument.read(loads_strict(text, "r.json"), "r.json")),
        ("perfproof: check_depth alone", lambda: check_depth(text, "r.json")),
        ("perfproof: CompareDocument.read of the parsed document (one pass, typed rows)",
         lambda: CompareDocument.read(parsed, "r.json")),
        ("perfproof: ComparisonDoc.model_validate of every row (the codec's check)",
         lambda: [ComparisonDoc.model_validate(c) for c in rows_of]),
        ("perfproof: Diagnostics read by the codec, every comparison's",
         lambda: [decode_value(Diagnostics, c["diagnostics"]) for c in rows_of]),
        ("perfproof: JmhScores read by the codec, every comparison's",
         lambda: [decode_value(JmhScores, c["jmh"]) for c in rows_of if c.get("jmh")]),
        ("perfproof: CompareDocument.dump (writing it, the codec's rows)",
         lambda: typed.dump()),
        ("perfproof: a history record's typed rows (comparison_rows)",
         lambda: comparison_rows(rows_of, "r.json")),
        ("msgspec: json.Decoder(Struct).decode", lambda: decoder.decode(raw)),
        ("pydantic v2: model_validate_json (strict)", lambda: adapter(raw)),
    ]  # fmt: skip
    print(f"\n| reader | best of {args.repeat} (ms) | per comparison (µs) |")
    print("| --- | ---: | ---: |")
    for name, fn in rows:
        fn()  # warm
        ms = best_ms(fn, args.repeat)
        print(f"| {name} | {ms:.1f} | {ms * 1000 / args.entries:.0f} |")
    strictness(doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

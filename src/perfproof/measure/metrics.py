"""How an end-to-end metric is named and read out of a command's output.

A metric is declared on the command line as ``NAME=REGEX`` (the regex's first group, searched
in stdout and then stderr) or ``NAME=json:$.path`` (a value inside a JSON document the command
prints on stdout). ``NAME[unit]=…`` attaches a unit for display. Parsing the spec up front means
a typo in a regex or path is reported before any build or run starts.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from perfproof.errors import InputError

_NAME = re.compile(r"^(?P<name>[A-Za-z_][\w.\-]*)(?:\[(?P<unit>[^\]]*)\])?$")
_PATH_STEP = re.compile(
    r"\.(?P<key>[A-Za-z_][\w\-]*)|\[(?P<index>-?\d+)\]|\[(?P<q>['\"])(?P<qkey>.*?)(?P=q)\]"
)


@dataclass(frozen=True)
class MetricSpec:
    """One metric to extract: from a regex's first group or from a JSON path."""

    name: str
    unit: str
    source: str
    pattern: re.Pattern[str] | None = None
    path: tuple[str | int, ...] | None = None

    @property
    def kind(self) -> str:
        return "json" if self.path is not None else "regex"


def parse_metric_spec(text: str) -> MetricSpec:
    """Parse ``NAME[unit]=REGEX`` or ``NAME[unit]=json:$.a.b[0]`` (``--metric`` value)."""
    name_part, sep, rule = text.partition("=")
    m = _NAME.match(name_part.strip())
    if not sep or m is None or not rule:
        raise InputError(
            f"--metric {text!r}: expected NAME=REGEX or NAME=json:$.path "
            "(NAME is letters, digits, _ . -; optional [unit] after it)"
        )
    name, unit = m.group("name"), (m.group("unit") or "").strip()
    if rule.startswith("json:"):
        return MetricSpec(name, unit, rule, path=parse_json_path(rule[5:], flag=f"--metric {name}"))
    try:
        pattern = re.compile(rule, re.MULTILINE)
    except re.error as exc:
        raise InputError(f"--metric {name}: invalid regex {rule!r}: {exc}") from exc
    if pattern.groups < 1:
        raise InputError(
            f"--metric {name}: regex {rule!r} has no capture group; put the number in ( )"
        )
    return MetricSpec(name, unit, rule, pattern=pattern)


def parse_json_path(text: str, *, flag: str = "json path") -> tuple[str | int, ...]:
    """The supported subset of JSONPath: ``$``, ``.key``, ``[index]`` and ``['key']`` steps.

    Filters, wildcards and recursive descent are deliberately absent: a metric must name one
    number, and anything that could match several values would make the choice silent.
    """
    text = text.strip()
    if not text.startswith("$"):
        raise InputError(f"{flag}: JSON path {text!r} must start with $ (e.g. $.stats.p99)")
    steps: list[str | int] = []
    pos = 1
    while pos < len(text):
        m = _PATH_STEP.match(text, pos)
        if m is None:
            raise InputError(
                f"{flag}: cannot read JSON path {text!r} at {text[pos:]!r}; "
                "use .key, [index] or ['key'] steps"
            )
        if m.group("key") is not None:
            steps.append(m.group("key"))
        elif m.group("index") is not None:
            steps.append(int(m.group("index")))
        else:
            steps.append(m.group("qkey"))
        pos = m.end()
    return tuple(steps)


def json_path_get(doc: Any, path: tuple[str | int, ...]) -> Any:
    """Follow ``path`` into ``doc``; raise KeyError naming the step that is missing."""
    node = doc
    walked = "$"
    for step in path:
        if isinstance(step, int):
            if not isinstance(node, list) or not -len(node) <= step < len(node):
                raise KeyError(f"{walked} has no element [{step}]")
            node = node[step]
            walked += f"[{step}]"
        else:
            if not isinstance(node, dict) or step not in node:
                raise KeyError(f"{walked} has no key {step!r}")
            node = node[step]
            walked += f".{step}"
    return node


class MetricNotFound(Exception):
    """The metric is absent from a run's output; the caller adds the run and its log."""


def extract(spec: MetricSpec, stdout: str, stderr: str = "") -> float:
    """The metric's value in one run's output (first match; stdout before stderr)."""
    if spec.path is not None:
        return _from_json(spec, stdout)
    assert spec.pattern is not None
    for text in (stdout, stderr):
        m = spec.pattern.search(text)
        if m is not None:
            return _number(spec, m.group(1))
    raise MetricNotFound(f"regex '{spec.source}' for metric {spec.name} matched nothing")


def _from_json(spec: MetricSpec, stdout: str) -> float:
    assert spec.path is not None
    doc = _json_document(stdout)
    if doc is None:
        raise MetricNotFound(f"metric {spec.name}: no JSON document on stdout")
    try:
        value = json_path_get(doc, spec.path)
    except KeyError as exc:
        raise MetricNotFound(f"metric {spec.name}: {spec.source}: {exc.args[0]}") from None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise MetricNotFound(f"metric {spec.name}: {spec.source} is not a number: {value!r}")
    return _number(spec, str(value))


def _json_document(stdout: str) -> Any:
    """The whole of stdout as JSON, else the last line that is a JSON object or array."""
    try:
        return json.loads(stdout)
    except (ValueError, RecursionError):  # nested too deep for json: not the document we want
        pass
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line[:1] in ("{", "["):
            try:
                return json.loads(line)
            except (ValueError, RecursionError):
                continue
    return None


def _number(spec: MetricSpec, text: str) -> float:
    cleaned = text.strip().replace(",", "").replace("_", "")
    try:
        value = float(cleaned)
    except ValueError:
        raise MetricNotFound(f"metric {spec.name}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise MetricNotFound(f"metric {spec.name}: {text!r} is not a finite number")
    return value

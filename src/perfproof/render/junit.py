"""Comparisons as JUnit XML, for the test-report widgets of GitHub and GitLab.

CI systems already show a list of failed tests on a pull request; a benchmark gate that speaks
their format appears there with no extra plumbing. One test case per key (benchmark, mode,
@Params); it fails when any of its metrics regressed (what ``--fail-on-regression`` fails on,
:mod:`perfproof.render.gate`), with every regressed metric in the failure's message. The
other metrics' verdicts are the case's output, and a key measured on one side only is a
skipped case, so the count of cases is the count of keys a reader sees in the report.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from perfproof.model import PRIMARY, BenchKey, Comparison, Unmatched
from perfproof.render import gate


def _case_names(key: BenchKey) -> tuple[str, str]:
    """``(classname, name)``: the benchmark's class, and its method with @Params and mode."""
    cls, _, method = key.benchmark.rpartition(".")
    label = BenchKey(method or key.benchmark, key.mode, key.params).label()
    return cls or key.benchmark, label


def junit_xml(comparisons: Sequence[Comparison], unmatched: Sequence[Unmatched], suite: str) -> str:
    """The JUnit XML document (``<testsuites>`` with one ``<testsuite>``) of one comparison."""
    by_key: dict[BenchKey, list[Comparison]] = {}
    for c in sorted(comparisons, key=lambda c: (c.key.entry(), c.key.metric != PRIMARY)):
        by_key.setdefault(c.key.entry(), []).append(c)
    cases = []
    failed = 0
    for key, metrics in by_key.items():
        cls, name = _case_names(key)
        case = ET.Element("testcase", classname=cls, name=name)
        found = gate.failures(metrics)
        if found:
            failed += 1
            text = "; ".join(f"{f.metric} {f.change}" for f in found)
            failure = ET.SubElement(case, "failure", type="regressed", message=f"regressed: {text}")
            failure.text = "\n".join(f.text() for f in found)
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join(
            f"{gate.metric_word(c)}: {gate.Failure(c).change} {c.verdict}" for c in metrics
        )
        cases.append(case)
    skipped = 0
    for u in sorted(unmatched, key=lambda u: u.key):
        if u.key.metric != PRIMARY:
            continue
        cls, name = _case_names(u.key)
        case = ET.Element("testcase", classname=cls, name=name)
        where = f"measured on the {u.side} side only" if u.side else "not compared"
        ET.SubElement(case, "skipped", message=f"{where}: {u.reason}".rstrip(": "))
        cases.append(case)
        skipped += 1
    root = ET.Element("testsuites", name="perfproof", tests=str(len(cases)))
    root.set("failures", str(failed))
    root.set("errors", "0")
    root.set("skipped", str(skipped))
    suite_el = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)))
    suite_el.set("failures", str(failed))
    suite_el.set("errors", "0")
    suite_el.set("skipped", str(skipped))
    suite_el.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"

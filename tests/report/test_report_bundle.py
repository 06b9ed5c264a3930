"""``perfproof report BUNDLE``: a prove bundle's report is the PR body prove wrote, rendered
again from prove.json and ``BUNDLE/ab``, never a run-folder report of the bundle's top folder
(whose JMH files and logs are in ``ab/``: it counted 0 forks and failed ``check``)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BUNDLE = Path(__file__).parents[1] / "fixtures" / "prove" / "demo-bundle"


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    copy = tmp_path / "bundle"
    shutil.copytree(BUNDLE, copy)
    return copy


def test_the_report_of_a_bundle_is_its_pr_body_and_check_passes_it(
    bundle: Path, run_cli: Callable[..., Any], tmp_path: Path
) -> None:
    md = run_cli("report", bundle)
    assert md.code == 0, md.err
    assert md.out.startswith("## Performance evidence: ")
    assert "Forks measured:** 0 per benchmark" not in md.out
    body = tmp_path / "body.md"
    body.write_text(md.out)
    checked = run_cli("check", body, bundle)
    assert checked.code == 0, checked.out + checked.err
    assert "prove report of it, rendered again): all match" in checked.out
    page = run_cli("report", bundle, "--format", "html")
    assert page.code == 0 and page.out.startswith("<!DOCTYPE html>")
    assert "<svg " in page.out  # the A/B run's figures, from BUNDLE/ab


@pytest.mark.parametrize(
    ("flags", "form"),
    [
        (("--format", "json"), "--format json"),
        (("--summary",), "--summary"),
        (("--max-chars", "20000"), "--max-chars N"),
    ],
)
def test_a_run_folders_forms_of_a_bundle_point_at_its_ab_run(
    bundle: Path, run_cli: Callable[..., Any], flags: tuple[str, ...], form: str
) -> None:
    result = run_cli("report", bundle, *flags)
    assert result.code == 2 and result.out == ""
    (line,) = result.err.strip().splitlines()
    assert line.endswith(f"perfproof report {bundle / 'ab'} {form}")
    assert run_cli("report", bundle / "ab", *flags).code == 0

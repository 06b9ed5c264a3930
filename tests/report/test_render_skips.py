"""A report that fails to render after the measuring costs that one file, never the run."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import perfproof.report.html
from perfproof.report import missing_reports, write_reports

SRC = Path(__file__).resolve().parents[2] / "src" / "perfproof"


def _broken_plot(*_args: object, **_kwargs: object) -> str:
    raise OverflowError("math range error")


def test_a_failing_format_is_skipped_with_one_line_and_rendered_again(
    make_run_folder: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    for name in ("report.md", "report.html"):
        (run / name).unlink(missing_ok=True)
    said: list[str] = []
    with monkeypatch.context() as m:
        # the bug the real 43-key run met: the HTML's figure overflowed after measuring
        m.setattr(perfproof.report.html, "render_html", _broken_plot)
        written = write_reports(run, say=said.append)
    assert written == [run / "report.md"] and (run / "report.md").is_file()
    assert not (run / "report.html").exists()
    (line,) = said
    assert line.startswith("perfproof: skipped report.html: OverflowError: math range error")
    assert f"perfproof report {run} --format html" in line and "\n" not in line
    trace = run / "logs" / "report.html.error.log"
    assert "Traceback" in trace.read_text() and str(trace) in line
    assert missing_reports(run) == ("html",)
    assert write_reports(run, missing_reports(run)) == [run / "report.html"]
    assert missing_reports(run) == ()


def test_a_context_that_fails_skips_every_report_with_one_line(
    make_run_folder: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import shutil

    import perfproof.report.context

    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    said: list[str] = []
    monkeypatch.setattr(perfproof.report.context, "build_context", _broken_plot)
    assert write_reports(run, say=said.append) == []
    (line,) = said
    assert line.startswith("perfproof: skipped report.md, report.html: OverflowError")
    assert (run / "logs" / "report.error.log").is_file()


def test_the_default_line_goes_to_stderr(
    make_run_folder: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(make_run_folder("ab"), run)
    monkeypatch.setattr(perfproof.report.html, "render_html", _broken_plot)
    write_reports(run)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "skipped report.html" in captured.err


RAW_BOUND = re.compile(r"\bmath\.(exp|log)\(")


CONSUMERS = ("report", "render", "export", "history", "audit")
"""The layers that show, store or export intervals someone else computed."""


def test_no_exp_or_log_of_a_raw_bound_in_the_layers_that_show_them() -> None:
    """``exp``/``log`` of a ratio bound can overflow or meet 0: the statistics compute on data
    and the bounds type saturates; the layers that show, store or export an interval ask the
    type (:mod:`perfproof.model.bounds`) and never call them."""
    found = [
        f"{p.relative_to(SRC)}:{n}"
        for folder in CONSUMERS
        for p in (SRC / folder).rglob("*.py")
        for n, text in enumerate(p.read_text().splitlines(), 1)
        if RAW_BOUND.search(text)
    ]
    assert found == []


def test_a_prove_page_that_fails_leaves_the_pr_body(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import shutil

    import perfproof.render.prove_html
    from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
    from perfproof.pipeline.prove.report import write_bundle_reports
    from perfproof.report import embedded_run

    bundle = tmp_path / "bundle"
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "runs" / "demo-prove-bundle", bundle)
    view = ProveResults.of(BundleView(bundle, read_prove(bundle / "prove.json")))
    said: list[str] = []
    monkeypatch.setattr(perfproof.render.prove_html, "render_html", _broken_plot)
    result = write_bundle_reports(view, embedded_run(bundle / "ab"), say=said.append)
    assert result.markdown == str(bundle / "report.md") and result.html == ""
    assert (bundle / "report.md").is_file() and not (bundle / "report.html").exists()
    (line,) = said
    assert line.startswith("perfproof: skipped report.html: OverflowError")
    assert f"retry with: perfproof prove --resume {bundle}" in line

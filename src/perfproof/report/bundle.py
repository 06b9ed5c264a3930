"""A prove bundle rendered again as the PR body and page ``prove`` wrote into it.

A bundle's top folder holds the A/B run's manifest and results beside prove.json, but its JMH
files and logs are in ``BUNDLE/ab``: a run-folder report of the top folder would count no
forks and word warm-up without JMH's log. So ``report BUNDLE`` and ``check`` both render the
bundle from prove.json and the A/B folder it embeds, through this one reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.model.documents.prove import BundleView, ProveResults, read_prove

if TYPE_CHECKING:
    from perfproof.report import EmbeddedRun

PROVE_DOCUMENT = "prove.json"


def is_bundle(folder: Path) -> bool:
    """Whether ``folder`` is a prove bundle (it holds prove.json)."""
    return (folder / PROVE_DOCUMENT).is_file()


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` holds what a report renders from (results or raw JMH files)."""
    return (folder / "results.json").is_file() or (folder / "jmh").is_dir()


@dataclass(frozen=True)
class Bundle:
    """prove.json's stage results and the A/B run folder they embed (None: the A/B did not
    run, or its folder is gone)."""

    results: ProveResults
    run_dir: Path | None


def read_bundle(folder: Path) -> Bundle:
    """The bundle's results and its A/B folder: ``BUNDLE/ab``, so a moved bundle still finds
    it, else the folder prove.json names."""
    results = ProveResults.of(BundleView(folder, read_prove(folder / PROVE_DOCUMENT)))
    ab = results.ab
    run_dir: Path | None = None
    if ab is not None:
        local = folder / "ab"
        run_dir = local if is_run_folder(local) else Path(ab.run_dir)
    return Bundle(results, run_dir)


def bundle_markdown(bundle: Bundle) -> str:
    """The PR body, as ``prove`` wrote it into report.md."""
    from perfproof.render.prove import render_markdown
    from perfproof.report import ab_section

    section = ab_section(bundle.run_dir) if bundle.run_dir is not None else None
    return render_markdown(bundle.results, section)


def bundle_html(bundle: Bundle) -> str:
    """The PR body's page, as ``prove`` wrote it into report.html (the A/B run's figures)."""
    from perfproof.render.prove import render_markdown
    from perfproof.report import embedded_run

    ab = embedded_run(bundle.run_dir) if bundle.run_dir is not None else None
    return bundle_page(render_markdown(bundle.results, ab.section() if ab else None), ab)


def bundle_page(md: str, ab: EmbeddedRun | None) -> str:
    """The page of a PR body: the Markdown dressed up with the A/B run's figures."""
    from perfproof.render import prove_html

    figures = ab.figures() if ab is not None else None
    return prove_html.render_html(
        md, figures.svgs if figures else (), figures.css if figures else ""
    )

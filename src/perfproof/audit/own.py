"""What perfproof itself writes for a run folder or a prove bundle, rendered again now.

Every number of a report perfproof wrote was computed by its renderer from the folder's files
(manifest.json, results.json, the raw JMH files, prove.json). Rendering the folder again with
the same code therefore gives, line by line, the value each written number claims: the
summary's counts and ranges, every table cell, the methodology's fork counts and load, the
reproduction commands, the warnings, JMH's raw tables. :mod:`perfproof.audit.align` compares
a written report with these pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from perfproof.audit.numbers import skeleton
from perfproof.model.documents.prove import BundleView, ProveResults, read_prove
from perfproof.render.prove import render_markdown
from perfproof.report import ab_section, markdown_forms

PROVE_DOCUMENT = "prove.json"


@dataclass(frozen=True)
class Rendering:
    """One page perfproof writes for the folder, as lines, with what to call it in a message."""

    name: str
    lines: tuple[str, ...]

    @cached_property
    def line_set(self) -> frozenset[str]:
        return frozenset(self.lines)

    @cached_property
    def skeletons(self) -> frozenset[str]:
        return frozenset(skeleton(line) for line in self.lines)


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` holds what a report renders from (results or raw JMH files)."""
    return (folder / "results.json").is_file() or (folder / "jmh").is_dir()


def renderings(folder: Path) -> list[Rendering]:
    """Every Markdown page perfproof may have written for ``folder``: for a prove bundle its
    PR body and the A/B run's own report; for a run folder its report in each shape."""
    out: list[Rendering] = []
    run_dir: Path | None = folder
    if (folder / PROVE_DOCUMENT).is_file():
        prove, run_dir = _prove(folder)
        out.append(prove)
    if run_dir is not None and is_run_folder(run_dir):
        out += [Rendering(name, tuple(text.splitlines())) for name, text in markdown_forms(run_dir)]
    return out


def _prove(folder: Path) -> tuple[Rendering, Path | None]:
    """The prove PR body, and the A/B run folder it embeds (None when the A/B did not run).

    The A/B runs in ``BUNDLE/ab``; a bundle moved elsewhere still finds it there, and one
    whose ``ab`` folder is gone falls back to the folder prove.json names.
    """
    results = ProveResults.of(BundleView(folder, read_prove(folder / PROVE_DOCUMENT)))
    ab = results.ab
    run_dir: Path | None = None
    if ab is not None:
        local = folder / "ab"
        run_dir = local if is_run_folder(local) else Path(ab.run_dir)
    section = ab_section(run_dir) if run_dir is not None else None
    text = render_markdown(results, section)
    return Rendering("prove report", tuple(text.splitlines())), run_dir

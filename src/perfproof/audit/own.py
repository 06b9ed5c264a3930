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
from perfproof.report import markdown_forms
from perfproof.report.bundle import (
    PROVE_DOCUMENT,
    bundle_markdown,
    is_run_folder,
    read_bundle,
)

__all__ = ["PROVE_DOCUMENT", "Rendering", "is_run_folder", "renderings"]


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
    """The prove PR body, and the A/B run folder it embeds (None when the A/B did not run)."""
    bundle = read_bundle(folder)
    return Rendering("prove report", tuple(bundle_markdown(bundle).splitlines())), bundle.run_dir

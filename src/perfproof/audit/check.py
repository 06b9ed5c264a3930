"""Verify the numbers of a report or a hand-written PR body against a run's data.

Evidence goes wrong in small ways: a score copied from the wrong row, an error from another
run, a Δ% rounded the wrong way or with the wrong sign, "the intervals do not overlap" when
they do, a range in a summary line edited by hand. Two ways tie a number to the run:

- A page perfproof wrote (``report``, ``ab``'s report.md, ``prove``'s PR body, in any shape
  they take) is rendered again from the folder (:mod:`.own`) and paired with the written
  page line by line (:mod:`.align`): every number must equal the one rendered for the run.
  A number the pairing cannot place (a line added by hand) must be a score, error or Δ% the
  quotes reader ties to a benchmark, or stand where a number is no evidence (a code block, a
  version, a date, a commit id); any other is reported as tied to nothing.
- A hand-written body: :mod:`perfproof.audit.quotes` finds the quotes, :mod:`.truth` lists
  what the run measured and :mod:`.match` checks one against the other; a number tied to no
  benchmark is counted as skipped.

This module reads the files and renders the outcome.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.audit.align import Alignment, align, choose
from perfproof.audit.amdahl import amdahl_contradictions, amdahl_rows
from perfproof.audit.claims import RunFacts, claim_mismatches, run_facts
from perfproof.audit.match import match_quotes
from perfproof.audit.numbers import Excuses, Layout, chunk, tokens
from perfproof.audit.own import PROVE_DOCUMENT, Rendering, is_run_folder, renderings
from perfproof.audit.quotes import Names, parse
from perfproof.audit.truth import Mismatch, Truth, truths
from perfproof.errors import unreadable
from perfproof.model.documents.check import CheckDocument, MismatchDoc
from perfproof.model.documents.codec import by_name
from perfproof.report.rundir import RunFolder, load_run

RAW_SECTION = "Raw JMH results"
"""The report's section of JMH's own tables: checked against the raw files while the run
folder has them, excused when they are gone (nothing is left to check them against)."""

FROM_RAW = (RAW_SECTION, "Rounds")
"""Sections read from the raw files alone (each round's ratios come from them too)."""


@dataclass
class CheckResult:
    file: str
    run_dir: str
    checked: int
    unattributed: int
    mismatches: list[Mismatch]
    compared_with: str | None = None
    """The page perfproof renders for the run that the document was paired with, if any."""
    excused: int = 0
    """Numbers in code blocks, versions, dates or names, which need no tie to the run."""

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def document(self) -> CheckDocument:
        return CheckDocument(
            file=self.file,
            run_dir=self.run_dir,
            ok=self.ok,
            checked=self.checked,
            unattributed=self.unattributed,
            compared_with=self.compared_with,
            excused=self.excused,
            mismatches=[
                MismatchDoc.model_validate(by_name(MismatchDoc, m)) for m in self.mismatches
            ],
        )


@dataclass
class Evidence:
    """What a document is checked against, read once: what the run measured and the pages
    perfproof renders for it."""

    folder: Path
    truths: list[Truth]
    names: Names
    pages: list[Rendering] = field(default_factory=list)
    has_raw: bool = False
    facts: RunFacts | None = None
    """What the run says about words and levels (:mod:`.claims`); None for a bundle without
    an A/B run."""


def evidence_of(folder: Path, run: RunFolder | None) -> Evidence:
    all_truths = truths(run) if run is not None else []
    values: dict[str, set[str]] = {}
    for t in all_truths:
        for k, v in t.params.items():
            values.setdefault(k, set()).add(v)
    names = Names(sorted({t.benchmark for t in all_truths}), sorted(values), values)
    has_raw = bool(run.raw) if run is not None else False
    facts = run_facts(run) if run is not None else None
    return Evidence(folder, all_truths, names, renderings(folder), has_raw, facts)


def load_evidence(run_dir: str | Path) -> Evidence:
    """A run folder or a prove bundle (one whose A/B did not run has no results)."""
    folder = Path(run_dir)
    bundle = (folder / PROVE_DOCUMENT).is_file()
    run = load_run(folder) if not bundle or is_run_folder(folder) else None
    return evidence_of(folder, run)


def check_text(text: str, against: RunFolder | Evidence, name: str = "PR.md") -> CheckResult:
    """Check every number of the Markdown ``text`` against a run (see the module's doc)."""
    evidence = against if isinstance(against, Evidence) else evidence_of(against.path, against)
    lines = text.splitlines()
    page = choose(lines, evidence.pages)
    if page is None:
        parsed = parse(text, evidence.names)
        checked, unattributed, mismatches = match_quotes(parsed, evidence.truths)
        result = CheckResult(name, "", checked, unattributed, mismatches)
    else:
        result = _own_page(text, lines, align(lines, page), evidence, name)
    # an Amdahl row must agree with the verdicts, even one copied faithfully from the bundle
    contradictions = amdahl_contradictions(lines, evidence.folder)
    result.checked += len(amdahl_rows(lines)) if (evidence.folder / PROVE_DOCUMENT).is_file() else 0
    result.mismatches = sorted([*result.mismatches, *contradictions], key=lambda m: m.line)
    if evidence.facts is not None:
        code = parse(text, evidence.names).code
        said = claim_mismatches(lines, evidence.facts, set(code))
        result.mismatches = sorted([*result.mismatches, *said], key=lambda m: m.line)
    return result


def _own_page(
    text: str, lines: list[str], aligned: Alignment, evidence: Evidence, name: str
) -> CheckResult:
    """A page perfproof wrote: its paired numbers are compared already; every other number
    is tied by the quotes reader, excused as no evidence, or reported."""
    result = CheckResult(
        name, "", aligned.verified, 0, list(aligned.mismatches), aligned.rendering.name
    )
    added = [
        i
        for i, line in enumerate(lines)
        if line.strip() and i not in aligned.paired and i not in aligned.edited
    ]
    if not added and not aligned.loose:
        return result
    parsed = parse(text, evidence.names)
    code = parsed.code
    _, _, found = match_quotes(parsed, evidence.truths)
    loose_text = {i: {t.text for t in ts} for i, ts in aligned.loose.items()}
    for m in found:
        i = m.line - 1
        if i in aligned.paired or (i in code and not evidence.has_raw):
            continue  # a rendered line, or JMH's console output with no raw file to read
        if i in aligned.edited and not any(t in m.quoted for t in loose_text.get(i, ())):
            continue
        result.mismatches.append(m)
    tied: dict[int, set[str]] = defaultdict(set)
    for q in parsed.quotes:
        if q.benchmark is not None:
            tied[q.line - 1].update(t.text for t in tokens(q.text))
    result.checked += sum(1 for c in parsed.claims if c.line - 1 in added)
    params = evidence.names.param_names
    layout = Layout(lines)
    for i, found_tokens in sorted(aligned.loose.items()):
        raw_gone = not evidence.has_raw and layout.headings[i] in FROM_RAW
        excuses = Excuses(lines[i], i in code, params)
        for token in found_tokens:
            if token.text in tied.get(i, ()):
                result.checked += 1
            elif raw_gone or excuses.why(token) is not None:
                result.excused += 1
            else:
                written = chunk(lines[i], token)
                result.mismatches.append(
                    Mismatch(
                        i + 1,
                        "untied",
                        written,
                        "a number of the run",
                        f"{layout.where(i, token)}: {written} is tied to nothing in the run: "
                        f"perfproof's {aligned.rendering.name} of it has no number there, "
                        "and it is no score, error or Δ% of a benchmark",
                    )
                )
    result.mismatches.sort(key=lambda m: m.line)
    return result


def read_body(path: Path) -> str:
    """A PR body as text: a file, a pipe or ``/dev/stdin``; InputError naming it otherwise."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise unreadable(path, exc, "a Markdown file") from exc


def check_file(pr_path: str | Path, run_dir: str | Path) -> CheckResult:
    """Check a PR body or report file against a run folder or prove bundle (InputError if
    either is unreadable)."""
    path = Path(pr_path)
    text = read_body(path)
    result = check_text(text, load_evidence(run_dir), str(path))
    result.run_dir = str(run_dir)
    return result


def render_table(result: CheckResult) -> str:
    lines = [f"{result.file}:{m.line}: {m.kind}: {m.message}" for m in result.mismatches]
    verdict = "all match" if result.ok else f"{len(result.mismatches)} mismatch(es)"
    against = result.run_dir
    if result.compared_with:
        against += f" (perfproof's {result.compared_with} of it, rendered again)"
    tail = f"{result.checked} numbers and claims checked against {against}: {verdict}"
    if result.excused:
        tail += (
            f" ({result.excused} numbers in code blocks, versions, dates, commit ids or names "
            "need no tie to the run)"
        )
    if result.unattributed:
        tail += f" ({result.unattributed} numbers not tied to a benchmark of the run were skipped)"
    return "\n".join([*lines, tail]) + "\n"

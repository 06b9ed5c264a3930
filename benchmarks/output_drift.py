"""Did perfproof's rendered output drift between two commits? Every fixture run folder through
``report``, ``check``, ``compare`` and ``export`` with both versions, output set beside output.

A refactoring that says "the printed output is unchanged" can be held to it, and a wave of
features can account for every line it changed. For each run folder found under the fixture
roots (a folder holding ``manifest.json``, ``prove.json`` or raw JMH files in ``jmh/``; a prove
bundle's A/B in ``ab/``), each version runs the same commands on a fresh copy of it:

- ``report RUN --format md|json|html``;
- ``check REPORT.md RUN`` (table and json), on the Markdown that version's ``report`` wrote;
- ``compare 'RUN/jmh/*base.json' 'RUN/jmh/*head.json'`` (table, md, json) and ``--sequential``
  (table, json), where the folder holds raw JMH files;
- ``export RUN --to FORMAT --out DIR --format json`` for every format, the files it wrote too.

BASE (and HEAD when given) is checked out in a throwaway ``git worktree --detach`` under a
temporary folder, removed afterwards; no other working tree is touched. Without HEAD, the
working tree this script belongs to is the newer version. Each command runs as
``python -m perfproof`` with ``PYTHONPATH`` at that version's ``src/`` (an argument list, no
shell), in an empty folder, with ``PERFPROOF_*`` settings cleared and the terminal width fixed,
so only the code differs. Each output is its exit code, stdout, stderr and any files written,
with the copy's path replaced by ``<copy>`` and a time of this run's own clock by ``<now>``
(the export time of a folder that records none). The run on two copies of one commit finds
every pair identical. It prints, per folder and command, whether the two
are identical, then for each difference an excerpt of its unified diff.

    python3 benchmarks/output_drift.py BASE [HEAD] [--fixtures DIR]... [--only NAME]...
        [--files BASE.json HEAD.json]... [--excerpt 40] [--jobs 2] [--out FULL.diff] [--keep DIR]

``--fixtures`` adds a root to search (HEAD's ``tests/`` always is); ``--only`` keeps the folders
of that name; ``--files`` adds two JMH files that are no run folder, for ``compare`` alone;
``--out`` writes every diff whole, ``--keep DIR`` both outputs of each pair. Exit 0 when all
are identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import re
import shutil
import string
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parents[1]
REPORT_FORMATS = ("md", "json", "html")
EXPORT_FORMATS = ("bencher", "github-action-benchmark", "benchstat", "otava", "csv")
CLOCK = re.compile(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:Z| \+0000)")
"""A UTC time as perfproof prints one (``2026-01-02T03:04:05Z``, Otava's ``… +0000``)."""
LONG_LINE = 240
"""Characters of one line shown in an excerpt (an HTML page's plots are one line each)."""


@dataclass(frozen=True)
class Folder:
    """A fixture folder: its name as listed, where it is, the run the verbs read in it and
    the raw JMH files ``compare`` takes, each relative to the folder."""

    name: str
    path: Path
    run: str | None
    """The run folder (``.``, or ``ab`` of a prove bundle); None for a pair of JMH files."""
    sides: tuple[str, str] | None
    """Baseline and feature JMH files (globs), when the folder holds both sides."""


@dataclass(frozen=True)
class Version:
    """One side of the drift: its label, commit and the tree whose ``src/`` runs."""

    label: str
    sha: str
    tree: Path


class Command(Protocol):
    """Run one perfproof command of a folder: its output as listed, and its stdout as printed."""

    def __call__(self, name: str, *args: str, files: Path | None = None) -> tuple[Output, str]: ...


@dataclass(frozen=True)
class Output:
    """What one command left: its transcript (exit code, stdout, stderr, files), normalised."""

    command: str
    code: int
    text: str


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


@contextmanager
def checked_out(refs: Sequence[str], scratch: Path) -> Iterator[list[Version]]:
    """Each ref in a detached worktree of its own under ``scratch``, removed on the way out
    (the repository's other working trees, its branches and index untouched)."""
    made: list[Path] = []
    try:
        versions = []
        for i, ref in enumerate(refs):
            sha = git("rev-parse", "--verify", f"{ref}^{{commit}}")
            tree = scratch / f"tree-{i}"
            git("worktree", "add", "--detach", "--quiet", str(tree), sha)
            made.append(tree)
            versions.append(Version(ref, sha, tree))
        yield versions
    finally:
        for tree in made:
            git("worktree", "remove", "--force", str(tree))


def run_folders(roots: Sequence[Path], only: Sequence[str]) -> list[Folder]:
    """The run folders under ``roots``, by name; a prove bundle counts once (its ``ab/`` is
    the run the verbs read)."""
    found: dict[str, Folder] = {}
    for root in roots:
        for path in sorted({p.parent for p in root.rglob("*") if p.name in _MARKS}):
            bundle = (path / "prove.json").is_file()
            if path.name == "ab" and (path.parent / "prove.json").is_file():
                continue
            run = "ab" if bundle else "."
            raw = _raw(path / run / "jmh")
            if not (bundle or (path / "manifest.json").is_file() or raw):
                continue  # a folder named jmh that holds no results (a Java package)
            if only and path.name not in only:
                continue
            sides = (f"{run}/jmh/*base.json", f"{run}/jmh/*head.json") if raw else None
            name = str(path.relative_to(root.parent))
            found[name] = Folder(name, path, run, sides)
    return [found[n] for n in sorted(found)]


def file_pair(base: Path, head: Path) -> Folder:
    """Two JMH files ``compare`` takes as baseline and feature (``--files``), in one folder."""
    if base.parent != head.parent:
        raise SystemExit(f"--files: {base} and {head} are not in one folder")
    name = f"{base.parent}: {base.name} → {head.name}"
    return Folder(name, base.parent, None, (base.name, head.name))


_MARKS = frozenset({"manifest.json", "prove.json", "jmh"})


def _raw(jmh: Path) -> bool:
    """Whether ``jmh`` holds raw JMH files of both sides, as ``ab`` names them."""
    return any(jmh.glob("*base.json")) and any(jmh.glob("*head.json"))


def environment(version: Version, home: Path) -> dict[str, str]:
    """The variables a command runs with: this version's sources first, no perfproof settings
    from the caller, a fixed width and hash seed, caches and config in ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERFPROOF_")}
    env |= {
        "PYTHONPATH": str(version.tree / "src"),
        "PYTHONHASHSEED": "0",
        "COLUMNS": "120",
        "NO_COLOR": "1",
        "TZ": "UTC",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    return env


def check_source(version: Version, scratch: Path) -> None:
    """Refuse to go on unless ``perfproof`` imports from this version's tree (an installed
    copy found first would make both sides the same code, and every pair identical)."""
    env = environment(version, scratch / "home")
    code = "import perfproof; print(perfproof.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=scratch, capture_output=True, text=True
    ).stdout.strip()
    if not Path(found).resolve().is_relative_to((version.tree / "src").resolve()):
        raise SystemExit(f"{version.label}: perfproof imports from {found or '(nowhere)'}")


def perfproof(args: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "perfproof", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done.returncode, done.stdout, done.stderr


def transcript(code: int, out: str, err: str, files: Path | None = None) -> str:
    """One command's output as one text: exit code, stdout, stderr, then each file written."""
    parts = [f"exit {code}\n", "--- stdout\n", out, "--- stderr\n", err]
    if files is not None and files.exists():
        written = [files] if files.is_file() else sorted(p for p in files.rglob("*") if p.is_file())
        for f in written:
            parts += [f"--- file {f.relative_to(files.parent)}\n", f.read_text(errors="replace")]
    return "".join(parts)


def outputs(version: Version, folder: Folder, work: Path) -> list[Output]:
    """Every command's output for one folder with one version, on a fresh copy of the folder
    in ``work``."""
    copy = work / "copy" / folder.path.name
    shutil.copytree(folder.path, copy)
    (work / "cwd").mkdir()
    env = environment(version, work / "home")

    def one(name: str, *args: str, files: Path | None = None) -> tuple[Output, str]:
        code, out, err = perfproof(args, env, work / "cwd")
        text = transcript(code, out, err, files).replace(str(work / "copy"), "<copy>")
        return Output(name, code, text.replace(str(work), "<scratch>")), out

    got = []
    if folder.run is not None:
        got += run_outputs(str(copy / folder.run), work, one)
    if folder.sides is not None:
        base, head = (str(copy / side) for side in folder.sides)
        for fmt in ("table", "md", "json"):
            got.append(one(f"compare --format {fmt}", "compare", base, head, "--format", fmt)[0])
        for fmt in ("table", "json"):
            sequential = ("compare", base, head, "--sequential", "--format", fmt)
            got.append(one(f"compare --sequential --format {fmt}", *sequential)[0])
    return got


def run_outputs(run: str, work: Path, one: Command) -> list[Output]:
    """``report`` in each format, ``check`` of the Markdown it printed, ``export`` to each
    format (the files written with it)."""
    got = []
    for fmt in REPORT_FORMATS:
        shown, printed = one(f"report --format {fmt}", "report", run, "--format", fmt)
        got.append(shown)
        if fmt == "md":  # the body check reads: what this version's report printed
            (work / "report.md").write_text(printed, encoding="utf-8")
    body = str(work / "report.md")
    got.append(one("check", "check", body, run)[0])
    got.append(one("check --format json", "check", body, run, "--format", "json")[0])
    for fmt in EXPORT_FORMATS:
        out = work / "export" / fmt
        export = ("export", run, "--to", fmt, "--out", str(out), "--format", "json")
        got.append(one(f"export --to {fmt}", *export, files=out)[0])
    return got


def without_clock(text: str, start: datetime, end: datetime) -> str:
    """``text`` with each time inside this drift run written ``<now>``: the clock a verb reads
    for a run that records none (a folder of raw JMH files exported), which differs between the
    two versions' turns and says nothing of their code."""

    def now(match: re.Match[str]) -> str:
        moment = datetime.fromisoformat(f"{match[1]}T{match[2]}+00:00")
        return "<now>" if start <= moment <= end else match[0]

    return CLOCK.sub(now, text)


def excerpt(diff: list[str], lines: int) -> list[str]:
    """The first ``lines`` lines of a diff, each cut to :data:`LONG_LINE` characters."""
    cut = [d if len(d) <= LONG_LINE else d[:LONG_LINE] + " …" for d in diff[:lines]]
    if len(diff) > lines:
        cut.append(f"… {len(diff) - lines} more diff lines")
    return cut


@dataclass(frozen=True)
class Pair:
    """One folder and command: both versions' exit codes and the diff of their outputs."""

    folder: Folder
    command: str
    codes: str
    """``0 → 0``: BASE's exit code, HEAD's (a pair identical because both failed shows it)."""
    diff: list[str]
    """The unified diff of BASE's output against HEAD's; empty when they are identical."""
    before: str
    after: str
    """Both outputs as they were set side by side (the copy's path and this run's clock
    written as placeholders)."""


def compare_versions(
    base: Version, head: Version, folders: list[Folder], scratch: Path, jobs: int
) -> list[Pair]:
    """Every folder's commands run with both versions (``jobs`` at a time), set side by side."""
    for version in (base, head):
        check_source(version, scratch)
    tasks = [
        (v, f, scratch / side / f.path.name)
        for f in folders
        for side, v in (("base", base), ("head", head))
    ]
    start = datetime.now(UTC).replace(microsecond=0)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = list(pool.map(lambda t: outputs(*t), tasks))
    end = datetime.now(UTC)
    pairs = []
    for i, folder in enumerate(folders):
        before = {o.command: o for o in done[2 * i]}
        after = {o.command: o for o in done[2 * i + 1]}
        for command in dict.fromkeys([*before, *after]):
            a, b = before.get(command), after.get(command)
            before_text = without_clock(a.text, start, end) if a else ""
            after_text = without_clock(b.text, start, end) if b else ""
            diff = difflib.unified_diff(
                before_text.splitlines(keepends=True),
                after_text.splitlines(keepends=True),
                base.label,
                head.label,
                n=2,
            )
            codes = f"{a.code if a else '-'} → {b.code if b else '-'}"
            lines = [d.rstrip("\n") for d in diff]
            pairs.append(Pair(folder, command, codes, lines, before_text, after_text))
    return pairs


def print_pairs(base: Version, head: Version, pairs: list[Pair], lines: int) -> None:
    """The summary, a row per pair, then an excerpt of each difference."""
    same = sum(1 for p in pairs if not p.diff)
    folders = len({p.folder.name for p in pairs})
    print(
        f"output drift: {base.label} ({base.sha[:10]}) → {head.label} ({head.sha[:10]}), "
        f"{folders} run folders, {len(pairs)} (folder, command) pairs"
    )
    print(f"identical: {same} of {len(pairs)}\n")
    print("| folder | command | exit | output |\n|---|---|---|---|")
    for p in pairs:
        shown = "differs" if p.diff else "identical"
        print(f"| {p.folder.name} | {p.command} | {p.codes} | {shown} |")
    for p in pairs:
        if p.diff:
            print(f"\n### {p.folder.name}: {p.command}\n```diff")
            print("\n".join(excerpt(p.diff, lines)))
            print("```")


def keep(pairs: list[Pair], into: Path) -> None:
    """Both outputs of every pair, ``DIR/<folder>/<command>.base`` and ``.head``, for reading
    a difference whole (a JSON document parsed on each side, say)."""
    for p in pairs:
        folder = into / re.sub(r"[^\w.-]+", "_", p.folder.name).strip("_")
        folder.mkdir(parents=True, exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", p.command).strip("_")
        (folder / f"{name}.base").write_text(p.before, encoding="utf-8")
        (folder / f"{name}.head").write_text(p.after, encoding="utf-8")


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A new temporary folder whose path holds no digit: a report prints the run folder's path
    and ``check`` counts every number of the report, so a random digit in it would change the
    count from one drift run to the next."""
    name = "perfproof-drift-" + "".join(random.choices(string.ascii_lowercase, k=10))
    scratch = Path(tempfile.gettempdir()) / name
    scratch.mkdir()
    try:
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the older commit")
    parser.add_argument("head", nargs="?", help="the newer commit (default: this working tree)")
    parser.add_argument(
        "--fixtures",
        type=Path,
        action="append",
        default=[],
        help="a root to search for run folders (default: HEAD's tests/)",
    )
    parser.add_argument("--only", action="append", default=[], help="keep folders of this name")
    parser.add_argument(
        "--files",
        nargs=2,
        type=Path,
        action="append",
        default=[],
        metavar=("BASE.json", "HEAD.json"),
        help="also compare these two JMH files (a fixture that is no run folder)",
    )
    parser.add_argument("--excerpt", type=int, default=40, help="diff lines shown per difference")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write every diff whole to this file")
    parser.add_argument("--keep", type=Path, help="write both outputs of each pair under DIR")
    args = parser.parse_args()
    with scratch_folder() as scratch:
        refs = [args.base] + ([args.head] if args.head else [])
        with checked_out(refs, scratch) as versions:
            base = versions[0]
            here = Version("working tree", git("rev-parse", "HEAD"), ROOT)
            head = versions[1] if args.head else here
            roots = [*args.fixtures, head.tree / "tests"]
            folders = run_folders(roots, args.only) + [file_pair(*f) for f in args.files]
            names = [f.path.name for f in folders]
            if len(set(names)) < len(names):  # each is copied under its own name
                raise SystemExit(f"two fixture folders of one name: {sorted(names)}")
            pairs = compare_versions(base, head, folders, scratch, args.jobs)
    print_pairs(base, head, pairs, args.excerpt)
    if args.out is not None:
        full = [
            line
            for p in pairs
            if p.diff
            for line in (f"### {p.folder.name}: {p.command}", *p.diff, "")
        ]
        args.out.write_text("\n".join(full) + "\n", encoding="utf-8")
    if args.keep is not None:
        keep(pairs, args.keep)
    return 0 if all(not p.diff for p in pairs) else 1


if __name__ == "__main__":
    sys.exit(main())

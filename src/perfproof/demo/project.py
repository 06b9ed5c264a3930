"""Write the embedded sample project into a fresh git repository with three commits.

The sample is a tiny Maven library with two hot paths and a JMH benchmark for each:

- ``baseline``: ``ErrorReporter`` looks codes up in ``HashMap<Short, String>`` and counts them in
  ``HashMap<Short, Integer>`` (a boxed key per call, a new boxed counter stored per call);
  ``EventBus.publish`` builds a stream pipeline even when nobody listens.
- ``feature``: dense arrays indexed by ``code - FIRST``; an early return for no listeners. Both
  benchmarks get many times faster and stop allocating, so the effect is unmistakable. It is
  stored as the patch of what it changes (``sample/feature.patch``), applied to the baseline as
  the commit is written, so each unchanged line of the sample is kept once.
- decoys in every commit, which ``perfproof hunt`` must not rank: the benchmarks' ``@Setup``
  allocates a large array, ``Journal`` builds a table in its static initialiser, grows a
  buffer once and reuses it on the hot path, and formats a message on a cold error path.
- ``docs-only``: only README.md changes, so feature → docs-only is an A/A control: the same
  code built twice, where any "difference" perfproof reports would be a false alarm.

Commits have a fixed author and date, so the SHAs are the same on every machine and every run
(and builds of them are found in perfproof's cache the second time).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from perfproof.errors import InputError
from perfproof.process import Command, Watch, run

TAGS = ("baseline", "feature", "docs-only")
GITIGNORE = "target/\n"

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "perfproof demo",
    "GIT_AUTHOR_EMAIL": "demo@perfproof.invalid",
    "GIT_COMMITTER_NAME": "perfproof demo",
    "GIT_COMMITTER_EMAIL": "demo@perfproof.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
}
_GIT_OPTS = ("-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null")

_COMMITS = (
    ("baseline", "2026-01-05T10:00:00Z", "Error reporter and event bus with JMH benchmarks"),
    (
        "feature",
        "2026-01-06T10:00:00Z",
        "Faster error reporting and event publishing\n\n"
        "Dense arrays instead of boxed-key maps for error codes; return early when a topic\n"
        "has no listener instead of building a stream pipeline.",
    ),
    ("docs", "2026-01-07T10:00:00Z", "Document the performance notes"),
)


@dataclass(frozen=True)
class DemoRepo:
    """The written repository and the commit of each tag."""

    path: Path
    shas: dict[str, str]


def _sample() -> Traversable:
    return resources.files("perfproof.demo").joinpath("sample")


def project_files(layer: str) -> dict[str, bytes]:
    """The whole files of one layer (baseline, docs) of the embedded project, by path; none for
    a layer stored as a patch (:func:`layer_patch`)."""
    root = _sample().joinpath(layer)
    out: dict[str, bytes] = {}
    if not root.is_dir():
        return out

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            rel = f"{prefix}{child.name}"
            if child.is_dir():
                walk(child, rel + "/")
            elif not child.name.startswith(".") and not child.name.endswith(".pyc"):
                out[rel] = child.read_bytes()

    walk(root, "")
    return out


def layer_patch(layer: str) -> str | None:
    """The changes of a layer stored as a unified diff against the commit before it (the
    feature: only the lines it changes, not a second copy of every file it touches), or None
    for a layer of whole files."""
    patch = _sample().joinpath(f"{layer}.patch")
    return patch.read_text("utf-8") if patch.is_file() else None


def _git(repo: Path, *args: str, date: str | None = None, stdin: str | None = None) -> str:
    env = dict(_GIT_ENV)
    if date:
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
    command = Command(["git", *_GIT_OPTS, *args], cwd=repo, env=env, stdin=stdin)
    res = run(command, Watch(what=f"git {args[0]}", check=True))
    return res.output.strip()


def write_demo_repo(dest: Path) -> DemoRepo:
    """Create ``dest`` as a git repository holding the three demo commits, tagged."""
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise InputError(f"{dest} exists and is not empty; choose another --out")
    dest.mkdir(parents=True, exist_ok=True)
    _git(dest, "init", "--quiet", "--initial-branch=main")
    shas: dict[str, str] = {}
    for (layer, date, message), tag in zip(_COMMITS, TAGS, strict=True):
        files = project_files(layer)
        if layer == "baseline":
            files[".gitignore"] = GITIGNORE.encode()
        for rel, data in files.items():
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        patch = layer_patch(layer)
        if patch is not None:
            _git(dest, "apply", "--whitespace=nowarn", "-", stdin=patch)
        _git(dest, "add", "--all")
        _git(dest, "commit", "--quiet", "-m", message, date=date)
        _git(dest, "tag", tag)
        shas[tag] = _git(dest, "rev-parse", "HEAD")
    return DemoRepo(dest, shas)

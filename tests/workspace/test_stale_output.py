"""A build whose settings differ from the last build in its worktree starts clean: nothing
the first try left in ``target/`` reaches the second. The build is a command of the user's own
(a Python one-liner), run for real in a real cache worktree; the Maven case, where the left
output makes javac say "Nothing to compile", is in tests/measure/test_ab_test_sources_jvm.py."""

from __future__ import annotations

import sys
from pathlib import Path

from perfproof.workspace.build import build
from perfproof.workspace.spec import BuildSpec
from perfproof.workspace.worktree import ensure_worktree

MAKE = (
    "import pathlib, sys; t = pathlib.Path('target'); t.mkdir(exist_ok=True); "
    "(t / (sys.argv[1] + '.class')).write_text('x'); "
    "(t / 'cp.txt').write_text(':'.join(sorted(str(p) for p in t.glob('*.class'))))"
)


def _spec(name: str) -> BuildSpec:
    return BuildSpec(
        build_cmd=f'{sys.executable} -c "{MAKE}" {name}', classpath_file="target/cp.txt"
    )


def _worktree(tmp_path: Path, write_git_repo) -> tuple[Path, Path]:
    """A cache worktree of a one-commit repository whose build output is ignored, and the cache."""
    repo = write_git_repo(tmp_path / "repo", [
        ("c1", "2026-03-01T10:00:00Z", {".gitignore": "target/\n", "README": "x\n"}),
    ])  # fmt: skip
    sha = (repo / ".git" / "refs" / "tags" / "c1").read_text().strip()
    cache = tmp_path / "cache"
    return ensure_worktree(repo, sha, cache), cache


def test_a_second_try_with_other_settings_sees_nothing_of_the_first(
    tmp_path: Path, write_git_repo
) -> None:
    worktree, cache = _worktree(tmp_path, write_git_repo)
    first = build(worktree, _spec("first"), cache_dir=cache, log_path=tmp_path / "1.log")
    assert [p.name for p in first.classpath] == ["first.class"]
    second = build(worktree, _spec("second"), cache_dir=cache, log_path=tmp_path / "2.log")
    assert [p.name for p in second.classpath] == ["second.class"]
    assert "had other settings: building clean" in (tmp_path / "2.log").read_text()
    again = build(worktree, _spec("second"), cache_dir=cache, log_path=tmp_path / "3.log",
                  fresh=True)  # fmt: skip
    assert [p.name for p in again.classpath] == ["second.class"]


def test_output_of_an_unrecorded_build_is_removed_and_a_new_worktree_builds_as_it_is(
    tmp_path: Path, write_git_repo
) -> None:
    worktree, cache = _worktree(tmp_path, write_git_repo)
    build(worktree, _spec("new"), cache_dir=cache, log_path=tmp_path / "1.log")
    assert "building clean" not in (tmp_path / "1.log").read_text()
    (worktree.parent / f"{worktree.name}.build").unlink()  # as a build of an older perfproof
    (worktree / "target" / "old.class").write_text("x")
    art = build(worktree, _spec("next"), cache_dir=cache, log_path=tmp_path / "2.log")
    assert [p.name for p in art.classpath] == ["next.class"]
    assert (
        "left output perfproof did not record: building clean" in (tmp_path / "2.log").read_text()
    )

from __future__ import annotations

import pytest

from perfproof.errors import InputError
from perfproof.workspace.build import build_key
from perfproof.workspace.overlay import apply_overlay, overlaid_files, overlay_fingerprint
from perfproof.workspace.spec import BuildSpec
from perfproof.workspace.worktree import ensure_worktree, is_clean

NEW_BENCH = "bench/src/main/java/wsfx/bench/NewBench.java"
CODES = "core/src/main/java/wsfx/core/Codes.java"


@pytest.fixture
def pair(sample_repo, tmp_path):
    cache = tmp_path / "cache"
    head = ensure_worktree(sample_repo.path, sample_repo.head, cache)
    base = ensure_worktree(sample_repo.path, sample_repo.base, cache)
    return head, base, cache


def test_overlay_copies_tracked_files_of_folders_and_single_files(pair, sample_repo):
    head, base, _ = pair
    (head / "bench" / "target").mkdir()
    (head / "bench" / "target" / "junk.class").write_bytes(b"build output, not tracked")
    assert not (base / NEW_BENCH).exists()
    files = apply_overlay(head, base, ["bench", CODES])
    assert NEW_BENCH in files and CODES in files
    assert "bench/target/junk.class" not in files and not (base / "bench/target").exists()
    assert files == sorted(files)
    assert (base / NEW_BENCH).read_bytes() == (head / NEW_BENCH).read_bytes()
    assert (base / CODES).read_bytes() == (head / CODES).read_bytes()
    assert overlaid_files(base) == files
    assert not is_clean(base)


def test_overlay_path_missing_in_source_is_an_input_error(pair):
    head, base, _ = pair
    with pytest.raises(InputError, match="overlay path 'bench/nope' does not exist in"):
        apply_overlay(head, base, ["bench/nope"])
    (head / "untracked.txt").write_text("x")
    with pytest.raises(InputError, match="holds no file tracked by git"):
        apply_overlay(head, base, ["untracked.txt"])
    for bad in ["/etc/passwd", "../project", "bench/../../x", ""]:
        with pytest.raises(InputError, match="must be relative"):
            apply_overlay(head, base, [bad])
    assert overlaid_files(base) == [] and is_clean(base)


@pytest.mark.jvm
def test_overlay_changes_the_build_key_until_the_worktree_is_made_clean(pair, sample_repo):
    head, base, cache = pair
    spec = BuildSpec(module="bench")
    clean_key = build_key(base, spec)
    assert overlay_fingerprint(base) == ""
    apply_overlay(head, base, [NEW_BENCH])
    one = build_key(base, spec)
    assert one != clean_key
    apply_overlay(head, base, [CODES])
    two = build_key(base, spec)
    assert two not in (one, clean_key)
    assert overlaid_files(base) == [NEW_BENCH, CODES]
    assert ensure_worktree(sample_repo.path, sample_repo.base, cache) == base
    assert build_key(base, spec) == clean_key and is_clean(base)
    assert build_key(base, spec, extra_key="round-2") != clean_key
    assert build_key(base, BuildSpec(module="bench-thin")) != clean_key
    assert build_key(head, spec) != clean_key


def test_overlay_onto_itself_changes_nothing(pair):
    head, _, _ = pair
    assert apply_overlay(head, head, [NEW_BENCH]) == [NEW_BENCH]
    assert overlay_fingerprint(head) == "" and is_clean(head)

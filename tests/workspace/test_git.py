from __future__ import annotations

from pathlib import Path

import pytest

from perfproof.errors import InputError
from perfproof.workspace.git import is_linked_worktree, require_repo, resolve_ref


def test_resolve_ref_gives_full_sha_for_branches_short_shas_and_relative_refs(sample_repo):
    repo = sample_repo.path
    assert resolve_ref(repo, "main") == sample_repo.head
    assert resolve_ref(repo, "main~1") == sample_repo.base
    assert resolve_ref(repo, sample_repo.base[:8]) == sample_repo.base
    assert resolve_ref(repo, "broken") == sample_repo.broken
    assert resolve_ref(repo / "core", "HEAD") == sample_repo.head


def test_unknown_ref_is_an_input_error_naming_ref_and_repo(sample_repo):
    with pytest.raises(InputError) as err:
        resolve_ref(sample_repo.path, "no-such-branch")
    assert str(err.value) == f"unknown ref 'no-such-branch' in {sample_repo.path}"
    assert err.value.exit_code == 2


@pytest.mark.parametrize("ref", ["--all", "", "main\nHEAD", "0" * 40])
def test_refs_that_look_like_options_or_do_not_exist_are_refused(sample_repo, ref):
    with pytest.raises(InputError, match="unknown ref"):
        resolve_ref(sample_repo.path, ref)


def test_a_folder_that_is_not_a_repository_is_an_input_error(tmp_path: Path):
    with pytest.raises(InputError, match=f"not a git repository: {tmp_path}"):
        resolve_ref(tmp_path, "HEAD")
    with pytest.raises(InputError, match="does not exist"):
        require_repo(tmp_path / "missing")


def test_main_checkout_is_not_a_linked_worktree(sample_repo):
    assert not is_linked_worktree(sample_repo.path)

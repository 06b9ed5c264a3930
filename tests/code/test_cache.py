"""The content-hash cache: reused when unchanged, refreshed per edited file, never trusted
when it is from another version or unreadable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfproof.code import cache
from perfproof.errors import InputError


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = cache.index_file

    def counting(path, src):
        parsed.append(path)
        return real(path, src)

    monkeypatch.setattr(cache, "index_file", counting)
    return parsed


def test_second_load_parses_nothing(corpus, monkeypatch, private_cache):
    parsed = _count_parses(monkeypatch)
    first = cache.load_index(corpus, jobs=1)
    assert len(parsed) == len(first) == len(list(corpus.rglob("*.java")))
    assert cache.pack_path(corpus).is_relative_to(private_cache / "perfproof" / "code-index")
    parsed.clear()
    second = cache.load_index(corpus, jobs=1)
    assert parsed == []
    assert [f.path for f in second] == [f.path for f in first]
    assert [f.sites() for f in second] == [f.sites() for f in first]


def test_edit_reparses_only_that_file_and_results_follow(corpus_copy, monkeypatch, run_cli):
    cache.load_index(corpus_copy, jobs=1)
    parsed = _count_parses(monkeypatch)
    handler = corpus_copy / "core/src/main/java/org/acme/server/RequestHandler.java"
    text = handler.read_text().replace("return forCode(code);", "return Errors.UNKNOWN;")
    handler.write_text(text)
    before = len(parsed)
    doc = json.loads(
        run_cli("callers", "Errors.forCode", "--repo", corpus_copy, "--format", "json").out
    )
    assert parsed[before:] == ["core/src/main/java/org/acme/server/RequestHandler.java"]
    assert doc["production"] == 5


def test_moved_file_reuses_entry(corpus_copy, monkeypatch):
    cache.load_index(corpus_copy, jobs=1)
    parsed = _count_parses(monkeypatch)
    src = corpus_copy / "core/src/main/java/org/acme/util/Unrelated.java"
    dst = corpus_copy / "core/src/main/java/org/acme/util/Moved.java"
    src.rename(dst)
    files = cache.load_index(corpus_copy, jobs=1)
    assert parsed == []
    assert "core/src/main/java/org/acme/util/Moved.java" in [f.path for f in files]


def test_corrupt_or_foreign_cache_is_ignored(corpus, monkeypatch):
    pack = cache.pack_path(corpus)
    pack.parent.mkdir(parents=True, exist_ok=True)
    pack.write_bytes(b"not a pickle")
    parsed = _count_parses(monkeypatch)
    assert len(cache.load_index(corpus, jobs=1)) == len(parsed) > 0
    monkeypatch.setattr(cache, "INDEX_VERSION", cache.INDEX_VERSION + 1)
    parsed.clear()
    cache.load_index(corpus, jobs=1)
    assert len(parsed) > 0


def test_no_cache_leaves_no_file(corpus, private_cache):
    cache.load_index(corpus, use_cache=False, jobs=1)
    assert not cache.pack_path(corpus).exists()


def test_parallel_parse_matches_serial(tmp_path: Path, monkeypatch):
    for i in range(60):
        folder = tmp_path / "repo" / f"p{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"C{i}.java").write_text(
            f"package p{i % 3};\nclass C{i} {{ void m() {{ C{(i + 1) % 60}.run({i}); }} }}\n"
        )
    serial = cache.load_index(tmp_path / "repo", use_cache=False, jobs=1)
    parallel = cache.load_index(tmp_path / "repo", use_cache=False, jobs=2)
    assert [(f.path, f.sites()) for f in serial] == [(f.path, f.sites()) for f in parallel]


def test_skips_build_output_and_hidden_folders(tmp_path: Path):
    repo = tmp_path / "repo"
    for rel in (
        "src/main/java/A.java",
        "target/gen/B.java",
        ".git/C.java",
        "src/main/java/build/D.java",
    ):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text("class X {}")
    assert cache.java_files(repo) == ["src/main/java/A.java", "src/main/java/build/D.java"]


def test_bad_repo(tmp_path: Path):
    with pytest.raises(InputError, match="not a directory"):
        cache.load_index(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"no \.java files"):
        cache.load_index(tmp_path / "empty")


def test_falls_back_to_one_process_when_workers_fail(tmp_path: Path, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    class Broken:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, *args, **kwargs):
            raise BrokenProcessPool("no workers here")

    monkeypatch.setattr(cache, "ProcessPoolExecutor", Broken)
    repo = tmp_path / "repo"
    repo.mkdir()
    for i in range(60):
        (repo / f"C{i}.java").write_text(f"class C{i} {{ void m() {{ go({i}); }} }}\n")
    files = cache.load_index(repo, use_cache=False, jobs=2)
    assert len(files) == 60 and all(f.sites() for f in files)

"""A folder of rounds skips hidden files, as a shell glob would."""

from __future__ import annotations

from pathlib import Path

from perfproof.jmh.reader import expand_spec


def test_folder_skips_the_partial_file_an_interrupted_step_leaves(
    fixtures_dir: Path, tmp_path: Path
) -> None:
    src = (fixtures_dir / "jmh" / "jmh-1.37-allmodes-gc.json").read_text()
    (tmp_path / "01-base.json").write_text(src)
    (tmp_path / ".02-base.partial.json").write_text(src[:500])  # JMH was stopped mid-write
    assert expand_spec(str(tmp_path)) == [tmp_path / "01-base.json"]
    assert expand_spec(str(tmp_path / "*.json")) == [tmp_path / "01-base.json"]

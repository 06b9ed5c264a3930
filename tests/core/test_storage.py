import json
from pathlib import Path

import pytest

from perfproof.storage import write_bytes_atomic, write_json_atomic


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    p = tmp_path / "d" / "f.json"
    write_json_atomic(p, {"a": 1})
    write_json_atomic(p, {"a": 2})
    assert json.loads(p.read_text()) == {"a": 2}
    assert [x.name for x in p.parent.iterdir()] == ["f.json"]


def test_failed_write_leaves_old_content_and_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "f.bin"
    write_bytes_atomic(p, b"old")

    with pytest.raises(TypeError):
        write_bytes_atomic(p, object())  # type: ignore[arg-type]
    assert p.read_bytes() == b"old"
    assert [x.name for x in tmp_path.iterdir()] == ["f.bin"]

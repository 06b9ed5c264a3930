"""CI runs what the README tells a developer to run: `.ci/run` calls the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    """The one-line command of the README's "Run the tests" block."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("Run the tests") :]
    match = re.search(r"```sh\n(.+?)\n```", section, flags=re.S)
    assert match is not None, "no sh block after 'Run the tests' in README.md"
    return match.group(1).strip()


def test_ci_runs_the_readmes_test_command_in_two_workers() -> None:
    command = readme_test_command()
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    calls = [line for line in lines if line.startswith(command.rsplit(" && ", 1)[0])]
    assert len(calls) == 1, f".ci/run does not call the README's test command: {command}"
    # the same installs, then the README's pytest with CI's own reporting options after it
    assert calls[0].startswith(command), (calls[0], command)
    assert "-n 2 --dist loadgroup" in command


GROUPED = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        if item.name.startswith("test_jvm"):
            item.add_marker(pytest.mark.xdist_group("jvm"))
"""
TESTS = "\n".join(
    f"def test_{kind}{i}():\n    print('worker', __import__('os').environ['PYTEST_XDIST_WORKER'])"
    for kind in ("jvm", "py")
    for i in range(4)
)


def test_a_group_marked_at_collection_runs_whole_on_one_worker(tmp_path: Path) -> None:
    """The installed pytest and pytest-xdist honour a group that a conftest hook sets, as
    ``tests/conftest.py`` does (pytest-xdist 3.8 names it in the test id, which pytest 9.2 no
    longer reads: there the JVM tests would be spread over both workers)."""
    import subprocess
    import sys

    (tmp_path / "conftest.py").write_text(GROUPED)
    (tmp_path / "test_grouped.py").write_text(TESTS + "\n")
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--dist",
            "loadgroup", "-v", "-rA", "-o", "addopts=", str(tmp_path)]  # fmt: skip
    out = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    ran = re.findall(r"\[(gw\d)\][^\n]*?PASSED [^\n]*?::test_(jvm|py)\d(@jvm)?", out)
    assert len(ran) == 8, out
    jvm = {(worker, tag) for worker, kind, tag in ran if kind == "jvm"}
    assert len(jvm) == 1 and next(iter(jvm))[1] == "@jvm", out

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

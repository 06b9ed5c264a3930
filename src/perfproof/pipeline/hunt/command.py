"""The command workload of ``hunt``: any command (a test run, a server under a load script),
every JVM it starts recorded by JFR.

The recording option goes in ``JAVA_TOOL_OPTIONS``, which every HotSpot JVM reads at start,
so ``mvn test`` (and the test JVMs it forks), a shell-free launcher script or a plain
``java -jar`` are recorded alike without rewriting the command. Each JVM writes its own file
(JFR names it by pid inside the folder); the hunt counts those that ran project code as one
recording of one run (:func:`perfproof.pipeline.hunt.run._one_run`). The command is
split like a shell would split it and never run by one.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from perfproof.errors import ExternalError, InputError
from perfproof.measure.jfr_args import jfr_option
from perfproof.pipeline.hunt.run import Say, Workload
from perfproof.process import Command, Watch, command_line, run
from perfproof.profile.load import load_profiles

TOOL_OPTIONS = "JAVA_TOOL_OPTIONS"


def split_command(text: str) -> list[str]:
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise InputError(f"--run: cannot split {text!r}: {exc}") from None
    if not argv:
        raise InputError("--run: empty command")
    return argv


def command_workload(text: str, cwd: Path, out_dir: Path, java: str | None, say: Say) -> Workload:
    """Run the command once with every JVM recording; its recordings are the forks."""
    argv = split_command(text)
    folder = (out_dir / "jfr").absolute()
    if any(c in str(folder) for c in ",= "):
        raise InputError(f"--out {out_dir}: JFR paths may not contain ',', '=' or spaces")
    folder.mkdir(parents=True, exist_ok=True)
    option = " ".join(jfr_option(str(folder) + os.sep, "profile"))
    inherited = os.environ.get(TOOL_OPTIONS, "")
    env = {TOOL_OPTIONS: f"{inherited} {option}".strip()}
    log = out_dir / "command.log"
    say(f"running {command_line(argv)} with JFR on every JVM (log: {log})")
    result = run(Command(argv, cwd=cwd, env=env), Watch(what=argv[0], log=log, capture=False))
    recordings = sorted(folder.glob("*.jfr"))
    if result.returncode != 0:
        raise ExternalError(f"--run {command_line(argv)} exited with code {result.returncode}", log)
    if not recordings:
        raise ExternalError(
            f"--run {command_line(argv)} started no JVM that wrote a recording "
            f"({TOOL_OPTIONS} is read by HotSpot JVMs only)",
            log,
        )
    profiles = load_profiles(recordings, java)
    return Workload("command", f"command: {command_line(argv)}", [("command", profiles, None)])

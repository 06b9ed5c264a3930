import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perfproof.errors import ExternalError, InputError
from perfproof.process import Command, Watch, command_line, run


def test_run_streams_to_log_and_callback(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "x.log"
    seen: list[str] = []
    res = run(
        Command([sys.executable, "-c", "print('a'); print('b; rm -rf /')"]),
        Watch(log=log, on_line=seen.append),
    )
    assert res.ok
    assert seen == ["a", "b; rm -rf /"]
    text = log.read_text()
    assert text.startswith("$ ")
    assert "b; rm -rf /" in text
    assert "# exit 0" in text


def test_no_shell_interpretation(tmp_path: Path) -> None:
    res = run(Command([sys.executable, "-c", "import sys; print(sys.argv[1])", "$HOME && echo hi"]))
    assert res.output.strip() == "$HOME && echo hi"


def test_check_raises_external_error_naming_log(tmp_path: Path) -> None:
    log = tmp_path / "fail.log"
    with pytest.raises(ExternalError) as info:
        run(
            Command([sys.executable, "-c", "import sys; print('boom'); sys.exit(4)"]),
            Watch(log=log, check=True, what="build"),
        )
    assert "build failed with exit code 4: boom" in str(info.value)
    assert str(log) in str(info.value)
    assert info.value.exit_code == 3


def test_missing_program_is_input_error() -> None:
    with pytest.raises(InputError, match="program not found"):
        run(Command(["definitely-not-a-program-xyz"]))


def test_timeout_kills_process() -> None:
    with pytest.raises(ExternalError, match="timed out"):
        run(Command([sys.executable, "-c", "import time; time.sleep(30)"]), Watch(timeout=0.5))


def test_separate_stderr_keeps_stdout_clean(tmp_path: Path) -> None:
    code = "import sys; print('data'); print('noise', file=sys.stderr)"
    res = run(Command([sys.executable, "-c", code]), Watch(merge_stderr=False, log=tmp_path / "l"))
    assert res.output == "data\n"
    assert "noise" in (tmp_path / "l").read_text()


def test_command_line_quotes_for_copy_paste() -> None:
    assert command_line(["java", "-jar", "a b.jar", "-p", "x=1"]) == "java -jar 'a b.jar' -p x=1"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_ctrl_c_while_the_child_starts_still_stops_the_child(monkeypatch, tmp_path) -> None:
    """Ctrl-C landing inside Popen (after the fork, before it returns) must not orphan the child."""
    started: list[int] = []
    real_popen = subprocess.Popen

    def popen_hit_by_ctrl_c(*args, **kwargs):  # type: ignore[no-untyped-def]
        proc = real_popen(*args, **kwargs)
        started.append(proc.pid)
        os.kill(os.getpid(), signal.SIGINT)  # delivered while Popen has not yet returned
        time.sleep(0.2)
        return proc

    monkeypatch.setattr(subprocess, "Popen", popen_hit_by_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run(
            Command([sys.executable, "-c", "import time; time.sleep(60)"]),
            Watch(log=tmp_path / "x.log"),
        )
    assert len(started) == 1
    deadline = time.monotonic() + 10
    while _alive(started[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(started[0]), "the child outlived the interrupted run"


def test_a_command_changes_only_what_it_names_of_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PERFPROOF_T_KEPT", "kept")
    monkeypatch.setenv("PERFPROOF_T_GONE", "gone")
    code = (
        "import os, sys; print(os.getcwd()); print(sys.stdin.read()); names = sys.argv[1:];"
        "print([os.environ.get('PERFPROOF_T_' + n) for n in names])"
    )
    command = Command(
        [sys.executable, "-c", code, "KEPT", "GONE", "ADDED"],
        cwd=tmp_path,
        env={"PERFPROOF_T_ADDED": "added"},
        unset_env=("PERFPROOF_T_GONE",),
        stdin="fed",
    )
    log = tmp_path / "c.log"
    lines = run(command, Watch(log=log)).output.splitlines()
    assert lines == [str(tmp_path.resolve()), "fed", "['kept', None, 'added']"]
    assert log.read_text().startswith(f"$ {command.line}\n# cwd: {tmp_path}\n")
    assert command.with_argv(["true"]).cwd == tmp_path


def test_an_empty_command_is_refused() -> None:
    with pytest.raises(ValueError, match="empty argv"):
        Command([])

"""The one way perfproof runs an external process.

Everything external (git, Maven, Gradle, java, JMH, user commands) goes through :func:`run` so
that: no shell ever sees user text (argv lists only), the exact command line is logged and can
be printed in reports as a reproduction step, output is streamed to a log file line by line (so a
crash or Ctrl-C still leaves the log), and Ctrl-C stops the child's whole process group instead
of leaving a JVM behind.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof.errors import ExternalError, InputError


@dataclass(frozen=True)
class ProcessResult:
    """What a finished process left behind."""

    argv: tuple[str, ...]
    returncode: int
    duration_s: float
    output: str
    log_path: Path | None
    error_output: str = ""
    """stderr alone, when run with ``merge_stderr=False`` (otherwise it is part of ``output``)."""

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def command_line(self) -> str:
        return command_line(self.argv)


def command_line(argv: Sequence[str | os.PathLike[str]]) -> str:
    """A copy-paste-safe rendering of argv for logs and reproduction sections."""
    return shlex.join(str(a) for a in argv)


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    log_path: str | os.PathLike[str] | None = None,
    on_line: Callable[[str], None] | None = None,
    timeout: float | None = None,
    capture: bool = True,
    check: bool = False,
    what: str | None = None,
    stdin_text: str | None = None,
    merge_stderr: bool = True,
    unset_env: Sequence[str] = (),
) -> ProcessResult:
    """Run argv to completion, streaming its output.

    ``env`` is added to (not a replacement for) the current environment. With ``check``, a
    non-zero exit raises :class:`ExternalError` naming ``what`` (or the program) and the log.
    ``capture`` keeps the output in memory for the caller; turn it off for chatty processes
    whose output only matters in the log. With ``merge_stderr`` off, stderr goes to the log
    only and ``output`` holds stdout alone (for commands whose stdout is data). ``unset_env``
    names variables removed from the child's environment (e.g. a git hook's GIT_DIR).
    """
    args = [str(a) for a in argv]
    if not args:
        raise ValueError("empty argv")
    full_env = None
    if env is not None or unset_env:
        full_env = dict(os.environ)
        full_env.update(env or {})
        for name in unset_env:
            full_env.pop(name, None)
    log_file = None
    if log_path is not None:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        log_file = open(log_path, "a", encoding="utf-8", errors="replace")  # noqa: SIM115
        log_file.write(f"$ {command_line(args)}\n")
        if cwd is not None:
            log_file.write(f"# cwd: {cwd}\n")
        log_file.flush()
    chunks: list[str] = []
    err_chunks: list[str] = []
    start = time.monotonic()
    lock = threading.Lock()
    timer = None
    timed_out = threading.Event()
    try:
        proc, interrupted = _start(
            args,
            cwd=cwd,
            env=full_env,
            with_stdin=stdin_text is not None,
            merge_stderr=merge_stderr,
        )
        try:
            if interrupted:
                raise KeyboardInterrupt

            def pump_stderr() -> None:
                assert proc.stderr is not None
                for line in proc.stderr:
                    with lock:
                        err_chunks.append(line)
                        if log_file is not None:
                            log_file.write(line)
                            log_file.flush()

            err_thread = None
            if not merge_stderr:
                err_thread = threading.Thread(target=pump_stderr, daemon=True)
                err_thread.start()
            if stdin_text is not None:
                assert proc.stdin is not None
                try:
                    proc.stdin.write(stdin_text)
                    proc.stdin.close()
                except BrokenPipeError:
                    pass

            if timeout is not None:

                def on_timeout() -> None:
                    timed_out.set()
                    _kill_group(proc)

                timer = threading.Timer(timeout, on_timeout)
                timer.daemon = True
                timer.start()
            assert proc.stdout is not None
            for line in proc.stdout:
                with lock:
                    if log_file is not None:
                        log_file.write(line)
                        log_file.flush()
                if capture:
                    chunks.append(line)
                if on_line is not None:
                    on_line(line.rstrip("\n"))
            proc.wait()
            if err_thread is not None:
                err_thread.join()
        except BaseException:
            _kill_group(proc)
            raise
        finally:
            if timer is not None:
                timer.cancel()
            # the child's pipes are this process's file descriptors: leaving them to the
            # garbage collector leaks one per command (a ResourceWarning) in a long run
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        duration = time.monotonic() - start
        if log_file is not None:
            log_file.write(f"# exit {proc.returncode} after {duration:.1f}s\n")
            log_file.flush()
        result = ProcessResult(
            argv=tuple(args),
            returncode=proc.returncode,
            duration_s=duration,
            output="".join(chunks),
            log_path=Path(log_path) if log_path is not None else None,
            error_output="".join(err_chunks),
        )
        if timed_out.is_set():
            raise ExternalError(
                f"{what or args[0]} timed out after {timeout:.0f}s", result.log_path
            )
        if check and not result.ok:
            detail = _last_line("".join(err_chunks) or result.output)
            msg = f"{what or args[0]} failed with exit code {result.returncode}"
            if detail:
                msg += f": {detail}"
            raise ExternalError(msg, result.log_path)
        return result
    finally:
        if log_file is not None:
            log_file.close()


def _start(
    args: list[str],
    *,
    cwd: str | os.PathLike[str] | None,
    env: dict[str, str] | None,
    with_stdin: bool,
    merge_stderr: bool,
) -> tuple[subprocess.Popen[str], bool]:
    """Start the child in its own process group; say whether Ctrl-C came while it started.

    Ctrl-C landing while Popen forks and execs would raise before Popen returns the child, so
    nobody could stop it and a JMH JVM would outlive perfproof. In the main thread (the only
    one Ctrl-C reaches) SIGINT is held for the few milliseconds of the start and reported
    afterwards, once the caller holds the child and can stop it.
    """
    held: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    hold = threading.current_thread() is threading.main_thread() and previous is not None
    if hold:
        signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if with_stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        raise InputError(f"program not found: {args[0]}") from exc
    except PermissionError as exc:
        raise InputError(f"program is not executable: {args[0]}") from exc
    except NotADirectoryError as exc:
        raise InputError(f"working directory does not exist: {cwd}") from exc
    finally:
        if hold:
            signal.signal(signal.SIGINT, previous)
    return proc, bool(held)


def _last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()[:200]
    return ""


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """Stop the child and everything it started (a JMH host JVM forks more JVMs)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        proc.wait()

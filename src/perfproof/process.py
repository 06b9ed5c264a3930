"""The one way perfproof runs an external process.

Everything external (git, Maven, Gradle, java, JMH, user commands) goes through :func:`run` so
that: no shell ever sees user text (argv lists only), the exact command line is logged and can
be printed in reports as a reproduction step, output is streamed to a log file line by line (so a
crash or Ctrl-C still leaves the log), and Ctrl-C stops the child's whole process group instead
of leaving a JVM behind. What to run is one value, a :class:`Command`, that the code deciding it
hands on whole; how it is watched (its log, timeout, what a failure says) is a :class:`Watch`.
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


@dataclass(frozen=True, init=False)
class Command:
    """What to run: an argv (never through a shell), where, and how its environment differs
    from perfproof's own.

    One value a build plan, a workload or a test run carries from where it is decided to
    :func:`run`, and whose :attr:`line` a log or a report prints to reproduce it.
    """

    argv: tuple[str, ...]
    cwd: Path | None
    """The folder it runs in (None: perfproof's own)."""
    env: Mapping[str, str]
    """Added to (not a replacement for) the current environment."""
    unset_env: tuple[str, ...]
    """Removed from the child's environment (e.g. a git hook's GIT_DIR)."""
    stdin: str | None
    """Text written to its stdin (None: stdin is /dev/null)."""

    def __init__(
        self,
        argv: Sequence[str | os.PathLike[str]],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        unset_env: Sequence[str] = (),
        stdin: str | None = None,
    ) -> None:
        if not argv:
            raise ValueError("empty argv")
        object.__setattr__(self, "argv", tuple(str(a) for a in argv))
        object.__setattr__(self, "cwd", None if cwd is None else Path(cwd))
        object.__setattr__(self, "env", dict(env or {}))
        object.__setattr__(self, "unset_env", tuple(unset_env))
        object.__setattr__(self, "stdin", stdin)

    @property
    def line(self) -> str:
        """The argv as :func:`command_line` prints it."""
        return command_line(self.argv)

    def with_argv(self, argv: Sequence[str]) -> Command:
        """The same command in the same place and environment, with another argv."""
        return Command(argv, cwd=self.cwd, env=self.env, unset_env=self.unset_env, stdin=self.stdin)

    def child_env(self) -> dict[str, str] | None:
        """The child's whole environment, or None when it is perfproof's own unchanged."""
        if not self.env and not self.unset_env:
            return None
        full = {**os.environ, **self.env}
        for name in self.unset_env:
            full.pop(name, None)
        return full


@dataclass(frozen=True)
class Watch:
    """How :func:`run` watches a command: where its output goes, how long it may take and
    what a failure says.

    ``capture`` keeps the output in memory for the caller; turn it off for chatty processes
    whose output only matters in the log. With ``merge_stderr`` off, stderr goes to the log
    only and ``output`` holds stdout alone (for commands whose stdout is data). With
    ``check``, a non-zero exit raises :class:`ExternalError` naming ``what`` (or the program)
    and the log.
    """

    what: str | None = None
    log: Path | None = None
    on_line: Callable[[str], None] | None = None
    timeout: float | None = None
    capture: bool = True
    merge_stderr: bool = True
    check: bool = False


def run(command: Command, watch: Watch = Watch()) -> ProcessResult:
    """Run ``command`` to completion, streaming its output as ``watch`` says."""
    args, log_path, merge_stderr = command.argv, watch.log, watch.merge_stderr
    log_file = None
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_file = open(log_path, "a", encoding="utf-8", errors="replace")  # noqa: SIM115
        log_file.write(f"$ {command.line}\n")
        if command.cwd is not None:
            log_file.write(f"# cwd: {command.cwd}\n")
        log_file.flush()
    chunks: list[str] = []
    err_chunks: list[str] = []
    start = time.monotonic()
    lock = threading.Lock()
    timer = None
    timed_out = threading.Event()
    try:
        proc, interrupted = _start(command, merge_stderr=merge_stderr)
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
            if command.stdin is not None:
                assert proc.stdin is not None
                try:
                    proc.stdin.write(command.stdin)
                    proc.stdin.close()
                except BrokenPipeError:
                    pass

            if watch.timeout is not None:

                def on_timeout() -> None:
                    timed_out.set()
                    _kill_group(proc)

                timer = threading.Timer(watch.timeout, on_timeout)
                timer.daemon = True
                timer.start()
            assert proc.stdout is not None
            for line in proc.stdout:
                with lock:
                    if log_file is not None:
                        log_file.write(line)
                        log_file.flush()
                if watch.capture:
                    chunks.append(line)
                if watch.on_line is not None:
                    watch.on_line(line.rstrip("\n"))
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
            argv=args,
            returncode=proc.returncode,
            duration_s=duration,
            output="".join(chunks),
            log_path=log_path,
            error_output="".join(err_chunks),
        )
        what = watch.what or args[0]
        if timed_out.is_set():
            raise ExternalError(f"{what} timed out after {watch.timeout or 0:.0f}s", log_path)
        if watch.check and not result.ok:
            detail = _last_line("".join(err_chunks) or result.output)
            msg = f"{what} failed with exit code {result.returncode}"
            if detail:
                msg += f": {detail}"
            raise ExternalError(msg, result.log_path)
        return result
    finally:
        if log_file is not None:
            log_file.close()


def _start(command: Command, *, merge_stderr: bool) -> tuple[subprocess.Popen[str], bool]:
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
            command.argv,
            cwd=command.cwd,
            env=command.child_env(),
            stdin=subprocess.DEVNULL if command.stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        raise InputError(f"program not found: {command.argv[0]}") from exc
    except PermissionError as exc:
        raise InputError(f"program is not executable: {command.argv[0]}") from exc
    except NotADirectoryError as exc:
        raise InputError(f"working directory does not exist: {command.cwd}") from exc
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

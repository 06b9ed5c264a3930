"""The command target: one step is one run of one side's whole command (``perfproof e2e``).

Each step is wrapped in its setup and teardown. Its stdout and stderr are kept verbatim in the
run folder (``outputs/<step>.stdout``, ``.stderr`` and a ``.log`` that also holds the exact
command line), and the run store marks the step done only after those files are written, so a
run stopped by Ctrl-C, a kill or a crash resumes by redoing just the unfinished steps. Metric
values are always read back from the kept outputs, which is also what lets a corrected
``--metric`` be applied on resume without running anything again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from perfproof import process
from perfproof.errors import ExternalError, InputError
from perfproof.measure.metrics import MetricNotFound, MetricSpec, extract
from perfproof.measure.store import DONE, FAILED, INTERRUPTED, PENDING, RUNNING, RunStore, now_iso
from perfproof.model import SIDES
from perfproof.model.documents.run import PreparedSide, StepEntry
from perfproof.storage import write_text_atomic


@dataclass(frozen=True)
class SideCommands:
    """What one side runs, and where."""

    side: str
    cwd: str
    run: tuple[str, ...]
    setup: tuple[str, ...] | None = None
    teardown: tuple[str, ...] | None = None
    env: tuple[tuple[str, str], ...] = ()
    """Added to every command's environment (``--java``: JAVA_HOME and PATH)."""

    def prepared(self, checkout: PreparedSide) -> PreparedSide:
        """The manifest's entry for this side: the commands and where they run (``checkout``:
        where, and the ref, commit and build of a side measured in a worktree)."""
        return checkout.model_copy(
            update={
                "cwd": self.cwd,
                "run": list(self.run),
                "setup": None if self.setup is None else list(self.setup),
                "teardown": None if self.teardown is None else list(self.teardown),
            }
        )

    @staticmethod
    def of_prepared(
        side: str, prepared: PreparedSide, env: tuple[tuple[str, str], ...] = ()
    ) -> SideCommands:
        return SideCommands(
            side=side,
            cwd=prepared.cwd,
            run=tuple(prepared.run),
            setup=None if prepared.setup is None else tuple(prepared.setup),
            teardown=None if prepared.teardown is None else tuple(prepared.teardown),
            env=env,
        )


@dataclass(frozen=True)
class CommandStep:
    """One run in the schedule: ``w01-base`` (warm-up) or ``r003-head`` (round 3)."""

    id: str
    side: str
    round: int
    warmup: bool

    @classmethod
    def of_entry(cls, entry: StepEntry) -> CommandStep:
        """The step a manifest entry records (KeyError naming a field the entry lacks)."""
        for name in ("id", "side", "round", "warmup"):
            if getattr(entry, name) is None:
                raise KeyError(name)
        return cls(str(entry.id), str(entry.side), int(entry.round or 0), bool(entry.warmup))


def schedule(sides_per_round: Sequence[Sequence[str]], warmup_runs: int) -> list[CommandStep]:
    """Steps for warm-up runs (alternating, not analysed) then the measured rounds."""
    steps = [
        CommandStep(f"w{i + 1:02d}-{side}", side, i + 1, True)
        for i in range(warmup_runs)
        for side in SIDES
    ]
    for r, order in enumerate(sides_per_round, start=1):
        steps.extend(CommandStep(f"r{r:03d}-{side}", side, r, False) for side in order)
    return steps


def step_entries(store: RunStore, steps: Sequence[CommandStep]) -> list[StepEntry]:
    """The run store's entries for a new schedule, all pending."""
    return [
        StepEntry(
            id=step.id,
            side=step.side,
            round=step.round,
            warmup=step.warmup,
            kind="command",
            status=PENDING,
            stdout=store.rel(output_paths(store.path, step.id)["stdout"]),
            log=store.rel(output_paths(store.path, step.id)["log"]),
        )
        for step in steps
    ]


def steps_of(store: RunStore) -> list[CommandStep]:
    """The schedule as the manifest holds it."""
    try:
        return [CommandStep.of_entry(e) for e in store.manifest.steps]
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(
            f"--resume {store.path}: manifest.json was edited: a step entry lacks {exc}"
        ) from None


def output_paths(run_dir: Path, step_id: str) -> dict[str, Path]:
    out = run_dir / "outputs"
    return {
        "log": out / f"{step_id}.log",
        "stdout": out / f"{step_id}.stdout",
        "stderr": out / f"{step_id}.stderr",
    }


def read_outputs(run_dir: Path, step_id: str) -> tuple[str, str]:
    paths = output_paths(run_dir, step_id)
    return (
        paths["stdout"].read_text(encoding="utf-8", errors="replace"),
        paths["stderr"].read_text(encoding="utf-8", errors="replace"),
    )


def extract_step(run_dir: Path, step_id: str, specs: Sequence[MetricSpec]) -> dict[str, float]:
    """Every metric of one finished step, from its kept outputs.

    A metric that is not there is the user's pattern not fitting the program's output: an
    input error (exit 2) that names the step and the log to look at.
    """
    stdout, stderr = read_outputs(run_dir, step_id)
    values = {}
    for spec in specs:
        try:
            values[spec.name] = extract(spec, stdout, stderr)
        except MetricNotFound as exc:
            log = output_paths(run_dir, step_id)["log"]
            raise InputError(f"{exc} in the output of run {step_id} (log: {log})") from None
    return values


def execute(
    store: RunStore,
    sides: dict[str, SideCommands],
    specs: Sequence[MetricSpec],
    *,
    timeout: float | None = None,
    on_step: Callable[[int, int, CommandStep, float, dict[str, float]], None] | None = None,
) -> None:
    """Run every step the run store does not mark done, saving the manifest after each."""
    steps = steps_of(store)
    total = len(steps)
    for i, step in enumerate(steps, start=1):
        if store.step_entry(step).done:
            continue
        store.update_step(step, status=RUNNING, started=now_iso())
        try:
            duration = _run_step(store.path, step, sides[step.side], timeout)
        except KeyboardInterrupt:
            store.update_step(step, status=INTERRUPTED, error="interrupted by the user")
            raise
        except BaseException as exc:
            store.update_step(step, status=FAILED, error=str(exc))
            raise
        store.update_step(step, status=DONE, finished=now_iso(), duration_s=round(duration, 6))
        values = {} if step.warmup else extract_step(store.path, step.id, specs)
        if on_step is not None:
            on_step(i, total, step, duration, values)


def _run_step(run_dir: Path, step: CommandStep, cmds: SideCommands, timeout: float | None) -> float:
    paths = output_paths(run_dir, step.id)
    for p in paths.values():
        p.unlink(missing_ok=True)
    env = {**dict(cmds.env), "PERFPROOF_SIDE": step.side, "PERFPROOF_STEP": step.id}

    def command(argv: Sequence[str]) -> process.Command:
        return process.Command(argv, cwd=cmds.cwd, env=env)

    what = f"run {step.id}"
    try:
        if cmds.setup is not None:
            _checked(command(cmds.setup), "setup", step.id, run_dir, timeout)
        watch = process.Watch(what=what, log=paths["log"], timeout=timeout, merge_stderr=False)
        result = process.run(command(cmds.run), watch)
        write_text_atomic(paths["stdout"], result.output)
        write_text_atomic(paths["stderr"], result.error_output)
        if not result.ok:
            raise ExternalError(
                f"{what} ({process.command_line(cmds.run)}) failed with exit code "
                f"{result.returncode}",
                paths["log"],
            )
    finally:
        if cmds.teardown is not None:
            _checked(command(cmds.teardown), "teardown", step.id, run_dir, timeout)
    return result.duration_s


def _checked(
    command: process.Command, kind: str, step_id: str, run_dir: Path, timeout: float | None
) -> None:
    log = run_dir / "outputs" / f"{step_id}.{kind}.log"
    log.unlink(missing_ok=True)
    what = f"{kind} of run {step_id}"
    process.run(command, process.Watch(what=what, log=log, timeout=timeout, check=True))

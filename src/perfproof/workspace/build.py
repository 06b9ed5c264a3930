"""Turn a worktree into a runnable JMH artifact, through the cache.

The cache key is the commit, the build settings, the JDK, any overlay applied to the worktree
and a caller-supplied extra: everything that changes the jar, and nothing else, so a second run
on the same commits starts measuring at once while an overlaid baseline, another module or
another JDK is always built anew. ``fresh`` skips the lookup, cleans the build's output inside
the worktree and replaces the entry, for reviewers who want every round built from scratch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from perfproof.env.java import java_info
from perfproof.errors import ExternalError, InputError
from perfproof.process import Watch, command_line, run
from perfproof.storage import write_text_atomic
from perfproof.workspace import (
    build_cache,
    build_custom,
    build_gradle,
    build_maven,
    build_offline,
)
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.build_errors import first_error
from perfproof.workspace.cache import file_lock, short_hash
from perfproof.workspace.git import head_sha
from perfproof.workspace.overlay import overlaid_files, overlay_fingerprint
from perfproof.workspace.plan import BuildPlan, java_env
from perfproof.workspace.spec import BuildSpec, detect_build
from perfproof.workspace.worktree import has_build_output, last_build_record, remove_build_output

KEY_VERSION = "perfproof-build-key/1"

_ADAPTERS: dict[str, ModuleType] = {
    "maven": build_maven,
    "gradle": build_gradle,
    "custom": build_custom,
}


def build_key(worktree: Path, spec: BuildSpec, extra_key: str = "") -> str:
    """The cache key of building ``worktree`` as it is now with ``spec``."""
    worktree = Path(worktree)
    kind = detect_build(worktree, spec)
    jdk = java_info(spec.java)
    return short_hash(
        KEY_VERSION,
        head_sha(worktree),
        spec.fingerprint(kind),
        f"{jdk.home}\0{jdk.runtime_version}",
        overlay_fingerprint(worktree),
        extra_key,
        length=24,
    )


def build(
    worktree: Path,
    spec: BuildSpec,
    *,
    cache_dir: Path,
    log_path: Path,
    fresh: bool = False,
    extra_key: str = "",
    label: str = "",
    on_line: Callable[[str], None] | None = None,
    timeout: float | None = None,
    say: Callable[[str], None] | None = None,
) -> Artifact:
    """Build (or reuse) the artifact for the commit checked out in ``worktree``.

    ``label`` names the side ("base", "head") in error messages; ``say`` prints a choice made
    for the user (the launcher ``auto`` fell back to). Failures raise
    ExternalError naming the side, the commit and ``log_path`` (exit 3); settings that cannot
    work raise InputError (exit 2).
    """
    worktree, cache_dir, log_path = Path(worktree), Path(cache_dir), Path(log_path)
    sha = head_sha(worktree)
    kind = detect_build(worktree, spec)
    key = build_key(worktree, spec, extra_key)
    with file_lock(cache_dir / "builds" / f"{key}.lock"):
        if not fresh:
            hit = build_cache.load(cache_dir, key)
            if hit is not None:
                _note_cache_hit(log_path, hit)
                return _with_log(hit, log_path)
        adapter = _ADAPTERS[kind]
        # JAVA_HOME always names the JDK that runs the build: JNI modules find jni.h through
        # it, and a build must not pick another JDK than the one that measures
        env = java_env(java_info(spec.java).home)
        clean = fresh or _other_settings(worktree, key, log_path)
        if clean and kind == "custom":
            remove_build_output(worktree)  # a command of the user's own has no "clean" here
        plan = adapter.plan(worktree, spec, fresh=clean, env=env, cache_dir=cache_dir)
        what = f"{kind} build of {label + ' ' if label else ''}{sha[:12]}"
        _say_notes(plan, log_path, say)
        last_build_record(worktree).write_text(key + "\n", encoding="utf-8")
        watch = Watch(what=what, log=log_path, on_line=on_line, timeout=timeout, capture=False)
        try:
            plan = _run_resolving(plan, kind, worktree, spec, cache_dir, watch, say)
        except ExternalError:
            again = _retry_plan(plan, log_path)
            if again is None:
                raise
            _say_notes(again, log_path, say)
            plan = _run_resolving(again, kind, worktree, spec, cache_dir, watch, say)
        outputs = adapter.collect(worktree, spec)
        missing = [p for p in outputs.classpath if not p.exists()]
        if missing:
            raise ExternalError(
                f"{what} lists a classpath entry that does not exist: {missing[0]}",
                log_path,
            )
        built = Artifact(
            sha=sha,
            kind=kind,
            jar=outputs.jar,
            classpath=list(outputs.classpath),
            build_command=list(plan.command.argv),
            build_cwd=plan.cwd,
            cached=False,
            log_path=log_path,
            key=key,
            overlaid=overlaid_files(worktree),
            tool=plan.tool,
            own_run=plan.own_run,
        )
        stored = build_cache.store(cache_dir, built, outputs, worktree)
        return _with_log(stored, log_path, cached=False)


def _run_resolving(
    plan: BuildPlan,
    kind: str,
    worktree: Path,
    spec: BuildSpec,
    cache_dir: Path,
    watch: Watch,
    say: Callable[[str], None] | None,
) -> BuildPlan:
    """Run a Maven or Gradle build offline when its resolution succeeded here before, else
    online (and remember the success); an offline build missing an artifact is run again
    online, saying so. Returns the plan that ran."""
    if not build_offline.applies(kind, spec):
        _run_plan(plan, watch)
        return plan
    log_path, argv = _log(watch), list(plan.command.argv)
    key = build_offline.resolution_key(worktree, spec, argv[0], kind)
    if build_offline.known(cache_dir, key):
        offline_argv = build_offline.offline_argv(argv, kind)
        offline = replace(plan, command=plan.command.with_argv(offline_argv))
        flag = build_offline.FLAG[kind]
        _append(
            log_path, f"# perfproof: offline ({flag}): this build resolved online here before\n"
        )
        try:
            _run_plan(offline, watch)
            return offline
        except ExternalError:
            text = log_path.read_text(encoding="utf-8", errors="replace")
            missing = build_offline.missing_offline(text)
            if not missing:
                raise
            aside = log_path.with_name(log_path.stem + "-offline.log")
            log_path.replace(aside)
            note = f"the offline build lacked an artifact ({missing}): building online"
            if say is not None:
                say(note)
            _append(log_path, f"# perfproof: {note}; offline log: {aside}\n")
    _run_plan(plan, watch)
    build_offline.remember(cache_dir, key, plan.command.line)
    return plan


def _other_settings(worktree: Path, key: str, log_path: Path) -> bool:
    """Whether the worktree holds the output of a build with other settings (or of one
    perfproof did not record): then this build starts clean, so no class compiled with other
    compiler settings, profiles or JDK survives into this one ("Nothing to compile")."""
    try:
        last = last_build_record(worktree).read_text(encoding="utf-8").strip()
    except OSError:
        last = ""
    if last == key:
        return False
    if not last and not has_build_output(worktree):
        return False  # a new worktree: nothing to clean
    why = "had other settings" if last else "left output perfproof did not record"
    _append(log_path, f"# perfproof: the last build in this worktree {why}: building clean\n")
    return True


def _retry_plan(plan: BuildPlan, log_path: Path) -> BuildPlan | None:
    """The build the failed plan's log asks for instead (its first log kept aside)."""
    if plan.retry is None:
        return None
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    again = plan.retry(text)
    if again is not None:
        aside = log_path.with_name(log_path.stem + "-first.log")
        log_path.replace(aside)
        _append(log_path, f"# perfproof: the first try's log: {aside}\n")
    return again


def _say_notes(plan: BuildPlan, log_path: Path, say: Callable[[str], None] | None) -> None:
    for note in plan.note.splitlines():
        if say is not None:
            say(note)
        _append(log_path, f"# perfproof: {note}\n")


def _log(watch: Watch) -> Path:
    """The build's log: :func:`build` watches every build into one."""
    if watch.log is None:
        raise ValueError(f"{watch.what}: a build watched without a log")
    return watch.log


def _run_plan(plan: BuildPlan, watch: Watch) -> None:
    """Run the build command; a missing tool is bad input, a failing build an external error."""
    what, log_path = watch.what, _log(watch)
    try:
        res = run(plan.command, watch)
    except InputError as exc:
        raise InputError(f"{what}: {exc}") from exc
    if not res.ok:
        hint = f"; {plan.hint}" if plan.hint else ""
        advice = _advice(plan, log_path)
        hint = f"; {advice}" if advice else hint
        cause = _cause(log_path, plan.cwd)
        if advice:
            _prepend(log_path, f"# perfproof: {advice}\n")
        raise ExternalError(f"{what} failed with exit code {res.returncode}{cause}{hint}", log_path)


def _advice(plan: BuildPlan, log_path: Path) -> str:
    if plan.advise is None:
        return ""
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return plan.advise(text)


def _cause(log_path: Path, root: Path) -> str:
    try:
        text = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    found = first_error(text, root)
    return f": {found}" if found else ""


def _append(log_path: Path, text: str) -> None:
    before = log_path.read_text(encoding="utf-8") if log_path.is_file() else ""
    write_text_atomic(log_path, before + text)


def _prepend(log_path: Path, text: str) -> None:
    """Put the diagnosis where a reader of a 5,000-line log looks first."""
    try:
        before = log_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    write_text_atomic(log_path, text + before)


def _with_log(artifact: Artifact, log_path: Path, *, cached: bool = True) -> Artifact:
    return replace(artifact, log_path=log_path, cached=cached)


def _note_cache_hit(log_path: Path, hit: Artifact) -> None:
    before = log_path.read_text(encoding="utf-8") if log_path.is_file() else ""
    write_text_atomic(
        log_path,
        before
        + f"# reused cached build {hit.key} of {hit.sha}\n"
        + f"# built by: {command_line(hit.build_command)}\n"
        + f"# in: {hit.build_cwd}\n"
        + f"# original build log: {hit.log_path}\n",
    )

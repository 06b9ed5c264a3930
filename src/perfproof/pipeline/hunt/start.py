"""Which workload a ``hunt`` request names, checked at the door, then the hunt itself."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from perfproof import defaults
from perfproof.errors import InputError
from perfproof.measure.plan import JmhArgs, parse_jmh_args
from perfproof.measure.progress import make_reporter
from perfproof.measure.store import default_runs_dir, new_run_id
from perfproof.pipeline.ab.options import AbOptions
from perfproof.pipeline.hunt.run import HuntOutcome, Say, Workload, recordings_workload, run_hunt
from perfproof.workspace.git import require_repo, resolve_ref
from perfproof.workspace.overlay import check_overlay_paths
from perfproof.workspace.spec import BuildSpec


@dataclass(frozen=True)
class HuntRequest:
    repo: Path = Path(".")
    ref: str | None = None
    jfr: tuple[Path, ...] = ()
    run: str | None = None
    bench: tuple[str, ...] = ()
    build: BuildSpec = field(default_factory=BuildSpec)
    """How --ref (and --base) are built, as ``ab`` builds them; its ``java`` also records."""
    jmh_args: JmhArgs = field(default_factory=lambda: parse_jmh_args(None))
    overlay: tuple[str, ...] = ()
    """Paths copied onto --ref before it is built: a benchmark the fix adds, hunted at its
    parent (as ``ab --overlay`` measures the baseline with the feature's benchmark)."""
    overlay_from: str | None = None
    """Where ``overlay`` is copied from (default HEAD; with --base, --ref)."""
    forks: int = defaults.HUNT_FORKS
    compare: Path | None = None
    out: Path | None = None
    lock_timeout: float = defaults.LOCK_TIMEOUT_S
    base: str | None = None
    """Hunt this commit first (into ``OUT/base``) and compare the hunt of ``ref`` with it."""
    fresh_builds: bool = False
    """Build in a clean checkout instead of taking the build from the cache."""

    def ab_options(self) -> AbOptions:
        """The build and JMH options, spelled as ``ab`` takes them (one side: --ref)."""
        ref = self.ref or "HEAD"
        return AbOptions(
            base=ref,
            head=ref,
            repo=str(self.repo),
            bench=self.bench,
            build=self.build,
            overlay=self.overlay,
            jmh_args=self.jmh_args,
            lock_timeout=self.lock_timeout,
            fresh_builds=self.fresh_builds,
        )

    def prove_flags(self) -> tuple[str, ...]:
        """The build flags a ``prove`` of the fix needs to build the same way."""
        return tuple(self.ab_options().build_flags())


def _compare_path(path: Path | None) -> Path | None:
    if path is None:
        return None
    return path / "hunt.json" if path.is_dir() else path


def hunt(req: HuntRequest, say: Say) -> HuntOutcome:
    """Record (or read) the workload and write the hunt; everything cheap is checked first."""
    repo = require_repo(req.repo.resolve())
    compare = _compare_path(req.compare)
    if compare is not None and not compare.is_file():
        raise InputError(f"--compare {req.compare}: no such hunt.json")
    if req.base is not None and (req.compare is not None or req.jfr or req.run):
        raise InputError(
            "--base hunts the benchmarks at a second commit; it takes no --compare, --jfr or --run"
        )
    sha = resolve_ref(repo, req.ref or "HEAD")
    base_sha = resolve_ref(repo, req.base) if req.base is not None else None
    if req.overlay and base_sha is None and (req.jfr or req.run):
        raise InputError(
            "--overlay adds benchmark sources to build; it has no effect with "
            f"{'--jfr' if req.jfr else '--run'}"
        )
    overlay_sha = None
    if req.overlay and base_sha is None:
        source = req.overlay_from or "HEAD"
        overlay_sha = resolve_ref(repo, source)
        check_overlay_paths(repo, overlay_sha, req.overlay, f"--overlay-from {source}")
    out_dir = (req.out or default_runs_dir(repo).parent / "hunt" / new_run_id()).resolve()
    if out_dir.exists() and any(out_dir.iterdir()):
        raise InputError(f"--out {out_dir}: not empty; name a new or empty folder")
    existed = out_dir.exists()
    if base_sha is not None:
        # the same workload on the baseline first: which hypotheses the change removed is then
        # read off the two hunts, as --compare does with a hunt kept from before
        say(f"hunting the baseline {req.base} ({base_sha[:12]}) first, into {out_dir / 'base'}")
        # a benchmark the fix adds (--overlay) is copied from --ref onto the baseline only
        before = hunt(
            replace(req, ref=base_sha, base=None, out=out_dir / "base", overlay_from=sha), say
        )
        req = replace(req, overlay=())
        compare = before.files["json"]
    try:
        workload = _workload(req, repo, sha, out_dir, say, overlay_sha)
    except InputError:
        # bad input found after the folder was made (a --bench that matches nothing): a
        # folder holding only a failed attempt would make the corrected command refuse it
        if not existed:
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    if workload.sha is None:
        workload.sha = sha
    return run_hunt(
        workload,
        repo,
        out_dir,
        compare=compare,
        prove_extra=req.prove_flags(),
        inputs=tuple(req.jfr) + ((compare,) if compare else ()),
        say=say,
    )


def _workload(
    req: HuntRequest, repo: Path, sha: str, out_dir: Path, say: Say, overlay_sha: str | None
) -> Workload:
    workload: Workload
    if req.jfr or req.run:
        if req.jfr:
            workload = recordings_workload(list(req.jfr), req.build.java)
        else:
            from perfproof.pipeline.hunt.command import command_workload

            assert req.run is not None
            workload = command_workload(req.run, repo, out_dir, req.build.java, say)
        if req.ref:  # the recordings are of that commit: read its source, not the checkout's
            from perfproof.env.cache import cache_root
            from perfproof.workspace.worktree import ensure_worktree

            workload.root = ensure_worktree(repo, sha, cache_root())
            workload.ref, workload.sha = req.ref, sha
    else:
        from perfproof.pipeline.hunt.jmh import jmh_workload

        workload = jmh_workload(
            req.ab_options(),
            req.forks,
            out_dir,
            make_reporter(),
            req.lock_timeout,
            overlay_from=overlay_sha if req.overlay else None,
        )
    return workload

"""Does ``perfproof hunt`` point at the method a real performance fix changed?

For each real fix listed in ``hunt_real_fixes.json`` (repository, fix commit, benchmark module,
benchmarks, the files the fix adds to its benchmark), the script runs ``perfproof hunt`` at the
fix's parent, as a user who had not yet written the fix would, and asks where the first
hypothesis in a method the fix changed ranks. The changed methods are the fix's production
methods as ``prove`` finds them (``code/changes.py``: a changed line inside the declaration);
a lambda counts as the method that declares it. When the fix adds or extends its benchmark, the
hunt copies the benchmark from the fix onto the parent (``hunt --overlay``), so the workload is
the one the fix was judged by and the code is the code before it.

For each fix it records: the rank of the first hypothesis in a changed method (``direct``), the
rank of the first hypothesis whose heaviest caller path goes through a changed method (``via``:
the fix sits one or two calls up, as when it changes which algorithm runs), the top three
hypotheses with their CPU share, the hunt's wall time and its build and JMH parts, and the exit
status with the last line of the log when it failed. Results go to ``OUT/results.jsonl`` (one
line per fix, rewritten when a fix is run again) and the Markdown table to stdout.

Clones live outside the project, one per repository, under ``--clones`` (made with
``git clone`` from ``--mirror ROOT/<owner>+<name>/repo`` when that exists, else from GitHub).

    PYTHONPATH=src JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/tmp/me-tmp python3 \\
        benchmarks/hunt_real_fixes.py --clones /work/real/hunt --mirror /work/.mirror \\
        --out /work/real/hunt-results
    python3 benchmarks/hunt_real_fixes.py ... --only kryo-bigdecimal-long   # one fix
    python3 benchmarks/hunt_real_fixes.py ... --dry-run    # changed methods and commands only
    python3 benchmarks/hunt_real_fixes.py ... --table      # the table of results.jsonl
    python3 benchmarks/hunt_real_fixes.py ... --rerank     # the kept recordings, ranked anew
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from perfproof.code.changes import changed_methods
from perfproof.model.changes import ChangedMethod
from perfproof.process import Command, Watch, command_line, run
from perfproof.profile.attribute import method_frame
from perfproof.profile.stacks import source_name
from perfproof.workspace.git import resolve_ref

HERE = Path(__file__).resolve().parent
DEFAULT_CASES = HERE / "hunt_real_fixes.json"
DEFAULT_JMH = "-wi 2 -w 1s -i 3 -r 1s"
TOP = 3


@dataclass(frozen=True)
class Case:
    """One real fix: where it is, what benchmark judged it, what the hunt needs to build it."""

    name: str
    clone: str
    origin: str
    fix: str
    module: str
    bench: tuple[str, ...]
    overlay: tuple[str, ...] = ()
    build_args: tuple[str, ...] = ()
    jmh_params: tuple[str, ...] = ()
    source: str = ""


@dataclass
class Outcome:
    name: str
    repo: str
    fix: str
    parent: str
    bench: str
    changed: list[str]
    status: str = "ok"
    exit_code: int = 0
    direct: int | None = None
    via: int | None = None
    hypotheses: int = 0
    top: list[tuple[str, float | None]] = field(default_factory=list)
    wall_s: float = 0.0
    build_s: float | None = None
    build_cached: bool | None = None
    jmh_s: float | None = None
    error: str = ""
    command: str = ""


def load_cases(path: Path) -> list[Case]:
    out = []
    for doc in json.loads(path.read_text()):
        out.append(
            Case(
                name=doc["name"],
                clone=doc["clone"],
                origin=doc["origin"],
                fix=doc["fix"],
                module=doc["module"],
                bench=tuple(doc["bench"]),
                overlay=tuple(doc.get("overlay", ())),
                build_args=tuple(doc.get("build_args", ())),
                jmh_params=tuple(doc.get("jmh_params", ())),
                source=doc.get("source", ""),
            )
        )
    return out


def ensure_clone(case: Case, clones: Path, mirror: Path | None) -> Path:
    """The clone the hunt reads (never a working copy of the project itself)."""
    repo = clones / case.clone
    if (repo / ".git").exists():
        return repo
    owner_name = case.origin.removeprefix("github:")
    local = mirror / owner_name.replace("/", "+") / "repo" if mirror else None
    url = (
        str(local)
        if local is not None and local.exists()
        else f"https://github.com/{owner_name}.git"
    )
    clones.mkdir(parents=True, exist_ok=True)
    run(Command(["git", "clone", "-q", url, str(repo)]), Watch(check=True, what="git clone"))
    return repo


def changed_frames(methods: list[ChangedMethod]) -> set[str]:
    """The changed methods as a hypothesis's frame is spelled (nested classes with dots)."""
    return {source_name(m.frame) for m in methods}


def _bare(label: str) -> str:
    """``Owner.name(args)`` → ``Owner.name``: caller paths name methods by label."""
    return label.split("(", 1)[0]


def ranks(hypotheses: list[dict], methods: list[ChangedMethod]) -> tuple[int | None, int | None]:
    """Rank of the first hypothesis in a changed method, and of the first whose heaviest caller
    path passes through one (None when none does)."""
    frames = changed_frames(methods)
    labels = {_bare(m.label) for m in methods}
    direct = via = None
    for h in hypotheses:
        if direct is None and source_name(method_frame(h["frame"])) in frames:
            direct = h["rank"]
        if via is None and any(_bare(p) in labels for p in h.get("path", [])):
            via = h["rank"]
    return direct, via


def _cpu_share(h: dict) -> float | None:
    shares = [c["cpu_share"]["mean"] for c in h["costs"] if c.get("cpu_share")]
    return max(shares) if shares else None


def hunt_argv(case: Case, repo: Path, parent: str, out: Path, forks: int, jmh: str) -> list[str]:
    argv = [sys.executable, "-m", "perfproof", "hunt", "--repo", str(repo), "--ref", parent,
            "--module", case.module, "--forks", str(forks), "--out", str(out),
            "--jmh-args", " ".join([jmh, *case.jmh_params]), "--lock-timeout", "3600",
            "--format", "md"]  # fmt: skip
    for b in case.bench:
        argv += ["--bench", b]
    for p in case.overlay:
        argv += ["--overlay", p]
    if case.overlay:
        argv += ["--overlay-from", case.fix]
    for a in case.build_args:
        argv.append(f"--build-arg={a}")
    return argv


def _times(run_dir: Path) -> tuple[float | None, bool | None, float | None]:
    """Build seconds (and whether the build cache answered) and JMH seconds of a hunt."""
    manifest = run_dir / "manifest.json"
    if not manifest.exists():
        return None, None, None
    doc = json.loads(manifest.read_text())
    builds = doc.get("builds") or []
    build_s = sum(b.get("duration_s") or 0.0 for b in builds) if builds else None
    cached = all(b.get("cached") for b in builds) if builds else None
    jmh = [s.get("jmh_seconds") or s.get("duration_s") for s in doc.get("steps") or []]
    jmh_s = sum(x for x in jmh if x) if jmh else None
    return build_s, cached, jmh_s


def _last_error(log: Path) -> str:
    lines = [x for x in log.read_text(errors="replace").splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith("perfproof: error")]
    return (errors or lines or [""])[-1][:300]


def hunt_case(case: Case, repo: Path, out: Path, forks: int, jmh: str, dry: bool) -> Outcome:
    fix = resolve_ref(repo, case.fix)
    parent = resolve_ref(repo, f"{case.fix}^")
    methods = changed_methods(repo, parent, fix).methods
    target = out / case.name
    argv = hunt_argv(case, repo, parent, target / "hunt", forks, jmh)
    outcome = Outcome(case.name, case.clone, fix[:10], parent[:10], " ".join(case.bench),
                      [m.label for m in methods], command=command_line(argv[2:]))  # fmt: skip
    if dry:
        outcome.status = "dry-run"
        return outcome
    if target.exists():
        run(Command(["rm", "-rf", str(target)]), Watch(check=True))
    target.mkdir(parents=True)
    start = time.perf_counter()
    result = run(Command(argv), Watch(log=target / "hunt.log", capture=False))
    outcome.wall_s = time.perf_counter() - start
    outcome.exit_code = result.returncode
    outcome.build_s, outcome.build_cached, outcome.jmh_s = _times(target / "hunt" / "run")
    doc_path = target / "hunt" / "hunt.json"
    if result.returncode != 0 or not doc_path.exists():
        outcome.status = "failed"
        outcome.error = _last_error(target / "hunt.log")
        return outcome
    hypotheses = json.loads(doc_path.read_text())["hypotheses"]
    outcome.hypotheses = len(hypotheses)
    outcome.direct, outcome.via = ranks(hypotheses, methods)
    outcome.top = [(h["method"], _cpu_share(h)) for h in hypotheses[:TOP]]
    return outcome


def rerank_case(case: Case, repo: Path, out: Path) -> Outcome:
    """The hunt of an earlier run of this case analysed again by the current code, from the
    recordings it kept (``OUT/<case>/hunt/run``): no build, no JMH. What a change to the
    ranking does to the same forks, apart from what another set of forks does."""
    from perfproof.env.cache import cache_root
    from perfproof.measure.store import RunStore
    from perfproof.pipeline.hunt.jmh import recorded_workload
    from perfproof.pipeline.hunt.run import run_hunt

    fix = resolve_ref(repo, case.fix)
    parent = resolve_ref(repo, f"{case.fix}^")
    methods = changed_methods(repo, parent, fix).methods
    earlier = [r for r in read_results(out / "results.jsonl") if r["name"] == case.name]
    outcome = Outcome(case.name, case.clone, fix[:10], parent[:10], " ".join(case.bench),
                      [m.label for m in methods], status="reranked")  # fmt: skip
    if earlier:
        for name in ("wall_s", "build_s", "build_cached", "jmh_s", "command"):
            setattr(outcome, name, earlier[0][name])
    target = out / case.name / "rerank"
    if target.exists():
        run(Command(["rm", "-rf", str(target)]), Watch(check=True))
    target.mkdir(parents=True)
    store = RunStore.open(out / case.name / "hunt" / "run")
    workload = recorded_workload(store, None, cache_root())
    result = run_hunt(workload, repo, target).result
    hypotheses = [h.__dict__ | {"frame": h.frame, "path": list(h.path)} for h in result.hypotheses]
    outcome.hypotheses = len(hypotheses)
    outcome.direct, outcome.via = ranks(hypotheses, methods)
    outcome.top = [(h.method, _cpu_share_of(h)) for h in result.hypotheses[:TOP]]
    return outcome


def _cpu_share_of(h: object) -> float | None:
    shares = [c.cpu_share.mean for c in getattr(h, "costs", ()) if c.cpu_share is not None]
    return max(shares) if shares else None


def save(results: Path, outcome: Outcome) -> None:
    rows = [r for r in read_results(results) if r["name"] != outcome.name]
    rows.append(vars(outcome))
    results.write_text("".join(json.dumps(r) + "\n" for r in rows))


def read_results(results: Path) -> list[dict]:
    if not results.exists():
        return []
    return [json.loads(x) for x in results.read_text().splitlines() if x.strip()]


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def table(rows: list[dict]) -> str:
    lines = [
        "| fix | parent | benchmark | rank (direct) | rank (via caller path) | top 3 (CPU share) "
        "| hunt wall | build | JMH |",
        "|---|---|---|---:|---:|---|---:|---:|---:|",
    ]
    hits = 0
    judged = 0
    for r in rows:
        if r["status"] == "dry-run":
            continue
        judged += 1
        top = "; ".join(f"{m} {_pct(s)}" for m, s in r["top"]) or r["error"]
        direct = "–" if r["direct"] is None else str(r["direct"])
        via = "–" if r["via"] is None else str(r["via"])
        hits += r["direct"] is not None and r["direct"] <= TOP
        build = "–" if r["build_s"] is None else f"{r['build_s']:.0f} s" + (
            " (cached)" if r["build_cached"] else "")  # fmt: skip
        jmh = "–" if r["jmh_s"] is None else f"{r['jmh_s']:.0f} s"
        lines.append(
            f"| {r['name']} `{r['fix']}` | `{r['parent']}` | {r['bench']} | {direct} | {via} "
            f"| {top} | {r['wall_s']:.0f} s | {build} | {jmh} |"
        )
    lines += ["", f"changed method in the top {TOP}: {hits} of {judged}"]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    ap.add_argument("--clones", type=Path, required=True)
    ap.add_argument("--mirror", type=Path, default=None)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", action="append", default=[], help="a case name (repeatable)")
    ap.add_argument("--forks", type=int, default=3)
    ap.add_argument("--jmh-args", default=DEFAULT_JMH)
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--table", action="store_true", help="print the table of earlier results")
    ap.add_argument(
        "--rerank", action="store_true",
        help="analyse the recordings each earlier hunt kept again with the current code "
        "(no build, no JMH); results go to OUT/reranked.jsonl",
    )  # fmt: skip
    args = ap.parse_args()
    results = args.out / "results.jsonl"
    if args.table:
        print(table(read_results(results)))
        return 0
    cases = [c for c in load_cases(args.cases) if not args.only or c.name in args.only]
    args.out.mkdir(parents=True, exist_ok=True)
    if args.rerank:
        reranked = args.out / "reranked.jsonl"
        for case in cases:
            outcome = rerank_case(case, ensure_clone(case, args.clones, args.mirror), args.out)
            print(f"{case.name}: direct={outcome.direct} via={outcome.via}", flush=True)
            save(reranked, outcome)
        print(table(read_results(reranked)))
        return 0
    for case in cases:
        repo = ensure_clone(case, args.clones, args.mirror)
        outcome = hunt_case(case, repo, args.out, args.forks, args.jmh_args, args.dry_run)
        changed = ", ".join(outcome.changed)
        print(f"{case.name}: {outcome.status} direct={outcome.direct} via={outcome.via} "
              f"{outcome.wall_s:.0f} s; changed: {changed}", flush=True)  # fmt: skip
        if args.dry_run:
            print(f"  {outcome.command}", flush=True)
        else:
            save(results, outcome)
    if not args.dry_run:
        print(table(read_results(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

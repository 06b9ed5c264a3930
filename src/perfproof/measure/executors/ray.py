"""Run a suite's key groups on the nodes of a Ray cluster: ``perfproof ab --executor ray``.

The driver builds both commits once and puts each side's jars (the uber jar, or the thin jar
and its classpath) into Ray's object store; every task receives them by reference, so a node
fetches them once and keeps them in a node-local folder keyed by their digest.

One task measures one key group as a complete interleaved A/B (:func:`local.measure_part`)
into a folder on its node and sends the folder back. Tasks ask for one ``jmh`` resource and
every JMH node offers exactly one, so no two JMH processes ever share a machine. When a node
is lost mid-task Ray runs the task again elsewhere, from scratch, in a new folder: the forks of
a key always come from the one attempt whose folder came back, never from two machines.

Folders are written into ``RUN/parts/gNN/`` as tasks finish, so Ctrl-C keeps every finished
group and ``--resume`` runs only the groups without a finished folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import socket
import tarfile
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perfproof.errors import ExternalError, InputError, PerfproofError
from perfproof.measure.executors.local import MeasureKeys, PartJob, measure_part
from perfproof.measure.progress import PlainReporter, Reporter, format_duration
from perfproof.measure.shard import machine_identity
from perfproof.workspace.artifact import Artifact
from perfproof.workspace.jars import JMH_MAIN, main_class

RESOURCE = "jmh"
"""The custom resource a JMH node offers once: ``ray start … --resources '{"jmh": 1}'``."""

MAX_RETRIES = 3
"""Times a group is started again after its node was lost (then the run fails, exit 3)."""

CONNECT_TIMEOUT_S = 5.0
HEARTBEAT_S = 30.0
"""Seconds without a finished group after which the display says what is still running."""


# ---------------------------------------------------------------------------- shipping jars


@dataclass(frozen=True)
class Bundle:
    """One side's run-time files and how to start JMH from them, independent of any path."""

    side: str
    layout: str
    """``jar``: ``java -jar`` the first file; ``cp``: ``-cp`` all files and JMH's main class."""
    names: tuple[str, ...]
    digest: str
    size: int


def pack(side: str, artifact: Artifact) -> tuple[Bundle, dict[str, bytes]]:
    """The side's files as bytes, named by position (``0-app.jar``), with one digest for all."""
    files = artifact.files()
    names = tuple(f"{i}-{p.name}{'.jar' if p.is_dir() else ''}" for i, p in enumerate(files))
    data = {name: _contents(p) for name, p in zip(names, files, strict=True)}
    sha = hashlib.sha256()
    for name in names:
        sha.update(name.encode() + b"\0" + hashlib.sha256(data[name]).digest())
    direct = artifact.layout == "uber" and main_class(files[0]) == JMH_MAIN
    layout = "jar" if direct else "cp"
    bundle = Bundle(side, layout, names, sha.hexdigest()[:20], sum(len(b) for b in data.values()))
    return bundle, data


def _contents(path: Path) -> bytes:
    """A file's bytes; a folder on the classpath (test classes) as a jar of its files, the
    same bytes for the same files (sorted, no timestamps), so the digest names the content."""
    if not path.is_dir():
        return path.read_bytes()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for file in sorted(f for f in path.rglob("*") if f.is_file()):
            entry = zipfile.ZipInfo(file.relative_to(path).as_posix(), (1980, 1, 1, 0, 0, 0))
            zf.writestr(entry, file.read_bytes(), zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def materialise(bundle: Bundle, data: dict[str, bytes], root: Path, java: str) -> list[str]:
    """Write a bundle into ``root/<digest>/`` once per node and return its JMH launcher."""
    folder = root / bundle.digest
    marker = folder / ".complete"
    if not marker.is_file():
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root))
        for name in bundle.names:
            (staging / name).write_bytes(data[name])
        (staging / ".complete").write_text(bundle.digest)
        try:
            os.rename(staging, folder)
        except OSError:  # another task on this node got there first
            shutil.rmtree(staging, ignore_errors=True)
    paths = [str(folder / name) for name in bundle.names]
    if bundle.layout == "jar":
        return [java, "-jar", paths[0]]
    return [java, "-cp", os.pathsep.join(paths), JMH_MAIN]


# ---------------------------------------------------------------------------- the task


def measure_group(
    job_doc: dict[str, Any],
    base: tuple[Bundle, dict[str, bytes]],
    head: tuple[Bundle, dict],
    measure: MeasureKeys,
) -> dict[str, Any]:
    """The Ray task: measure one key group on this node and return its run folder as a tar.

    A JMH or build failure still returns the folder (with its logs) and the error, so the
    driver can keep the logs and name them; only a lost node makes Ray start the task again.
    """
    import ray
    from perfproof.env.java import java_info

    job = PartJob(**job_doc)
    node = ray.get_runtime_context().get_node_id()
    identity = machine_identity().model_copy(update={"ray_node": node})
    java = job.extra.get("java") or "java"
    jdk = java_info(java if job.extra.get("java") else None)
    cache = Path(tempfile.gettempdir()) / "perfproof-ray"
    cache.mkdir(exist_ok=True)
    launchers = {
        side: materialise(bundle, data, cache, jdk.path)
        for side, (bundle, data) in (("base", base), ("head", head))
    }
    work = Path(tempfile.mkdtemp(prefix=f"perfproof-g{job.index:02d}-"))
    part = work / f"g{job.index:02d}"
    error = None
    started = time.monotonic()
    try:  # the work folder goes whatever happens: done, failed, or cancelled by Ctrl-C
        try:
            with open(work / "progress.log", "w", encoding="utf-8") as log:
                measure_part(
                    job,
                    part,
                    launchers,
                    PlainReporter(log),
                    measure=measure,
                    java_home=jdk.home,
                    jdk=jdk,
                    identity=identity,
                )
        except PerfproofError as exc:
            error = str(exc)
        return {
            "index": job.index,
            "node": node,
            "host": identity.host,
            "error": error,
            "seconds": round(time.monotonic() - started, 3),
            "tar": _tar(part) if part.is_dir() else b"",
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tar(folder: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(folder, arcname=".")
    return buf.getvalue()


def unpack_part(blob: bytes, target: Path) -> Path:
    """Put a returned folder in place atomically: unpacked beside it, then renamed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    with tarfile.open(fileobj=io.BytesIO(blob), mode="r:gz") as tar:
        tar.extractall(staging, filter="data")
    if target.exists():
        shutil.rmtree(target)
    os.rename(staging, target)
    return target


# ---------------------------------------------------------------------------- the cluster


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise InputError(
            "--executor ray needs Ray on this machine: pip install 'perfproof[ray]'"
        ) from None
    return ray


def check_address(address: str | None) -> None:
    """A ``host:port`` that does not answer is bad input, told in seconds, not minutes."""
    if not address or address == "auto":
        return
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise InputError(f"--ray-address {address}: expected HOST:PORT (or auto)")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), CONNECT_TIMEOUT_S):
            pass
    except OSError as exc:
        raise InputError(
            f"--ray-address {address}: no Ray cluster answers there ({exc.strerror or exc})"
        ) from None


def connect(address: str | None) -> Any:
    """Join the cluster (or the one ``RAY_ADDRESS`` names); bad input when there is none."""
    ray = require_ray()
    check_address(address)
    if ray.is_initialized():
        return ray
    try:
        ray.init(
            address=address or "auto",
            logging_level="ERROR",
            log_to_driver=False,
            configure_logging=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--ray-address {address or 'auto'}: cannot join ({first})") from None
    return ray


def jmh_nodes(ray: Any) -> list[dict[str, Any]]:
    """The live nodes that offer a ``jmh`` slot."""
    return [
        n
        for n in ray.nodes()
        if n.get("Alive") and float((n.get("Resources") or {}).get(RESOURCE, 0)) >= 1
    ]


def no_jmh_nodes(address: str | None) -> str:
    return (
        f"the Ray cluster at {address or 'auto'} has no node offering a '{RESOURCE}' resource; "
        f"start each JMH node with: ray start --address ... --resources '{{\"{RESOURCE}\": 1}}'"
    )


def node_names(nodes: list[dict[str, Any]]) -> str:
    return ", ".join(f"{n.get('NodeManagerHostname') or n.get('NodeManagerAddress')} "
                     f"({str(n.get('NodeID', ''))[:8]})" for n in nodes)  # fmt: skip


@dataclass
class GroupOutcome:
    index: int
    path: Path
    host: str
    node: str
    seconds: float
    keys: int


def run_groups(
    jobs: list[PartJob],
    artifacts: dict[str, Artifact],
    parts_dir: Path,
    reporter: Reporter,
    *,
    address: str | None,
    measure: MeasureKeys,
    on_done: Any = None,
) -> list[GroupOutcome]:
    """Measure every job on the cluster; each finished folder lands in ``parts_dir/gNN``.

    ``on_done(outcome)`` runs after each folder is in place (the caller records it in the
    manifest). Ctrl-C cancels the running tasks and keeps the finished folders.
    """
    ray = connect(address)
    nodes = jmh_nodes(ray)
    if not nodes:
        raise InputError(no_jmh_nodes(address))
    total_keys = sum(len(j.keys) for j in jobs)
    reporter.message(
        f"Ray: {len(nodes)} node(s) with a JMH slot: {node_names(nodes)}; "
        f"{len(jobs)} key group(s), {total_keys} key(s) to measure"
    )
    shipped = {}
    for side, artifact in artifacts.items():
        bundle, data = pack(side, artifact)
        shipped[side] = ray.put((bundle, data))
        reporter.message(f"shipped the {side} jars ({bundle.size / 1e6:.1f} MB) to the cluster")
    task = ray.remote(measure_group).options(
        resources={RESOURCE: 1}, num_cpus=0, max_retries=MAX_RETRIES, retry_exceptions=False
    )
    running = {
        task.remote(asdict(job), shipped["base"], shipped["head"], measure): job for job in jobs
    }
    done: list[GroupOutcome] = []
    keys_left = total_keys
    last = time.monotonic()
    try:
        while running:
            ready, _ = ray.wait(list(running), num_returns=1, timeout=2.0)
            if not ready:
                if time.monotonic() - last > HEARTBEAT_S:
                    left = sorted(j.index for j in running.values())
                    reporter.message(
                        f"{len(jmh_nodes(ray))} node(s) measuring; groups "
                        f"{', '.join(map(str, left))} not finished; {keys_left} key(s) left"
                    )
                    last = time.monotonic()
                continue
            ref = ready[0]
            job = running.pop(ref)
            outcome = _collect(ray, ref, job, parts_dir)
            done.append(outcome)
            keys_left -= outcome.keys
            last = time.monotonic()
            reporter.message(
                f"group {job.index}/{job.count} ({outcome.keys} key(s)) done on "
                f"{outcome.host} ({outcome.node[:8]}) in {format_duration(outcome.seconds)}; "
                f"{keys_left} key(s) in {len(running)} group(s) left"
            )
            if on_done is not None:
                on_done(outcome)
    except BaseException:
        # not forced: a running task gets KeyboardInterrupt, and perfproof's process runner on
        # the node stops its JMH before the task ends (a forced cancel would orphan it)
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
        raise
    return done


def _collect(ray: Any, ref: Any, job: PartJob, parts_dir: Path) -> GroupOutcome:
    target = parts_dir / f"g{job.index:02d}"
    try:
        res = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:  # perfproof itself failed on the node
        cause = str(exc.cause if exc.cause is not None else exc).strip().splitlines()
        raise ExternalError(
            f"key group {job.index}/{job.count} failed on a Ray node: "
            f"{cause[-1] if cause else type(exc).__name__}"
        ) from exc
    except ray.exceptions.RayError as exc:  # nodes lost more often than Ray retries
        raise ExternalError(
            f"key group {job.index}/{job.count} could not be measured on the Ray cluster "
            f"(started {MAX_RETRIES + 1} times): {type(exc).__name__}"
        ) from exc
    if res.get("error"):
        failed = unpack_part(res["tar"], target.with_name(target.name + ".failed"))
        raise ExternalError(
            f"key group {job.index}/{job.count} failed on {res['host']}: {res['error']}",
            failed / "logs",
        )
    unpack_part(res["tar"], target)
    return GroupOutcome(
        job.index, target, res["host"], res["node"], float(res["seconds"]), len(job.keys)
    )

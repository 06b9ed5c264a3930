"""Shared test fixtures: paths to the recorded JMH outputs and an in-process CLI runner."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from perfproof.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


# --------------------------------------------------------------------- parallel run (xdist)
# The README's test command runs two pytest-xdist workers (`-n 2 --dist loadgroup`): the
# pure-Python tests on one core beside the JVM tests on the other. A group runs whole on one
# worker, in collection order. The JVM tests that run JMH are one group: they share session
# builds (each worker has a base temp folder, and so a perfproof cache, of its own), some hold
# the machine's JMH lock on purpose or count what a run says on stderr, where a wait for
# another JMH would show. JVM tests that run no JMH and share a session build of their own
# (the recorded Java program, the Maven sample project) are groups of their own beside it;
# the history tests share one PostgreSQL cluster, the packaging tests one built wheel.

JVM_WITHOUT_JMH = {"hot_classes": "jfr-program", "sample_repo": "maven-sample"}
"""A session fixture of JVM tests that start no JMH → their group (beside the JMH one)."""

SERIAL_FIXTURES = {"pg_cluster": "postgresql", "db_for": "postgresql", "built_wheel": "wheel"}
"""A session fixture too costly to make once per worker (or one that asks for it on the way,
as ``db_for("postgresql")`` does) → the group of the tests using it."""


def serial_group(item: pytest.Item) -> str | None:
    """The xdist group ``item`` runs in (None: any worker, alone)."""
    names = getattr(item, "fixturenames", ())
    if item.get_closest_marker("jvm") is not None:
        return next((g for name, g in JVM_WITHOUT_JMH.items() if name in names), "jmh")
    return next((group for name, group in SERIAL_FIXTURES.items() if name in names), None)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of a serial group for ``--dist loadgroup`` (before xdist reads it)."""
    for item in items:
        group = serial_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def steps_of(run_dir: Path) -> dict[str, str]:
    """Each step's status in a run folder's manifest (none before it is written)."""
    if not (run_dir / "manifest.json").is_file():
        return {}
    doc = json.loads((run_dir / "manifest.json").read_text())
    return {s["id"]: s["status"] for s in doc.get("steps", [])}


def ctrl_c_when(argv: list[str], ready: Callable[[], bool], timeout_s: float,
                env: dict[str, str] | None = None) -> tuple[int, str]:  # fmt: skip
    """Start ``argv``, press Ctrl-C (SIGINT) as soon as ``ready()`` holds; exit code, stderr.

    The output goes to files, not pipes: a pipe nobody reads while ``ready()`` is polled fills
    up on a chatty run and stalls it before the moment the test waits for."""
    import signal
    import subprocess
    import tempfile
    import time

    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, text=True, env=env)
        deadline = time.monotonic() + timeout_s
        try:
            while not ready():
                if proc.poll() is not None or time.monotonic() > deadline:
                    err.seek(0)
                    state = "ended" if proc.poll() is not None else "never got there"
                    raise AssertionError(f"{state} before Ctrl-C: {err.read()[-3000:]}")
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        err.seek(0)
        return proc.returncode, err.read()


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``perfproof ARGS`` in-process and return its exit code, stdout and stderr."""

    def _run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return _run


def _rerun(text: str, factor: float) -> str:
    """The same JMH results as if measured again: every primary iteration scaled by ``factor``
    (a copied round file would be the same forks twice, which perfproof refuses)."""
    doc = json.loads(text)
    for entry in doc:
        pm = entry["primaryMetric"]
        if pm.get("rawData"):
            pm["rawData"] = [[float(v) * factor for v in fork] for fork in pm["rawData"]]
        if pm.get("rawDataHistogram"):
            pm["rawDataHistogram"] = [
                [[[float(v) * factor, c] for v, c in it] for it in fork]
                for fork in pm["rawDataHistogram"]
            ]
    return json.dumps(doc)


@pytest.fixture
def rerun() -> Callable[[str, float], str]:
    return _rerun


_DIGITS = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
"""A number as a reader sees one: ``-107.22`` (its digits), ``4,736``, the ``⁵`` of ``10⁻⁵``."""
_NEXT_DIGIT = str.maketrans("0123456789⁰¹²³⁴⁵⁶⁷⁸⁹", "1234567890¹²³⁴⁵⁶⁷⁸⁹⁰")


def _number_changes(text: str) -> Iterator[tuple[int, str, str, str]]:
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        for m in _DIGITS.finditer(line):
            old = m.group(0)
            new = old[:-1] + old[-1].translate(_NEXT_DIGIT)
            changed = line[: m.start()] + new + line[m.end() :]
            yield i + 1, old, new, "".join([*lines[:i], changed, *lines[i + 1 :]])


@pytest.fixture(scope="session")
def number_changes() -> Callable[[str], Iterator[tuple[int, str, str, str]]]:
    """``number_changes(text)``: (line, written number, its replacement, the whole text with
    it) for every number of ``text``, its last digit moved on by one (``-99.93`` → ``-99.94``,
    ``129`` → ``120``), commit ids, versions and raw tables included."""
    return _number_changes


# ----------------------------------------------------------------------------- parsers
PARSERS = {
    "perfproof.measure.plan": ("parse_budget", "parse_jmh_args", "split_jmh_args"),
    "perfproof.model.documents.run_plan": ("parse_settings",),
    "perfproof.measure.shard": ("parse_shard",),
    "perfproof.stats.verdict": ("parse_fraction",),
}
"""The parsers of option text: each option's text should go through one of them once a run."""


@pytest.fixture
def parser_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str]]:
    """Every call of a :data:`PARSERS` parser while the test runs, as (parser, its arguments)
    → count. The counting parser replaces the real one wherever perfproof holds it: in its
    module, in every module that imported it by name, and in every object of a perfproof
    module that keeps it as an attribute (a click type, a pinned key)."""
    import importlib
    import sys

    calls: Counter[tuple[str, str]] = Counter()
    for module_name, names in PARSERS.items():
        module = importlib.import_module(module_name)
        for name in names:
            original = getattr(module, name)

            def counted(*args: object, _real: Any = original, _name: str = name) -> object:
                calls[(_name, repr(args))] += 1
                return _real(*args)

            for held in [m for n, m in sys.modules.items() if n.startswith("perfproof")]:
                for attr, value in list(vars(held).items()):
                    if value is original:
                        monkeypatch.setattr(held, attr, counted)
                    elif getattr(value, "parse", None) is original:
                        monkeypatch.setattr(value, "parse", counted)
    return calls


# ----------------------------------------------------------------------------- run folders
# Fixed run folders built from the recorded JMH outputs, for the report and check tests. The
# feature side is the recorded data with known, planted effects, so every verdict has a truth.

HEAD_EFFECTS = {
    ("fx.Codes.streamEmpty", "16"): (0.5, 0.0),  # twice as fast, stops allocating
    ("fx.Codes.sum", "128"): (1.12, 1.0),  # 12% slower
}
"""(benchmark, n) → (time factor, bytes/op factor) applied to the feature side."""

FORK_JITTER = (1.0, 0.994, 1.006, 0.997)
"""Per-fork factors so rounds differ like real reruns (mean 0.999, spread 0.4%)."""


def _scale_metric(metric: dict, factors: list[float]) -> None:
    """Scale a JMH metric's raw data fork by fork; score and error follow the mean factor."""
    mean = sum(factors) / len(factors)
    if metric.get("rawData"):
        metric["rawData"] = [
            [v * f for v in fork] for fork, f in zip(metric["rawData"], factors, strict=True)
        ]
    if metric.get("rawDataHistogram"):
        metric["rawDataHistogram"] = [
            [[[v * f, c] for v, c in it] for it in fork]
            for fork, f in zip(metric["rawDataHistogram"], factors, strict=True)
        ]
    for key in ("score", "scoreError"):
        if isinstance(metric.get(key), float):
            metric[key] *= mean
    if metric.get("scoreConfidence"):
        metric["scoreConfidence"] = [v * mean for v in metric["scoreConfidence"]]
    if metric.get("scorePercentiles"):
        metric["scorePercentiles"] = {k: v * mean for k, v in metric["scorePercentiles"].items()}


def _side_file(entries: list, side: str, round_no: int) -> list:
    import copy

    out = copy.deepcopy(entries)
    for e in out:
        n = (e.get("params") or {}).get("n", "")
        time_f, bytes_f = (
            HEAD_EFFECTS.get((e["benchmark"], n), (1.0, 1.0)) if side == "head" else (1, 1)
        )
        offset = (round_no - 1) * 2 + (1 if side == "head" else 0)
        forks = len(e["primaryMetric"].get("rawData") or e["primaryMetric"].get("rawDataHistogram"))
        jitter = [FORK_JITTER[(offset + i) % len(FORK_JITTER)] for i in range(forks)]
        _scale_metric(e["primaryMetric"], [time_f * j for j in jitter])
        alloc = e["secondaryMetrics"].get("gc.alloc.rate.norm")
        if alloc is not None and bytes_f != 1.0:
            _scale_metric(alloc, [bytes_f] * forks)
    return out


def _jmh_log(entries: list) -> str:
    """A console log in JMH's format with two warm-up iterations per fork (1.6x and 1.1x)."""
    lines = []
    for e in entries:
        pm = e["primaryMetric"]
        if not pm.get("rawData"):
            continue
        lines += [f"# Benchmark: {e['benchmark']}"]
        if e.get("params"):
            lines.append(
                "# Parameters: (" + ", ".join(f"{k} = {v}" for k, v in e["params"].items()) + ")"
            )
        for i, fork in enumerate(pm["rawData"], start=1):
            lines += ["", f"# Fork: {i} of {len(pm['rawData'])}"]
            for w, factor in enumerate((1.6, 1.1), start=1):
                lines.append(f"# Warmup Iteration   {w}: {fork[0] * factor:.3f} {pm['scoreUnit']}")
            lines += [f"Iteration   {k}: {v:.3f} {pm['scoreUnit']}" for k, v in enumerate(fork, 1)]
        lines.append("")
    return "\n".join(lines)


def _write_results(run: Path) -> None:
    from perfproof.compare import CompareOptions, compare_document, compare_sides
    from perfproof.jmh.reader import read_results

    files = sorted((run / "jmh").glob("*.json"))
    base = read_results([f for f in files if f.stem.endswith("-base")])
    head = read_results([f for f in files if f.stem.endswith("-head")])
    doc = compare_document(compare_sides(base, head, CompareOptions()))
    (run / "results.json").write_text(json.dumps({**doc, "run_dir": str(run)}, indent=2))


JMH_OPTIONS = ("-f", "2", "-wi", "2", "-w", "1s", "-i", "3", "-r", "1s", "-prof", "gc")
"""The JMH options the recorded fixtures were made with."""

AB_MANIFEST = {
    "schema": "perfproof.run/1",
    "repo": "/home/dev/acme",
    "refs": {
        "base": {"ref": "main", "sha": "1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c"},
        "head": {"ref": "faster-codes", "sha": "9a8b7c6d5e4f30219a8b7c6d5e4f30219a8b7c6d"},
    },
    "environment": {
        "cpu_model": "AMD EPYC 7B13",
        "cores": 2,
        "memory_bytes": 8 * 2**30,
        "os": "Linux-6.1.0-amd64-x86_64-with-glibc2.36",
        "perfproof_version": "0.1.0",
        "jdk": {
            "path": "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
            "home": "/usr/lib/jvm/java-17-openjdk-amd64",
            "vendor": "Debian",
            "version": "17.0.15",
            "runtime_version": "17.0.15+6-Debian-1deb12u1",
            "vm_name": "OpenJDK 64-Bit Server VM",
        },
        "jmh_version": "1.37",
        "load_before": [0.12, 0.2, 0.1],
        "load_after": [1.05, 0.6, 0.3],
    },
}


@pytest.fixture(scope="session")
def make_run_folder(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``make_run_folder("ab")``: two ABBA rounds with manifest and logs; ``"compare"``: one
    JMH 1.21 file as baseline and one JMH 1.37 file as feature, nothing else."""

    def _make(kind: str = "ab") -> Path:
        run = tmp_path_factory.mktemp("runs") / f"run-{kind}"
        (run / "jmh").mkdir(parents=True)
        recorded = json.loads((FIXTURES / "jmh" / "jmh-1.37-allmodes-gc.json").read_text())
        if kind == "compare":
            old = json.loads((FIXTURES / "jmh" / "jmh-1.21-avgt-gc.json").read_text())
            (run / "jmh" / "1-base.json").write_text(json.dumps(old))
            (run / "jmh" / "1-head.json").write_text(json.dumps(_side_file(recorded, "head", 1)))
            _write_results(run)
            return run
        (run / "logs").mkdir()
        order = [(1, "base"), (1, "head"), (2, "head"), (2, "base")]
        steps = []
        for index, (r, side) in enumerate(order):
            entries = _side_file(recorded, side, r)
            (run / "jmh" / f"{r:02d}-{side}.json").write_text(json.dumps(entries))
            (run / "logs" / f"{r:02d}-{side}.jmh.log").write_text(_jmh_log(entries))
            tree = f"/root/.cache/perfproof/worktrees/acme-0123/{AB_MANIFEST['refs'][side]['sha']}"
            jar = f"{tree}/target/benchmarks.jar"
            argv = ["java", "-jar", jar, "fx.", *JMH_OPTIONS, "-rf", "json", "-rff"]
            argv.append(f"{run}/jmh/.{r:02d}-{side}.partial.json")
            steps.append(
                {
                    "index": index,
                    "id": f"{r:02d}-{side}",
                    "round": r,
                    "side": side,
                    "kind": "jmh",
                    "status": "done",
                    "argv": argv,
                    "duration_s": 61.0,
                }
            )
        manifest = json.loads(json.dumps(AB_MANIFEST))
        manifest["plan"] = {
            "rounds": 2,
            "order": "abba",
            "seed": None,
            "benchmarks": ["fx."],
            "jmh_options": list(JMH_OPTIONS),
            "steps": steps,
        }
        manifest["steps"] = steps
        shas = {side: AB_MANIFEST["refs"][side]["sha"] for side in ("base", "head")}
        manifest["builds"] = [
            {
                "side": side,
                "status": "done",
                "cached": side == "head",
                "duration_s": 42.5,
                "cwd": f"/root/.cache/perfproof/worktrees/acme-0123/{shas[side]}",
                "command": ["mvn", "-B", "-q", "package", "-DskipTests"],
            }
            for side in ("base", "head")
        ]
        manifest["command"] = [
            "perfproof",
            "ab",
            "--repo",
            "/home/dev/acme",
            "--base",
            "main",
            "--head",
            "faster-codes",
            "--bench",
            "fx.",
            "--jmh-args",
            "-f 2 -wi 2 -w 1s -i 3 -r 1s",
            "--rounds",
            "2",
            "--order",
            "abba",
        ]
        (run / "manifest.json").write_text(json.dumps(manifest, indent=2))
        _write_results(run)
        return run

    return _make


# ------------------------------------------------------------------------- tiny git projects

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin",
}  # fmt: skip


@pytest.fixture(scope="session")
def write_git_repo() -> Callable[[Path, list[tuple[str, str, dict[str, str]]]], Path]:
    """``write_git_repo(dest, [(tag, iso_date, {path: text}), ...])``: one tagged commit per
    entry, files written on top of the previous commit's. Fixed identity and dates give the
    same SHAs on every run, so perfproof's build cache recognises the commits."""
    import subprocess

    def _write(dest: Path, commits: list[tuple[str, str, dict[str, str]]]) -> Path:
        dest.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=dest, env=_GIT_ENV, check=True)
        for tag, date, files in commits:
            for rel, text in files.items():
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                (dest / rel).write_text(text)
            env = {**_GIT_ENV, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
            for args in (["add", "--all"], ["commit", "-q", "-m", tag], ["tag", tag]):
                subprocess.run(["git", *args], cwd=dest, env=env, check=True, capture_output=True)
        return dest

    return _write


_TINY_POM = """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>{name}</groupId>
  <artifactId>{name}</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.openjdk.jmh</groupId>
      <artifactId>jmh-core</artifactId>
      <version>1.37</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
        <configuration>
          <annotationProcessorPaths>
            <path>
              <groupId>org.openjdk.jmh</groupId>
              <artifactId>jmh-generator-annprocess</artifactId>
              <version>1.37</version>
            </path>
          </annotationProcessorPaths>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""


@pytest.fixture(scope="session")
def tiny_pom() -> Callable[[str], str]:
    """``tiny_pom(name)``: a Maven project on JDK 17 with JMH 1.37 and its annotation
    processor, no shade plugin (perfproof runs the thin jar on Maven's classpath)."""
    return lambda name: _TINY_POM.format(name=name)


# ------------------------------------------------------------------ the built distribution


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel built from a copy of the tracked sources, as a clean clone would."""
    import shutil
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    out = tmp_path_factory.mktemp("dist")
    src = tmp_path_factory.mktemp("src") / "perfproof"
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")  # fmt: skip
    for rel in filter(None, listed):
        if (root / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, src / rel)
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(src)],
                   capture_output=True, check=True)  # fmt: skip
    return out


@pytest.fixture(scope="session")
def wheel_venv(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the built wheel installed (its dependencies come from
    this interpreter's site-packages: no download in a test); returns its ``bin`` folder."""
    import subprocess
    import sys

    venv = tmp_path_factory.mktemp("wheel-venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    (wheel,) = built_wheel.glob("*.whl")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-index",
                    "--no-deps", str(wheel)], check=True, env=env)  # fmt: skip
    return venv / "bin"


def _drifting_run(dest: Path) -> Path:
    """Four ABBA rounds of six real JMH entries (kryo's BigDecimalBenchmark.read), the feature
    1.5× the baseline's throughput, and the whole machine about 17% slower per operation in
    rounds 3–4 on both sides: fork means in two groups that are the rounds."""
    import numpy as np

    entries = json.loads((FIXTURES / "runs" / "kryo-shard-1" / "jmh" / "01-base.json").read_text())
    rng = np.random.default_rng(17)
    run = dest / "drift"
    (run / "jmh").mkdir(parents=True)
    for round_no in (1, 2, 3, 4):
        machine = 1.0 if round_no <= 2 else 1 / 1.17
        for side, effect in (("base", 1.0), ("head", 1.5)):
            out = []
            for e in entries:
                e = json.loads(json.dumps(e))
                level = 1e7 * effect * machine * (1 + 0.1 * len(e["params"]["numOfDigits"]))
                raw = [list(level * np.exp(rng.normal(0, 0.01, 4)))]
                e["primaryMetric"].update(rawData=raw, score=float(np.mean(raw)), scoreError=0.0)
                out.append(e)
            (run / "jmh" / f"{round_no:02d}-{side}.json").write_text(json.dumps(out))
    return run


@pytest.fixture(scope="session")
def make_drifting_run() -> Callable[[Path], Path]:
    """``make_drifting_run(folder)``: a run folder whose machine slowed down for two rounds
    (``_drifting_run``)."""
    return _drifting_run

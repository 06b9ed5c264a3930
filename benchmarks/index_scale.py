"""How fast is the Java index on a large repository? Generate one, index it cold, query it warm.

Generates a tree of N Java files (default 5,000) shaped like a big server codebase: packages of
services, requests and utilities with fields, constructors, loops, lambdas, streams, string
building and calls into a shared ``Errors`` class; a fifth of the files are tests and a few are
JMH benchmarks. Then it measures, each in a fresh process:

* a cold ``perfproof callers`` (empty cache: every file parsed, on all cores),
* a warm one (unchanged tree: only read and hash),
* ``rg`` (or ``grep -r``) for the same method name, the baseline people use today.

Targets: cold under 20 s on 2 cores, warm under 1 s.

    python3 benchmarks/index_scale.py [--files 5000] [--dir /tmp/perfproof-index-scale]
    python3 benchmarks/index_scale.py --repo ~/src/kafka --method Errors.forCode
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from perfproof.process import Command, Watch, command_line, run

_PACKAGES = ["server", "network", "storage", "protocol", "metrics", "coordinator", "log", "util"]


def _method(rng: random.Random, cls: str, i: int) -> str:
    kind = rng.randrange(7)
    name = f"handle{i}"
    if kind == 0:
        return f"""
    public int {name}(List<Integer> values, short code) {{
        int total = 0;
        for (int k = 0; k < values.size(); k++) {{
            total += values.get(k) * {i};
        }}
        if (Errors.forCode(code) != Errors.NONE) {{
            throw new IllegalStateException("bad code " + code);
        }}
        return total;
    }}
"""
    if kind == 1:
        return f"""
    public List<String> {name}(Collection<String> names) {{
        // Errors.forCode(x) is not called here
        return names.stream()
            .filter(n -> !n.isEmpty())
            .map(String::trim)
            .collect(Collectors.toList());
    }}
"""
    if kind == 2:
        return f"""
    private String {name}(Request request, int partition) {{
        StringBuilder sb = new StringBuilder();
        sb.append(request.topic()).append('-').append(partition);
        if (log.isDebugEnabled()) {{
            log.debug(String.format("built %s for %d", sb, partition));
        }}
        return sb.toString();
    }}
"""
    if kind == 3:
        return f"""
    void {name}(Map<String, Long> counts, Request request) {{
        Long current = counts.get(request.topic());
        long next = current == null ? 1L : current + {i};
        counts.put(request.topic(), next);
        helper{(i + 1) % 9}(request);
    }}
"""
    if kind == 4:
        return f"""
    protected Errors {name}(ByteBuffer buffer) {{
        short code = buffer.getShort();
        Errors error = Errors.forCode(code);
        switch (error) {{
            case NONE: return error;
            default:
                recordError(error, "{cls}");
                return error;
        }}
    }}
"""
    if kind == 5:
        quota = "Quotas.check(topic, timeoutMs);" if rng.random() < 0.05 else ""
        return f"""
    public Optional<Request> {name}(String topic, int timeoutMs) {{
        {quota}
        for (Request r : pending) {{
            if (r.topic().equals(topic) && r.deadline() > timeoutMs) {{
                return Optional.of(r);
            }}
        }}
        return Optional.empty();
    }}
"""
    return f"""
    static long {name}(long[] values) {{
        long max = Long.MIN_VALUE;
        for (long v : values) {{
            max = Math.max(max, v);
        }}
        return max;
    }}
"""


def _java_file(rng: random.Random, pkg: str, cls: str, test: bool) -> str:
    methods = "".join(_method(rng, cls, i) for i in range(rng.randint(6, 18)))
    helpers = "".join(
        f"    private void helper{k}(Request r) {{ touched += r.size(); }}\n" for k in range(9)
    )
    annotations = "    @Test\n" if test else ""
    return f"""/*
 * Licensed under the Apache License, Version 2.0.
 */
package org.example.{pkg};

import java.nio.ByteBuffer;
import java.util.*;
import java.util.stream.Collectors;
import org.example.common.Errors;
import org.example.common.Quotas;
import org.example.common.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles part of the {pkg} path. See {{@link Errors#forCode(short)}}.
 */
public class {cls} {{
    private static final Logger log = LoggerFactory.getLogger({cls}.class);
    private final List<Request> pending = new ArrayList<>();
    private final Map<String, Integer> sizes = new HashMap<>();
    private long touched;

    public {cls}(int capacity) {{
        for (int i = 0; i < capacity; i++) {{
            sizes.put("slot-" + i, i);
        }}
    }}
{annotations}{methods}
    private void recordError(Errors error, String where) {{
        log.warn("error {{}} in {{}}", error, where);
    }}

{helpers}}}
"""


_COMMON = {
    "Errors.java": """package org.example.common;

public enum Errors {
    NONE((short) 0), UNKNOWN((short) -1), TIMEOUT((short) 7);

    private final short code;

    Errors(short code) { this.code = code; }

    public static Errors forCode(short code) {
        for (Errors e : values()) {
            if (e.code == code) return e;
        }
        return UNKNOWN;
    }

    public short code() { return code; }
}
""",
    "Quotas.java": """package org.example.common;

public final class Quotas {
    private Quotas() {}

    public static boolean check(String topic, int bytes) {
        return topic.length() + bytes < 1_000_000;
    }
}
""",
    "Request.java": """package org.example.common;

public interface Request {
    String topic();
    long deadline();
    int size();
}
""",
}


def generate(root: Path, files: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    common = root / "core/src/main/java/org/example/common"
    common.mkdir(parents=True, exist_ok=True)
    for name, body in _COMMON.items():
        (common / name).write_text(body)
    for i in range(files - len(_COMMON)):
        pkg = _PACKAGES[i % len(_PACKAGES)]
        module = f"module{i % 25}"
        test = i % 5 == 0
        bench = i % 97 == 0
        area = "jmh" if bench else ("test" if test else "main")
        cls = f"{pkg.capitalize()}{'Test' if test else 'Handler'}{i}"
        folder = root / module / "src" / area / "java" / "org" / "example" / pkg
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{cls}.java").write_text(_java_file(rng, pkg, cls, test))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str], env: dict[str, str]) -> tuple[str, str]:
    """Wall and CPU seconds (all the child's processes, so parallel parsing adds up)."""
    start, cpu = time.perf_counter(), _cpu()
    result = run(Command(argv, env=env), Watch(capture=True, merge_stderr=True))
    elapsed, used = time.perf_counter() - start, _cpu() - cpu
    if not result.ok:
        sys.exit(f"failed: {command_line(argv)}\n{result.output}")
    return f"{elapsed:.2f} s wall, {used:.2f} s CPU", result.output


def _measure(repo: Path, cache: Path, method: str, broad: str | None) -> None:
    files = list(repo.rglob("*.java"))
    size = sum(p.stat().st_size for p in files)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    query = ["perfproof", "callers", method, "--repo", str(repo), "--all"]
    print(f"tree: {len(files)} files, {lines} lines, {size / 1e6:.1f} MB under {repo}")
    load = os.getloadavg()
    print(
        f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
    )
    cold, out = _timed([*query, "--format", "json"], env)
    warm, _ = _timed(query, env)
    warm2, _ = _timed(query, env)
    doc = json.loads(out)
    print(f"cold callers {method} (parse {len(files)} files): {cold}")
    print(f"warm callers {method}: {warm}; again {warm2}")
    print(
        f"  found: production {doc['production']} (exact {doc['exact']}, likely {doc['likely']}), "
        f"test {doc['test']}, benchmark {doc['benchmark']}"
    )
    if broad:
        broad_warm, broad_out = _timed(
            ["perfproof", "callers", broad, "--repo", str(repo), "--format", "json"], env
        )
        sites = json.loads(broad_out)["production"]
        print(f"warm callers {broad} ({sites} production sites): {broad_warm}")
    scan_warm, scan_out = _timed(
        ["perfproof", "scan", "--repo", str(repo), "--format", "json"], env
    )
    print(f"warm scan: {scan_warm}, {len(json.loads(scan_out)['findings'])} findings")
    name = method.replace("#", ".").replace("::", ".").rsplit(".", 1)[-1]
    for tool in (["rg", "-cF", f"{name}(", str(repo)], ["grep", "-rcF", f"{name}(", str(repo)]):
        if shutil.which(tool[0]):
            elapsed, text = _timed(tool, env)
            hits = sum(int(line.rsplit(":", 1)[1]) for line in text.splitlines() if ":" in line)
            print(f"{command_line(tool)}: {elapsed}, {hits} matching lines (any file, any kind)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--dir", type=Path, default=None, help="where to generate (kept)")
    ap.add_argument(
        "--repo", type=Path, default=None, help="measure an existing repository instead"
    )
    ap.add_argument("--method", default=None, help="with --repo: the method to query")
    args = ap.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="perfproof-index-scale-"))
    cache = base / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    if args.repo is not None:
        if not args.method:
            sys.exit("--repo needs --method Class.method")
        _measure(args.repo, cache, args.method, None)
        return
    repo = base / "repo"
    shutil.rmtree(repo, ignore_errors=True)
    generate(repo, args.files)
    _measure(repo, cache, "Quotas.check", "Errors.forCode")


if __name__ == "__main__":
    main()

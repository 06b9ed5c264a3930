"""The house rules of perfproof's layout, checked on the source text (fast, no JVM, no imports).

Each rule below is one a change can break without any behaviour test noticing: a module that
keeps growing, an import circle hidden inside a function, a second cache-folder function, a
``print`` in the statistics, a JSON writer that lets ``NaN`` through. The scan reads the sources
with :mod:`ast`, so a rule sees code only (never a docstring or comment that mentions a name).

A rule that is broken today by a module still being reworked is listed in a ``KNOWN_*`` table
with the reason, and its own test is an ``xfail(strict=True)``: the day the module is fixed that
test passes, the strict mark fails the suite, and the entry has to go.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "perfproof"

MAX_LINES = 450
"""The house style says modules of about 400 lines; above this a module has two jobs."""

KNOWN_OVERSIZE: dict[str, str] = {}

KNOWN_CYCLES: dict[frozenset[str], str] = {}

TIERS: tuple[frozenset[str], ...] = (
    frozenset({"units", "errors", "defaults"}),  # leaves: numbers spelt, exit codes, defaults
    frozenset({"model"}),  # the shared types and the versioned JSON documents
    frozenset({"stats", "process", "storage"}),  # pure statistics; commands; atomic files
    frozenset({"env", "jmh"}),  # the cache and java; JMH's formats
    frozenset({"workspace"}),  # git, worktrees, builds
    frozenset({"measure"}),  # running JMH steps into a run folder (JFR on, when asked)
    frozenset({"profile"}),  # recordings (JFR, collapsed): read after measuring, never by it
    frozenset({"code"}),  # Java source, and the profile's weight on it
    frozenset({"compare"}),  # samples → comparisons
    frozenset({"render"}),  # comparisons → text and tables
    frozenset({"report"}),  # a run folder → a report context → a page
    frozenset({"audit", "history"}),  # a PR body against a run; runs kept over time
    frozenset({"export"}),  # runs and histories for other tools
    frozenset({"pipeline"}),  # the verbs, end to end
    frozenset({"demo"}),
    frozenset({"cli"}),  # the door
    frozenset({"__main__"}),
)
"""The house from the ground up: a package imports only packages of lower tiers (never one of
its own tier or above), so data flows one way: run folder → typed manifest → comparisons →
report context → page. Every package and top-level module has a tier."""

TIER_OF: dict[str, int] = {name: i for i, tier in enumerate(TIERS) for name in tier}

KNOWN_LAYER_BREAKS: dict[str, str] = {}

TOP_LEVEL_FORBIDDEN = ("compare.py", "compare_render.py", "guard.py", "utils.py")

DEFINED_ONCE: dict[str, str] = {
    "cache_root": "env/cache.py",
    "find_java": "env/java.py",
    "log_ratio": "stats/ratio.py",
    "log_ratio_rows": "stats/ratio.py",
    "ratio_or_difference": "stats/ratio.py",
    "RunStore": "measure/store.py",
    "json_safe": "model/documents/__init__.py",
    "check_confidence": "stats/verdict.py",
    "check_threshold": "stats/verdict.py",
    "welch_moments": "stats/welch.py",
    "welch_where_tested": "stats/welch.py",
    "welch_df": "stats/welch.py",
    "WelchStats": "stats/welch.py",
    "SideMoments": "stats/welch.py",
    "amdahl_ceiling": "stats/amdahl.py",
    "ceiling_if_removed": "stats/amdahl.py",
    "SideSamples": "model/__init__.py",
    "Estimate": "model/__init__.py",
    "JmhScores": "model/diagnostics.py",
    "Unmatched": "model/__init__.py",
    "Side": "model/enums.py",
    "SIDES": "model/enums.py",
    "Verdict": "model/enums.py",
    "Family": "model/enums.py",
    "GuardKind": "model/enums.py",
    "ComparisonMethod": "model/diagnostics.py",
    "Effect": "stats/method.py",
    "LookStats": "stats/method.py",
    "Levels": "stats/sequential_levels.py",
    "REGISTERED": "stats/methods.py",
    "Diagnostics": "model/diagnostics.py",
    "Note": "model/diagnostics.py",
    "parse_listing": "jmh/listing.py",
    "benchmark_names": "jmh/listing.py",
    "warmup_scores": "jmh/console.py",
    "parse_time": "units/durations.py",
    "canonical": "jmh/units.py",
    "RunManifest": "model/documents/run.py",
    "SideRef": "model/documents/run.py",
    "read_manifest": "report/rundir.py",
    "EXIT_INTERNAL": "cli/crash.py",
}
"""Concepts defined once: name → the one module that defines it (at any depth)."""

RETIRED: dict[str, str] = {
    "SideSummary": "a side of a JMH comparison is model.Estimate; of an end-to-end experiment, "
    "model.documents.e2e.RunsSummary",
    "UnmatchedEntry": "model.Unmatched",
    "dig": "the fields of model.documents.run.RunManifest",
    "side_info": "RunManifest.side",
    "_guarded": "typed readers name a bad field (exit 2); a bug is exit 4 (cli/crash.py)",
}
"""Names of second copies that were merged into one: defining them again brings a copy back."""

JMH_FORMAT_MARKERS = ("Benchmarks:", "# Fork:", "Warmup Iteration", "# Benchmark:", "Iteration ")
JMH_JSON_FIELDS = frozenset(
    {"primaryMetric", "secondaryMetrics", "rawData", "rawDataHistogram", "scoreError", "scoreUnit"}
)
"""Text only a reader of JMH's JSON, listing or console log looks for: such readers live in jmh/."""

FORMATTER = ("units/", "render/markdown.py")
"""The one number formatter (a leaf package) and the one Markdown table writer."""

ENV_READERS = {"XDG_CACHE_HOME": "env/cache.py", "JAVA_HOME": "env/java.py"}
"""Environment variables only one module may read."""

JSON_STRICT_HOMES = ("model/documents/", "storage.py")
"""Where strict JSON is written; elsewhere ``json.dumps`` must pass ``allow_nan=False``."""

KNOWN_LOOSE_JSON: dict[str, str] = {}

STATS_IO_CALLS = frozenset({"open", "print", "input"})
STATS_IO_METHODS = frozenset(
    {"read_text", "read_bytes", "write_text", "write_bytes", "open", "touch", "mkdir", "unlink"}
)
STATS_IO_MODULES = frozenset({"subprocess", "os", "shutil", "socket", "sqlite3", "pathlib", "io"})
STATS_ALLOWED_IO = {
    ("stats/tables.py", "read_text"): "reads the calibration tables shipped inside the package "
    "(importlib.resources: the sequential α′ grid, the bimodal null quantiles), constants of "
    "the code rather than input",
}

CLI_FORBIDDEN_IMPORTS = frozenset({"numpy", "scipy"})

CONFIDENCE_RULE_HOMES = ("stats/verdict.py", "stats/welch.py")
"""The one confidence rule, and t_critical's guard of the t quantile's own domain (0, 1)."""


# ------------------------------------------------------------------------------------ scan


@dataclass(frozen=True)
class Module:
    name: str  # perfproof.compare.result
    rel: str  # compare/result.py
    path: Path
    tree: ast.Module
    lines: int


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    where: str  # "module", "function" or "typing"


@functools.cache
def modules() -> dict[str, Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(PACKAGE).as_posix()
        found[name] = Module(name, rel, path, ast.parse(text, str(path)), len(text.splitlines()))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement with where it runs: at module level, in a function, or only for
    the type checker (``if TYPE_CHECKING:``)."""

    def visit(node: ast.AST, where: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, where
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from visit(child, "typing" if where == "typing" else "function")
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from visit(ast.Module(body=[stmt], type_ignores=[]), "typing")
                for stmt in child.orelse:
                    yield from visit(ast.Module(body=[stmt], type_ignores=[]), where)
            else:
                yield from visit(child, where)

    yield from visit(tree, "module")


def _resolve(name: str) -> str | None:
    """The perfproof module an import of ``name`` loads (the longest existing prefix)."""
    mods = modules()
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


@functools.cache
def import_edges() -> tuple[Edge, ...]:
    """Imports between perfproof modules. ``from a.b import c`` reaches the module ``a.b.c`` when
    there is one, else ``a.b`` (the package's ``__init__``)."""
    mods = modules()
    edges = []
    for m in mods.values():
        package = m.name.split(".") if m.path.name == "__init__.py" else m.name.split(".")[:-1]
        for node, where in _imports(m.tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package[: len(package) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for a in node.names:
                    full = f"{module}.{a.name}"
                    targets.append(full if full in mods else module)
            for t in targets:
                if not t.startswith("perfproof"):
                    continue
                resolved = _resolve(t)
                if resolved and resolved != m.name:
                    edges.append(Edge(m.name, resolved, node.lineno, where))
    return tuple(edges)


def import_cycles() -> list[list[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for e in import_edges():
        graph[e.source].add(e.target)
    return cycles_of(graph, sorted(modules()))


def cycles_of(graph: dict[str, set[str]], nodes: list[str]) -> list[list[str]]:
    """The strongly connected components of two or more nodes (Tarjan, iterative)."""
    graph = defaultdict(set, graph)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe_cycle(component: list[str]) -> str:
    members = set(component)
    mods = modules()
    lines = [
        f"  {mods[e.source].rel}:{e.line} imports {e.target} ({e.where})"
        for e in import_edges()
        if e.source in members and e.target in members
    ]
    return " <-> ".join(component) + "\n" + "\n".join(sorted(set(lines)))


def _definitions(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Functions and classes at any depth, and names a module assigns at its top level (a
    constant such as ``SIDES`` is a concept too)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node.lineno
    for stmt in tree.body:
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign)
            else []
        )
        for t in targets:
            if isinstance(t, ast.Name):
                yield t.id, stmt.lineno


def _top_level_functions(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            yield node.name, node.lineno


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def known(table: dict[Any, str]) -> list[Any]:
    """One strict xfail per entry of a ``KNOWN_*`` table, named after the modules concerned."""
    params = []
    for entry, reason in table.items():
        value = sorted(entry) if isinstance(entry, frozenset) else entry
        name = (
            "+".join(m.removeprefix("perfproof.") for m in value)
            if isinstance(entry, frozenset)
            else entry
        )
        params.append(
            pytest.param(value, marks=pytest.mark.xfail(strict=True, reason=reason), id=name)
        )
    return params


def _in(rel: str, folder: str) -> bool:
    return rel.startswith(folder)


# ----------------------------------------------------------------------------------- sizes


def oversize() -> dict[str, int]:
    return {m.rel: m.lines for m in modules().values() if m.lines > MAX_LINES}


def test_the_scan_sees_the_package() -> None:
    mods = modules()
    assert len(mods) > 100
    assert "perfproof.stats.ratio" in mods and "perfproof.cli" in mods
    assert any(e.where == "function" for e in import_edges())
    assert any(e.where == "typing" for e in import_edges())


def test_no_module_over_the_limit() -> None:
    over = {rel: n for rel, n in oversize().items() if rel not in KNOWN_OVERSIZE}
    assert not over, f"modules over {MAX_LINES} lines (split them by job): {over}"


@pytest.mark.parametrize("rel", known(KNOWN_OVERSIZE))
def test_known_oversize_module_is_back_under_the_limit(rel: str) -> None:
    assert rel not in oversize()


# --------------------------------------------------------------------------------- imports


def test_no_import_cycles() -> None:
    """Module-level, function-level and ``TYPE_CHECKING`` imports all count: an import hidden
    in a function is still a circle, and a type import that points up the layers (a document
    naming a pipeline's result) is the first half of one."""
    new = [c for c in import_cycles() if frozenset(c) not in KNOWN_CYCLES]
    assert not new, "import cycles:\n" + "\n".join(describe_cycle(c) for c in new)


@pytest.mark.parametrize("members", known(KNOWN_CYCLES))
def test_known_cycle_is_gone(members: list[str]) -> None:
    assert members not in import_cycles(), describe_cycle(members)


def test_cycle_finder_on_a_known_graph() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"a", "e"}, "f": {"g"}}
    graph["g"] = {"f"}
    assert sorted(cycles_of(graph, sorted("abcdefg"))) == [["a", "b", "c"], ["f", "g"]]


def test_imports_hidden_in_functions_and_type_checking_are_seen() -> None:
    tree = ast.parse(
        "import os\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from perfproof.model import Verdict\n"
        "def f():\n    from perfproof.stats import ratio\n"
        "class C:\n    def g(self):\n        import perfproof.jmh.reader\n"
    )
    seen = {
        (n.module if isinstance(n, ast.ImportFrom) else n.names[0].name, where)
        for n, where in _imports(tree)
    }
    assert seen == {
        ("os", "module"),
        ("typing", "module"),
        ("perfproof.model", "typing"),
        ("perfproof.stats", "function"),
        ("perfproof.jmh.reader", "function"),
    }


def layer_breaks() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    mods = modules()
    for e in import_edges():
        source, target = e.source.split("."), e.target.split(".")
        if len(source) < 2 or len(target) < 2 or source[1] == target[1]:
            continue
        if TIER_OF.get(target[1], len(TIERS)) >= TIER_OF.get(source[1], -1):
            found[mods[e.source].rel].append(f"line {e.line} imports {e.target} ({e.where})")
    return dict(found)


def test_every_package_has_a_tier() -> None:
    tops = {m.name.split(".")[1] for m in modules().values() if "." in m.name}
    assert tops == set(TIER_OF), f"place these in TIERS: {sorted(tops ^ set(TIER_OF))}"


def test_data_flows_one_way() -> None:
    """No package imports one of its own tier or above (type-only imports included)."""
    wrong = {rel: why for rel, why in layer_breaks().items() if rel not in KNOWN_LAYER_BREAKS}
    assert not wrong, f"imports against the flow of data: {wrong}"


def test_measuring_never_imports_profiling() -> None:
    """Timing forks never carry a profiler: measure/ sits below profile/, so an import of
    profiling from measuring (the JFR options included) is a layer break, not a tier choice."""
    assert TIER_OF["measure"] < TIER_OF["profile"]
    edges = [e for e in import_edges() if e.source.startswith("perfproof.measure.")]
    assert edges, "the scan sees measure's imports"
    assert not [e for e in edges if e.target.startswith("perfproof.profile")]


@pytest.mark.parametrize("rel", known(KNOWN_LAYER_BREAKS))
def test_known_layer_break_is_gone(rel: str) -> None:
    assert rel not in layer_breaks()


# ------------------------------------------------------------------------------- the layout


def test_no_top_level_modules_that_moved_into_packages() -> None:
    present = [name for name in TOP_LEVEL_FORBIDDEN if (PACKAGE / name).exists()]
    assert not present, f"top-level modules that belong in a package: {present}"
    assert not list(PACKAGE.rglob("utils.py")), "no utils.py: name a module for what it does"


def verb_modules() -> list[str]:
    """The modules the group loads by name, one a verb (``VERBS`` in ``cli/__init__.py``)."""
    for stmt in modules()["perfproof.cli"].tree.body:
        if isinstance(stmt, ast.AnnAssign) and _dotted(stmt.target) == "VERBS":
            assert isinstance(stmt.value, ast.Dict)
            return [f"perfproof.cli.{ast.literal_eval(v)}" for v in stmt.value.values]
    raise AssertionError("cli/__init__.py names its verbs in VERBS")


def unserved(entries: Iterable[str]) -> list[str]:
    """The package's modules that nothing ``entries`` import (at any depth, a package's
    ``__init__`` with each module in it) loads."""
    graph: dict[str, set[str]] = defaultdict(set)
    for e in import_edges():
        graph[e.source].add(e.target)
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [*graph[name], *(".".join(parts[:i]) for i in range(1, len(parts)))]
    return sorted(m.rel for m in modules().values() if m.name not in seen)


def test_every_module_serves_a_verb() -> None:
    """What only the tests and perfproof's own benchmarks use (a simulator, a noise law for
    calibration, an accuracy measure) is not shipped: it lives in ``benchmarks/lab/``."""
    entries = ["perfproof.__main__", "perfproof.cli", *verb_modules()]
    assert len(entries) > 10, "the scan sees the verbs"
    assert not unserved(entries), (
        f"modules no verb loads (to benchmarks/lab/?): {unserved(entries)}"
    )


def test_the_served_rule_sees_a_module_no_verb_loads() -> None:
    # the leaf imports nothing of the package: all but it and the package's own __init__
    left = unserved(["perfproof.units.numbers"])
    assert "stats/welch.py" in left and "units/numbers.py" not in left and "__init__.py" not in left


def test_each_concept_is_defined_once() -> None:
    """In one module (an overloaded function's signatures are one definition)."""
    where: dict[str, list[str]] = defaultdict(list)
    for m in modules().values():
        for name, line in _definitions(m.tree):
            if name in DEFINED_ONCE:
                where[name].append(f"{m.rel}:{line}")
    wrong = {
        name: where.get(name, [])
        for name, home in DEFINED_ONCE.items()
        if list(dict.fromkeys(w.partition(":")[0] for w in where.get(name, []))) != [home]
    }
    assert not wrong, f"expected each defined once, in its home module: {wrong}"


def test_jmh_text_formats_are_read_in_jmh_only() -> None:
    """A string constant naming a field of JMH's JSON or a line of its listing or console log,
    outside ``jmh/``, is a second reader of that format (the listing was once parsed three
    times, the JSON's metrics walked in three modules)."""
    wrong = [
        f"{m.rel}:{node.lineno} {node.value!r}"
        for m in modules().values()
        if not m.rel.startswith("jmh/")
        for node in ast.walk(m.tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (
            node.value in JMH_JSON_FIELDS
            or any(marker in node.value for marker in JMH_FORMAT_MARKERS)
        )
        and not _is_docstring(m.tree, node)
    ]
    assert not wrong, f"JMH's text formats read outside jmh/: {wrong}"


def _is_docstring(tree: ast.Module, node: ast.Constant) -> bool:
    return any(
        isinstance(d, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Module)
        and d.body
        and isinstance(d.body[0], ast.Expr)
        and d.body[0].value is node
        for d in ast.walk(tree)
    )


def test_methods_are_compared_as_the_enum() -> None:
    """``c.method == "exact"`` runs with any spelling; ``ComparisonMethod.EXACT`` does not."""
    wrong = [
        f"{m.rel}:{node.lineno}"
        for m in modules().values()
        for node in ast.walk(m.tree)
        if isinstance(node, ast.Compare)
        and any(_dotted(s).endswith(".method") for s in [node.left, *node.comparators])
        and any(
            isinstance(s, ast.Constant) and isinstance(s.value, str)
            for s in [node.left, *node.comparators]
        )
    ]
    assert not wrong, f"a comparison's method compared with a string: {wrong}"


METHOD_HOMES = ("stats/", "model/")
"""Where a comparison method may be told apart by name: its own registry and its enum."""
METHOD_INSTANCES = frozenset({"EXACT", "ITERATION_LEVEL", "WELCH_FORKS", "FORK_RANKS", "DEFAULT"})


def method_identity_tests(mods: Iterable[Module] | None = None) -> list[str]:
    """Comparisons (``is``, ``==``, ``in``) with a member of ``ComparisonMethod`` or with a
    registered method, outside ``stats/`` and ``model/``: a layer above asks the method
    (:mod:`perfproof.stats.methods`) what it needs, never which method it is."""
    found = []
    for m in modules().values() if mods is None else mods:
        if m.rel.startswith(METHOD_HOMES):
            continue
        for node in ast.walk(m.tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for side in [
                e
                for s in sides
                for e in (s.elts if isinstance(s, ast.Tuple | ast.List | ast.Set) else [s])
            ]:
                name = _dotted(side)
                head, _, last = name.rpartition(".")
                if head.endswith("ComparisonMethod") or (head and last in METHOD_INSTANCES):
                    found.append(f"{m.rel}:{node.lineno} {name}")
    return found


def test_no_method_identity_branch_outside_stats() -> None:
    assert not method_identity_tests(), f"a method told apart by name: {method_identity_tests()}"


def test_the_method_rule_sees_what_it_forbids() -> None:
    bad = Module(
        "perfproof.render.x", "render/x.py", Path("x.py"),
        ast.parse("a = c.method is ComparisonMethod.EXACT\nb = p.strategy is methods.EXACT\n"
                  "d = m in (ComparisonMethod.FORK_LEVEL,)\ne = methods.of(c.method).plain\n"),
        4,
    )  # fmt: skip
    assert method_identity_tests([bad]) == [
        "render/x.py:1 ComparisonMethod.EXACT",
        "render/x.py:2 methods.EXACT",
        "render/x.py:3 ComparisonMethod.FORK_LEVEL",
    ]


FORMAT_NAMES = frozenset({"fmt", "format", "output", "to"})
"""What a verb's chosen output format is called; past the door it is a ``Format`` (or an
``ExportFormat``), never its spelling."""

OPTION_NAMES = FORMAT_NAMES | {"executor", "order", "explain", "family"}
"""Closed choices of the verbs whose values are enums from the door on (``Executor``,
``Order``, ``Explain``, ``Family`` beside the formats): compared with a member, never a word."""

SPELLING_HOMES = ("model/documents/",)
"""Where an option's word may be compared: a document's field holds the file's spelling."""

KNOWN_OPTION_SPELLINGS: dict[str, str] = {}


def format_string_compares(
    mods: Iterable[Module] | None = None, names: frozenset[str] = FORMAT_NAMES
) -> list[str]:
    """``fmt == "json"``, ``output != "text"``, ``fmt in ("md", "html")``: an output format
    (or, with ``names``, any closed option) compared with its spelling (a typo runs as the
    other branch)."""

    def strings(node: ast.expr) -> bool:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(strings(e) for e in node.elts)
        return isinstance(node, ast.Constant) and isinstance(node.value, str)

    found = []
    for m in modules().values() if mods is None else mods:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                named = any(_dotted(x).rpartition(".")[2] in names for x in sides)
                if named and any(strings(x) for x in sides):
                    found.append(f"{m.rel}:{node.lineno}")
    return found


def test_formats_are_compared_as_the_enum() -> None:
    assert not format_string_compares(), (
        f"a format compared by its spelling: {format_string_compares()}"
    )


def option_spellings() -> list[str]:
    mods = [m for m in modules().values() if not m.rel.startswith(SPELLING_HOMES)]
    return format_string_compares(mods, OPTION_NAMES)


def test_closed_options_are_compared_as_their_enum() -> None:
    found = [f for f in option_spellings() if f.partition(":")[0] not in KNOWN_OPTION_SPELLINGS]
    assert not found, f"an option compared by its spelling: {found}"


@pytest.mark.parametrize("rel", known(KNOWN_OPTION_SPELLINGS))
def test_known_option_spelling_is_gone(rel: str) -> None:
    assert rel not in {f.partition(":")[0] for f in option_spellings()}


def test_the_format_rule_sees_what_it_forbids() -> None:
    bad = Module(
        "perfproof.cli.x", "cli/x.py", Path("x.py"),
        ast.parse("a = fmt == 'json'\nb = req.fmt in ('md', 'html')\nc = fmt is Format.JSON\n"
                  "d = opts.executor != 'ray'\ne = opts.order == Order.RANDOM\n"),
        5,
    )  # fmt: skip
    assert format_string_compares([bad]) == ["cli/x.py:1", "cli/x.py:2"]
    assert format_string_compares([bad], OPTION_NAMES) == ["cli/x.py:1", "cli/x.py:2", "cli/x.py:4"]


CLI_TYPE_TEST_HOMES = {
    "cli/config.py": "reads perfproof.toml, whose values may be of any TOML type",
    "cli/__init__.py": "the crash handler tells usage errors and missing extras apart",
}
"""Modules of cli/ that may test a value's type outside a click type's ``convert``."""

CLI_TYPE_TEST_FUNCTIONS = {"convert", "emit_json"}
"""Functions of cli/ that may: a click type turning a flag's text into its value (once), and
the one JSON printer (a document or its dict)."""

KNOWN_CLI_TYPE_TESTS: dict[str, str] = {}


def cli_type_tests(mods: Iterable[Module] | None = None) -> dict[str, list[int]]:
    """``isinstance`` in cli/ outside a click type's ``convert``: a verb's builder that tests
    the type of a parsed flag, where the flag's click type should have made it what it is
    (each verb fills its typed options with ``fill()``, one builder per verb)."""
    found: dict[str, list[int]] = {}
    for m in modules().values() if mods is None else mods:
        if not _in(m.rel, "cli/") or m.rel in CLI_TYPE_TEST_HOMES:
            continue
        allowed: set[int] = set()
        for node in ast.walk(m.tree):
            if isinstance(node, ast.FunctionDef) and node.name in CLI_TYPE_TEST_FUNCTIONS:
                allowed |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(m.tree):
            if (
                isinstance(node, ast.Call)
                and _dotted(node.func) == "isinstance"
                and id(node) not in allowed
            ):
                found.setdefault(m.rel, []).append(node.lineno)
    return found


def test_the_door_types_flags_once() -> None:
    """A verb's options are typed by its flags' click types and filled by ``fill()``; the
    builder reads them as they are."""
    found = cli_type_tests()
    for rel in KNOWN_CLI_TYPE_TESTS:
        found.pop(rel, None)
    assert not found, f"a parsed flag's type tested past its click type: {found}"


@pytest.mark.parametrize("rel", known(KNOWN_CLI_TYPE_TESTS))
def test_known_cli_type_test_is_gone(rel: str) -> None:
    assert rel not in cli_type_tests()


def test_the_door_rule_sees_what_it_forbids() -> None:
    code = (
        "class T(click.ParamType):\n    def convert(self, v, p, c):\n"
        "        return v if isinstance(v, float) else float(v)\n"
        "def build(p):\n    return p['db'] if isinstance(p['db'], str) else None\n"
    )
    bad = Module("perfproof.cli.x", "cli/x.py", Path("x.py"), ast.parse(code), 5)
    home = Module("perfproof.cli.config", "cli/config.py", Path("x.py"), ast.parse(code), 5)
    assert cli_type_tests([bad, home]) == {"cli/x.py": [5]}


def test_one_builder_fills_the_run_options() -> None:
    """``AbOptions`` (and the ``BuildSpec`` inside) are made at the door by ``fill()`` in
    one builder each, never field by field in a verb: a flag added to a group reaches every
    verb that runs an A/B."""
    made = []
    for m in modules().values():
        if not _in(m.rel, "cli/"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call) and _dotted(node.func) in ("AbOptions", "BuildSpec"):
                made.append(f"{m.rel}:{node.lineno}")
    assert not made, f"run options built by hand at the door: {made}"


def test_the_manifest_is_read_through_its_fields() -> None:
    """``manifest["plan"]`` or ``manifest.get("plan")`` outside the manifest's type is the
    untyped plumbing that let a hand edit (or a bug) surface as a KeyError anywhere."""
    wrong = [
        f"{m.rel}:{node.lineno}"
        for m in modules().values()
        if m.rel != "model/documents/run.py"
        for node in ast.walk(m.tree)
        if (isinstance(node, ast.Subscript) and _dotted(node.value).endswith("manifest"))
        or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "setdefault", "pop", "update")
            and _dotted(node.func.value).endswith("manifest")
        )
    ]
    assert not wrong, f"the manifest read by string keys, not its fields: {wrong}"


def test_retired_copies_stay_gone() -> None:
    back = [
        f"{m.rel}:{line} {name} (use {RETIRED[name]})"
        for m in modules().values()
        for name, line in _definitions(m.tree)
        if name in RETIRED
    ]
    assert not back, f"a merged concept defined again: {back}"


def test_the_number_formatter_is_the_only_one() -> None:
    """No other module defines a top-level function named like a ``units/`` or
    ``render/markdown.py`` one."""
    mods = {m.rel: m for m in modules().values()}
    entry = {
        n
        for m in mods.values()
        if m.rel.startswith(FORMATTER)
        for n, _ in _top_level_functions(m.tree)
        if not n.startswith("_")
    }
    assert {"quantity", "percent", "markdown_table", "md_cell", "duration"} <= entry
    again = [
        f"{m.rel}:{line} {name}"
        for m in mods.values()
        if not m.rel.startswith(FORMATTER)
        for name, line in _top_level_functions(m.tree)
        if name in entry
    ]
    assert not again, f"a second definition of a formatter entry point: {again}"


def test_units_is_a_leaf() -> None:
    """``units/`` spells numbers for every floor of the house, so it imports nothing of it."""
    wrong = [
        f"{modules()[e.source].rel}:{e.line} imports {e.target}"
        for e in import_edges()
        if e.source.startswith("perfproof.units") and not e.target.startswith("perfproof.units")
    ]
    assert not wrong, f"units/ imports perfproof: {wrong}"


def _env_reads(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """``os.environ.get("X")``, ``os.getenv("X")``, ``os.environ["X"]``, ``"X" in os.environ``."""
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = _dotted(node.func)
            if func.endswith(("environ.get", "getenv")):
                name = node.args[0].value
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            if _dotted(node.value).endswith("environ") and isinstance(node.slice, ast.Constant):
                name = node.slice.value
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Constant)
            and any(_dotted(c).endswith("environ") for c in node.comparators)
        ):
            name = node.left.value
        if isinstance(name, str):
            yield name, node.lineno


def test_only_env_reads_the_cache_folder_and_java_home() -> None:
    wrong = [
        f"{m.rel}:{line} reads ${name}"
        for m in modules().values()
        for name, line in _env_reads(m.tree)
        if name in ENV_READERS and m.rel != ENV_READERS[name]
    ]
    assert not wrong, f"use env.cache.cache_root / env.java.find_java instead: {wrong}"


def test_only_env_java_looks_java_up_on_path() -> None:
    wrong = [
        f"{m.rel}:{node.lineno}"
        for m in modules().values()
        if m.rel != "env/java.py"
        for node in ast.walk(m.tree)
        if isinstance(node, ast.Call)
        and _dotted(node.func).endswith("which")
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in ("java", "javac", "jfr")
    ]
    assert not wrong, f"java looked up outside env/java.py (use find_java): {wrong}"


def loose_json_writers() -> dict[str, list[int]]:
    """``json.dump(s)`` calls outside the strict homes that do not pass ``allow_nan=False``."""
    found: dict[str, list[int]] = defaultdict(list)
    for m in modules().values():
        if m.rel.startswith(JSON_STRICT_HOMES):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call) and _dotted(node.func) in ("json.dumps", "json.dump"):
                strict = any(
                    k.arg == "allow_nan"
                    and isinstance(k.value, ast.Constant)
                    and k.value.value is False
                    for k in node.keywords
                )
                if not strict:
                    found[m.rel].append(node.lineno)
    return dict(found)


def test_json_is_written_strictly() -> None:
    """Documents go through ``model.documents.dumps``/``storage``; any other ``json.dumps``
    (a key, a digest, a database cell) refuses NaN rather than writing non-standard JSON."""
    wrong = {
        rel: lines for rel, lines in loose_json_writers().items() if rel not in KNOWN_LOOSE_JSON
    }
    assert not wrong, f"json.dumps without allow_nan=False: {wrong}"


@pytest.mark.parametrize("rel", known(KNOWN_LOOSE_JSON))
def test_known_loose_json_writer_is_strict(rel: str) -> None:
    assert rel not in loose_json_writers()


DOCUMENT_HOMES = ("model/documents/", "jmh/")
"""Where a document is parsed from JSON (perfproof's through the codec, JMH's in its reader)
and typed: nowhere else holds a ``TypedDict`` or calls ``json.loads``/``json.load``."""

FOREIGN_JSON = {"measure/metrics.py": "a user command's stdout, any JSON it prints"}
"""Where JSON that is no document is parsed, and what it is."""


def hand_read_documents(mods: Iterable[Module] | None = None) -> list[str]:
    """A ``TypedDict`` (a document's shape typed beside the codec) or a ``json.loads`` /
    ``json.load`` (a document read by hand, its fields then picked with ``.get``) outside the
    homes of documents."""
    found = []
    for m in modules().values() if mods is None else mods:
        if m.rel.startswith(DOCUMENT_HOMES):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ClassDef) and any(
                _dotted(b).rpartition(".")[2] == "TypedDict" for b in node.bases
            ):
                found.append(f"{m.rel}:{node.lineno} TypedDict {node.name}")
            elif (
                isinstance(node, ast.Call) and _dotted(node.func).rpartition(".")[2] == "TypedDict"
            ):
                found.append(f"{m.rel}:{node.lineno} TypedDict")
            elif (
                isinstance(node, ast.Call)
                and _dotted(node.func) in ("json.loads", "json.load")
                and m.rel not in FOREIGN_JSON
            ):
                found.append(f"{m.rel}:{node.lineno} {_dotted(node.func)}")
    return found


MODEL_BASES = frozenset({"BaseModel", "Document", "Kept", "RootModel"})
"""The codec's bases: a class built on one of them (or on a model of ``model/documents/``)
is a document's shape."""


def models_outside_documents(mods: Iterable[Module] | None = None) -> list[str]:
    """A codec model (a ``Document``, ``Kept`` or pydantic ``BaseModel``, or a subclass of
    a model defined in ``model/documents/``) defined anywhere but ``model/documents/``."""
    every = list(modules().values() if mods is None else mods)
    homes = [m for m in every if m.rel.startswith("model/documents/")]
    classes = [n for m in homes for n in ast.walk(m.tree) if isinstance(n, ast.ClassDef)]
    bases, grown = set(MODEL_BASES), True
    while grown:  # the models of model/documents/, each built on the codec's bases or another
        more = {
            c.name for c in classes if any(_dotted(b).rpartition(".")[2] in bases for b in c.bases)
        }
        grown, bases = not more <= bases, bases | more
    found = []
    for m in every:
        if m.rel.startswith("model/documents/"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ClassDef) and any(
                _dotted(b).rpartition(".")[2] in bases for b in node.bases
            ):
                found.append(f"{m.rel}:{node.lineno} {node.name}")
    return found


def test_every_document_model_lives_in_model_documents() -> None:
    assert not models_outside_documents(), (
        f"a document model outside model/documents/: {models_outside_documents()}"
    )


def test_the_model_rule_sees_what_it_forbids() -> None:
    home = Module(
        "perfproof.model.documents.x", "model/documents/x.py", Path("x.py"),
        ast.parse("class Block(Document):\n    a: int\n"), 2,
    )  # fmt: skip
    code = (
        "class A(Document):\n    x: int\nclass B(codec.Kept):\n    y: int\n"
        "class C(Block):\n    z: int\nclass D:\n    w: int\n"
    )
    bad = Module("perfproof.history.x", "history/x.py", Path("x.py"), ast.parse(code), 8)
    assert models_outside_documents([home, bad]) == [
        "history/x.py:1 A",
        "history/x.py:3 B",
        "history/x.py:5 C",
    ]


def entries_added_to_documents(mods: Iterable[Module] | None = None) -> list[str]:
    """``{**doc.dump(), "settings": ...}`` or ``{**guard_document(g), ...}`` at the door: an
    entry put beside a document's own after it was written, so the printed JSON is no longer
    the document's type (the settings block is a field of the verb's model)."""

    def written(node: ast.expr) -> bool:
        name = _dotted(node.func).rpartition(".")[2] if isinstance(node, ast.Call) else ""
        return name == "dump" or name.endswith("_document")

    found = []
    for m in modules().values() if mods is None else mods:
        if not _in(m.rel, "cli/"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Dict) and any(
                k is None and written(v) for k, v in zip(node.keys, node.values, strict=True)
            ):
                found.append(f"{m.rel}:{node.lineno}")
    return found


def test_a_verb_prints_its_document_whole() -> None:
    """``settings`` (and any entry a verb prints) is a field of the verb's model."""
    added = entries_added_to_documents()
    assert added == [], f"entries added to a document's JSON: {added}"


def test_the_added_entry_rule_sees_what_it_forbids() -> None:
    code = (
        "a = {**doc.dump(), 'settings': s}\nb = {**base, 'x': 1}\nc = doc.with_settings(s)\n"
        "d = {**guard_document(g), 'settings': s}\n"
    )
    bad = Module("perfproof.cli.x", "cli/x.py", Path("x.py"), ast.parse(code), 4)
    assert entries_added_to_documents([bad]) == ["cli/x.py:1", "cli/x.py:4"]


def test_documents_are_read_and_typed_by_the_codec() -> None:
    assert not hand_read_documents(), (
        f"a document typed or parsed outside model/documents/ and jmh/: {hand_read_documents()}"
    )


def test_the_document_rule_sees_what_it_forbids() -> None:
    code = (
        "class A(TypedDict):\n    x: int\n"
        "B = typing.TypedDict('B', {'class': str})\n"
        "c = json.loads(text)\n"
        "d = loads_strict(text, 'f')\n"
    )
    bad = Module("perfproof.audit.x", "audit/x.py", Path("x.py"), ast.parse(code), 5)
    home = Module("perfproof.jmh.x", "jmh/x.py", Path("x.py"), ast.parse(code), 5)
    assert hand_read_documents([bad, home]) == [
        "audit/x.py:1 TypedDict A",
        "audit/x.py:3 TypedDict",
        "audit/x.py:4 json.loads",
    ]


# ------------------------------------------------------------------------- stats/ and cli/


def stats_io() -> list[str]:
    found = []
    for m in modules().values():
        if not _in(m.rel, "stats/"):
            continue
        for node in ast.walk(m.tree):
            what = None
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name) and node.func.id in STATS_IO_CALLS:
                    what = node.func.id
                elif isinstance(node.func, ast.Attribute) and node.func.attr in STATS_IO_METHODS:
                    what = node.func.attr
            elif isinstance(node, ast.Import):
                hits = [a.name for a in node.names if a.name.split(".")[0] in STATS_IO_MODULES]
                what = hits[0] if hits else None
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.split(".")[0] in STATS_IO_MODULES
            ):
                what = node.module
            if what is not None and (m.rel, what) not in STATS_ALLOWED_IO:
                found.append(f"{m.rel}:{node.lineno} {what}")
    return found


def test_stats_never_does_io() -> None:
    assert not stats_io(), f"I/O in stats/ (pass the data in instead): {stats_io()}"


def test_cli_holds_no_statistics() -> None:
    wrong = [
        f"{m.rel}:{node.lineno}"
        for m in modules().values()
        if _in(m.rel, "cli/")
        for node, _ in _imports(m.tree)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
        if name.split(".")[0] in CLI_FORBIDDEN_IMPORTS
    ]
    assert not wrong, f"numpy/scipy imported in cli/ (compute below the CLI): {wrong}"


def test_the_confidence_range_is_checked_in_one_place() -> None:
    """A comparison of a ``confidence`` value with a number, outside the one rule, is a second
    copy of the range check (the five copies with two ranges this test replaced)."""

    def names_confidence(node: ast.expr) -> bool:
        return "confidence" in _dotted(node).lower()

    wrong = []
    for m in modules().values():
        if m.rel in CONFIDENCE_RULE_HOMES:
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(names_confidence(s) for s in sides) and any(
                    isinstance(s, ast.Constant) and isinstance(s.value, int | float) for s in sides
                ):
                    wrong.append(f"{m.rel}:{node.lineno}")
    assert not wrong, f"confidence range checked outside stats/verdict.py: {wrong}"


PIPELINE_ROOMS = ("ab", "prove", "hunt", "e2e", "guard", "merge")
PIPELINE_SHARED = frozenset({"__init__.py", "cluster.py", "lifecycle.py", "looks.py"})
"""What two or more verbs share, beside the verbs' own rooms in ``pipeline/``."""
PIPELINE_SHARED_ROOMS = ("reach",)
"""Shared packages of ``pipeline/`` (change reach), beside the verbs' rooms."""
PIPELINE_ORDER: tuple[frozenset[str], ...] = (
    frozenset({"lifecycle", "reach"}),  # how an attempt starts and ends; change reach
    frozenset({"merge"}),  # shards → one run: what the cluster's parts come back as
    frozenset({"cluster", "looks"}),  # the Ray executor; the sequential looks of the rounds
    frozenset({"ab"}),  # the A/B every measuring verb runs
    frozenset({"guard", "e2e", "hunt"}),  # verbs on the A/B
    frozenset({"prove"}),  # the chain of them all
)
"""``pipeline/`` from the ground up, as its package names (a shared module, or a verb's room):
an import inside ``pipeline/`` goes from a unit to one below it, never across or up."""


def _unit(name: str) -> str:
    """``perfproof.pipeline.ab.run`` → ``ab``; ``perfproof.pipeline.looks`` → ``looks``."""
    return name.split(".")[2]


def pipeline_arrows_up() -> list[str]:
    """Imports between units of ``pipeline/`` against :data:`PIPELINE_ORDER`."""
    rank = {u: i for i, tier in enumerate(PIPELINE_ORDER) for u in tier}
    found = []
    for e in import_edges():
        if not (
            e.source.startswith("perfproof.pipeline.")
            and e.target.startswith("perfproof.pipeline.")
        ):
            continue
        source, target = _unit(e.source), _unit(e.target)
        if source != target and rank.get(target, len(rank)) >= rank.get(source, -1):
            found.append(f"{modules()[e.source].rel}:{e.line} imports {e.target}")
    return found


def test_every_pipeline_unit_has_its_place() -> None:
    units = {_unit(m.name) for m in modules().values() if m.name.startswith("perfproof.pipeline.")}
    placed = {u for tier in PIPELINE_ORDER for u in tier}
    assert units == placed, f"place these in PIPELINE_ORDER: {sorted(units ^ placed)}"


def test_no_arrow_back_up_inside_pipeline() -> None:
    """``ab/reach.py`` once took the change's reach from ``prove/``, and the recorded reach
    its shares: what two verbs need sits below both (``reach/``), never in one of them."""
    assert not pipeline_arrows_up(), f"imports against pipeline's order: {pipeline_arrows_up()}"


# ------------------------------------------------------------------------- render/

RENDER_WRITES = frozenset(
    {"write_text", "write_bytes", "write_text_atomic", "write_json_atomic", "mkdir", "touch"}
)
"""What writing a file looks like; renderers return text and the pipeline writes it."""

PAGE_MARKERS = ("<svg", "<h", "<table", "^#", "#{")
"""Regular expressions with these in them take a rendered page (HTML or Markdown) apart."""

KNOWN_PAGE_READERS: dict[str, str] = {}


def render_writes(mods: Iterable[Module] | None = None) -> list[str]:
    found = []
    for m in modules().values() if mods is None else mods:
        if not _in(m.rel, "render/"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call):
                name = _dotted(node.func).rsplit(".", 1)[-1]
                writing_open = name == "open" and any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) and "w" in a.value
                    for a in (*node.args[1:], *(k.value for k in node.keywords if k.arg == "mode"))
                )
                if name in RENDER_WRITES or writing_open:
                    found.append(f"{m.rel}:{node.lineno} {name}")
            elif isinstance(node, ast.ImportFrom) and node.module == "perfproof.storage":
                found.append(f"{m.rel}:{node.lineno} perfproof.storage")
    return found


def page_readers(mods: Iterable[Module] | None = None) -> dict[str, list[int]]:
    """Modules of render/ that take a rendered page apart: a regular expression over HTML tags
    or Markdown headings, or a Markdown section splitter."""
    found: dict[str, list[int]] = defaultdict(list)
    for m in modules().values() if mods is None else mods:
        if not _in(m.rel, "render/"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Call) and _dotted(node.func).startswith("re."):
                patterns = [a.value for a in node.args[:1] if isinstance(a, ast.Constant)]
                if any(isinstance(p, str) and any(k in p for k in PAGE_MARKERS) for p in patterns):
                    found[m.rel].append(node.lineno)
            elif isinstance(node, ast.Name | ast.FunctionDef) and "split_sections" in (
                node.id if isinstance(node, ast.Name) else node.name
            ):
                found[m.rel].append(node.lineno)
    return {rel: sorted(lines) for rel, lines in found.items()}


def test_render_writes_no_file() -> None:
    """Renderers return text; the pipeline (or the CLI) decides where it goes."""
    assert not render_writes(), f"files written in render/: {render_writes()}"


def test_render_reads_no_page_it_rendered() -> None:
    """A section of one report shown in another is rendered from the typed result both are
    drawn from, never cut out of the other report's Markdown or HTML."""
    wrong = {rel: lines for rel, lines in page_readers().items() if rel not in KNOWN_PAGE_READERS}
    assert not wrong, f"rendered pages taken apart in render/: {wrong}"


@pytest.mark.parametrize("rel", known(KNOWN_PAGE_READERS))
def test_known_page_reader_is_gone(rel: str) -> None:
    assert rel not in page_readers()


def test_the_render_rules_see_what_they_forbid() -> None:
    def module(text: str) -> Module:
        return Module("perfproof.render.x", "render/x.py", Path("x.py"), ast.parse(text), 1)

    bad = module(
        "import re\nfrom perfproof.storage import write_text_atomic\n"
        "_SVG = re.compile(r'<svg.*?</svg>')\nopen(p, 'w')\np.write_text('x')\n"
        "def split_sections(md):\n    return split_sections(md)\n"
    )
    assert render_writes([bad]) == [
        "render/x.py:2 perfproof.storage",
        "render/x.py:4 open",
        "render/x.py:5 write_text",
    ]
    assert page_readers([bad]) == {"render/x.py": [3, 6, 7]}
    fine = module("import re\n_N = re.compile(r'\\d+')\nopen(p)\nopen(p, 'rb')\n")
    assert render_writes([fine]) == [] and page_readers([fine]) == {}

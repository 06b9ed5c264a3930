"""Which files of a Gradle build decide what it resolves, and whether a change between two
commits touches anything the build of the benchmark project reads.

Gradle's counterpart of :mod:`.reactor`, and as conservative: when a build script could read a
file perfproof cannot see it read, the answer is "build". The build files are every
``*.gradle``/``*.gradle.kts`` script, ``gradle.properties``, the wrapper (``gradlew``,
``gradle/``), ``buildSrc/``, the included builds settings names and ``lombok.config``; a change
to any of them means no reuse. The projects are the folders settings ``include``s (plus the
root); the build of a project reads its own folder and the projects its script names with a
literal Gradle path (``project(':core')``, ``':core:jar'``), followed through their scripts; the
root script and every script that is no project's own build script (script and convention
plugins) count for every project, since they may configure any. A changed file outside those
projects still blocks when a build script names its top folder or its file name
(``from 'LICENSE'``, ``srcDir "$rootDir/shared"``), when an included project's script reaches
outside its folder (``..``, ``rootDir``, ``rootProject.file``), and, for the root project,
when it lies under ``src/``. Settings that compute project paths, a ``project(...)`` that is
not a literal or type-safe ``projects.`` accessors make the layout unknown: then every change
blocks.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from perfproof.workspace.build_reuse import changed_build_file

_SKIPPED_DIRS = frozenset({"build", "node_modules", "out"})
_BUILD_NAMES = frozenset({"gradle.properties", "gradlew", "gradlew.bat", "lombok.config"})
_BUILD_DIRS = frozenset({"gradle", "buildSrc"})
_SETTINGS = ("settings.gradle", "settings.gradle.kts")
_BUILD_SCRIPTS = ("build.gradle", "build.gradle.kts")
_STRING = r"""(?:'[^'\n]*'|"[^"\n]*")"""
_INCLUDE = re.compile(r"^\s*(include|includeBuild|includeFlat)\b[ \t(]*(.*)$", re.M)
_LITERALS_ONLY = re.compile(rf"^\s*{_STRING}(\s*,\s*{_STRING})*\s*\)?\s*(//.*)?$")
_UNKNOWN_SETTINGS = re.compile(r"projectDir|rootProject\s*\.\s*children|\beach\b|\bforEach\b")
_PROJECT_CALL = re.compile(r"(?i)project\s*\(")
_PROJECT_LITERAL = re.compile(
    r"""(?i)project\s*\(\s*(?:\)|path\s*\)|(?:path\s*[:=]\s*)?(['"]):[^'"$\n]*\1)"""
)
"""A literal Gradle path, or ``project()``/``project(path)``: the script's own project."""
_PATH_LITERAL = re.compile(r"""(['"])(:[\w.:-]*)\1""")
_UNKNOWN_SCRIPT = re.compile(
    r"\bprojects\s*\.\s*\w|\bchildProjects\b|\b(sub|all)projects\b(?!\s*[({])"
    r"|\bgetSubprojects\b|\bgetAllprojects\b"
)
_OUTSIDE = re.compile(
    r"\.\.[/\\]|\brootDir\b|\brootProject\b(?!\s*\.)"
    r"|\brootProject\s*\.\s*(file|files|fileTree|projectDir|layout|buildDir|zipTree|tarTree)\b"
    r"|\.\s*projectDir\b|\bparent\s*\."
)


def is_script(name: str) -> bool:
    """A Gradle script: a build script, settings, or a script plugin applied from one."""
    return name.endswith((".gradle", ".gradle.kts"))


def is_build_file(path: str) -> bool:
    """A file that changes how any project is built or what it resolves."""
    p = PurePosixPath(path)
    top = p.parts[0] if p.parts else ""
    return is_script(p.name) or p.name in _BUILD_NAMES or top in _BUILD_DIRS


def build_files(worktree: Path) -> list[Path]:
    """Every build file of the worktree (outside build outputs and hidden folders), and every
    file under ``gradle/``, ``buildSrc/`` and the included builds, in a stable order."""
    worktree = Path(worktree)
    included = {PurePosixPath(d) for d in _included_builds(worktree) or ()}
    found: list[Path] = []
    for folder, dirs, files in os.walk(worktree):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        rel = PurePosixPath(Path(folder).relative_to(worktree).as_posix())
        inside = rel.parts[:1] and (rel.parts[0] in _BUILD_DIRS or rel in included)
        for name in sorted(files):
            if inside or is_build_file((rel / name).as_posix()):
                found.append(Path(folder) / name)
    return found


def _settings_text(worktree: Path) -> str:
    return "".join(
        (worktree / n).read_text(encoding="utf-8", errors="replace")
        for n in _SETTINGS
        if (worktree / n).is_file()
    )


def _included_builds(worktree: Path) -> list[str] | None:
    """The folders ``includeBuild`` names (None: one is not a literal)."""
    out: list[str] = []
    for kind, rest in _INCLUDE.findall(_settings_text(worktree)):
        if kind != "includeBuild":
            continue
        if not _LITERALS_ONLY.match(rest):
            return None
        out += [PurePosixPath(s[1:-1]).as_posix() for s in re.findall(_STRING, rest)]
    return out


def project_folders(worktree: Path) -> set[PurePosixPath] | None:
    """The folders of the build's projects, the root included (None: settings compute them)."""
    text = _settings_text(Path(worktree))
    if _UNKNOWN_SETTINGS.search(text):
        return None
    folders = {PurePosixPath(".")}
    for kind, rest in _INCLUDE.findall(text):
        if kind == "includeFlat" or not _LITERALS_ONLY.match(rest):
            return None
        if kind == "include":
            for literal in re.findall(_STRING, rest):
                path = literal[1:-1].strip(":").replace(":", "/")
                if path:
                    folders.add(PurePosixPath(path))
    return folders


@dataclass(frozen=True)
class _Scripts:
    """The script text of every project folder, and every script of the build by path."""

    by_folder: dict[PurePosixPath, str]
    every: dict[PurePosixPath, str]

    def besides(self, unreached: set[PurePosixPath]) -> list[str]:
        """Every script but the own build scripts of projects the build does not reach (a
        project's script naming its own folder says nothing about the benchmark's build)."""
        return [
            text
            for path, text in self.every.items()
            if not (path.parent in unreached and path.name in _BUILD_SCRIPTS)
        ]


def _scripts(worktree: Path, folders: set[PurePosixPath]) -> _Scripts:
    by_folder = {}
    for folder in folders:
        texts = [
            (worktree / folder / n).read_text(encoding="utf-8", errors="replace")
            for n in _BUILD_SCRIPTS
            if (worktree / folder / n).is_file()
        ]
        by_folder[folder] = "\n".join(texts)
    every = {
        PurePosixPath(p.relative_to(worktree).as_posix()): p.read_text(
            encoding="utf-8", errors="replace"
        )
        for p in build_files(worktree)
        if is_script(p.name) and p.name not in _SETTINGS
    }
    return _Scripts(by_folder, every)


def _references(text: str) -> set[PurePosixPath] | None:
    """Every project folder a script may name: each prefix of every literal Gradle path
    (``project(':a:b')``, a task path ``':a:jar'``); None when a ``project(...)`` is not a
    literal or the script reaches projects by other means."""
    if _UNKNOWN_SCRIPT.search(text):
        return None
    if len(_PROJECT_LITERAL.findall(text)) != len(_PROJECT_CALL.findall(text)):
        return None
    refs = set()
    for _, path in _PATH_LITERAL.findall(text):
        parts = [p for p in path.split(":") if p]
        refs |= {
            PurePosixPath(*parts[:n]) if n else PurePosixPath(".") for n in range(len(parts) + 1)
        }
    return refs


def included(
    folders: set[PurePosixPath], scripts: _Scripts, module: PurePosixPath
) -> set[PurePosixPath] | None:
    """``module`` and every project it reaches by literal project references; the references
    of the root script and of every script that is no project's own build script (script and
    convention plugins, ``buildSrc``, included builds: any project may apply them) count for
    every project (None: a reference cannot be read)."""
    shared = [scripts.by_folder.get(PurePosixPath("."), "")]
    shared += [
        text
        for path, text in scripts.every.items()
        if not (path.parent in folders and path.name in _BUILD_SCRIPTS)
    ]
    root_refs: set[PurePosixPath] = set()
    for text in shared:
        refs = _references(text)
        if refs is None:
            return None
        root_refs |= refs
    seen = {module}
    todo = [module, *sorted(root_refs & folders)]
    seen |= root_refs & folders
    while todo:
        refs = _references(scripts.by_folder.get(todo.pop(), ""))
        if refs is None:
            return None
        for ref in sorted(refs):
            if ref in folders and ref not in seen:
                seen.add(ref)
                todo.append(ref)
    return seen


def _owner(path: str, folders: set[PurePosixPath]) -> PurePosixPath:
    parts = PurePosixPath(path).parts
    for n in range(len(parts) - 1, 0, -1):
        if PurePosixPath(*parts[:n]) in folders:
            return PurePosixPath(*parts[:n])
    return PurePosixPath(".")


def _named(path: str, texts: list[str]) -> str | None:
    """The top folder or file name of ``path`` when a script names it as a word (a Gradle
    path such as ``':simulator'`` names a project, which :func:`included` follows)."""
    p = PurePosixPath(path)
    for word in dict.fromkeys([p.parts[0], p.name]):
        pattern = re.compile(rf"(?<![\w.:-]){re.escape(word)}(?![\w-])")
        if any(pattern.search(t) for t in texts):
            return word
    return None


def blocking_change(worktree: Path, module: str | None, changed: list[str]) -> str | None:
    """Why the base's Gradle build of ``module`` (None: the root project) cannot serve a head
    that differs by ``changed`` files (None: it can). ``worktree`` is the base's checkout."""
    reason = changed_build_file(changed, is_build_file)
    if reason is not None or not changed:
        return reason
    worktree = Path(worktree)
    builds = _included_builds(worktree)
    folders = project_folders(worktree)
    if builds is None or folders is None:
        return "settings name projects or included builds perfproof cannot read"
    for path in changed:
        if any(PurePosixPath(path).is_relative_to(b) for b in builds):
            return f"build file {path} changed (an included build)"
    start = PurePosixPath(PurePosixPath(module.strip("/")).as_posix()) if module else None
    start = start or PurePosixPath(".")
    if start not in folders:
        return f"project {start} is not in the build's settings"
    scripts = _scripts(worktree, folders)
    reached = included(folders, scripts, start)
    if reached is None:
        return "a build script names a project perfproof cannot read"
    what = f"the build of {module or 'the root project'}"
    reaching = sorted(
        str(f) for f in reached | {PurePosixPath(".")} if _OUTSIDE.search(scripts.by_folder[f])
    )
    texts = scripts.besides(folders - reached - {PurePosixPath(".")})
    for path in changed:
        home = _owner(path, folders)
        if home in reached and (
            home != PurePosixPath(".") or PurePosixPath(path).parts[0] == "src"
        ):
            where = "the root project" if home == PurePosixPath(".") else f"project {home}"
            return f"{path} is in {where}, which {what} includes"
        word = _named(path, texts)
        if word is not None:
            return f"{path}: a build script names {word!r}"
        if reaching:
            return f"{path} may be read by {what}: the script of {reaching[0]} reaches outside it"
    return None

"""The Maven that builds a project: the one on PATH when it is new enough, else a release
fetched from Maven Central into perfproof's cache, as a wrapper would.

The distribution is resolved by Maven itself (``dependency:copy`` of
``org.apache.maven:apache-maven:<v>:tar.gz:bin``), so the user's ``settings.xml`` mirrors
and proxies apply and ``~/.m2`` keeps a copy; it is unpacked once under
``<cache>/maven/apache-maven-<v>/`` by a rename of a finished folder, so a crash never leaves a
half Maven that a later build would trust.
"""

from __future__ import annotations

import os
import re
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from perfproof.errors import ExternalError
from perfproof.process import Command, Watch, run
from perfproof.workspace.maven_need import MavenNeed, version_key

FETCHED_VERSION = "3.9.16"
"""The release fetched for a need the wrapper does not pin: the newest 3.9 known to resolve
from Maven Central and to run here."""

DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
_VERSION_LINE = re.compile(r"Apache Maven (\d[\w.\-]*)")


@dataclass(frozen=True)
class MavenChoice:
    """The program that runs the build and how a report names it."""

    program: str
    label: str
    note: str = ""
    """Said before the build: why this Maven and not the one on PATH."""


def program_version(program: str) -> str | None:
    """The version ``program -v`` prints (None when it does not run)."""
    found = shutil.which(program)
    return _version_of(os.path.realpath(found)) if found else None


@lru_cache(maxsize=16)
def _version_of(program: str) -> str | None:
    try:
        res = run(Command([program, "-v"], env={"MAVEN_OPTS": ""}), Watch(timeout=60.0))
    except (ExternalError, OSError):
        return None
    found = _VERSION_LINE.search(re.sub(r"\x1b\[[0-9;]*m", "", res.output))
    return found.group(1) if res.ok and found else None


def home_of(cache_dir: Path, version: str) -> Path:
    return Path(cache_dir) / "maven" / f"apache-maven-{version}"


def fetched(cache_dir: Path) -> list[str]:
    """Versions already unpacked in the cache, newest first."""
    folder = Path(cache_dir) / "maven"
    found = [
        p.name.removeprefix("apache-maven-")
        for p in folder.glob("apache-maven-*")
        if (p / "bin" / "mvn").is_file()
    ]
    return sorted(found, key=version_key, reverse=True)


def target_version(need: MavenNeed) -> str:
    """The release to fetch: the wrapper's pin, else :data:`FETCHED_VERSION` when the range
    allows it, else the range's lowest release."""
    if need.exact:
        return need.spec
    return FETCHED_VERSION if need.allows(FETCHED_VERSION) else need.minimum


def choose_maven(
    need: MavenNeed | None, program: str, cache_dir: Path, log_path: Path
) -> MavenChoice:
    """``program`` (``mvn`` on PATH) when it meets ``need``; else a fetched release that does
    (PATH's, saying so, when none can be fetched: a build that truly needs another Maven then
    fails with the plugin's own words and its hint)."""
    version = program_version(program)
    on_path = f"Apache Maven {version} ({program} on PATH)" if version else f"{program} on PATH"
    if need is None or version is None or need.allows(version):
        return MavenChoice(program, on_path)
    for have in fetched(cache_dir):
        if need.allows(have) and (not need.exact or have == need.spec):
            return MavenChoice(
                str(home_of(cache_dir, have) / "bin" / "mvn"),
                f"Apache Maven {have} (fetched from Maven Central into {home_of(cache_dir, have)})",
                note=f"{need.words()} and {program} on PATH is {version}: building with Maven "
                f"{have}, fetched earlier into {home_of(cache_dir, have)}",
            )
    want = target_version(need)
    try:
        home = fetch(want, cache_dir, program, log_path)
    except ExternalError as exc:  # no way to Maven Central: the build says whether it matters
        return MavenChoice(
            program,
            on_path,
            note=f"{need.words()} and {program} on PATH is {version}, but {exc}: building "
            f"with {program} on PATH",
        )
    return MavenChoice(
        str(home / "bin" / "mvn"),
        f"Apache Maven {want} (fetched from Maven Central into {home})",
        note=f"{need.words()} and {program} on PATH is {version}: fetched Maven {want} from "
        f"Maven Central into {home} and building with it",
    )


def fetch(version: str, cache_dir: Path, via: str, log_path: Path) -> Path:
    """Apache Maven ``version`` unpacked in the cache (resolved through ``via``); its home."""
    home = home_of(cache_dir, version)
    if (home / "bin" / "mvn").is_file():
        return home
    home.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".fetch-", dir=home.parent))
    try:
        argv = [
            via,
            "-B",
            "-ntp",
            f"{DEPENDENCY_PLUGIN}:copy",
            f"-Dartifact=org.apache.maven:apache-maven:{version}:tar.gz:bin",
            f"-DoutputDirectory={scratch}",
        ]
        what = f"fetching Apache Maven {version} from Maven Central"
        res = run(Command(argv, cwd=scratch), Watch(what=what, log=log_path, capture=False))
        archive = scratch / f"apache-maven-{version}-bin.tar.gz"
        if not res.ok or not archive.is_file():
            raise ExternalError(f"{what} failed (exit {res.returncode})", log_path)
        with tarfile.open(archive) as tf:
            tf.extractall(scratch / "unpacked", filter="data")
        unpacked = scratch / "unpacked" / f"apache-maven-{version}"
        if not (unpacked / "bin" / "mvn").is_file():
            raise ExternalError(f"{what}: the archive holds no bin/mvn", log_path)
        (unpacked / "bin" / "mvn").chmod(0o755)
        try:
            os.replace(unpacked, home)
        except OSError:
            if not (home / "bin" / "mvn").is_file():  # another run unpacked it first
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return home

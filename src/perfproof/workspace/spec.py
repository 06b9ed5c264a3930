"""How the user asked a commit to be built, and which build tool a checkout uses."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from perfproof.errors import InputError
from perfproof.model.documents.run import BuildSpecBlock
from perfproof.workspace.launcher import GRADLE, MAVEN


class BuildKind(StrEnum):
    """How a commit is built: detected, Maven, Gradle, or the user's own command."""

    AUTO = "auto"
    MAVEN = "maven"
    GRADLE = "gradle"
    CUSTOM = "custom"


KINDS = tuple(k.value for k in BuildKind)

LAUNCH_FIELDS = ("maven", "gradle", "keep_checks")
"""Settings of how a build is run that leave the jar as it is: kept out of the cache key."""


@dataclass(frozen=True)
class BuildSpec:
    """The build settings shared by both sides of a run (part of the build cache key): the one
    value every verb that builds (``ab``, ``prove``, ``guard``, ``hunt``) holds, checked when
    it is made, so a bad combination of build flags is refused at the door.

    ``module`` is a folder relative to the repository root (Maven ``-pl``, a Gradle project
    path written with slashes). ``build_cmd`` is the command as typed, split like a shell would
    (:meth:`command`) and run in the worktree root, never through a shell; it needs
    ``jar_glob`` and/or ``classpath_file`` (relative to the worktree) to say what it produced.
    ``java`` is the java executable, whose home becomes JAVA_HOME.
    ``build_args`` are added to the detected Maven or Gradle command (``-P examples``,
    ``-Dcheckstyle.skip``): a benchmark module that only exists in a profile, or a check that
    fails on a worktree, needs them, and a whole ``--build-cmd`` would lose perfproof's
    classpath handling.
    """

    kind: BuildKind = BuildKind.AUTO
    module: str | None = None
    build_cmd: str | None = None
    jar_glob: str | None = None
    classpath_file: str | None = None
    java: str | None = None
    build_args: tuple[str, ...] = ()
    maven: str = "auto"
    """How Maven is started: ``auto``, ``wrapper`` or ``mvn`` (see :mod:`.launcher`)."""
    gradle: str = "auto"
    """How Gradle is started: ``auto``, ``wrapper`` or ``gradle``."""
    keep_checks: bool = False
    """Run the checks perfproof skips by default (javadoc, checkstyle, enforcer, …)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InputError(f"--build {self.kind!r} is not one of {', '.join(KINDS[1:])}")
        if self.kind == "custom" and not self.build_cmd:
            raise InputError("--build custom needs --build-cmd")
        if self.build_cmd is not None and not self.command():
            raise InputError("--build-cmd is empty")
        if self.build_cmd and not (self.jar_glob or self.classpath_file):
            raise InputError("--build-cmd needs --jar GLOB or --classpath-file FILE")
        if not self.build_cmd and (self.jar_glob or self.classpath_file):
            flag = "--jar" if self.jar_glob else "--classpath-file"
            raise InputError(f"{flag} says what --build-cmd makes; give --build-cmd too")
        if self.build_args and (self.build_cmd or self.kind == "custom"):
            raise InputError(
                "--build-arg adds to the detected Maven or Gradle build; with --build-cmd, "
                "put the arguments in the command itself"
            )
        if any(not a.strip() for a in self.build_args):
            raise InputError("--build-arg is empty")
        if self.build_cmd and self.kind not in ("auto", "custom"):
            raise InputError(f"--build-cmd cannot be combined with --build {self.kind}")
        MAVEN.parse(self.maven)
        GRADLE.parse(self.gradle)
        if self.module is not None:
            parts = Path(self.module).parts
            if not self.module.strip() or Path(self.module).is_absolute() or ".." in parts:
                raise InputError(f"--module {self.module!r} must be a folder inside the repository")

    def command(self) -> list[str] | None:
        """``--build-cmd`` as the argv it runs (split like a shell would, never run by one)."""
        return split_build_cmd(self.build_cmd)

    def flags(self, jmh_args: str | None = None) -> list[str]:
        """The flags that build as this spec does, as every verb that builds spells them
        (module, command and what it makes, java, tool, its arguments and launcher);
        ``jmh_args``, the JMH options run on the build, in the place ``ab`` has always printed
        them, so a command line printed before reads the same."""
        argv: list[str] = []
        for flag, value in (
            ("--module", self.module),
            ("--build-cmd", self.build_cmd),
            ("--jar", self.jar_glob),
            ("--classpath-file", self.classpath_file),
            ("--jmh-args", jmh_args),
            ("--java", self.java),
        ):
            if value:
                argv += [flag, value]
        if self.kind != BuildKind.AUTO:
            argv += ["--build", str(self.kind)]
        argv += [f"--build-arg={arg}" for arg in self.build_args]
        for flag, launch in (("--maven", self.maven), ("--gradle", self.gradle)):
            if launch != "auto":
                argv += [flag, launch]
        if self.keep_checks:
            argv.append("--keep-checks")
        return argv

    def to_block(self) -> BuildSpecBlock:
        """The settings as the run manifest records them and the cache keys hash them.

        Not one type with the block, and the one conversion between them: the spec holds
        ``--build-cmd`` as typed (its flags repeat it so), the block the argv it is split into,
        which is what runs and what a cache key must hash; and the block leaves out the extra
        arguments and launch settings while they are at their defaults, so the cache keys of
        builds made before those settings existed stay the same (the rest is set even when
        empty, written as null). Nothing reads a spec back from the block: ``--resume`` takes
        the build settings from the manifest's options, as typed."""
        changed: dict[str, object] = (
            {"build_args": list(self.build_args)} if self.build_args else {}
        )
        changed |= {
            n: getattr(self, n) for n in LAUNCH_FIELDS if getattr(self, n) not in ("auto", False)
        }
        return BuildSpecBlock.model_validate(
            {
                "kind": str(self.kind),
                "module": self.module,
                "build_cmd": self.command(),
                "jar_glob": self.jar_glob,
                "classpath_file": self.classpath_file,
                "java": self.java,
                **changed,
            }
        )

    def key_doc(self) -> dict[str, object]:
        """:meth:`to_block` as JSON, every setting it holds: what the cache keys hash."""
        return self.to_block().model_dump(mode="json", exclude_unset=True)

    def fingerprint(self, kind: str) -> str:
        """Stable text of every setting that changes what gets built."""
        doc = {**self.key_doc(), "kind": kind}
        doc.pop("java")
        for name in LAUNCH_FIELDS:
            doc.pop(name, None)  # which program runs the build, not what it builds
        return json.dumps(doc, sort_keys=True, allow_nan=False)


def split_build_cmd(text: str | None) -> list[str] | None:
    """``--build-cmd`` split like a shell would (a quote left open is bad input, exit 2)."""
    if text is None:
        return None
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise InputError(f"--build-cmd: cannot split {text!r}: {exc}") from exc


def detect_build(worktree: Path, spec: BuildSpec | None = None) -> str:
    """``maven``, ``gradle`` or ``custom`` for this checkout and these settings.

    A pom.xml wins over Gradle files when both exist (``--build gradle`` overrides), because a
    repository carrying both usually builds its releases with Maven.
    """
    spec = spec or BuildSpec()
    if spec.kind != "auto":
        return spec.kind
    if spec.build_cmd:
        return "custom"
    root = Path(worktree)
    base = root / spec.module if spec.module else root
    if (base / "pom.xml").is_file() or (root / "pom.xml").is_file():
        return "maven"
    gradle_files = (
        "gradlew",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
    )
    if any((base / f).is_file() or (root / f).is_file() for f in gradle_files):
        return "gradle"
    raise InputError(
        f"cannot tell how to build {root}: no pom.xml, build.gradle or gradlew; "
        "pass --build-cmd with --jar or --classpath-file"
    )

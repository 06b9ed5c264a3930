"""Which Maven a project needs, read before the build and from a failed build's log.

A plugin built for Maven 3.9 refuses to load in 3.8 even when perfproof skips it
(``-Drat.skip`` still loads the plugin), so the build fails in seconds with "The plugin … requires
Maven version 3.9". The need is written in several places, each read here: the wrapper's
pinned distribution (``.mvn/wrapper/maven-wrapper.properties``), the pom's ``<prerequisites>``,
the enforcer's ``requireMavenVersion`` rule, and each plugin's own descriptor
(``<requiredMavenVersion>`` in the plugin jar's ``META-INF/maven/plugin.xml``) for the plugins
of the pom and its parents that the local repository already holds. What a fresh machine
cannot read before the first build, the failed build's log says.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from perfproof.workspace import pom as poms
from perfproof.workspace.build_errors import without_colours
from perfproof.workspace.launcher import MAVEN, distribution_url

_LOG_NEED = re.compile(
    r"The plugin ([\w.\-]+):([\w.\-]+):([\w.\-]+) requires Maven version ([\w.\-\[\](),]+)"
)
_DESCRIPTOR_NEED = re.compile(r"<requiredMavenVersion>\s*([^<\s]+)\s*</requiredMavenVersion>")
_WRAPPER_VERSION = re.compile(r"apache-maven-(\d[\w.\-]*?)-bin\.(zip|tar\.gz)$")


def version_key(version: str) -> tuple[int, ...]:
    """A release version as numbers to compare (``3.9`` == ``3.9.0``; qualifiers dropped)."""
    parts = [int(p) for p in re.findall(r"\d+", version.split("-")[0])[:4]]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


@dataclass(frozen=True)
class MavenNeed:
    """A range of Maven versions (Maven's range syntax, or a bare version meaning "at least")
    and what asks for it, in words."""

    spec: str
    source: str
    exact: bool = False
    """The wrapper pins this version: a Maven at least as new serves, and the one fetched is
    this one."""

    def bounds(self) -> tuple[tuple[int, ...], bool, tuple[int, ...] | None, bool]:
        """(lower, inclusive, upper or None, inclusive) of the range."""
        spec = self.spec.strip()
        if not spec.startswith(("[", "(")):
            low = version_key(spec)
            return (low, True, None, True)
        first, _, rest = spec.partition(",")
        upper_text = rest.split("],")[0].split("),")[0] if rest else first[1:]
        lower = version_key(first[1:]) if first[1:].strip() else ()
        upper_inclusive = upper_text.rstrip().endswith("]")
        upper_text = upper_text.strip().rstrip("])")
        upper = version_key(upper_text) if upper_text else None
        return (lower, first.startswith("["), upper, upper_inclusive)

    def allows(self, version: str) -> bool:
        v = version_key(version)
        low, low_in, high, high_in = self.bounds()
        if v < low or (v == low and not low_in):
            return False
        return high is None or v < high or (v == high and high_in)

    @property
    def minimum(self) -> str:
        """The lowest version the range allows, spelt with three numbers."""
        low = list(self.bounds()[0]) or [3]
        return ".".join(str(n) for n in [*low, 0, 0, 0][:3])

    def words(self) -> str:
        return f"{self.source} requires Maven {self.spec}"


def needed(worktree: Path, module: str | None = None) -> MavenNeed | None:
    """The strictest need the worktree's build files state (None: none found)."""
    found = [*wrapper_need(worktree), *pom_needs(worktree, module)]
    return strictest(found)


def strictest(found: list[MavenNeed]) -> MavenNeed | None:
    """The wrapper's pin when there is one, else the need with the highest lower bound."""
    pinned = [n for n in found if n.exact]
    if pinned:
        return pinned[0]
    return max(found, key=lambda n: n.bounds()[0], default=None)


def wrapper_need(worktree: Path) -> list[MavenNeed]:
    url = distribution_url(worktree / MAVEN.properties)
    found = _WRAPPER_VERSION.search(url or "")
    if found is None:
        return []
    return [MavenNeed(found.group(1), "the project's Maven wrapper", exact=True)]


def pom_needs(worktree: Path, module: str | None) -> list[MavenNeed]:
    """``<prerequisites>``, the enforcer's rule and the plugin descriptors of the chain of the
    module's pom (and the root's)."""
    out: list[MavenNeed] = []
    starts = dict.fromkeys([worktree / module / "pom.xml" if module else worktree / "pom.xml"])
    starts[worktree / "pom.xml"] = None
    for start in starts:
        chain = poms.chain(start)
        props = poms.properties(chain)
        for root in chain:
            for spec in poms.expand(poms.text(root, "prerequisites/maven"), props):
                if spec:
                    out.append(MavenNeed(spec, f"{poms.text(root, 'artifactId')}'s prerequisites"))
            for rule in root.iter("requireMavenVersion"):
                for spec in poms.expand(poms.text(rule, "version"), props):
                    if spec:
                        out.append(MavenNeed(spec, "the enforcer's requireMavenVersion rule"))
            for plugin in poms.plugins(root):
                for version in poms.expand(plugin.version, props) if plugin.version else ():
                    need = descriptor_need(plugin.group, plugin.artifact, version)
                    if need is not None:
                        out.append(need)
    return out


def descriptor_need(group: str, artifact: str, version: str) -> MavenNeed | None:
    """``<requiredMavenVersion>`` of a plugin the local repository holds."""
    jar = poms.repository_file(group, artifact, version, "jar")
    try:
        with zipfile.ZipFile(jar) as zf:
            descriptor = zf.read("META-INF/maven/plugin.xml").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    found = _DESCRIPTOR_NEED.search(descriptor)
    if found is None or "${" in found.group(1):
        return None
    return MavenNeed(found.group(1), f"{artifact} {version} (its plugin descriptor)")


def need_from_log(log_text: str) -> MavenNeed | None:
    """What a build that failed for its Maven's version names ("The plugin G:A:V requires
    Maven version X")."""
    found = _LOG_NEED.search(without_colours(log_text))
    if found is None:
        return None
    return MavenNeed(found.group(4), f"{found.group(2)} {found.group(3)}")

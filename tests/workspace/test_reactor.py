"""Which folders a ``-pl MODULE -am`` build reads, and when a change between two commits lets
the base's build serve the head (real pom files in a temp folder, as Maven would read them)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from perfproof.workspace import reactor

NS = 'xmlns="http://maven.apache.org/POM/4.0.0"'


def _pom(root: Path, folder: str, artifact: str, body: str = "") -> None:
    path = root / folder / "pom.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    parent = "" if folder == "." else "<parent><artifactId>parent</artifactId></parent>"
    path.write_text(f"<project {NS}>{parent}<artifactId>{artifact}</artifactId>{body}</project>")


def _dep(artifact: str) -> str:
    return (
        f"<dependencies><dependency><artifactId>{artifact}</artifactId></dependency></dependencies>"
    )


def _reactor(root: Path) -> Path:
    _pom(root, ".", "parent", "<properties><codec.id>lib-codec</codec.id></properties>")
    _pom(root, "core", "lib-core")
    _pom(root, "codec", "lib-codec", _dep("lib-core"))
    _pom(root, "native/epoll", "lib-epoll", _dep("lib-core"))
    _pom(root, "examples", "lib-examples", _dep("lib-epoll"))
    build = "<build><directory>x</directory></build>"
    _pom(root, "bench", "lib-bench", _dep("${codec.id}") + build)
    return root


def test_the_build_of_a_module_includes_what_it_names_transitively_and_the_parent(
    tmp_path: Path,
) -> None:
    poms = reactor.read_reactor(_reactor(tmp_path))
    assert poms is not None
    folders = reactor.included(poms, "bench")
    assert folders == {PurePosixPath(p) for p in (".", "bench", "codec", "core")}
    assert reactor.included(poms, "nowhere") is None


def test_a_change_outside_the_included_modules_lets_the_base_build_serve_the_head(
    tmp_path: Path,
) -> None:
    root = _reactor(tmp_path)
    free = ["native/epoll/src/main/java/Epoll.java", "examples/src/Main.java"]
    assert reactor.blocking_change(root, "bench", free) is None
    for changed, why in (
        (["codec/src/main/java/Codec.java"], "is in module codec, which the build of bench"),
        (["README.md"], "is in the root module"),
        (["examples/pom.xml"], "build file examples/pom.xml changed"),
        ([".mvn/maven.config"], "build file .mvn/maven.config changed"),
    ):
        reason = reactor.blocking_change(root, "bench", free + changed)
        assert reason is not None and why in reason


def test_an_artifact_id_no_pom_defines_means_no_reuse(tmp_path: Path) -> None:
    root = _reactor(tmp_path)
    _pom(root, "bench", "lib-bench", _dep("${somewhere.else}"))
    reason = reactor.blocking_change(root, "bench", ["examples/src/Main.java"])
    assert reason is not None and "property" in reason
    (root / "codec/pom.xml").write_text("<project")
    assert reactor.read_reactor(root) is None

"""What the stages of one ``prove`` attempt share (the head's project, the results of the
stages before), and which stages have nothing to do, with the reason the bundle keeps."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from perfproof.model.documents.prove import DONE, NO_CHANGE, NOT_REACHED
from perfproof.model.documents.prove_measured import AbStageResult
from perfproof.model.documents.prove_stages import BenchmarksResult, ChangesResult
from perfproof.pipeline.prove.bundle import Bundle
from perfproof.pipeline.prove.options import ProfileForks, ProveOptions

if TYPE_CHECKING:
    from perfproof.code.project import Project


@dataclass
class Chain:
    """What the stages share while one attempt runs."""

    bundle: Bundle
    opts: ProveOptions
    repo: Path
    shas: dict[str, str]
    _project: Project | None = None
    _root: Path | None = None

    def project(self) -> tuple[Project, Path]:
        from perfproof.pipeline.reach.changes import head_project
        from perfproof.workspace.worktree import ensure_worktree

        if self._project is None or self._root is None:
            self._root = ensure_worktree(self.repo, self.shas["head"])
            self._project = head_project(self._root)
        return self._project, self._root

    def changes(self) -> ChangesResult:
        found = self.bundle.doc.stages.changes.done
        return found if found is not None else ChangesResult()

    def benchmarks(self) -> BenchmarksResult | None:
        return self.bundle.doc.stages.benchmarks.done

    def regexes(self) -> tuple[str, ...]:
        bench = self.benchmarks()
        return bench.regexes if bench is not None else ()

    def ab(self) -> AbStageResult | None:
        return self.bundle.doc.stages.ab.done

    def measured(self) -> tuple[str, ...]:
        """The regexes the A/B measured: ``--reach profile`` may have left some out."""
        from perfproof.pipeline.prove.dispatch import measured

        ab = self.ab()
        return measured(self.regexes(), ab.left_out if ab is not None else ())

    def tests(self) -> list[str]:
        """Test classes of the feature that exercise the changed classes."""
        from perfproof.pipeline.prove.code import select_tests

        project, _root = self.project()
        callers = self.bundle.doc.stages.callers.done
        return select_tests(project, self.changes(), callers)


NOTHING_TO_EXPLAIN = (
    "no key is improved or regressed, in time or bytes/op: a profile has no verdict to explain "
    "(keys stopped for futility are never recorded)"
)


def _to_explain(chain: Chain) -> bool:
    """Whether some key's verdict calls for profile forks."""
    from perfproof.pipeline.prove.profile_keys import choose_keys

    ab = chain.ab()
    return ab is not None and bool(choose_keys(ab.comparisons).recorded)


def skip_reason(name: str, chain: Chain) -> str | None:
    opts, b = chain.opts, chain.bundle
    if name in opts.skip:
        return "left out with --skip"
    changes = chain.changes()
    nothing = not changes.methods and not opts.ab.bench
    if name in ("callers",) and not changes.methods:
        return "no production method changed"
    if name in ("guard", "ab", "profile", "e2e"):
        if nothing:
            return NO_CHANGE
        if not chain.regexes():
            return NOT_REACHED
    if name == "guard" and not changes.in_scope("benchmark"):
        return "the feature adds or changes no benchmark"
    if name == "tests" and not chain.tests():
        return "no test exercises the changed classes (none calls them or is named after them)"
    if name == "profile" and b.status("ab") != DONE:
        return "no A/B run to read recordings from"
    if name == "profile" and not chain.measured():
        return "--reach profile left every benchmark out of the A/B"
    if name == "profile" and opts.jfr == ProfileForks.AFTER and not _to_explain(chain):
        return NOTHING_TO_EXPLAIN
    if name == "e2e" and not opts.e2e_run:
        return "not asked for (--e2e-run CMD --e2e-metric NAME=REGEX)"
    return None

"""The optional parts of an install: plotting (matplotlib, for the report's and the history's
charts) and Java source parsing (tree-sitter, for reach, hunts and the code checks). A gate or
``compare`` job can install without them; a verb that needs one then stops with one line naming
the extra that brings it, instead of an internal error."""

from __future__ import annotations

EXTRAS = {"matplotlib": "plots", "tree_sitter": "code", "tree_sitter_java": "code"}
"""The importable module of each optional dependency, and the extra that installs it."""


def missing_extra(exc: ImportError) -> str | None:
    """The one-line error for an optional dependency that is not installed (None for any
    other import failure, which stays an internal error)."""
    module = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(module)
    if extra is None:
        return None
    package = module.replace("_", "-")
    return (
        f"this needs {package}, which is not installed (a lighter install leaves it out): "
        f"pip install 'perfproof[{extra}]'"
    )

"""Tolerant look-ups into a run manifest.

The manifest grows with the run machinery and older run folders lack newer fields; a report
must render from any of them, so every read goes through :func:`dig`, which tries the given
key paths in order and returns ``None`` when none is present.
"""

from __future__ import annotations

from typing import Any


def dig(doc: Any, *paths: str) -> Any:
    """The first present value among dotted ``paths`` (``"environment.jdk.version"``)."""
    for path in paths:
        node = doc
        for part in path.split("."):
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                node = None
                break
        if node is not None and node != "" and node != []:
            return node
    return None


def side_info(manifest: dict[str, Any], side: str) -> dict[str, Any]:
    """The ref entry of one side: ``{"ref": ..., "sha": ...}`` under whichever key it lives."""
    names = ("base", "baseline") if side == "base" else ("head", "feature")
    for container in ("refs", "sides", ""):
        for name in names:
            node = dig(manifest, f"{container}.{name}" if container else name)
            if isinstance(node, dict):
                return node
            if isinstance(node, str) and container:
                return {"ref": name, "sha": node}
    return {}


def steps(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The run's steps followed by its builds (a build entry counts as a step of kind build)."""
    found = dig(manifest, "steps")
    out = [s for s in found if isinstance(s, dict)] if isinstance(found, list) else []
    builds = dig(manifest, "builds")
    if isinstance(builds, list):
        out += [{"kind": "build", **b} for b in builds if isinstance(b, dict)]
    return out


def step_kind(step: dict[str, Any]) -> str:
    return str(step.get("kind") or step.get("type") or step.get("name") or "").lower()


def argv_of(step: dict[str, Any]) -> list[str] | None:
    for key in ("argv", "command", "cmd", "command_line"):
        value = step.get(key)
        if isinstance(value, list) and value:
            return [str(v) for v in value]
    return None

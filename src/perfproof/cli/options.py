"""Click options and output helpers shared by several verbs, so every verb spells them alike."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

FORMATS = ("table", "md", "json")


def format_option(choices: tuple[str, ...] = FORMATS, default: str = "table") -> Any:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Output format; json is a stable, versioned document for agents and CI.",
    )


def emit_json(doc: Any) -> None:
    """Print a JSON document to stdout (one document, newline-terminated)."""
    sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    sys.stdout.flush()

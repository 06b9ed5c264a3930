"""Commits on a history page: a short hash, and a link when the user gave ``--commit-url``.

The template is checked before anything is read, so a typo fails fast instead of writing a
page of dead links. Only ``{commit}`` is substituted (by plain replacement, not ``str.format``,
so other braces in a URL stay literal) and the commit is percent-encoded: a plain JMH file's
``--commit`` is free text, and it must not be able to leave the URL's path. Only http(s)
templates are accepted, so a shared page never carries a ``javascript:`` link.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from perfproof.errors import InputError
from perfproof.units import SHORT_SHA

PLACEHOLDER = "{commit}"
SHORT = SHORT_SHA
"""Characters of a hash shown where there is no link (and as a link's text)."""


def check_commit_url(template: str, flag: str = "--commit-url") -> str:
    """The template as given, or an :class:`InputError` naming ``flag`` and what is wrong."""
    if PLACEHOLDER not in template:
        raise InputError(
            f"{flag} {template}: no {PLACEHOLDER} in the template "
            "(e.g. https://github.com/org/repo/commit/{commit})"
        )
    parts = urlsplit(template.replace(PLACEHOLDER, "0"))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"{flag} {template}: not an http(s) URL")
    return template


@dataclass(frozen=True)
class CommitRef:
    """One commit as a page shows it: the full hash, its short form, and its link if any."""

    sha: str
    short: str
    href: str | None


@dataclass(frozen=True)
class CommitLinks:
    """How a page turns a stored commit into text and (optionally) a link."""

    template: str | None = None

    def ref(self, commit: str | None) -> CommitRef | None:
        if not commit:
            return None
        href = None
        if self.template is not None:
            href = self.template.replace(PLACEHOLDER, quote(commit, safe=""))
        return CommitRef(commit, commit[:SHORT], href)

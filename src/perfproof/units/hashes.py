"""Commit hashes as every perfproof output shortens them: one length, so a reader can match a
commit across ``history show``, ``history changes``, the history page and a report by eye."""

from __future__ import annotations

SHORT_SHA = 12
"""Characters of a shortened commit hash (git's own short form grows with the repository;
twelve stays unique in repositories far larger than any JMH suite's)."""


def short_sha(sha: str | None) -> str:
    """``9a8b7c6d5e4f30219a8b…`` → ``9a8b7c6d5e4f``; nothing → empty."""
    return (sha or "")[:SHORT_SHA]

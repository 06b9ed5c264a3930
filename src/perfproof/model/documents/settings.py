"""The ``settings`` block of a verb's JSON: each pinnable option's value and where it came from
(``flag``, ``environment PERFPROOF_X``, ``perfproof.toml:3``, ``default``), part of the
verb's document (:class:`WithSettings`) rather than an entry added to its JSON afterwards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Self

from pydantic import BeforeValidator, Field, JsonValue

from perfproof.model.documents.codec import Document, absent


def _as_typed(value: object) -> object:
    """A settled value as JSON holds it: a number, a word or a list as it is; one parsed from
    text (a budget, JMH options) as the text typed."""
    if isinstance(value, str):
        return str(value)  # an enum's member as its word
    if value is None or isinstance(value, int | float | list):
        return value
    if isinstance(value, tuple):
        return list(value)
    return str(value)


class SettingEntry(Document):
    """One option's settled value and its source; an unknown value is written as null."""

    nulls_written: ClassVar[bool] = True

    value: Annotated[JsonValue, BeforeValidator(_as_typed)] = None
    source: str


class WithSettings(Document):
    """A verb's document that carries the settings it ran with (``--format json``), written
    last; a document kept in a run folder or bundle holds none and writes none."""

    settings: dict[str, SettingEntry] | None = Field(None, exclude_if=absent)

    def with_settings(self, settings: Mapping[str, SettingEntry]) -> Self:
        """This document with ``settings`` (the verb's printed document)."""
        return self.model_copy(update={"settings": dict(settings)})

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        doc = super()._chosen(doc)
        if "settings" not in doc:
            return doc
        return {k: v for k, v in doc.items() if k != "settings"} | {"settings": doc["settings"]}


def settings_of(
    values: Mapping[str, object], sources: Mapping[str, str]
) -> dict[str, SettingEntry]:
    """The settings block of the options named in ``sources``, each with its value."""
    return {
        name: SettingEntry.model_validate({"value": values.get(name), "source": source})
        for name, source in sources.items()
    }

"""The one codec every perfproof document is read and written with (pydantic v2).

A document's type is a :class:`Document` subclass; pydantic derives its reader and writer
from the annotations, and :meth:`Document.read` and :meth:`Document.dump` are the one reader
and writer every document goes through: what is a type's own (its schema, the entries it
leaves out, how its errors are worded) is declared on it, never a reader or writer of its own. The
settings are perfproof's: strict types (``"3"`` is not a whole number, ``true`` is not a
number, a whole number is a number), fields this version does not know kept as they are on a
round trip (a run folder written by a newer minor version still opens and is written back
whole), and every failure turned into one line naming the field path (``steps[0].round``) and
what perfproof writes there, never pydantic's multi-line report.

Why pydantic and not msgspec: ``benchmarks/codec_choice.py`` and BENCHMARKS.md ("One codec
library for every document").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, ClassVar, NamedTuple, Self, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_serializer,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from perfproof.errors import InputError
from perfproof.model.documents import check_document, json_safe

__all__ = [
    "Document",
    "Kept",
    "Problem",
    "Reading",
    "Seq",
    "Text",
    "TextList",
    "ValidationError",
    "absent",
    "as_written",
    "by_name",
    "decode",
    "decode_json",
    "decode_value",
    "encode",
    "field_path",
    "shape_problem",
    "without",
]

T = TypeVar("T", bound=BaseModel)
E = TypeVar("E")


class Reading(NamedTuple):
    """The validation context of :meth:`Document.read`: a document read from ``source``, not
    one the code is making (a validator that checks what only a finished document holds
    looks for it)."""

    source: str


class Document(BaseModel):
    """Base of every typed document and block: strict, unknown fields kept.

    Read with :meth:`read` and written with :meth:`dump`, the one reader and writer; what is
    a type's own is declared on it and honoured here: ``versioned_as`` (the schema checked
    first), ``nulls_written`` (its nulls written even inside a document that leaves them
    out), :meth:`refusal` (how a bad document is worded), and pydantic's own declarations
    (validators, aliases, ``Field(exclude_if=...)`` for an entry left out when it says
    nothing)."""

    model_config = ConfigDict(
        strict=True,
        extra="allow",
        populate_by_name=True,
        validate_assignment=False,
        arbitrary_types_allowed=False,
    )

    versioned_as: ClassVar[tuple[str, int] | None] = None
    """``(name, major)`` of a versioned document: :meth:`read` checks its ``schema`` first
    (another document or version named in one line, before any field)."""

    nulls_written: ClassVar[bool] = False
    """True: an unknown (None) field is written as null, in this block and the blocks inside
    it, even when the document around it leaves nulls out (the run's machine block)."""

    finite_only: ClassVar[bool] = False
    """True: a number no JSON file can hold (NaN, infinity) is written as null, at any depth
    (a comparison's unknown ratio)."""

    @classmethod
    def read(cls, doc: object, source: str) -> Self:
        """``doc`` (parsed JSON) as this type: the schema checked when the type is versioned,
        then every field; a problem is the type's :meth:`refusal`, naming ``source``."""
        if cls.versioned_as is not None:
            check_document(doc, source, *cls.versioned_as)
        try:
            return cls.model_validate(doc, context=Reading(source))
        except ValidationError as exc:
            raise cls.refusal(exc, source) from None

    @classmethod
    def refusal(cls, exc: ValidationError, source: str) -> Exception:
        """The error a document of a wrong shape is refused with: one line naming ``source``
        and the field path (``run.json: 'steps[0].round' is not a whole number``)."""
        return InputError(f"{source}: {problem_line(exc)}")

    def dump(self) -> dict[str, object]:
        """The JSON-ready dict: aliases as written, unset optional entries left out (but
        where a block writes its nulls, see ``nulls_written``)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    @model_serializer(mode="wrap")
    def _as_declared(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo[object]
    ) -> dict[str, object]:
        if self.nulls_written and info.exclude_none:
            return self._with_nulls(info)
        written = self._chosen(handler(self))
        if self.finite_only:
            written = {**json_safe(written)}
        return written

    def _with_nulls(self, info: SerializationInfo[object]) -> dict[str, object]:
        """This block written again without leaving nulls out (the same mode and names)."""
        return self.model_dump(mode=info.mode, by_alias=bool(info.by_alias))

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        """Of the entries pydantic wrote, those this type writes, in its order (all here)."""
        return doc


class Kept(Document):
    """A document written back as it was read or made: the fields it holds (a null too) and
    the ones this version does not know, nothing added. For another verb's document kept
    whole inside one of perfproof's, and for rows whose absent entries mean something."""

    written_first: ClassVar[tuple[str, ...]] = ()
    """Fields written first, in this order, whatever order the type declares them in."""

    def _chosen(self, doc: dict[str, object]) -> dict[str, object]:
        held = self.model_fields_set
        unset = {f.alias or name for name, f in type(self).model_fields.items() if name not in held}
        first = {k: doc[k] for k in self.written_first if k in doc and k not in unset}
        return first | {k: v for k, v in doc.items() if k not in unset and k not in first}


def absent(value: object) -> bool:
    """An entry left out when unknown rather than written as null, in a document that writes
    its nulls: ``Field(None, exclude_if=absent)`` (a verb's settings, a merged run's machine)."""
    return value is None


def without(doc: object, *entries: str) -> object:
    """A parsed document without ``entries`` its type writes for a reader but makes again
    from its own fields (read back, one would be kept as an unknown entry): for a ``before``
    validator of the type."""
    if isinstance(doc, dict) and any(e in doc for e in entries):
        return {k: v for k, v in doc.items() if k not in entries}
    return doc


def decode(kind: type[T], doc: object) -> T:
    """Validate an already parsed JSON value as ``kind`` (pydantic's ValidationError on a
    wrong shape; :func:`shape_problem` turns it into perfproof's wording)."""
    return kind.model_validate(doc)


_ADAPTERS: dict[type, TypeAdapter[object]] = {}


def _adapter(kind: type) -> TypeAdapter[object]:
    """The codec of a type that is no document (made once: making one takes ms)."""
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return _ADAPTERS[kind]


def decode_value(kind: type[E], doc: object) -> E:
    """A value of a typed block that is no :class:`Document` (a dataclass such as a
    comparison's ``Diagnostics``) read from parsed JSON, as its own declarations say."""
    read = _adapter(kind).validate_python(doc)
    if not isinstance(read, kind):
        raise TypeError(read)
    return read


def encode(value: object) -> dict[str, object]:
    """A typed block that is no :class:`Document` as its JSON object, as its declarations say."""
    written = _adapter(type(value)).dump_python(value, mode="json")
    if not isinstance(written, dict):
        raise TypeError(written)
    return written


def decode_json(kind: type[T], doc: object) -> T:
    """Validate an already parsed JSON value as ``kind`` the way JSON spells it: a field typed
    as a plain dataclass is read from an object and a tuple from a list, still strictly
    (``"3"`` is not a whole number). A document whose own types are dataclasses (a hunt's
    hypotheses) is read with this; :func:`decode` would want the instances themselves."""
    return kind.model_validate_json(json.dumps(doc, allow_nan=False))


def by_name(kind: type[BaseModel], *values: object) -> dict[str, object]:
    """The fields of ``kind`` that ``values`` hold as attributes of the same name (the first
    value holding one wins): a document made of several domain values is filled by name, as
    pydantic's ``from_attributes`` does for one value, instead of field by field by hand. The
    fields named otherwise, or computed, are given beside it."""
    found: dict[str, object] = {}
    for name in kind.model_fields:
        for value in values:
            if hasattr(value, name):
                found[name] = getattr(value, name)
                break
    return found


_WRITERS: dict[type, TypeAdapter[object]] = {}


def as_written(value: object) -> dict[str, object]:
    """A plain dataclass (or one holding others) as the JSON object its type spells: fields in
    the order declared, under their aliases (``Annotated[str, Field(alias="class")]``), nulls
    kept. A value a layer computes is printed from its own field list this way, instead of a
    second list of the same fields written as a document by hand."""
    kind = type(value)
    if kind not in _WRITERS:  # made once per type: making one takes milliseconds
        _WRITERS[kind] = TypeAdapter(kind)
    doc = _WRITERS[kind].dump_python(value, mode="json", by_alias=True)
    if not isinstance(doc, dict):
        raise TypeError(f"{kind.__name__} is not written as a JSON object")
    return doc


def number_as_text(value: object) -> object:
    """A number where text is expected (a hand edit of a version or an id) is kept as text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


Text = Annotated[str, BeforeValidator(number_as_text)]
"""A string field that also takes a number as its text, as perfproof always has."""


def _text_list(value: object, handler: ValidatorFunctionWrapHandler) -> object:
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError("text_list", "a list of strings") from None


TextList = Annotated[list[str], WrapValidator(_text_list)]
"""A list of strings, named as one when it is not (``'command' is not a list of strings``)."""


_WORDS: dict[str, str] = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number",
    "string_type": "a string",
    "bool_type": "true or false",
    "list_type": "a JSON list",
    "tuple_type": "a JSON list",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
    "dataclass_type": "a JSON object",
    "greater_than_equal": "a whole number",
    "literal_error": "one of {expected}",
    "enum": "one of {expected}",
}


def field_path(loc: tuple[int | str, ...]) -> str:
    """``('steps', 0, 'round')`` → ``steps[0].round``, leaving out pydantic's union tags."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        elif "[" in part or part in _TAGS:
            continue
        else:
            path += f".{part}" if path else part
    return path


_TAGS = frozenset({"str", "int", "float", "bool", "none", "list", "dict", "tuple"})


class Problem(NamedTuple):
    """The first problem of a document: where, what perfproof writes there (or ``missing``),
    and the value found."""

    path: str
    what: str
    value: object


def shape_problem(
    exc: ValidationError,
    root: tuple[int | str, ...] = (),
    words: Callable[[str], str] | None = None,
) -> Problem:
    """The problem pydantic found under ``root`` that a user should fix first. A field of a
    wrong type is named before one that is missing (it is what was edited), and of a
    union's alternatives the one whose path goes deepest names the real problem."""
    errors = exc.errors(include_url=False)
    first = max(errors, key=lambda e: (e["type"] != "missing", len(e["loc"])))
    path = field_path((*root, *first["loc"]))
    kind = first["type"]
    value = first.get("input")
    if kind == "missing":
        return Problem(path, "missing", None)
    template = _WORDS.get(kind)
    if template is None:
        return Problem(path, str(first["msg"]).removeprefix("Value error, "), value)
    ctx = _choices_of_union(first, errors) or first.get("ctx") or {}
    text = template.format(
        **{k: str(v).replace("'", "").replace(" or ", ", ") for k, v in ctx.items()}
    )
    return Problem(path, words(text) if words is not None else text, value)


_CHOICES = ("enum", "literal_error")


def _choices_of_union(first: ErrorDetails, errors: list[ErrorDetails]) -> dict[str, str]:
    """Every word a field of several sets of choices takes (an enum or a literal, as a
    comparison's ``family``), where pydantic names each set apart: the first set alone would
    refuse a word the field accepts. The empty word is left out (only old writers wrote it)."""
    if not _union_member(first):
        return {}
    words: list[str] = []
    for e in errors:
        if _union_member(e) and e["loc"][:-1] == first["loc"][:-1]:
            expected = str((e.get("ctx") or {}).get("expected", ""))
            for word in expected.replace(" or ", ", ").split(", "):
                if word.strip("'"):
                    words.append(word.strip("'"))
    return {"expected": ", ".join(dict.fromkeys(words))}


def _union_member(e: ErrorDetails) -> bool:
    """A refusal by one member of a union of choices: pydantic ends its path with the
    member's tag (``str-enum[Family]``, ``literal['exact','']``), never a field's name."""
    tag = e["loc"][-1] if e["loc"] else None
    return e["type"] in _CHOICES and isinstance(tag, str) and "[" in tag


def problem_line(exc: ValidationError, root: tuple[int | str, ...] = ()) -> str:
    """``'steps[0].round' is not a whole number``: the run manifest's wording."""
    path, what, _ = shape_problem(exc, root)
    if not path:  # the document as a whole: its validator's own words
        return what
    if what == "missing":
        return f"'{path}' is missing"
    return f"'{path}' is not {what}"


def _as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


Seq = Annotated[tuple[E, ...], BeforeValidator(_as_tuple)]
"""A tuple field: a JSON list read as a tuple (strict types refuse a list where a tuple is
declared), written back as a list."""

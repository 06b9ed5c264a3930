"""Which class a field always holds, from every assignment to it the file shows.

A call through a field (``s.enc.encode(...)``) runs the receiver's class's override, and that
class is written down when every value the field can ever hold is a ``new C(...)`` of the same
``C``: a ``final`` field initialised so, or assigned so in each constructor; a JMH ``@State``
field assigned ``new C(...)`` in its ``@Setup``. Whether that is every value depends on who
can assign the field:

- a ``final`` field only in its own class's initialisers and constructors (JLS 8.3.1.2), and a
  ``private`` one only inside its top-level class: both in this file, so this file decides;
- any other field also from other files. Its record keeps the class (and says it is open), and
  :meth:`perfproof.code.project.Project.field_class` trusts it only when no other file assigns
  a field of that name through a path (``state.enc = ...``): names, not types, so a same-named
  field elsewhere only makes the answer more cautious.

Each assignment is read where it stands: ``enc = ...`` is a local's when a local of that name
is in scope, else a field of the enclosing classes; ``this.enc = ...`` the innermost class's;
``other.enc = ...`` any field of that name. A same-named field assigned something else only
takes the exact class away, never invents one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from tree_sitter import Node

from perfproof.code.model import FieldDecl
from perfproof.code.sites import created
from perfproof.code.syntax import erase, text


@dataclass(frozen=True)
class FieldFacts:
    """What the declaration of one field says, before the file's assignments are known."""

    index: int
    """Position of its record in the file's fields."""
    final: bool
    private: bool
    initialiser: str | None
    """``None`` without an initialiser; else as :attr:`FieldWrite.value`."""
    method: int
    """Index of the initialiser's method in the file (what runs the initialiser's code)."""


class FieldWrite(NamedTuple):
    """One assignment that may give a field a value."""

    owners: tuple[str, ...]
    """Types whose field the name may denote, innermost first (``enc = ...`` in a method of
    ``Outer.State``: that class, then ``Outer``); empty when assigned through a path
    (``state.enc = ...``), which may be a field of any class."""
    name: str
    value: str
    """Erased class of ``new C(...)``; :data:`FUNCTIONAL` for a lambda, a method reference or
    an anonymous class; ``""`` for any other value."""
    method: int
    """Index in the file's methods of the method making the assignment, -1 if none."""


FUNCTIONAL = "->"
"""A value whose code runs when a method is called on the field: a lambda, a method reference,
an anonymous class. The method assigning it is charged with that code (its body is indexed as
part of it), so calls on the field lead to it (:attr:`FileIndex.functional`)."""


def field_value(node: Node | None) -> str:
    """What a field is given: see :attr:`FieldWrite.value`."""
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_child_count else None
    if node is None:
        return ""
    if node.type in ("lambda_expression", "method_reference") or (
        node.type == "object_creation_expression"
        and any(c.type == "class_body" for c in node.children)
    ):
        return FUNCTIONAL
    exact = created(node)
    return erase(exact) if exact else ""


def field_write(
    node: Node, is_local: Callable[[str], bool], owners: tuple[str, ...], method: int
) -> FieldWrite | None:
    """The field assignment an ``assignment_expression`` may be, seen where it stands: a
    local's, or an array element's, is none."""
    left = node.child_by_field_name("left")
    while left is not None and left.type == "parenthesized_expression":
        left = left.named_children[0] if left.named_child_count else None
    if left is None:
        return None
    if left.type == "identifier":
        name = text(left)
        if is_local(name):
            return None
    elif left.type == "field_access":
        name = text(left.child_by_field_name("field"))
        obj = left.child_by_field_name("object")
        owners = owners[:1] if obj is not None and obj.type == "this" else ()
    else:
        return None
    operator = node.child_by_field_name("operator")
    simple = operator is None or text(operator) == "="
    value = field_value(node.child_by_field_name("right")) if simple else ""
    return FieldWrite(owners, name, value, method)


def fix_fields(
    fields: list[FieldDecl], facts: list[FieldFacts], writes: list[FieldWrite]
) -> tuple[list[FieldDecl], tuple[str, ...], tuple[tuple[str, str, int], ...]]:
    """The file's field records with :attr:`FieldDecl.new` and :attr:`FieldDecl.open` set from
    the declarations and every assignment in the file; the names of fields the file may
    assign in another file's classes (through a path, or inherited), which its index keeps for
    the repository-wide check; and the functional values it gives fields: (declaring class,
    or ``""`` when not a class of this file, field name, index of the method giving it)."""
    declared = {(f.owner, f.name) for f in fields}
    values: dict[tuple[str, str] | str, list[str]] = {}
    elsewhere: set[str] = set()
    functional: list[tuple[str, str, int]] = []
    for write in writes:
        holder = next((o for o in write.owners if (o, write.name) in declared), None)
        if write.value == FUNCTIONAL and write.method >= 0:
            functional.append((holder or "", write.name, write.method))
        if holder is None:
            # a path, or a field this file's classes inherit: any field of that name
            elsewhere.add(write.name)
            values.setdefault(write.name, []).append(write.value)
        else:
            values.setdefault((holder, write.name), []).append(write.value)
    out = list(fields)
    for fact in facts:
        decl = fields[fact.index]
        if fact.initialiser == FUNCTIONAL:
            functional.append((decl.owner, decl.name, fact.method))
        seen = [*values.get((decl.owner, decl.name), ()), *values.get(decl.name, ())]
        if fact.initialiser is not None:
            seen.append(fact.initialiser)
        classes = set(seen)
        new = classes.pop() if len(classes) == 1 else ""
        new = "" if new == FUNCTIONAL else new
        shut = fact.final or fact.private
        out[fact.index] = decl._replace(new=new, open=bool(new) and not shut)
    return out, tuple(sorted(elsewhere)), tuple(functional)

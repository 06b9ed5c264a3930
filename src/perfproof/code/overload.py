"""Which overload a call runs, as far as its arguments' types are known (JLS 15.12.2).

Java picks among the methods of one name in three phases: first without boxing or varargs,
then with boxing, then with varargs; the first phase with an applicable method decides, and
of those the most specific wins. A call binds to a declaration only if that declaration can
be the one picked: ``output.writeInt(0, false)`` runs ``writeInt(int, boolean)``, never
``writeInt(int, int)``; ``m(5)`` runs ``m(int)`` before ``m(long)`` or ``m(Integer)``, and
``log("x", 1)`` the varargs ``log(String, Object...)``.

A type the source does not say (:data:`perfproof.code.arguments.UNKNOWN`) may be anything,
and a reference type outside the repository may or may not be a subtype of another: such a
call keeps every overload its known arguments allow, so a static path is never lost to a
guess, only to a type the source rules out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from perfproof.code.arguments import FIELD, NULL, UNKNOWN
from perfproof.code.model import MethodDecl

NO, MAYBE, YES = 0, 1, 2
PRIMITIVES = frozenset({"byte", "short", "char", "int", "long", "float", "double", "boolean"})
BOXES = {
    "int": "Integer",
    "long": "Long",
    "short": "Short",
    "byte": "Byte",
    "char": "Character",
    "boolean": "Boolean",
    "float": "Float",
    "double": "Double",
}
UNBOXED = {box: prim for prim, box in BOXES.items()}
WIDER = {
    "byte": ("short", "int", "long", "float", "double"),
    "short": ("int", "long", "float", "double"),
    "char": ("int", "long", "float", "double"),
    "int": ("long", "float", "double"),
    "long": ("float", "double"),
    "float": ("double",),
}
_NUMBER = ("Number", "Comparable", "Serializable", "Object")
JDK_SUPERTYPES = {
    "String": ("CharSequence", "Comparable", "Serializable", "Object", "Constable"),
    "Boolean": ("Comparable", "Serializable", "Object"),
    "Character": ("Comparable", "Serializable", "Object"),
    **{box: _NUMBER for box in ("Integer", "Long", "Short", "Byte", "Float", "Double")},
}
"""The JDK types a literal or a boxed primitive has, and what each of them is."""
_TYPE_VARIABLE = re.compile(r"[A-Z][A-Z0-9]?")

Subtype = Callable[[str, str], int]
"""Reference type ``a`` (as the call's file names it) against parameter type ``b`` (as the
declaration's file names it): :data:`YES`, :data:`NO` or :data:`MAYBE`."""


def simple(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _is_variable(name: str) -> bool:
    return bool(_TYPE_VARIABLE.fullmatch(name))


def reference(arg: str, param: str, subtype: Subtype) -> int:
    """Whether reference type ``arg`` widens to reference type ``param``."""
    if arg.endswith("[]") or param.endswith("[]"):
        if arg.endswith("[]") and param.endswith("[]"):
            a, p = arg[:-2], param[:-2]
            if a in PRIMITIVES or p in PRIMITIVES:
                return YES if a == p else NO
            return reference(a, p, subtype)
        if arg.endswith("[]"):
            if simple(param) in ("Object", "Cloneable", "Serializable"):
                return YES
            return MAYBE if _is_variable(param) else NO
        return MAYBE if _is_variable(arg) else NO
    if simple(param) == "Object" or simple(arg) == simple(param):
        return YES
    if _is_variable(param) or _is_variable(arg):
        return MAYBE  # the index keeps no bounds
    known = JDK_SUPERTYPES.get(simple(arg))
    if known is not None:
        return YES if simple(param) in known else NO
    return subtype(arg, param)


def convertible(arg: str, param: str, phase: int, subtype: Subtype) -> int:
    """Whether an argument of type ``arg`` can be passed as ``param`` in ``phase`` (1: strict
    and loose, without boxing; 2 and 3: with boxing and unboxing)."""
    if arg == UNKNOWN or arg.startswith(FIELD):
        return MAYBE
    if arg == NULL:
        return NO if param in PRIMITIVES else YES
    if arg in PRIMITIVES and param in PRIMITIVES:
        return YES if arg == param or param in WIDER.get(arg, ()) else NO
    if arg in PRIMITIVES:
        return NO if phase == 1 else reference(BOXES[arg], param, subtype)
    if param in PRIMITIVES:
        if phase == 1:
            return NO
        unboxed = UNBOXED.get(simple(arg))
        if unboxed is None:
            return MAYBE if _is_variable(arg) else NO
        return YES if unboxed == param or param in WIDER.get(unboxed, ()) else NO
    return reference(arg, param, subtype)


def applicable(decl: MethodDecl, args: Sequence[str], phase: int, subtype: Subtype) -> int:
    """How surely ``decl`` is applicable to ``args`` in ``phase`` (3: by variable arity)."""
    params = decl.params
    if phase < 3:
        if len(args) != len(params):
            return NO
        pairs = list(zip(args, params, strict=True))
    else:
        if not decl.varargs or len(args) < len(params) - 1:
            return NO
        element = params[-1][:-2]
        pairs = list(zip(args, params[:-1], strict=False))
        pairs += [(a, element) for a in args[len(params) - 1 :]]
    return min((convertible(a, p, phase, subtype) for a, p in pairs), default=YES)


def more_specific(m1: MethodDecl, m2: MethodDecl, subtype: Subtype) -> bool:
    """``m1`` is at least as specific as ``m2``: each of its parameters passes as m2's."""
    if len(m1.params) != len(m2.params):
        return False
    return all(
        convertible(a, p, 1, subtype) == YES for a, p in zip(m1.params, m2.params, strict=True)
    )


def can_pick(
    target: MethodDecl, decls: Sequence[MethodDecl], args: Sequence[str], subtype: Subtype
) -> bool:
    """Whether a call with argument types ``args`` may run ``target`` among ``decls`` (the
    methods of that name the receiver's type has)."""
    if not args or all(a == UNKNOWN for a in args):
        return True
    if any(a == UNKNOWN or a.startswith(FIELD) for a in args):
        return any(applicable(target, args, ph, subtype) != NO for ph in (1, 2, 3))
    for phase in (1, 2, 3):
        possible = [d for d in decls if applicable(d, args, phase, subtype) != NO]
        if possible:
            break
    else:
        return True  # nothing applies: a type this module misread; keep the call
    if target not in possible:
        return False
    sure = [d for d in possible if applicable(d, args, phase, subtype) == YES]
    return not any(
        d != target and more_specific(d, target, subtype) and not more_specific(target, d, subtype)
        for d in sure
    )

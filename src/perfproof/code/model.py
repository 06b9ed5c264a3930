"""The records a parsed Java file is reduced to.

They are plain named tuples on purpose: the index of a large repository holds hundreds of
thousands of them and is pickled into the cache, and tuples load several times faster than
dataclasses. Type names are kept as written in the source with generics and annotations
erased (``Map<Short, X>`` becomes ``Map``); resolving them to fully qualified names needs the
whole repository and happens in :mod:`perfproof.code.project`.
"""

from __future__ import annotations

import pickle
from typing import Generic, NamedTuple, TypeVar


class Import(NamedTuple):
    name: str
    """Dotted name without ``static`` and ``.*``."""
    static: bool
    wildcard: bool


class TypeDecl(NamedTuple):
    fqn: str
    name: str
    kind: str
    """class, interface, enum, record or annotation."""
    outer: str | None
    superclass: str | None
    interfaces: tuple[str, ...]
    line: int


class MethodDecl(NamedTuple):
    owner: str
    """Fully qualified name of the declaring type."""
    name: str
    """Method name, ``<init>`` for constructors, ``<clinit>`` for static initialisation."""
    params: tuple[str, ...]
    varargs: bool
    static: bool
    kind: str
    """method, constructor, clinit (static block or static field initialiser) or init."""
    line: int
    end_line: int
    start: int
    end: int
    returns: str = ""
    """Declared return type, erased; empty for constructors and initialisers."""

    def accepts(self, arity: int) -> bool:
        n = len(self.params)
        return arity == n or (self.varargs and arity >= n - 1)


class FieldDecl(NamedTuple):
    owner: str
    name: str
    type: str
    static: bool
    line: int
    new: str = ""
    """The class the field always holds, erased, when its initialiser and every assignment to
    it in the file are ``new C(...)`` of one ``C`` (no anonymous body); empty otherwise (see
    :mod:`perfproof.code.fields`)."""
    open: bool = False
    """With ``new``: the field is neither final nor private, so code in other files may assign
    it too, and ``new`` holds only if none does (:meth:`Project.field_class` checks)."""


class CallSite(NamedTuple):
    """One place that may invoke a method or constructor.

    ``recv`` says what stands before the dot: ``none`` (unqualified), ``this``, ``super``,
    ``var`` (a local, parameter or field whose declared type is ``recv_type``; ``None`` when
    declared without a type, as lambda parameters are), ``name`` (an identifier that is no
    local or field of this file: a type, an inherited field or a static import), ``field``
    (``this.x`` with ``x`` not declared in this file), ``dotted`` (a path of names:
    ``a.b.C``, ``T.FIELD``, ``local.field``), ``path`` (a path with calls, arguments
    dropped: ``helper().x``, ``Errors.forException().code()``), ``type`` (a cast, ``new T()``
    or a string literal) or ``expr`` (anything else; ``recv_text`` is the last name in it).
    For ``dotted`` and ``path`` whose head is a local, ``recv_type`` is its declared type
    (``?`` when it has none).
    """

    kind: str
    """call, new, ref (method reference), super (``super(...)``) or this (``this(...)``)."""
    name: str
    arity: int
    """Argument count; -1 for method references."""
    line: int
    owner: str
    """Fully qualified name of the innermost named type around the site."""
    method: int
    """Index into the file's methods of the enclosing method, -1 if none."""
    recv: str
    recv_text: str
    recv_type: str | None
    column: int = 0
    """0-based column of the call's name: two calls on one line are two sites."""
    recv_new: str = ""
    """The class the receiver is an instance of, erased, when the file fixes it: ``new
    C().m()``, an effectively final local initialised with ``new C(...)`` (see
    :mod:`perfproof.code.sites`) or a field of this file with :attr:`FieldDecl.new`; empty
    when the receiver may be of any subtype of its declared type."""
    args: tuple[str, ...] = ()
    """Each argument's static type where the source says it, ``""`` where it does not
    (:mod:`perfproof.code.arguments`); empty for method references: which overload the call
    runs (:mod:`perfproof.code.overload`)."""


class RawFinding(NamedTuple):
    """A rule hit inside one file, before ranking."""

    rule: str
    line: int
    method: int
    detail: str


def _rows(records: tuple | list) -> tuple:
    return tuple(tuple(r) for r in records)


R = TypeVar("R", bound=tuple)


class _Part(Generic[R]):
    """One part of a file's pickled detail (its imports, methods, fields or findings), turned
    into records the first time it is read."""

    def __init__(self, index: int, record: type[R]) -> None:
        self.index = index
        self.record = record

    def __get__(self, file: FileIndex, owner: type | None = None) -> tuple[R, ...]:
        rows = file._detail_rows()
        part = rows[self.index]
        if part and not isinstance(part[0], self.record):
            part = rows[self.index] = tuple(self.record(*r) for r in part)
        return part


class FileIndex:
    """Everything known about one file. Only what every query needs (path, package, types,
    classification flags) is unpickled eagerly; imports, members, findings and call sites
    stay pickled until asked for, which keeps a warm query on thousands of files fast."""

    __slots__ = (
        "_calls",
        "_decoded",
        "_detail",
        "digest",
        "jmh",
        "package",
        "path",
        "test_framework",
        "types",
    )

    def __init__(
        self,
        path: str,
        digest: str,
        package: str,
        types: tuple[TypeDecl, ...],
        jmh: bool,
        test_framework: bool,
        detail: bytes,
        calls: bytes,
    ) -> None:
        self.path = path
        """Path relative to the repository root, with forward slashes."""
        self.digest = digest
        self.package = package
        self.types = types
        self.jmh = jmh
        """The file uses JMH (imports org.openjdk.jmh or carries @Benchmark)."""
        self.test_framework = test_framework
        """The file imports JUnit, TestNG, AssertJ, Hamcrest or Mockito."""
        self._detail = detail
        self._calls = calls
        self._decoded: list | None = None

    @classmethod
    def create(
        cls,
        path: str,
        digest: str,
        package: str,
        imports: list[Import],
        types: list[TypeDecl],
        methods: list[MethodDecl],
        fields: list[FieldDecl],
        calls: list[CallSite],
        findings: list[RawFinding],
        jmh: bool,
        test_framework: bool,
        assigned: tuple[str, ...] = (),
        functional: tuple[tuple[str, str, int], ...] = (),
    ) -> FileIndex:
        detail = (
            _rows(imports),
            _rows(methods),
            _rows(fields),
            _rows(findings),
            assigned,
            functional,
        )
        return cls(
            path,
            digest,
            package,
            tuple(types),
            jmh,
            test_framework,
            pickle.dumps(detail, protocol=5),
            pickle.dumps(_rows(calls), protocol=5),
        )

    def __reduce__(self) -> tuple:
        types = _rows(self.types)
        state = (self.path, self.digest, self.package, types, self.jmh, self.test_framework)
        return (_restore, (*state, self._detail, self._calls))

    def moved(self, path: str) -> FileIndex:
        """The same content found at another path."""
        return FileIndex(
            path,
            self.digest,
            self.package,
            self.types,
            self.jmh,
            self.test_framework,
            self._detail,
            self._calls,
        )

    def _detail_rows(self) -> list:
        """The pickled detail, unpickled once; its rows become records part by part."""
        if self._decoded is None:
            self._decoded = list(pickle.loads(self._detail))
        return self._decoded

    imports = _Part(0, Import)
    methods = _Part(1, MethodDecl)
    fields = _Part(2, FieldDecl)
    findings = _Part(3, RawFinding)

    @property
    def assigned(self) -> tuple[str, ...]:
        """Names of fields this file assigns through a path (``state.enc = ...``): the
        assignments another class's field may get from here (:mod:`perfproof.code.fields`)."""
        return self._detail_rows()[4]

    @property
    def functional(self) -> tuple[tuple[str, str, int], ...]:
        """Lambdas, method references and anonymous classes the file gives fields: (declaring
        class, ``""`` when not a class of this file; field name; index of the method giving
        it, whose body holds the value's code) (:mod:`perfproof.code.fields`)."""
        return self._detail_rows()[5]

    def method_key(self, index: int) -> tuple[str, str, tuple[str, ...]]:
        """(owner, name, parameter types) of one method without building every record."""
        row = self._detail_rows()[1][index]
        return row[0], row[1], row[2]

    def sites(self, names: tuple[str, ...] | None = None) -> list[CallSite]:
        """The call sites, or only those calling one of ``names``."""
        rows = pickle.loads(self._calls)
        if names is None:
            return [CallSite(*row) for row in rows]
        return [CallSite(*row) for row in rows if row[1] in names]

    def mentions(self, name: str) -> bool:
        """Cheap pre-check: can a call site of this file have that name?"""
        return name.encode() in self._calls


def _restore(
    path: str,
    digest: str,
    package: str,
    types: tuple,
    jmh: bool,
    test_framework: bool,
    detail: bytes,
    calls: bytes,
) -> FileIndex:
    typed = tuple(TypeDecl(*r) for r in types)
    return FileIndex(path, digest, package, typed, jmh, test_framework, detail, calls)

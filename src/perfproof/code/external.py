"""Calls through a type outside the repository that may run a repository override of it.

A benchmark holding ``Queue<Integer> q`` (``java.util.Queue``) calls ``q.offer(e)``; which
``offer`` runs is the class of the queue made in ``@Setup``, often a repository class
(``SpscArrayQueue extends AbstractQueue``). No repository declaration binds that call, so the
walk up from ``SpscArrayQueue.offer`` needs another way to it: the call's receiver is declared
with a type outside the repository that the override's class extends or implements, directly
or through the JDK types the table below knows (``AbstractQueue`` → ``Queue`` →
``Collection`` → ``Iterable``), and the call has the method's name and argument count.
Such an edge is dispatch, unless the receiver's class is fixed (then it is sure, or none).
"""

from __future__ import annotations

from collections.abc import Iterator

from perfproof.code.model import CallSite, FileIndex
from perfproof.code.project import Project
from perfproof.code.syntax import PRIMITIVES, erase

JDK_SUPERTYPES: dict[str, tuple[str, ...]] = {
    "AbstractCollection": ("Collection",),
    "AbstractList": ("AbstractCollection", "List"),
    "AbstractSequentialList": ("AbstractList",),
    "AbstractQueue": ("AbstractCollection", "Queue"),
    "AbstractSet": ("AbstractCollection", "Set"),
    "AbstractMap": ("Map",),
    "Collection": ("Iterable",),
    "List": ("Collection",),
    "Set": ("Collection",),
    "SortedSet": ("Set",),
    "NavigableSet": ("SortedSet",),
    "Queue": ("Collection",),
    "Deque": ("Queue",),
    "BlockingQueue": ("Queue",),
    "BlockingDeque": ("BlockingQueue", "Deque"),
    "TransferQueue": ("BlockingQueue",),
    "SortedMap": ("Map",),
    "NavigableMap": ("SortedMap",),
    "ConcurrentMap": ("Map",),
    "ConcurrentNavigableMap": ("ConcurrentMap", "NavigableMap"),
    "ListIterator": ("Iterator",),
    "Closeable": ("AutoCloseable",),
    "FilterInputStream": ("InputStream",),
    "FilterOutputStream": ("OutputStream",),
    "InputStream": ("Closeable",),
    "OutputStream": ("Closeable", "Flushable"),
    "Reader": ("Readable", "Closeable"),
    "Writer": ("Appendable", "Closeable", "Flushable"),
    "Random": ("RandomGenerator",),
    "SplittableRandom": ("RandomGenerator",),
    "RandomGenerator": (),
}
"""Supertypes of JDK types a repository class commonly extends, by simple name."""


def external_supertypes(project: Project, fqn: str) -> frozenset[str]:
    """Simple names of the types outside the repository that ``fqn`` extends or implements,
    with their JDK supertypes as far as :data:`JDK_SUPERTYPES` knows them."""
    names: set[str] = set()
    for cur in (fqn, *project.ancestors(fqn)):
        t = project.types.get(cur)
        if t is None:
            continue
        f = project.type_file[cur]
        for written in (t.superclass, *t.interfaces):
            if written and project.resolve(f, t.outer or "", written) is None:
                names.add(written.rsplit(".", 1)[-1])
    queue = list(names)
    while queue:
        for sup in JDK_SUPERTYPES.get(queue.pop(), ()):
            if sup not in names:
                names.add(sup)
                queue.append(sup)
    return frozenset(names)


def _declared(project: Project, f: FileIndex, site: CallSite) -> tuple[str, FileIndex, str] | None:
    """The receiver's declared type as written, with the file and class it is read in."""
    if site.recv == "var":
        return (site.recv_type, f, site.owner) if site.recv_type else None
    if site.recv in ("name", "field"):
        found = project.find_field(site.owner, site.recv_text)
        if found is None:
            return None
        return found[1], project.type_file[found[0]], found[0]
    if site.recv != "dotted" or site.recv_text.count(".") == 0:
        return None
    head, *rest = site.recv_text.split(".")
    if site.recv_type and site.recv_type != "?":
        current = project.resolve(f, site.owner, site.recv_type)
    elif head == "this":
        current = site.owner
    else:
        found = project.find_field(site.owner, head)
        context = project.type_file[found[0]] if found else f
        current = project.resolve(context, found[0], found[1]) if found else None
    typ: tuple[str, FileIndex, str] | None = None
    for segment in rest:
        if current is None:
            return None
        found = project.find_field(current, segment)
        if found is None:
            return None
        typ = (found[1], project.type_file[found[0]], found[0])
        current = project.resolve(typ[1], typ[2], typ[0])
    return typ


def external_receiver(project: Project, f: FileIndex, site: CallSite) -> str | None:
    """Simple name of the receiver's declared type when it is a type outside the repository
    (``Queue`` for ``Queue<Integer> q``); ``None`` for a repository type or one not written."""
    declared = _declared(project, f, site)
    if declared is None:
        return None
    typ, context, owner = declared
    name = erase(typ)
    if not name or name in PRIMITIVES or name.endswith("]"):
        return None
    if project.resolve(context, owner, name) is not None:
        return None
    return name.rsplit(".", 1)[-1]


def external_sites(
    project: Project, sites: list[tuple[FileIndex, CallSite]]
) -> Iterator[tuple[FileIndex, CallSite, str]]:
    """The calls and method references among ``sites`` made on a receiver declared with a
    type outside the repository, with that type's simple name."""
    for f, site in sites:
        if site.kind in ("call", "ref"):
            name = external_receiver(project, f, site)
            if name is not None:
                yield f, site, name

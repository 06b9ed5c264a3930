"""The ``options`` block of a run manifest: what the verb was asked, as the user typed it.

``ab`` and ``guard`` write :class:`perfproof.pipeline.ab.options.AbOptions` here, ``e2e`` its own
options; ``--resume`` reads them back, and the history, the exports, a merge and a cluster run
read single entries (the machine name, the java, the benchmarks). Every entry ``ab`` writes is a
typed field, checked when the manifest is read (a hand edit is refused naming
``options.<entry>``); entries of another verb are kept as they are. A value is kept as typed
(``"15m"``, ``"2/4"``, the JMH options' text): the door parses it, once, into the value the run
uses, and a resumed run parses it again from here the same way.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from perfproof.model.diagnostics import ByValue
from perfproof.model.documents.codec import Kept, Text, TextList
from perfproof.model.enums import Family


class RunOptions(Kept):
    """The block as written: fields are optional, an entry never written stays unwritten,
    and every entry set is written (a None too, as null), nothing added."""

    nulls_written: ClassVar[bool] = True

    base: Text | None = None
    head: Text | None = None
    repo: Text | None = None
    bench: TextList | None = None
    module: Text | None = None
    build: str | None = None
    build_cmd: Text | None = None
    jar: Text | None = None
    classpath_file: Text | None = None
    build_args: TextList | None = None
    maven: str | None = None
    gradle: str | None = None
    keep_checks: bool | None = None
    rounds: int | None = None
    max_rounds: int | None = None
    budget: Text | None = None
    """``--budget`` as typed (``15m``)."""
    futility: float | None = None
    order: str | None = None
    seed: int | None = None
    jmh_args: Text | None = None
    """``--jmh-args`` as typed; the options every step ran are the plan's."""
    overlay: TextList | None = None
    java: Text | None = None
    fresh_builds: bool | None = None
    out: Text | None = None
    lock_timeout: float | None = None
    cache_dir: Text | None = None
    jfr: bool | None = None
    explain: str | None = None
    shard: Text | None = None
    """``--shard`` as typed (``2/4``)."""
    executor: str | None = None
    ray_address: Text | None = None
    machine: str | None = None
    """The machine or testbed name the run measured on (None: unnamed)."""
    measure_last: TextList | None = None
    keys: TextList | None = None
    """The only keys measured (suite labels); None or empty: every key the regexes select."""
    confidence: float | None = None
    threshold: float | None = None
    family: Annotated[Family, ByValue] | None = None
    metrics: TextList | None = None
    """The metrics compared (``e2e``: the metrics read from each run's output)."""
    history_db: Text | None = None
    sources: dict[str, str] | None = None
    """Where each pinnable setting came from (flag, environment, file and line, default)."""

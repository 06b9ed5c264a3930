"""The JMH command line of a step: the launcher, what to run, the options, the result file.

Kept apart from the plan (which steps run, in which order) because the same plan is run by
the local scheduler and by other executors, and because the option surgery here (a
selection's regex and ``-p`` values replacing the user's, one ``-jvmArgsAppend``, a catch-up
step's ``-f``) is what decides that a step runs exactly the keys it was planned for.
"""

from __future__ import annotations

from collections.abc import Sequence

from perfproof.measure.keys import include_regex, param_args
from perfproof.model.documents.suite import Selection


def step_argv(
    launcher: list[str],
    benchmarks: Sequence[str],
    options: Sequence[str],
    result_file: str,
    selection: Selection | None = None,
) -> list[str]:
    """The full JMH command line of one step: launcher, regexes, options, result file.

    A step of a selection replaces the ``--bench`` regexes by its anchored include regex and
    the user's ``-p`` options by its own values (the keys were listed with the user's ``-p``,
    so its values are a subset of them; JMH would otherwise merge both).
    """
    if selection is None:
        return [*launcher, *benchmarks, *options, "-rf", "json", "-rff", result_file]
    own = without_params(options)
    return [
        *launcher,
        include_regex(selection),
        *own,
        *param_args(selection),
        "-rf",
        "json",
        "-rff",
        result_file,
    ]


def param_options(options: Sequence[str]) -> tuple[str, ...]:
    """The ``-p name=values`` pairs of an option list."""
    out: list[str] = []
    for i, token in enumerate(options[:-1]):
        if token == "-p":
            out += [token, options[i + 1]]
    return tuple(out)


def without_params(options: Sequence[str]) -> tuple[str, ...]:
    """``options`` minus its ``-p name=values`` pairs."""
    out: list[str] = []
    skip = False
    for token in options:
        if skip:
            skip = False
            continue
        if token == "-p":
            skip = True
            continue
        out.append(token)
    return tuple(out)


def with_forks(options: Sequence[str], forks: int | None) -> tuple[str, ...]:
    """``options`` with JMH's ``-f`` set to ``forks`` (unchanged when None)."""
    return _with_count(options, "-f", forks)


def with_warmup(options: Sequence[str], iterations: int | None) -> tuple[str, ...]:
    """``options`` with JMH's ``-wi`` set to ``iterations`` (unchanged when None)."""
    return _with_count(options, "-wi", iterations)


def _with_count(options: Sequence[str], flag: str, value: int | None) -> tuple[str, ...]:
    """``options`` with the single-valued ``flag`` set to ``value`` (unchanged when None)."""
    if value is None:
        return tuple(options)
    out = list(options)
    for i, token in enumerate(out[:-1]):
        if token == flag:
            out[i + 1] = str(value)
            return tuple(out)
    return (*out, flag, str(value))


def append_jvm_args(options: tuple[str, ...], value: str) -> tuple[str, ...]:
    """``options`` with ``value`` (JVM options, space-separated) added to the forks' command line.

    JMH splits ``-jvmArgsAppend`` at spaces only when the option is given once; given twice,
    each value is passed as one argument, so ``"-Xmx1g -Dx=1"`` would reach the JVM as a single
    bad option. A user's single ``-jvmArgsAppend`` is therefore extended rather than repeated.
    """
    flag = "-jvmArgsAppend"
    at = [i for i, token in enumerate(options[:-1]) if token == flag]
    if len(at) == 1:
        i = at[0] + 1
        return (*options[:i], f"{options[i]} {value}", *options[i + 1 :])
    if not at:
        return (*options, flag, value)
    return (*options, *(t for v in value.split() for t in (flag, v)))


def list_argv(
    launcher: list[str], benchmarks: Sequence[str], options: Sequence[str] = ()
) -> list[str]:
    """``-lp``: the benchmarks the regexes select, with their @Param values after the user's
    ``-p`` overrides (JMH applies them to the listing)."""
    return [*launcher, *benchmarks, *param_options(options), "-lp"]

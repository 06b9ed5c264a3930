"""Statistics on numpy arrays, no I/O: intervals, tests, verdicts, diagnostics and power.

``welch`` holds the Student/Welch building blocks; ``method`` the protocol every comparison
method implements, ``methods`` the registry of them (Welch on log fork means in ``fork_welch``,
ranks of fork means in ``fork_ranks``, exact bytes/op and the one-fork fallback in
``strategies``) and the rule choosing one; ``verdict`` the
five-way decision, ``family`` the multiplicity procedures (Benjamini–Hochberg, Holm),
``variance``/``power`` the Kalibera–Jones variance components and the minimal detectable
effect, ``warmup`` and ``shape`` the diagnostics that say when a fork mean should not be trusted.
"""

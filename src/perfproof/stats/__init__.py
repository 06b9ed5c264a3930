"""Statistics on numpy arrays, no I/O: intervals, tests, verdicts, diagnostics and power.

``welch`` holds the Student/Welch building blocks, ``strategies`` the three comparison
strategies (fork-level, exact, iteration-level) and the rule choosing one, ``verdict`` the
five-way decision, ``family`` the multiplicity procedures (Benjamini–Hochberg, Holm),
``variance``/``power`` the Kalibera–Jones variance components and the minimal detectable
effect, ``warmup`` and ``shape`` the diagnostics that say when a fork mean should not be trusted.
"""

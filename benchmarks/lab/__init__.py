"""perfproof's own instruments, which the shipped verbs never run: the Monte Carlo of the
sequential design (``sequential_sim``: the calibration of its levels, the A/A and power checks
of ``tests/stats``, the tables of BENCHMARKS.md), the JVM-like noise law it and the tests draw
forks from (``simulate``) and the accuracy of static reach measured against recordings
(``reach_accuracy``). The scripts beside this package and the tests import
it (``pytest`` puts ``benchmarks/`` on the path); the installed package does not hold it.
"""

"""JFR profiles: recording, allocation and CPU census, before/after diff, flame graphs.

Recordings are parsed by a small Java helper run with the user's JDK (only the JDK reads
every JFR format version); Python works on the compact aggregates it emits.
"""

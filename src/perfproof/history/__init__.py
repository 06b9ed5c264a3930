"""Results over time: a store of recorded runs (SQLite by default, PostgreSQL when shared) and
the commits where a benchmark's level shifted.

``db`` opens and migrates the database (one layer for both backends), ``schema`` holds the
numbered migrations, ``records`` turns a run folder, a compare or a plain JMH file into a
record, ``store`` writes records and reads series, ``edivisive`` finds change points,
``analysis`` sizes them and each run's interval, ``render`` prints tables and JSON, ``page``
writes the HTML page (an index of every key, then ``trend``'s plots over dates), with commits
linked by ``links``.
"""

"""Change reach, as every verb that asks it shares it: which methods a change edits, which
benchmarks a static call path leads to them from (``changes``), the changed code's share of a
benchmark's recording (``share``), and what a recording says of a benchmark no static path
leads to (``recorded``).

A shared room of ``pipeline/``: ``ab`` (its report's reach) and ``prove`` (its chain) import
it, and it imports no verb's room.
"""

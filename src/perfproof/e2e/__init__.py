"""End-to-end A/B of whole commands: interleaved runs, metrics from output, honest intervals.

``experiment`` is the entry point (options → run folder → results); ``metrics`` reads values
out of outputs, ``runner`` runs and keeps them, ``analysis`` and ``power`` are the statistics,
``amdahl`` the ceiling, ``render`` the output formats, ``sides`` the refs → worktrees → builds.
"""

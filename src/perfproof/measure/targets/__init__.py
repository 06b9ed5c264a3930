"""What one step of a run measures: a JMH process (``ab``, ``guard``) or a whole command
(``command``, for ``e2e``). Every target records its steps in the one run store."""

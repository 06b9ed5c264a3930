"""``--budget``, the one ledger of a run's measuring time: the seconds it grants, the text the
user typed, and the one test of whether more work fits.

The seconds charged (``spent``) are what JMH itself ran in the finished steps, never a wait
for another JMH's lock (``measure.rounds.measuring_seconds``); ``need`` is an estimate of the
work ahead. Every decision the budget takes (a next round, the recorded forks that explain a
verdict, the warning that it ends before the first look) asks :meth:`Budget.fits`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """``--budget`` read once, at the door (``measure.plan.parse_budget``): the seconds every
    later step is judged by, kept in the run's plan, and the text as typed, which the
    manifest's options and the command that repeats the run keep."""

    seconds: float
    text: str

    def __str__(self) -> str:
        return self.text

    def fits(self, spent: float, need: float) -> bool:
        """Whether ``need`` more seconds, after ``spent``, end within the budget."""
        return spent + need <= self.seconds

    def left(self, spent: float) -> float:
        """The seconds still granted after ``spent`` (none once it is overrun)."""
        return max(self.seconds - spent, 0.0)

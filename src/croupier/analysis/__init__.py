"""Exact par sheets and the simulator that cross-checks them.

>>> from croupier.analysis import exact_parsheet
>>> from croupier.wagers import get_wager
>>> f"{float(exact_parsheet(get_wager('perfect-pairs'), 'B', decks=8).house_edge):.4%}"
'3.3735%'
"""

from croupier.analysis.exact import OutcomeCounts, exact_counts, total_deals
from croupier.analysis.parsheet import OutcomeRow, ParSheet, exact_parsheet, resolve
from croupier.analysis.simulate import simulate

__all__ = [
    "OutcomeCounts",
    "OutcomeRow",
    "ParSheet",
    "exact_counts",
    "exact_parsheet",
    "resolve",
    "simulate",
    "total_deals",
]

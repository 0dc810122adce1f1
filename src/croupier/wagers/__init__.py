"""Wagers: one module per regulation section, found through :mod:`croupier.wagers.registry`.

>>> from croupier.wagers import get_wager
>>> from croupier.cards import parse_cards
>>> get_wager("perfect-pairs").evaluate(parse_cards("Ah Ad"))
<PerfectPairsOutcome.COLORED_PAIR: 'colored-pair'>
"""

from croupier.wagers.at_table import CardSource, SettleWhen
from croupier.wagers.base import (
    CardGroup,
    DealSpec,
    Game,
    OrderedOutcome,
    ProgressiveStake,
    Settlement,
    Wager,
    net_win,
)
from croupier.wagers.registry import all_wagers, get_wager, register
from croupier.wagers.spec import WagerSpec

__all__ = [
    "CardGroup",
    "CardSource",
    "DealSpec",
    "Game",
    "OrderedOutcome",
    "ProgressiveStake",
    "SettleWhen",
    "Settlement",
    "Wager",
    "WagerSpec",
    "all_wagers",
    "get_wager",
    "net_win",
    "register",
]

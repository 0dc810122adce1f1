"""Poker hands read from multi-deck shoes, with wild cards.

>>> from croupier.cards import parse_cards
>>> from croupier.poker import Category, read_hand
>>> reading = read_hand(parse_cards("7s 7s 7s 7s Kd"), wild=lambda c: str(c) == "Kd")
>>> Category.FIVE_OF_A_KIND in reading.categories
True
"""

from croupier.poker.hands import (
    Category,
    PokerReading,
    WildSuit,
    achievable,
    highest_pair,
    read_hand,
    suits_allow_flush,
)

__all__ = [
    "Category",
    "PokerReading",
    "WildSuit",
    "achievable",
    "highest_pair",
    "read_hand",
    "suits_allow_flush",
]

"""Perfect Pairs (58 Pa. Code § 633b.1) counted in closed form from a shoe's per-card counts, for
the effect-of-removal tests (tests/analysis/test_eor_cards.py, test_eor_shoes.py)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from croupier.cards import Card, Rank, Suit


def perfect_pairs_return(comp: tuple[int, ...], pays: tuple[int, int, int]) -> Fraction:
    """Perfect Pairs' return from per-card counts (index = Card.index), pays (perfect, coloured,
    mixed) to 1."""
    n = sum(comp)
    perfect = sum(comb(c, 2) for c in comp)
    colored = mixed = 0
    for rank in Rank:
        cards = [Card(rank, s) for s in Suit]
        for a, b in combinations(cards, 2):
            both = comp[a.index] * comp[b.index]
            if a.color is b.color:
                colored += both
            else:
                mixed += both
    hands = comb(n, 2)
    lose = hands - perfect - colored - mixed
    p, c, m = pays
    return Fraction(p * perfect + c * colored + m * mixed - lose, hands)

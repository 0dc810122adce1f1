"""Exact AxMan analysis (58 Pa. Code § 633c.12) conditioned on what a player knows.

The par sheets (``croupier analyze axman``) average over every deal of the player's two cards. Here
the player's two cards are given — so their kings of diamonds fix the multiplier (§ 633c.12(j)) and
they are removed from the shoe exactly — and optionally the dealer's upcard; the dealer's final-hand
distribution over the rest of the shoe gives the probability of each AxMan hand and the expected
return of the wager.

>>> from croupier.cards import parse_cards
>>> from croupier.games.blackjack import BlackjackRules
>>> a = axman_given(parse_cards("Kd Kd"), BlackjackRules(6))    # ×5 on every winning pay
>>> a.factor, a.expected_return > 0
(5, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.cards import Card, Shoe, format_cards
from croupier.errors import CardError, citation
from croupier.games.blackjack import BlackjackRules
from croupier.wagers.axman import (
    DEFAULT_READING,
    KING_OF_DIAMONDS,
    AxManHand,
    AxManOutcome,
    AxManReading,
    axman_for,
    hand_distribution,
)
from croupier.wagers.base import net_win


@dataclass(frozen=True)
class AxManGiven:
    """The AxMan wager's exact figures given the player's two cards (and the upcard, if known)."""

    rules: BlackjackRules
    player: tuple[Card, ...]
    upcard: Card | None
    factor: int
    hands: dict[AxManHand | None, Fraction]
    nets: dict[AxManHand | None, Fraction]

    @property
    def expected_return(self) -> Fraction:
        """Expected net win per unit wagered."""
        return sum((p * self.nets[h] for h, p in self.hands.items()), Fraction(0))

    @property
    def win_probability(self) -> Fraction:
        """Probability that the wager wins."""
        return sum((p for h, p in self.hands.items() if h is not None), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "section": "633c.12",
            "citation": citation("633c.12"),
            "rules": self.rules.describe(),
            "player": format_cards(self.player),
            "upcard": str(self.upcard) if self.upcard else None,
            "multiplier": self.factor,
            "hands": [
                {
                    "hand": h.value if h else "lose",
                    "probability": float(self.hands.get(h, Fraction(0))),
                    "net_win": float(self.nets[h]),
                }
                for h in [*AxManHand, None]
            ],
            "win_probability": float(self.win_probability),
            "expected_return": float(self.expected_return),
            "expected_return_exact": (
                f"{self.expected_return.numerator}/{self.expected_return.denominator}"
            ),
        }


def axman_given(
    player: Sequence[Card],
    rules: BlackjackRules,
    upcard: Card | None = None,
    shoe: Shoe | None = None,
    reading: AxManReading = DEFAULT_READING,
) -> AxManGiven:
    """Exact AxMan figures for a player holding ``player`` (two cards), the dealer showing
    ``upcard`` if given, dealt from ``shoe`` (default: the rules' full shoe).

    Raises :class:`CardError` unless ``player`` is two cards,
    :class:`~croupier.errors.RulesError` when the table's deck count is not 6 or 8
    (§ 633c.12(a)), and :class:`~croupier.errors.ShoeError` when the shoe lacks a card.
    """
    if len(player) != 2:
        raise CardError(
            f"the player's initial hand is two cards, got {len(player)}", format_cards(player)
        )
    wager = axman_for(rules)
    table = wager.paytable("standard", rules.decks)
    base = (shoe or rules.shoe()).remove(player)
    if upcard is not None:
        base.remove([upcard])  # raises, naming the card, when the shoe lacks it
    hands = hand_distribution(base, rules.hits_soft_17, reading, upcard)
    kd = sum(1 for c in player if c == KING_OF_DIAMONDS)
    nets: dict[AxManHand | None, Fraction] = {None: Fraction(-1)}
    factor = 1
    for h in AxManHand:
        outcome = AxManOutcome.of(h, kd)
        factor = wager.pay_factor(table, outcome)
        nets[h] = net_win(wager.pay_line(table, outcome)) * factor
    return AxManGiven(rules, tuple(player), upcard, factor, hands, nets)

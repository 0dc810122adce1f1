"""The house rules a Blackjack player's decisions depend on (58 Pa. Code §§ 633a.9–633a.11, the
Rules Submission): the base game's rules, used by the table (:mod:`croupier.table`) to check each
move and by the strategy engine (:mod:`croupier.analysis.blackjack_strategy`) to value it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from croupier.errors import RulesError
from croupier.games.blackjack import BlackjackRules, SoftSeventeen


class DoubleOn(Enum):
    """Which first two cards a player may double on (§ 633a.10, the Rules Submission)."""

    ANY = "any"
    """Any first two cards."""
    NINE_TO_ELEVEN = "9-11"
    """A hard 9, 10 or 11 only."""
    TEN_OR_ELEVEN = "10-11"
    """A hard 10 or 11 only."""

    def allows(self, total: int, soft: bool) -> bool:
        """Whether a two-card hand of ``total`` (``soft`` when an ace counts 11) may double."""
        if self is DoubleOn.ANY:
            return True
        low = 9 if self is DoubleOn.NINE_TO_ELEVEN else 10
        return not soft and low <= total <= 11

    def describe(self) -> str:
        """e.g. ``'double on any two'``, ``'double on 9–11'``."""
        return "double on any two" if self is DoubleOn.ANY else f"double on {self.value}"


@dataclass(frozen=True)
class PlayRules:
    """The house rules a player's decisions depend on (§§ 633a.9–633a.11, the Rules Submission).

    Defaults: PA's fundamental rules (stand on soft 17, peek, Blackjack 3 to 2), doubling on any
    first two cards and after a split, splitting to four hands, one split of aces with one card
    each, no late surrender (optional in PA; ``late_surrender=True`` offers it).
    """

    table: BlackjackRules = field(default_factory=BlackjackRules)
    double_after_split: bool = True
    split_hands: int = 4
    """The most hands a player may make by splitting and re-splitting (1: no splitting)."""
    resplit_aces: bool = False
    hit_split_aces: bool = False
    late_surrender: bool = False
    double_on: DoubleOn = DoubleOn.ANY
    """Which first two cards may be doubled (the doubles after a split follow the same rule)."""

    def __post_init__(self) -> None:
        if self.split_hands < 1:
            raise RulesError("split_hands must be 1 (no splitting) or more", section="633a.11")

    @staticmethod
    def of(
        decks: int = 6,
        hits_soft_17: bool = False,
        das: bool = True,
        split_hands: int = 4,
        resplit_aces: bool = False,
        hit_split_aces: bool = False,
        late_surrender: bool = False,
        *,
        peek: bool = True,
        blackjack_pays: Fraction = Fraction(3, 2),
        double_on: DoubleOn = DoubleOn.ANY,
    ) -> PlayRules:
        """The rules from plain arguments."""
        soft = SoftSeventeen.HITS if hits_soft_17 else SoftSeventeen.STANDS
        return PlayRules(
            BlackjackRules(decks, soft, peek=peek, blackjack_pays=Fraction(blackjack_pays)),
            das,
            split_hands,
            resplit_aces,
            hit_split_aces,
            late_surrender,
            double_on,
        )

    def describe(self) -> str:
        """e.g. ``'6 decks, dealer stands on soft 17, DAS, split to 4 hands, no surrender'``."""
        parts = [self.table.describe()]
        if not self.table.peek:
            parts.append("no hole-card peek (a dealer Blackjack takes doubles and splits)")
        parts.append(self.double_on.describe())
        parts.append("double after split" if self.double_after_split else "no double after split")
        if self.split_hands > 1:
            parts.append(f"split to {self.split_hands} hands")
            parts.append("re-split aces" if self.resplit_aces else "aces split once")
            if self.hit_split_aces:
                parts.append("hit split aces")
        else:
            parts.append("no splitting")
        parts.append("late surrender" if self.late_surrender else "no surrender")
        parts.append(f"Blackjack pays {_odds(self.table.blackjack_pays)}")
        return ", ".join(parts)


def _odds(x: Fraction) -> str:
    x = Fraction(x)
    return f"{x.numerator} to {x.denominator}"


__all__ = ["DoubleOn", "PlayRules"]

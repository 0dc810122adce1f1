"""One family for the poker rankings croupier reads: ordered categories declared as data.

A ranking is an :class:`Enum` of :class:`RankedCategory` whose members are declared in order —
lowest first (the four- and five-card rankings of § 641a.1) or, with ``_best_first`` returning
True, best first (the AxMan paytable's order, § 633c.12(k); the wild-card categories) — and valued
by their key (``'three-of-a-kind'``). Members compare by :attr:`~RankedCategory.strength`, 0 for
the weakest; :attr:`~RankedCategory.label` is the category as printed.

>>> from croupier.poker.four_card import FourCardCategory as C
>>> C.THREE_OF_A_KIND > C.FLUSH, C.THREE_OF_A_KIND.strength, C.TWO_PAIR.label
(True, 5, 'Two pair')
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from croupier.cards import Card, Rank, format_cards

_STRENGTH: dict[Enum, int] = {}


class RankedCategory(Enum):
    """Base of a ranking (see the module docstring); defines no members itself."""

    @classmethod
    def _best_first(cls) -> bool:
        """Whether the members are declared best first (default: lowest first)."""
        return False

    @property
    def strength(self) -> int:
        """0 for the weakest category, up to one less than the number of categories."""
        try:
            return _STRENGTH[self]
        except KeyError:
            members = list(type(self))
            if type(self)._best_first():
                members.reverse()
            _STRENGTH.update((m, i) for i, m in enumerate(members))
            return _STRENGTH[self]

    @property
    def label(self) -> str:
        """The category as printed: ``'Full house'``, ``'Three-of-a-kind'``, ``'Two pair'``."""
        text = str(self.value).replace("-", " ").capitalize()
        return text.replace(" of a kind", "-of-a-kind")

    def __lt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, RankedCategory)
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, RankedCategory)
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, RankedCategory)
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, RankedCategory)
        return self.strength >= other.strength


def describe_hand(category: RankedCategory, tiebreak: Sequence[Rank], cards: Sequence[Card]) -> str:
    """A hand in words: its category, the ranks that make it, its cards —
    ``'Full house, kings over fives (Kh Kd Kc 5c 5s)'``, ``'Pair of aces (…)'``,
    ``'Straight, K high (…)'``."""
    key, t = category.value, tiebreak
    if key == "full-house":
        what = f", {t[0].plural} over {t[1].plural}"
    elif key in ("four-of-a-kind", "three-of-a-kind"):
        what = f", {t[0].plural}"
    elif key == "two-pair":
        what = f", {t[0].plural} and {t[1].plural}"
    elif key == "pair":
        what = f" of {t[0].plural}"
    elif key == "royal-flush":
        what = ""
    else:
        what = f", {t[0].letter} high"
    return f"{category.label}{what} ({format_cards(cards)})"


__all__ = ["RankedCategory", "describe_hand"]

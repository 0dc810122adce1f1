"""What the Four Card Poker wagers (§ 641a.7) share: the card groups they read, the EXAMPLE
paytables, the exact enumeration over one deck, their base class and a seat's wagers."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from croupier.cards import Card, Shoe
from croupier.errors import InputError, RulesError
from croupier.games.four_card_poker_exact import DEALER_HANDS, PLAYER_HANDS
from croupier.paytables import (
    Paytable,
    PaytableBook,
    builtin_paytables,
    parse_section_text,
)
from croupier.poker.class_counts import Kind, category_counts, pair_counts
from croupier.units import format_money
from croupier.wagers.at_table import CardSource
from croupier.wagers.base import (
    CardGroup,
    Game,
    Wager,
)
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:
    import numpy as np

    from croupier.poker.four_card import IntArray
else:  # numpy on first use (croupier.lazy): importing the wagers reads no array
    from croupier.lazy import numpy as np

SECTION = "641a.7"
PLAYER = CardGroup("player's five cards", 5, source=CardSource.PLAYER)
DEALER = CardGroup("dealer's six cards", 6, source=CardSource.DEALER)
BONUS_CARD = CardGroup("Six Card Bonus card", 1, source=CardSource.BONUS)
UPCARD = CardGroup("dealer's face-up card", 1, source=CardSource.DEALER_UPCARD)
DEALER_DOWN = CardGroup("dealer's five face-down cards", 5, source=CardSource.DEALER_DOWN)
EXAMPLES = "641a.7-examples.toml"
_SHOWDOWN_CONVENTION = (
    f"every deal of the player's five cards and the dealer's six from one deck "
    f"(C(52,5) × C(47,6) = {PLAYER_HANDS:,} × {DEALER_HANDS:,} = {PLAYER_HANDS * DEALER_HANDS:,}); "
    "each card distinct"
)
"""How the showdown wagers' exact counts are made (Bad Beat Bonus, the Ante and Play)."""


@functools.cache
def example_paytables() -> tuple[Paytable, ...]:
    """The EXAMPLE operator paytables shipped for the wagers whose tables § 641a.12 prints
    (not in the text croupier holds): loaded as not printed in the regulation."""
    from importlib import resources

    entry = resources.files("croupier.paytables") / "examples" / EXAMPLES
    return parse_section_text(entry.read_text(encoding="utf-8"), f"examples/{EXAMPLES}")


@functools.cache
def _with_examples(book: PaytableBook) -> PaytableBook:
    have = {(t.section, t.key.upper()) for t in book}
    return book.with_paytables(
        t for t in example_paytables() if (t.section, t.key.upper()) not in have
    )


# -- exact enumeration over one deck -------------------------------------------------------------


def _present(shoe: Shoe, wager: str) -> IntArray:
    if any(n > 1 for n in shoe.counts):
        raise RulesError(f"the {wager} wager is played with one deck, not a {shoe}", SECTION)
    return np.array([i for i, n in enumerate(shoe.counts) if n], dtype=np.int64)


def _subset_categories(composition: tuple[int, ...], k: int, kind: Kind) -> tuple[int, ...]:
    """Counts of each category strength over every k-subset of the cards the shoe holds, counted
    by rank multiset and suit (:func:`croupier.poker.class_counts.category_counts`, cached there).

    ``kind``: ``"four"`` best four-card category, ``"five"`` best five-card category.
    """
    return category_counts(composition, k, kind)


def _aces_pairs(composition: tuple[int, ...]) -> int:
    """Five-card hands whose best four is exactly a pair of aces."""
    return pair_counts(composition, 5, "four")[12]


# -- the common base -------------------------------------------------------------------------------


FOUR_CARD_POKER_WAGER = partial(
    WagerSpec,
    game=Game.FOUR_CARD_POKER,
    section=SECTION,
    allowed_decks=(1,),
    settles_with="four-card-poker",
)
"""The spec of a wager of § 641a.7 (one deck), given the rest of its settings. Every wager of the
section is settled with the Ante and Play, one seat at a time (:meth:`AntePlay.settle_at_table`)."""


class FourCardPokerWager(Wager):
    """A Four Card Poker wager (§ 641a.7(d)): one deck; its paytables are the lines of the
    section's data files that name it (shipped data, then the EXAMPLE operator tables)."""

    def check_seat_bets(self, bets: dict[str, int]) -> None:
        """§ 641a.7(d): which wagers a seat may hold together (:meth:`FourCardPokerBets.check`).

        Raises :class:`~croupier.errors.RulesError` citing the paragraph.
        """
        FourCardPokerBets.of(bets).check()

    @property
    def book(self) -> PaytableBook:
        """The paytables: the override (or built-in) book, plus the EXAMPLE tables whose keys it
        does not already hold."""
        base = self.book_override if self.book_override is not None else builtin_paytables()
        return _with_examples(base)


def _cards_idx(cards: Sequence[Card]) -> IntArray:
    return np.array([[c.index for c in cards]], dtype=np.int64)


_BET_FIELDS = {
    "four-card-poker": "ante_cents",
    "aces-up": "aces_up_cents",
    "four-card-progressive": "four_card_progressive_cents",
    "five-card-progressive": "five_card_progressive_cents",
    "bad-beat-bonus": "bad_beat_cents",
    "five-card-hand-bonus": "five_card_bonus_cents",
    "five-card-hand-bonus-dealer": "five_card_bonus_dealer_cents",
    "six-card-bonus": "six_card_bonus_cents",
}
"""Wager ids → fields of :class:`FourCardPokerBets`."""


@dataclass(frozen=True)
class FourCardPokerBets:
    """One player's wagers on a round, in cents (0: not placed). ``play_cents`` 0 is a fold."""

    ante_cents: int = 0
    play_cents: int = 0
    aces_up_cents: int = 0
    four_card_progressive_cents: int = 0
    five_card_progressive_cents: int = 0
    bad_beat_cents: int = 0
    five_card_bonus_cents: int = 0
    five_card_bonus_dealer_cents: int = 0
    six_card_bonus_cents: int = 0

    @staticmethod
    def of(bets: Mapping[str, int], play_cents: int = 0) -> FourCardPokerBets:
        """A seat's wagers of § 641a.7 from wager id → cents (other ids are not this game's)."""
        kw = {_BET_FIELDS[w]: c for w, c in bets.items() if w in _BET_FIELDS}
        return FourCardPokerBets(play_cents=play_cents, **kw)

    def check(self) -> None:
        """The rules of § 641a.7(d) on which wagers may be placed together.

        Raises :class:`~croupier.errors.InputError` for a negative or non-integer amount and
        :class:`~croupier.errors.RulesError` citing the paragraph for a broken rule.
        """
        for name, value in self.__dict__.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"{name} must be a whole number of cents ≥ 0, not {value!r}")
        if not (self.ante_cents or self.aces_up_cents):
            for cents, what, rule in (
                (self.four_card_progressive_cents, "Four-Card", "641a.7(d)(4)"),
                (self.five_card_progressive_cents, "Five-Card", "641a.7(d)(5)"),
            ):
                if cents:
                    raise RulesError(
                        f"the {what} Progressive Payout wager is placed after an Ante wager or "
                        "an Aces Up wager, or both",
                        rule,
                    )
            raise RulesError(
                "a round needs an Ante wager, an Aces Up wager, or both", "641a.7(d)(1)–(3)"
            )
        if self.play_cents:
            if not self.ante_cents:
                raise RulesError("a Play wager needs an Ante wager", "641a.7(d)(1)")
            if not self.ante_cents <= self.play_cents <= 3 * self.ante_cents:
                raise RulesError(
                    f"the Play wager is one to three times the Ante "
                    f"({format_money(self.ante_cents)} to {format_money(3 * self.ante_cents)}), "
                    f"not {format_money(self.play_cents)}",
                    "641a.7(d)(1)",
                )
        if (
            self.five_card_bonus_cents or self.five_card_bonus_dealer_cents
        ) and not self.ante_cents:
            raise RulesError("the Five Card Hand Bonus wager needs an Ante wager", "641a.7(d)(7)")
        if self.six_card_bonus_cents and not self.ante_cents:
            raise RulesError("the Six Card Bonus wager needs an Ante wager", "641a.7(d)(8)")

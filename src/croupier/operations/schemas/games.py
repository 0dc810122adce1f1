"""The game commands' ``--json`` documents: ``hand``, ``play``, ``blackjack-round``,
``baccarat``, ``four-card-poker``, ``axman`` and ``dealer``."""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.operations.schemas.settlement import PlayedRound, SettledSettlement
from croupier.operations.schemas.values import (
    Absent,
    CentFraction,
    Cents,
    Citation,
    Exact,
    Section,
    Signed,
    absent,
)


class HandResult(Shape):
    """``croupier hand``: one wager settled on the cards given"""

    wager: str
    section: Section
    citation: Citation
    paytable: str
    decks: int
    cards: list[str]
    reads: dict[str, list[str]]
    """what each group of the cards is read as (``player's two cards``) → its cards"""
    outcome: str | None
    """the paytable line's outcome key; null when the wager loses"""
    paid_as: str | None
    pays: str | None
    amount: str
    amount_cents: Cents
    win: Signed
    win_cents: Cents
    returned: str
    returned_cents: Cents
    pending_validation: bool
    rounding_dropped_cent_fraction: CentFraction
    settlement: SettledSettlement


class BlackjackRound(PlayedRound):
    """a dealt Blackjack round settled through the round procedure"""

    rules: str
    """the table's rules, e.g. "6 decks, dealer stands on soft 17\""""


class BaccaratHand(Shape):
    """the Player's or the Banker's hand of a coup"""

    cards: list[str]
    total: int
    natural: bool
    drew: str | None
    """the third card drawn; null when the hand stood on two cards"""


class BaccaratWager(Shape):
    """one wager of the coup; the money keys only with ``--bet``"""

    wager: str
    section: Section
    citation: Citation
    paytable: str
    outcome: str | None
    paid_as: str | None
    pays: str | None
    amount: str | Absent = absent()
    amount_cents: int | Absent = absent("money in integer cents")
    win: Signed | Absent = absent()
    win_cents: Cents | Absent = absent("money in integer cents")
    returned: str | Absent = absent()
    returned_cents: Cents | Absent = absent("money in integer cents")
    rounding_dropped_cent_fraction: CentFraction | Absent = absent(
        "with --bet: what rounding the pay down to the cent did not pay, an exact fraction of a "
        'cent ("1/2": half a cent of a Banker win of $25.10); "0/1" when nothing'
    )


class BaccaratCoup(Shape):
    """``croupier baccarat``: a coup dealt by the drawing rules and, with ``--bet``, settled"""

    cards: list[str]
    player: BaccaratHand
    banker: BaccaratHand
    result: str
    decks: int
    wagers: list[BaccaratWager]
    net: Signed | Absent = absent()
    net_cents: Cents | Absent = absent("money in integer cents")
    returned: str | Absent = absent()
    returned_cents: Cents | Absent = absent("money in integer cents")
    settlement: SettledSettlement | Absent = absent()


class FourCardPokerWager(Shape):
    """one wager of the Four Card Poker round: the Ante, Play, Aces Up or the progressive"""

    wager: str
    name: str
    section: Section
    citation: Citation
    amount: str
    amount_cents: Cents
    win: Signed
    win_cents: Cents
    detail: str
    envy: str | Absent = absent("the envy bonus paid, when there is one")
    envy_cents: int | Absent = absent(
        "the envy bonus paid, in integer cents; the key only when there is one"
    )
    pending_validation: Literal[True] | Absent = absent(
        "true when a floorperson or above validates the award before it is paid "
        "(58 Pa. Code § 633b.3(h)(3)); the key only then"
    )


class FourCardPokerRound(Shape):
    """``croupier four-card-poker``: a round dealt, decided and settled"""

    game: Literal["four-card-poker"]
    section: Section
    citation: Citation
    player: list[str]
    dealer: list[str]
    player_hand: str
    dealer_hand: str
    showdown: str
    decision: str | None
    """the player's decision (``fold``, ``play-1x``, ``play-3x``); null without a Play wager"""
    optimal_decision: str
    wagers: list[FourCardPokerWager]
    net: Signed
    net_cents: Cents
    settlement: SettledSettlement


class AxManOutcome(Shape):
    """one AxMan hand the player's two cards and the dealer's cards can make"""

    hand: str
    """the AxMan hand (``straight-flush``, …) or ``lose``"""
    probability: float
    net_win: float
    """per unit wagered"""


class AxManGiven(Shape):
    """``croupier axman``: the AxMan wager given the player's cards"""

    section: Section
    citation: Citation
    rules: str
    player: str
    upcard: str | None
    multiplier: int
    hands: list[AxManOutcome]
    win_probability: float
    expected_return: float
    """per unit wagered"""
    expected_return_exact: Exact


class DealerResults(Shape):
    """upcard → result (17–21, BJ, bust) → probability; the exact fractions under upcards_exact"""

    rules: str
    peeked: bool
    upcards: dict[str, dict[str, float]]
    upcards_exact: dict[str, dict[str, Exact]]


__all__ = [
    "AxManGiven",
    "AxManOutcome",
    "BaccaratCoup",
    "BaccaratHand",
    "BaccaratWager",
    "BlackjackRound",
    "DealerResults",
    "FourCardPokerRound",
    "FourCardPokerWager",
    "HandResult",
]

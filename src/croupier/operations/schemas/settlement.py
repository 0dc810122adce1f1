"""A round's settlement as the commands write it: each line
(:meth:`croupier.wagers.at_table.SettlementLine.to_json`), the settlement
(:meth:`~croupier.wagers.at_table.RoundSettlement.to_json`), a procedure event
(:meth:`croupier.table.procedure.Event.to_json`) and a round dealt and settled (``croupier play``,
``croupier blackjack-round``)."""

from __future__ import annotations

from typing import Literal

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import (
    CentFraction,
    Citation,
    Section,
    SignedMoney,
)
from croupier.table.procedure import Action, Phase


class SettlementLine(Shape):
    """one wager's settlement line (croupier.wagers.at_table.SettlementLine.to_json)"""

    seat: int
    wager: str
    """the settled wager's id, ``wager:part`` for a part of it (``four-card-poker:play``)"""
    bet: str
    """the id of the bet the line settles"""
    outcome: str
    pays: str
    """the pay as printed (``25 to 1``, ``loses``)"""
    stake_cents: int
    """the stake, in integer cents (US$ 0.01)"""
    stake: str
    """the amount formatted for people, e.g. "$5,000" or "$0.1875\""""
    win_cents: int | None
    """the player's net win (negative: lost), in integer cents; null when the base game settles
    it"""
    win: SignedMoney | None
    returned_cents: int | None
    """what goes back to the player (stake and win), in integer cents; null when the base game
    settles it"""
    pending_validation: bool
    outcome_key: str | None
    """the paytable line's outcome key; null when lost or not a paytable line"""
    section: Section
    citation: Citation
    rounding_dropped_cent_fraction: CentFraction
    settled_by_base_game: bool
    kind: Literal["wager", "envy-bonus"]
    """what the line settles: the bet itself, or an envy bonus paid for another seat's hand
    (58 Pa. Code § 633b.2(i))"""
    from_seat: int | None
    """the seat whose hand paid an envy bonus; null for a bet's own line"""


class SettledLine(SettlementLine):
    """one wager's settlement line, settled by croupier (never left to the base game)"""

    win_cents: int
    """the player's net win (negative: lost), in integer cents"""
    win: SignedMoney
    returned_cents: int
    """what goes back to the player (stake and win), in integer cents"""


class Settlement(Shape):
    """the one settlement record of a round (RoundSettlement.to_json)"""

    lines: tuple[SettlementLine, ...]
    net_cents: int
    """the players' net over the lines croupier settled, in integer cents (US$ 0.01)"""
    net: SignedMoney
    returned_cents: int
    """everything returned to the players, in integer cents (US$ 0.01)"""


class SettledSettlement(Settlement):
    """the settlement of a single deal, every line settled by croupier"""

    lines: tuple[SettledLine, ...]


class Event(Shape):
    """one event of the round's procedure"""

    index: int
    action: Action
    phase: Phase
    seat: int | None
    wager: str | None
    amount_cents: int | None
    """the amount of the step, in integer cents; null when not applicable"""
    outcome: str | None
    pays: str | None
    win_cents: int | None
    """the net win, in integer cents; null when not applicable"""
    returned_cents: int | None
    """returned to the player, in integer cents; null when not applicable"""
    pending_validation: bool
    outcome_key: str | None
    section: Section
    citation: Citation
    detail: str


class PlayedRound(Shape):
    """a round dealt and settled through the round procedure (the round record of
    ``croupier settle``)"""

    round: str
    submission: str
    cards: str | None
    events: list[Event]
    settlement: Settlement
    net_cents: int
    """the players' net result of the round, in integer cents (US$ 0.01)"""


__all__ = [
    "Event",
    "PlayedRound",
    "SettledLine",
    "SettledSettlement",
    "Settlement",
    "SettlementLine",
]

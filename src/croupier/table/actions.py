"""Each table action as an immutable record of its own kind, and what the round allows now.

A round is driven by :class:`~croupier.table.round.TableRound`'s methods; the same steps as values
(:class:`PlaceBet`, :class:`NoMoreBets`, :class:`Deal`, :class:`DealShoe`, :class:`PlayWager`,
:class:`Fold`, :class:`Switch`, :class:`Keep`, :class:`Hit`, :class:`Stand`, :class:`Double`,
:class:`Split`, :class:`Surrender`, :class:`DealerDraw`, :class:`Settle`) can be stored, sent and replayed:
:func:`apply` makes one, :func:`can` asks whether the round would accept it (a dry run: rounds are
immutable, so asking changes nothing), :func:`allowed` lists exactly the kinds of action the round
would accept now (pokerkit's operations and ``can_*`` queries are the model).

>>> from croupier.table.submission import submission_from_data
>>> sub = submission_from_data({"game": "blackjack", "decks": 6, "dealer": "S17", "wagers": [
...     {"wager": "blackjack", "min": "$10", "max": "$500"},
...     {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"}]})
>>> r = apply(TableRound.open(sub), PlaceBet(1, "blackjack", 1000))
>>> can(r, PlaceBet(1, "perfect-pairs", 500)), can(r, PlaceBet(1, "perfect-pairs", 1))
(True, False)
>>> sorted(a.value for a in allowed(r))
['bet', 'no-more-bets']
>>> sorted(a.value for a in allowed(TableRound.open(sub)))  # no wager yet: nothing to lock out
['bet']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from croupier.cards import Card
from croupier.errors import CroupierError
from croupier.table.procedure import Action
from croupier.table.round import DealtCards, TableRound


@dataclass(frozen=True)
class TableAction:
    """One step of a round. Subclasses name their :attr:`kind` and implement :meth:`apply`."""

    kind: ClassVar[Action]

    def apply(self, r: TableRound) -> TableRound:
        """The round after this step; raises the step's typed error, leaving ``r`` as it was."""
        raise NotImplementedError


@dataclass(frozen=True)
class PlaceBet(TableAction):
    """A wager at a seat, in cents (:meth:`TableRound.bet`)."""

    kind: ClassVar[Action] = Action.BET
    seat: int
    wager: str
    amount_cents: int
    player: str | None = None

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.bet`."""
        return r.bet(self.seat, self.wager, self.amount_cents, self.player)


@dataclass(frozen=True)
class NoMoreBets(TableAction):
    """The lock-out (:meth:`TableRound.no_more_bets`)."""

    kind: ClassVar[Action] = Action.NO_MORE_BETS

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.no_more_bets`."""
        return r.no_more_bets()


@dataclass(frozen=True)
class Deal(TableAction):
    """The recorded cards (:meth:`TableRound.deal`)."""

    kind: ClassVar[Action] = Action.DEAL
    cards: DealtCards
    undealt: tuple[Card, ...] = ()

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.deal`."""
        return r.deal(self.cards, self.undealt)


@dataclass(frozen=True)
class DealShoe(TableAction):
    """A deal from a shoe shuffled with ``seed`` (:meth:`TableRound.deal_shoe`)."""

    kind: ClassVar[Action] = Action.DEAL
    seed: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.deal_shoe`."""
        return r.deal_shoe(self.seed)


@dataclass(frozen=True)
class PlayWager(TableAction):
    """Four Card Poker's Play wager (:meth:`TableRound.play`)."""

    kind: ClassVar[Action] = Action.PLAY
    seat: int
    amount_cents: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.play`."""
        return r.play(self.seat, self.amount_cents)


@dataclass(frozen=True)
class Fold(TableAction):
    """The player folds (:meth:`TableRound.fold`)."""

    kind: ClassVar[Action] = Action.FOLD
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.fold`."""
        return r.fold(self.seat)


@dataclass(frozen=True)
class Switch(TableAction):
    """§ 633b.4(f)(2) (:meth:`TableRound.switch`)."""

    kind: ClassVar[Action] = Action.SWITCH
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.switch`."""
        return r.switch(self.seat)


@dataclass(frozen=True)
class Keep(TableAction):
    """§ 633b.4(f)(1) (:meth:`TableRound.keep`)."""

    kind: ClassVar[Action] = Action.KEEP
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.keep`."""
        return r.keep(self.seat)


@dataclass(frozen=True)
class Hit(TableAction):
    """The seat's hand takes a card (:meth:`TableRound.hit`)."""

    kind: ClassVar[Action] = Action.HIT
    seat: int
    card: Card | None = None

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.hit`."""
        return r.hit(self.seat, self.card)


@dataclass(frozen=True)
class Stand(TableAction):
    """The seat's hand stands (:meth:`TableRound.stand`)."""

    kind: ClassVar[Action] = Action.STAND
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.stand`."""
        return r.stand(self.seat)


@dataclass(frozen=True)
class Double(TableAction):
    """Double down (:meth:`TableRound.double`)."""

    kind: ClassVar[Action] = Action.DOUBLE
    seat: int
    amount_cents: int | None = None
    card: Card | None = None

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.double`."""
        return r.double(self.seat, self.amount_cents, self.card)


@dataclass(frozen=True)
class Split(TableAction):
    """Split the pair (:meth:`TableRound.split`)."""

    kind: ClassVar[Action] = Action.SPLIT
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.split`."""
        return r.split(self.seat)


@dataclass(frozen=True)
class Surrender(TableAction):
    """Late surrender (:meth:`TableRound.surrender`)."""

    kind: ClassVar[Action] = Action.SURRENDER
    seat: int

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.surrender`."""
        return r.surrender(self.seat)


@dataclass(frozen=True)
class DealerDraw(TableAction):
    """The dealer's draws after the players' hands, § 633a.7 (:meth:`TableRound.dealer_draw`)."""

    kind: ClassVar[Action] = Action.DEALER_DRAW
    cards: tuple[Card, ...] = ()

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.dealer_draw`."""
        return r.dealer_draw(self.cards)


@dataclass(frozen=True)
class Settle(TableAction):
    """Settle the round's end (:meth:`TableRound.settle`)."""

    kind: ClassVar[Action] = Action.SETTLE

    def apply(self, r: TableRound) -> TableRound:
        """:meth:`TableRound.settle`."""
        return r.settle()


def apply(r: TableRound, *actions: TableAction) -> TableRound:
    """The round after ``actions`` in order; raises the first refused step's typed
    :class:`~croupier.errors.CroupierError` (``r`` itself never changes)."""
    for action in actions:
        r = action.apply(r)
    return r


def can(r: TableRound, action: TableAction) -> bool:
    """Whether the round accepts ``action`` now (every rule checked, nothing changed)."""
    try:
        action.apply(r)
    except CroupierError:
        return False
    return True


def allowed(r: TableRound) -> frozenset[Action]:
    """Exactly the kinds of action the round would accept now
    (:meth:`TableRound.allowed_actions`): each is asked of the round's own steps — its phase at
    its game (:data:`~croupier.table.procedure.PROCEDURE`), whose turn it is, the hand's cards and the Rules
    Submission's options — so a kind listed is one some step of that kind (its seat, amount or
    card right) is accepted, and a kind not listed is refused whatever its parameters. Who is
    to act, with what, is :meth:`TableRound.turns`; whether a given step is accepted is
    :func:`can`.

    A dealt Blackjack round follows its order (§ 633a.7): the Switch Hands choice, then the
    decisions of the hand in turn (no ``double`` after a hit, no ``split`` of a non-pair, no
    ``surrender`` where the table offers none), then ``dealer-draw`` while the dealer's hand
    must draw, then ``settle`` (at once where the base game is external,
    :meth:`TableRound.plays_out`)."""
    return r.allowed_actions()


__all__ = [
    "Deal",
    "DealShoe",
    "DealerDraw",
    "Double",
    "Fold",
    "Hit",
    "Keep",
    "NoMoreBets",
    "PlaceBet",
    "PlayWager",
    "Settle",
    "Split",
    "Stand",
    "Surrender",
    "Switch",
    "TableAction",
    "allowed",
    "apply",
    "can",
]

"""The Blackjack part of the round procedure: the players' decisions and the Blackjack wagers.

:class:`BlackjackDecisions` is a base class of :class:`~croupier.table.round.TableRound` (use the
round, not this class): the decisions a Blackjack round records between the deal and the
settlement — keep or switch (§ 633b.4(f)), hit, stand, double (§ 633a.10), split (§ 633a.11),
surrender (§ 633a.9) — each checked by :mod:`croupier.table.blackjack_play` and logged as an
event, and the Blackjack wagers and Switch Hands Antes settled once every hand is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Self

from croupier.cards import Card, as_card
from croupier.errors import CardError, ProcedureError
from croupier.table.blackjack_play import ORDER_RULE, BlackjackPlay, MoveResult
from croupier.table.procedure import Action
from croupier.table.submission import RulesSubmission, TableGame
from croupier.wagers.at_table import BaseGame, DealtCards, SettlementLine
from croupier.wagers.switch_hands import ANTE_WAGER, Variant


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article: ``'an axman'``, ``'a blackjack'``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class BlackjackDecisions:
    """The Blackjack decisions and settlement of a :class:`~croupier.table.round.TableRound`."""

    if TYPE_CHECKING:  # what the round provides
        submission: RulesSubmission
        cards: DealtCards | None
        blackjack: BlackjackPlay | None

        @property
        def game(self) -> TableGame: ...

        @property
        def base(self) -> BaseGame: ...

        def _require(self, action: Action) -> None: ...

        def _log(self, action: Action, section: str, detail: str, **kw: object) -> Self: ...

        def _log_line(self, line: SettlementLine) -> Self: ...

        def _record_unsettled(self, wager: str, section: str, what: str) -> Self: ...

        def seat_bets(self, seat: int) -> dict[str, int]: ...

        def seats(self) -> tuple[int, ...]: ...

        def _with_play(self, play: BlackjackPlay) -> Self: ...

    def _start_play(self, cards: DealtCards, undealt: Sequence[Card]) -> BlackjackPlay:
        """The players' play at the deal (:class:`BlackjackPlay`)."""
        sub = self.submission
        base = self.base.base_wagers[0]
        wagers = {
            seat: (bets.get(base, 0), bets.get(ANTE_WAGER, 0))
            for seat in self.seats()
            for bets in (self.seat_bets(seat),)
        }
        down = dict(cards.switch_cards)
        if set(down) - set(wagers):
            raise CardError(
                f"Switch Hands cards are dealt to seats {', '.join(map(str, sorted(down)))}, "
                "but only seats with wagers are dealt cards",
                cards.describe(),
            )
        for seat, (_, ante) in wagers.items():
            if seat in down and not ante and sub.variant is Variant.SWITCH_HANDS:
                raise CardError(f"seat {seat} placed no Switch Hands Ante", cards.describe())
        return BlackjackPlay.start(
            sub.play_rules,
            sub.variant,
            sub.tie_blackjack_pays,
            wagers,
            dict(cards.players),
            down,
            cards.dealer,
            undealt,
        )

    def switch(self, seat: int) -> Self:
        """§ 633b.4(f)(2): the player plays the two face-down Switch Hands cards.

        Raises :class:`RulesError` (no Switch Hands at the table, or no Ante at the seat) and
        :class:`ProcedureError` (out of turn, already chosen)."""
        return self._move(Action.SWITCH, seat, lambda p: p.choose(seat, True))

    def keep(self, seat: int) -> Self:
        """§ 633b.4(f)(1): the player plays the two face-up cards.

        Raises :class:`RulesError` (no Switch Hands at the table, or no Ante at the seat) and
        :class:`ProcedureError` (out of turn, already chosen)."""
        return self._move(Action.KEEP, seat, lambda p: p.choose(seat, False))

    def hit(self, seat: int, card: Card | str | None = None) -> Self:
        """The seat's hand takes ``card`` (a :class:`Card` or its text, ``"Tc"``; or the shoe's
        next card).

        Raises :class:`ProcedureError` (not this hand's turn), :class:`InputError` (no card given
        and no shoe), :class:`RulesError` (a split ace that takes one card only, § 633a.11) and
        :class:`~croupier.errors.ShoeError` (a card the shoe cannot hold)."""
        one = as_card(card)
        return self._move(Action.HIT, seat, lambda p: p.hit(seat, one))

    def stand(self, seat: int) -> Self:
        """The seat's hand stands. Raises :class:`ProcedureError` out of turn."""
        return self._move(Action.STAND, seat, lambda p: p.stand(seat))

    def double(
        self, seat: int, amount_cents: int | None = None, card: Card | str | None = None
    ) -> Self:
        """Double down up to the hand's wager (default: all of it; ``amount_cents`` integer
        cents), one card (``card``: a :class:`Card` or its text; default the shoe's next)
        (§ 633a.10).

        Raises :class:`ProcedureError` out of turn, :class:`RulesError` (a hand that may not
        double, an amount above its wager: § 633a.10, § 633a.11) and
        :class:`~croupier.errors.ShoeError`."""
        one = as_card(card)
        return self._move(Action.DOUBLE, seat, lambda p: p.double(seat, amount_cents, one))

    def split(self, seat: int) -> Self:
        """Split the seat's pair (§ 633a.11). Raises :class:`ProcedureError` out of turn and
        :class:`RulesError` (not a pair, more hands than the submission allows, split aces)."""
        return self._move(Action.SPLIT, seat, lambda p: p.split(seat))

    def surrender(self, seat: int) -> Self:
        """Late surrender, half the wager back (§ 633a.9, § 633b.4(h), (n)). Raises
        :class:`ProcedureError` out of turn and :class:`RulesError` (the submission does not offer
        it; not the initial two cards)."""
        return self._move(Action.SURRENDER, seat, lambda p: p.surrender(seat))

    def _move(self, action: Action, seat: int, make: Callable[[BlackjackPlay], MoveResult]) -> Self:
        """A Blackjack decision. Raises :class:`ProcedureError` at another game, out of turn or
        phase, and what the move raises (:mod:`croupier.table.blackjack_play`)."""
        if self.game is not TableGame.BLACKJACK:
            raise ProcedureError(
                f"{action.value} is a Blackjack decision, not {a_or_an(self.game.value)} one",
                section=self.base.procedure_rule,
            )
        self._require(action)
        assert self.blackjack is not None and self.cards is not None
        result = make(self.blackjack)
        result.play.check_shoe(self.submission.decks, self.cards.every_card())
        r = self._with_play(result.play)
        return r._log(
            action,
            result.section,
            result.detail,
            seat=seat,
            wager=self.base.base_wagers[0],
            amount_cents=result.amount_cents,
        )

    def _settle_blackjack(self) -> Self:
        """The Blackjack wagers and Switch Hands Antes, seat by seat from the dealer's right, once
        every player's play is over (:mod:`croupier.table.blackjack_play`,
        :func:`~croupier.wagers.switch_hands.settle_seat`). At a plain Blackjack table a round
        that records none of the players' decisions, and needs them, records the wagers instead.

        Raises :class:`ProcedureError` for a switch not chosen or a hand not finished.
        """
        play = self.blackjack
        assert play is not None
        if not play.finished:
            asking, acting = play.to_ask(), play.to_act()
            if self.submission.variant is not None or play.moves:
                if asking is not None:
                    raise ProcedureError(
                        f"seat {asking.seat} has not chosen to keep or switch",
                        section="633b.4(f)",
                    )
                assert acting is not None
                raise ProcedureError(
                    f"seat {acting.seat}'s hand is not finished: hit, stand, double, split or "
                    "surrender",
                    section=ORDER_RULE,
                )
            r = self
            for wager, section in self.base.recorded.items():
                r = r._record_unsettled(wager, section, self.base.recorded_why)
            return r
        settled = [(seat, play.settle(seat)) for seat in reversed(self.seats())]
        r = self
        for seat, ss in settled:
            for line in ss.lines:
                r = r._log_line(
                    SettlementLine(
                        seat=seat,
                        wager=line.wager,
                        outcome=line.label,
                        pays=line.pays,
                        stake_cents=line.wagered_cents,
                        win_cents=line.net_cents,
                        returned_cents=line.returned_cents,
                        section=line.section,
                        detail=f"seat {seat}: {line.describe()}",
                    )
                )
        return r

"""The Blackjack part of the round procedure: the players' decisions, the dealer's draws and the
Blackjack wagers.

:class:`BlackjackDecisions` is a base class of :class:`~croupier.table.round.TableRound` (use the
round, not this class): the decisions a Blackjack round records between the deal and the
settlement — keep or switch (§ 633b.4(f)), hit, stand, double (§ 633a.10), split (§ 633a.11),
surrender (§ 633a.9) — each checked by :mod:`croupier.table.blackjack_play` and logged as an
event; then the dealer's draws (:meth:`BlackjackDecisions.dealer_draw`, § 633a.7: after every
player's hand, each card one the drawing rule owes); and the Blackjack wagers and Switch Hands
Antes settled once every hand is over.

The order of a round (58 Pa. Code § 633a.7; shared/regulations/base-games.md): the deal gives
each player two cards and the dealer the upcard and the hole card; the wagers settled on the first
two cards (Perfect Pairs, Jackpot Party, Match the Dealer: § 633b.1(e), § 633b.2(g),
§ 633b.3(g)) are settled then; the Switch Hands choice (§ 633b.4(f)) and the players' decisions
follow; then the dealer's draws; then ``settle``. The deal of a recorded round may still give the
dealer's draws after the hole card, checked card by card against the drawing rule; a round played
step by step (an open table) is dealt the upcard and the hole card only.

What the round accepts now is asked of the round itself: :meth:`BlackjackDecisions.blackjack_turn`
is the player in turn with the decisions the round would take from it (the
:class:`~croupier.table.procedure.Turn` the round's ``turns`` and ``allowed_actions`` read).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Self

from croupier.cards import Card, Shoe, as_card, format_cards
from croupier.errors import CardError, CroupierError, InputError, ProcedureError, RulesError
from croupier.games.blackjack import (
    DEALING_RULE,
    DealerCompletion,
    hand_total,
    is_blackjack,
)
from croupier.table.blackjack_play import ORDER_RULE, BlackjackPlay, MoveResult
from croupier.table.procedure import Action, Phase, Turn, or_list
from croupier.table.submission import RulesSubmission, TableGame
from croupier.wagers.at_table import DealtCards, SeatBet, SettlementLine
from croupier.wagers.base_games import BaseGame, SettledBy
from croupier.wagers.switch_hands import ANTE_WAGER, Variant


def check_seat(seat: object) -> None:
    """Refuse a seat that is not a whole number from 1 — ``True`` included, which Python counts
    as 1 (a seat given as ``true`` in JSON was taken for seat 1):
    :class:`~croupier.errors.InputError`."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise InputError(f"a seat is a whole number from 1, not {seat!r}")


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article: ``'an axman'``, ``'a blackjack'``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def accepts(step: Callable[[], object]) -> bool:
    """Whether ``step`` (a step of an immutable round, made only to ask) is accepted: every rule
    checked, nothing changed."""
    try:
        step()
    except CroupierError:
        return False
    return True


class BlackjackDecisions:
    """The Blackjack decisions and settlement of a :class:`~croupier.table.round.TableRound`."""

    if TYPE_CHECKING:  # what the round provides
        submission: RulesSubmission
        phase: Phase
        cards: DealtCards | None
        blackjack: BlackjackPlay | None
        step_by_step: bool
        base_game: SettledBy
        bets: tuple[SeatBet, ...]

        @property
        def game(self) -> TableGame: ...

        @property
        def base(self) -> BaseGame: ...

        @property
        def procedure_rule(self) -> str: ...

        def _require(self, action: Action) -> None: ...

        def _log(
            self,
            action: Action,
            section: str,
            detail: str,
            changes: Mapping[str, Any] | None = None,
            **kw: object,
        ) -> Self: ...

        def _log_lines(self, lines: Iterable[SettlementLine]) -> Self: ...

        def _record_unsettled(self, wager: str, section: str, what: str) -> Self: ...

        def seat_bets(self, seat: int) -> dict[str, int]: ...

        def seats(self) -> tuple[int, ...]: ...

    def _start_play(self, cards: DealtCards, undealt: Sequence[Card]) -> BlackjackPlay:
        """The players' play at the deal (:class:`BlackjackPlay`)."""
        sub = self.submission
        base = self.base.base_wagers[0]
        placed: dict[int, dict[str, int]] = {}  # seat → its bets (seat_bets of every seat)
        for b in self.bets:
            placed.setdefault(b.seat, {})[b.wager] = b.amount_cents
        wagers = {
            seat: (bets.get(base, 0), bets.get(ANTE_WAGER, 0))
            for seat, bets in sorted(placed.items())
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
        """A Blackjack decision. Raises :class:`InputError` for a seat that is no seat number,
        :class:`ProcedureError` at another game, out of turn or phase, and what the move raises
        (:mod:`croupier.table.blackjack_play`)."""
        check_seat(seat)
        if self.game is not TableGame.BLACKJACK:
            raise ProcedureError(
                f"{action.value} is a Blackjack decision, not {a_or_an(self.game.value)} one",
                section=self.procedure_rule,
            )
        self._require(action)
        if self.base_game is SettledBy.EXTERNAL:
            raise ProcedureError(
                f"seat {seat}: {action.value} is not recorded here: the round's base game is "
                "\"external\", its players' play recorded and settled by the table's own system",
                section=ORDER_RULE,
            )
        assert self.blackjack is not None and self.cards is not None
        result = make(self.blackjack)
        result.play.check_shoe(self.submission.decks, self.cards.every_card())
        return self._log(
            action,
            result.section,
            result.detail,
            {"blackjack": result.play},
            seat=seat,
            wager=self.base.base_wagers[0],
            amount_cents=result.amount_cents,
        )

    # -- the dealer's hand ------------------------------------------------------------------
    def _check_dealer_cards(self, dealer: Sequence[Card]) -> None:
        """At the deal: the dealer has the upcard and the hole card, and each further card given
        (a recorded round's draws) was drawn to a hand that had to draw (§ 633a.7). A hand that
        must still draw is dealt: the draws come in a ``dealer-draw`` step after the players'.
        A round played step by step (:attr:`step_by_step`, an open table) is dealt the upcard
        and the hole card only: the dealer draws after every player's hand (§ 633a.7), never at
        the deal (docs/interpretations.md).

        Raises :class:`CardError` (fewer than two cards), :class:`ProcedureError` (more than two
        in a round played step by step) and :class:`RulesError` (a card drawn to a hand that
        stands)."""
        if len(dealer) < 2:
            raise CardError(
                f"the dealer is dealt the upcard and the hole card: two cards, not {len(dealer)}",
                format_cards(dealer),
            )
        if self.step_by_step and len(dealer) > 2:
            raise ProcedureError(
                f"the deal gives the dealer the upcard and the hole card only: two cards, not "
                f"{len(dealer)} ({format_cards(dealer)}); the dealer draws after every player's "
                "hand, in dealer-draw steps",
                section=DEALING_RULE,
            )
        for i in range(2, len(dealer)):
            self._check_owed(dealer[:i], dealer[i], None)

    def _must_draw(self, hand: Sequence[Card], live: bool | None) -> bool:
        """Whether the drawing rule (§ 633a.7: S17 or H17) makes the dealer draw to ``hand``;
        under :attr:`DealerCompletion.ONLY_WITH_LIVE_HANDS` a two-card hand draws only when a
        player hand is ``live`` (``None``: not known, a recorded round's deal)."""
        rules = self.submission.blackjack_rules
        if not rules.dealer_draws(hand):
            return False
        only_live = rules.dealer_completion is DealerCompletion.ONLY_WITH_LIVE_HANDS
        return not (only_live and len(hand) == 2 and live is False)

    def _check_owed(self, hand: Sequence[Card], card: Card, live: bool | None) -> None:
        """Raise :class:`RulesError` (§ 633a.7) when the dealer may not draw ``card`` to
        ``hand``."""
        if self._must_draw(hand, live):
            return
        t = hand_total(hand)
        why = f"stands on {'soft ' if t.soft else ''}{t.total}" if not t.bust else "has busted"
        if t.total < 17 and not t.bust:
            why = "draws nothing when no player hand is left to beat"
        raise RulesError(
            f"the dealer {why} ({format_cards(hand)}) and draws no {card}",
            section=DEALING_RULE,
        )

    def _live_hands(self, play: BlackjackPlay) -> bool:
        """Whether a player hand is left for the dealer to beat: not surrendered, not busted and
        not a Blackjack already settled by the deal (:class:`DealerCompletion`)."""
        natural_pays = play.variant is None
        for s in play.seats:
            if s.surrendered:
                continue
            for h in s.hands:
                if hand_total(h.cards).bust:
                    continue
                natural = not h.from_split and len(h.cards) == 2 and is_blackjack(h.cards)
                if natural_pays and natural:
                    continue
                return True
        return False

    def dealer_draw(self, cards: Sequence[Card | str] | None = None) -> Self:
        """The dealer's draws after every player's hand (§ 633a.7): ``cards`` (one or several,
        :class:`Card` or text, in order), each one the drawing rule owes — the dealer draws to 16
        and stands on 17, hitting soft 17 at an H17 table; with no cards, at a round dealt from
        a shuffled shoe, the dealer draws from it until the rule says stand. Several steps may
        each give a card.

        Raises :class:`ProcedureError` (another game; a player still to act: the seat is named),
        :class:`RulesError` (a card the dealer must not draw, § 633a.7), :class:`InputError`
        (no card given and no shoe) and :class:`~croupier.errors.ShoeError`."""
        if self.game is not TableGame.BLACKJACK:
            raise ProcedureError(
                f"dealer-draw is a Blackjack step, not {a_or_an(self.game.value)} one",
                section=self.procedure_rule,
            )
        self._require(Action.DEALER_DRAW)
        play, dealt = self.blackjack, self.cards
        assert play is not None and dealt is not None
        live: bool | None = None  # base game external: the players' play is not recorded here
        if self.base_game is not SettledBy.EXTERNAL:
            self._check_players_done(play, "the dealer draws")
            live = self._live_hands(play)
        hand = list(play.dealer)
        undealt = play.undealt
        given = [as_card(c) for c in cards or ()]
        drawn: list[Card] = []
        if given:
            for c in given:
                if c is None:
                    continue
                self._check_owed(hand, c, live)
                hand.append(c)
                drawn.append(c)
        else:
            if not self._must_draw(hand, live):
                t = hand_total(hand)
                raise RulesError(
                    f"the dealer's hand {format_cards(hand)} ({'soft ' if t.soft else ''}"
                    f"{t.total}) is finished: the dealer draws no card",
                    section=DEALING_RULE,
                )
            if not undealt:
                raise InputError('name the dealer\'s cards drawn, e.g. "cards": "5h"')
            while self._must_draw(hand, live):
                if not undealt:
                    break
                hand.append(undealt[0])
                drawn.append(undealt[0])
                undealt = undealt[1:]
        new_dealt = replace(dealt, dealer=tuple(hand))
        new_play = replace(play, dealer=tuple(hand), undealt=undealt)
        Shoe.standard(self.submission.decks).check_deal(
            [*new_dealt.every_card(), *new_play.drawn()]
        )
        t = hand_total(hand)
        now = "busts" if t.bust else f"has {'soft ' if t.soft else ''}{t.total}"
        return self._log(
            Action.DEALER_DRAW,
            DEALING_RULE,
            f"the dealer draws {format_cards(drawn)}: {format_cards(hand)} {now}",
            {"blackjack": new_play, "cards": new_dealt},
        )

    def dealer_finished(self) -> bool:
        """Whether the dealer's hand is complete by the drawing rule (§ 633a.7) — at a round whose
        players' play is over, with what they hold."""
        play = self.blackjack
        if play is None:
            return False
        live = self._live_hands(play) if play.finished else None
        return not self._must_draw(play.dealer, live)

    def _check_players_done(self, play: BlackjackPlay, what: str) -> None:
        """Raise :class:`ProcedureError` naming the seat still to choose or act, and what the
        round accepts from it now (:meth:`blackjack_turn`)."""
        asking, acting = play.to_ask(), play.to_act()
        if asking is not None:
            raise ProcedureError(
                f"seat {asking.seat} has not chosen to keep or switch: {what} after every player",
                section="633b.4(f)",
            )
        if acting is None:
            return
        turn = self.blackjack_turn()
        assert turn is not None
        hand = f" (hand {turn.hand} of {turn.hands})" if turn.hands > 1 else ""
        raise ProcedureError(
            f"seat {acting.seat}'s hand is not finished{hand}: "
            f"{or_list(sorted(a.value for a in turn.actions))} ({what} once every hand is played)",
            section=ORDER_RULE,
        )

    def _spare_card(self) -> Card | None:
        """A card the table's shoe still holds after every card of the round (the lowest by
        index), to ask whether a move that draws would be accepted: none of the players' rules
        reads the card drawn. ``None`` when the shoe holds none."""
        play, dealt = self.blackjack, self.cards
        assert play is not None and dealt is not None
        used = Counter((*dealt.every_card(), *play.drawn()))
        decks = self.submission.decks
        for i in range(52):
            card = Card.from_index(i)
            if used[card] < decks:
                return card
        return None

    def blackjack_turn(self) -> Turn | None:
        """The player the dealt round waits for — the Switch Hands choice (§ 633b.4(f): the
        highest seat first), else the hand in turn (§ 633a.7: seat 1 first, a seat's hands in
        the order they lie) — with the decisions the round would accept from it now, each asked
        of the round itself (its rules, the submission's options, the hand's cards); ``None``
        when no player is to act (every hand played, or the dealer's Blackjack at the peek)."""
        play = self.blackjack
        if play is None or self.phase is not Phase.DEALT:
            return None
        if self.base_game is SettledBy.EXTERNAL:
            return None  # the players' play is the table's own system's
        asking = play.to_ask()
        if asking is not None:
            seat = asking.seat
            kinds = frozenset(
                kind
                for kind, choose in ((Action.KEEP, self.keep), (Action.SWITCH, self.switch))
                if accepts(partial(choose, seat))
            )
            return Turn(seat, kinds, None, 1, asking.face_up)
        acting = play.to_act()
        if acting is None:
            return None
        seat = acting.seat
        i = acting.current(play.rules)
        assert i is not None
        card = self._spare_card()
        moves: tuple[tuple[Action, Callable[[], object]], ...] = (
            (Action.HIT, partial(self.hit, seat, card)),
            (Action.STAND, partial(self.stand, seat)),
            (Action.DOUBLE, partial(self.double, seat, None, card)),
            (Action.SPLIT, partial(self.split, seat)),
            (Action.SURRENDER, partial(self.surrender, seat)),
        )
        kinds = frozenset(kind for kind, move in moves if accepts(move))
        return Turn(seat, kinds, i + 1, len(acting.hands), acting.hands[i].cards)

    def plays_out(self) -> bool:
        """Whether ``settle`` needs every hand played out: croupier settles the base game (the
        default); a round whose base game is external records no player's play
        (docs/interpretations.md)."""
        return self.base_game is not SettledBy.EXTERNAL

    def _check_play_over(self) -> None:
        """Before ``settle``: every player's hand played out (unless the base game is external)
        and the dealer's hand finished by the drawing rule.

        Raises :class:`ProcedureError` naming the seat, its hand and the decisions it could take
        (§ 633a.7, § 633b.4(f)) and :class:`RulesError` for a dealer hand that must still draw
        (§ 633a.7)."""
        play = self.blackjack
        assert play is not None
        if not play.finished and self.plays_out():
            if play.moves == 0 and play.to_ask() is None:
                self._refuse_unplayed()
            self._check_players_done(play, "the wagers are settled")
        live = self._live_hands(play) if play.finished and self.plays_out() else None
        if self._must_draw(play.dealer, live):
            t = hand_total(play.dealer)
            raise RulesError(
                f"the dealer's hand {format_cards(play.dealer)} ({'soft ' if t.soft else ''}"
                f"{t.total}) is not finished: the dealer must draw (a dealer-draw step, once "
                "every hand is played)",
                section=DEALING_RULE,
            )

    def _refuse_unplayed(self) -> None:
        """Raise :class:`ProcedureError` (§ 633a.7) for a round settled with no player's decision
        recorded while croupier settles the base game: the seat in turn, its hand and the
        decisions it could take — and the other way, declaring the base game external."""
        turn = self.blackjack_turn()
        assert turn is not None
        t = hand_total(turn.cards)
        total = f"{'soft ' if t.soft else ''}{t.total}"
        raise ProcedureError(
            f"seat {turn.seat}'s hand {format_cards(turn.cards)} ({total}) is unplayed: "
            f"{or_list(sorted(a.value for a in turn.actions))} (croupier settles the base game: "
            'record every hand\'s play, or declare "base_game": "external")',
            section=ORDER_RULE,
        )

    def _settle_blackjack(self) -> Self:
        """The Blackjack wagers and Switch Hands Antes, seat by seat from the dealer's right, once
        every player's play is over (:mod:`croupier.table.blackjack_play`,
        :func:`~croupier.wagers.switch_hands.settle_seat`). A round whose base game is external
        records the Blackjack wagers instead, as the base game's (no win).

        Raises :class:`ProcedureError` for a switch not chosen or a hand not finished.
        """
        play = self.blackjack
        assert play is not None
        if not self.plays_out():
            r = self
            for wager, section in self.base.recorded.items():
                r = r._record_unsettled(wager, section, self.base.recorded_why)
            return r
        if not play.finished:
            self._check_players_done(play, "the wagers are settled")
        settled = [(seat, play.settle(seat)) for seat in reversed(self.seats())]
        return self._log_lines(
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
            for seat, ss in settled
            for line in ss.lines
        )

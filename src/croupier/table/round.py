"""The regulated round procedure, as an explicit state machine per game, with an audit record.

A round moves through four phases (:class:`Phase`): betting is open; the dealer announces "No more
bets" (the lock-out: § 633b.2(d)(2), § 633b.3(d)(2), § 631c.3(c), § 641a.7(c)); the cards are
dealt; the wagers are settled. :data:`PROCEDURE` lists, per game, which actions each phase allows.
Each action returns a *new* :class:`TableRound` with the events it caused appended — a rejected
action raises a typed :class:`~croupier.errors.CroupierError` naming the rule and leaves the round
exactly as it was (rounds are immutable). Settlement is delegated to the wagers' own code
(:meth:`Wager.settle_at_table`, by default :meth:`Wager.settle` on the cards the wager reads)
at the moment each section prescribes — read from what each registered wager declares
(:mod:`croupier.wagers.at_table`: its base wager, when it is settled, its lock-out paragraph and
the cards it reads), so that no wager id appears here:

* Blackjack: Perfect Pairs, Jackpot Party and Match the Dealer immediately after the second card is
  dealt to each player and the dealer (§ 633b.1(e), § 633b.2(g), § 633b.3(g)) — in the ``deal``
  step; AxMan after the round is complete (§ 633c.12(e)) — in the ``settle`` step, after the
  players' decisions and the dealer's draws (``dealer-draw``, § 633a.7); the Blackjack wagers then.
* Baccarat: the 5 Treasures wagers with the Baccarat wagers, after the coup (§ 631c.3(e)).
* Four Card Poker: the Play wager after the cards, one to three times the Ante (§ 641a.7(d)(1)),
  then every wager at ``settle``.
* Criss-Cross Poker: Ultimate Pairs with the optional wagers (§ 674b.1(d)), in action when the player
  folds (§ 674b.1(c)); the Criss-Cross Poker wagers are recorded, not settled (a round there
  declares its base game external).

Who settles the base game is declared (:attr:`TableRound.base_game`, a
:class:`~croupier.wagers.base_games.SettledBy`): croupier, the default — a Blackjack hand left
unplayed at ``settle`` is refused, naming the seat, the hand and the decisions it could take — or
the table's own system (``external``): each base wager then has a line saying the base game
settles it, with no win (``None``) and outside the net.

Within each settlement moment seats are settled from the player farthest to the dealer's right,
counterclockwise (§ 633b.1(e), § 633c.12(e)): seats are numbered from the dealer's left (seat 1 is
first base), so the order is descending seat number; within a seat, by section, then in the order
the wagers were placed. A round closes only when every bet has a settlement line, or a line
recording that the base game settles it (:class:`~croupier.errors.UnsettledBetError` otherwise).

The Blackjack players' decisions (keep or switch, hit, stand, double, split, surrender) and the
settlement of the Blackjack wagers live in :mod:`croupier.table.round_blackjack`, a base class of
:class:`TableRound`: the round's methods all the same.

>>> from croupier.table.submission import submission_from_data
>>> sub = submission_from_data({"game": "blackjack", "decks": 6, "dealer": "S17", "wagers": [
...     {"wager": "blackjack", "min": "$10", "max": "$500"},
...     {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"}]})
>>> r = TableRound.open(sub).bet(1, "blackjack", 1000).bet(1, "perfect-pairs", 500)
>>> r = r.no_more_bets().deal(DealtCards.parse(players={1: "8s 8s"}, dealer="Kd 9c"))
>>> [(e.wager, e.win_cents, e.section) for e in r.settlements()]
[('perfect-pairs', 12500, '633b.1(e)')]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from croupier.cards import Card, Shoe, format_cards
from croupier.errors import (
    CardError,
    InputError,
    LockoutError,
    ProcedureError,
    RulesError,
    UnsettledBetError,
    one_of,
    suggest,
)
from croupier.games.baccarat import deal_coup, play_coup
from croupier.games.blackjack import play_dealer
from croupier.paytables import MeterLevel, Paytable
from croupier.table.blackjack_play import BlackjackPlay
from croupier.table.procedure import (
    BLACKJACK_MOVES,
    PROCEDURE,
    Action,
    Event,
    Phase,
)
from croupier.table.round_blackjack import a_or_an, check_seat
from croupier.table.round_queries import RoundQueries, lockout_rule, own_rule, registered
from croupier.table.submission import RulesSubmission, TableGame
from croupier.units import check_cents, format_money
from croupier.wagers import Wager, get_wager
from croupier.wagers.at_table import (
    CardSource,
    DealtCards,
    RoundSettlement,
    SeatBet,
    SettlementLine,
    SettleWhen,
    TableContext,
    signed_money,
)
from croupier.wagers.base_games import BaseGame, SettledBy
from croupier.wagers.switch_hands import ANTE_WAGER, Variant
from croupier.wagers.switch_hands import check_wagers as check_ante

Bet = SeatBet
"""A wager placed at a seat (:class:`~croupier.wagers.at_table.SeatBet`)."""

_NUMBERS = {5: "five", 6: "six", 7: "seven"}


@dataclass(frozen=True)
class TableRound(RoundQueries):
    """One round at a table under a :class:`RulesSubmission`. Immutable: every action returns a
    new round; :attr:`events` is the round record."""

    submission: RulesSubmission
    phase: Phase = Phase.BETTING
    bets: tuple[Bet, ...] = ()
    cards: DealtCards | None = None
    decisions: tuple[tuple[int, int], ...] = ()
    """(seat, Play wager in cents; 0 is a fold), in the order made."""
    events: tuple[Event, ...] = field(default_factory=tuple)
    blackjack: BlackjackPlay | None = None
    """Blackjack: the players' switch decisions and hands (from the deal on)."""
    meter_cents: tuple[tuple[str, tuple[tuple[MeterLevel, int], ...]], ...] = ()
    """The progressive meters' amounts the round's meter awards are valued at: (wager id,
    ((level, integer cents), …)); a wager not named is valued at its paytable's seeds."""
    step_by_step: bool = False
    """Blackjack: the round is played step by step at an open table, so its deal gives the
    dealer's upcard and hole card only (the draws come in ``dealer-draw`` steps, § 633a.7)."""
    base_game: SettledBy = SettledBy.CROUPIER
    """Who settles the base game: croupier (every Blackjack hand played out before ``settle``),
    or the table's own system (``EXTERNAL``: each base wager recorded as the base game's, no win;
    docs/interpretations.md)."""

    # -- the record ----------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        submission: RulesSubmission,
        meter_cents: Mapping[str, Mapping[MeterLevel, int]] | None = None,
        *,
        step_by_step: bool = False,
        base_game: SettledBy | str = SettledBy.CROUPIER,
    ) -> TableRound:
        """A new round with betting open; ``meter_cents`` (wager id → meter level → integer
        cents) values its progressive wagers' meter awards (default: the paytables' seeds);
        ``step_by_step`` (:attr:`step_by_step`) for a round played live at an open table;
        ``base_game`` (:attr:`base_game`: ``"croupier"`` or ``"external"``) who settles the base
        game.

        Raises :class:`InputError` for a meter amount that is not a whole number of cents or a
        ``base_game`` that is neither, and :class:`ProcedureError` for a base game croupier cannot
        settle (Criss-Cross Poker) declared ``"croupier"``, or one declared ``"external"`` whose
        base wagers croupier cannot record as the base game's (:func:`check_base_game`).
        """
        for levels in (meter_cents or {}).values():
            for cents in levels.values():
                check_cents(cents, "a meter amount")
        meters = tuple((wid, tuple(levels.items())) for wid, levels in (meter_cents or {}).items())
        by = check_base_game(submission, base_game)
        r = cls(submission, meter_cents=meters, step_by_step=step_by_step, base_game=by)
        what = f"betting open at {submission.name or submission.game.value}"
        return r._log(Action.OPEN, "601a.2", what)

    def _evolve(self, **changes: Any) -> Self:
        """The round with ``changes`` made: what :func:`dataclasses.replace` gives — a round has
        no ``__post_init__`` and every field is an ``__init__`` argument — without calling
        ``__init__`` again, since a round is copied at every step and every event."""
        new = object.__new__(type(self))
        state = new.__dict__
        state.update(self.__dict__)
        state.update(changes)
        return new

    def _log(
        self,
        action: Action,
        section: str,
        detail: str,
        changes: Mapping[str, Any] | None = None,
        **kw: object,
    ) -> Self:
        """The round with the event appended to its record, its fields named in ``changes``
        changed first (the event's phase is the new one): one copy of the round."""
        if changes is None:
            ev = Event(len(self.events), action, self.phase, section, detail, **kw)  # type: ignore[arg-type]
            return self._evolve(events=(*self.events, ev))
        phase = changes.get("phase", self.phase)
        ev = Event(len(self.events), action, phase, section, detail, **kw)  # type: ignore[arg-type]
        return self._evolve(**changes, events=(*self.events, ev))

    def settlements(self) -> tuple[Event, ...]:
        """The settlement events, in the order they were made."""
        return tuple([e for e in self.events if e.action is Action.SETTLEMENT])

    def settlement(self) -> RoundSettlement:
        """Every settlement line of the round so far (those recording a bet the base game settles
        included), in settlement order."""
        return RoundSettlement(tuple([e.line for e in self.events if e.line is not None]))

    @property
    def game(self) -> TableGame:
        """The table's game."""
        return self.submission.game

    @property
    def base(self) -> BaseGame:
        """What the table knows of its base game (:data:`~croupier.wagers.base_games.BASE_GAMES`)."""
        return self.submission.base

    def seat_bets(self, seat: int) -> dict[str, int]:
        """The wagers at ``seat``: id → cents."""
        return {b.wager: b.amount_cents for b in self.bets if b.seat == seat}

    def seats(self) -> tuple[int, ...]:
        """The seats with a wager, ascending."""
        return tuple(sorted({b.seat for b in self.bets}))

    # -- betting -------------------------------------------------------------------------
    def bet(
        self, seat: int, wager: str, amount_cents: int, player: str | None = None
    ) -> TableRound:
        """Place a wager: offered by the table, within its limits (or one of its progressive
        sizes), after its base wager (e.g. Perfect Pairs after the Blackjack wager, § 633b.1(c);
        a 5 Treasures wager after a Baccarat wager, § 631c.3(c)), before "No more bets".

        Raises :class:`LockoutError` after "No more bets", :class:`InputError` for a seat or amount
        that is no seat or amount, :class:`ProcedureError` (a wager not offered, placed twice or
        before its base wager) and :class:`RulesError` (outside the limits; § 641a.7(e) boxes).
        """
        wid = wager.strip().lower()
        sub = self.submission
        w = registered(wid)
        if self.phase is not Phase.BETTING:
            lockout = w.lockout_rule if w is not None else None
            raise LockoutError(
                f'seat {seat}: the {wid} wager comes after "No more bets" ({self._what_now()})',
                section=lockout or own_rule(sub, self.base.procedure_rule),
            )
        self._require(Action.BET)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= sub.seats:
            raise InputError(f"seat {seat!r}: the table has seats 1–{sub.seats}")
        check_cents(amount_cents)  # a whole number of cents within croupier's limit
        if wid == ANTE_WAGER:
            return self._ante(seat, amount_cents)
        offered = sub.offered(wid)
        if offered is None:
            ids = [w.wager for w in sub.wagers]
            hint = suggest(wid, ids) or f" (it offers {', '.join(ids)})"
            raise ProcedureError(
                f"the table does not offer the {wid} wager{hint}", section="601a.2"
            )
        placed = self.seat_bets(seat)
        if wid in placed:
            raise ProcedureError(f"seat {seat} already has {a_or_an(wid)} wager", section="601a.2")
        if offered.amounts_cents:
            if amount_cents not in offered.amounts_cents:
                raise RulesError(
                    f"seat {seat}: the {wid} wager is {offered.describe_limits()} at this table, "
                    f"not {format_money(amount_cents)}",
                    section=_amount_rule(wid, amount_cents),
                )
        else:
            lo, hi = offered.min_cents or 0, offered.max_cents or amount_cents
            if not lo <= amount_cents <= hi:
                raise RulesError(
                    f"seat {seat}: {format_money(amount_cents)} is outside the {wid} wager's "
                    f"limits {offered.describe_limits()}",
                    section=(w.limits_rule if w is not None else None) or "601a.2",
                )
        base = sub.base
        if sub.switch_hands and wid in base.base_wagers and amount_cents % 500:
            raise RulesError(
                f"seat {seat}: at Switch Hands the Blackjack wager is placed in $5 increments, "
                f"not {format_money(amount_cents)}",
                section="633b.4(b)",
            )
        if w is not None and w.base_wagers and placed.keys().isdisjoint(w.base_wagers):
            raise ProcedureError(
                f"seat {seat}: the {wid} wager needs the {one_of(w.base_wagers)} wager first",
                section=w.base_rule or w.section,
            )
        if player is not None and base.adjacent_boxes_rule:
            self._check_boxes(seat, player)
        section = base.recorded.get(wid) or (
            offered.paytable.section if offered.paytable else "601a.2"
        )
        return self._log(
            Action.BET,
            section,
            f"seat {seat} places {format_money(amount_cents)} on {wid}",
            {"bets": (*self.bets, Bet(seat, wid, amount_cents, player))},
            seat=seat,
            wager=wid,
            amount_cents=amount_cents,
        )

    def _ante(self, seat: int, amount_cents: int) -> TableRound:
        """§ 633b.4(c), (k), (l): the Switch Hands Ante, $1 for every $5 of the seat's Blackjack
        wager, placed after it (required at Switch Hands, optional at Blackjack Premium)."""
        variant = self.submission.variant
        if variant is None:
            raise ProcedureError(
                f"seat {seat}: the table does not deal Switch Hands: there is no Switch Hands Ante",
                section="633b.4(a)",
            )
        bets = self.seat_bets(seat)
        if ANTE_WAGER in bets:
            raise ProcedureError(f"seat {seat} already has a Switch Hands Ante", section="601a.2")
        wager = bets.get(self.base.base_wagers[0])
        if wager is None:
            raise ProcedureError(
                f"seat {seat}: the Switch Hands Ante is placed with a Blackjack wager, after it",
                section="633b.4(c)",
            )
        check_ante(variant, wager, amount_cents)
        return self._log(
            Action.BET,
            "633b.4(c)",
            f"seat {seat} places the Switch Hands Ante {format_money(amount_cents)}",
            {"bets": (*self.bets, Bet(seat, ANTE_WAGER, amount_cents))},
            seat=seat,
            wager=ANTE_WAGER,
            amount_cents=amount_cents,
        )

    def _check_boxes(self, seat: int, player: str) -> None:
        """§ 641a.7(e): a player wagers on at most ``adjacent_boxes`` boxes, next to each other."""
        boxes = sorted({b.seat for b in self.bets if b.player == player} | {seat})
        limit = self.submission.adjacent_boxes or 1
        if len(boxes) > limit or boxes[-1] - boxes[0] != len(boxes) - 1:
            raise RulesError(
                f"player {player} would wager on boxes {', '.join(map(str, boxes))}: at most "
                f"{limit} adjacent box{'es' if limit > 1 else ''} at this table",
                section=self.base.adjacent_boxes_rule or "601a.2",
            )

    def no_more_bets(self) -> TableRound:
        """The dealer announces "No more bets"; the lock-out refuses any later wager.

        Raises :class:`ProcedureError` (no wager placed) and :class:`RulesError` for a seat whose
        wagers break a rule on which go together (§ 641a.7(d); the Switch Hands Ante, § 633b.4(c)).
        """
        self._require(Action.NO_MORE_BETS)
        if not self.bets:
            raise ProcedureError(
                "no wager has been placed: there is no round to deal",
                section=self.base.wager_rule or self.base.procedure_rule,
            )
        for seat in self.seats():
            bets = self.seat_bets(seat)
            checked: set[type[Wager]] = set()
            for wid in bets:
                w = registered(wid)
                if w is not None and type(w) not in checked:
                    checked.add(type(w))
                    w.check_seat_bets(bets)
        if self.submission.variant is Variant.SWITCH_HANDS:
            base = self.base.base_wagers[0]
            for seat in self.seats():
                bets = self.seat_bets(seat)
                if base in bets and ANTE_WAGER not in bets:
                    raise RulesError(
                        f"seat {seat}: a Switch Hands player places the Switch Hands Ante, $1 for "
                        f"every $5 ({format_money(bets[base] // 5)} on "
                        f"{format_money(bets[base])})",
                        section="633b.4(c)",
                    )
        return self._log(
            Action.NO_MORE_BETS,
            lockout_rule(self.submission),
            "No more bets",
            {"phase": Phase.LOCKED},
        )

    # -- dealing -------------------------------------------------------------------------
    def deal(self, cards: DealtCards, undealt: Sequence[Card] = ()) -> TableRound:
        """Deal the recorded ``cards``: checked against the game's dealing rules and the shoe,
        then the wagers settled right after the second card are settled (§ 633b.1(e)).
        ``undealt`` is the rest of a shuffled shoe, which Blackjack draws take in order.

        Raises :class:`CardError` (cards the game does not deal, or lacking cards a wager reads),
        :class:`~croupier.errors.ShoeError` and :class:`RulesError` (a dealer card drawn to a hand
        that stands, § 633a.7 — the dealer's draws may follow in ``dealer-draw`` steps; a coup
        against the tableau, § 631a.11).
        """
        self._require(Action.DEAL)
        decks = self.submission.decks
        Shoe.standard(decks).check_deal(cards.every_card())
        game = self.game
        base = self.base
        seats = self.seats()
        dealt_seats = tuple(s for s, _ in cards.players)
        if base.hand_size is not None:
            if dealt_seats != seats:
                raise CardError(
                    f"cards are dealt to seats {', '.join(map(str, dealt_seats)) or 'none'}, but "
                    f"the seats with wagers are {', '.join(map(str, seats))}",
                    cards.describe(),
                )
            for seat, hand in cards.players:
                if len(hand) != base.hand_size:
                    raise CardError(
                        f"seat {seat}: a player is dealt {base.hand_size} cards here, not "
                        f"{len(hand)}",
                        format_cards(hand),
                    )
        if cards.switch_cards and game is not TableGame.BLACKJACK:
            raise CardError("Switch Hands cards are dealt at Blackjack only", cards.describe())
        if base.dealer_size is not None and len(cards.dealer) != base.dealer_size:
            raise CardError(
                f"the dealer is dealt {_NUMBERS[base.dealer_size]} cards, not {len(cards.dealer)}",
                format_cards(cards.dealer),
            )
        changes: dict[str, Any] = {"phase": Phase.DEALT, "cards": cards}
        detail = cards.describe()
        if game is TableGame.BLACKJACK:
            self._check_dealer_cards(cards.dealer)  # the draws come later (dealer-draw)
            changes.update(blackjack=self._start_play(cards, undealt))  # the field, by keyword
        elif game is TableGame.BACCARAT:
            detail += f" · {deal_coup(cards.coup).describe()}"
        found: set[tuple[CardSource, int]] = set()  # cards seen there already
        for b in self.bets:
            w = registered(b.wager)
            if w is None:
                continue
            for g in w.deal.groups:
                if g.source is None or (g.source, b.seat) in found:
                    continue
                if not cards.read(g.source, b.seat):
                    raise CardError(f"the {w.name} wager needs the {g.name}", "")
                found.add((g.source, b.seat))
        r = self._log(Action.DEAL, self.deal_rule, detail, changes)
        return r._settle_moment(SettleWhen.SECOND_CARD)

    def deal_shoe(self, seed: int) -> TableRound:
        """Deal from a shoe of the table's decks shuffled with ``seed`` (the Blackjack dealer's
        hand drawn by the house rule, § 633a.7 — in a round played step by step only the upcard
        and the hole card, the draws left to ``dealer-draw`` from the rest of the shoe; the coup
        by § 631a.9–§ 631a.11).

        Raises what :meth:`deal` raises.
        """
        self._require(Action.DEAL)
        if type(seed) is not int:  # Random takes any hashable: True, "7" and 7.0 too
            raise InputError(f"a shoe's seed is a whole number, not {seed!r}")
        cards = list(Shoe.standard(self.submission.decks).cards())
        random.Random(seed).shuffle(cards)
        seats = self.seats()
        game = self.game
        if game is TableGame.BACCARAT:
            return self.deal(DealtCards(coup=play_coup(cards[:6]).cards))
        n = self.base.hand_size
        assert n is not None
        switch: dict[int, tuple[Card, ...]] = {}
        if game is TableGame.BLACKJACK:
            # § 633b.4(d): the Switch Hands cards first, to each Ante player from the dealer's left
            for s in seats:
                if ANTE_WAGER in self.seat_bets(s):
                    switch[s] = (cards.pop(0), cards.pop(0))
        hands = {s: cards[i * n : (i + 1) * n] for i, s in enumerate(seats)}
        rest = cards[len(seats) * n :]
        if game is TableGame.BLACKJACK:
            # played step by step, the deal is the upcard and the hole card: the dealer draws
            # from the rest of the shoe after every hand (dealer-draw, § 633a.7)
            dealer = (
                tuple(rest[:2])
                if self.step_by_step
                else play_dealer(rest, self.submission.blackjack_rules)
            )
            dealt = DealtCards(
                tuple((s, tuple(h)) for s, h in hands.items()),
                dealer,
                switch_cards=tuple(switch.items()),
            )
            return self.deal(dealt, rest[len(dealer) :])
        if game is TableGame.FOUR_CARD_POKER:
            return self.deal(
                DealtCards(
                    tuple((s, tuple(h)) for s, h in hands.items()), tuple(rest[:6]), bonus=rest[6]
                )
            )
        return self.deal(DealtCards(tuple((s, tuple(h)) for s, h in hands.items())))

    # -- decisions -----------------------------------------------------------------------
    def play(self, seat: int, amount_cents: int) -> TableRound:
        """Four Card Poker: the Play wager, after the cards, one to three times the Ante
        (§ 641a.7(d)(1)).

        Raises :class:`ProcedureError` (not now, no Ante, already decided) and
        :class:`RulesError` (an amount outside one to three times the Ante).
        """
        self._require(Action.PLAY)
        check_seat(seat)
        ante, wager, rule = self._decision_seat(seat)
        if type(amount_cents) is not int or not ante <= amount_cents <= 3 * ante:
            raise RulesError(
                f"seat {seat}: the Play wager is one to three times the Ante "
                f"({format_money(ante)} to {format_money(3 * ante)}), not "
                f"{format_money(amount_cents) if isinstance(amount_cents, int) else amount_cents}",
                section=rule,
            )
        return self._log(
            Action.PLAY,
            rule,
            f"seat {seat} plays {format_money(amount_cents)}",
            {"decisions": (*self.decisions, (seat, amount_cents))},
            seat=seat,
            wager=wager,
            amount_cents=amount_cents,
        )

    def fold(self, seat: int) -> TableRound:
        """The player folds: at Four Card Poker the Ante is lost (§ 641a.7(d)(1)); at Criss-Cross
        Poker the Ultimate Pairs wager stays in action (§ 674b.1(c)).

        Raises :class:`ProcedureError` (not now, already decided) and :class:`InputError` (a seat
        without a wager).
        """
        self._require(Action.FOLD)
        check_seat(seat)
        if self.base.decision_wager is not None:
            section = self._decision_seat(seat)[2]
        else:
            if seat not in self.seats():
                raise InputError(f"seat {seat} has no wager")
            if any(s == seat for s, _ in self.decisions):
                raise ProcedureError(f"seat {seat} has already folded", section="674b.1(c)")
            section = "674b.1(c)"
        decisions = (*self.decisions, (seat, 0))
        return self._log(
            Action.FOLD, section, f"seat {seat} folds", {"decisions": decisions}, seat=seat
        )

    def _decision_seat(self, seat: int) -> tuple[int, str, str]:
        """(the seat's Ante in cents, its wager id, the decision's paragraph). Raises
        :class:`ProcedureError` for a seat without the Ante or that has already decided."""
        wager, rule = self.base.decision_wager, self.base.decision_rule
        assert wager is not None and rule is not None
        ante = self.seat_bets(seat).get(wager)
        if ante is None:
            raise ProcedureError(f"seat {seat} has no Ante wager to play or fold", section=rule)
        if any(s == seat for s, _ in self.decisions):
            raise ProcedureError(f"seat {seat} has already decided", section=rule)
        return ante, wager, rule

    # -- settlement ----------------------------------------------------------------------
    def settle(self) -> TableRound:
        """Settle what the round's end settles, seat by seat from the dealer's right: the wagers
        settled after the round (§ 633c.12(e)), then the base game (Blackjack: the players'
        play) with the wagers settled with it; the base wagers croupier does not settle are
        recorded as the base game's.

        Raises :class:`ProcedureError` (a decision not made: a Play or fold, a switch, a hand
        not finished) and :class:`UnsettledBetError` when a bet would have no settlement line.
        """
        self._check_settle()
        base = self.base
        r = self._settle_moment(SettleWhen.ROUND_END)
        if self.game is TableGame.BLACKJACK:
            r = r._settle_blackjack()
        r = r._settle_moment(SettleWhen.WITH_BASE_GAME)
        if self.game is not TableGame.BLACKJACK and self.base_game is SettledBy.EXTERNAL:
            for wager, section in base.recorded.items():
                r = r._record_unsettled(wager, section, base.recorded_why)
        r._check_every_bet_settled()
        net = settled_net(r.events)
        return r._log(
            Action.SETTLE,
            self.settlement_rule,
            f"{SETTLED_NET}{_signed(net)}",
            {"phase": Phase.SETTLED},
        )

    def _check_settle(self) -> None:
        """What :meth:`settle` checks before settling anything: the phase, every decision made
        (a Play or fold, § 641a.7(d)(1)), at Blackjack every hand played and the dealer's hand
        finished (§ 633a.7)."""
        self._require(Action.SETTLE)
        base = self.base
        if base.decision_wager is not None and base.decision_rule is not None:
            decided = dict(self.decisions)
            for seat in self.seats():
                if base.decision_wager in self.seat_bets(seat) and seat not in decided:
                    raise ProcedureError(
                        f"seat {seat} has neither played nor folded", section=base.decision_rule
                    )
        if self.game is TableGame.BLACKJACK:
            self._check_play_over()  # the players' hands, then the dealer's (§ 633a.7)

    def _check_every_bet_settled(self) -> None:
        """Raise :class:`UnsettledBetError` naming a bet without a settlement line."""
        covered = {(line.seat, line.bet_wager) for line in self.settlement().lines}
        for b in self.bets:
            if (b.seat, b.wager) not in covered:
                raise UnsettledBetError(
                    f"seat {b.seat}: the {b.wager} wager has no settlement line: the round cannot "
                    "close with a bet neither settled nor recorded as the base game's",
                    section=self.settlement_rule,
                )

    def _paytables(self) -> dict[str, Paytable]:
        """The paytable the table offers for each wager id (the bets' ids included)."""
        sub = self.submission
        out = dict(sub.paytables)
        for b in self.bets:
            if b.wager not in out:  # an alias of an offered wager (axman-h17 for axman)
                offered = sub.offered(b.wager)
                if offered is not None and offered.paytable is not None:
                    out[b.wager] = offered.paytable
        return out

    def _settle_moment(self, when: SettleWhen) -> TableRound:
        """Settle the bets whose wagers are settled ``when`` (:attr:`Wager.settled`), each by its
        wager's :meth:`~croupier.wagers.base.Wager.settle_at_table` (or that of the wager it
        :attr:`~croupier.wagers.base.Wager.settles_with`), checked for every seat before any is
        recorded; seats from the dealer's right, within a seat by section, then as placed."""
        groups: dict[str, list[tuple[int, Bet]]] = {}
        for i, b in enumerate(self.bets):
            w = registered(b.wager)
            if w is not None and w.settled is when:
                groups.setdefault(w.settles_with or w.id, []).append((i, b))
        if not groups:
            return self
        assert self.cards is not None
        sub = self.submission
        paytables = self._paytables()
        decisions = dict(self.decisions)
        rules = sub.blackjack_rules if self.game is TableGame.BLACKJACK else None
        meters = {wid: dict(levels) for wid, levels in self.meter_cents}
        keyed: list[tuple[tuple[int, str, int, int], SettlementLine]] = []
        for leader_id, items in groups.items():
            leader = get_wager(leader_id)
            items.sort(key=lambda ib: -ib[1].seat)
            first: dict[int, int] = {}
            for i, b in items:
                first.setdefault(b.seat, i)
            ctx = TableContext(
                self.cards,
                tuple(b for _, b in items),
                self.bets,
                paytables,
                sub.decks,
                decisions,
                rules,
                meters,
            )
            lines = leader.settle_at_table(ctx)
            keyed += (
                ((-line.seat, leader.section, first[line.seat], n), line)
                for n, line in enumerate(lines)
            )
        keyed.sort(key=lambda kl: kl[0])
        return self._log_lines(line for _, line in keyed)

    def _log_lines(self, lines: Iterable[SettlementLine]) -> Self:
        """The round with a settlement event for each of ``lines``, in order."""
        events = list(self.events)
        phase = self.phase
        for line in lines:
            events.append(
                Event(
                    len(events),
                    Action.SETTLEMENT,
                    phase,
                    line.section,
                    line.detail,
                    seat=line.seat,
                    wager=line.shown_wager,
                    amount_cents=line.stake_cents,
                    outcome=line.outcome,
                    pays=line.pays,
                    win_cents=line.win_cents,
                    returned_cents=line.returned_cents,
                    pending_validation=line.pending_validation,
                    outcome_key=line.outcome_key,
                    line=line,
                )
            )
        return self._evolve(events=tuple(events))

    def _record_unsettled(self, wager: str, section: str, what: str) -> Self:
        """Record each seat's base wager that the table's own system settles (from the dealer's
        right): a line saying the base game settles it, with no win
        (:meth:`SettlementLine.base_game_line`)."""
        events = list(self.events)
        for seat in reversed(self.seats()):
            amount = self.seat_bets(seat).get(wager)
            line = None
            if amount is not None:
                line = SettlementLine.base_game_line(seat, wager, amount, section, what)
            events.append(
                Event(
                    len(events),
                    Action.RECORDED,
                    self.phase,
                    section,
                    f"seat {seat}: {what} (base game external)",
                    seat=seat,
                    wager=wager,
                    amount_cents=amount,
                    line=line,
                )
            )
        return self._evolve(events=tuple(events))


def check_base_game(submission: RulesSubmission, base_game: SettledBy | str) -> SettledBy:
    """Who settles the base game of a round under ``submission``, as declared (``"croupier"`` or
    ``"external"``). Raises :class:`InputError` for another value, and :class:`ProcedureError`
    for ``"croupier"`` at a game croupier cannot settle (Criss-Cross Poker: declare it external)
    or ``"external"`` at a table whose base wagers croupier cannot record as the base game's
    (Baccarat, Four Card Poker, a Switch Hands or Blackjack Premium table, whose Ante croupier
    settles with the hand)."""
    by = SettledBy.parse(base_game)
    base, game = submission.base, submission.game
    rule = base.own_procedure or base.procedure_rule
    if by is SettledBy.CROUPIER and not base.croupier_settles:
        raise ProcedureError(
            f"croupier does not settle the {game.game.value} base game: declare "
            '"base_game": "external" (the table\'s own system settles it)',
            section=rule,
        )
    if by is SettledBy.EXTERNAL and (not base.external_allowed or submission.variant is not None):
        where = game.game.value
        if submission.variant is not None:  # the Ante is settled with the hand (§ 633b.4(i))
            where = f"a {submission.variant.value} table"
        raise ProcedureError(
            f'"base_game": "external" is not taken at {where}: croupier settles its base game '
            '(declare "croupier", the default)',
            section=rule,
        )
    return by


def _amount_rule(wager_id: str, amount_cents: int) -> str:
    """The rule a wager amount the table does not take breaks: the section's wager sizes (e.g.
    § 633b.2(e): $1 or $5) for a size the section does not allow, else the table's Rules
    Submission (§ 601a.2), which chose the paytable and so the size."""
    w = get_wager(wager_id)
    if w.wager_amount_rule is None:
        return w.section
    sizes = {c for t in w.paytables() if t.progressive for c in t.progressive.wager_cents}
    return "601a.2" if amount_cents in sizes else w.wager_amount_rule


def _signed(cents: int) -> str:
    return signed_money(cents)


SETTLED_NET = "round settled; players' net "
"""How the round's ``settle`` event begins its detail, the players' net following (a fed round's
words are rewritten with the ledger's net, :func:`croupier.table.progressive.with_ledger_amounts`)."""


def settled_net(events: Sequence[Event]) -> int:
    """The players' net result over the settlement events."""
    return sum(e.win_cents or 0 for e in events if e.action is Action.SETTLEMENT)


__all__ = [
    "BLACKJACK_MOVES",
    "PROCEDURE",
    "SETTLED_NET",
    "Action",
    "Bet",
    "DealtCards",
    "Event",
    "Phase",
    "SettledBy",
    "TableRound",
    "check_base_game",
    "settled_net",
]

"""The regulated round procedure, as an explicit state machine per game, with an audit record.

A round moves through four phases (:class:`Phase`): betting is open; the dealer announces "No more
bets" (the lock-out: § 633b.2(d)(2), § 633b.3(d)(2), § 631c.3(c), § 641a.7(c)); the cards are
dealt; the wagers are settled. :data:`PROCEDURE` lists, per game, which actions each phase allows.
Each action returns a *new* :class:`TableRound` with the events it caused appended — a rejected
action raises a typed :class:`~croupier.errors.CroupierError` naming the rule and leaves the round
exactly as it was (rounds are immutable). Settlement is delegated to the wagers' own code
(:meth:`Wager.settle`, :func:`croupier.wagers.blackjack_round.settle_round`,
:func:`croupier.wagers.baccarat.settle_round`, :func:`croupier.wagers.four_card_poker.settle_round`)
at the moment each section prescribes:

* Blackjack: Perfect Pairs, Jackpot Party and Match the Dealer immediately after the second card is
  dealt to each player and the dealer (§ 633b.1(e), § 633b.2(g), § 633b.3(g)) — in the ``deal``
  step; AxMan after the round is complete (§ 633c.12(e)) — in the ``settle`` step. The Blackjack
  wager itself is recorded, not settled (the players' draws are not recorded).
* Baccarat: the 5 Treasures wagers with the Baccarat wagers, after the coup (§ 631c.3(e)).
* Four Card Poker: the Play wager after the cards, one to three times the Ante (§ 641a.7(d)(1)),
  then every wager at ``settle``.
* Criss-Cross Poker: Ultimate Pairs with the optional wagers (§ 674b.1(d)), in action when the player
  folds (§ 674b.1(c)); the Criss-Cross Poker wagers are recorded, not settled.

Within each settlement moment seats are settled from the player farthest to the dealer's right,
counterclockwise (§ 633b.1(e), § 633c.12(e)): seats are numbered from the dealer's left (seat 1 is
first base), so the order is descending seat number.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from croupier.cards import Card, Shoe, format_cards, parse_card, parse_cards
from croupier.errors import CardError, InputError, LockoutError, ProcedureError, RulesError
from croupier.games.baccarat import deal_coup, play_coup
from croupier.games.blackjack import check_dealer_hand, play_dealer
from croupier.paytables import Paytable
from croupier.table.blackjack_play import ORDER_RULE, BlackjackPlay, MoveResult
from croupier.table.submission import REQUIRED_BASE, UNREGISTERED_BASE, RulesSubmission, TableGame
from croupier.units import check_cents, format_money
from croupier.wagers import Settlement, blackjack_round, get_wager
from croupier.wagers import baccarat as baccarat_wagers
from croupier.wagers import four_card_poker as fcp
from croupier.wagers.switch_hands import ANTE_WAGER, Variant
from croupier.wagers.switch_hands import check_wagers as check_ante


class Phase(Enum):
    """Where a round stands."""

    BETTING = "betting open"
    LOCKED = "no more bets"
    DEALT = "dealt"
    SETTLED = "settled"


class Action(Enum):
    """What can be done to a round (one event kind each, plus ``settlement``)."""

    OPEN = "open"
    BET = "bet"
    NO_MORE_BETS = "no-more-bets"
    DEAL = "deal"
    PLAY = "play"
    FOLD = "fold"
    SETTLE = "settle"
    SETTLEMENT = "settlement"
    RECORDED = "recorded"
    SWITCH = "switch"
    KEEP = "keep"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


BLACKJACK_MOVES = frozenset(
    {
        Action.SWITCH,
        Action.KEEP,
        Action.HIT,
        Action.STAND,
        Action.DOUBLE,
        Action.SPLIT,
        Action.SURRENDER,
    }
)
"""The players' decisions in a Blackjack round (:mod:`croupier.table.blackjack_play`)."""


_COMMON: dict[Phase, frozenset[Action]] = {
    Phase.BETTING: frozenset({Action.BET, Action.NO_MORE_BETS}),
    Phase.LOCKED: frozenset({Action.DEAL}),
    Phase.DEALT: frozenset({Action.SETTLE}),
    Phase.SETTLED: frozenset(),
}
PROCEDURE: Mapping[TableGame, Mapping[Phase, frozenset[Action]]] = {
    TableGame.BLACKJACK: {**_COMMON, Phase.DEALT: frozenset({*BLACKJACK_MOVES, Action.SETTLE})},
    TableGame.BACCARAT: _COMMON,
    TableGame.FOUR_CARD_POKER: {
        **_COMMON,
        Phase.DEALT: frozenset({Action.PLAY, Action.FOLD, Action.SETTLE}),
    },
    TableGame.CRISS_CROSS_POKER: {**_COMMON, Phase.DEALT: frozenset({Action.FOLD, Action.SETTLE})},
}
"""The state machine: per game, the actions each phase allows (an action moves the round to the
next phase: ``no-more-bets`` → LOCKED, ``deal`` → DEALT, ``settle`` → SETTLED)."""

_PROCEDURE_RULE = {
    TableGame.BLACKJACK: "633b.1(d)",
    TableGame.BACCARAT: "631c.3(c)",
    TableGame.FOUR_CARD_POKER: "641a.7(c)",
    TableGame.CRISS_CROSS_POKER: "674b.1(c)",
}
LATE_BET_RULE: Mapping[str, str] = {
    "jackpot-party": "633b.2(d)(2)",
    "match-the-dealer": "633b.3(d)(2)",
    "axman": "633c.12(c)",
    "axman-h17": "633c.12(c)",
    "perfect-pairs": "633b.1(d)",
    "fortune-7": "631c.3(c)",
    "golden-8": "631c.3(c)",
    "heavenly-9": "631c.3(c)",
    "blazing-7s": "631c.3(c)",
    "cover-all": "631c.3(c)",
}
"""The paragraph that closes each wager at "No more bets" (default: the game's, e.g. § 641a.7(c))."""

SECOND_CARD_WAGERS = ("perfect-pairs", "jackpot-party", "match-the-dealer")
"""Blackjack wagers settled right after the second card (§ 633b.1(e), § 633b.2(g), § 633b.3(g))."""

FCP_BETS = {
    "four-card-poker": "ante_cents",
    "aces-up": "aces_up_cents",
    "four-card-progressive": "four_card_progressive_cents",
    "five-card-progressive": "five_card_progressive_cents",
    "bad-beat-bonus": "bad_beat_cents",
    "five-card-hand-bonus": "five_card_bonus_cents",
    "five-card-hand-bonus-dealer": "five_card_bonus_dealer_cents",
    "six-card-bonus": "six_card_bonus_cents",
}
"""Four Card Poker wager ids → fields of :class:`~croupier.wagers.four_card_poker.FourCardPokerBets`."""


@dataclass(frozen=True)
class Bet:
    """A wager placed at a seat (1 = first base, at the dealer's left), in cents."""

    seat: int
    wager: str
    amount_cents: int
    player: str | None = None


@dataclass(frozen=True)
class DealtCards:
    """The cards of a round, in dealing order within each hand.

    Blackjack: each seat's initial two cards, the dealer's hand (upcard, hole card, draws) and, at
    a Switch Hands or Blackjack Premium table, each Ante player's two face-down Switch Hands cards
    (``switch_cards``, § 633b.4(d)).
    Baccarat: ``coup`` — the cards of the coup in dealing order (§ 631a.9–§ 631a.11).
    Four Card Poker: each seat's five cards, the dealer's six (the first face up) and the Six Card
    Bonus card. Criss-Cross Poker: each seat's two cards (Ultimate Pairs reads only them).
    """

    players: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    dealer: tuple[Card, ...] = ()
    coup: tuple[Card, ...] = ()
    bonus: Card | None = None
    switch_cards: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @staticmethod
    def parse(
        players: Mapping[int, str] | None = None,
        dealer: str = "",
        coup: str = "",
        bonus: str | None = None,
        switch_cards: Mapping[int, str] | None = None,
    ) -> DealtCards:
        """From card text; raises :class:`CardError` naming a bad card."""
        seats = tuple(sorted((int(s), parse_cards(t)) for s, t in (players or {}).items()))
        switch = tuple(sorted((int(s), parse_cards(t)) for s, t in (switch_cards or {}).items()))
        return DealtCards(
            seats,
            parse_cards(dealer) if dealer else (),
            parse_cards(coup) if coup else (),
            parse_card(bonus) if bonus else None,
            switch,
        )

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat`` (empty when none)."""
        return dict(self.players).get(seat, ())

    def every_card(self) -> tuple[Card, ...]:
        """Every card of the round."""
        bonus = (self.bonus,) if self.bonus is not None else ()
        switch = tuple(c for _, h in self.switch_cards for c in h)
        return (
            tuple(c for _, h in self.players for c in h) + switch + self.dealer + self.coup + bonus
        )

    def describe(self) -> str:
        """One line for people."""
        down = dict(self.switch_cards)
        parts = [
            f"seat {s}: {format_cards(h)}"
            + (f" (Switch Hands cards {format_cards(down[s])})" if s in down else "")
            for s, h in self.players
        ]
        if self.dealer:
            parts.insert(0, f"dealer: {format_cards(self.dealer)}")
        if self.coup:
            parts.append(f"coup: {format_cards(self.coup)}")
        if self.bonus is not None:
            parts.append(f"Six Card Bonus card: {self.bonus}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Event:
    """One immutable entry of the round record: who (seat), what (action, wager), amount, outcome,
    pay and the net result, with the section the step follows."""

    index: int
    action: Action
    phase: Phase
    section: str
    detail: str
    seat: int | None = None
    wager: str | None = None
    amount_cents: int | None = None
    outcome: str | None = None
    pays: str | None = None
    win_cents: int | None = None
    returned_cents: int | None = None
    pending_validation: bool = False
    outcome_key: str | None = None
    """The paytable line's outcome key a settlement was paid on (``None``: lost or not a
    paytable line), what the progressive ledger reads (:mod:`croupier.table.progressive`)."""

    def to_json(self) -> dict[str, object]:
        """The event as plain JSON values (money in cents)."""
        return {
            "index": self.index,
            "action": self.action.value,
            "phase": self.phase.value,
            "seat": self.seat,
            "wager": self.wager,
            "amount_cents": self.amount_cents,
            "outcome": self.outcome,
            "pays": self.pays,
            "win_cents": self.win_cents,
            "returned_cents": self.returned_cents,
            "pending_validation": self.pending_validation,
            "outcome_key": self.outcome_key,
            "section": self.section,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class TableRound:
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

    # -- the record ----------------------------------------------------------------------
    @classmethod
    def open(cls, submission: RulesSubmission) -> TableRound:
        """A new round with betting open."""
        r = cls(submission)
        what = f"betting open at {submission.name or submission.game.value}"
        return r._log(Action.OPEN, "601a.2", what)

    def _log(self, action: Action, section: str, detail: str, **kw: object) -> TableRound:
        ev = Event(len(self.events), action, self.phase, section, detail, **kw)  # type: ignore[arg-type]
        return replace(self, events=(*self.events, ev))

    def settlements(self) -> tuple[Event, ...]:
        """The settlement events, in the order they were made."""
        return tuple(e for e in self.events if e.action is Action.SETTLEMENT)

    @property
    def game(self) -> TableGame:
        """The table's game."""
        return self.submission.game

    def _require(self, action: Action) -> None:
        allowed = PROCEDURE[self.game][self.phase]
        if action in allowed:
            return
        names = ", ".join(sorted(a.value for a in allowed)) or "nothing"
        # the Play wager is placed after the player sees the cards (§ 641a.7(d)(1))
        play_rule = action is Action.PLAY and self.game is TableGame.FOUR_CARD_POKER
        raise ProcedureError(
            f"{action.value} is not allowed once the round is {self.phase.value} "
            f"(allowed: {names})",
            section="641a.7(d)(1)" if play_rule else _PROCEDURE_RULE[self.game],
        )

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
        a 5 Treasures wager after a Baccarat wager, § 631c.3(c)), before "No more bets"."""
        wid = wager.strip().lower()
        sub = self.submission
        if self.phase is not Phase.BETTING:
            raise LockoutError(
                f'seat {seat}: the {wid} wager comes after "No more bets"',
                section=LATE_BET_RULE.get(wid, _PROCEDURE_RULE[self.game]),
            )
        self._require(Action.BET)
        if not isinstance(seat, int) or not 1 <= seat <= sub.seats:
            raise InputError(f"seat {seat!r}: the table has seats 1–{sub.seats}")
        check_cents(amount_cents)  # a whole number of cents within croupier's limit
        if wid == ANTE_WAGER:
            return self._ante(seat, amount_cents)
        offered = sub.offered(wid)
        if offered is None:
            raise ProcedureError(f"the table does not offer the {wid} wager", section="601a.2")
        if wid in self.seat_bets(seat):
            raise ProcedureError(f"seat {seat} already has a {wid} wager", section="601a.2")
        if offered.amounts_cents:
            if amount_cents not in offered.amounts_cents:
                raise RulesError(
                    f"seat {seat}: the {wid} wager is {offered.describe_limits()} at this table, "
                    f"not {format_money(amount_cents)}",
                    section=_amount_rule(wid),
                )
        else:
            lo, hi = offered.min_cents or 0, offered.max_cents or amount_cents
            if not lo <= amount_cents <= hi:
                raise RulesError(
                    f"seat {seat}: {format_money(amount_cents)} is outside the {wid} wager's "
                    f"limits {offered.describe_limits()}",
                    section="633c.12(c)" if wid.startswith("axman") else "601a.2",
                )
        if sub.switch_hands and wid == "blackjack" and amount_cents % 500:
            raise RulesError(
                f"seat {seat}: at Switch Hands the Blackjack wager is placed in $5 increments, "
                f"not {format_money(amount_cents)}",
                section="633b.4(b)",
            )
        needs = REQUIRED_BASE.get(wid)
        if needs is not None and not any(b in self.seat_bets(seat) for b in needs[0]):
            raise ProcedureError(
                f"seat {seat}: the {wid} wager needs the {' or '.join(needs[0])} wager first",
                section=needs[1],
            )
        if player is not None and self.game is TableGame.FOUR_CARD_POKER:
            self._check_boxes(seat, player)
        section = UNREGISTERED_BASE.get(wid) or (
            offered.paytable.section if offered.paytable else "601a.2"
        )
        r = replace(self, bets=(*self.bets, Bet(seat, wid, amount_cents, player)))
        return r._log(
            Action.BET,
            section,
            f"seat {seat} places {format_money(amount_cents)} on {wid}",
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
        wager = bets.get("blackjack")
        if wager is None:
            raise ProcedureError(
                f"seat {seat}: the Switch Hands Ante is placed with a Blackjack wager, after it",
                section="633b.4(c)",
            )
        check_ante(variant, wager, amount_cents)
        r = replace(self, bets=(*self.bets, Bet(seat, ANTE_WAGER, amount_cents)))
        return r._log(
            Action.BET,
            "633b.4(c)",
            f"seat {seat} places the Switch Hands Ante {format_money(amount_cents)}",
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
                section="641a.7(e)",
            )

    def no_more_bets(self) -> TableRound:
        """The dealer announces "No more bets"; the lock-out refuses any later wager."""
        self._require(Action.NO_MORE_BETS)
        if not self.bets:
            raise ProcedureError("no wager has been placed", section=_PROCEDURE_RULE[self.game])
        if self.game is TableGame.FOUR_CARD_POKER:
            for seat in self.seats():
                self._fcp_bets(seat).check()
        if self.submission.variant is Variant.SWITCH_HANDS:
            for seat in self.seats():
                bets = self.seat_bets(seat)
                if "blackjack" in bets and ANTE_WAGER not in bets:
                    raise RulesError(
                        f"seat {seat}: a Switch Hands player places the Switch Hands Ante, $1 for "
                        f"every $5 ({format_money(bets['blackjack'] // 5)} on "
                        f"{format_money(bets['blackjack'])})",
                        section="633b.4(c)",
                    )
        r = replace(self, phase=Phase.LOCKED)
        return r._log(
            Action.NO_MORE_BETS,
            LATE_BET_RULE["jackpot-party"]
            if self.game is TableGame.BLACKJACK
            else _PROCEDURE_RULE[self.game],
            "No more bets",
        )

    # -- dealing -------------------------------------------------------------------------
    def deal(self, cards: DealtCards, undealt: Sequence[Card] = ()) -> TableRound:
        """Deal the recorded ``cards``: checked against the game's dealing rules and the shoe,
        then the wagers the section settles at once are settled (Blackjack: § 633b.1(e)).
        ``undealt`` is the rest of a shuffled shoe, which Blackjack draws take in order."""
        self._require(Action.DEAL)
        decks = self.submission.decks
        Shoe.standard(decks).check_deal(cards.every_card())
        game = self.game
        seats = self.seats()
        dealt_seats = tuple(s for s, _ in cards.players)
        if game is not TableGame.BACCARAT and dealt_seats != seats:
            raise CardError(
                f"cards are dealt to seats {', '.join(map(str, dealt_seats)) or 'none'}, but the "
                f"seats with wagers are {', '.join(map(str, seats))}",
                cards.describe(),
            )
        size = {
            TableGame.BLACKJACK: 2,
            TableGame.FOUR_CARD_POKER: 5,
            TableGame.CRISS_CROSS_POKER: 2,
        }
        for seat, hand in cards.players:
            if game is TableGame.BACCARAT:
                break
            if len(hand) != size[game]:
                raise CardError(
                    f"seat {seat}: a player is dealt {size[game]} cards here, not {len(hand)}",
                    format_cards(hand),
                )
        if cards.switch_cards and game is not TableGame.BLACKJACK:
            raise CardError("Switch Hands cards are dealt at Blackjack only", cards.describe())
        r = replace(self, phase=Phase.DEALT, cards=cards)
        if game is TableGame.BLACKJACK:
            check_dealer_hand(cards.dealer, self.submission.blackjack_rules)
            r = replace(r, blackjack=self._start_play(cards, undealt))
            r = r._log(Action.DEAL, "633b.1(d)", cards.describe())
            return r._settle_second_card()
        if game is TableGame.BACCARAT:
            coup = deal_coup(cards.coup)
            return r._log(Action.DEAL, "631a.9", f"{cards.describe()} · {coup.describe()}")
        if game is TableGame.FOUR_CARD_POKER:
            if len(cards.dealer) != fcp.DEALER.size:
                raise CardError(
                    f"the dealer is dealt six cards, not {len(cards.dealer)}",
                    format_cards(cards.dealer),
                )
            if cards.bonus is None and any("six-card-bonus" in self.seat_bets(s) for s in seats):
                raise CardError("the Six Card Bonus wager needs the Six Card Bonus card", "")
            return r._log(Action.DEAL, "641a.7(d)", cards.describe())
        return r._log(Action.DEAL, "674b.1(c)", cards.describe())

    def _start_play(self, cards: DealtCards, undealt: Sequence[Card]) -> BlackjackPlay:
        """The players' play at the deal (:class:`BlackjackPlay`)."""
        sub = self.submission
        wagers = {
            seat: (bets.get("blackjack", 0), bets.get(ANTE_WAGER, 0))
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

    def deal_shoe(self, seed: int) -> TableRound:
        """Deal from a shoe of the table's decks shuffled with ``seed`` (the Blackjack dealer's
        hand drawn by the house rule, § 633a.7; the coup by § 631a.9–§ 631a.11)."""
        self._require(Action.DEAL)
        cards = list(Shoe.standard(self.submission.decks).cards())
        random.Random(seed).shuffle(cards)
        seats = self.seats()
        game = self.game
        if game is TableGame.BACCARAT:
            return self.deal(DealtCards(coup=play_coup(cards[:6]).cards))
        n = {TableGame.BLACKJACK: 2, TableGame.FOUR_CARD_POKER: 5, TableGame.CRISS_CROSS_POKER: 2}[
            game
        ]
        switch: dict[int, tuple[Card, ...]] = {}
        if game is TableGame.BLACKJACK:
            # § 633b.4(d): the Switch Hands cards first, to each Ante player from the dealer's left
            for s in seats:
                if ANTE_WAGER in self.seat_bets(s):
                    switch[s] = (cards.pop(0), cards.pop(0))
        hands = {s: cards[i * n : (i + 1) * n] for i, s in enumerate(seats)}
        rest = cards[len(seats) * n :]
        if game is TableGame.BLACKJACK:
            dealer = play_dealer(rest, self.submission.blackjack_rules)
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
        (§ 641a.7(d)(1))."""
        self._require(Action.PLAY)
        ante = self._decision_seat(seat)
        if not isinstance(amount_cents, int) or not ante <= amount_cents <= 3 * ante:
            raise RulesError(
                f"seat {seat}: the Play wager is one to three times the Ante "
                f"({format_money(ante)} to {format_money(3 * ante)}), not "
                f"{format_money(amount_cents) if isinstance(amount_cents, int) else amount_cents}",
                section="641a.7(d)(1)",
            )
        r = replace(self, decisions=(*self.decisions, (seat, amount_cents)))
        return r._log(
            Action.PLAY,
            "641a.7(d)(1)",
            f"seat {seat} plays {format_money(amount_cents)}",
            seat=seat,
            wager="four-card-poker",
            amount_cents=amount_cents,
        )

    def fold(self, seat: int) -> TableRound:
        """The player folds: at Four Card Poker the Ante is lost (§ 641a.7(d)(1)); at Criss-Cross
        Poker the Ultimate Pairs wager stays in action (§ 674b.1(c))."""
        self._require(Action.FOLD)
        if self.game is TableGame.FOUR_CARD_POKER:
            self._decision_seat(seat)
            section = "641a.7(d)(1)"
        else:
            if seat not in self.seats():
                raise InputError(f"seat {seat} has no wager")
            if any(s == seat for s, _ in self.decisions):
                raise ProcedureError(f"seat {seat} has already folded", section="674b.1(c)")
            section = "674b.1(c)"
        r = replace(self, decisions=(*self.decisions, (seat, 0)))
        return r._log(Action.FOLD, section, f"seat {seat} folds", seat=seat)

    def switch(self, seat: int) -> TableRound:
        """§ 633b.4(f)(2): the player plays the two face-down Switch Hands cards."""
        return self._move(Action.SWITCH, seat, lambda p: p.choose(seat, True))

    def keep(self, seat: int) -> TableRound:
        """§ 633b.4(f)(1): the player plays the two face-up cards."""
        return self._move(Action.KEEP, seat, lambda p: p.choose(seat, False))

    def hit(self, seat: int, card: Card | None = None) -> TableRound:
        """The seat's hand takes ``card`` (or the shoe's next card)."""
        return self._move(Action.HIT, seat, lambda p: p.hit(seat, card))

    def stand(self, seat: int) -> TableRound:
        """The seat's hand stands."""
        return self._move(Action.STAND, seat, lambda p: p.stand(seat))

    def double(
        self, seat: int, amount_cents: int | None = None, card: Card | None = None
    ) -> TableRound:
        """Double down up to the hand's wager (default: all of it), one card (§ 633a.10)."""
        return self._move(Action.DOUBLE, seat, lambda p: p.double(seat, amount_cents, card))

    def split(self, seat: int) -> TableRound:
        """Split the seat's pair (§ 633a.11)."""
        return self._move(Action.SPLIT, seat, lambda p: p.split(seat))

    def surrender(self, seat: int) -> TableRound:
        """Late surrender, half the wager back (§ 633a.9, § 633b.4(h), (n))."""
        return self._move(Action.SURRENDER, seat, lambda p: p.surrender(seat))

    def _move(
        self, action: Action, seat: int, make: Callable[[BlackjackPlay], MoveResult]
    ) -> TableRound:
        if self.game is not TableGame.BLACKJACK:
            raise ProcedureError(
                f"{action.value} is a Blackjack decision, not a {self.game.value} one",
                section=_PROCEDURE_RULE[self.game],
            )
        self._require(action)
        assert self.blackjack is not None and self.cards is not None
        result = make(self.blackjack)
        result.play.check_shoe(self.submission.decks, self.cards.every_card())
        r = replace(self, blackjack=result.play)
        return r._log(
            action,
            result.section,
            result.detail,
            seat=seat,
            wager="blackjack",
            amount_cents=result.amount_cents,
        )

    def _decision_seat(self, seat: int) -> int:
        ante = self.seat_bets(seat).get("four-card-poker")
        if ante is None:
            raise ProcedureError(
                f"seat {seat} has no Ante wager to play or fold", section="641a.7(d)(1)"
            )
        if any(s == seat for s, _ in self.decisions):
            raise ProcedureError(f"seat {seat} has already decided", section="641a.7(d)(1)")
        return ante

    # -- settlement ----------------------------------------------------------------------
    def settle(self) -> TableRound:
        """Settle what the round's end settles, seat by seat from the dealer's right."""
        self._require(Action.SETTLE)
        game = self.game
        if game is TableGame.BLACKJACK:
            r = self._settle_axman()
        elif game is TableGame.BACCARAT:
            r = self._settle_baccarat()
        elif game is TableGame.FOUR_CARD_POKER:
            r = self._settle_four_card_poker()
        else:
            r = self._settle_criss_cross()
        r = replace(r, phase=Phase.SETTLED)
        net = sum(e.win_cents or 0 for e in r.settlements())
        return r._log(
            Action.SETTLE, _PROCEDURE_RULE[game], f"round settled; players' net {_signed(net)}"
        )

    def _paytable(self, wager_id: str) -> Paytable:
        offered = self.submission.offered(wager_id)
        assert offered is not None and offered.paytable is not None
        return offered.paytable

    def _blackjack_round(self) -> tuple[blackjack_round.DealtRound, dict[int, int]]:
        assert self.cards is not None
        seats = self.seats()
        hands = tuple((h[0], h[1]) for _, h in self.cards.players)
        index = {seat: i + 1 for i, seat in enumerate(seats)}
        return blackjack_round.DealtRound(self.cards.dealer, hands), index

    def _settle_second_card(self) -> TableRound:
        """§ 633b.1(e), § 633b.2(g), § 633b.3(g): Perfect Pairs, Jackpot Party and Match the
        Dealer, seat by seat from the dealer's right, before any other card."""
        assert self.cards is not None
        rules = self.submission.blackjack_rules
        rnd, index = self._blackjack_round()
        jp = {index[b.seat]: b.amount_cents for b in self.bets if b.wager == "jackpot-party"}
        jp_results: dict[int, blackjack_round.SeatSettlement] = {}
        if jp:
            for seat_s in blackjack_round.settle_round(
                rnd,
                rules,
                jackpot_party_cents=jp,
                jackpot_party_paytable=self._paytable("jackpot-party"),
            ):
                jp_results[seat_s.seat] = seat_s
        r = self
        sections = {
            "perfect-pairs": "633b.1(e)",
            "jackpot-party": "633b.2(g)",
            "match-the-dealer": "633b.3(g)",
        }
        pending: list[tuple[int, str, Settlement, int]] = []
        for seat in reversed(self.seats()):
            bets = self.seat_bets(seat)
            hand = self.cards.hand(seat)
            for wid in SECOND_CARD_WAGERS:
                if wid not in bets:
                    continue
                envy = 0
                if wid == "jackpot-party":
                    ss = jp_results[index[seat]]
                    assert ss.jackpot_party is not None
                    s, envy = ss.jackpot_party, ss.envy_cents
                else:
                    w = get_wager(wid)
                    cards = hand if wid == "perfect-pairs" else (*hand, self.cards.dealer[0])
                    s = w.settle(cards, self._paytable(wid), bets[wid], rules.decks)
                pending.append((seat, sections[wid], s, envy))
        for seat, section, s, envy in pending:
            r = r._log_settlement(seat, section, s, envy)
        return r

    def _log_settlement(self, seat: int, section: str, s: Settlement, envy: int = 0) -> TableRound:
        detail = s.describe() + (f"; envy {format_money(envy)}" if envy else "")
        return self._log(
            Action.SETTLEMENT,
            section,
            detail,
            seat=seat,
            wager=s.wager,
            amount_cents=s.amount_cents,
            outcome=s.line.label if s.line else "no winning combination",
            pays=str(s.line.pays) if s.line else "loses",
            win_cents=s.win_cents + envy,
            returned_cents=s.returned_cents + envy,
            pending_validation=s.pending_validation,
            outcome_key=s.line.outcome if s.line else None,
        )

    def _settle_axman(self) -> TableRound:
        """§ 633c.12(e): after the round, the dealer's whole hand (bust card included) read as a
        poker hand; then the Blackjack wagers (:meth:`_settle_blackjack`)."""
        rnd, index = self._blackjack_round()
        ax = {index[b.seat]: b.amount_cents for b in self.bets if b.wager.startswith("axman")}
        back = {i: seat for seat, i in index.items()}
        r = self
        if ax:
            for ss in blackjack_round.settle_round(
                rnd, self.submission.blackjack_rules, axman_cents=ax
            ):
                assert ss.axman is not None
                r = r._log_settlement(back[ss.seat], "633c.12(e)", ss.axman)
        return r._settle_blackjack()

    def _settle_blackjack(self) -> TableRound:
        """The Blackjack wagers and Switch Hands Antes, seat by seat from the dealer's right, once
        every player's play is over (:mod:`croupier.table.blackjack_play`,
        :func:`~croupier.wagers.switch_hands.settle_seat`). At a plain Blackjack table a round
        that records none of the players' decisions, and needs them, records the wagers instead."""
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
            return self._record_unsettled(
                "blackjack", "633a.6(d)", "the Blackjack wager is settled by the play of the hand"
            )
        settled = [(seat, play.settle(seat)) for seat in reversed(self.seats())]
        r = self
        for seat, ss in settled:
            for line in ss.lines:
                r = r._log(
                    Action.SETTLEMENT,
                    line.section,
                    f"seat {seat}: {line.describe()}",
                    seat=seat,
                    wager=line.wager,
                    amount_cents=line.wagered_cents,
                    outcome=line.label,
                    pays=line.pays,
                    win_cents=line.net_cents,
                    returned_cents=line.returned_cents,
                )
        return r

    def _settle_baccarat(self) -> TableRound:
        """§ 631c.3(e): the 5 Treasures wagers with the Baccarat wagers, after the coup."""
        assert self.cards is not None
        sub = self.submission
        table = baccarat_wagers.BaccaratTable(
            decks=sub.decks,
            player=sub.paytable_key("player") or "standard",
            banker=sub.paytable_key("banker") or "commission",
            tie=sub.paytable_key("tie") or "8-to-1",
            five_treasures=next(
                (
                    k
                    for k in map(
                        sub.paytable_key,
                        ("fortune-7", "golden-8", "heavenly-9", "blazing-7s", "cover-all"),
                    )
                    if k
                ),
                "A",
            ),
        )
        settled = [
            (seat, baccarat_wagers.settle_round(self.cards.coup, self.seat_bets(seat), table))
            for seat in reversed(self.seats())
        ]
        r = self
        for seat, rs in settled:
            for s in rs.settlements:
                r = r._log_settlement(
                    seat,
                    "631c.3(e)" if s.wager not in baccarat_wagers.BASE_WAGERS else s.section,
                    s,
                )
        return r

    def _fcp_bets(self, seat: int, play_cents: int = 0) -> fcp.FourCardPokerBets:
        kw = {FCP_BETS[w]: c for w, c in self.seat_bets(seat).items()}
        return fcp.FourCardPokerBets(play_cents=play_cents, **kw)

    def _settle_four_card_poker(self) -> TableRound:
        """§ 641a.7(d): every wager of each seat, the Ante and Play against the dealer's hand."""
        assert self.cards is not None
        decided = dict(self.decisions)
        for seat in self.seats():
            if "four-card-poker" in self.seat_bets(seat) and seat not in decided:
                raise ProcedureError(
                    f"seat {seat} has neither played nor folded", section="641a.7(d)(1)"
                )
        paytables: dict[str, str | Paytable] = {
            w.wager: w.paytable for w in self.submission.wagers if w.paytable is not None
        }
        progressive = ("four-card-progressive", "five-card-progressive")
        results = []
        for seat in reversed(self.seats()):
            others = [
                self.cards.hand(s)
                for s in self.seats()
                if s != seat and any(p in self.seat_bets(s) for p in progressive)
            ]
            rs = fcp.settle_round(
                self.cards.hand(seat),
                self.cards.dealer,
                self._fcp_bets(seat, decided.get(seat, 0)),
                self.cards.bonus,
                paytables,
                others if any(p in self.seat_bets(seat) for p in progressive) else (),
            )
            results.append((seat, rs))
        r = self
        for seat, rs in results:
            for res in rs.results:
                s = res.settlement
                if s is not None:
                    r = r._log_settlement(seat, res.section, s, res.envy_cents)
                    continue
                r = r._log(
                    Action.SETTLEMENT,
                    res.section,
                    f"{res.name}: {res.detail}",
                    seat=seat,
                    wager=f"{res.wager}:{res.name.lower().replace(' ', '-')}",
                    amount_cents=res.amount_cents,
                    outcome=res.detail,
                    pays=_signed(res.win_cents),
                    win_cents=res.win_cents,
                    returned_cents=res.returned_cents,
                )
        return r

    def _settle_criss_cross(self) -> TableRound:
        """§ 674b.1(d): Ultimate Pairs with the optional wagers, folded or not (§ 674b.1(c))."""
        assert self.cards is not None
        up = get_wager("ultimate-pairs")
        settled = [
            (seat, up.settle(self.cards.hand(seat), self._paytable("ultimate-pairs"), cents, 1))
            for seat in reversed(self.seats())
            for wid, cents in self.seat_bets(seat).items()
            if wid == "ultimate-pairs"
        ]
        r = self
        for seat, s in settled:
            r = r._log_settlement(seat, "674b.1(d)", s)
        return r._record_unsettled(
            "criss-cross", "674a.7(d)", "the Criss-Cross Poker wagers are settled by the base game"
        )

    def _record_unsettled(self, wager: str, section: str, what: str) -> TableRound:
        """Record each seat's base wager that the round does not settle (from the dealer's
        right)."""
        r = self
        for seat in reversed(self.seats()):
            r = r._log(
                Action.RECORDED,
                section,
                f"seat {seat}: {what} (not recorded)",
                seat=seat,
                wager=wager,
                amount_cents=self.seat_bets(seat).get(wager),
            )
        return r


def _amount_rule(wager_id: str) -> str:
    w = get_wager(wager_id)
    return w.wager_amount_rule or w.section


def _signed(cents: int) -> str:
    return ("+" if cents >= 0 else "") + format_money(cents)


def settled_net(events: Sequence[Event]) -> int:
    """The players' net result over the settlement events."""
    return sum(e.win_cents or 0 for e in events if e.action is Action.SETTLEMENT)


__all__ = [
    "PROCEDURE",
    "Action",
    "Bet",
    "DealtCards",
    "Event",
    "Phase",
    "TableRound",
    "settled_net",
]

"""What a wager declares to the table, and the one settlement record every game and wager shares.

The table engine (:mod:`croupier.table.round`) dispatches on none of the wagers' ids: it reads what
each registered :class:`~croupier.wagers.base.Wager` declares —

* ``base_wagers`` / ``base_rule``: the bet one of which the player must have placed at the seat
  first (Perfect Pairs after the Blackjack wager, § 633b.1(c));
* ``settled`` (:class:`SettleWhen`): right after the second card, after the round, or with the
  base game;
* ``lockout_rule``: the paragraph that closes it at "No more bets" (§ 633b.2(d)(2));
* ``deal``: the cards it reads, each group naming where at the table they come from
  (:class:`CardSource`);

and settles each bet by the wager's :meth:`~croupier.wagers.base.Wager.settle_at_table` (by default
:meth:`~croupier.wagers.base.Wager.settle` on the cards of its deal), which returns
:class:`SettlementLine` records. A round's lines make one :class:`RoundSettlement`, whose
:meth:`~RoundSettlement.to_json` every command's JSON uses. The base games are declared beside it,
in :mod:`croupier.wagers.base_games` (their base wagers, the ones croupier records without
settling, the paragraphs of their procedure): no wager reads them, so a change to them leaves
the stored counts' fingerprints as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from croupier.cards import Card, format_cards, parse_card, parse_cards
from croupier.errors import InputError, citation
from croupier.frozen import stored_at_once
from croupier.games.blackjack import BlackjackRules
from croupier.paytables import MeterLevel, Paytable
from croupier.units import ascii_digits, format_money


class Game(Enum):
    """The base game a wager is placed at."""

    BLACKJACK = "Blackjack"
    BACCARAT = "Baccarat"
    FOUR_CARD_POKER = "Four Card Poker"
    CRISS_CROSS_POKER = "Criss-Cross Poker"


class TableGame(Enum):
    """The base games whose rounds croupier runs (Chapters 633a, 631a, 641a, 674a), by the name a
    Rules Submission gives them."""

    BLACKJACK = "blackjack"
    BACCARAT = "baccarat"
    FOUR_CARD_POKER = "four-card-poker"
    CRISS_CROSS_POKER = "criss-cross-poker"

    __hash__ = object.__hash__
    """Identity: members are singletons compared by identity, and the C slot spares the table
    Enum's Python-level ``hash(self._name_)`` at every lookup of a step."""

    @property
    def game(self) -> Game:
        """The :class:`Game` its wagers are registered for."""
        return Game[self.name]


class SettleWhen(Enum):
    """When the table settles a wager, as its section's settlement paragraph says."""

    SECOND_CARD = "right after the second card"
    """Immediately after the second card is dealt to each player and the dealer, before any other
    card (§ 633b.1(e), § 633b.2(g), § 633b.3(g)): at the deal."""
    ROUND_END = "after the round"
    """After the round is complete, before the base wagers (§ 633c.12(e))."""
    WITH_BASE_GAME = "with the base game"
    """With the base game's wagers, at the end of the round (§ 631c.3(e), § 641a.7(d),
    § 674b.1(d))."""


class CardSource(Enum):
    """Where at the table the cards of a :class:`~croupier.wagers.base.CardGroup` come from."""

    __hash__ = object.__hash__
    """Identity: members are singletons compared by identity, and the C slot spares the table
    Enum's Python-level ``hash(self._name_)`` at every lookup of a step."""

    PLAYER = "player"
    """The seat's hand as dealt (Blackjack: the initial two cards; Four Card Poker: five)."""
    DEALER = "dealer"
    """The dealer's hand (Blackjack: upcard, hole card and every draw; Four Card Poker: six)."""
    DEALER_UPCARD = "dealer-upcard"
    """The dealer's first card, dealt face up."""
    DEALER_HOLE = "dealer-hole"
    """The dealer's second card."""
    DEALER_DOWN = "dealer-down"
    """The dealer's cards after the first (Four Card Poker: the five face-down cards)."""
    BONUS = "bonus"
    """The Six Card Bonus card (§ 641a.7(d)(8))."""
    COUP = "coup"
    """A Baccarat coup's cards in dealing order (§ 631a.9–§ 631a.11)."""


def _hand(what: str, cards: object, seat: int | None = None) -> tuple[Card, ...]:
    if type(cards) is tuple:
        for c in cards:
            if type(c) is not Card:
                break
        else:
            return cards  # cards already (DealtCards.parse, a shoe): nothing to convert
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Sequence) or not all(isinstance(c, Card) for c in cards):
        where = what if seat is None else f"{what} of seat {seat}"
        raise InputError(
            f"DealtCards {where}: give cards (e.g. parse_cards('Kd 7c')), not {cards!r}"
        )
    return tuple(cards)


def seat_number(value: object) -> int:
    """A seat as given: a whole number from 1 (not ``True``, which Python counts as 1), or its
    ASCII digits as text (``"3"``, a JSON object's key); :class:`~croupier.errors.InputError`
    otherwise (``"３"``, ``"3_0"``, ``"+3"``: no number is read out of other text).

    >>> seat_number(3), seat_number("3")
    (3, 3)
    """
    if isinstance(value, str) and ascii_digits(value.strip()):
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"a seat is a whole number from 1 (digits 0–9), not {value!r}")
    return value


def _seat_hands(what: str, value: object) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    # a tuple (DealtCards.parse's pairs) is neither a mapping nor text: no ABC checks for it
    pairs = value if type(value) is tuple else (
        list(value.items()) if isinstance(value, Mapping) else value
    )  # fmt: skip
    if type(pairs) is not tuple and (not isinstance(pairs, Sequence) or isinstance(pairs, str)):
        raise InputError(f"DealtCards {what}: give seat → cards, not {value!r}")
    out: dict[int, tuple[Card, ...]] = {}
    for pair in pairs:
        if not ((type(pair) is tuple or isinstance(pair, Sequence)) and len(pair) == 2):
            raise InputError(f"DealtCards {what}: give (seat, cards) pairs, not {pair!r}")
        seat, cards = pair
        try:
            number = seat_number(seat)
        except InputError:
            raise InputError(
                f"DealtCards {what}: a seat is a number from 1, not {seat!r}"
            ) from None
        out[number] = _hand(what, cards, number)
    return tuple(sorted(out.items()))


Hand = str | Sequence[Card]
"""A hand as given: card text (``'Kd 7c'``) or :class:`Card` objects in dealing order."""
SeatHands = Mapping[int, Hand] | Sequence[tuple[int, Hand]]
"""Seats' hands as given: a mapping seat → hand, or ``(seat, hand)`` pairs."""


@dataclass(frozen=True, init=False)
class DealtCards:
    """The cards of a round, in dealing order within each hand.

    Blackjack: each seat's initial two cards, the dealer's hand (upcard, hole card, draws) and, at
    a Switch Hands or Blackjack Premium table, each Ante player's two face-down Switch Hands cards
    (``switch_cards``, § 633b.4(d)).
    Baccarat: ``coup`` — the cards of the coup in dealing order (§ 631a.9–§ 631a.11).
    Four Card Poker: each seat's five cards, the dealer's six (the first face up) and the Six Card
    Bonus card. Criss-Cross Poker: each seat's two cards (Ultimate Pairs reads only them).

    Hands may be given as card text or :class:`Card` objects, seats as a mapping or pairs; they are
    stored as ``(seat, cards)`` pairs ascending by seat, and hands as tuples of :class:`Card`:

    >>> DealtCards(players={3: "8s 8s", 1: "Kd 7c"}, dealer="Kd 9c").players[0]
    (1, (Card('Kd'), Card('7c')))
    """

    players: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]
    coup: tuple[Card, ...]
    bonus: Card | None
    switch_cards: tuple[tuple[int, tuple[Card, ...]], ...]

    def __init__(
        self,
        players: SeatHands = (),
        dealer: Hand = (),
        coup: Hand = (),
        bonus: Card | str | None = None,
        switch_cards: SeatHands = (),
    ) -> None:
        """Check the shapes: ``players`` and ``switch_cards`` as a mapping seat → hand or
        ``(seat, hand)`` pairs, seats numbered from 1; each hand card text or :class:`Card`
        objects. Raises :class:`~croupier.errors.InputError` for another shape
        (:class:`~croupier.errors.CardError` for bad card text)."""
        object.__setattr__(self, "players", _seat_hands("players", players))
        object.__setattr__(self, "switch_cards", _seat_hands("switch_cards", switch_cards))
        for name, value in (("dealer", dealer), ("coup", coup)):
            if isinstance(value, str):
                value = parse_cards(value) if value.strip() else ()
            object.__setattr__(self, name, _hand(name, value))
        if isinstance(bonus, str):
            bonus = parse_card(bonus)
        if bonus is not None and not isinstance(bonus, Card):
            raise InputError(f"DealtCards bonus is a card, not {type(bonus).__name__}")
        object.__setattr__(self, "bonus", bonus)

    @staticmethod
    def parse(
        players: Mapping[int, str] | None = None,
        dealer: str = "",
        coup: str = "",
        bonus: str | None = None,
        switch_cards: Mapping[int, str] | None = None,
    ) -> DealtCards:
        """From card text; raises :class:`CardError` naming a bad card."""
        seats = tuple(sorted((seat_number(s), parse_cards(t)) for s, t in (players or {}).items()))
        switch = tuple(
            sorted((seat_number(s), parse_cards(t)) for s, t in (switch_cards or {}).items())
        )
        return DealtCards(
            seats,
            parse_cards(dealer) if dealer else (),
            parse_cards(coup) if coup else (),
            parse_card(bonus) if bonus else None,
            switch,
        )

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat`` (empty when none)."""
        for s, cards in self.players:  # a seat appears once (seats ascending)
            if s == seat:
                return cards
        return ()

    def read(self, source: CardSource, seat: int) -> tuple[Card, ...]:
        """The cards ``source`` names for ``seat`` (empty when the round has none there)."""
        if source is CardSource.PLAYER:
            return self.hand(seat)
        if source is CardSource.DEALER:
            return self.dealer
        if source is CardSource.DEALER_UPCARD:
            return self.dealer[:1]
        if source is CardSource.DEALER_HOLE:
            return self.dealer[1:2]
        if source is CardSource.DEALER_DOWN:
            return self.dealer[1:]
        if source is CardSource.BONUS:
            return (self.bonus,) if self.bonus is not None else ()
        return self.coup

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


@stored_at_once
@dataclass(frozen=True)
class SeatBet:
    """A wager placed at a seat (1 = first base, at the dealer's left), in cents."""

    seat: int
    wager: str
    amount_cents: int
    player: str | None = None


@stored_at_once
@dataclass(frozen=True)
class TableContext:
    """What the table gives a wager to settle its bets: the dealt cards, the bets this call
    settles (seats from the dealer's right), every bet of the round, the Play wagers made after the
    cards (seat → cents, 0 a fold), the paytable the table offers for each wager id, the deck
    count, at Blackjack the dealer's house rules (§ 633a.7) and, for a progressive wager, the
    meters' current amounts (wager id → level → integer cents; a wager not named is valued at its
    paytable's seeds)."""

    cards: DealtCards
    bets: tuple[SeatBet, ...]
    round_bets: tuple[SeatBet, ...]
    paytables: Mapping[str, Paytable]
    decks: int
    decisions: Mapping[int, int] = field(default_factory=dict)
    rules: BlackjackRules | None = None
    meter_cents: Mapping[str, Mapping[MeterLevel, int]] = field(default_factory=dict)

    def seat_bets(self, seat: int) -> dict[str, int]:
        """The wagers at ``seat`` (the whole round's): id → cents."""
        return {b.wager: b.amount_cents for b in self.round_bets if b.seat == seat}

    def seats_with(self, wager_ids: Sequence[str]) -> tuple[int, ...]:
        """The seats holding any of ``wager_ids``, ascending."""
        return tuple(sorted({b.seat for b in self.round_bets if b.wager in wager_ids}))


class LineKind(Enum):
    """What a :class:`SettlementLine` settles."""

    WAGER = "wager"
    """A bet, on its own hand (or a part of it: the Ante's Play)."""
    ENVY_BONUS = "envy-bonus"
    """An envy bonus: a fixed amount paid to a seat holding a progressive wager for a qualifying
    hand of *another* seat (§ 633b.2(i), "Pays w/ Envy"); the line names that seat
    (``from_seat``) and has no stake of its own."""


@stored_at_once
@dataclass(frozen=True)
class SettlementLine:
    """One settled amount of a round — the one record every game and wager settles into.

    ``wager`` is the settled wager's id (``part`` names a part of it: the Ante's ``play`` and
    ``ante-bonus``); ``bet`` the id of the bet it settles (the same, except where the table's
    house rule picks a variant: an ``axman`` bet at a table hitting soft 17 is settled as
    ``axman-h17``). Money in integer cents: ``stake_cents`` what was wagered on it, ``win_cents``
    the net result (−stake for a loss), ``returned_cents`` what the dealer hands back. ``pays`` is
    the pay as printed (``'25 to 1'``, ``'loses'``). ``pending_validation``: a meter award that a
    floorperson or above validates before it is paid (§ 633b.2(h)(3), § 633b.3(h)(3)).
    ``by_base_game``: the bet is not settled by croupier but by the table's own system (a round
    whose base game is declared ``"external"``: the Blackjack wager, the Criss-Cross Poker
    wagers), recorded explicitly — its ``win_cents`` and ``returned_cents`` are then ``None``
    (``null`` in JSON), never a 0 that sums as a push (:meth:`base_game_line`).
    """

    seat: int
    wager: str
    outcome: str
    pays: str
    stake_cents: int
    win_cents: int | None
    """``None`` exactly when :attr:`by_base_game`: not settled here."""
    returned_cents: int | None
    """``None`` exactly when :attr:`by_base_game`: not settled here."""
    section: str
    pending_validation: bool = False
    outcome_key: str | None = None
    """The paytable line's outcome key (``None``: lost, or not a paytable line)."""
    detail: str = ""
    part: str | None = None
    bet: str = ""
    by_base_game: bool = False
    kind: LineKind = LineKind.WAGER
    from_seat: int | None = None
    rounding_cents_dropped: Fraction = Fraction(0)
    """What rounding the pay down to the cent did not pay (a fraction of a cent: half a cent of a
    Banker win of $25.10 at 19 to 20); shown in the settlement, never dropped silently."""

    @classmethod
    def envy_bonus(
        cls, seat: int, wager: str, from_seat: int, hand: str, cents: int, section: str
    ) -> SettlementLine:
        """The envy bonus line of ``seat``'s ``wager``: ``cents`` (integer cents, > 0) paid for
        ``from_seat``'s winning ``hand`` (its paytable line's label), under ``section``.

        >>> line = SettlementLine.envy_bonus(3, "jackpot-party", 1, "Royal Flush", 300_000,
        ...                                  "633b.2(i)")
        >>> line.outcome, line.pays, line.win_cents, line.stake_cents
        ("envy bonus (from seat 1's Royal Flush)", '$3,000', 300000, 0)
        """
        return cls(
            seat=seat,
            wager=wager,
            outcome=f"envy bonus (from seat {from_seat}'s {hand})",
            pays=format_money(cents),
            stake_cents=0,
            win_cents=cents,
            returned_cents=cents,
            section=section,
            detail=f"seat {seat}: envy bonus {format_money(cents)} for seat {from_seat}'s {hand}",
            kind=LineKind.ENVY_BONUS,
            from_seat=from_seat,
        )

    @classmethod
    def base_game_line(
        cls, seat: int, wager: str, stake_cents: int, section: str, detail: str
    ) -> SettlementLine:
        """The line of ``seat``'s base ``wager`` (``stake_cents``) that the table's own system
        settles, not croupier (a round whose base game is external): no win, nothing returned
        (``None``), ``by_base_game``.

        >>> line = SettlementLine.base_game_line(3, "blackjack", 2500, "633a.6(d)", "")
        >>> line.win_cents, line.returned_cents, line.to_json()["win_cents"]
        (None, None, None)
        """
        return cls(
            seat=seat,
            wager=wager,
            outcome=BASE_GAME_OUTCOME,
            pays="",
            stake_cents=stake_cents,
            win_cents=None,
            returned_cents=None,
            section=section,
            detail=detail,
            by_base_game=True,
        )

    @property
    def settled_win_cents(self) -> int:
        """:attr:`win_cents` of a line croupier settled. Raises :class:`InputError` for a line
        the base game settles (:attr:`by_base_game`): it has no win here."""
        if self.win_cents is None:
            raise InputError(
                f"seat {self.seat}: the {self.wager} wager is settled by the base game, not "
                "croupier: it has no win here"
            )
        return self.win_cents

    @property
    def bet_wager(self) -> str:
        """The id of the bet this line settles."""
        return self.bet or self.wager

    @property
    def shown_wager(self) -> str:
        """``wager``, or ``wager:part`` for a part of it (``four-card-poker:play``)."""
        return f"{self.wager}:{self.part}" if self.part else self.wager

    def to_json(self) -> dict[str, object]:
        """The line as JSON values: money in integer cents, each with its formatted amount."""
        win = self.win_cents
        return {
            "seat": self.seat,
            "wager": self.shown_wager,
            "bet": self.bet_wager,
            "outcome": self.outcome,
            "pays": self.pays,
            "stake_cents": self.stake_cents,
            "stake": format_money(self.stake_cents),
            "win_cents": win,
            "win": None if win is None else signed_money(win),
            "returned_cents": self.returned_cents,
            "pending_validation": self.pending_validation,
            "outcome_key": self.outcome_key,
            "section": self.section,
            "citation": citation(self.section),
            "rounding_dropped_cent_fraction": _fraction(self.rounding_cents_dropped),
            "settled_by_base_game": self.by_base_game,
            "kind": self.kind._value_,  # .value, without the enum property's Python call
            "from_seat": self.from_seat,
        }


BASE_GAME_OUTCOME = "settled by the base game"
"""The outcome of a line the table's own system settles (:meth:`SettlementLine.base_game_line`)."""


@dataclass(frozen=True)
class RoundSettlement:
    """Every settlement line of a round, in settlement order."""

    lines: tuple[SettlementLine, ...]

    @property
    def net_cents(self) -> int:
        """The players' net result over the lines croupier settled (a line the base game settles
        has none: it is not counted)."""
        return sum([line.win_cents for line in self.lines if line.win_cents is not None])

    @property
    def returned_cents(self) -> int:
        """What the dealer hands back over the lines croupier settled."""
        return sum([c for line in self.lines if (c := line.returned_cents) is not None])

    def for_seat(self, seat: int) -> tuple[SettlementLine, ...]:
        """The lines of ``seat``."""
        return tuple(line for line in self.lines if line.seat == seat)

    def to_json(self) -> dict[str, object]:
        """The settlement as JSON values (money in integer cents, formatted beside)."""
        return {
            "lines": [line.to_json() for line in self.lines],
            "net_cents": self.net_cents,
            "net": signed_money(self.net_cents),
            "returned_cents": self.returned_cents,
        }


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def cents_note(value: Fraction) -> str:
    """A fraction of a cent for people: ``'½¢'``, ``'0.25¢'``, ``'1/3¢'``.

    >>> cents_note(Fraction(1, 2)), cents_note(Fraction(1, 4)), cents_note(Fraction(1, 3))
    ('½¢', '0.25¢', '1/3¢')
    """
    if value == Fraction(1, 2):
        return "½¢"
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    return f"{float(value):g}¢" if d == 1 else f"{value}¢"


def signed_money(cents: int) -> str:
    """``'+$12.50'``, ``'-$5.00'``, ``'+$0.00'``."""
    return ("+" if cents >= 0 else "") + format_money(cents)

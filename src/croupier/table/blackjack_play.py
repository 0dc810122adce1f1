"""The players' play of a Blackjack round: the switch (§ 633b.4(f)), then hit, stand, double down,
split and surrender (§§ 633a.9–633a.11, § 633b.4(h), (n)), checked move by move.

A :class:`BlackjackPlay` is built when the cards are dealt (:meth:`BlackjackPlay.start`) and
carried, immutable, by :class:`~croupier.table.round.TableRound`; each move returns a new one. The
order is the regulation's:

1. **The switch** (Switch Hands and Blackjack Premium tables): before any other card and before the
   card reader device is used, the dealer asks each player who placed the Switch Hands Ante,
   starting with the player farthest to the dealer's right and continuing counterclockwise (the
   highest seat first), whether to play the two face-up cards or the two face-down Switch Hands
   cards (§ 633b.4(f), (l)). A player without the Ante may not switch ((k)).
2. **The peek**: a dealer Blackjack (an ace or a 10-valued upcard and the hole card making 21)
   ends the round; no player draws (§ 633a.7, base-games.md).
3. **The players' hands**, from the player farthest to the dealer's left (seat 1, first base),
   clockwise; each hand in turn, the hands made by a split in the order they lie. A hand is done
   when it stands, busts, makes 21, is a Blackjack, was doubled (one card) or is a split ace that
   took its card (one card each unless the Rules Submission allows more).

What each move may do: *hit* takes one card (a hand made by a split takes its second card with a
hit); *double* adds up to the hand's wager on its first two cards (not a Blackjack; after a split
only with ``double_after_split``) and takes exactly one card (§ 633a.10); *split* makes two hands of
two cards of equal value, each with a wager equal to the original, up to ``split_hands`` hands
(aces once unless ``resplit_aces``; § 633a.11); *surrender* gives up half the wager on the initial
two cards or the Switch Hand, where the Rules Submission offers late surrender (§ 633a.9,
§ 633b.4(h), (n)); *stand* ends the hand. A move out of turn or against the rules raises a typed
error naming the section and changes nothing.

Cards: a move that draws names its card (a recorded round), or, when the round was dealt from a
shuffled shoe, takes the next undealt card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property

from croupier.cards import Card, Rank, Shoe, format_cards
from croupier.errors import CardError, InputError, ProcedureError, RulesError
from croupier.frozen import stored_at_once
from croupier.games.blackjack import card_value, hand_total, is_blackjack
from croupier.games.blackjack_rules import PlayRules
from croupier.units import format_money
from croupier.wagers.switch_hands import (
    PlayedHand,
    SeatSettlement,
    SwitchSeat,
    Variant,
    drawn_cards,
    settle_seat,
)

ORDER_RULE = "633a.7"
"""The dealing procedure the players' turns follow (Chapter 633a; base-games.md)."""


class Move(Enum):
    """A player's decision in a Blackjack round."""

    SWITCH = "switch"
    KEEP = "keep"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


@stored_at_once
@dataclass(frozen=True)
class HandInPlay:
    """One hand being played: its cards, the double down (cents), and how it came to be."""

    cards: tuple[Card, ...]
    double_cents: int = 0
    from_split: bool = False
    """Made by splitting a pair (no Blackjack, § 633a.11; doubling only with DAS)."""
    stood: bool = False

    @property
    def split_aces(self) -> bool:
        """A hand made by splitting aces."""
        return self.from_split and self.cards[0].rank is Rank.ACE

    def done(self, rules: PlayRules, hands_at_seat: int) -> bool:
        """Whether the hand takes no more moves."""
        if len(self.cards) < 2:
            return False
        if self.stood or self.double_cents or hand_total(self.cards).total >= 21:
            return True
        if not self.from_split and len(self.cards) == 2 and is_blackjack(self.cards):
            return True
        if self.split_aces and not rules.hit_split_aces:
            # a split ace takes one card; another ace may be split again where allowed
            can_resplit = (
                rules.resplit_aces
                and len(self.cards) == 2
                and self.cards[1].rank is Rank.ACE
                and hands_at_seat < rules.split_hands
            )
            return not can_resplit
        return False


def _over(s: SeatPlay) -> str:
    """Why seat ``s``'s play is over, as a refused move says it: a seat whose hands are finished
    takes no decision (a Blackjack is not played, § 633a.7; a surrender ends the hand)."""
    if s.surrendered:
        return f"seat {s.seat} surrendered"
    if len(s.hands) == 1 and not s.hands[0].from_split and is_blackjack(s.hands[0].cards):
        return f"seat {s.seat} has a Blackjack ({format_cards(s.hands[0].cards)}) and plays no more"
    return f"every hand of seat {s.seat} is finished"


@stored_at_once
@dataclass(frozen=True)
class SeatPlay:
    """One seat's Blackjack hand: its wager and Ante (cents), the face-up pair, the face-down
    Switch Hands pair (``None`` where none is dealt), the switch decision (``None`` until asked, or
    for a player without the Ante), the hands played and a surrender."""

    seat: int
    wager_cents: int
    ante_cents: int
    face_up: tuple[Card, Card]
    face_down: tuple[Card, Card] | None
    switched: bool | None = None
    hands: tuple[HandInPlay, ...] = ()
    surrendered: bool = False

    @property
    def asked(self) -> bool:
        """Whether the switch question is settled (always, for a player without the Ante)."""
        return self.ante_cents == 0 or self.switched is not None

    @property
    def pair(self) -> tuple[Card, Card]:
        """The pair the player plays."""
        if self.switched:
            assert self.face_down is not None
            return self.face_down
        return self.face_up

    def done(self, rules: PlayRules) -> bool:
        """Whether every hand of the seat is finished."""
        if self.surrendered:
            return True
        return bool(self.hands) and all(h.done(rules, len(self.hands)) for h in self.hands)

    def current(self, rules: PlayRules) -> int | None:
        """The index of the hand to play next, or ``None``."""
        if self.surrendered:
            return None
        for i, h in enumerate(self.hands):
            if not h.done(rules, len(self.hands)):
                return i
        return None

    def to_seat(self) -> SwitchSeat:
        """What :func:`~croupier.wagers.switch_hands.settle_seat` reads."""
        return SwitchSeat(
            self.wager_cents,
            self.ante_cents,
            self.face_up,
            self.face_down,
            bool(self.switched),
            tuple(PlayedHand(h.cards, h.double_cents) for h in self.hands),
            self.surrendered,
        )


@stored_at_once
@dataclass(frozen=True)
class MoveResult:
    """A move made: the new play, a line for the round record, the section it follows, the seat,
    the amount it put at risk (double, split) and the card it drew."""

    play: BlackjackPlay
    detail: str
    section: str
    amount_cents: int | None = None


@stored_at_once
@dataclass(frozen=True)
class BlackjackPlay:
    """Every seat's play in one round at a Blackjack, Switch Hands or Blackjack Premium table."""

    rules: PlayRules
    variant: Variant | None
    tie_pays: bool
    seats: tuple[SeatPlay, ...]
    dealer: tuple[Card, ...]
    undealt: tuple[Card, ...] = ()
    """The rest of a shuffled shoe, for moves that name no card."""
    moves: int = 0
    """How many moves have been made (a round without any is settled only when every hand is
    finished by the deal itself)."""

    # -- building ---------------------------------------------------------------------------
    @staticmethod
    def start(
        rules: PlayRules,
        variant: Variant | None,
        tie_pays: bool,
        wagers: Mapping[int, tuple[int, int]],
        face_up: Mapping[int, Sequence[Card]],
        face_down: Mapping[int, Sequence[Card]],
        dealer: Sequence[Card],
        undealt: Sequence[Card] = (),
    ) -> BlackjackPlay:
        """The play at the deal: ``wagers`` is seat → (Blackjack wager, Ante) in cents,
        ``face_up``/``face_down`` the seats' pairs, ``dealer`` the dealer's whole hand. Raises
        :class:`RulesError` for an Ante the table does not take or that is not $1 for every $5
        (§ 633b.4(a), (c)), :class:`CardError` for Switch Hands cards dealt where none are."""
        seats = []
        for seat in sorted(wagers):
            wager, ante = wagers[seat]
            up = tuple(face_up[seat])
            down = tuple(face_down[seat]) if seat in face_down else None
            if variant is None and down is not None:
                raise CardError("a plain Blackjack table deals no Switch Hands cards", "")
            if ante and (down is None or len(down) != 2):
                raise CardError(
                    f"seat {seat} placed the Switch Hands Ante: deal it two Switch Hands cards "
                    "(§ 633b.4(d))",
                    format_cards(down or ()),
                )
            if down is not None and len(down) != 2:
                raise CardError(
                    f"seat {seat}: two Switch Hands cards, not {len(down)}", format_cards(down)
                )
            assert len(up) == 2
            pair = (up[0], up[1])
            seats.append(
                SeatPlay(
                    seat,
                    wager,
                    ante,
                    pair,
                    (down[0], down[1]) if down is not None else None,
                    # a player without the Ante has no choice to make: the hand is the pair
                    # (what _open_hands gives a seat that has chosen)
                    hands=() if ante else (HandInPlay(pair),),
                )
            )
        return BlackjackPlay(rules, variant, tie_pays, tuple(seats), tuple(dealer), tuple(undealt))

    def _open_hands(self) -> BlackjackPlay:
        """Give every seat that has chosen its pair its hand."""
        seats = tuple(
            s if s.hands or not s.asked else replace(s, hands=(HandInPlay(s.pair),))
            for s in self.seats
        )
        return replace(self, seats=seats)

    # -- where the round stands -------------------------------------------------------------
    @property
    def dealer_blackjack(self) -> bool:
        """Whether the peek found a dealer Blackjack (the round ends after the switch)."""
        return self.rules.table.peek and is_blackjack(self.dealer[:2]) and len(self.dealer) == 2

    def seat(self, seat: int) -> SeatPlay:
        """The seat's play; :class:`InputError` when it has no Blackjack wager."""
        for s in self.seats:
            if s.seat == seat:
                return s
        raise InputError(f"seat {seat} has no Blackjack wager")

    def to_ask(self) -> SeatPlay | None:
        """The next player the dealer asks to keep or switch (§ 633b.4(f): highest seat first)."""
        for s in reversed(self.seats):  # the seats are kept in ascending order
            if not s.asked:
                return s
        return None

    def to_act(self) -> SeatPlay | None:
        """The seat whose hand is played next (after every switch; none after a dealer
        Blackjack), from the dealer's left (seat 1 first)."""
        if self.to_ask() is not None or self.dealer_blackjack:
            return None
        for s in self.seats:
            if not s.done(self.rules):
                return s
        return None

    @cached_property
    def finished(self) -> bool:
        """Whether every player's play is over (the wagers can be settled); worked out once (the
        play is immutable, and the round asks at every step)."""
        return self.to_ask() is None and self.to_act() is None

    # -- the switch -------------------------------------------------------------------------
    def choose(self, seat: int, switch: bool) -> MoveResult:
        """The player keeps the face-up pair or switches to the Switch Hands cards
        (§ 633b.4(f), (l)). Raises :class:`RulesError` for a player who may not switch,
        :class:`ProcedureError` out of turn."""
        s = self.seat(seat)
        move = "switch" if switch else "keep"
        if self.variant is None:
            raise RulesError(
                f"seat {seat}: the table does not deal Switch Hands: there is nothing to {move}",
                "633b.4(a)",
            )
        if s.ante_cents == 0:
            raise RulesError(
                f"seat {seat} placed no Switch Hands Ante: the player plays only Blackjack and "
                "may not switch",
                "633b.4(k)",
            )
        if s.switched is not None:
            raise ProcedureError(f"seat {seat} has already chosen its pair", "633b.4(f)")
        nxt = self.to_ask()
        assert nxt is not None
        if nxt.seat != seat:
            raise ProcedureError(
                f"seat {seat} cannot {move} yet: seat {nxt.seat} is asked first (the dealer asks "
                "from the player farthest to the dealer's right, counterclockwise)",
                "633b.4(f)",
            )
        assert s.face_down is not None
        chosen = replace(s, switched=switch)
        play = self._with(chosen)._open_hands()
        if switch:
            detail = (
                f"seat {seat} switches: plays the Switch Hands cards {format_cards(s.face_down)}, "
                f"discards {format_cards(s.face_up)}"
            )
            section = "633b.4(f)(2)"
        else:
            detail = (
                f"seat {seat} keeps {format_cards(s.face_up)}; the Switch Hands cards are discarded"
            )
            section = "633b.4(f)(1)"
        return MoveResult(replace(play, moves=play.moves + 1), detail, section)

    # -- playing the hands --------------------------------------------------------------------
    def _acting(self, seat: int, move: Move) -> tuple[SeatPlay, int, HandInPlay]:
        s = self.seat(seat)
        if self.to_ask() is not None:
            waiting = self.to_ask()
            assert waiting is not None
            raise ProcedureError(
                f"seat {seat} cannot {move.value} yet: seat {waiting.seat} has not chosen to keep "
                "or switch; no other card is dealt before every player has",
                "633b.4(f)",
            )
        if self.dealer_blackjack:
            raise ProcedureError(
                f"the dealer's Blackjack ({format_cards(self.dealer)}) ended the round at the "
                f"peek: seat {seat} cannot {move.value}",
                ORDER_RULE,
            )
        nxt = self.to_act()
        if nxt is None:
            raise ProcedureError(
                f"every player's hand is finished: seat {seat} cannot {move.value}", ORDER_RULE
            )
        if s.done(self.rules):
            raise ProcedureError(
                f"{_over(s)}: seat {seat} cannot {move.value} (seat {nxt.seat} plays now)",
                ORDER_RULE,
            )
        if nxt.seat != seat:
            raise ProcedureError(
                f"seat {seat} cannot {move.value} yet: seat {nxt.seat} plays first (players act "
                "from the dealer's left, seat 1, clockwise)",
                ORDER_RULE,
            )
        i = s.current(self.rules)
        assert i is not None
        return s, i, s.hands[i]

    def _with(self, seat: SeatPlay) -> BlackjackPlay:
        return replace(self, seats=tuple(seat if s.seat == seat.seat else s for s in self.seats))

    def _draw(self, card: Card | None, seat: int, move: Move) -> tuple[Card, tuple[Card, ...]]:
        if card is not None:
            return card, self.undealt
        if not self.undealt:
            raise InputError(f"seat {seat} {move.value}: name the card dealt")
        return self.undealt[0], self.undealt[1:]

    def _moved(
        self, s: SeatPlay, i: int, hand: HandInPlay, undealt: tuple[Card, ...]
    ) -> BlackjackPlay:
        hands = (*s.hands[:i], hand, *s.hands[i + 1 :])
        play = self._with(replace(s, hands=hands))
        return replace(play, undealt=undealt, moves=self.moves + 1)

    def _name(self, s: SeatPlay, i: int) -> str:
        return f"seat {s.seat}" + (f" hand {i + 1}" if len(s.hands) > 1 else "")

    def hit(self, seat: int, card: Card | None = None) -> MoveResult:
        """The hand takes a card (a split hand's second card too). Raises :class:`RulesError`
        for a split ace that has had its card (§ 633a.11)."""
        s, i, h = self._acting(seat, Move.HIT)
        if h.split_aces and len(h.cards) >= 2 and not self.rules.hit_split_aces:
            raise RulesError(
                f"{self._name(s, i)}: a split ace takes one card only at this table", "633a.11"
            )
        drawn, undealt = self._draw(card, seat, Move.HIT)
        new = replace(h, cards=(*h.cards, drawn))
        total = hand_total(new.cards)
        what = "busts" if total.bust else f"has {total.total}"
        if len(h.cards) == 1:  # a hand made by a split is dealt its second card
            return MoveResult(
                self._moved(s, i, new, undealt),
                f"{self._name(s, i)} is dealt its second card: {drawn}; "
                f"{format_cards(new.cards)} {what}",
                "633a.11",
            )
        return MoveResult(
            self._moved(s, i, new, undealt),
            f"{self._name(s, i)} hits: {drawn}; {format_cards(new.cards)} {what}",
            ORDER_RULE,
        )

    def stand(self, seat: int) -> MoveResult:
        """The hand stands. Raises :class:`ProcedureError` out of turn or for a split hand not
        yet dealt its second card."""
        s, i, h = self._acting(seat, Move.STAND)
        if len(h.cards) < 2:
            raise ProcedureError(
                f"{self._name(s, i)} has one card: a split hand takes its second card first",
                "633a.11",
            )
        total = hand_total(h.cards).total
        return MoveResult(
            self._moved(s, i, replace(h, stood=True), self.undealt),
            f"{self._name(s, i)} stands on {total}",
            ORDER_RULE,
        )

    def double(
        self, seat: int, amount_cents: int | None = None, card: Card | None = None
    ) -> MoveResult:
        """Double down: up to the hand's wager more (default: the whole wager), on the first two
        cards, and exactly one more card (§ 633a.10). Raises :class:`RulesError` citing § 633a.10
        (or § 633a.11 for split aces)."""
        s, i, h = self._acting(seat, Move.DOUBLE)
        name = self._name(s, i)
        if len(h.cards) != 2:
            raise RulesError(f"{name}: a double down is made on the first two cards", "633a.10")
        if h.from_split and not self.rules.double_after_split:
            raise RulesError(f"{name}: no double down after a split at this table", "633a.10")
        if h.split_aces and not self.rules.hit_split_aces:
            raise RulesError(f"{name}: a split ace takes one card only", "633a.11")
        amount = s.wager_cents if amount_cents is None else amount_cents
        if type(amount) is not int or not 0 < amount <= s.wager_cents:
            raise RulesError(
                f"{name}: a double down is up to the hand's wager, {format_money(s.wager_cents)}, "
                f"not {format_money(amount) if isinstance(amount, int) else amount}",
                "633a.10",
            )
        drawn, undealt = self._draw(card, seat, Move.DOUBLE)
        new = replace(h, cards=(*h.cards, drawn), double_cents=amount)
        total = hand_total(new.cards)
        return MoveResult(
            self._moved(s, i, new, undealt),
            f"{name} doubles down {format_money(amount)}: {drawn}; {format_cards(new.cards)} "
            + ("busts" if total.bust else f"has {total.total}"),
            "633a.10",
            amount,
        )

    def split(self, seat: int) -> MoveResult:
        """Split a pair into two hands, each with a wager equal to the original; each then takes
        its second card with a hit (§ 633a.11). Raises :class:`RulesError` citing § 633a.11."""
        s, i, h = self._acting(seat, Move.SPLIT)
        name = self._name(s, i)
        if len(h.cards) != 2 or card_value(h.cards[0]) != card_value(h.cards[1]):
            raise RulesError(
                f"{name}: {format_cards(h.cards)} is not a pair of two cards: it cannot be split",
                "633a.11",
            )
        if len(s.hands) >= self.rules.split_hands:
            most = self.rules.split_hands
            raise RulesError(
                f"{name}: the table allows at most {most} hand{'s' if most > 1 else ''} by "
                "splitting",
                "633a.11",
            )
        if h.split_aces and not self.rules.resplit_aces:
            raise RulesError(f"{name}: split aces are not split again at this table", "633a.11")
        first = HandInPlay((h.cards[0],), from_split=True)
        second = HandInPlay((h.cards[1],), from_split=True)
        hands = (*s.hands[:i], first, second, *s.hands[i + 1 :])
        play = self._with(replace(s, hands=hands))
        return MoveResult(
            replace(play, moves=self.moves + 1),
            f"{name} splits {format_cards(h.cards)}: {format_money(s.wager_cents)} more",
            "633a.11",
            s.wager_cents,
        )

    def surrender(self, seat: int) -> MoveResult:
        """Late surrender of the initial two cards or the Switch Hand, half the wager back
        (§ 633a.9, § 633b.4(h), (n)); only where the Rules Submission offers it.

        Raises :class:`ProcedureError` out of turn and :class:`RulesError` (not offered; not the
        initial two cards)."""
        s, _, h = self._acting(seat, Move.SURRENDER)
        rule = {None: "633a.9", Variant.SWITCH_HANDS: "633b.4(h)", Variant.PREMIUM: "633b.4(n)"}[
            self.variant
        ]
        if not self.rules.late_surrender:
            raise RulesError(f"seat {seat}: the table does not offer surrender", "633a.9")
        if len(s.hands) != 1 or len(h.cards) != 2 or h.from_split:
            raise RulesError(
                f"seat {seat}: a player surrenders the initial two cards"
                + (" or the Switch Hand" if self.variant is not None else "")
                + " only",
                rule,
            )
        play = self._with(replace(s, surrendered=True))
        return MoveResult(
            replace(play, moves=self.moves + 1),
            f"seat {seat} surrenders {format_cards(h.cards)}: half the wager back",
            rule,
        )

    # -- the end ----------------------------------------------------------------------------
    def drawn(self) -> tuple[Card, ...]:
        """Every card the players drew (hits, doubles, split hands' cards): the cards of the
        hands less the pair each seat played."""
        cards: list[Card] = []
        for s in self.seats:
            cards.extend(drawn_cards(s.pair, [h.cards for h in s.hands]))
        return tuple(cards)

    def check_shoe(self, decks: int, dealt: Sequence[Card]) -> None:
        """Raise :class:`~croupier.errors.ShoeError` when the cards dealt and drawn do not fit
        the table's shoe."""
        Shoe.standard(decks).check_deal([*dealt, *self.drawn()])

    def settle(self, seat: int) -> SeatSettlement:
        """The seat's settlement (:func:`~croupier.wagers.switch_hands.settle_seat`)."""
        s = self.seat(seat)
        return settle_seat(
            s.to_seat(),
            self.dealer,
            self.variant,
            self.rules.table,
            tie_pays=self.tie_pays,
            split_hands=self.rules.split_hands,
        )


__all__ = ["BlackjackPlay", "HandInPlay", "Move", "MoveResult", "SeatPlay"]

"""Settling a Blackjack player's hand: Switch Hands, Blackjack Premium (58 Pa. Code § 633b.4) or
plain Blackjack (Chapter 633a).

:func:`settle_seat` takes what one player wagered and was dealt — the Blackjack wager, the Switch
Hands Ante, the face-up pair, the face-down Switch Hands pair, whether the player switched
(§ 633b.4(f)), the hands played from the chosen pair (after any split, § 633a.11, with doubles,
§ 633a.10), a surrender (§ 633a.9, § 633b.4(h), (n)) — and the dealer's finished hand, checks it
all, and returns every line of the settlement in integer cents. A table engine
(:mod:`croupier.table.blackjack_play`) calls it once per seat after the dealer's hand is complete
(or after the peek finds a dealer Blackjack). At a plain Blackjack table (``variant=None``) there
is no Ante and no Switch Hands pair: a winning hand pays 1 to 1, a Blackjack 3 to 2, a tie pushes.

Pays (:func:`blackjack_pays`): a winning hand 1 to 1; a player
Blackjack 3 to 2; after a switch a same-suit or same-colour Blackjack 2 to 1 (§ 633b.4(i)(2)(i),
and at a Blackjack Premium table for every Ante player, (o)); a Blackjack tied by the dealer's
Blackjack 1 to 2 at a Blackjack Premium table ((o)) or, at a Switch Hands table whose Rules
Submission says so, for a player who switched ((i)(2)(ii)); otherwise a push. The Ante is always
collected: it is the price of the option to switch (§ 633b.4(c)). A dealer Blackjack, found at the
peek, takes the original wager only. An ace and a ten-valued card after a split is 21, not a
Blackjack. A pay that is not a whole number of cents is rounded down (docs/interpretations.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from math import floor

from croupier.cards import Card, format_cards
from croupier.errors import InputError, RulesError
from croupier.frozen import stored_at_once
from croupier.games.blackjack import (
    BlackjackRules,
    card_value,
    check_dealer_hand,
    hand_total,
    is_blackjack,
)
from croupier.units import format_money


class Variant(Enum):
    """Which game of § 633b.4 the table deals."""

    SWITCH_HANDS = "switch-hands"
    PREMIUM = "blackjack-premium"


class PremiumColoredPays(Enum):
    """Blackjack Premium: which Ante players a same-suit or same-colour Blackjack pays 2 to 1
    (§ 633b.4(o), "if the player placed a Switched Hands Ante")."""

    ANTE = "ante"
    """Every player who placed the Ante, switched or not (the literal reading; default)."""
    SWITCHED = "switched"
    """Only a player who switched (as at a Switch Hands table, (i)(2)(i))."""


@dataclass(frozen=True)
class BlackjackPays:
    """What a player Blackjack pays: same colour (or suit), other, and tied by the dealer."""

    colored: Fraction
    other: Fraction
    tie: Fraction


def blackjack_pays(
    variant: Variant,
    ante: bool,
    switched: bool,
    tie_pays: bool = False,
    premium_colored: PremiumColoredPays = PremiumColoredPays.ANTE,
) -> BlackjackPays:
    """The Blackjack pays of § 633b.4(i) (Switch Hands) or (o) (Blackjack Premium) for a player.

    ``tie_pays`` is the optional 1 to 2 tie Blackjack of (i)(2)(ii) at a Switch Hands table
    (Blackjack Premium always pays it, (o)). A Switch Hands player always places the Ante.
    """
    three_two, two, half, zero = Fraction(3, 2), Fraction(2), Fraction(1, 2), Fraction(0)
    if variant is Variant.SWITCH_HANDS:
        if not ante:
            raise RulesError("a Switch Hands player places the Switch Hands Ante", "633b.4(c)")
        if not switched:
            return BlackjackPays(three_two, three_two, zero)
        return BlackjackPays(two, three_two, half if tie_pays else zero)
    if switched and not ante:
        raise RulesError(
            "only a player who placed the Switch Hands Ante may switch hands", "633b.4(k)"
        )
    colored = ante and (switched or premium_colored is PremiumColoredPays.ANTE)
    return BlackjackPays(two if colored else three_two, three_two, half)


INCREMENT_CENTS = 500
"""Blackjack wagers at a Switch Hands table are placed in $5 increments (§ 633b.4(b))."""

ANTE_WAGER = "switch-hands-ante"
"""The wager id a table records the Switch Hands Ante under (§ 633b.4(c))."""

BLACKJACK_WAGER = "blackjack"
"""The wager id of the Blackjack wager (§ 633a.6(d))."""


@stored_at_once
@dataclass(frozen=True)
class PlayedHand:
    """One hand the player finished: its cards in order (the first two are the pair played, or a
    split card and the card dealt to it) and any double down (the extra amount wagered, up to the
    hand's wager, § 633a.10)."""

    cards: tuple[Card, ...]
    double_cents: int = 0


@stored_at_once
@dataclass(frozen=True)
class SwitchSeat:
    """What one player wagered and played: at a § 633b.4 table the Ante and both pairs; at a plain
    Blackjack table (or for a Blackjack Premium player without the Ante) ``ante_cents`` is 0 and
    ``face_down`` is ``None``."""

    wager_cents: int
    ante_cents: int
    face_up: tuple[Card, Card]
    face_down: tuple[Card, Card] | None
    switched: bool
    hands: tuple[PlayedHand, ...]
    surrendered: bool = False

    @property
    def played_pair(self) -> tuple[Card, Card]:
        """The pair the player chose (§ 633b.4(f))."""
        if self.switched:
            if self.face_down is None:
                raise InputError("a player who switched plays the Switch Hands cards: give them")
            return self.face_down
        return self.face_up


@stored_at_once
@dataclass(frozen=True)
class Line:
    """One settled amount: what it is, the wager it settles (``blackjack`` or
    ``switch-hands-ante``), the amount wagered on it, the net result in cents (−amount for a loss),
    the pay (``'3 to 2'``, ``'1 to 1'``, ``'push'``, ``'loses'``, ``'half back'``) and the section."""

    label: str
    wagered_cents: int
    net_cents: int
    section: str
    pays: str = ""
    wager: str = BLACKJACK_WAGER

    @property
    def returned_cents(self) -> int:
        """What the dealer hands back: the stake and the win (0 for a loss, half for a surrender)."""
        return self.wagered_cents + self.net_cents

    def describe(self) -> str:
        sign = "+" if self.net_cents > 0 else ""
        return f"{self.label}: {sign}{format_money(self.net_cents)} on {format_money(self.wagered_cents)}"


@stored_at_once
@dataclass(frozen=True)
class SeatSettlement:
    """The settlement of one seat: every line, and the cents dropped by rounding pays down."""

    lines: tuple[Line, ...]
    rounding_cents_dropped: Fraction

    @property
    def net_cents(self) -> int:
        """The player's net result in cents (the Ante included)."""
        return sum(line.net_cents for line in self.lines)

    @property
    def wagered_cents(self) -> int:
        """Everything the player put at risk (wagers, doubles, split wagers, the Ante)."""
        return sum(line.wagered_cents for line in self.lines)

    def describe(self) -> str:
        return "; ".join(line.describe() for line in self.lines)


def check_wagers(variant: Variant | None, wager_cents: int, ante_cents: int) -> None:
    """Check a player's Blackjack wager and Ante (§ 633b.4(b), (c), (k)).

    At a Switch Hands table every Blackjack wager is a multiple of $5 and the Ante is $1 for every
    $5. At a Blackjack Premium table the Ante is optional ((k), (l)); a player who places it plays
    Switch Hands and the same rules apply to that player's wager. A plain Blackjack table
    (``variant=None``) takes no Ante. Raises :class:`RulesError` citing the paragraph.
    """
    if wager_cents <= 0:
        raise InputError(f"a Blackjack wager must be positive, not {format_money(wager_cents)}")
    if variant is None:
        if ante_cents:
            raise RulesError(
                "the table does not offer Switch Hands: there is no Switch Hands Ante", "633b.4(a)"
            )
        return
    ante_player = variant is Variant.SWITCH_HANDS or ante_cents != 0
    if not ante_player:
        return
    if wager_cents % INCREMENT_CENTS:
        raise RulesError(
            f"a Blackjack wager at a Switch Hands table is placed in $5 increments, not "
            f"{format_money(wager_cents)}",
            section="633b.4(b)",
        )
    expected = wager_cents // 5
    if ante_cents != expected:
        raise RulesError(
            f"the Switch Hands Ante is $1 for every $5 wagered: {format_money(expected)} on "
            f"{format_money(wager_cents)}, not {format_money(ante_cents)}",
            section="633b.4(c)",
        )


def drawn_cards(pair: Sequence[Card], hands: Sequence[Sequence[Card]]) -> tuple[Card, ...]:
    """The cards a player drew: every card of the hands played less the pair they came from
    (a re-split card is a drawn card that starts a hand)."""
    cards = [c for hand in hands for c in hand]
    for c in pair:
        if c in cards:
            cards.remove(c)
    return tuple(cards)


def _odds(pay: Fraction) -> str:
    return f"{pay.numerator} to {pay.denominator}" if pay else "push"


def settle_seat(
    seat: SwitchSeat,
    dealer: Sequence[Card],
    variant: Variant | None,
    rules: BlackjackRules,
    tie_pays: bool = False,
    premium_colored: PremiumColoredPays = PremiumColoredPays.ANTE,
    split_hands: int = 4,
) -> SeatSettlement:
    """Settle one player's round (see the module docstring): Switch Hands or Blackjack Premium
    (``variant``), or plain Blackjack (``variant=None``: Chapter 633a, 3 to 2, ties push).

    ``dealer`` is the dealer's hand in dealing order (upcard, hole card, draws); a dealer Blackjack
    is the two cards alone. ``tie_pays`` is the optional tie Blackjack pay of § 633b.4(i)(2)(ii)
    (a Blackjack Premium table always pays it). Returns a :class:`SeatSettlement` (cents). Raises
    :class:`RulesError` citing the section for a wager or play the rules forbid,
    :class:`InputError` for hands that do not fit together,
    :class:`~croupier.errors.ShoeError` for cards the table's shoe cannot hold.

    >>> from croupier.cards import parse_cards
    >>> seat = SwitchSeat(2500, 500, tuple(parse_cards("9c 7d")), tuple(parse_cards("Ah Kd")),
    ...                   True, (PlayedHand(tuple(parse_cards("Ah Kd"))),))
    >>> s = settle_seat(seat, parse_cards("Tc 8s"), Variant.SWITCH_HANDS, BlackjackRules())
    >>> [(line.wager, line.pays, line.net_cents) for line in s.lines]
    [('switch-hands-ante', 'collected', -500), ('blackjack', '2 to 1', 5000)]
    """
    ante, dealer, dealer_bj, pair = _checked_seat(seat, dealer, variant, rules, split_hands)
    pays, section = _pays(variant, ante, seat.switched, rules, tie_pays, premium_colored)
    lines = [_ante_line(seat)] if ante else []
    w = seat.wager_cents
    if seat.surrendered:
        lines.append(_surrender_line(pair, w, variant))
        return SeatSettlement(tuple(lines), Fraction(0))
    if len(seat.hands) == 1 and is_blackjack(seat.hands[0].cards):  # the player's Blackjack
        line, dropped = _blackjack_line(pair, w, pays, dealer_bj, section)
        lines.append(line)
        return SeatSettlement(tuple(lines), dropped)
    if dealer_bj:
        lines.append(
            Line(f"{format_cards(pair)} against a dealer Blackjack", w, -w, "633a.7", "loses")
        )
        return SeatSettlement(tuple(lines), Fraction(0))
    lines.extend(_hand_lines(seat, dealer, section))
    return SeatSettlement(tuple(lines), Fraction(0))


def _checked_seat(
    seat: SwitchSeat,
    dealer: Sequence[Card],
    variant: Variant | None,
    rules: BlackjackRules,
    split_hands: int,
) -> tuple[bool, tuple[Card, ...], bool, tuple[Card, Card]]:
    """Check what :func:`settle_seat` is given; return whether the player plays Switch Hands
    (the Ante), the dealer's hand, whether it is a Blackjack, and the pair played."""
    check_wagers(variant, seat.wager_cents, seat.ante_cents)
    ante = variant is Variant.SWITCH_HANDS or (variant is not None and seat.ante_cents > 0)
    if seat.switched and not ante:
        raise RulesError(
            "a player who placed no Switch Hands Ante plays only Blackjack and may not switch",
            section="633b.4(k)" if variant is not None else "633b.4(a)",
        )
    if ante and seat.face_down is None:
        raise InputError("a Switch Hands player is dealt two Switch Hands cards: give them")
    if variant is None and seat.face_down is not None:
        raise InputError("a plain Blackjack table deals no Switch Hands cards")
    dealer = tuple(dealer)
    dealer_bj = is_blackjack(dealer)
    if dealer_bj:
        if len(dealer) != 2:
            raise InputError("a dealer Blackjack ends the round at the peek: two cards only")
    else:
        check_dealer_hand(dealer, rules, live_hands=True)
    pair = seat.played_pair
    _check_hands(seat, pair, dealer_bj, split_hands)
    seen = [*seat.face_up, *(seat.face_down or ()), *dealer]
    seen.extend(drawn_cards(pair, [hand.cards for hand in seat.hands]))
    rules.shoe().check_deal(seen)  # a ShoeError when the table's shoe cannot hold these cards
    return ante, dealer, dealer_bj, pair


def _pays(
    variant: Variant | None,
    ante: bool,
    switched: bool,
    rules: BlackjackRules,
    tie_pays: bool,
    premium_colored: PremiumColoredPays,
) -> tuple[BlackjackPays, str]:
    """The Blackjack pays of the seat and the paragraph that settles its hands."""
    if variant is None:
        return BlackjackPays(rules.blackjack_pays, rules.blackjack_pays, Fraction(0)), "633a.6(d)"
    pays = blackjack_pays(variant, ante, switched, tie_pays, premium_colored)
    section = (
        "633b.4(o)"
        if variant is Variant.PREMIUM
        else ("633b.4(i)(2)" if switched else "633b.4(i)(1)")
    )
    return pays, section


def _ante_line(seat: SwitchSeat) -> Line:
    """The Switch Hands Ante, collected (§ 633b.4(c))."""
    return Line(
        "Switch Hands Ante collected",
        seat.ante_cents,
        -seat.ante_cents,
        "633b.4(c)",
        "collected",
        ANTE_WAGER,
    )


def _surrender_line(pair: tuple[Card, Card], w: int, variant: Variant | None) -> Line:
    """The pair surrendered: half the wager back, the odd cent kept by the house."""
    half = Fraction(w, 2)
    rule = {None: "633a.9", Variant.SWITCH_HANDS: "633b.4(h)", Variant.PREMIUM: "633b.4(n)"}
    return Line(
        f"{format_cards(pair)} surrendered",
        w,
        -floor(half) - (1 if half % 1 else 0),
        rule[variant],
        "half back",
    )


def _blackjack_line(
    pair: tuple[Card, Card], w: int, pays: BlackjackPays, dealer_bj: bool, section: str
) -> tuple[Line, Fraction]:
    """The player's Blackjack (a tie with the dealer's, or paid by its colours), with the
    fraction of a cent rounding dropped."""
    colored = pair[0].color == pair[1].color
    if dealer_bj:
        pay, label = pays.tie, "tie Blackjack"
    else:
        pay = pays.colored if colored else pays.other
        kind = "same-suit" if pair[0].suit == pair[1].suit else "same-colour"
        label = f"{kind} Blackjack" if colored and pays.colored != pays.other else "Blackjack"
    exact = w * pay
    won = floor(exact)
    odds = _odds(pay)
    what = f"pays {odds}" if pay else "pushes"
    dropped = Fraction(0) + (exact - won)  # a Fraction even where a pay is given as an int
    return Line(f"{label} {format_cards(pair)} {what}", w, won, section, odds), dropped


def _hand_lines(seat: SwitchSeat, dealer: tuple[Card, ...], section: str) -> list[Line]:
    """Each hand the player finished against the dealer's (no Blackjack on either side)."""
    w = seat.wager_cents
    dealer_total = hand_total(dealer).total
    lines = []
    for n, hand in enumerate(seat.hands, start=1):
        stake = w + hand.double_cents
        total = hand_total(hand.cards).total
        if total > 21:
            net, what, odds = -stake, "busts", "loses"
        elif dealer_total > 21 or total > dealer_total:
            net, what, odds = stake, "wins", "1 to 1"
        elif total == dealer_total:
            net, what, odds = 0, "pushes", "push"
        else:
            net, what, odds = -stake, "loses", "loses"
        name = f"hand {n} " if len(seat.hands) > 1 else ""
        doubled = " doubled" if hand.double_cents else ""
        lines.append(
            Line(
                f"{name}{format_cards(hand.cards)} ({total}){doubled} {what} against "
                f"{dealer_total if dealer_total <= 21 else 'a bust'}",
                stake,
                net,
                section,
                odds,
            )
        )
    return lines


def _check_hands(seat: SwitchSeat, pair: tuple[Card, Card], dealer_bj: bool, limit: int) -> None:
    if not seat.hands:
        raise InputError("a seat that did not surrender plays at least one hand")
    if seat.surrendered:
        if dealer_bj:
            raise RulesError(
                "late surrender comes after the peek: not against a Blackjack", "633a.9"
            )
        if len(seat.hands) != 1 or seat.hands[0].cards != pair or seat.hands[0].double_cents:
            raise RulesError(
                "a player surrenders the initial two cards or a Switch Hand only", "633b.4(h)"
            )
        return
    for hand in seat.hands:
        if hand.double_cents < 0 or hand.double_cents > seat.wager_cents:
            raise RulesError("a double down is up to the hand's wager", "633a.10")
        if hand.double_cents and len(hand.cards) != 3:
            raise RulesError("a doubled hand takes exactly one more card", "633a.10")
    if dealer_bj and (len(seat.hands) > 1 or len(seat.hands[0].cards) != 2):
        raise InputError("a dealer Blackjack ends the round at the peek: no card is drawn")
    if len(seat.hands) == 1:
        if seat.hands[0].cards[:2] != pair:
            raise InputError(
                f"the hand must start with the pair played, {format_cards(pair)}"
                f" ({'switched' if seat.switched else 'kept'})"
            )
        return
    if card_value(pair[0]) != card_value(pair[1]):
        raise RulesError(f"{format_cards(pair)} is not a pair: it cannot be split", "633a.11")
    if len(seat.hands) > limit:
        raise RulesError(
            f"the Rules Submission allows at most {limit} hands by splitting", "633a.11"
        )
    value = card_value(pair[0])
    firsts = [h.cards[0] for h in seat.hands]
    rest = list(firsts)
    for card in pair:
        if card in rest:
            rest.remove(card)
        else:
            rest = []
            break
    if any(card_value(c) != value for c in firsts) or len(rest) != len(firsts) - 2:
        raise InputError(
            f"split hands start with the cards of the pair {format_cards(pair)} "
            "(and the cards a re-split adds)"
        )
    if any(len(h.cards) < 2 for h in seat.hands):
        raise InputError("every split hand is dealt a second card")

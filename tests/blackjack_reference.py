"""Blackjack, Switch Hands and Blackjack Premium settlement written from the regulation text, for
the tests (croupier's own code is not imported).

Cards are read from their text (``"Ah"``, ``"Td"``). The pays, typed here from the sections:

* Chapter 633a (base-games.md): a winning hand 1 to 1, a player Blackjack (an ace and a 10-valued
  card as a hand's first two cards, not after a split) 3 to 2, ties push; a dealer Blackjack found
  at the peek takes the original wager only (a player Blackjack pushes); late surrender returns
  half the wager; a double down adds up to the wager and is settled with it.
* § 633b.4(c): the Switch Hands Ante, $1 for every $5, is lost whatever happens.
* § 633b.4(i)(1): a player who did not switch: 1 to 1, Blackjack 3 to 2.
* § 633b.4(i)(2): a player who switched: a same-suit or same-colour Blackjack 2 to 1, another 3 to 2;
  (ii) where the submission says so, a Blackjack the dealer ties 1 to 2.
* § 633b.4(o): Blackjack Premium: 1 to 1, Blackjack 3 to 2, a tie Blackjack 1 to 2 for every player,
  and a same-suit or same-colour Blackjack 2 to 1 for a player who placed the Ante
  (docs/interpretations.md: switched or not).

Pays of odd cents are rounded down to the cent.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor

TEN_VALUED = set("TJQK")


def value(card: str) -> int:
    """1 for an ace, 10 for T/J/Q/K, the face value otherwise."""
    r = card[0]
    if r == "A":
        return 1
    return 10 if r in TEN_VALUED else int(r)


def total(cards: Sequence[str]) -> int:
    """The best total: one ace counted 11 when that keeps the hand at 21 or less."""
    t = sum(value(c) for c in cards)
    if any(c[0] == "A" for c in cards) and t + 10 <= 21:
        return t + 10
    return t


def soft(cards: Sequence[str]) -> bool:
    t = sum(value(c) for c in cards)
    return any(c[0] == "A" for c in cards) and t + 10 <= 21


def natural(cards: Sequence[str]) -> bool:
    """An ace and a 10-valued card as the only two cards."""
    return len(cards) == 2 and sorted(value(c) for c in cards) == [1, 10]


def red(card: str) -> bool:
    return card[1] in "hd"


def settle(
    *,
    table: str,
    wager: int,
    ante: int,
    switched: bool,
    pair: Sequence[str],
    hands: Sequence[tuple[Sequence[str], int]],
    surrendered: bool,
    dealer: Sequence[str],
    tie_pays: bool = False,
) -> list[tuple[str, int]]:
    """(wager id, net cents) for one seat, in the order of the settlement: the Ante, then each hand.
    ``table`` is ``"blackjack"``, ``"switch-hands"`` or ``"blackjack-premium"``; ``hands`` lists
    (cards, double-down cents) — one hand unless the pair was split."""
    out: list[tuple[str, int]] = []
    if ante:
        out.append(("switch-hands-ante", -ante))
    if surrendered:
        out.append(("blackjack", -(wager - wager // 2)))
        return out
    dealer_bj = natural(dealer)
    player_bj = len(hands) == 1 and natural(hands[0][0])
    same_colour = red(pair[0]) == red(pair[1])
    if player_bj:
        if dealer_bj:
            if table == "blackjack-premium" or (table == "switch-hands" and switched and tie_pays):
                pay = Fraction(1, 2)
            else:
                pay = Fraction(0)
        elif same_colour and (
            (table == "switch-hands" and switched) or (table == "blackjack-premium" and ante)
        ):
            pay = Fraction(2)
        else:
            pay = Fraction(3, 2)
        out.append(("blackjack", floor(wager * pay)))
        return out
    if dealer_bj:
        out.append(("blackjack", -wager))
        return out
    d = total(dealer)
    for cards, double in hands:
        stake = wager + double
        t = total(cards)
        if t > 21:
            out.append(("blackjack", -stake))
        elif d > 21 or t > d:
            out.append(("blackjack", stake))
        elif t == d:
            out.append(("blackjack", 0))
        else:
            out.append(("blackjack", -stake))
    return out


def dealer_hand(shoe: list[str], hits_soft_17: bool = False) -> list[str]:
    """The dealer's hand drawn from the front of ``shoe`` (taken off it): draw to 16, stand on 17
    (hit soft 17 where the table says so)."""
    hand = [shoe.pop(0), shoe.pop(0)]
    while total(hand) < 17 or (hits_soft_17 and total(hand) == 17 and soft(hand)):
        hand.append(shoe.pop(0))
    return hand

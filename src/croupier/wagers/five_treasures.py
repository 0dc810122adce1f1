"""5 Treasures Baccarat wagers — 58 Pa. Code § 631c.3.

Five separate wagers (§ 631c.3(b)), placed after a Baccarat wager and before "no more bets"
(§ 631c.3(c)), settled after the result of the round is announced (§ 631c.3(e)), winning on the
outcomes of § 631c.3(f) and paid from paytable A or B of § 631c.3(h); otherwise they lose
(§ 631c.3(g)):

* Fortune 7 — the Banker hand *wins* with a three-card total of 7 ((f)(1));
* Golden 8 — the Player hand *wins* with a three-card total of 8 ((f)(2));
* Heavenly 9 — the Banker's or the Player's hand has a three-card total of 9, whether or not it
  wins; a higher pay when both do ((f)(3));
* Blazing 7s — both hands total 7, both with two cards or both with three ((f)(4)); a two-card 7
  against a three-card 7 loses. Paytable A prints "N/A" for two-card Blazing 7s: under A that
  outcome loses;
* Cover All — wins when any of the other four would win under the same paytable ((f)(5)); under
  paytable A a two-card Blazing 7s is therefore not a Cover All win. It may be placed alone.

>>> from croupier.cards import parse_cards
>>> from croupier.wagers import get_wager
>>> cards = parse_cards("3h 4c 4d 3s")    # Player 3+4 = 7 stands, Banker 4+3 = 7 stands
>>> blazing = get_wager("blazing-7s")
>>> blazing.evaluate(cards)
<BlazingSevensOutcome.TWO_CARD: 'blazing-7s-two-card'>
>>> cover = get_wager("cover-all")
>>> [cover.settle(cards, cover.paytable(p, 8), 500, 8).win_cents for p in "AB"]
[-500, 3000]
"""

from __future__ import annotations

from functools import partial

from croupier.games.baccarat import CoupSummary, Winner
from croupier.paytables import NotAvailable, PayLine, Paytable
from croupier.wagers.baccarat import BASE_WAGERS, COUP_WAGER, BaccaratWager
from croupier.wagers.base import OrderedOutcome
from croupier.wagers.registry import register


def fortune_seven(coup: CoupSummary) -> bool:
    """§ 631c.3(f)(1): the Banker hand wins with a three-card total of 7."""
    return coup.winner is Winner.BANKER and coup.banker_cards == 3 and coup.banker_total == 7


def golden_eight(coup: CoupSummary) -> bool:
    """§ 631c.3(f)(2): the Player hand wins with a three-card total of 8."""
    return coup.winner is Winner.PLAYER and coup.player_cards == 3 and coup.player_total == 8


def heavenly_nines(coup: CoupSummary) -> int:
    """§ 631c.3(f)(3): how many of the two hands have a three-card total of 9 (0, 1 or 2)."""
    return (coup.player_cards == 3 and coup.player_total == 9) + (
        coup.banker_cards == 3 and coup.banker_total == 9
    )


def blazing_sevens(coup: CoupSummary) -> int | None:
    """§ 631c.3(f)(4): the number of cards (2 or 3) in each hand when both total 7 with the same
    number of cards, else ``None``."""
    if coup.player_total == coup.banker_total == 7 and coup.player_cards == coup.banker_cards:
        return coup.player_cards
    return None


class FortuneSevenOutcome(OrderedOutcome):
    """§ 631c.3(f)(1)."""

    FORTUNE_7 = "fortune-7"


class GoldenEightOutcome(OrderedOutcome):
    """§ 631c.3(f)(2)."""

    GOLDEN_8 = "golden-8"


class HeavenlyNineOutcome(OrderedOutcome):
    """§ 631c.3(f)(3): both hands, or one hand, with a three-card total of 9."""

    BOTH = "heavenly-9-both"
    ONE = "heavenly-9"


class BlazingSevensOutcome(OrderedOutcome):
    """§ 631c.3(f)(4): both hands a three-card 7, or both a two-card 7."""

    THREE_CARD = "blazing-7s-three-card"
    TWO_CARD = "blazing-7s-two-card"


class CoverAllOutcome(OrderedOutcome):
    """§ 631c.3(f)(5). ``COVER_ALL``: Fortune 7, Golden 8, Heavenly 9 or three-card Blazing 7s
    wins (a win under both paytables). ``TWO_CARD_BLAZING_7S``: only a two-card Blazing 7s, which
    wins Cover All where the paytable pays it (B) and loses where it prints "N/A" (A); the two
    cannot happen together (a two-card Blazing 7s has no three-card hand)."""

    COVER_ALL = "cover-all"
    TWO_CARD_BLAZING_7S = "blazing-7s-two-card"


FIVE_TREASURES_WAGER = partial(
    COUP_WAGER,
    section="631c.3",
    settle_rule="631c.3(e)",
    base_wagers=BASE_WAGERS,
    base_rule="631c.3(c)",
    lockout_rule="631c.3(c)",
    one_paytable=("the 5 Treasures wagers", "631c.3(h)"),
)
"""What the five wagers' specs share: section, settlement rule, base wagers, one paytable."""


@register
class FortuneSeven(BaccaratWager):
    """Fortune 7 bonus wager (58 Pa. Code § 631c.3(b)(1), (f)(1))."""

    spec = FIVE_TREASURES_WAGER(id="fortune-7", name="Fortune 7", outcomes=FortuneSevenOutcome)

    def outcome_for(self, coup: CoupSummary) -> FortuneSevenOutcome | None:
        """§ 631c.3(f)(1): wins when the Banker wins with a three-card 7."""
        return FortuneSevenOutcome.FORTUNE_7 if fortune_seven(coup) else None


@register
class GoldenEight(BaccaratWager):
    """Golden 8 bonus wager (58 Pa. Code § 631c.3(b)(2), (f)(2))."""

    spec = FIVE_TREASURES_WAGER(id="golden-8", name="Golden 8", outcomes=GoldenEightOutcome)

    def outcome_for(self, coup: CoupSummary) -> GoldenEightOutcome | None:
        """§ 631c.3(f)(2): wins when the Player wins with a three-card 8."""
        return GoldenEightOutcome.GOLDEN_8 if golden_eight(coup) else None


@register
class HeavenlyNine(BaccaratWager):
    """Heavenly 9 bonus wager (58 Pa. Code § 631c.3(b)(3), (f)(3))."""

    spec = FIVE_TREASURES_WAGER(id="heavenly-9", name="Heavenly 9", outcomes=HeavenlyNineOutcome)

    def outcome_for(self, coup: CoupSummary) -> HeavenlyNineOutcome | None:
        """§ 631c.3(f)(3): a three-card 9 in either hand wins (it need not win the coup); both
        hands pay the higher line."""
        nines = heavenly_nines(coup)
        if nines == 2:
            return HeavenlyNineOutcome.BOTH
        return HeavenlyNineOutcome.ONE if nines == 1 else None


@register
class BlazingSevens(BaccaratWager):
    """Blazing 7s bonus wager (58 Pa. Code § 631c.3(b)(4), (f)(4))."""

    spec = FIVE_TREASURES_WAGER(id="blazing-7s", name="Blazing 7s", outcomes=BlazingSevensOutcome)

    def outcome_for(self, coup: CoupSummary) -> BlazingSevensOutcome | None:
        """§ 631c.3(f)(4): both hands total 7 with the same number of cards (the two-card line is
        "N/A" under paytable A, where it loses)."""
        cards = blazing_sevens(coup)
        if cards == 3:
            return BlazingSevensOutcome.THREE_CARD
        return BlazingSevensOutcome.TWO_CARD if cards == 2 else None


@register
class CoverAll(BaccaratWager):
    """Cover All bonus wager (58 Pa. Code § 631c.3(b)(5), (f)(5))."""

    spec = FIVE_TREASURES_WAGER(id="cover-all", name="Cover All", outcomes=CoverAllOutcome)

    def outcome_for(self, coup: CoupSummary) -> CoverAllOutcome | None:
        """§ 631c.3(f)(5): wins when another 5 Treasures wager would win; a two-card Blazing 7s is
        told apart, since whether it wins depends on the paytable (:meth:`pay_line`)."""
        if fortune_seven(coup) or golden_eight(coup) or heavenly_nines(coup):
            return CoverAllOutcome.COVER_ALL
        cards = blazing_sevens(coup)
        if cards == 3:
            return CoverAllOutcome.COVER_ALL
        return CoverAllOutcome.TWO_CARD_BLAZING_7S if cards == 2 else None

    def pay_line(self, table: Paytable, outcome: OrderedOutcome | None) -> PayLine | None:
        """The Cover All line for a win. A two-card Blazing 7s wins Cover All only when the same
        paytable pays two-card Blazing 7s (§ 631c.3(f)(5), (h)): under paytable A ("N/A") the
        wager loses."""
        if outcome is None:
            return None
        cover = table.line(CoverAllOutcome.COVER_ALL.key)
        if cover is None or isinstance(cover.pays, NotAvailable):
            return None
        if outcome is CoverAllOutcome.TWO_CARD_BLAZING_7S:
            blazing = table.line(BlazingSevensOutcome.TWO_CARD.key)
            if blazing is None or isinstance(blazing.pays, NotAvailable):
                return None
        return cover


FIVE_TREASURES: tuple[str, ...] = ("fortune-7", "golden-8", "heavenly-9", "blazing-7s", "cover-all")
"""The ids of the five wagers, in the order of § 631c.3(b)."""

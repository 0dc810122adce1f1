"""What the table itself settles of a progressive wager: each outcome's net with every meter award
at zero (:attr:`croupier.analysis.meters.MeterReturn.zero_meter_outcomes`), what the hold report
judges a table's hold net of its progressive by (issue 31).

By hand, § 633b.2 paytable P1 at 6 decks: a Royal Flush of one suit (the dealer's ace and one of
its king, queen, jack, either card up: 2 × 6 × 18 ways; the player's other two in either order:
2 × 6 × 6) comes in 15,552 of the 312·311·310·309 ordered deals, of any suit four times as often;
with the meter at zero the wager loses its $5 on those hands (the stake collected).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.analysis.meters import meter_return
from croupier.paytables import MeterLevel
from croupier.wagers import get_wager
from croupier.wagers.base import ProgressiveStake

ROYAL_ONE_SUIT = Fraction(15_552, 312 * 311 * 310 * 309)


def test_the_outcomes_with_the_meters_at_zero_are_the_fixed_return() -> None:
    mr = meter_return(get_wager("jackpot-party"), "P1", decks=6)
    rows = mr.zero_meter_outcomes
    assert sum(p for _, p in rows) == 1
    assert sum(p * net for net, p in rows) == mr.fixed == mr.at({MeterLevel.PROGRESSIVE: 0})
    # the meter lines lose the stake: with the loser, −1 carries every Royal Flush's chance too
    losing = sum(p for net, p in rows if net == -1)
    assert losing >= 4 * ROYAL_ONE_SUIT
    assert mr.slopes[MeterLevel.PROGRESSIVE] == ROYAL_ONE_SUIT * (1 + 3 * Fraction(1, 10))


def test_a_returned_stake_nets_zero_on_a_meter_line() -> None:
    collected = meter_return(get_wager("jackpot-party"), "P1", decks=6)
    returned = meter_return(
        get_wager("jackpot-party"), "P1", decks=6, stake=ProgressiveStake.RETURNED
    )
    # the stake returned on the four Royal Flushes: the fixed return higher by their chance
    assert returned.fixed - collected.fixed == 4 * ROYAL_ONE_SUIT
    assert sum(p * net for net, p in returned.zero_meter_outcomes) == returned.fixed

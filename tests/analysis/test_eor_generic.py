"""The effect of removal of any wager with an exact par sheet over a shoe (issue 14: ``croupier
eor`` for Perfect Pairs, Match the Dealer, Ultimate Pairs...).

Independent anchor: taking a card at random from the full shoe and dealing from the rest deals
the same cards, in distribution, as dealing from the full shoe (a burned card). So the effects of
removal of the 52 cards average to exactly zero: Σ over ranks of the suit-averaged effects is 0,
for every wager. Where the ranks play alike but one (Match the Dealer's aces), symmetry then
fixes that rank's effect at −12 times each other rank's.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from cli_support import run_main
from croupier.analysis.eor import effect_of_removal
from croupier.analysis.parsheet import exact_parsheet
from croupier.cards import Rank
from croupier.wagers import get_wager


@pytest.mark.parametrize(
    ("wager", "paytable", "decks"),
    [("perfect-pairs", "B", 1), ("ultimate-pairs", "A", 1), ("fortune-7", "A", 8)],
)
def test_effects_of_removal_sum_to_zero(wager: str, paytable: str, decks: int) -> None:
    eor = effect_of_removal(get_wager(wager), paytable, decks)
    assert sum((r.effect for r in eor.effects), Fraction(0)) == 0
    assert eor.expected_return == exact_parsheet(get_wager(wager), paytable, decks).expected_return


def test_ultimate_pairs_depends_on_the_ranks_removed() -> None:
    eor = effect_of_removal(get_wager("ultimate-pairs"), "A", 1)
    assert len({r.effect for r in eor.effects}) > 1
    run = run_main(["eor", "ultimate-pairs", "-p", "A", "--decks", "1", "--json"])
    assert run.code == 0, run.err
    assert '"tags"' in run.out


@pytest.mark.slow
def test_match_the_dealer_eor_six_decks() -> None:
    eor = effect_of_removal(get_wager("match-the-dealer"), "1", 6)
    other = eor.effect(Rank.TWO)
    assert all(r.effect == other for r in eor.effects if r.rank is not Rank.ACE)
    assert eor.effect(Rank.ACE) == -12 * other != 0
    run = run_main(["eor", "match-the-dealer", "--paytable", "1", "--decks", "6"])
    assert run.code == 0, run.err
    assert "no balanced count" in run.out.replace("\n", " ")

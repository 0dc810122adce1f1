"""The Baccarat coup kernel against the existing code: on given cards it deals the coup
:func:`croupier.games.baccarat.play_coup` deals (§ 631a.9–§ 631a.11), and every Baccarat wager (the
5 Treasures included) reads the outcome its :meth:`classify` and numpy :meth:`classify_indices`
give; simulated tallies land within 4 standard errors of the exact par sheets."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis.kernels import baccarat as kbac
from croupier.analysis.kernels import plan_for, shoe_cards
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.simulate import simulate
from croupier.cards import DECK, Shoe
from croupier.games.baccarat import BANKER_DRAW_TABLE, play_coup
from croupier.wagers import Game, all_wagers, get_wager

BACCARAT = [w.id for w in all_wagers() if w.game is Game.BACCARAT]


def _given(n: int, decks: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gen = np.random.default_rng(seed)
    cards = shoe_cards(Shoe.standard(decks))
    seqs = np.stack([gen.permutation(cards)[:6] for _ in range(n)])
    records = np.full((n, kbac.WIDTH), -1, dtype=np.int8)
    lengths = np.zeros(n, dtype=np.int8)
    assert kbac.play_given(seqs, np.ascontiguousarray(BANKER_DRAW_TABLE), records, lengths) == 0
    return seqs, records, lengths


def test_coups_from_given_cards_are_the_coups_play_coup_deals() -> None:
    seqs, records, lengths = _given(20_000, 8, 631)
    seen = set()
    for r in range(len(seqs)):
        coup = play_coup([DECK[c] for c in seqs[r].tolist()])
        assert records[r, : lengths[r]].tolist() == [c.index for c in coup.cards], r
        seen.add(int(lengths[r]))
    assert seen == {4, 5, 6}


@pytest.mark.parametrize("wager_id", BACCARAT)
def test_every_baccarat_wager_reads_the_coup_like_classify(wager_id: str) -> None:
    wager = get_wager(wager_id)
    seqs, records, lengths = _given(8_000, 6, 11)
    plan = plan_for(wager, Shoe.standard(6))
    assert plan is not None
    out = np.empty(len(seqs), dtype=np.int64)
    plan.classify(records, lengths, out, *plan.args)
    assert out.tolist() == wager.classify_indices(seqs.astype(np.int64)).tolist()
    losing = len(wager.outcomes)
    for r in range(1000):
        o = wager.classify([DECK[c] for c in seqs[r].tolist()])
        assert out[r] == (losing if o is None else o.position)


@pytest.mark.parametrize(
    ("wager_id", "paytable", "decks"),
    [
        ("banker", "commission", 8),
        ("tie", "8-to-1", 6),
        ("blazing-7s", "A", 8),
        ("cover-all", "A", 6),
    ],
)
def test_coup_tallies_within_4_standard_errors(wager_id: str, paytable: str, decks: int) -> None:
    wager = get_wager(wager_id)
    exact = exact_parsheet(wager, paytable, decks=decks)
    sim = simulate(wager, paytable, 1_000_000, 631 + decks, decks=decks)
    assert "compiled kernel" in sim.convention and "§ 631a.11" in sim.convention
    assert sim.standard_error is not None
    z = float(sim.expected_return - exact.expected_return) / sim.standard_error
    assert abs(z) <= 4, z


@pytest.mark.slow
@pytest.mark.parametrize("wager_id", BACCARAT)
def test_big_coup_runs_line_by_line(wager_id: str) -> None:
    wager = get_wager(wager_id)
    table, decks = wager.offerings()[-1]
    exact = exact_parsheet(wager, table.key, decks=decks)
    rounds = 30_000_000
    sim = simulate(wager, table.key, rounds, 6310, decks=decks)
    assert sim.standard_error is not None
    assert abs(float(sim.expected_return - exact.expected_return)) <= 4 * sim.standard_error
    for e, s in zip(exact.rows, sim.rows, strict=True):
        p = float(e.probability)
        assert abs((s.hits or 0) - rounds * p) <= 4 * (rounds * p * (1 - p)) ** 0.5 + 1, e.outcome

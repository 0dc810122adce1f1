"""The compiled hand-values pass (croupier.analysis.kernels.hand_values) against the numpy code it
replaced (re-stated here: the hands valued level by level, most cards first, each draw's value a
row sum), bit for bit, on real tables and on random ones."""

from __future__ import annotations

import numpy as np

from croupier.analysis.blackjack_strategy import _family
from croupier.analysis.blackjack_tables import UpcardShoe
from croupier.analysis.kernels.hand_values import play_hands


def _numpy_play(
    probs: np.ndarray, family_pair: int | None, stand: np.ndarray, hits: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    f = _family(family_pair)
    rows = len(f.hands)
    out = np.empty(rows + 1)
    out[rows] = -1.0
    draws = np.zeros(rows, dtype=np.bool_)
    for lo, hi in f.levels:
        hit = (probs[lo:hi] * out[f.child[lo:hi]]).sum(axis=1)
        draw = (f.totals[lo:hi] < 21) & (hit > stand[lo:hi]) if hits is None else hits[lo:hi]
        draws[lo:hi] = draw
        out[lo:hi] = np.where(draw, hit, stand[lo:hi])
    return out, draws


def _kernel_play(
    probs: np.ndarray, family_pair: int | None, stand: np.ndarray, hits: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    f = _family(family_pair)
    rows = len(f.hands)
    out = np.empty(rows + 1)
    draws = np.empty(rows, dtype=np.bool_)
    policy = np.zeros(rows, dtype=np.bool_) if hits is None else hits
    play_hands(probs, f.child, stand, f.totals, policy, hits is None, out, draws)
    return out, draws


def test_kernel_plays_real_tables_as_numpy_does() -> None:
    for decks, upcard, peek in ((1, 0, True), (6, 5, True), (8, 9, False)):
        shoe = UpcardShoe(decks, upcard, True, peek)
        for pair, out in ((None, 0), (3, 0), (7, 4)):
            table = shoe.table(pair, out)
            for hits in (None, _family(pair).totals < 17):
                want = _numpy_play(table.probs, pair, table.stand, hits)
                got = _kernel_play(table.probs, pair, table.stand, hits)
                assert np.array_equal(want[0], got[0])
                assert np.array_equal(want[1], got[1])


def test_kernel_sums_random_rows_as_numpy_does() -> None:
    # chances and stand values spread over many magnitudes, where the order of the additions
    # shows in the last bits
    rng = np.random.default_rng(7)
    rows = len(_family(None).hands)
    probs = rng.random((rows, 10)) * np.exp(rng.normal(0.0, 4.0, (rows, 10)))
    stand = rng.normal(0.0, 1.0, rows)
    for hits in (None, rng.random(rows) < 0.5):
        want = _numpy_play(probs, None, stand, hits)
        got = _kernel_play(probs, None, stand, hits)
        assert np.array_equal(want[0], got[0])
        assert np.array_equal(want[1], got[1])

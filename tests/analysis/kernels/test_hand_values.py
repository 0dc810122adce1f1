"""The compiled hand-values pass and next-card chances (croupier.analysis.kernels.hand_values)
against the numpy code they replaced (re-stated here: the hands valued level by level, most cards
first, each draw's value a row sum), bit for bit, on real tables and on random ones; the chances
also by hand."""

from __future__ import annotations

import numpy as np
import pytest

from croupier.analysis.blackjack_strategy import _family
from croupier.analysis.blackjack_tables import UpcardShoe, draw_probs
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


def _numpy_chances(comps: np.ndarray, hole: int | None) -> np.ndarray:
    """The numpy code the kernel replaced."""
    c = comps.astype(np.float64)
    n = c.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if hole is None:
            probs = np.where((n > 0)[:, None], c / n[:, None], 0.0)
        else:
            other = n - c[:, hole]
            probs = np.where(
                ((other > 0) & (n > 1))[:, None],
                (c - c / other[:, None]) / (n - 1.0)[:, None],
                0.0,
            )
            probs[:, hole] = np.where(n > 1, c[:, hole] / (n - 1.0), 0.0)
    out: np.ndarray = np.nan_to_num(probs)
    return out


def test_next_card_chances_as_numpy_and_by_hand() -> None:
    rng = np.random.default_rng(3)
    comps = rng.integers(0, 33, size=(5000, 10)) * (rng.random((5000, 10)) < 0.8)
    comps[:3] = 0  # empty shoes
    comps[3] = (0,) * 9 + (1,)  # one ten left
    for upcard, peek, hole in ((0, True, 9), (9, True, 0), (4, True, None), (0, False, None)):
        got = draw_probs(comps, upcard, peek)
        assert np.array_equal(got, _numpy_chances(comps, hole))
    # by hand: an ace up, a shoe of 1 ace, 2 fives and 3 tens. The hole card is not a ten, so it
    # is the ace (1/3) or a five (2/3); the next card is a ten with chance 3/5, an ace with
    # chance (2/3)(1/5) = 2/15, a five with (1/3)(2/5) + (2/3)(1/5) = 4/15.
    shoe = np.array([[1, 0, 0, 0, 2, 0, 0, 0, 0, 3]])
    probs = draw_probs(shoe, 0, True)[0]
    assert probs[9] == pytest.approx(3 / 5)
    assert probs[0] == pytest.approx(2 / 15)
    assert probs[4] == pytest.approx(4 / 15)
    assert probs.sum() == pytest.approx(1.0)

"""The Blackjack dealer of the strategy engine (:mod:`croupier.analysis.blackjack_strategy`): card
values by type, and the distribution of the dealer's final result for an upcard from any shoe
composition (§ 633a.7 drawing rule; the peek removes the dealer's Blackjack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from croupier.errors import CroupierError
from croupier.games.blackjack_rules import PlayRules as PlayRules

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

VALUES = 10
"""Card types of the engine: index 0 is the ace, 1 … 8 the 2 … 9, 9 any ten-valued card."""

LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
ACE, TEN = 0, 9


def value_index(label: str) -> int:
    """The engine's index of a value label (``'A'``, ``'2'`` … ``'9'``, ``'T'``; ``'10'``, J, Q, K
    are read as ``'T'``)."""
    text = label.strip().upper()
    if text in ("10", "J", "Q", "K"):
        text = "T"
    if text not in LABELS:
        raise CroupierError(f"not a blackjack value: {label!r} (A, 2–9, T)")
    return LABELS.index(text)


# -- the dealer ----------------------------------------------------------------------------------

_RESULTS = ("17", "18", "19", "20", "21", "bust")


@dataclass(frozen=True)
class _DealerHands:
    drawn: IntArray  # (H, 10) values the dealer drew after the upcard
    orders: FloatArray  # (H,) valid draw orders of each multiset
    result: IntArray  # (H,) 0..4 for 17..21, 5 bust
    blackjack: npt.NDArray[np.bool_]  # (H,) the two-card 21 with the upcard
    size: IntArray  # (H,) cards drawn
    drawn_t: IntArray  # (10, H) the transpose of drawn
    steps: FloatArray  # (1, kmax + 1): 0, 0, 1, 2, … (falling-factorial offsets)
    kmax: int
    has_blackjack: bool


@lru_cache(maxsize=64)
def _dealer_hands(upcard: int, hits_soft_17: bool) -> _DealerHands:
    """Every final hand the dealer can draw to the upcard, as multisets of values, with the number
    of orders in which the drawing rule deals it (independent of the shoe)."""
    start = (0,) * VALUES
    level: dict[tuple[int, ...], list[int]] = {start: [1, upcard + 1, int(upcard == ACE)]}
    finals: list[tuple[tuple[int, ...], int, int, bool]] = []
    while level:
        nxt: dict[tuple[int, ...], list[int]] = {}
        for drawn, (orders, hard, ace) in level.items():
            cards = 1 + sum(drawn)
            total = hard + 10 if ace and hard + 10 <= 21 else hard
            soft = bool(ace and hard + 10 <= 21)
            stands = total > 17 or (total == 17 and not (soft and hits_soft_17))
            if cards >= 2 and (stands or total > 21):
                result = 5 if total > 21 else total - 17
                finals.append((drawn, orders, result, cards == 2 and total == 21))
                continue
            for v in range(VALUES):
                key = (*drawn[:v], drawn[v] + 1, *drawn[v + 1 :])
                entry = nxt.get(key)
                if entry is None:
                    nxt[key] = [orders, hard + v + 1, int(ace or v == ACE)]
                else:
                    entry[0] += orders
        level = nxt
    drawn_arr = np.array([f[0] for f in finals], dtype=np.int64)
    size = drawn_arr.sum(axis=1)
    kmax = int(size.max())
    blackjack = np.array([f[3] for f in finals], dtype=np.bool_)
    return _DealerHands(
        drawn_arr,
        np.array([f[1] for f in finals], dtype=np.float64),
        np.array([f[2] for f in finals], dtype=np.int64),
        blackjack,
        size,
        np.ascontiguousarray(drawn_arr.T),
        np.concatenate(([0.0], np.arange(kmax, dtype=np.float64)))[None, :],
        kmax,
        bool(blackjack.any()),
    )


def dealer_results(
    counts: Sequence[int], upcard: int, hits_soft_17: bool
) -> tuple[FloatArray, float]:
    """The dealer's final results from a composition ``counts`` (by value, the upcard already
    out): ``(p, p_blackjack)`` where ``p`` holds the probabilities of 17, 18, 19, 20, 21 and bust
    *given no dealer Blackjack*, and ``p_blackjack`` the probability of a dealer Blackjack.
    Memoised on the composition."""
    key = (upcard, hits_soft_17, tuple(counts))
    got = _DEALER_CACHE.get(key)
    if got is None:
        if len(_DEALER_CACHE) > 400_000:
            _DEALER_CACHE.clear()
        got = _dealer_results(key[2], upcard, hits_soft_17)
        _DEALER_CACHE[key] = got
    return got


_DEALER_CACHE: dict[tuple[int, bool, tuple[int, ...]], tuple[FloatArray, float]] = {}
_ROWS = np.arange(VALUES)[:, None]


def _dealer_results(
    counts: tuple[int, ...], upcard: int, hits_soft_17: bool
) -> tuple[FloatArray, float]:
    hands = _dealer_hands(upcard, hits_soft_17)
    # falling(counts[v], j) for j = 0 … kmax, and falling(N, k)
    n = np.asarray((*counts, sum(counts)), dtype=np.float64)[:, None]
    factors = np.maximum(n - hands.steps, 0.0)
    factors[:, 0] = 1.0
    table = np.cumprod(factors, axis=1)
    weights = hands.orders * table[_ROWS, hands.drawn_t].prod(axis=0)
    denominators = table[VALUES, hands.size]
    probs = np.divide(weights, denominators, out=np.zeros_like(weights), where=denominators > 0)
    p_bj = float(probs[hands.blackjack].sum()) if hands.has_blackjack else 0.0
    if hands.has_blackjack:
        probs[hands.blackjack] = 0.0
    out = np.bincount(hands.result, weights=probs, minlength=6).astype(np.float64)
    if p_bj < 1.0:
        out /= 1.0 - p_bj
    return out, p_bj

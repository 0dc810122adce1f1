"""Four Card Poker's exact dealer table computed from scratch (58 Pa. Code § 641a.7(d)(1)):
:func:`regenerate`, by the method the :mod:`croupier.games.four_card_poker_exact` docstring
describes (about five minutes on one core, ~7 GB of memory). ``croupier strategy four-card-poker
--regenerate`` runs it; the table it returns is what
:func:`~croupier.games.four_card_poker_exact.save_dealer_table` ships.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.games.four_card_poker_exact import (
    CATEGORIES,
    DEALER_HANDS,
    PLAYER_HANDS,
    DealerTable,
    Progress,
    _all_fives,
    _subset_colex,
    canonical_five,
)
from croupier.poker.four_card import (
    IntArray,
    category_of_ordinal,
    combinations_array,
    distinct_keys,
    value_table,
)


@dataclass(frozen=True, eq=False)
class _SixCardHands:
    """Every six-card hand of the deck (``sixes``, colex order) with the dealer's best-four
    strength of each (``v6``), walked ``chunk`` hands at a time."""

    sixes: npt.NDArray[np.int8]
    v6: npt.NDArray[np.int16]
    n_values: int
    cat_of_value: IntArray
    chunk: int

    def chunks(self) -> Iterator[tuple[IntArray, IntArray]]:
        """(the hands' cards, their strengths), both as int64, ``chunk`` hands at a time."""
        n6 = self.sixes.shape[0]
        for s in range(0, n6, self.chunk):
            rows = self.sixes[s : s + self.chunk].astype(np.int64)
            v = self.v6[s : s + self.chunk].astype(np.int64)
            yield rows, v


def regenerate(progress: Progress | None = None, chunk: int = 2_000_000) -> DealerTable:
    """Compute the dealer table from scratch (see the
    :mod:`~croupier.games.four_card_poker_exact` docstring for the method)."""
    say = progress or (lambda _msg: None)
    t0 = time.monotonic()

    def step(msg: str) -> None:
        say(f"[{time.monotonic() - t0:6.1f}s] {msg}")

    n_values = len(distinct_keys())
    v4 = value_table()
    cat_of_value = category_of_ordinal(np.arange(n_values)).astype(np.int64)
    sixes = combinations_array(52, 6).astype(np.int8)
    n6 = sixes.shape[0]
    step(f"{n6:,} six-card hands")

    # 1. the dealer's best-four strength of every six-card hand
    hands = _SixCardHands(sixes, _six_strengths(sixes, v4, chunk), n_values, cat_of_value, chunk)
    step("dealer strengths of every six-card hand")

    # 2. histograms of v over the six-card hands containing each set of 0-3 cards (and by
    #    category), a sorted key array for sets of four, direct counts for sets of five
    hist = _histograms(hands, step)
    # greater-than counts: gt[S, t] = #{D ⊇ S : v(D) > t}
    gt = [np.cumsum(h[:, ::-1], axis=1)[:, ::-1] - h for h in hist]
    # strengths are ordered by category, so each category is one run of columns
    starts = np.searchsorted(cat_of_value, np.arange(CATEGORIES))
    cat_hist = [np.add.reduceat(h, starts, axis=1) for h in hist]
    keys4, cat4 = _four_card_keys(hands)
    cat_hist.append(cat4)
    step("sorted strengths over the hands containing each set of four cards")

    # the player hands and their best-four strengths
    fives = _all_fives()
    t = np.zeros(PLAYER_HANDS, dtype=np.int64)
    for four in combinations(range(5), 4):
        t = np.maximum(t, v4[_subset_colex(fives, four)])
    gt5, ge5, cat5 = _five_card_counts(hands, t)
    step("direct counts over the hands containing each player hand")

    # 3. inclusion-exclusion for every player hand
    beats, ties, cats = _inclusion_exclusion(
        fives, t, hist, gt, cat_hist, keys4, n_values, (gt5, ge5, cat5)
    )
    step("inclusion-exclusion over the player's cards")
    pcat = cat_of_value[t]
    joint = _joint(pcat, beats, ties, cats)

    # 4. reduce to suit-isomorphism classes
    canon = canonical_five(np.arange(PLAYER_HANDS, dtype=np.int64))
    classes, first, sizes = np.unique(canon, return_index=True, return_counts=True)

    # 5. the dealer's face-up card: for each class and each face-up card u, the dealer hands
    #    holding u that beat the player, by inclusion-exclusion over S ⊆ P of #{D ⊇ S ∪ {u}}
    keys5 = _five_card_keys(hands)
    step("sorted strengths over the hands containing each set of five cards")
    up_beats = _upcard_beats(
        fives[classes], t[classes], gt, keys4, keys5, hands.v6, n_values, chunk=4000
    )
    if not (up_beats.sum(axis=1) == 6 * beats[classes]).all():  # each D holds six face-up cards
        raise AssertionError("face-up card counts disagree with the totals")  # pragma: no cover
    mult_up, up_counts = _upcard_decisions(up_beats, pcat[classes], sizes)
    step("optimal decisions against each dealer face-up card")
    class_beats = beats[first]
    class_ties = ties[first]
    where = np.searchsorted(classes, canon)
    if not ((class_beats[where] == beats).all() and (class_ties[where] == ties).all()):
        raise AssertionError("suit-isomorphic hands got different counts")  # pragma: no cover
    step(f"{len(classes):,} suit-isomorphism classes")
    return DealerTable(
        classes.astype(np.int32),
        sizes.astype(np.int32),
        class_beats.astype(np.int32),
        class_ties.astype(np.int32),
        joint,
        mult_up.astype(np.int8),
        up_counts,
    )


def _upcard_beats(
    reps: IntArray,
    t: IntArray,
    gt: list[IntArray],
    keys4: npt.NDArray[np.int32],
    keys5: IntArray,
    v6: npt.NDArray[np.int16],
    n_values: int,
    chunk: int,
) -> IntArray:
    """``out[i, j]``: dealer hands holding the j-th card missing from ``reps[i]`` that beat it."""
    n = reps.shape[0]
    out = np.zeros((n, 47), dtype=np.int64)
    for a in range(0, n, chunk):
        r = reps[a : a + chunk]
        m = r.shape[0]
        mask = np.ones((m, 52), dtype=bool)
        mask[np.arange(m)[:, None], r] = False
        ups = np.nonzero(mask)[1].reshape(m, 47)
        u = ups.reshape(-1, 1)
        rr = np.repeat(r, 47, axis=0)
        tt = np.repeat(t[a : a + chunk], 47)
        total = np.zeros(m * 47, dtype=np.int64)
        for k in range(6):
            sign = -1 if k % 2 else 1
            for subset in combinations(range(5), k):
                cards = np.sort(np.hstack([rr[:, list(subset)], u]), axis=1)
                idx = _subset_colex(cards, tuple(range(k + 1)))
                if k + 1 <= 3:
                    count = gt[k + 1][idx, tt]
                elif k + 1 == 4:
                    end = (idx + 1) * 1128
                    count = end - np.searchsorted(keys4, idx * n_values + tt, side="right")
                elif k + 1 == 5:
                    end = (idx + 1) * 47
                    count = end - np.searchsorted(keys5, idx * n_values + tt, side="right")
                else:
                    count = (v6[idx] > tt).astype(np.int64)
                total += sign * count
        out[a : a + chunk] = total.reshape(m, 47)
    return out


def _six_strengths(
    sixes: npt.NDArray[np.int8], v4: npt.NDArray[np.int16], chunk: int
) -> npt.NDArray[np.int16]:
    """The dealer's best-four strength of every six-card hand."""
    n6 = sixes.shape[0]
    v6 = np.empty(n6, dtype=np.int16)
    for s in range(0, n6, chunk):
        rows = sixes[s : s + chunk].astype(np.int64)
        best = np.zeros(rows.shape[0], dtype=np.int16)
        for four in combinations(range(6), 4):
            best = np.maximum(best, v4[_subset_colex(rows, four)])
        v6[s : s + chunk] = best
    return v6


def _histograms(hands: _SixCardHands, step: Progress) -> list[IntArray]:
    """``hist[k][S, v]``: the six-card hands holding the set S of ``k`` cards (0 to 3) whose
    strength is ``v``."""
    n_values = hands.n_values
    hist: list[IntArray] = []
    for k in range(4):
        n_sets = comb(52, k)
        h = np.zeros(n_sets * n_values, dtype=np.int64)
        for rows, v in hands.chunks():
            keys = np.concatenate(
                [_subset_colex(rows, sub) * n_values + v for sub in combinations(range(6), k)]
            )
            h += np.bincount(keys, minlength=n_sets * n_values)
        hist.append(h.reshape(n_sets, n_values))
        step(f"histograms of the dealer strength over hands containing {k} given cards")
    return hist


def _four_card_keys(hands: _SixCardHands) -> tuple[npt.NDArray[np.int32], IntArray]:
    """The sorted (set of four, strength) keys of the six-card hands holding each set of four
    cards, and those hands by category (``[set of four, category]``)."""
    n_values, cat_of_value = hands.n_values, hands.cat_of_value
    n4 = comb(52, 4)
    keys4 = np.empty(hands.sixes.shape[0] * 15, dtype=np.int32)
    cat4 = np.zeros(n4 * CATEGORIES, dtype=np.int64)
    pos = 0
    for rows, v in hands.chunks():
        c = cat_of_value[v]
        for sub in combinations(range(6), 4):
            sc = _subset_colex(rows, sub)
            keys4[pos : pos + rows.shape[0]] = sc * n_values + v
            cat4 += np.bincount(sc * CATEGORIES + c, minlength=n4 * CATEGORIES)
            pos += rows.shape[0]
    keys4.sort()
    return keys4, cat4.reshape(n4, CATEGORIES)


def _five_card_counts(hands: _SixCardHands, t: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Sets of five: each six-card hand D contains six player hands P; compare v(D) with t(P).
    (the hands holding P that beat it, that beat or tie it, and by category, flat)."""
    gt5 = np.zeros(PLAYER_HANDS, dtype=np.int64)
    ge5 = np.zeros(PLAYER_HANDS, dtype=np.int64)
    cat5 = np.zeros(PLAYER_HANDS * CATEGORIES, dtype=np.int64)
    for rows, v in hands.chunks():
        c = hands.cat_of_value[v]
        for five in combinations(range(6), 5):
            p = _subset_colex(rows, five)
            gt5 += np.bincount(p[v > t[p]], minlength=PLAYER_HANDS)
            ge5 += np.bincount(p[v >= t[p]], minlength=PLAYER_HANDS)
            cat5 += np.bincount(p * CATEGORIES + c, minlength=PLAYER_HANDS * CATEGORIES)
    return gt5, ge5, cat5


def _inclusion_exclusion(
    fives: IntArray,
    t: IntArray,
    hist: list[IntArray],
    gt: list[IntArray],
    cat_hist: list[IntArray],
    keys4: npt.NDArray[np.int32],
    n_values: int,
    fives_counts: tuple[IntArray, IntArray, IntArray],
) -> tuple[IntArray, IntArray, IntArray]:
    """Every player hand's dealer hands that beat it, that tie it, and by category
    (inclusion-exclusion over the subsets of its cards)."""
    gt5, ge5, cat5 = fives_counts
    beats = np.zeros(PLAYER_HANDS, dtype=np.int64)
    at_least = np.zeros(PLAYER_HANDS, dtype=np.int64)
    cats = np.zeros((PLAYER_HANDS, CATEGORIES), dtype=np.int64)
    for k in range(4):
        sign = -1 if k % 2 else 1
        for subset in combinations(range(5), k):
            sc = _subset_colex(fives, subset)
            beats += sign * gt[k][sc, t]
            at_least += sign * (gt[k][sc, t] + hist[k][sc, t])
            cats += sign * cat_hist[k][sc]
    for four in combinations(range(5), 4):  # sign +1
        sc = _subset_colex(fives, four)
        end = (sc + 1) * 1128  # each set of four lies in C(48, 2) = 1,128 six-card hands
        beats += end - np.searchsorted(keys4, sc * n_values + t, side="right")
        at_least += end - np.searchsorted(keys4, sc * n_values + t, side="left")
        cats += cat_hist[4][sc]
    beats -= gt5
    at_least -= ge5
    cats -= cat5.reshape(PLAYER_HANDS, CATEGORIES)
    ties = at_least - beats
    if not (cats.sum(axis=1) == DEALER_HANDS).all() or beats.min() < 0 or ties.min() < 0:
        raise AssertionError("inclusion-exclusion left inconsistent counts")  # pragma: no cover
    return beats, ties, cats


def _joint(
    pcat: IntArray, beats: IntArray, ties: IntArray, cats: IntArray
) -> npt.NDArray[np.int64]:
    """The joint distribution of (player category, dealer category, result)."""
    joint = np.zeros((CATEGORIES, CATEGORIES, 3), dtype=np.int64)
    above = np.cumsum(cats[:, ::-1], axis=1)[:, ::-1] - cats  # dealer hands of a higher category
    own = cats[np.arange(PLAYER_HANDS), pcat]
    own_beats = beats - above[np.arange(PLAYER_HANDS), pcat]
    for pc in range(CATEGORIES):
        sel = pcat == pc
        for dc in range(CATEGORIES):
            if dc < pc:
                joint[pc, dc, 0] = int(cats[sel, dc].sum())
            elif dc > pc:
                joint[pc, dc, 2] = int(cats[sel, dc].sum())
        joint[pc, pc, 1] = int(ties[sel].sum())
        joint[pc, pc, 2] = int(own_beats[sel].sum())
        joint[pc, pc, 0] = int((own[sel] - ties[sel] - own_beats[sel]).sum())
    return joint


def _five_card_keys(hands: _SixCardHands) -> IntArray:
    """The sorted (set of five, strength) keys of the six-card hands holding each set of five."""
    keys5 = np.empty(hands.sixes.shape[0] * 6, dtype=np.int64)
    pos = 0
    for rows, v in hands.chunks():
        for five in combinations(range(6), 5):
            keys5[pos : pos + rows.shape[0]] = _subset_colex(rows, five) * hands.n_values + v
            pos += rows.shape[0]
    keys5.sort()
    return keys5


def _upcard_decisions(
    up_beats: IntArray, class_cat: IntArray, sizes: IntArray
) -> tuple[IntArray, npt.NDArray[np.int64]]:
    """The optimal Play multiple of each class against each face-up card, and the deals under
    that strategy (:attr:`DealerTable.up_counts`)."""
    n_up = comb(46, 5)
    edge_up = n_up - 2 * up_beats
    mult_up = np.where(4 * edge_up > 2 * edge_up, 3, 1)
    best_up = np.where(mult_up == 3, 4 * edge_up, 2 * edge_up)
    mult_up = np.where(best_up > -n_up, mult_up, 0)
    up_counts = np.zeros((3, CATEGORIES, 2), dtype=np.int64)
    weight = sizes.astype(np.int64)[:, None]
    for m_index, m in enumerate((0, 1, 3)):
        played = mult_up == m
        for c in range(CATEGORIES):
            sel = played & (class_cat == c)[:, None]
            lose = int((weight * np.where(sel, up_beats, 0)).sum())
            total = int((weight * sel).sum()) * n_up
            up_counts[m_index, c, 1] = total - lose
            up_counts[m_index, c, 0] = lose
    return mult_up, up_counts

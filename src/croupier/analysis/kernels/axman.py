"""The AxMan wager (58 Pa. Code § 633c.12) read from Blackjack round records in a compiled kernel.

The same reading as :func:`croupier.wagers._axman_hands.read_dealer_hand`, on card indices: the
dealer's whole hand, bust card included; the five highest of six or more cards (§ 633c.12(f)), every
choice at the cut tried and the best-paying kept; the king of diamonds wild (§ 633c.12(j)), keeping
its suit or taking any (the :class:`~croupier.wagers._axman_hands.AxManReading` options); the hands
in the paytable's order (§ 633c.12(k)); the player's kings of diamonds the multiplier.
"""

from __future__ import annotations

import numpy as np
from numba import njit

KD = 45
"""Card index of the king of diamonds (rank index 11 × 4 + diamonds 1)."""
NONE = 9
"""Hand code for no winning hand (0–8: the hands of :class:`AxManHand`, best first)."""


_WINDOWS = np.array([0b1000000001111] + [0b11111 << low for low in range(9)], dtype=np.int64)
"""The ten straights as bit masks of rank indices (the wheel A-2-3-4-5 first)."""


@njit(cache=True, nogil=True)
def read_five(hand, m, any_suit, counts):  # type: ignore[no-untyped-def]
    """The AxMan hand code (0 straight flush … 8 jacks or better, 9 none) of the first ``m`` ≤ 5
    cards of ``hand``; ``counts`` is scratch space of 13 zeros (left zero on return)."""
    wilds = 0
    suit = -1
    mixed = False
    present = 0
    top = 0
    for k in range(m):
        c = hand[k]
        if c == KD:
            wilds += 1
        else:
            r = c // 4
            counts[r] += 1
            present |= 1 << r
            s = c % 4
            if suit == -1:
                suit = s
            elif s != suit:
                mixed = True
    second = 0  # the two largest rank counts
    distinct = 0
    high_pair = False  # a natural jack or better paired (or with a wild card)
    for k in range(13):
        x = counts[k]
        if x:
            distinct += 1
            counts[k] = 0
            if x > top:
                second = top
                top = x
            elif x > second:
                second = x
            if k >= 9 and (x >= 2 or wilds):
                high_pair = True
    five = m == 5
    flush = five and not mixed and (any_suit or wilds == 0 or suit == -1 or suit == 1)
    straight = False
    if five and top <= 1:
        for w in _WINDOWS:
            if present & ~w == 0:
                straight = True
                break
    if flush and straight:
        return 0
    if five and distinct <= 1:
        return 1
    if flush:
        return 2
    if straight:
        return 3
    if top + wilds >= 4:
        return 4
    if five and distinct <= 2 and top <= 3:
        return 5
    if top + wilds >= 3:
        return 6
    if m >= 4 and max(0, 2 - top) + max(0, 2 - second) <= wilds:
        return 7
    if wilds >= 2 or high_pair:
        return 8  # two wild cards pair as aces
    return NONE


@njit(cache=True, nogil=True, inline="always")
def read_small(hand, m):  # type: ignore[no-untyped-def]
    """The AxMan hand code of ``m`` ≤ 4 cards (no five-card hands, § 633c.12(g)): only rank
    multiplicities and the wild cards matter, found by comparing the cards pairwise."""
    wilds = 0
    for k in range(m):
        if hand[k] == KD:
            wilds += 1
    top = 0
    pairs = 0  # natural ranks held twice or more, counted once per card pair
    high = False  # a natural jack or better paired, or beside a wild card
    for a in range(m):
        x = hand[a]
        if x == KD:
            continue
        same = 0
        for b in range(m):
            if hand[b] != KD and hand[b] // 4 == x // 4:
                same += 1
        top = max(top, same)
        if same == 2:
            pairs += 1  # each card of a pair counts it: 2 per pair
        if x // 4 >= 9 and (same >= 2 or wilds):
            high = True
    if top + wilds >= 4:
        return 4
    if top + wilds >= 3:
        return 6
    if pairs == 4:  # two natural pairs (four cards, no wild card)
        return 7
    if wilds >= 2 or high:
        return 8
    return NONE


@njit(cache=True, nogil=True)
def read_dealer(cards, m, always_kept, any_suit, work, pick, counts):  # type: ignore[no-untyped-def]
    """The AxMan hand code of the dealer's ``m`` cards ``cards[:m]`` (§ 633c.12(f)): the hand
    itself up to five cards, else the best of every way to take its five highest. ``work`` and
    ``pick`` are scratch arrays of at least ``m`` and 5; ``counts`` 13 zeros."""
    if m <= 4:
        return read_small(cards, m)
    if m == 5:
        return read_five(cards, m, any_suit, counts)
    for k in range(m):  # sort by the five-highest order, highest first (insertion sort)
        c = cards[k]
        key = 15 if (always_kept and c == KD) else c // 4 + 2
        j = k
        while j > 0:
            d = work[j - 1]
            dkey = 15 if (always_kept and d == KD) else d // 4 + 2
            if dkey >= key:
                break
            work[j] = d
            j -= 1
        work[j] = c
    cut_card = work[4]
    cut = 15 if (always_kept and cut_card == KD) else cut_card // 4 + 2
    above = 0
    first_cut = -1
    at_cut = 0
    for k in range(m):
        d = work[k]
        key = 15 if (always_kept and d == KD) else d // 4 + 2
        if key > cut:
            above += 1
        elif key == cut:
            if first_cut < 0:
                first_cut = k
            at_cut += 1
    need = 5 - above
    for k in range(above):
        pick[k] = work[k]
    best = NONE
    for mask in range(1 << at_cut):
        bits = 0
        x = mask
        while x:
            bits += x & 1
            x >>= 1
        if bits != need:
            continue
        j = above
        for b in range(at_cut):
            if mask >> b & 1:
                pick[j] = work[first_cut + b]
                j += 1
        code = read_five(pick, 5, any_suit, counts)
        if code < best:
            best = code
    return best


@njit(cache=True, nogil=True, inline="always")
def axman_position(hand, m, kings, always_kept, any_suit, work, pick, counts):  # type: ignore[no-untyped-def]
    """The AxMan outcome position (27 for a loss) of the dealer's ``m`` cards ``hand[:m]`` with
    ``kings`` kings of diamonds among the player's two cards; scratch as :func:`read_dealer`."""
    if m <= 4:
        present = 0
        dup = 0
        wild = False
        for k in range(m):
            c = hand[k]
            wild |= c == KD
            bit = 1 << (c // 4)
            dup |= present & bit
            present |= bit
        if not wild and dup == 0:  # no wild card, no pair: no hand (most rounds)
            return 27
        code = read_small(hand, m)
    else:
        code = read_dealer(hand, m, always_kept, any_suit, work, pick, counts)
    if code == NONE:
        return 27
    return code * 3 + (2 - min(kings, 2))


@njit(cache=True, nogil=True)
def axman_positions(records, lengths, out, always_kept, any_suit):  # type: ignore[no-untyped-def]
    """AxMan outcome positions (27 for a loss) of Blackjack round records (the first seat's two
    cards, then the dealer's hand; ``lengths`` its card count): :func:`axman_position` of each."""
    work = np.empty(records.shape[1], dtype=np.int64)
    pick = np.empty(5, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    hand = np.empty(records.shape[1], dtype=np.int64)
    for r in range(records.shape[0]):
        m = lengths[r]
        for k in range(m):
            hand[k] = records[r, 2 + k]
        kings = (1 if records[r, 0] == KD else 0) + (1 if records[r, 1] == KD else 0)
        out[r] = axman_position(hand, m, kings, always_kept, any_suit, work, pick, counts)

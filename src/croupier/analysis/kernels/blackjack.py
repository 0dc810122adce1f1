"""Whole Blackjack rounds in a compiled kernel, and the Blackjack side wagers read from them.

The round engine (:func:`deal_rounds`) deals each round from a freshly shuffled shoe in the regulated
order (58 Pa. Code § 633a.7: a card to each seat, the upcard, a second card to each seat, the hole
card), lets each seat hit or stand by a strategy table, and completes the dealer's hand by the drawing
rule — the same round as :func:`croupier.games.blackjack.simulate_rounds`, one round at a time in
numba instead of numpy over blocks.

A fresh shuffle costs only the cards dealt: a partial Fisher–Yates shuffle over the shoe array
(card *i* of the round is swapped in from a uniform position among those not yet dealt). The array
is not restored between rounds: a partial Fisher–Yates shuffle of *any* arrangement of the full shoe
deals a uniformly random sequence, so every round is an independent fresh shuffle.

A round is written as a *record*: the first seat's two cards, then the dealer's hand in dealing order
(upcard, hole card, every draw, the bust card included), padded with −1, and the dealer's card count.
Every Blackjack side wager reads a prefix of that record (Perfect Pairs the first two cards, Match
the Dealer three, Jackpot Party four, AxMan the two and the whole dealer hand), so a classifier
kernel per wager turns records into outcome positions — the same positions
:meth:`~croupier.wagers.base.Wager.classify_indices` gives.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from croupier.analysis.kernels.rng import below, below_half, next_u64

WIDTH = 24
"""Columns of a round record: two player cards and up to 22 dealer cards (a dealer hand cannot
exceed 13 cards: it stops at hard 17 and holds at most six aces while soft)."""

OUT_OF_CARDS = -1
"""Kernel status: a round needed more cards than the shoe holds."""
TOO_LONG = -2
"""Kernel status: a dealer hand longer than a record holds (cannot happen with a legal shoe)."""


def card_values() -> np.ndarray:
    """Blackjack value of each card index 0–51 (ace 1, ten to king 10)."""
    rank = np.arange(52) // 4  # 0 = deuce … 12 = ace
    return np.where(rank == 12, 1, np.minimum(rank + 2, 10)).astype(np.int64)


@njit(cache=True, nogil=True, inline="always")
def _take_two(shoe, i, state, shuffle):  # type: ignore[no-untyped-def]
    """Cards ``i`` and ``i + 1`` of the round (as two :func:`_take` calls), both positions drawn
    from the two halves of one 64-bit output when shuffling."""
    if not shuffle:
        return int(shoe[i]), int(shoe[i + 1])
    x = next_u64(state)
    j = i + below_half(state, int(x >> uint64(32)), shoe.size - i)
    c = shoe[j]
    shoe[j] = shoe[i]
    shoe[i] = c
    j = i + 1 + below_half(state, int(x & uint64(0xFFFFFFFF)), shoe.size - i - 1)
    c = shoe[j]
    shoe[j] = shoe[i + 1]
    shoe[i + 1] = c
    return int(shoe[i]), int(shoe[i + 1])


@njit(cache=True, nogil=True, inline="always")
def _take(shoe: np.ndarray, i: int, state: np.ndarray, shuffle: bool) -> int:
    """Card ``i`` of the round: swapped in from a uniform undealt position when shuffling, else the
    card the array already holds there (rounds given card by card)."""
    if shuffle:
        j = i + below(state, shoe.size - i)
        c = shoe[j]
        shoe[j] = shoe[i]
        shoe[i] = c
    return int(shoe[i])


@njit(cache=True, nogil=True, inline="always")
def _play(  # type: ignore[no-untyped-def]
    shoe,
    state,
    shuffle,
    values,
    seats,
    hit_table,
    hits_soft_17,
    peek,
    only_live,
    records,
    row,
    first,
    second,
):
    """Play one round from ``shoe`` into ``records[row]``; the dealer's card count, or a status
    < 0. Entries past the dealer's hand are left as they were."""
    n = shoe.size
    need = 2 * seats + 2
    if need > n:
        return OUT_OF_CARDS
    # the first 2·seats + 2 cards in dealing order: a card to each seat, the upcard, a second
    # card to each seat, the hole card (positions drawn two at a time)
    for k in range(0, need, 2):
        a, b = _take_two(shoe, k, state, shuffle)
        first[k] = a  # scratch: the initial cards in order
        first[k + 1] = b
    up = first[seats]
    hole = first[2 * seats + 1]
    for s in range(seats):
        second[s] = first[seats + 1 + s]
    i = need
    vu = values[up]
    vh = values[hole]
    dealer_bj = vu + vh == 11 and (vu == 1 or vh == 1)
    in_play = not (peek and dealer_bj)
    any_live = False
    for s in range(seats):
        v0 = values[first[s]]
        v1 = values[second[s]]
        hard = v0 + v1
        ace = v0 == 1 or v1 == 1
        natural = ace and hard == 11
        if in_play and not natural:
            while True:
                soft = ace and hard + 10 <= 21
                total = hard + 10 if soft else hard
                if total >= 21 or not hit_table[min(total, 31), 1 if soft else 0, vu]:
                    break
                if i >= n:
                    return OUT_OF_CARDS
                c = _take(shoe, i, state, shuffle)
                i += 1
                hard += values[c]
                if values[c] == 1:
                    ace = True
        if not natural and hard <= 21:
            any_live = True
    records[row, 0] = first[0]
    records[row, 1] = second[0]
    records[row, 2] = up
    records[row, 3] = hole
    length = 2
    hard = vu + vh
    ace = vu == 1 or vh == 1
    drawing = not dealer_bj
    if only_live and not any_live:
        drawing = False
    while drawing:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if not (total < 17 or (total == 17 and soft and hits_soft_17)):
            break
        if i >= n:
            return OUT_OF_CARDS
        if 2 + length >= records.shape[1]:
            return TOO_LONG
        c = _take(shoe, i, state, shuffle)
        i += 1
        records[row, 2 + length] = c
        length += 1
        hard += values[c]
        if values[c] == 1:
            ace = True
    return length


@njit(cache=True, nogil=True)
def deal_rounds(  # type: ignore[no-untyped-def]
    shoe, state, seats, hit_table, hits_soft_17, peek, only_live, records, lengths
):
    """Deal ``len(records)`` rounds, each from a fresh shuffle of ``shoe`` (card indices, shuffled in
    place) with the random stream ``state``, into ``records`` (int8, ``(n, WIDTH)``) and ``lengths``
    (the dealer's card count). Returns 0, or the status of the first round that failed."""
    values = np.empty(52, dtype=np.int64)
    for c in range(52):
        r = c // 4
        values[c] = 1 if r == 12 else min(r + 2, 10)
    first = np.empty(2 * seats + 2, dtype=np.int64)
    second = np.empty(seats, dtype=np.int64)
    for r in range(records.shape[0]):
        length = _play(
            shoe, state, True, values, seats, hit_table, hits_soft_17, peek, only_live,
            records, r, first, second,
        )  # fmt: skip
        if length < 0:
            return length
        lengths[r] = length
    return 0


@njit(cache=True, nogil=True)
def play_given(  # type: ignore[no-untyped-def]
    sequences, seats, hit_table, hits_soft_17, peek, only_live, records, lengths
):
    """Play one round from each row of ``sequences`` (the shoe's cards from the top, in order):
    the same round :func:`deal_rounds` plays, without the shuffle — for checking the engine
    against the scalar rules on given cards. Returns 0 or the first failing status."""
    values = np.empty(52, dtype=np.int64)
    for c in range(52):
        r = c // 4
        values[c] = 1 if r == 12 else min(r + 2, 10)
    first = np.empty(2 * seats + 2, dtype=np.int64)
    second = np.empty(seats, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    for r in range(sequences.shape[0]):
        shoe = sequences[r].copy()
        length = _play(
            shoe, state, False, values, seats, hit_table, hits_soft_17, peek, only_live,
            records, r, first, second,
        )  # fmt: skip
        if length < 0:
            return length
        lengths[r] = length
    return 0


# -- side wagers read from round records ------------------------------------------------------


@njit(cache=True, nogil=True)
def perfect_pairs(records, lengths, out):  # type: ignore[no-untyped-def]
    """§ 633b.1(a) on the first seat's two cards: 0 perfect, 1 colored, 2 mixed pair, 3 none."""
    for r in range(records.shape[0]):
        a = records[r, 0]
        b = records[r, 1]
        if a // 4 != b // 4:
            out[r] = 3
        elif a % 4 == b % 4:
            out[r] = 0
        elif (a % 4 == 1 or a % 4 == 2) == (b % 4 == 1 or b % 4 == 2):
            out[r] = 1
        else:
            out[r] = 2


@njit(cache=True, nogil=True)
def match_the_dealer(records, lengths, out):  # type: ignore[no-untyped-def]
    """§ 633b.3(a) on the first seat's two cards and the upcard (positions of
    :class:`~croupier.wagers.match_the_dealer.MatchTheDealerOutcome`, 6 for none)."""
    for r in range(records.shape[0]):
        p1 = records[r, 0]
        p2 = records[r, 1]
        up = records[r, 2]
        suited = (1 if p1 == up else 0) + (1 if p2 == up else 0)
        plain = (1 if p1 // 4 == up // 4 and p1 != up else 0) + (
            1 if p2 // 4 == up // 4 and p2 != up else 0
        )
        if suited == 2:
            out[r] = 0 if up == 51 else 1  # 51: the ace of spades
        elif suited == 1:
            out[r] = 2 if plain == 1 else 3
        elif plain == 2:
            out[r] = 4
        elif plain == 1:
            out[r] = 5
        else:
            out[r] = 6


@njit(cache=True, nogil=True)
def jackpot_party(records, lengths, out):  # type: ignore[no-untyped-def]
    """§ 633b.2(a), (i) on the first seat's two cards, the upcard and the hole card (positions of
    :class:`~croupier.wagers.jackpot_party.JackpotPartyOutcome`, 10 for none)."""
    rank = np.empty(4, dtype=np.int64)
    suit = np.empty(4, dtype=np.int64)
    for r in range(records.shape[0]):
        ru = records[r, 2] // 4 + 2
        rh = records[r, 3] // 4 + 2
        vu = 1 if ru == 14 else min(ru, 10)
        vh = 1 if rh == 14 else min(rh, 10)
        if not (vu + vh == 11 and (vu == 1 or vh == 1)):  # no dealer Blackjack: most rounds
            out[r] = 9 if ru == 14 else 10
            continue
        for k in range(4):
            c = records[r, k]
            rank[k] = c // 4 + 2
            suit[k] = c % 4
        one_suit = suit[0] == suit[1] and suit[1] == suit[2] and suit[2] == suit[3]
        most = 1
        lo = 99
        hi = 0
        lo_low = 99
        hi_low = 0
        for a in range(4):
            same = 0
            for b in range(4):
                if rank[a] == rank[b]:
                    same += 1
            most = max(most, same)
            lo = min(lo, rank[a])
            hi = max(hi, rank[a])
            x = 1 if rank[a] == 14 else rank[a]
            lo_low = min(lo_low, x)
            hi_low = max(hi_low, x)
        distinct = most == 1
        if distinct and lo == 11 and one_suit:  # J Q K A
            out[r] = 0 if suit[0] == 1 else 1
        elif most >= 3:
            out[r] = 2
        elif distinct and (hi - lo == 3 or hi_low - lo_low == 3) and not one_suit:
            out[r] = 3
        elif one_suit:
            out[r] = 4
        elif (
            (min(rank[0], 10) if rank[0] != 14 else 1) + (min(rank[1], 10) if rank[1] != 14 else 1)
            == 11
            and (rank[0] == 14 or rank[1] == 14)
            and min(rank[0], rank[1]) == min(rank[2], rank[3])
            and max(rank[0], rank[1]) == max(rank[2], rank[3])
        ):
            out[r] = 5
        elif all_one_color(suit):
            out[r] = 6
        elif most >= 2:
            out[r] = 7
        else:
            out[r] = 8


@njit(cache=True, nogil=True, inline="always")
def all_one_color(suit):  # type: ignore[no-untyped-def]
    """Whether every suit in ``suit`` is red (diamonds 1, hearts 2) or every one black."""
    red = suit[0] == 1 or suit[0] == 2
    for k in range(1, suit.size):  # noqa: SIM110 (numba: no generator expressions)
        if (suit[k] == 1 or suit[k] == 2) != red:
            return False
    return True

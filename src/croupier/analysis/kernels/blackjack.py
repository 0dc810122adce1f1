"""Whole Blackjack rounds in a compiled kernel, and the Blackjack side wagers read from them.

The round engine (:func:`deal_rounds`) deals each round from a freshly shuffled shoe in the regulated
order (58 Pa. Code § 633a.7: a card to each seat, the upcard, a second card to each seat, the hole
card), lets each seat hit or stand by a strategy table, and completes the dealer's hand by the drawing
rule — the same round as :func:`croupier.games.blackjack.simulate_rounds`, one round at a time in
numba instead of numpy over blocks.

A fresh shuffle costs little more than the cards dealt: a partial Fisher–Yates shuffle over the shoe
array (position *i* of the round is swapped with a uniform position among ``[i, n)``), six positions
at a time from one 64-bit output (:func:`~croupier.analysis.kernels.rng.three_below` on each half;
shuffling a few positions the round then leaves unused changes nothing). The array is not restored
between rounds: a partial Fisher–Yates shuffle of *any* arrangement of the full shoe deals a
uniformly random sequence, so every round is an independent fresh shuffle. The round's cards are
then the shoe array's first positions in dealing order.

A hand is played from two small tables (:func:`play_tables`: whether a seat hits, by hard total,
ace and upcard; whether the dealer draws): :data:`STEPS` draws without a branch per card (a hand
that stood takes the rest as no-ops), then card by card — a data-dependent branch per card costs
more than the card.

A round is read in one of two ways. :func:`deal_rounds` writes *records*: the first seat's two
cards, then the dealer's hand in dealing order (upcard, hole card, every draw, the bust card
included), and the dealer's card count; a classifier kernel per wager turns records into outcome
positions — the positions :meth:`~croupier.wagers.base.Wager.classify_indices` gives.
:func:`deal_count` deals the same rounds and reads each while it is dealt by the readers the plans
name (``READ_*``), adding to integer tallies: no records at all. Both call the same per-round
readers (:func:`pair_position` …), so the two give identical tallies from one stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from croupier.analysis.kernels.axman import KD, axman_position
from croupier.analysis.kernels.rng import (
    TRIPLE_MAX,
    below,
    below_half,
    next_u64,
    one_below,
    step,
    three_below,
)

WIDTH = 24
"""Columns of a round record: two player cards and up to 22 dealer cards (a dealer hand cannot
exceed 13 cards: it stops at hard 17 and holds at most six aces while soft)."""

_LOW32 = uint64(0xFFFFFFFF)

OUT_OF_CARDS = -1
"""Kernel status: a round needed more cards than the shoe holds."""
TOO_LONG = -2
"""Kernel status: a dealer hand longer than a record holds (cannot happen with a legal shoe)."""


_VALUES = np.array([1 if c // 4 == 12 else min(c // 4 + 2, 10) for c in range(52)], dtype=np.int64)
"""Blackjack value of each card index (a constant of the compiled kernels)."""


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
def _swap(shoe, i, j):  # type: ignore[no-untyped-def]
    c = shoe[j]
    shoe[j] = shoe[i]
    shoe[i] = c


@njit(cache=True, nogil=True, inline="always")
def _fill(shoe, ready, s0, s1, s2, s3):  # type: ignore[no-untyped-def]
    """Shuffle the positions from ``ready`` on into place (partial Fisher–Yates: position *i*
    swapped with a uniform one of ``[i, n)``): six at once from one 64-bit output (three bounded
    draws from each half), else — near the shoe's end, or in a shoe over ``TRIPLE_MAX`` cards —
    one. ``(new ready, s0, s1, s2, s3)``; the caller checks ``ready < shoe.size``."""
    left = shoe.size - ready
    x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
    if 6 <= left <= TRIPLE_MAX:
        a, b, c, s0, s1, s2, s3 = three_below(x >> uint64(32), left, s0, s1, s2, s3)
        _swap(shoe, ready, ready + a)
        _swap(shoe, ready + 1, ready + 1 + b)
        _swap(shoe, ready + 2, ready + 2 + c)
        a, b, c, s0, s1, s2, s3 = three_below(x & _LOW32, left - 3, s0, s1, s2, s3)
        _swap(shoe, ready + 3, ready + 3 + a)
        _swap(shoe, ready + 4, ready + 4 + b)
        _swap(shoe, ready + 5, ready + 5 + c)
        return ready + 6, s0, s1, s2, s3
    j, s0, s1, s2, s3 = one_below(x >> uint64(32), left, s0, s1, s2, s3)
    _swap(shoe, ready, ready + j)
    return ready + 1, s0, s1, s2, s3


STEPS = 3
"""Draws of a hand played without a branch per card (a hand standing earlier takes the rest as
no-ops): most hands draw fewer; a longer one goes on card by card."""


@njit(cache=True, nogil=True)
def play_tables(hit_table, hits_soft_17):  # type: ignore[no-untyped-def]
    """``(decide, dealer)``: ``decide[upcard value, hard total, has an ace]`` 1 when a seat hits
    (by ``hit_table[total, soft, upcard value]``, never at 21 or more) and ``dealer[hard total, has
    an ace]`` 1 when the dealer draws (under 17, or soft 17 when ``hits_soft_17``) — the hand's
    state is its hard total (an ace counted 1) and whether it holds an ace, for hard totals 0–47."""
    decide = np.zeros((11, 48, 2), dtype=np.int64)
    dealer = np.zeros((48, 2), dtype=np.int64)
    for h in range(48):
        for a in range(2):
            soft = a == 1 and h <= 11
            t = h + 10 if soft else h
            dealer[h, a] = 1 if (t < 17 or (t == 17 and soft and hits_soft_17)) else 0
            for u in range(1, 11):
                decide[u, h, a] = 1 if (t < 21 and hit_table[t, 1 if soft else 0, u]) else 0
    return decide, dealer


@njit(cache=True, nogil=True, inline="always")
def _round(shoe, values, ready, s0, s1, s2, s3, seats, decide, dealer, peek, only_live):  # type: ignore[no-untyped-def]
    """Play one round from ``shoe``, whose positions ``[0, ready)`` are already in place (all of
    them for given cards, none for a fresh shuffle). The round's cards are then the shoe's first
    positions in dealing order (§ 633a.7): seat *s*'s cards at ``s`` and ``seats + 1 + s``, the
    upcard at ``seats``, the hole card at ``2 seats + 1``, the seats' draws, then the dealer's
    from ``start``. ``(the dealer's card count or a status < 0, start, whether the dealer holds
    a Blackjack, s0, s1, s2, s3)``."""
    n = shoe.size
    need = 2 * seats + 2
    if need > n:
        return OUT_OF_CARDS, 0, False, s0, s1, s2, s3
    while ready < need + 6 and ready < n:
        ready, s0, s1, s2, s3 = _fill(shoe, ready, s0, s1, s2, s3)
    vu = values[shoe[seats]]
    vh = values[shoe[need - 1]]
    dealer_bj = vu + vh == 11 and (vu == 1 or vh == 1)
    in_play = not (peek and dealer_bj)
    i = need
    live = 0
    short = False
    for s in range(seats):
        v0 = values[shoe[s]]
        v1 = values[shoe[seats + 1 + s]]
        hard = v0 + v1
        ace = 1 if (v0 == 1 or v1 == 1) else 0
        natural = ace == 1 and hard == 11
        act = decide[vu, hard, ace] if (in_play and not natural) else 0
        if i + STEPS <= n:
            while i + STEPS > ready:
                ready, s0, s1, s2, s3 = _fill(shoe, ready, s0, s1, s2, s3)
            for _k in range(STEPS):
                v = values[shoe[i]]
                hard += v * act
                ace |= act & (1 if v == 1 else 0)
                i += act
                act = decide[vu, hard, ace] & act
        while act and i < n:
            if i >= ready:
                ready, s0, s1, s2, s3 = _fill(shoe, ready, s0, s1, s2, s3)
            v = values[shoe[i]]
            hard += v
            ace |= 1 if v == 1 else 0
            i += 1
            act = decide[vu, hard, ace]
        short |= act != 0
        live |= 1 if (not natural and hard <= 21) else 0
    hard = vu + vh
    ace = 1 if (vu == 1 or vh == 1) else 0
    act = dealer[hard, ace] if (not dealer_bj and (live or not only_live)) else 0
    start = i
    if i + STEPS <= n:
        while i + STEPS > ready:
            ready, s0, s1, s2, s3 = _fill(shoe, ready, s0, s1, s2, s3)
        for _k in range(STEPS):
            v = values[shoe[i]]
            hard += v * act
            ace |= act & (1 if v == 1 else 0)
            i += act
            act = dealer[hard, ace] & act
    while act and i < n:
        if i >= ready:
            ready, s0, s1, s2, s3 = _fill(shoe, ready, s0, s1, s2, s3)
        v = values[shoe[i]]
        hard += v
        ace |= 1 if v == 1 else 0
        i += 1
        act = dealer[hard, ace]
    short |= act != 0
    length = i - start + 2
    if short:
        length = OUT_OF_CARDS
    elif length > WIDTH - 2:
        length = TOO_LONG
    return length, start, dealer_bj, s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def _record(shoe, seats, length, start, records, r):  # type: ignore[no-untyped-def]
    """Write the round just played into ``records[r]``: the first seat's two cards, the dealer's."""
    records[r, 0] = shoe[0]
    records[r, 1] = shoe[seats + 1]
    records[r, 2] = shoe[seats]
    records[r, 3] = shoe[2 * seats + 1]
    for k in range(length - 2):
        records[r, 4 + k] = shoe[start + k]


@njit(cache=True, nogil=True)
def deal_rounds(  # type: ignore[no-untyped-def]
    shoe, state, seats, hit_table, hits_soft_17, peek, only_live, records, lengths
):
    """Deal ``len(records)`` rounds, each from a fresh shuffle of ``shoe`` (card indices, shuffled in
    place) with the random stream ``state`` (advanced), into ``records`` (int8, ``(n, WIDTH)``)
    and ``lengths`` (the dealer's card count). Returns 0, or the status of the first round that
    failed. The same rounds as :func:`deal_count` deals from the same ``shoe`` and ``state``."""
    decide, dealer = play_tables(hit_table, hits_soft_17)
    values = _VALUES.copy()
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    status = 0
    for r in range(records.shape[0]):
        length, start, _, s0, s1, s2, s3 = _round(
            shoe, values, 0, s0, s1, s2, s3, seats, decide, dealer, peek, only_live
        )
        if length < 0:
            status = length
            break
        _record(shoe, seats, length, start, records, r)
        lengths[r] = length
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return status


@njit(cache=True, nogil=True)
def play_given(  # type: ignore[no-untyped-def]
    sequences, seats, hit_table, hits_soft_17, peek, only_live, records, lengths
):
    """Play one round from each row of ``sequences`` (the shoe's cards from the top, in order):
    the same round :func:`deal_rounds` plays, without the shuffle — for checking the engine
    against the scalar rules on given cards. Returns 0 or the first failing status."""
    decide, dealer = play_tables(hit_table, hits_soft_17)
    values = _VALUES.copy()
    zero = uint64(0)
    for r in range(sequences.shape[0]):
        shoe = sequences[r].copy()
        length, start, _, _, _, _, _ = _round(
            shoe, values, shoe.size, zero, zero, zero, zero, seats, decide, dealer, peek, only_live
        )
        if length < 0:
            return length
        _record(shoe, seats, length, start, records, r)
        lengths[r] = length
    return 0


READ_PAIRS = 1
"""Reader code of :func:`pair_position` (no arguments)."""
READ_MATCH = 2
"""Reader code of :func:`match_position` (no arguments)."""
READ_PARTY = 3
"""Reader code of :func:`party_position` (no arguments)."""
READ_AXMAN = 4
"""Reader code of :func:`~croupier.analysis.kernels.axman.axman_position` (arguments: whether a
wild card is always kept in the five highest, whether it takes any suit)."""
READERS = 3
"""Columns of a reader row: the code, then up to two integer arguments."""


@njit(cache=True, nogil=True)
def deal_count(  # type: ignore[no-untyped-def]
    shoe, state, seats, hit_table, hits_soft_17, peek, only_live, rounds, readers, tallies
):
    """Deal ``rounds`` rounds — the rounds :func:`deal_rounds` deals from the same ``shoe`` and
    ``state`` (advanced) — and read each while it is dealt: reader ``k`` (row ``readers[k]``: a
    ``READ_*`` code and its arguments) adds 1 to ``tallies[k, position]`` for each round's
    outcome position. No records are written. Returns 0, or the status of the round that failed
    (the tallies then hold the rounds before it)."""
    decide, dealer = play_tables(hit_table, hits_soft_17)
    values = _VALUES.copy()
    hand = np.empty(WIDTH - 2, dtype=np.int64)
    work = np.empty(WIDTH - 2, dtype=np.int64)
    pick = np.empty(5, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    status = 0
    for _ in range(rounds):
        length, start, _, s0, s1, s2, s3 = _round(
            shoe, values, 0, s0, s1, s2, s3, seats, decide, dealer, peek, only_live
        )
        if length < 0:
            status = length
            break
        p1 = shoe[0]
        p2 = shoe[seats + 1]
        up = shoe[seats]
        hole = shoe[2 * seats + 1]
        for k in range(readers.shape[0]):
            code = readers[k, 0]
            if code == READ_PAIRS:
                pos = pair_position(p1, p2)
            elif code == READ_MATCH:
                pos = match_position(p1, p2, up)
            elif code == READ_PARTY:
                pos = party_position(p1, p2, up, hole)
            else:
                hand[0] = up
                hand[1] = hole
                for j in range(length - 2):
                    hand[2 + j] = shoe[start + j]
                kings = (1 if p1 == KD else 0) + (1 if p2 == KD else 0)
                pos = axman_position(
                    hand, length, kings, readers[k, 1] == 1, readers[k, 2] == 1, work, pick, counts
                )
            tallies[k, pos] += 1
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return status


# -- side wagers read from a round ---------------------------------------------------------------
# Each reader gives one round's outcome position from the cards it reads; the record classifiers
# (``perfect_pairs`` …, for rounds dealt into records) and :func:`deal_count` (while dealing) both
# call them, so a wager is read by one piece of code either way.


@njit(cache=True, nogil=True, inline="always")
def pair_position(a, b):  # type: ignore[no-untyped-def]
    """§ 633b.1(a) on the first seat's two cards: 0 perfect, 1 colored, 2 mixed pair, 3 none."""
    if a // 4 != b // 4:
        return 3
    if a % 4 == b % 4:
        return 0
    if (a % 4 == 1 or a % 4 == 2) == (b % 4 == 1 or b % 4 == 2):
        return 1
    return 2


@njit(cache=True, nogil=True, inline="always")
def match_position(p1, p2, up):  # type: ignore[no-untyped-def]
    """§ 633b.3(a) on the first seat's two cards and the upcard (positions of
    :class:`~croupier.wagers.match_the_dealer.MatchTheDealerOutcome`, 6 for none)."""
    ru = up // 4
    if p1 // 4 != ru and p2 // 4 != ru:  # most rounds
        return 6
    suited = (1 if p1 == up else 0) + (1 if p2 == up else 0)
    plain = (1 if p1 // 4 == ru and p1 != up else 0) + (1 if p2 // 4 == ru and p2 != up else 0)
    if suited == 2:
        return 0 if up == 51 else 1  # 51: the ace of spades
    if suited == 1:
        return 2 if plain == 1 else 3
    if plain == 2:
        return 4
    return 5


@njit(cache=True, nogil=True, inline="always")
def party_position(p1, p2, up, hole):  # type: ignore[no-untyped-def]
    """§ 633b.2(a), (i) on the first seat's two cards, the upcard and the hole card (positions of
    :class:`~croupier.wagers.jackpot_party.JackpotPartyOutcome`, 10 for none)."""
    ru = up // 4 + 2
    rh = hole // 4 + 2
    vu = 1 if ru == 14 else min(ru, 10)
    vh = 1 if rh == 14 else min(rh, 10)
    if not (vu + vh == 11 and (vu == 1 or vh == 1)):  # no dealer Blackjack: most rounds
        return 9 if ru == 14 else 10
    return _party_blackjack(p1, p2, up, hole)


@njit(cache=True, nogil=True)
def _party_blackjack(p1, p2, up, hole):  # type: ignore[no-untyped-def]
    """:func:`party_position` when the dealer holds a Blackjack."""
    r0, r1, r2, r3 = p1 // 4 + 2, p2 // 4 + 2, up // 4 + 2, hole // 4 + 2
    s0, s1, s2, s3 = p1 % 4, p2 % 4, up % 4, hole % 4
    one_suit = s0 == s1 and s1 == s2 and s2 == s3
    e01, e02, e03 = r0 == r1, r0 == r2, r0 == r3
    e12, e13, e23 = r1 == r2, r1 == r3, r2 == r3
    most = max(1 + e01 + e02 + e03, 1 + e01 + e12 + e13, 1 + e02 + e12 + e23, 1 + e03 + e13 + e23)
    lo = min(min(r0, r1), min(r2, r3))
    hi = max(max(r0, r1), max(r2, r3))
    l0 = 1 if r0 == 14 else r0  # the ace low
    l1 = 1 if r1 == 14 else r1
    l2 = 1 if r2 == 14 else r2
    l3 = 1 if r3 == 14 else r3
    lo_low = min(min(l0, l1), min(l2, l3))
    hi_low = max(max(l0, l1), max(l2, l3))
    distinct = most == 1
    red = s0 == 1 or s0 == 2
    one_color = (
        (s1 == 1 or s1 == 2) == red and (s2 == 1 or s2 == 2) == red and (s3 == 1 or s3 == 2) == red
    )
    if distinct and lo == 11 and one_suit:  # J Q K A
        return 0 if s0 == 1 else 1
    if most >= 3:
        return 2
    if distinct and (hi - lo == 3 or hi_low - lo_low == 3) and not one_suit:
        return 3
    if one_suit:
        return 4
    if (
        ((r0 == 14 and 10 <= r1 <= 13) or (r1 == 14 and 10 <= r0 <= 13))  # a Blackjack
        and min(r0, r1) == min(r2, r3)
        and max(r0, r1) == max(r2, r3)
    ):
        return 5
    if one_color:
        return 6
    if most >= 2:
        return 7
    return 8


@njit(cache=True, nogil=True)
def perfect_pairs(records, lengths, out):  # type: ignore[no-untyped-def]
    """:func:`pair_position` of each record."""
    for r in range(records.shape[0]):
        out[r] = pair_position(records[r, 0], records[r, 1])


@njit(cache=True, nogil=True)
def match_the_dealer(records, lengths, out):  # type: ignore[no-untyped-def]
    """:func:`match_position` of each record."""
    for r in range(records.shape[0]):
        out[r] = match_position(records[r, 0], records[r, 1], records[r, 2])


@njit(cache=True, nogil=True)
def jackpot_party(records, lengths, out):  # type: ignore[no-untyped-def]
    """:func:`party_position` of each record."""
    for r in range(records.shape[0]):
        out[r] = party_position(records[r, 0], records[r, 1], records[r, 2], records[r, 3])

"""Baccarat coups in a compiled kernel, and every Baccarat wager (the 5 Treasures included) read
from them.

Each coup is dealt from a freshly shuffled shoe (a partial Fisher–Yates shuffle, as in
:mod:`croupier.analysis.kernels.blackjack`): Player, Banker, Player, Banker, then the third cards the
drawing rules of 58 Pa. Code § 631a.11 call for — the Banker's from the table
:data:`croupier.games.baccarat.BANKER_DRAW_TABLE`, not re-stated here. A record holds the coup's
cards in dealing order (four to six) and their number.

Every Baccarat wager settles on the coup's summary (each hand's points and card count, 400 of
them, :class:`~croupier.games.baccarat.CoupSummary`), so one classifier serves them all: the coup's
summary index looked up in the wager's own
:meth:`~croupier.wagers.baccarat.BaccaratWager.summary_positions`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from croupier.analysis.kernels.blackjack import _take, _take_two

WIDTH = 6
"""Columns of a coup record: at most six cards."""
PLAYER_STOOD = 10
"""The Banker table's column for a Player who stood (as in :mod:`croupier.games.baccarat`)."""


@njit(cache=True, nogil=True, inline="always")
def _coup(shoe, state, shuffle, values, banker_table, records, row):  # type: ignore[no-untyped-def]
    """Deal one coup from ``shoe`` into ``records[row]``; the number of cards it used."""
    for k in range(0, 4, 2):
        a, b = _take_two(shoe, k, state, shuffle)
        records[row, k] = a
        records[row, k + 1] = b
    p2 = (values[records[row, 0]] + values[records[row, 2]]) % 10
    b2 = (values[records[row, 1]] + values[records[row, 3]]) % 10
    if p2 >= 8 or b2 >= 8:  # a natural: both stand
        return 4
    used = 4
    third = PLAYER_STOOD
    if p2 <= 5:
        c = _take(shoe, used, state, shuffle)
        records[row, used] = c
        used += 1
        third = values[c]
    if banker_table[b2, third]:
        records[row, used] = _take(shoe, used, state, shuffle)
        used += 1
    return used


@njit(cache=True, nogil=True)
def deal_coups(shoe, state, banker_table, records, lengths):  # type: ignore[no-untyped-def]
    """Deal ``len(records)`` coups, each from a fresh shuffle of ``shoe`` (card indices, shuffled
    in place) with the random stream ``state``. Returns 0, or −1 for a shoe under six cards."""
    if shoe.size < WIDTH:
        return -1
    values = _values()
    for r in range(records.shape[0]):
        lengths[r] = _coup(shoe, state, True, values, banker_table, records, r)
    return 0


@njit(cache=True, nogil=True)
def play_given(sequences, banker_table, records, lengths):  # type: ignore[no-untyped-def]
    """Play one coup from each row of ``sequences`` (six cards from the top of the shoe, in order),
    the same code as :func:`deal_coups` without the shuffle — for checking it on given cards."""
    values = _values()
    state = np.zeros(4, dtype=np.uint64)
    for r in range(sequences.shape[0]):
        shoe = sequences[r].copy()
        lengths[r] = _coup(shoe, state, False, values, banker_table, records, r)
    return 0


@njit(cache=True, nogil=True)
def _values():  # type: ignore[no-untyped-def]
    """Baccarat point value of each card index 0–51: ace 1, 2–9 face value, tens and courts 0."""
    values = np.empty(52, dtype=np.int64)
    for c in range(52):
        rank = c // 4 + 2
        values[c] = 1 if rank == 14 else (rank if rank <= 9 else 0)
    return values


@njit(cache=True, nogil=True)
def summary_positions(records, lengths, out, positions):  # type: ignore[no-untyped-def]
    """Each coup's outcome position: its summary index
    ``((player points · 10 + banker points) · 2 + player cards − 2) · 2 + banker cards − 2``
    looked up in ``positions`` (the wager's 400 summary positions)."""
    values = _values()
    for r in range(records.shape[0]):
        n = lengths[r]
        p = values[records[r, 0]] + values[records[r, 2]]
        b = values[records[r, 1]] + values[records[r, 3]]
        pn = 2
        bn = 2
        if n >= 5:  # no natural (a natural ends the coup at four cards)
            if p % 10 <= 5:  # the Player drew the fifth card
                p += values[records[r, 4]]
                pn = 3
                if n == 6:
                    b += values[records[r, 5]]
                    bn = 3
            else:  # the Player stood: the fifth card is the Banker's
                b += values[records[r, 4]]
                bn = 3
        out[r] = positions[(((p % 10) * 10 + b % 10) * 2 + pn - 2) * 2 + bn - 2]

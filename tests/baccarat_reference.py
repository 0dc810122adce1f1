"""A second, independent way to count Baccarat coups, for the tests.

:func:`tree_counts` walks each coup card by card, drawing only the cards the coup needs under the
drawing rules typed here from the printed § 631a.11 table (shared/regulations/base-games.md), each
path weighted by the physical cards it could be and by (N−k)!/(N−6)! for the unused positions of
the six-card convention. The library instead enumerates six-card value multisets.
"""

from __future__ import annotations

from collections import Counter
from math import prod

# § 631a.11 as printed: Banker 3–6 after a Player draw, by the Player's third card 0–9.
PRINTED_TABLE = {3: "DDDDDDDDSD", 4: "SSDDDDDDSS", 5: "SSSSDDDDSS", 6: "SSSSSSDDSS"}

Key = tuple[int, int, int, int]  # player total, banker total, player cards, banker cards


def _banker_draws(total: int, third: int | None) -> bool:
    if third is None:
        return total <= 5
    if total <= 2:
        return True
    if total >= 7:
        return False
    return PRINTED_TABLE[total][third] == "D"


def tree_counts(values: tuple[int, ...]) -> Counter[Key]:
    """Second method (see the module docstring)."""
    n = list(values)
    size = sum(n)

    def fill(used: int) -> int:  # ways to fill the unused positions of six
        return prod(range(size - 5, size - used + 1))

    out: Counter[Key] = Counter()
    for p1 in range(10):
        w1 = n[p1]
        if not w1:
            continue
        n[p1] -= 1
        for b1 in range(10):
            w2 = w1 * n[b1]
            if not w2:
                continue
            n[b1] -= 1
            for p2 in range(10):
                w3 = w2 * n[p2]
                if not w3:
                    continue
                n[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * n[b2]
                    if not w4:
                        continue
                    n[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if pt >= 8 or bt >= 8 or (pt >= 6 and bt >= 6):
                        out[(pt, bt, 2, 2)] += w4 * fill(4)
                    elif pt >= 6:  # Player stands, Banker (0–5) draws
                        for b3 in range(10):
                            if n[b3]:
                                out[(pt, (bt + b3) % 10, 2, 3)] += w4 * n[b3] * fill(5)
                    else:
                        for p3 in range(10):
                            w5 = w4 * n[p3]
                            if not w5:
                                continue
                            n[p3] -= 1
                            pt3 = (pt + p3) % 10
                            if _banker_draws(bt, p3):
                                for b3 in range(10):
                                    if n[b3]:
                                        out[(pt3, (bt + b3) % 10, 3, 3)] += w5 * n[b3] * fill(6)
                            else:
                                out[(pt3, bt, 3, 2)] += w5 * fill(5)
                            n[p3] += 1
                    n[b2] += 1
                n[p2] += 1
            n[b1] += 1
        n[p1] += 1
    return out

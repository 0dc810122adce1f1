"""Exact outcome counts over a finite shoe.

Counting convention (stated in every par sheet): the cards a wager reads are dealt from the top of a
shoe of the given composition. Every physical card is distinct (the six A♠ of a six-deck shoe are six
cards), cards within an *unordered* group (the player's two cards) are counted as a set, and cards
in an *ordered* group or in different groups (the dealer's upcard) keep their position. So the
Perfect Pairs total for 8 decks is C(416, 2) = 86,320 two-card hands, and the Match the Dealer total
is C(415, 2) × 416 (the upcard is any of 416 cards, the player's pair any two of the other 415 —
the same number whichever is dealt first).

Counts are Python ints. The enumeration walks the 52 card *types* with their multiplicities, so
its cost does not grow with the deck count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import prod

from croupier.analysis.precomputed import class_default, lookup
from croupier.cards import DECK, Card, Shoe
from croupier.errors import ShoeError
from croupier.wagers.base import Wager


@dataclass(frozen=True)
class OutcomeCounts:
    """Exact counts of a wager's outcomes over one shoe.

    ``counts[i]`` counts the deals classified as the outcome at position ``i`` of the wager's outcome
    enum; the last entry counts deals with no winning combination. ``total`` is their sum.
    """

    counts: tuple[int, ...]
    total: int
    convention: str


def convention(wager: Wager, shoe: Shoe) -> str:
    """The counting convention in words, with the total for this shoe."""
    parts = []
    for g in wager.deal.groups:
        parts.append(f"{g.name} ({'ordered' if g.ordered else 'unordered'})")
    return (
        f"every deal of {' + '.join(parts)} from {_article(str(shoe))} {shoe} "
        f"({shoe.total} cards), "
        "each physical card distinct"
    )


def _article(word: str) -> str:
    return "an" if word[:1] in "8aeiou" or word.startswith(("11-", "18-")) else "a"


def total_deals(wager: Wager, shoe: Shoe) -> int:
    """How many deals the convention counts: N!/(N−k)! divided by k! for each unordered group.

    >>> from croupier.wagers import get_wager
    >>> total_deals(get_wager("perfect-pairs"), Shoe.standard(8))
    86320
    """
    n, k = shoe.total, wager.deal.size
    ordered = prod(range(n - k + 1, n + 1))
    return ordered // wager.deal.unordered_symmetry


def exact_counts(wager: Wager, shoe: Shoe) -> OutcomeCounts:
    """Exact integer count of each outcome over every deal from ``shoe``.

    Raises :class:`~croupier.errors.ShoeError` when the shoe holds fewer cards than the wager reads.
    Results are cached per wager class and composition; for a built-in wager over a standard shoe
    they are read from :mod:`croupier.analysis.precomputed` while its code is unchanged.
    """
    if shoe.total < wager.deal.size:
        raise ShoeError(
            f"a {shoe} cannot deal the {wager.deal.size} cards the {wager.name} wager reads"
        )
    counts = _cached_counts(type(wager), shoe.counts)
    # the stored statement is the class's own; a wager set up otherwise states (or refuses) its own
    stored = lookup(type(wager), shoe.counts) if class_default(wager) else None
    own = stored.convention if stored is not None else wager.counting_convention(shoe)
    return OutcomeCounts(counts, sum(counts), own or convention(wager, shoe))


@lru_cache(maxsize=256)
def _cached_counts(wager_type: type[Wager], composition: tuple[int, ...]) -> tuple[int, ...]:
    stored = lookup(wager_type, composition)
    return stored.counts if stored is not None else compute_counts(wager_type, composition)


def compute_counts(wager_type: type[Wager], composition: tuple[int, ...]) -> tuple[int, ...]:
    """The count of each outcome of ``wager_type`` (then of no winning combination) over every
    deal from the shoe ``composition``, counted now: the wager's own exact count, else every
    deal of the cards it reads. (:func:`exact_counts` reads the counts shipped for standard
    shoes, :mod:`croupier.analysis.precomputed`, while the code they came from is unchanged.)"""
    wager = wager_type()
    own = wager.count_exact(Shoe(composition))
    if own is not None:
        return own
    k = wager.deal.size
    outcomes = list(wager.outcomes)
    losing = len(outcomes)
    tallies = [0] * (losing + 1)
    remaining = list(composition)
    dealt: list[Card] = [DECK[0]] * k
    classify = wager.classify
    present = [i for i, n in enumerate(composition) if n]

    def deal(position: int, weight: int) -> None:
        if position == k:
            outcome = classify(dealt)
            tallies[losing if outcome is None else outcome.position] += weight
            return
        for i in present:
            n = remaining[i]
            if n:
                remaining[i] = n - 1
                dealt[position] = DECK[i]
                deal(position + 1, weight * n)
                remaining[i] = n
        return

    deal(0, 1)
    symmetry = wager.deal.unordered_symmetry
    if any(t % symmetry for t in tallies):  # pragma: no cover - a wager broke its own symmetry
        raise AssertionError(f"{wager.id}: classification depends on order within a group")
    return tuple(t // symmetry for t in tallies)

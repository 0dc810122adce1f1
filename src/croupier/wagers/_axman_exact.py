"""Exact AxMan analysis (58 Pa. Code § 633c.12) from the dealer's final-hand distribution.

The dealer's drawing depends only on card values, and the AxMan hand only on ranks, on the number of
kings of diamonds (wild) and on whether the five cards read can be of one suit. So the dealer
recursion (:func:`croupier.games.blackjack.final_hand_weights`) runs over 14 card types — the 13
ranks with the king of diamonds split from the other kings — and the suits are counted afterwards:
given the ranks of a final hand, the cards of each type are an ordered draw without replacement from
that type's cards in the shoe, independently across types, so the number of physical deals in which
every card read is (say) a spade is a product over types of falling factorials. A flush read in one
suit excludes the others (at least three natural cards are read), so the flush deals of the four
suits are disjoint and are moved, where they pay more, from the hand's non-flush reading.

The player's two cards enter through Bayes' rule: dealing the player's pair and then the dealer's
hand has the same probability as dealing the dealer's hand and then the pair from what is left, so
the K♦ multiplier and the removal of the player's cards are exact without enumerating pairs.
Players' hits between the deal and the dealer's draw change nothing either: the cards they take are
random, and the chance of any dealer hand from the rest of the shoe is a martingale as cards are
removed at random (checked by the whole-round simulation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, perm

from croupier.cards import DECK, Card, Rank, Shoe, Suit
from croupier.errors import CroupierError, ShoeError
from croupier.games.blackjack import CardTypes, card_value, falling, final_hand_weights
from croupier.poker import WildSuit
from croupier.wagers._axman_hands import (
    KING_OF_DIAMONDS,
    AxManHand,
    AxManOutcome,
    AxManReading,
    WildInFiveHighest,
    axman_hand,
    better,
    outcome_position,
)

KD = 13
"""The type of the king of diamonds (wild)."""

KINGS = Rank.KING.index
"""The type of the other kings (clubs, hearts, spades)."""

AXMAN_TYPES = CardTypes(
    "axman",
    tuple(KD if c == KING_OF_DIAMONDS else c.rank.index for c in DECK),
    (*tuple(card_value(Card(r, Suit.CLUBS)) for r in Rank), 10),
    (*tuple(r.letter for r in Rank), "K♦"),
)
"""The 13 ranks, the king of diamonds split from the other kings (type 13)."""

_RANK_OF_TYPE = (*tuple(range(13)), KINGS)


def _groups(reading: AxManReading) -> tuple[tuple[int, ...], ...]:
    """Types grouped by how § 633c.12(f) ranks them for the five highest, highest first."""
    if reading.five_highest is WildInFiveHighest.ALWAYS_KEPT:
        return ((KD,), *tuple((r,) for r in range(12, -1, -1)))
    return tuple((r, KD) if r == KINGS else (r,) for r in range(12, -1, -1))


def _suit_counts(shoe: Shoe) -> tuple[tuple[int, ...], ...]:
    """Cards available per type and suit."""
    out = [[0, 0, 0, 0] for _ in range(14)]
    for i, n in enumerate(shoe.counts):
        c = DECK[i]
        out[AXMAN_TYPES.of_card[i]][c.suit.value] += n
    return tuple(tuple(x) for x in out)


def _compatible(t: int, card_suit: int, flush_suit: int, reading: AxManReading) -> bool:
    if t == KD and reading.wild_suit is WildSuit.ANY_SUIT:
        return True
    return card_suit == flush_suit


def _compat_distribution(
    t: int,
    drawn: int,
    fixed_suits: Sequence[int],
    avail: Sequence[int],
    flush_suit: int,
    reading: AxManReading,
) -> list[int]:
    """Ordered deals of ``drawn`` cards of type ``t`` (plus its fixed cards), by how many of all its
    cards fit the flush suit: entry i counts deals with exactly i fitting cards."""
    fixed_fit = sum(1 for s in fixed_suits if _compatible(t, s, flush_suit, reading))
    fit = sum(avail[s] for s in range(4) if _compatible(t, s, flush_suit, reading))
    other = sum(avail) - fit
    out = [0] * (fixed_fit + drawn + 1)
    for i in range(drawn + 1):
        out[fixed_fit + i] = comb(drawn, i) * falling(fit, i) * falling(other, drawn - i)
    return out


@dataclass(frozen=True)
class _Selection:
    """The five highest of a hand (§ 633c.12(f)): whole types, and the cut group of which only
    ``take`` cards are read."""

    full: tuple[int, ...]
    cut: tuple[int, ...]
    take: int
    discarded: tuple[int, ...]


def _select(k: Sequence[int], reading: AxManReading) -> _Selection:
    if sum(k) <= 5:
        return _Selection(tuple(t for t in range(14) if k[t]), (), 0, ())
    room = 5
    full: list[int] = []
    cut: tuple[int, ...] = ()
    take = 0
    discarded: list[int] = []
    for group in _groups(reading):
        g = sum(k[t] for t in group)
        if g == 0:
            continue
        if room == 0:
            discarded.extend(t for t in group if k[t])
        elif g <= room:
            full.extend(t for t in group if k[t])
            room -= g
        else:
            cut = tuple(t for t in group if k[t])
            take = room
            room = 0
    return _Selection(tuple(full), cut, take, tuple(discarded))


def _reading_counts(
    k: Sequence[int], sel: _Selection, cut_wilds_usable: int
) -> tuple[tuple[int, ...], int]:
    """Natural rank counts and wild count of the five read, using up to ``cut_wilds_usable`` wild
    cards at the cut."""
    counts = [0] * 13
    wilds = 0
    for t in sel.full:
        if t == KD:
            wilds += k[t]
        else:
            counts[_RANK_OF_TYPE[t]] += k[t]
    if sel.cut:
        w = min(cut_wilds_usable, sel.take)
        wilds += w
        naturals = sel.take - w
        if naturals:
            counts[_RANK_OF_TYPE[next(t for t in sel.cut if t != KD)]] += naturals
    return tuple(counts), wilds


@lru_cache(maxsize=64)
def _suit_classes(
    avail: Sequence[Sequence[int]], fixed_suits: tuple[int, ...]
) -> tuple[tuple[int, int], ...]:
    """The flush suits of :func:`hand_split` as (a suit, how many suits are alike): suits whose
    cards left of every type, diamond-ness (the wild king's suit) and fixed cards match give the
    same flush deals, so one is counted for all (clubs, hearts and spades of a full shoe).
    ``avail`` must be hashable (the callers' tuples)."""
    classes: dict[tuple[object, ...], list[int]] = {}
    for s in range(4):
        key = (
            tuple(a[s] for a in avail),
            s == Suit.DIAMONDS.value,
            tuple(f == s for f in fixed_suits),
        )
        classes.setdefault(key, []).append(s)
    return tuple((alike[0], len(alike)) for alike in classes.values())


def hand_split(
    drawn: Sequence[int],
    fixed: Sequence[tuple[int, int]],
    avail: Sequence[Sequence[int]],
    reading: AxManReading,
) -> list[tuple[AxManHand | None, int]]:
    """Split the ordered physical deals of one final hand into AxMan readings.

    ``drawn[t]`` cards of type ``t`` were drawn from ``avail[t][suit]`` cards; ``fixed`` lists the
    (type, suit) of cards already in the hand (the upcard). Returns (hand, deals) pairs whose deals
    add up to every ordered way to draw ``drawn``.
    """
    k = list(drawn)
    fixed_by_type: dict[int, list[int]] = {}
    for t, s in fixed:
        k[t] += 1
        fixed_by_type.setdefault(t, []).append(s)
    total = 1
    for t in range(14):
        if drawn[t]:
            total *= falling(sum(avail[t]), drawn[t])
    sel = _select(k, reading)
    kd_at_cut = k[KD] if KD in sel.cut else 0
    counts0, wilds0 = _reading_counts(k, sel, kd_at_cut)
    base = axman_hand(counts0, wilds0, False)
    if min(sum(k), 5) < 5 or total == 0:
        return [(base, total)]
    moved: list[tuple[AxManHand | None, int]] = []
    naturals_read = sum(counts0)
    suits = _suit_classes(avail, tuple(s for _, s in fixed))
    if naturals_read == 0 and reading.wild_suit is WildSuit.ANY_SUIT:
        suits = ((0, 1),)  # every card read is wild: one flush, not four
    # two suits can both give a flush only when no natural card is read whole and the cut rank
    # holds enough cards for two disjoint choices; then the flush must not pay more than the base
    overlap = not any(t != KD for t in sel.full) and 2 * sel.take <= sum(
        k[t] for t in sel.cut if t != KD
    )
    for s, alike in suits:
        deals = alike
        for t in sel.full:
            if t in fixed_by_type:
                dist = _compat_distribution(t, drawn[t], fixed_by_type[t], avail[t], s, reading)
                deals *= dist[k[t]] if k[t] < len(dist) else 0
            elif t == KD and reading.wild_suit is WildSuit.ANY_SUIT:
                deals *= perm(sum(avail[t]), drawn[t])
            else:
                fit = avail[t][s]
                deals *= perm(fit, drawn[t]) if drawn[t] <= fit else 0
            if not deals:
                break
        if deals and sel.cut:
            conv = [1]
            for t in sel.cut:
                dist = _compat_distribution(
                    t, drawn[t], fixed_by_type.get(t, ()), avail[t], s, reading
                )
                new = [0] * (len(conv) + len(dist) - 1)
                for i, a in enumerate(conv):
                    if a:
                        for j, b in enumerate(dist):
                            new[i + j] += a * b
                conv = new
            deals *= sum(conv[sel.take :])
        if not deals:
            continue
        for t in sel.discarded:
            deals *= falling(sum(avail[t]), drawn[t])
        fit_wilds = 0
        if KD in sel.cut and _compatible(KD, Suit.DIAMONDS.value, s, reading):
            fit_wilds = k[KD]
        counts_s, wilds_s = _reading_counts(k, sel, fit_wilds)
        flush_hand = axman_hand(counts_s, wilds_s, True)
        if flush_hand != base and better(flush_hand, base) == flush_hand:
            if overlap:  # pragma: no cover - no dealer hand reads a flush two ways
                raise CroupierError("a flush could be read in two suits from one dealer hand")
            moved.append((flush_hand, deals))
    out = [(base, total - sum(d for _, d in moved))]
    out.extend(moved)
    return out


@dataclass(frozen=True)
class RoundCounts:
    """Exact AxMan counts for whole rounds from one shoe: :attr:`counts` per outcome position (the
    last entry the losing deals), their :attr:`total`, and the :attr:`convention` in words."""

    counts: tuple[int, ...]
    total: int
    longest_dealer_hand: int
    convention: str


@lru_cache(maxsize=32)
def round_counts(shoe: Shoe, hits_soft_17: bool, reading: AxManReading) -> RoundCounts:
    """Exact AxMan outcome counts over every deal of the player's two cards and the dealer's hand.

    Counting convention: the player's two cards are an unordered pair; the dealer's hand is counted
    in dealing order, and extended by the next cards of the shoe, in every order, to the longest
    final hand the shoe allows (K cards), so every deal counts in proportion to its probability; the
    total is C(N, 2) × (N − 2)!/(N − 2 − K)!. Raises :class:`ShoeError` when the shoe holds fewer
    than four cards.
    """
    n_cards = shoe.total
    if n_cards < 4:
        raise ShoeError(f"a {shoe} cannot deal the player's two cards and the dealer's hand")
    type_counts = AXMAN_TYPES.counts(shoe)
    avail = _suit_counts(shoe)
    weights = final_hand_weights(type_counts, AXMAN_TYPES.values, (0,) * 14, hits_soft_17)
    longest = max(sum(d) for d in weights)
    tallies = [0] * (len(AxManOutcome) + 1)
    by_hand: dict[AxManHand | None, list[int]] = {}  # deals by the player's kings of diamonds
    splits = _splits(avail, reading)
    kd_in_shoe = type_counts[KD]
    for drawn, weight in weights.items():
        k = sum(drawn)
        orderings, rest = divmod(weight, _physical(type_counts, drawn))
        if rest:  # pragma: no cover - the recursion's weights factor by type
            raise CroupierError("a dealer-hand weight does not factor by card type")
        left = n_cards - k
        kd_left = kd_in_shoe - drawn[KD]
        others = left - kd_left
        pairs = (comb(others, 2), kd_left * others, comb(kd_left, 2))
        pad = falling(left - 2, longest - k)
        split = splits.get(drawn)
        if split is None:
            split = splits[drawn] = hand_split(drawn, (), avail, reading)
        for hand, deals in split:
            if not deals:
                continue
            base = orderings * deals * pad
            acc = by_hand.setdefault(hand, [0, 0, 0])
            for kd, p in enumerate(pairs):
                acc[kd] += base * p
    for hand, acc in by_hand.items():
        for kd, n in enumerate(acc):
            if n:
                tallies[outcome_position(hand, kd)] += n
    total = comb(n_cards, 2) * falling(n_cards - 2, longest)
    if sum(tallies) != total:  # pragma: no cover - a broken split would show here
        raise CroupierError(f"AxMan counts add up to {sum(tallies)}, not {total}")
    convention = (
        f"every deal of the player's two cards (unordered) and the dealer's final hand (in order, "
        f"bust card included) from {_article(shoe)} {shoe} ({n_cards} cards), each physical card "
        f"distinct; a dealer hand of k cards stands for every order of the next {longest} − k "
        f"cards (the longest dealer hand here is {longest} cards), so deals count in proportion "
        f"to their probability: C({n_cards}, 2) × {n_cards - 2}!/{n_cards - 2 - longest}!"
    )
    return RoundCounts(tuple(tallies), total, longest, convention)


@lru_cache(maxsize=8)
def _splits(
    avail: tuple[tuple[int, ...], ...], reading: AxManReading
) -> dict[tuple[int, ...], list[tuple[AxManHand | None, int]]]:
    """The :func:`hand_split` of each final hand drawn from a shoe holding ``avail``, filled as
    :func:`round_counts` meets them: the dealer standing or hitting on soft 17 finishes mostly
    the same hands, and each is split once for both."""
    return {}


def _physical(type_counts: Sequence[int], drawn: Sequence[int]) -> int:
    """How many ways the shoe's physical cards deal the card types ``drawn`` in one order."""
    physical = 1
    for t in range(14):
        if drawn[t]:
            physical *= falling(type_counts[t], drawn[t])
    return physical


def _article(shoe: Shoe) -> str:
    return "an" if str(shoe)[:1] in "8aeiou" or str(shoe).startswith(("11-", "18-")) else "a"


def hand_distribution(
    shoe: Shoe,
    hits_soft_17: bool,
    reading: AxManReading,
    upcard: Card | None = None,
) -> dict[AxManHand | None, Fraction]:
    """The exact probability of each AxMan hand of the dealer's final hand (``None``: no win), the
    dealer drawing from ``shoe`` — already without the player's cards and anything else seen —
    holding ``upcard`` if given (it must still be in ``shoe``)."""
    start: tuple[int, ...] = (0,) * 14
    fixed: tuple[tuple[int, int], ...] = ()
    if upcard is not None:
        shoe = shoe.remove([upcard])
        t = AXMAN_TYPES.of_card[upcard.index]
        start = tuple(int(i == t) for i in range(14))
        fixed = ((t, upcard.suit.value),)
    type_counts = AXMAN_TYPES.counts(shoe)
    avail = _suit_counts(shoe)
    weights = final_hand_weights(type_counts, AXMAN_TYPES.values, start, hits_soft_17)
    out: dict[AxManHand | None, Fraction] = {}
    n = shoe.total
    for drawn, weight in weights.items():
        k = sum(drawn)
        orderings = weight // _physical(type_counts, drawn)
        denominator = falling(n, k)
        for hand, deals in hand_split(drawn, fixed, avail, reading):
            if deals:
                out[hand] = out.get(hand, Fraction(0)) + Fraction(orderings * deals, denominator)
    return out

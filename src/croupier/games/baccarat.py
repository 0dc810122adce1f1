"""Baccarat — 58 Pa. Code Chapter 631a: point counts, naturals, the drawing rules, coups.

What the regulation fixes (shared/regulations/base-games.md; how sure each fact is, in brackets):

* Point values: an ace counts 1, a 2–9 its face value, a 10, jack, queen or king 0; a hand's *point
  count* is the sum of its cards modulo 10 [industry].
* Dealing order (§ 631a.9): four cards from the shoe, the 1st and 3rd to the Player hand, the 2nd and
  4th to the Banker hand; the Player's third card, if any, before the Banker's (§ 631a.10)
  [PA-like, § 627a.8].
* A *natural* is a two-card point count of 8 or 9; a natural in either hand stops all drawing [PA].
* The Player draws on 0–5 and stands on 6–7. When the Player stood, the Banker draws on 0–5 and
  stands on 6–7; when the Player drew, the Banker follows the table of § 631a.11 (:func:`banker_draws`)
  [PA].
* The higher point count wins; equal point counts are a tie (§ 631a.12) [industry].

A *coup* is one round. croupier reads a coup from the cards in dealing order (four to six of them),
keeps the finished hands and which cards were drawn, and summarises it as a :class:`CoupSummary`
(each hand's point count and number of cards): everything the Player, Banker, Tie and 5 Treasures
wagers read. There are 400 summaries, numbered by :attr:`CoupSummary.index`.

Exact analysis uses the *six-card convention* of baccarat analysts: every coup consumes six cards,
a coup that used only k of them standing for the (N−k)!/(N−6)! ways to fill the unused positions,
so every ordered deal of six cards from an N-card shoe is counted once and the total is
N!/(N−6)! (4,998,398,275,503,360 for eight decks). :func:`coup_counts` computes the count of each
summary by enumerating value *multisets* of six cards (5,005 of them) with their multiplicities,
not card permutations.

>>> from croupier.cards import parse_cards
>>> coup = play_coup(parse_cards("4s Kh 2d 6c 9h"))   # Player 4+2: 6 stands; Banker 0+6: 6 stands
>>> coup.player.total, coup.banker.total, coup.winner.value
(6, 6, 'tie')
>>> coup = play_coup(parse_cards("Ah 3c 2d 4s 5h 8c"))  # Player 3 draws 5 → 8; Banker 7 stands
>>> coup.player.total, len(coup.banker.cards), coup.cards_used
(8, 2, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, cached_property, lru_cache
from math import prod
from typing import TYPE_CHECKING

from croupier.cards import DECK, Card, Rank, Shoe, format_cards
from croupier.errors import CroupierError, RulesError, ShoeError

if TYPE_CHECKING:  # numpy is imported by the vectorised kernels (start-up: a coup needs none)
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    VALUE_OF_INDEX: IntArray
    """Point value of each card index 0–51 (``Card.index``), for the vectorised kernels."""
    BANKER_DRAW_TABLE: npt.NDArray[np.bool_]
    """``[banker two-card total, player's third card value or 10 (stood)]`` → the Banker draws."""

COUP_SIZE = 6
"""The most cards a coup uses, and the cards each coup consumes under the six-card convention."""

SUMMARIES = 400
"""How many coup summaries there are: 10 × 10 point counts × 2 × 2 hand sizes."""


def rank_value(rank: Rank) -> int:
    """Baccarat point value of a rank: ace 1, 2–9 face value, ten and court cards 0 [industry]."""
    if rank is Rank.ACE:
        return 1
    return int(rank) if rank <= Rank.NINE else 0


def point_value(card: Card) -> int:
    """Baccarat point value of a card (see :func:`rank_value`)."""
    return rank_value(card.rank)


def point_count(cards: Iterable[Card]) -> int:
    """A hand's point count: the sum of its cards' values modulo 10.

    >>> from croupier.cards import parse_cards
    >>> [point_count(parse_cards(hand)) for hand in ("9h 7c", "Kd Qs", "5c 5d 9s")]
    [6, 0, 9]
    """
    return sum(point_value(c) for c in cards) % 10


@cache
def _value_of_index() -> IntArray:
    import numpy as np

    return np.array([rank_value(c.rank) for c in DECK], dtype=np.int64)


@cache
def _banker_draw_table() -> npt.NDArray[np.bool_]:
    import numpy as np

    return np.array(
        [
            [banker_draws(b, p3 if p3 < _PLAYER_STOOD else None) for p3 in range(11)]
            for b in range(10)
        ],
        dtype=np.bool_,
    )


_LAZY = {"VALUE_OF_INDEX": _value_of_index, "BANKER_DRAW_TABLE": _banker_draw_table}


def __getattr__(name: str) -> object:
    """``VALUE_OF_INDEX`` and ``BANKER_DRAW_TABLE``, numpy arrays built (and numpy imported) on
    first use (PEP 562)."""
    make = _LAZY.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return make()


def is_natural(two_card_total: int) -> bool:
    """A two-card point count of 8 or 9 is a natural, which stops all drawing (§ 631a.11)."""
    return two_card_total >= 8


def player_draws(two_card_total: int) -> bool:
    """58 Pa. Code § 631a.11: with no natural on either hand the Player draws on 0–5, stands on
    6–7 (8 and 9 are naturals)."""
    return two_card_total <= 5


def banker_draws(two_card_total: int, player_third: int | None) -> bool:
    """58 Pa. Code § 631a.11: whether the Banker draws a third card (no natural on either hand).

    ``player_third`` is the point value of the Player's third card, or ``None`` when the Player
    stood. When the Player stood the Banker draws on 0–5 and stands on 6–7. When the Player drew the
    Banker draws on 0–2, stands on 7, and on 3–6 draws according to the Player's third card:
    3 draws unless it is an 8; 4 draws on 2–7; 5 on 4–7; 6 on 6–7.

    >>> [banker_draws(3, v) for v in range(10)].count(False), banker_draws(6, 7), banker_draws(5, None)
    (1, True, True)
    """
    if player_third is None:
        return two_card_total <= 5
    if two_card_total <= 2:
        return True
    if two_card_total == 3:
        return player_third != 8
    if two_card_total == 4:
        return 2 <= player_third <= 7
    if two_card_total == 5:
        return 4 <= player_third <= 7
    if two_card_total == 6:
        return player_third in (6, 7)
    return False  # 7 stands; 8 and 9 are naturals


class Side(Enum):
    """The two hands of a coup."""

    PLAYER = "player"
    BANKER = "banker"


class Winner(Enum):
    """The result of a coup announced under § 631a.12: the hand with the higher point count, or a
    tie."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True)
class Hand:
    """A finished Player or Banker hand: its cards in the order dealt (two, or three with a draw)."""

    side: Side
    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        """The hand's point count (0–9)."""
        return point_count(self.cards)

    @property
    def size(self) -> int:
        """How many cards the hand holds: 2 or 3."""
        return len(self.cards)

    @property
    def two_card_total(self) -> int:
        """The point count of the first two cards."""
        return point_count(self.cards[:2])

    @property
    def natural(self) -> bool:
        """Whether the first two cards are a natural (8 or 9)."""
        return is_natural(self.two_card_total)

    @property
    def third_card(self) -> Card | None:
        """The card drawn, or ``None`` when the hand stood on two cards."""
        return self.cards[2] if len(self.cards) == 3 else None

    def describe(self) -> str:
        """e.g. ``'Player  Ah 6d 2c  9 (drew 2c)'``."""
        if self.third_card is not None:
            how = f"drew {self.third_card}"
        elif self.natural:
            how = "natural"
        else:
            how = "stood"
        return f"{self.side.value.title():6}  {format_cards(self.cards):9}  {self.total} ({how})"


@dataclass(frozen=True, order=True)
class CoupSummary:
    """What the Baccarat wagers and the 5 Treasures wagers read from a coup: each hand's point
    count and number of cards.

    >>> s = CoupSummary(player_total=8, banker_total=7, player_cards=3, banker_cards=2)
    >>> s.winner.value, CoupSummary.from_index(s.index) == s
    ('player', True)
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int

    def __post_init__(self) -> None:
        if not (0 <= self.player_total <= 9 and 0 <= self.banker_total <= 9):
            raise CroupierError(
                f"point counts lie in 0–9, not {self.player_total}/{self.banker_total}"
            )
        if self.player_cards not in (2, 3) or self.banker_cards not in (2, 3):
            raise CroupierError("a baccarat hand holds two or three cards")

    @property
    def winner(self) -> Winner:
        """The higher point count wins; equal counts tie (§ 631a.12)."""
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def index(self) -> int:
        """A number 0–399 for the summary (the row of :func:`coup_counts`)."""
        return summary_index(
            self.player_total, self.banker_total, self.player_cards, self.banker_cards
        )

    @staticmethod
    def from_index(index: int) -> CoupSummary:
        """The summary numbered ``index`` (inverse of :attr:`index`)."""
        if not 0 <= index < SUMMARIES:
            raise CroupierError(f"coup summary index {index} is outside 0–{SUMMARIES - 1}")
        rest, bn = divmod(index, 2)
        rest, pn = divmod(rest, 2)
        pt, bt = divmod(rest, 10)
        return CoupSummary(pt, bt, pn + 2, bn + 2)


def summary_index(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int
) -> int:
    """The index of a coup summary: ``((pt·10 + bt)·2 + pn−2)·2 + bn−2``."""
    return ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2


@dataclass(frozen=True)
class Coup:
    """A dealt coup: the finished Player and Banker hands (§ 631a.9–§ 631a.12).

    ``cards`` are the cards the coup used, in dealing order: Player, Banker, Player, Banker, then
    the Player's third card and the Banker's third card when drawn.
    """

    player: Hand
    banker: Hand
    cards: tuple[Card, ...]

    @cached_property
    def summary(self) -> CoupSummary:
        """Point counts and hand sizes: what the wagers read."""
        return CoupSummary(self.player.total, self.banker.total, self.player.size, self.banker.size)

    @property
    def winner(self) -> Winner:
        """The result of the coup (§ 631a.12)."""
        return self.summary.winner

    @property
    def natural(self) -> bool:
        """Whether either hand is a natural, which stopped all drawing."""
        return self.player.natural or self.banker.natural

    @property
    def cards_used(self) -> int:
        """How many cards the coup took from the shoe: 4, 5 or 6."""
        return len(self.cards)

    def describe(self) -> str:
        """The tableau and the result, one line per hand plus the result line."""
        p, b = self.player.total, self.banker.total
        if self.winner is Winner.TIE:
            result = f"Tie, {p} to {b}"
        elif self.winner is Winner.PLAYER:
            result = f"Player wins, {p} to {b}"
        else:
            result = f"Banker wins, {b} to {p}"
        return "\n".join((self.player.describe(), self.banker.describe(), result))


def play_coup(cards: Sequence[Card]) -> Coup:
    """Play one coup from ``cards`` in dealing order, reading only as many as the rules need.

    The first four cards go Player, Banker, Player, Banker (§ 631a.9); then the Player draws or
    stands and the Banker draws or stands under § 631a.11, third cards coming from the cards that
    follow (§ 631a.10). Cards after the last one the coup needs are ignored (this is how the
    six-card convention reads a six-card deal). Raises :class:`~croupier.errors.RulesError` citing
    the rule when fewer cards are given than the coup needs.
    """
    # a coup reads at most six cards: the same first six play the same coup (remembered, as the
    # table settles several wagers on one coup)
    return _play_coup(tuple(cards[:COUP_SIZE]))


@lru_cache(maxsize=256)
def _play_coup(cards: tuple[Card, ...]) -> Coup:
    if len(cards) < 4:
        raise RulesError(
            f"a coup starts with four cards, two to each hand; {len(cards)} given",
            section="631a.9",
        )
    p = [cards[0], cards[2]]
    b = [cards[1], cards[3]]
    used = 4
    p2, b2 = point_count(p), point_count(b)
    if not (is_natural(p2) or is_natural(b2)):
        player_third: int | None = None
        if player_draws(p2):
            if len(cards) <= used:
                raise RulesError(
                    f"the Player's two-card total of {p2} draws a third card, and none is given",
                    section="631a.11",
                )
            p.append(cards[used])
            player_third = point_value(cards[used])
            used += 1
        if banker_draws(b2, player_third):
            if len(cards) <= used:
                why = (
                    f"with the Player's third card a {player_third}"
                    if player_third is not None
                    else "with the Player standing"
                )
                raise RulesError(
                    f"the Banker's two-card total of {b2} draws a third card {why}, "
                    "and none is given",
                    section="631a.11",
                )
            b.append(cards[used])
            used += 1
    return Coup(Hand(Side.PLAYER, tuple(p)), Hand(Side.BANKER, tuple(b)), tuple(cards[:used]))


def deal_coup(cards: Sequence[Card]) -> Coup:
    """:func:`play_coup`, insisting that ``cards`` are exactly the cards the coup uses.

    A dealt round given as cards must not carry cards the rules would not have dealt: extra cards
    are a :class:`~croupier.errors.RulesError` citing § 631a.11 (or § 631a.9 when a natural or two
    standing hands ended the coup after four cards).
    """
    coup = play_coup(cards)
    extra = len(cards) - coup.cards_used
    if extra:
        if coup.natural:
            why = "a natural stops all drawing"
        elif coup.cards_used == 4:
            why = "both hands stand"
        elif coup.cards_used == 6:
            why = "each hand has drawn its one third card"
        elif coup.player.third_card is not None:
            why = "the Banker stands"
        else:
            why = "the Player stands and the Banker's draw ends the coup"
        raise RulesError(
            f"the coup uses {coup.cards_used} cards ({why}); {extra} more given: "
            f"{format_cards(cards[coup.cards_used :])}",
            section="631a.11",
        )
    return coup


# ----------------------------------------------------------------------------- vectorised coups

_PLAYER_STOOD = 10


def coup_arrays(values: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Vectorised :func:`play_coup` on point values.

    ``values`` is an ``(n, 6)`` array of point values in dealing order; each row is read exactly as
    :func:`play_coup` reads six cards. Returns ``(player_total, banker_total, player_cards,
    banker_cards)``, each of shape ``(n,)``; the cards used are ``player_cards + banker_cards``.
    """
    import numpy as np

    v = values
    p2 = (v[:, 0] + v[:, 2]) % 10
    b2 = (v[:, 1] + v[:, 3]) % 10
    natural = (p2 >= 8) | (b2 >= 8)
    pdraw = ~natural & (p2 <= 5)
    p3 = np.where(pdraw, v[:, 4], _PLAYER_STOOD)
    bdraw = ~natural & _banker_draw_table()[b2, p3]
    b3 = np.where(pdraw, v[:, 5], v[:, 4])
    pt = np.where(pdraw, (p2 + v[:, 4]) % 10, p2)
    bt = np.where(bdraw, (b2 + b3) % 10, b2)
    return (
        pt.astype(np.int64),
        bt.astype(np.int64),
        2 + pdraw.astype(np.int64),
        2 + bdraw.astype(np.int64),
    )


def summary_indices(values: IntArray) -> IntArray:
    """:attr:`CoupSummary.index` of each row of an ``(n, 6)`` array of point values."""
    pt, bt, pn, bn = coup_arrays(values)
    return ((pt * 10 + bt) * 2 + pn - 2) * 2 + bn - 2


# ----------------------------------------------------------------------------- exact counts


def value_counts(shoe: Shoe) -> tuple[int, ...]:
    """How many cards of each point value 0–9 the shoe holds.

    >>> value_counts(Shoe.standard(8))
    (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    """
    out = [0] * 10
    for i, n in enumerate(shoe.counts):
        out[rank_value(DECK[i].rank)] += n
    return tuple(out)


def six_card_total(cards: int) -> int:
    """N!/(N−6)!: the ordered six-card deals from N cards, the total of the six-card convention.

    >>> six_card_total(416)
    4998398275503360
    """
    return prod(range(cards - COUP_SIZE + 1, cards + 1)) if cards >= COUP_SIZE else 0


@dataclass(frozen=True)
class _MultisetTable:
    """The composition-independent part of the six-card enumeration.

    ``multisets[m]`` holds, per value 0–9, how many of the six cards have that value (5,005 rows);
    for each (summary, multiset) pair with a nonzero count, ``pair_summary``, ``pair_multiset`` and
    ``pair_orderings`` say how many of the multiset's orderings (value sequences) play to that
    summary.
    """

    multisets: IntArray
    pair_summary: IntArray
    pair_multiset: IntArray
    pair_orderings: IntArray


@cache
def _multiset_table() -> _MultisetTable:
    import numpy as np

    # the 10⁶ value sequences a block of 10⁵ at a time (those of one first card): ~20 MB of
    # working arrays, not the ~130 MB of them all at once (issue 33)
    rest = np.indices((10,) * (COUP_SIZE - 1), dtype=np.int64).reshape(COUP_SIZE - 1, -1).T
    grid = np.empty((rest.shape[0], COUP_SIZE), dtype=np.int64)
    grid[:, 1:] = rest
    found: list[IntArray] = []
    times: list[IntArray] = []
    for first in range(10):
        grid[:, 0] = first
        summary = summary_indices(grid)
        # a multiset as base-7 digits: digit v counts the cards of value v (at most 6 < 7)
        code = (7**grid).sum(axis=1)
        block, counted = np.unique(summary * 7**10 + code, return_counts=True)
        found.append(block)
        times.append(counted)
    keys = np.concatenate(found)
    pairs, where = np.unique(keys, return_inverse=True)
    orderings = np.zeros(pairs.size, dtype=np.int64)
    np.add.at(orderings, where.ravel(), np.concatenate(times))
    pair_summary, pair_code = np.divmod(pairs, 7**10)
    codes, pair_multiset = np.unique(pair_code, return_inverse=True)
    digits = (codes[:, None] // 7 ** np.arange(10)) % 7
    return _MultisetTable(
        digits.astype(np.int64),
        pair_summary.astype(np.int64),
        pair_multiset.astype(np.int64).ravel(),
        orderings.astype(np.int64),
    )


def _falling(n: int, k: int) -> int:
    return prod(range(n - k + 1, n + 1)) if n >= k else 0


@lru_cache(maxsize=4096)
def coup_counts(values: tuple[int, ...]) -> tuple[int, ...]:
    """Exact count of every coup summary over a shoe holding ``values[v]`` cards of point value v.

    Six-card convention: every ordered deal of six cards counts once, a coup using fewer cards
    reading only the first ones, so the 400 counts (indexed by :attr:`CoupSummary.index`) sum to
    N!/(N−6)!. Enumerates the 5,005 value multisets of six cards: a multiset with k_v cards of value
    v is dealt in Π_v n_v!/(n_v−k_v)! ways per ordering. Exact integers: int64 arithmetic while
    N!/(N−6)! < 2⁶³ (up to 1,448 cards; every term and partial sum is below the total), Python
    integers beyond. Raises :class:`~croupier.errors.ShoeError` for fewer than six cards.

    >>> counts = coup_counts((16, 4, 4, 4, 4, 4, 4, 4, 4, 4))   # one deck
    >>> sum(counts) == 52 * 51 * 50 * 49 * 48 * 47
    True
    """
    import numpy as np

    if len(values) != 10 or any(n < 0 for n in values):
        raise ShoeError(f"a value composition has ten counts ≥ 0, not {values!r}")
    total = six_card_total(sum(values))
    if total == 0:
        raise ShoeError(
            f"a baccarat shoe needs at least {COUP_SIZE} cards for the six-card convention, "
            f"not {sum(values)}"
        )
    table = _multiset_table()
    falling = [[_falling(n, k) for k in range(COUP_SIZE + 1)] for n in values]
    if total < 2**63:
        f = np.array(falling, dtype=np.int64)
        weights = np.prod(f[np.arange(10), table.multisets], axis=1)
        terms = table.pair_orderings * weights[table.pair_multiset]
        out = np.zeros(SUMMARIES, dtype=np.int64)
        np.add.at(out, table.pair_summary, terms)
        counts = tuple(int(x) for x in out)
    else:
        mweights = [
            prod(falling[v][k] for v, k in enumerate(row)) for row in table.multisets.tolist()
        ]
        acc = [0] * SUMMARIES
        for s, m, o in zip(
            table.pair_summary.tolist(),
            table.pair_multiset.tolist(),
            table.pair_orderings.tolist(),
            strict=True,
        ):
            acc[s] += o * mweights[m]
        counts = tuple(acc)
    if sum(counts) != total:  # pragma: no cover - an internal invariant
        raise AssertionError("six-card counts do not add up to N!/(N-6)!")
    return counts


def summary_weights(per_summary: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Fold a per-summary value (e.g. a wager's net win on each of the 400 summaries) into a value
    per six-card multiset: Σ over the multiset's orderings of the value of the summary each ordering
    plays to. Weighted by a shoe's chance of dealing each multiset in a fixed order, it sums to
    the shoe's expected net win (:func:`expected_values`)."""
    import numpy as np

    table = _multiset_table()
    out = np.zeros(table.multisets.shape[0], dtype=np.float64)
    np.add.at(out, table.pair_multiset, table.pair_orderings * per_summary[table.pair_summary])
    return out


@dataclass(frozen=True)
class _Halves:
    """The 5,005 six-card multisets split by value: a multiset is a multiset ``a`` of values
    0–4 and one ``b`` of values 5–9, ``j`` and 6 − ``j`` cards. ``low[j]`` / ``high[j]`` hold
    each size's half-multisets (rows of five counts); ``pairs[j]`` is the (a, b) → multiset
    index matrix of size ``j`` (each multiset exactly once)."""

    low: tuple[IntArray, ...]
    high: tuple[IntArray, ...]
    pairs: tuple[IntArray, ...]


@cache
def _halves() -> _Halves:
    import numpy as np

    multisets = _multiset_table().multisets
    halves: list[list[tuple[int, ...]]] = [[] for _ in range(COUP_SIZE + 1)]
    for row in np.indices((COUP_SIZE + 1,) * 5).reshape(5, -1).T.tolist():
        if sum(row) <= COUP_SIZE:
            halves[sum(row)].append(tuple(row))
    index = [{h: i for i, h in enumerate(size)} for size in halves]
    pairs = [np.full((len(halves[j]), len(halves[COUP_SIZE - j])), -1) for j in range(7)]
    for m, row in enumerate(multisets.tolist()):
        a, b = tuple(row[:5]), tuple(row[5:])
        j = sum(a)
        pairs[j][index[j][a], index[COUP_SIZE - j][b]] = m
    if any((p < 0).any() for p in pairs):  # pragma: no cover - an internal invariant
        raise AssertionError("the halves do not cover the six-card multisets")
    low = tuple(np.array(halves[j], dtype=np.int64).reshape(-1, 5) for j in range(7))
    return _Halves(low, low[::-1], tuple(p.astype(np.int64) for p in pairs))


def expected_values(
    compositions: npt.ArrayLike, per_summary: npt.ArrayLike, chunk: int = 500
) -> npt.NDArray[np.float64]:
    """The expected value of ``per_summary`` (a number for each of the 400 coup summaries, e.g. a
    wager's net win) over the next coup of each shoe in ``compositions`` (rows of value counts),
    under the six-card convention; floats, computed ``chunk`` shoes at a time.

    Σ over the 5,005 multisets of P(the shoe deals the multiset in a fixed order) ×
    ``summary_weights(net)``, factored: a multiset's ordered deals Π_v n_v!/(n_v−k_v)! are the
    product of its values 0–4's and its values 5–9's (:class:`_Halves`, 462 half-multisets a
    side), so each shoe costs a few products of half-multisets' blocks rather than 5,005
    exponentials of 70-term log sums (about ten times faster, some 100,000 shoes a CPU second;
    and closer to the exact value: the deal counts are exact integers in floats, below 2⁵³ for up
    to eight decks). ``chunk``: a few hundred shoes keep the working arrays in the processor's
    cache. :class:`ShoeError` for compositions that are not rows of ten counts.
    """
    import numpy as np

    comp = np.asarray(compositions, dtype=np.float64)
    if comp.ndim != 2 or comp.shape[1] != 10:
        raise ShoeError("value compositions come as rows of ten counts")
    weights = summary_weights(np.asarray(per_summary, dtype=np.float64))
    halves = _halves()
    blocks = [weights[p] for p in halves.pairs]
    parts = []
    for start in range(0, comp.shape[0], chunk):
        part = comp[start : start + chunk]
        # falling[i, v, k] = n!/(n−k)! for the n = part[i, v] cards of value v (0 when n < k)
        falling = np.ones((part.shape[0], 10, COUP_SIZE + 1), dtype=np.float64)
        for k in range(1, COUP_SIZE + 1):
            falling[:, :, k] = falling[:, :, k - 1] * np.maximum(part - (k - 1), 0)
        low = _half_products(falling[:, :5], halves.low)
        high = _half_products(falling[:, 5:], halves.high)
        total = np.zeros(part.shape[0], dtype=np.float64)
        for j in range(COUP_SIZE + 1):
            total += ((low[j] @ blocks[j]) * high[j]).sum(axis=1)
        deals = falling[:, :, 1].sum(axis=1)
        ordered = np.prod([np.maximum(deals - k, 0) for k in range(COUP_SIZE)], axis=0)
        parts.append(total / ordered)
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.float64)


def _half_products(
    falling: npt.NDArray[np.float64], halves: tuple[IntArray, ...]
) -> list[npt.NDArray[np.float64]]:
    """For each size j, each shoe's ordered deals of each half-multiset: Π over its five values
    of ``falling[:, v, k_v]``."""
    import numpy as np

    out = []
    for rows in halves:
        prod_ = np.ones((falling.shape[0], rows.shape[0]), dtype=np.float64)
        for v in range(5):
            prod_ *= falling[:, v, rows[:, v]]
        out.append(prod_)
    return out


# ----------------------------------------------------------------------------- dealing a shoe


class BurnRule(Enum):
    """How the dealer burns cards after the shuffle and cut [industry; the procedure of
    Chapter 631a is not in the seeds]."""

    NONE = "none"
    """No card is burned."""
    FIRST_CARD = "first-card"
    """The first card is turned face up and as many cards as its value are burned face down, a
    ten-valued card counting 10 (the usual baccarat burn): 1 to 10 hidden cards."""


@dataclass(frozen=True)
class BaccaratRules:
    """How a Baccarat shoe is dealt: the parameters an operator sets (Chapter 631a; the shoe
    procedure is [industry], see docs/interpretations.md). Raises :class:`ShoeError` for a shoe
    that cannot be dealt this way.
    """

    decks: int = 8
    """Decks in the shoe; an operator parameter (6 or 8 in practice; 1–8 allowed here)."""
    cut_card: int = 14
    """Cards behind the cut card (14 is the usual placement in an eight-deck baccarat shoe)."""
    burn: BurnRule = BurnRule.FIRST_CARD
    """How cards are burned at the start of the shoe."""
    coups_after_cut_card: int = 1
    """Coups dealt after the coup during which the cut card comes out (the usual rule: one more)."""

    def __post_init__(self) -> None:
        if not isinstance(self.decks, int) or not 1 <= self.decks <= 8:
            raise ShoeError(f"a baccarat shoe holds 1 to 8 decks, not {self.decks!r}")
        if self.coups_after_cut_card < 0:
            raise ShoeError("coups after the cut card cannot be negative")
        room = COUP_SIZE - 1 + COUP_SIZE * self.coups_after_cut_card
        if self.cut_card < room:
            raise ShoeError(
                f"with {self.coups_after_cut_card} coup(s) after the cut card, at least {room} "
                f"cards must lie behind it, not {self.cut_card}"
            )
        burn = 11 if self.burn is BurnRule.FIRST_CARD else 0
        if 52 * self.decks - self.cut_card <= burn:
            raise ShoeError(
                f"a cut card {self.cut_card} cards from the end leaves no coup in "
                f"{52 * self.decks} cards"
            )

    @property
    def cards(self) -> int:
        """Cards in the full shoe."""
        return 52 * self.decks

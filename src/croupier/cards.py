"""Cards, ranks, suits and shoes.

A :class:`Card` is a frozen, ordered (rank, suit) pair. A :class:`Shoe` is a *composition*: how many
copies of each of the 52 cards it holds, so a six-deck shoe, a partly dealt shoe and any made-up
composition are the same kind of value. Multi-deck duplicates (two A♠ from a six-deck shoe) are
legal cards; dealing more copies of a card than the shoe holds is a :class:`~croupier.errors.ShoeError`.

Notation: a rank (``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``; any case) followed by a
suit letter (``c d h s``) or symbol (``♣ ♦ ♥ ♠``, also the white ``♧ ♢ ♡ ♤``).

>>> parse_cards("Ah 10d K♦")
(Card('Ah'), Card('Td'), Card('Kd'))
>>> str(parse_card("10s")), parse_card("qH").symbol
('Ts', 'Q♥')
>>> shoe = Shoe.standard(6)
>>> shoe.total, shoe.count(parse_card("As"))
(312, 6)
>>> shoe.remove(parse_cards("As As")).count(parse_card("As"))
4
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cached_property, lru_cache

from croupier.errors import CardError, ShoeError, one_of
from croupier.names import char_name


class Color(Enum):
    """A card's color."""

    BLACK = "black"
    RED = "red"


class Suit(IntEnum):
    """The four suits, in bridge order (clubs lowest). The value is the suit's index 0–3."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One lower-case letter: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self.value]

    @property
    def color(self) -> Color:
        """Diamonds and hearts are red; clubs and spades black."""
        return Color.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Color.BLACK


class Rank(IntEnum):
    """The thirteen ranks; the value is the rank's poker order, 2 (deuce) to 14 (ace)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """One character: ``2``–``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self.value - 2]

    @property
    def index(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return self.value - 2

    @property
    def plural(self) -> str:
        """The rank's name in the plural, as hands are named: ``'twos'`` … ``'sixes'`` … ``'aces'``.

        >>> Rank.SIX.plural, Rank.ACE.plural
        ('sixes', 'aces')
        """
        return _PLURALS[self.value - 2]


_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
    "queens", "kings", "aces",
)  # fmt: skip
_RANKS = {r.letter: r for r in Rank} | {r.letter.lower(): r for r in Rank} | {"10": Rank.TEN}
_SUITS = {s.letter: s for s in Suit} | {s.letter.upper(): s for s in Suit}
_SUITS |= {s.symbol: s for s in Suit}
_SUITS |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
# The pattern is built from the lookup tables, so it accepts exactly what they hold: no Unicode
# case folding (re.IGNORECASE would let KELVIN SIGN stand for K and LONG S for s).
_TOKEN = re.compile(
    "(" + "|".join(sorted(map(re.escape, _RANKS), key=len, reverse=True)) + ")"
    "(" + "|".join(map(re.escape, _SUITS)) + ")"
)
_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, order=True)
class Card:
    """A playing card. Ordered by rank, then suit; hashable; identical copies compare equal.

    ``Card.index`` numbers the 52 cards 0–51 (``rank.index * 4 + suit``), the position of the card
    in a :class:`Shoe` composition and in the integer arrays the analysis kernels use.
    """

    rank: Rank
    suit: Suit

    @cached_property
    def index(self) -> int:
        """0–51: deuce of clubs is 0, ace of spades 51."""
        return self.rank.index * 4 + self.suit.value

    @property
    def color(self) -> Color:
        """The card's color."""
        return self.suit.color

    @property
    def symbol(self) -> str:
        """Rank letter and suit symbol, e.g. ``'A♠'``."""
        return self.rank.letter + self.suit.symbol

    @staticmethod
    def from_index(index: int) -> Card:
        """The card numbered ``index`` (0–51)."""
        if not 0 <= index < 52:
            raise CardError(f"card index {index} is outside 0–51", str(index))
        return DECK[index]

    def __str__(self) -> str:
        return self._text

    @cached_property
    def _text(self) -> str:
        return self.rank.letter + self.suit.letter

    def __repr__(self) -> str:
        return f"Card('{self}')"


DECK: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)
"""The 52 cards in index order."""


def parse_card(text: str) -> Card:
    """Parse one card (``'Ah'``, ``'10d'``, ``'K♦'``, ``'td'``).

    Raises :class:`~croupier.errors.CardError` naming the token when it is empty, has an unknown
    rank or suit, or is not one card.
    """
    card = _PARSED.get(text)
    if card is not None:
        return card
    token = text.strip()
    if not token:
        raise CardError("empty card: expected a rank and a suit, e.g. 'Ah' or '10d'", text)
    m = _TOKEN.fullmatch(token)
    if not m:
        raise CardError(_why_not_a_card(token), token)
    card = DECK[_RANKS[m.group(1)].index * 4 + _SUITS[m.group(2)].value]
    _PARSED[token] = card
    return card


_PARSED: dict[str, Card] = {}
"""Card text read before (stripped, so a few hundred spellings at most) → its card: the
:data:`DECK` card, equal to ``Card(rank, suit)`` and with its index and text already worked out
(rounds read the same cards all day)."""


def _named(text: str) -> str:
    """``text`` quoted, with the Unicode name of any character outside ASCII and the suit symbols
    (a KELVIN SIGN looks like K but is not one)."""
    odd = [c for c in dict.fromkeys(text) if not c.isascii() and c not in _SUITS]
    names = ", ".join(char_name(c) for c in odd)
    return f"{text!r} ({names})" if names else repr(text)


def _why_not_a_card(token: str) -> str:
    rank_len = 2 if token.startswith("10") else 1
    rank_part, suit_part = token[:rank_len], token[rank_len:]
    if rank_part not in _RANKS:
        return (
            f"unknown rank {_named(rank_part)} in card {token!r} (ranks: 2-9, T or 10, J, Q, K, A)"
        )
    if not suit_part:
        return f"card {token!r} has no suit (suits: c d h s or ♣ ♦ ♥ ♠)"
    if len(suit_part) > 1:
        return f"not a card: {token!r} (a card is a rank and a suit, e.g. 'Ah' or '10d')"
    return f"unknown suit {_named(suit_part)} in card {token!r} (suits: c d h s or ♣ ♦ ♥ ♠)"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards: separated by spaces or commas (``'Ah Kd'``), run together
    (``'AhKd'``), or given as a list of tokens.

    Raises :class:`~croupier.errors.CardError` naming the first bad token; an empty string is an
    error too (a hand with no cards is never what a caller meant).
    """
    tokens = (
        [t for t in _SEPARATORS.split(text.strip()) if t]
        if isinstance(text, str)
        else [str(t) for t in text]
    )
    if not tokens:
        raise CardError(
            "no cards given: expected e.g. 'Ah Kd'", text if isinstance(text, str) else ""
        )
    cards: list[Card] = []
    for token in tokens:
        known = _PARSED.get(token)
        if known is not None:
            cards.append(known)
            continue
        if _TOKEN.fullmatch(token.strip()) or not token.strip():
            cards.append(parse_card(token))
            continue
        # cards run together, e.g. "AhKd": accept only if the whole token splits into cards
        pieces = _TOKEN.findall(token)
        if pieces and "".join(r + s for r, s in pieces) == token:
            cards.extend(parse_card(r + s) for r, s in pieces)
        else:
            cards.append(parse_card(token))  # raises, naming the token
    return tuple(cards)


CardsLike = str | Sequence["Card | str"]
"""Cards as a public function takes them: text (``"8s 8h"``), :class:`Card` values, or a mix."""


def as_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Cards given as text (``"8s 8s"``), as :class:`Card` values, or as a mix of both, as a tuple
    of :class:`Card` — the one conversion every public function taking cards applies at its
    boundary, so a string is never read as a sequence of one-character cards.

    >>> format_cards(as_cards("8s 8h"))
    '8s 8h'

    Raises :class:`~croupier.errors.CardError` naming the first bad card.
    """
    if type(cards) is tuple:
        for c in cards:
            if type(c) is not Card:
                break
        else:
            return cards  # already Card values (the common case at a table): nothing to convert
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Iterable):
        raise CardError(f"not cards: {_shown(cards)} (expected text such as 'Ah Kd')", "")
    out: list[Card] = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, str):
            out.extend(parse_cards(c))
        else:
            raise CardError(f"not a card: {_shown(c)} (a card is text such as 'Ah' or a Card)", "")
    return tuple(out)


def as_card(card: Card | str | None) -> Card | None:
    """One card given as a :class:`Card` or as text (``"Tc"``); ``None`` stays ``None`` (the
    shoe's next card). Raises :class:`~croupier.errors.CardError` for anything else, or for
    text that is not exactly one card."""
    if card is None or isinstance(card, Card):
        return card
    cards = as_cards(card) if isinstance(card, str) else ()
    if len(cards) != 1:
        raise CardError(f"expected one card, e.g. 'Tc', not {_shown(card)}", str(card))
    return cards[0]


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Format cards back as text, space-separated (``'Ah Td'``, or ``'A♥ T♦'``)."""
    return " ".join([c.symbol for c in cards] if symbols else map(str, cards))


def decks_phrase(decks: int | Iterable[int], joiner: str = "/") -> str:
    """Deck counts in words: ``'1 deck'``, ``'6 decks'``, ``'1/2/4/6/8 decks'``; with the
    joiner ``" or "`` as a sentence lists them (:func:`~croupier.errors.one_of`).

    >>> decks_phrase(1), decks_phrase([6, 8], " or "), decks_phrase([1, 2, 4, 6, 8], " or ")
    ('1 deck', '6 or 8 decks', '1, 2, 4, 6 or 8 decks')
    """
    counts = [decks] if isinstance(decks, int) else list(decks)
    text = one_of(counts) if joiner == " or " else joiner.join(map(str, counts))
    return text + (" deck" if counts == [1] else " decks")


MAX_COPIES = 1000
"""The most copies of one card a :class:`Shoe` holds (so at most 1,000 decks)."""


def _shown(value: object) -> str:
    """``repr(value)``, short: an integer too long to print is described by its size."""
    if isinstance(value, int) and not -(10**20) < value < 10**20:
        return f"an integer of {value.bit_length():,} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


@dataclass(frozen=True)
class Shoe:
    """A composition of cards: ``counts[i]`` copies of ``Card.from_index(i)``.

    Immutable: :meth:`remove` returns a new shoe. Build one with :meth:`standard` (N full decks),
    :meth:`from_cards` or :meth:`from_counts`; any composition is allowed (a partly dealt shoe).
    Raises :class:`~croupier.errors.ShoeError` for a count below 0 or above :data:`MAX_COPIES`,
    or a count list not of length 52.
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 52:
            raise ShoeError(f"a shoe composition has 52 counts, not {len(self.counts)}")
        counts = self.counts
        if all(type(n) is int for n in counts) and 0 <= min(counts) <= max(counts) <= MAX_COPIES:
            return  # the common case, checked at once; anything else is checked one by one
        for i, n in enumerate(self.counts):
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COPIES:
                raise ShoeError(
                    f"count of {DECK[i]} must be a whole number from 0 to {MAX_COPIES:,}, "
                    f"not {_shown(n)}"
                )

    @classmethod
    def standard(cls, decks: int) -> Shoe:
        """``decks`` full 52-card decks (1 or more)."""
        if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= MAX_COPIES:
            raise ShoeError(f"a shoe holds 1 to {MAX_COPIES:,} decks, not {_shown(decks)}")
        if cls is Shoe and type(decks) is int:
            return _standard_shoe(decks)  # immutable: one shoe per deck count is shared
        return cls((decks,) * 52)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Shoe:
        """A shoe holding exactly ``cards`` (duplicates allowed)."""
        counts = [0] * 52
        for c in cards:
            counts[c.index] += 1
        return cls(tuple(counts))

    @classmethod
    def from_counts(cls, counts: Mapping[Card | str, int]) -> Shoe:
        """A shoe from ``{card: count}`` (cards as :class:`Card` or text); absent cards count 0."""
        out = [0] * 52
        for key, n in counts.items():
            card = parse_card(key) if isinstance(key, str) else key
            if not isinstance(card, Card):
                raise ShoeError(f"a shoe counts cards, not {_shown(card)}")
            if not isinstance(n, int) or isinstance(n, bool):
                raise ShoeError(f"count of {card} must be a whole number, not {_shown(n)}")
            out[card.index] += n
        return cls(tuple(out))

    @cached_property
    def total(self) -> int:
        """How many cards the shoe holds."""
        return sum(self.counts)

    @property
    def decks(self) -> int | None:
        """The number of decks when the shoe is N full decks, else ``None``."""
        first = self.counts[0]
        return first if first > 0 and all(n == first for n in self.counts) else None

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the shoe holds."""
        return self.counts[card.index]

    def remove(self, cards: Iterable[Card]) -> Shoe:
        """The shoe after dealing ``cards``.

        Raises :class:`~croupier.errors.ShoeError` naming the card when the shoe holds fewer copies
        than are dealt; the original shoe is unchanged either way.
        """
        dealt = list(cards)
        counts = list(self.counts)
        for c in dealt:
            if counts[c.index] == 0:
                wanted = sum(1 for d in dealt if d == c)
                raise ShoeError(
                    f"cannot deal {c} {wanted} times: the {self} holds {self.counts[c.index]}"
                )
            counts[c.index] -= 1
        return Shoe(tuple(counts))

    def check_deal(self, cards: Iterable[Card]) -> None:
        """Raise the :class:`~croupier.errors.ShoeError` :meth:`remove` raises when the shoe holds
        fewer copies of a card than ``cards`` deal (naming the same card), without building the
        shoe that is left: the check alone, for validating dealt cards.
        """
        dealt = cards if isinstance(cards, tuple | list) else list(cards)
        if len(dealt) <= self._fewest:
            return  # no card can be dealt more often than the shoe's scarcest card is held
        counts = self.counts
        need: dict[int, int] = {}
        for c in dealt:
            i = c.index
            n = need.get(i, 0) + 1
            if n > counts[i]:
                self.remove(dealt)  # raises: the first card the shoe runs out of is this one
                raise AssertionError("unreachable")  # pragma: no cover
            need[i] = n

    @cached_property
    def _fewest(self) -> int:
        """How many copies the shoe holds of its scarcest card."""
        return min(self.counts)

    def cards(self) -> tuple[Card, ...]:
        """Every card in the shoe, in index order, duplicates repeated."""
        return self._cards

    @cached_property
    def _cards(self) -> tuple[Card, ...]:
        return tuple(DECK[i] for i, n in enumerate(self.counts) for _ in range(n))

    def __str__(self) -> str:
        d = self.decks
        return f"{d}-deck shoe" if d else f"shoe of {self.total} cards"


@lru_cache(maxsize=16)
def _standard_shoe(decks: int) -> Shoe:
    return Shoe((decks,) * 52)

"""Four Card Poker wagers — 58 Pa. Code § 641a.7(d), and settling a dealt round.

* ``four-card-poker`` — the Ante and Play (§ 641a.7(d)(1)): the player's best four of five against
  the dealer's best four of six; Play of one to three times the Ante or fold; the dealer always
  qualifies; a tie goes to the player; Ante bonus on three-of-a-kind or better. Its par sheet is
  that of the optimal strategy (:class:`~croupier.games.four_card_poker.AntePlayStrategy`), per
  unit of the Ante.
* ``aces-up`` (§ 641a.7(d)(2)) — the player's best four, pair of aces or better.
* ``four-card-progressive`` (§ 641a.7(d)(4)) — a four-card three-of-a-kind or better (§ 641a.1).
* ``five-card-progressive`` (§ 641a.7(d)(5)) — a five-card three-of-a-kind or better.
* ``bad-beat-bonus`` (§ 641a.7(d)(6)) — a losing hand of two pair or better, paid on its rank.
* ``five-card-hand-bonus`` / ``five-card-hand-bonus-dealer`` (§ 641a.7(d)(7)) — a flush or better
  in the player's five cards / the dealer's five-card hand (best five of six).
* ``six-card-bonus`` (§ 641a.7(d)(8)) — the player's five and the Six Card Bonus card,
  three-of-a-kind or better (best five of the six).

The Ante bonus and the Aces Up table are shipped as data (not PA text); every other table comes
from the operator, and croupier ships clearly labelled EXAMPLE tables
(``paytables/examples/641a.7-examples.toml``) loaded as not printed in the regulation.

>>> from croupier.cards import parse_cards
>>> rnd = settle_round(parse_cards("9h 9c 9d Ks 2s"), parse_cards("Ah Ad 7c 7s 3d 4h"),
...                    FourCardPokerBets(ante_cents=500, play_cents=1500, aces_up_cents=500))
>>> [(s.name, s.win_cents) for s in rnd.results]   # 1 + 3 Antes won, 2 to 1 bonus; 8 to 1
[('Ante', 500), ('Play', 1500), ('Ante bonus', 1000), ('Aces Up', 4000)]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from croupier.cards import Card, Shoe, format_cards
from croupier.errors import InputError, PaytableError, RulesError
from croupier.games.four_card_poker import (
    UPCARD_OTHERS,
    AntePlayStrategy,
    DealtRound,
    Decision,
    Result,
    deal_round,
)
from croupier.games.four_card_poker_exact import DEALER_HANDS, PLAYER_HANDS, load_dealer_table
from croupier.paytables import (
    MeterLevel,
    MeterShare,
    NotAvailable,
    OddsFor,
    OddsTo,
    Paytable,
    PaytableBook,
    builtin_paytables,
    parse_section_text,
)
from croupier.poker.five_card import (
    FiveCardCategory,
    best_five,
    best_five_categories,
    evaluate_five,
    five_card_categories,
)
from croupier.poker.four_card import (
    COMB,
    FourCardCategory,
    IntArray,
    best_four,
    best_four_ordinals,
    category_of_ordinal,
    combinations_array,
    distinct_keys,
)
from croupier.units import format_money
from croupier.wagers.at_table import CardSource, SettlementLine, TableContext, signed_money
from croupier.wagers.base import (
    CardGroup,
    DealSpec,
    Game,
    OrderedOutcome,
    PricedOutcome,
    ProgressiveStake,
    Settlement,
    Wager,
    line_of,
    net_win,
)
from croupier.wagers.registry import register

SECTION = "641a.7"
PLAYER = CardGroup("player's five cards", 5, source=CardSource.PLAYER)
DEALER = CardGroup("dealer's six cards", 6, source=CardSource.DEALER)
BONUS_CARD = CardGroup("Six Card Bonus card", 1, source=CardSource.BONUS)
UPCARD = CardGroup("dealer's face-up card", 1, source=CardSource.DEALER_UPCARD)
DEALER_DOWN = CardGroup("dealer's five face-down cards", 5, source=CardSource.DEALER_DOWN)
EXAMPLES = "641a.7-examples.toml"


@functools.cache
def example_paytables() -> tuple[Paytable, ...]:
    """The EXAMPLE operator paytables shipped for the wagers whose tables § 641a.12 prints
    (not in the text croupier holds): loaded as not printed in the regulation."""
    from importlib import resources

    entry = resources.files("croupier.paytables") / "examples" / EXAMPLES
    return parse_section_text(entry.read_text(encoding="utf-8"), f"examples/{EXAMPLES}")


@functools.cache
def _with_examples(book: PaytableBook) -> PaytableBook:
    have = {(t.section, t.key.upper()) for t in book}
    return book.with_paytables(
        t for t in example_paytables() if (t.section, t.key.upper()) not in have
    )


# -- exact enumeration over one deck -------------------------------------------------------------


def _present(shoe: Shoe, wager: str) -> IntArray:
    if any(n > 1 for n in shoe.counts):
        raise RulesError(f"the {wager} wager is played with one deck, not a {shoe}", SECTION)
    return np.array([i for i, n in enumerate(shoe.counts) if n], dtype=np.int64)


@functools.lru_cache(maxsize=16)
def _subset_categories(composition: tuple[int, ...], k: int, kind: str) -> tuple[int, ...]:
    """Counts of each category strength over every k-subset of the cards the shoe holds.

    ``kind``: ``"four"`` best four-card category, ``"five"`` best five-card category.
    """
    cards = np.array([i for i, n in enumerate(composition) if n], dtype=np.int64)
    if cards.size < k:
        return ()
    size = 8 if kind == "four" else 10
    counts = np.zeros(size, dtype=np.int64)
    rows_all = combinations_array(cards.size, k).astype(np.int8)
    for s in range(0, rows_all.shape[0], 2_000_000):
        rows = cards[rows_all[s : s + 2_000_000].astype(np.int64)]  # increasing: cards sorted
        if kind == "four":
            cats = category_of_ordinal(best_four_ordinals(rows))
        elif k == 5:
            cats = five_card_categories(rows)
        else:
            cats = best_five_categories(rows)
        counts += np.bincount(cats, minlength=size)
    return tuple(int(x) for x in counts)


def _aces_pairs(composition: tuple[int, ...]) -> int:
    """Five-card hands whose best four is exactly a pair of aces."""
    cards = np.array([i for i, n in enumerate(composition) if n], dtype=np.int64)
    rows = cards[combinations_array(cards.size, 5)]
    best = best_four_ordinals(rows)
    keys = distinct_keys()[best]
    pair = keys // 13**4 == FourCardCategory.PAIR.strength
    aces = (keys // 13**3) % 13 == 12
    return int((pair & aces).sum())


# -- the common base -------------------------------------------------------------------------------


class FourCardPokerWager(Wager):
    """A Four Card Poker wager (§ 641a.7(d)): one deck; its paytables are the lines of the
    section's data files that name it (shipped data, then the EXAMPLE operator tables)."""

    game: ClassVar[Game] = Game.FOUR_CARD_POKER
    section: ClassVar[str] = SECTION
    allowed_decks: ClassVar[tuple[int, ...] | None] = (1,)
    settles_with: ClassVar[str | None] = "four-card-poker"
    """Every wager of § 641a.7 is settled with the Ante and Play, one seat at a time
    (:meth:`AntePlay.settle_at_table`)."""

    def check_seat_bets(self, bets: dict[str, int]) -> None:
        """§ 641a.7(d): which wagers a seat may hold together (:meth:`FourCardPokerBets.check`).

        Raises :class:`~croupier.errors.RulesError` citing the paragraph.
        """
        FourCardPokerBets.of(bets).check()

    @property
    def book(self) -> PaytableBook:
        """The paytables: the override (or built-in) book, plus the EXAMPLE tables whose keys it
        does not already hold."""
        base = self.book_override if self.book_override is not None else builtin_paytables()
        return _with_examples(base)


def _cards_idx(cards: Sequence[Card]) -> IntArray:
    return np.array([[c.index for c in cards]], dtype=np.int64)


# -- Aces Up and the four-card progressive ---------------------------------------------------------


class AcesUpOutcome(OrderedOutcome):
    """Aces Up: the player's best four-card hand, pair of aces or better (§ 641a.7(d)(2))."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    FLUSH = "flush"
    STRAIGHT = "straight"
    TWO_PAIR = "two-pair"
    PAIR_OF_ACES = "pair-of-aces"


_FOUR_KEYS = {c.strength: c.value for c in FourCardCategory}


@register
class AcesUp(FourCardPokerWager):
    """The Aces Up wager on the player's best four of five (58 Pa. Code § 641a.7(d)(2))."""

    id = "aces-up"
    stands_alone = True
    name = "Aces Up"
    settle_rule = "641a.7(d)(2)"
    outcomes = AcesUpOutcome
    deal = DealSpec((PLAYER,))

    def classify(self, cards: Sequence[Card]) -> AcesUpOutcome | None:
        """§ 641a.7(d)(2): the category of the player's best four, pair of aces or better."""
        hand = best_four(cards)
        if hand.category is FourCardCategory.PAIR:
            return AcesUpOutcome.PAIR_OF_ACES if hand.tiebreak[0].value == 14 else None
        if hand.category is FourCardCategory.HIGH_CARD:
            return None
        return AcesUpOutcome(hand.category.value)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 5)`` card indices."""
        keys = distinct_keys()[best_four_ordinals(cards)]
        strength = keys // 13**4
        aces = (keys // 13**3) % 13 == 12
        pos = {o.key: o.position for o in AcesUpOutcome}
        lose = len(AcesUpOutcome)
        lut = np.array([pos.get(_FOUR_KEYS[s], lose) for s in range(8)], dtype=np.int64)
        out = lut[strength]
        return np.where(strength == 1, np.where(aces, pos["pair-of-aces"], lose), out)

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every five-card hand from the (one-deck) shoe, counted by its best four."""
        _present(shoe, self.name)
        by_strength = _subset_categories(shoe.counts, 5, "four")
        tallies = [0] * (len(AcesUpOutcome) + 1)
        for s, n in enumerate(by_strength):
            key = _FOUR_KEYS[s]
            if key in AcesUpOutcome._value2member_map_:
                tallies[AcesUpOutcome(key).position] += n
        aces = _aces_pairs(shoe.counts)
        tallies[AcesUpOutcome.PAIR_OF_ACES.position] = aces
        tallies[-1] = sum(by_strength) - sum(tallies[:-1])
        return tuple(tallies)


class FourCardProgressiveOutcome(OrderedOutcome):
    """A Four-Card Progressive Payout Hand: a four-card three-of-a-kind or better (§ 641a.1)."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"


@register
class FourCardProgressive(FourCardPokerWager):
    """The Four-Card Progressive Payout wager (58 Pa. Code § 641a.7(d)(4))."""

    id = "four-card-progressive"
    name = "Four-Card Progressive Payout"
    settle_rule = "641a.7(d)(4)"
    outcomes = FourCardProgressiveOutcome
    deal = DealSpec((PLAYER,))

    def classify(self, cards: Sequence[Card]) -> FourCardProgressiveOutcome | None:
        """The player's best four: three-of-a-kind or better."""
        cat = best_four(cards).category
        if cat in (
            FourCardCategory.FOUR_OF_A_KIND,
            FourCardCategory.STRAIGHT_FLUSH,
            FourCardCategory.THREE_OF_A_KIND,
        ):
            return FourCardProgressiveOutcome(cat.value)
        return None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 5)`` card indices."""
        out: IntArray = _lut(FourCardProgressiveOutcome, _FOUR_KEYS)[
            category_of_ordinal(best_four_ordinals(cards))
        ]
        return out

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every five-card hand from the (one-deck) shoe, by its best four."""
        _present(shoe, self.name)
        return _tally(
            FourCardProgressiveOutcome, _FOUR_KEYS, _subset_categories(shoe.counts, 5, "four")
        )


def _lut(outcomes: type[OrderedOutcome], names: dict[int, str]) -> IntArray:
    pos = {o.key: o.position for o in outcomes}
    lose = len(outcomes)
    return np.array([pos.get(names[s], lose) for s in range(len(names))], dtype=np.int64)


def _tally(
    outcomes: type[OrderedOutcome],
    names: dict[int, str],
    by_strength: Sequence[int],
    scale: int = 1,
) -> tuple[int, ...]:
    lut = _lut(outcomes, names)
    tallies = [0] * (len(outcomes) + 1)
    for s, n in enumerate(by_strength):
        tallies[int(lut[s])] += n * scale
    return tuple(tallies)


# -- five-card wagers ------------------------------------------------------------------------------

_FIVE_KEYS = {c.strength: c.value for c in FiveCardCategory}


class FiveCardProgressiveOutcome(OrderedOutcome):
    """A Five-Card Progressive Payout Hand: a five-card three-of-a-kind or better (§ 641a.1)."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"


class FiveCardBonusOutcome(OrderedOutcome):
    """A five-card flush or better (§ 641a.7(d)(7), ranked as § 641a.6(d))."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"


class SixCardBonusOutcome(OrderedOutcome):
    """Three-of-a-kind or better from the player's five cards and the Six Card Bonus card
    (§ 641a.7(d)(8)), read as the best five-card hand of the six."""

    ROYAL_FLUSH = "royal-flush"
    STRAIGHT_FLUSH = "straight-flush"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three-of-a-kind"


class _FiveCardWager(FourCardPokerWager):
    """A wager on the best five-card hand of the cards it reads."""

    def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
        """The best five-card category, if the wager pays it."""
        key = best_five(cards).category.value
        return self.outcomes(key) if key in self.outcomes._value2member_map_ else None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify`."""
        srt = np.sort(cards, axis=1)
        cats = five_card_categories(srt) if srt.shape[1] == 5 else best_five_categories(srt)
        return _lut(self.outcomes, _FIVE_KEYS)[cats]

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Every set of the cards read from the (one-deck) shoe, by its best five."""
        _present(shoe, self.name)
        k = self.deal.size
        by_strength = _subset_categories(shoe.counts, k, "five")
        scale = 1
        if len(self.deal.groups) == 2:  # five cards + one more card in its own group
            scale = k
        return _tally(self.outcomes, _FIVE_KEYS, by_strength, scale)


@register
class FiveCardProgressive(_FiveCardWager):
    """The Five-Card Progressive Payout wager (58 Pa. Code § 641a.7(d)(5))."""

    id = "five-card-progressive"
    name = "Five-Card Progressive Payout"
    settle_rule = "641a.7(d)(5)"
    outcomes = FiveCardProgressiveOutcome
    deal = DealSpec((PLAYER,))


@register
class FiveCardHandBonus(_FiveCardWager):
    """The Five Card Hand Bonus wager on the player's five cards (§ 641a.7(d)(7))."""

    id = "five-card-hand-bonus"
    base_wagers = ("four-card-poker",)
    base_rule = "641a.7(d)(7)"
    name = "Five Card Hand Bonus (player's hand)"
    settle_rule = "641a.7(d)(7)"
    outcomes = FiveCardBonusOutcome
    deal = DealSpec((PLAYER,))


@register
class FiveCardHandBonusDealer(_FiveCardWager):
    """The Five Card Hand Bonus wager on the dealer's five-card hand, read as the best five of
    the dealer's six cards (§ 641a.7(d)(7); docs/interpretations.md)."""

    id = "five-card-hand-bonus-dealer"
    base_wagers = ("four-card-poker",)
    base_rule = "641a.7(d)(7)"
    name = "Five Card Hand Bonus (dealer's hand)"
    settle_rule = "641a.7(d)(7)"
    outcomes = FiveCardBonusOutcome
    deal = DealSpec((DEALER,))


@register
class SixCardBonus(_FiveCardWager):
    """The Six Card Bonus wager (58 Pa. Code § 641a.7(d)(8))."""

    id = "six-card-bonus"
    base_wagers = ("four-card-poker",)
    base_rule = "641a.7(d)(8)"
    name = "Six Card Bonus"
    settle_rule = "641a.7(d)(8)"
    outcomes = SixCardBonusOutcome
    deal = DealSpec((PLAYER, BONUS_CARD))


# -- wagers on the showdown -----------------------------------------------------------------------


class BadBeatOutcome(OrderedOutcome):
    """The rank of the losing hand, two pair or better, when the other hand outranks it
    (§ 641a.7(d)(6))."""

    FOUR_OF_A_KIND = "four-of-a-kind"
    STRAIGHT_FLUSH = "straight-flush"
    THREE_OF_A_KIND = "three-of-a-kind"
    FLUSH = "flush"
    STRAIGHT = "straight"
    TWO_PAIR = "two-pair"


def _full_deck(shoe: Shoe, name: str) -> None:
    _present(shoe, name)
    if shoe.total != 52:
        raise InputError(
            f"the exact {name} analysis covers a full deck (it reads the shipped dealer table), "
            f"not a {shoe}"
        )


@register
class BadBeatBonus(FourCardPokerWager):
    """The Bad Beat Bonus wager (58 Pa. Code § 641a.7(d)(6)): wins when the player's hand is two
    pair or better and the dealer's outranks it, or the dealer's is two pair or better and the
    player's outranks it; paid on the rank of the losing hand."""

    id = "bad-beat-bonus"
    name = "Bad Beat Bonus"
    settle_rule = "641a.7(d)(6)"
    outcomes = BadBeatOutcome
    deal = DealSpec((PLAYER, DEALER))

    def classify(self, cards: Sequence[Card]) -> BadBeatOutcome | None:
        """The losing hand's category, when it is two pair or better and strictly beaten."""
        show = DealtRound(tuple(cards[:5]), tuple(cards[5:])).showdown()
        if show.result is Result.TIE:
            return None
        loser = show.player if show.result is Result.DEALER_WINS else show.dealer
        key = loser.category.value
        return BadBeatOutcome(key) if key in BadBeatOutcome._value2member_map_ else None

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 11)`` card indices."""
        p = best_four_ordinals(cards[:, :5])
        d = best_four_ordinals(cards[:, 5:])
        loser = np.minimum(p, d)
        out = _lut(BadBeatOutcome, _FOUR_KEYS)[category_of_ordinal(loser)]
        return np.where(p == d, len(BadBeatOutcome), out)

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """From the joint (player category, dealer category, result) counts of the shipped dealer
        table: every deal of the player's five and the dealer's six."""
        _full_deck(shoe, self.name)
        joint = load_dealer_table().joint
        tallies = [0] * (len(BadBeatOutcome) + 1)
        lut = _lut(BadBeatOutcome, _FOUR_KEYS)
        for p in range(8):
            for d in range(8):
                tallies[int(lut[d])] += int(joint[p, d, 0])  # the dealer's hand lost
                tallies[int(lut[p])] += int(joint[p, d, 2])  # the player's hand lost
                tallies[-1] += int(joint[p, d, 1])
        return tuple(tallies)

    def counting_convention(self, shoe: Shoe) -> str:
        """Player's five and dealer's six, unordered, from one deck."""
        return _SHOWDOWN_CONVENTION


_SHOWDOWN_CONVENTION = (
    f"every deal of the player's five cards and the dealer's six from one deck "
    f"(C(52,5) × C(47,6) = {PLAYER_HANDS:,} × {DEALER_HANDS:,} = {PLAYER_HANDS * DEALER_HANDS:,}); "
    "each card distinct"
)


class AntePlayOutcome(OrderedOutcome):
    """The result of the Ante and Play under the optimal strategy, with the Ante bonus."""

    FOUR_OF_A_KIND_WINS = "four-of-a-kind-wins"
    FOUR_OF_A_KIND_LOSES = "four-of-a-kind-loses"
    STRAIGHT_FLUSH_WINS = "straight-flush-wins"
    STRAIGHT_FLUSH_LOSES = "straight-flush-loses"
    THREE_OF_A_KIND_WINS = "three-of-a-kind-wins"
    THREE_OF_A_KIND_LOSES = "three-of-a-kind-loses"
    PLAY_3X_WINS = "play-3x-wins"
    PLAY_3X_LOSES = "play-3x-loses"
    PLAY_1X_WINS = "play-1x-wins"
    PLAY_1X_LOSES = "play-1x-loses"

    @property
    def bonus_category(self) -> FourCardCategory | None:
        """The Ante bonus category the outcome holds, if any."""
        head = self.value.rsplit("-", 1)[0]
        return None if head.startswith("play") else FourCardCategory(head)

    @property
    def multiple(self) -> int:
        """The Play wager in Antes (bonus hands are always played 3×)."""
        return 1 if self.value.startswith("play-1x") else 3

    @property
    def wins(self) -> bool:
        """Whether the player's hand is equal to or better than the dealer's."""
        return self.value.endswith("-wins")


_BONUS_KEYS = ("four-of-a-kind", "straight-flush", "three-of-a-kind")


@register
class AntePlay(FourCardPokerWager):
    """The Ante and Play of Four Card Poker (58 Pa. Code § 641a.7(d)(1)), played with the optimal
    strategy; settled per unit of the Ante. Its paytable is the Ante bonus."""

    id = "four-card-poker"
    name = "Four Card Poker Ante and Play"
    settle_rule = "641a.7(d)(1)"
    outcomes = AntePlayOutcome
    deal = DealSpec((PLAYER, UPCARD, DEALER_DOWN))
    settles_with = None

    def settle_at_table(self, ctx: TableContext) -> tuple[SettlementLine, ...]:
        """§ 641a.7(d): every wager of § 641a.7 at each seat of ``ctx.bets`` in one pass
        (:func:`settle_round`): the Ante and Play against the dealer's hand (the Play made after
        the cards, ``ctx.decisions``), the bonuses, the progressives with the envy bonuses of the
        other seats holding them.

        Raises what :func:`settle_round` raises.
        """
        progressive = (FourCardProgressive.id, FiveCardProgressive.id)
        holders = ctx.seats_with(progressive)
        lines: list[SettlementLine] = []
        for seat in dict.fromkeys(b.seat for b in ctx.bets):
            bets = {b.wager: b.amount_cents for b in ctx.bets if b.seat == seat}
            others = (
                [ctx.cards.hand(s) for s in holders if s != seat]
                if any(p in bets for p in progressive)
                else []
            )
            rs = settle_round(
                ctx.cards.hand(seat),
                ctx.cards.dealer,
                FourCardPokerBets.of(bets, ctx.decisions.get(seat, 0)),
                ctx.cards.bonus,
                dict(ctx.paytables),
                others,
            )
            lines += (_table_line(seat, res) for res in rs.results)
        return tuple(lines)

    def _check_paytable(self, table: Paytable) -> None:
        keys = {line.outcome for line in table.lines if line.wager in (None, self.id)}
        unknown = sorted(keys - set(_BONUS_KEYS))
        missing = [k for k in _BONUS_KEYS if k not in keys]
        if unknown or missing:
            raise PaytableError(
                f"paytable {table.key} of § {table.section} ({table.source}): an Ante bonus "
                f"has lines {', '.join(_BONUS_KEYS)}"
                + (f"; unknown: {', '.join(unknown)}" if unknown else "")
                + (f"; missing: {', '.join(missing)}" if missing else "")
            )
        for line in table.lines:
            if not isinstance(line.pays, OddsTo | OddsFor | NotAvailable):
                raise PaytableError(
                    f"paytable {table.key}: the Ante bonus pays odds, not {line.pays}"
                )
        for d in table.decks:
            self.check_decks(d)

    def bonus_pays(self, table: Paytable) -> dict[FourCardCategory, Fraction]:
        """Net win per Ante of each Ante bonus line ("N/A": no bonus)."""
        out: dict[FourCardCategory, Fraction] = {}
        for key in _BONUS_KEYS:
            line = table.line(key)
            if line is not None and not isinstance(line.pays, NotAvailable):
                out[FourCardCategory(key)] = net_win(line)
        return out

    def strategy(self, table: Paytable | None = None) -> AntePlayStrategy:
        """The optimal strategy for ``table``'s Ante bonus (default: the shipped 25-20-2)."""
        t = table if table is not None else self.paytable("25-20-2")
        return AntePlayStrategy.for_bonus(self.bonus_pays(t))

    # -- classification (the optimal strategy plays) ------------------------------------------
    def classify(self, cards: Sequence[Card]) -> AntePlayOutcome | None:
        """The outcome when the optimal strategy plays the player's five; ``None``: it folds."""
        rnd = DealtRound(tuple(cards[:5]), tuple(cards[5:]))
        decision = _default_strategy().decide_with_upcard(rnd.player, rnd.dealer[0])
        if decision is Decision.FOLD:
            return None
        show = rnd.showdown()
        return _ante_outcome(show.player.category, decision.multiple, show.result.player_wins)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on ``(n, 11)`` card indices."""
        srt = np.sort(cards[:, :5], axis=1)
        colex = np.zeros(srt.shape[0], dtype=np.int64)
        for i in range(5):
            colex += COMB[srt[:, i], i + 1]
        mult = _default_strategy().upcard_decisions_for(colex, cards[:, 5])
        p = best_four_ordinals(cards[:, :5])
        d = best_four_ordinals(cards[:, 5:])
        cat = category_of_ordinal(p)
        wins = p >= d
        lut = np.full((8, 4, 2), len(AntePlayOutcome), dtype=np.int64)
        for o in AntePlayOutcome:
            cats = (
                [o.bonus_category.strength]
                if o.bonus_category is not None
                else [s for s in range(8) if _FOUR_KEYS[s] not in _BONUS_KEYS]
            )
            for s in cats:
                lut[s, o.multiple, int(o.wins)] = o.position
        out: IntArray = lut[cat, mult, wins.astype(np.int64)]
        return out

    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """From the shipped dealer table: every deal of the player's five and dealer's six, the
        player following the optimal strategy."""
        _full_deck(shoe, self.name)
        analysis = _default_strategy().upcard_analysis
        tallies = [0] * (len(AntePlayOutcome) + 1)
        for (mult, strength, wins), n in analysis.counts.items():
            if mult == 0:
                tallies[-1] += n
                continue
            o = _ante_outcome(FourCardCategory(_FOUR_KEYS[strength]), mult, wins)
            if o is None:  # pragma: no cover - a bonus hand the strategy plays 1x
                raise AssertionError("the optimal strategy plays every Ante bonus hand 3x")
            tallies[o.position] += n
        return tuple(tallies)

    def counting_convention(self, shoe: Shoe) -> str:
        """Player's five, the dealer's face-up card and other five, with the strategy."""
        total = PLAYER_HANDS * 47 * UPCARD_OTHERS
        return (
            "every deal of the player's five cards, the dealer's face-up card and the dealer's "
            f"other five from one deck (C(52,5) × 47 × C(46,5) = {total:,}); each card "
            "distinct; the player sees the face-up card and folds or plays 1× or 3× optimally"
        )

    def priced_outcomes(self, table: Paytable) -> tuple[PricedOutcome, ...]:
        """Net per Ante: the bonus, plus or minus the Ante and the Play; a fold loses the Ante."""
        bonus = self.bonus_pays(table)
        out = []
        for o in AntePlayOutcome:
            cat = o.bonus_category
            b = bonus.get(cat, Fraction(0)) if cat is not None else Fraction(0)
            play = f"Play {o.multiple}×"
            result = f"Ante and {play} win 1 to 1" if o.wins else f"Ante and {play} lose"
            if cat is not None:
                line = table.line(cat.value)
                assert line is not None
                label = f"{line.label}, {'wins' if o.wins else 'loses'} (Play 3×)"
                pays = f"bonus {line.pays}; {result}"
            else:
                label = f"Play {o.multiple}×, {'wins or ties' if o.wins else 'loses'}"
                pays = result
            out.append(PricedOutcome(label, pays, b + (1 + o.multiple) * (1 if o.wins else -1)))
        out.append(PricedOutcome("Fold", "the Ante loses", Fraction(-1)))
        return tuple(out)

    def extra_figures(self, table: Paytable) -> tuple[tuple[str, str, Any], ...]:
        """House edge per Ante and per total wagered, and how often the strategy plays — reading
        the dealer's face-up card (the par sheet) and, for comparison, without it."""
        strat = self.strategy(table)
        a = strat.upcard_analysis
        blind = strat.analysis
        freq = {name: a.frequency(m) for name, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))}
        return (
            (
                "without_the_face_up_card",
                f"without reading the dealer's face-up card (`croupier strategy "
                f"four-card-poker`): house edge {float(blind.house_edge):.4%} of the Ante, "
                f"{float(blind.element_of_risk):.4%} of the total wagered",
                {
                    "house_edge_per_ante": float(blind.house_edge),
                    "house_edge_per_total_wagered": float(blind.element_of_risk),
                    "strategy": {
                        k: float(blind.frequency(m))
                        for k, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))
                    },
                },
            ),
            (
                "house_edge_per_ante",
                f"house edge {float(a.house_edge):.4%} of the Ante",
                float(a.house_edge),
            ),
            (
                "house_edge_per_total_wagered",
                f"element of risk {float(a.element_of_risk):.4%} of the total wagered "
                f"(Ante + Play averages {float(a.average_wager):.4f} Antes)",
                float(a.element_of_risk),
            ),
            ("average_total_wager_in_antes", "", float(a.average_wager)),
            (
                "strategy",
                "strategy: fold {:.2%} · play 1× {:.2%} · play 3× {:.2%} of hands".format(
                    *(float(v) for v in freq.values())
                ),
                {k: float(v) for k, v in freq.items()},
            ),
            (
                "exact",
                "",
                {
                    "house_edge_per_ante": _frac(a.house_edge),
                    "house_edge_per_total_wagered": _frac(a.element_of_risk),
                    "player_hand_and_face_up_card_pairs": {
                        k: a.hands.get(m, 0)
                        for k, m in (("fold", 0), ("play_1x", 1), ("play_3x", 3))
                    },
                },
            ),
        )


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def _ante_outcome(cat: FourCardCategory, multiple: int, wins: bool) -> AntePlayOutcome | None:
    suffix = "wins" if wins else "loses"
    if cat.value in _BONUS_KEYS:
        return AntePlayOutcome(f"{cat.value}-{suffix}") if multiple == 3 else None
    return AntePlayOutcome(f"play-{multiple}x-{suffix}")


@functools.cache
def _default_strategy() -> AntePlayStrategy:
    # the decisions do not depend on the Ante bonus: every bonus hand is played 3x whatever it
    # pays (checked in the tests), and other hands earn none
    return AntePlayStrategy.for_bonus({})


# -- settling a dealt round -----------------------------------------------------------------------


_BET_FIELDS = {
    "four-card-poker": "ante_cents",
    "aces-up": "aces_up_cents",
    "four-card-progressive": "four_card_progressive_cents",
    "five-card-progressive": "five_card_progressive_cents",
    "bad-beat-bonus": "bad_beat_cents",
    "five-card-hand-bonus": "five_card_bonus_cents",
    "five-card-hand-bonus-dealer": "five_card_bonus_dealer_cents",
    "six-card-bonus": "six_card_bonus_cents",
}
"""Wager ids → fields of :class:`FourCardPokerBets`."""


@dataclass(frozen=True)
class FourCardPokerBets:
    """One player's wagers on a round, in cents (0: not placed). ``play_cents`` 0 is a fold."""

    ante_cents: int = 0
    play_cents: int = 0
    aces_up_cents: int = 0
    four_card_progressive_cents: int = 0
    five_card_progressive_cents: int = 0
    bad_beat_cents: int = 0
    five_card_bonus_cents: int = 0
    five_card_bonus_dealer_cents: int = 0
    six_card_bonus_cents: int = 0

    @staticmethod
    def of(bets: Mapping[str, int], play_cents: int = 0) -> FourCardPokerBets:
        """A seat's wagers of § 641a.7 from wager id → cents (other ids are not this game's)."""
        kw = {_BET_FIELDS[w]: c for w, c in bets.items() if w in _BET_FIELDS}
        return FourCardPokerBets(play_cents=play_cents, **kw)

    def check(self) -> None:
        """The rules of § 641a.7(d) on which wagers may be placed together.

        Raises :class:`~croupier.errors.InputError` for a negative or non-integer amount and
        :class:`~croupier.errors.RulesError` citing the paragraph for a broken rule.
        """
        for name, value in self.__dict__.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InputError(f"{name} must be a whole number of cents ≥ 0, not {value!r}")
        if not (self.ante_cents or self.aces_up_cents):
            raise RulesError(
                "a round needs an Ante wager, an Aces Up wager, or both", "641a.7(d)(1)–(3)"
            )
        if self.play_cents:
            if not self.ante_cents:
                raise RulesError("a Play wager needs an Ante wager", "641a.7(d)(1)")
            if not self.ante_cents <= self.play_cents <= 3 * self.ante_cents:
                raise RulesError(
                    f"the Play wager is one to three times the Ante "
                    f"({format_money(self.ante_cents)} to {format_money(3 * self.ante_cents)}), "
                    f"not {format_money(self.play_cents)}",
                    "641a.7(d)(1)",
                )
        if (
            self.five_card_bonus_cents or self.five_card_bonus_dealer_cents
        ) and not self.ante_cents:
            raise RulesError("the Five Card Hand Bonus wager needs an Ante wager", "641a.7(d)(7)")
        if self.six_card_bonus_cents and not self.ante_cents:
            raise RulesError("the Six Card Bonus wager needs an Ante wager", "641a.7(d)(8)")


@dataclass(frozen=True)
class WagerResult:
    """One settled wager of a round: its name, the amount, the net win, and what happened."""

    name: str
    wager: str
    section: str
    amount_cents: int
    win_cents: int
    detail: str
    settlement: Settlement | None = None
    envy_cents: int = 0

    @property
    def returned_cents(self) -> int:
        """What the dealer hands back (stake and win), or 0 for a loss."""
        if self.settlement is not None:
            return self.settlement.returned_cents + self.envy_cents
        return max(0, self.amount_cents + self.win_cents)


@dataclass(frozen=True)
class RoundSettlement:
    """A settled round: the cards, the showdown and each wager's result."""

    round: DealtRound
    bets: FourCardPokerBets
    results: tuple[WagerResult, ...]
    decision: Decision | None
    strategy_decision: Decision

    @property
    def win_cents(self) -> int:
        """The player's net result over every wager."""
        return sum(r.win_cents for r in self.results)


DEFAULT_PAYTABLES = {
    "four-card-poker": "25-20-2",
    "aces-up": "pa-casino",
    "four-card-progressive": "example-four-card-progressive",
    "five-card-progressive": "example-five-card-progressive",
    "bad-beat-bonus": "example-bad-beat",
    "five-card-hand-bonus": "example-five-card-bonus",
    "five-card-hand-bonus-dealer": "example-five-card-bonus-dealer",
    "six-card-bonus": "example-six-card-bonus",
}


def _table_line(seat: int, res: WagerResult) -> SettlementLine:
    """A seat's settled wager as a table's settlement line (the Ante's Play and bonus are parts
    of the Ante's line: ``four-card-poker:play``)."""
    if res.settlement is not None:
        return line_of(seat, res.settlement, res.wager, res.envy_cents)
    return SettlementLine(
        seat=seat,
        wager=res.wager,
        part=res.name.lower().replace(" ", "-"),
        outcome=res.detail,
        pays=signed_money(res.win_cents),
        stake_cents=res.amount_cents,
        win_cents=res.win_cents,
        returned_cents=res.returned_cents,
        section=res.section,
        detail=f"{res.name}: {res.detail}",
    )


def settle_round(
    player: Sequence[Card],
    dealer: Sequence[Card],
    bets: FourCardPokerBets,
    bonus_card: Card | None = None,
    paytables: dict[str, str | Paytable] | None = None,
    other_hands: Sequence[Sequence[Card]] = (),
    meter_cents: dict[str, int] | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    book: PaytableBook | None = None,
) -> RoundSettlement:
    """Settle one player's round of Four Card Poker (58 Pa. Code § 641a.7(d)).

    ``paytables`` maps wager ids to paytable keys (defaults: :data:`DEFAULT_PAYTABLES`);
    ``other_hands`` are the five cards of the *other* players at the table who hold the same
    progressive wagers — their qualifying hands pay this player the envy bonus;
    ``meter_cents`` the progressive meters by wager id (default: the seeds). Nothing is settled
    unless every check passes (:class:`RulesError`, :class:`CardError`, :class:`InputError`).
    """
    bets.check()
    rnd = deal_round(player, dealer, bonus_card)
    if bets.six_card_bonus_cents and bonus_card is None:
        raise RulesError("the Six Card Bonus wager needs the Six Card Bonus card", "641a.7(d)(8)")
    others = [tuple(h) for h in other_hands]
    used = set(rnd.player) | set(rnd.dealer) | ({bonus_card} if bonus_card else set())
    for h in others:
        if len(h) != 5:
            raise InputError(
                f"another player's hand is five cards, not {len(h)}: {format_cards(h)}"
            )
        for c in h:
            if c in used:
                raise InputError(f"{c} is dealt twice: Four Card Poker uses one deck")
            used.add(c)
    keys = {**DEFAULT_PAYTABLES, **(paytables or {})}
    from croupier.wagers.registry import get_wager

    def wager(wid: str) -> tuple[Wager, Paytable]:
        w = get_wager(wid)
        if book is not None:
            w = w.with_book(book)
        key = keys[wid]
        table = key if isinstance(key, Paytable) else w.paytable(key, 1)
        return w, table

    results: list[WagerResult] = []
    ante_play = get_wager("four-card-poker")
    assert isinstance(ante_play, AntePlay)
    strategy_decision = _default_strategy().decide_with_upcard(rnd.player, rnd.dealer[0])
    show = rnd.showdown()
    decision: Decision | None = None
    if bets.ante_cents:
        _, table = wager("four-card-poker")
        ante = bets.ante_cents
        if not bets.play_cents:
            decision = Decision.FOLD
            results.append(
                WagerResult("Ante", "four-card-poker", "641a.7(d)(1)", ante, -ante, "folded")
            )
        else:
            decision = {1: Decision.PLAY_1X, 3: Decision.PLAY_3X}.get(
                bets.play_cents // ante if bets.play_cents % ante == 0 else 0
            )
            sign = 1 if show.result.player_wins else -1
            verb = {Result.TIE: "ties", Result.PLAYER_WINS: "beats"}.get(show.result, "loses to")
            what = f"{show.player.describe()} {verb} {show.dealer.describe()}"
            results.append(
                WagerResult("Ante", "four-card-poker", "641a.7(d)(1)", ante, sign * ante, what)
            )
            results.append(
                WagerResult(
                    "Play",
                    "four-card-poker",
                    "641a.7(d)(1)",
                    bets.play_cents,
                    sign * bets.play_cents,
                    what,
                )
            )
            bonus = ante_play.bonus_pays(table).get(show.player.category)
            if bonus is not None:
                line = table.line(show.player.category.value)
                assert line is not None
                paid = int(bonus * ante)  # odds on whole cents, rounded down
                results.append(
                    WagerResult(
                        "Ante bonus",
                        "four-card-poker",
                        "641a.7(d)(1)",
                        ante,
                        paid,
                        f"{line.label} pays {line.pays} on the Ante",
                    )
                )
    sides = (
        ("aces-up", bets.aces_up_cents, rnd.player),
        ("four-card-progressive", bets.four_card_progressive_cents, rnd.player),
        ("five-card-progressive", bets.five_card_progressive_cents, rnd.player),
        ("bad-beat-bonus", bets.bad_beat_cents, (*rnd.player, *rnd.dealer)),
        ("five-card-hand-bonus", bets.five_card_bonus_cents, rnd.player),
        ("five-card-hand-bonus-dealer", bets.five_card_bonus_dealer_cents, rnd.dealer),
        ("six-card-bonus", bets.six_card_bonus_cents, rnd.six_cards if bonus_card else ()),
    )
    settled: list[WagerResult] = []
    for wid, amount, cards in sides:
        if not amount:
            continue
        w, table = wager(wid)
        meters = None
        if meter_cents and wid in meter_cents and table.progressive is not None:
            meters = {table.progressive.meters[0].level: meter_cents[wid]}
        s = w.settle(cards, table, amount, 1, meter_cents=meters, stake=stake)
        envy = 0
        for h in others if table.progressive is not None else ():
            o = w.classify(h)
            line = w.pay_line(table, o) if o is not None else None
            if line is not None and line.envy_cents:
                envy += line.envy_cents
        detail = s.describe() + (f"; envy {format_money(envy)}" if envy else "")
        settled.append(
            WagerResult(w.name, wid, w.settle_rule, amount, s.win_cents + envy, detail, s, envy)
        )
    return RoundSettlement(rnd, bets, (*results, *settled), decision, strategy_decision)


__all__ = [
    "DEFAULT_PAYTABLES",
    "AcesUp",
    "AntePlay",
    "BadBeatBonus",
    "FiveCardHandBonus",
    "FiveCardHandBonusDealer",
    "FiveCardProgressive",
    "FourCardPokerBets",
    "FourCardProgressive",
    "MeterLevel",
    "MeterShare",
    "RoundSettlement",
    "SixCardBonus",
    "WagerResult",
    "evaluate_five",
    "example_paytables",
    "settle_round",
]

"""Baccarat wagers — Player, Banker and Tie (58 Pa. Code § 631a.8), and settling a dealt round.

The base wagers of Chapter 631a are placed under § 631a.8(a) and settled after the result is
announced (§ 631a.12). Their pays are *not* in the PA text croupier holds: the data file
``paytables/data/631a.toml`` carries the industry-standard pays (docs/interpretations.md):

* Player: 1 to 1, a tie pushes (paytable ``standard``);
* Banker: 1 to 1 less a 5% commission, i.e. 19 to 20, a tie pushes (``commission``); or one of two
  no-commission variants: a Banker win with a point count of 6 pays 1 to 2 (``no-commission``), or a
  Banker win with a three-card 7 pushes (``ez``, as in EZ Baccarat);
* Tie: 8 to 1 (``8-to-1``) or 9 to 1 (``9-to-1``).

Every Baccarat wager (these and the 5 Treasures wagers, :mod:`croupier.wagers.five_treasures`) is a
:class:`BaccaratWager`: it reads a coup through :mod:`croupier.games.baccarat` and decides its
outcome from the :class:`~croupier.games.baccarat.CoupSummary` alone, so its exact counts come from
the six-card enumeration of :func:`~croupier.games.baccarat.coup_counts` and its simulation from the
vectorised coups.

>>> from croupier.cards import parse_cards
>>> round_ = settle_round(parse_cards("Ks 4h 2d Qc 3h 3s"), {"banker": 1000, "fortune-7": 500})
>>> print(round_.coup.describe())
Player  Ks 2d 3h   5 (drew 3h)
Banker  4h Qc 3s   7 (drew 3s)
Banker wins, 7 to 5
>>> [s.win_cents for s in round_.settlements]     # 19 to 20 on $10; Fortune 7 40 to 1 on $5
[950, 20000]
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import TYPE_CHECKING

from croupier.cards import Card, CardsLike, Shoe, as_cards
from croupier.errors import RulesError, UnknownWagerError
from croupier.games.baccarat import (
    COUP_SIZE,
    SUMMARIES,
    Coup,
    CoupSummary,
    Winner,
    coup_counts,
    deal_coup,
    play_coup,
    six_card_total,
    summary_indices,
    value_counts,
)
from croupier.paytables import Paytable
from croupier.wagers.at_table import CardSource, SettlementLine
from croupier.wagers.base import (
    CardGroup,
    DealSpec,
    Game,
    OrderedOutcome,
    Settlement,
    Wager,
    line_of,
)
from croupier.wagers.registry import all_wagers, get_wager, register
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:
    from croupier.wagers.base import IntArray

COUP_DEAL = DealSpec(
    (
        CardGroup(
            "the coup's cards in dealing order (Player, Banker, Player, Banker, then third cards; "
            "four to six)",
            COUP_SIZE,
            ordered=True,
            source=CardSource.COUP,
        ),
    )
)
"""What a Baccarat wager reads: the cards of one coup. For exact counts and simulation every coup
is six ordered cards of which it uses the first four to six (the six-card convention)."""


COUP_WAGER = partial(
    WagerSpec,
    game=Game.BACCARAT,
    deal=COUP_DEAL,
    kernel="croupier.analysis.kernels.plans:baccarat_coup",
)
"""The spec of a wager on a Baccarat coup, given the rest of its settings."""

BASE_WAGER = partial(COUP_WAGER, section="631a.8", settle_rule="631a.12")
"""The spec of a Baccarat wager of § 631a.8(a), settled by § 631a.12, given its id, name and
outcomes."""


class BaccaratWager(Wager):
    """A wager settled on a Baccarat coup (Chapter 631a): it decides its outcome from the coup's
    :class:`~croupier.games.baccarat.CoupSummary` in :meth:`outcome_for`.

    Cards are read in dealing order. :meth:`classify` reads as many as the coup needs (the six-card
    convention); :meth:`evaluate` and :meth:`~croupier.wagers.base.Wager.settle` insist on exactly
    the cards the drawing rules deal (§ 631a.11). Where one section's data file holds paytables
    for several wagers (each line names its wager), a wager sees only the paytables with lines for
    it.
    """

    @abstractmethod
    def outcome_for(self, coup: CoupSummary) -> OrderedOutcome | None:
        """The wager's outcome on a coup with this summary, or ``None`` when it loses."""

    # -- classification -----------------------------------------------------------------------
    def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
        """The outcome of the coup the cards (in dealing order) make; cards beyond the ones the
        coup uses are ignored."""
        return self.outcome_for(play_coup(cards).summary)

    def check_cards(self, cards: CardsLike, decks: int | None = None) -> None:
        """Raise :class:`~croupier.errors.RulesError` (§ 631a.9, § 631a.11) unless ``cards`` are
        exactly the cards the coup deals, and :class:`~croupier.errors.ShoeError` when a
        ``decks``-deck shoe cannot hold them."""
        cards = as_cards(cards)
        deal_coup(cards)
        if decks is not None:
            Shoe.standard(decks).check_deal(cards)

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` on an ``(n, 6)`` array of card indices (six-card convention)."""
        from croupier.games.baccarat import VALUE_OF_INDEX

        return _positions(type(self))[summary_indices(VALUE_OF_INDEX[cards])]

    def summary_positions(self) -> IntArray:
        """For each of the 400 coup summaries, the outcome position (``len(outcomes)``: loses)."""
        return _positions(type(self))

    # -- exact counts -------------------------------------------------------------------------
    def count_exact(self, shoe: Shoe) -> tuple[int, ...]:
        """Exact outcome counts under the six-card convention, from
        :func:`~croupier.games.baccarat.coup_counts` (cost independent of the deck count)."""
        tallies = [0] * (len(self.spec.outcomes) + 1)
        positions = _positions(type(self))
        for index, n in enumerate(coup_counts(value_counts(shoe))):
            if n:
                tallies[int(positions[index])] += n
        return tuple(tallies)

    def counting_convention(self, shoe: Shoe) -> str:
        """The six-card convention in words, with this shoe's total."""
        n = shoe.total
        where = f"{shoe}" if shoe.decks else f"shoe of {n} cards"
        return (
            f"every ordered deal of six cards from {'an' if where[0] == '8' else 'a'} {where} "
            f"({n} cards; {n}·{n - 1}·…·{n - 5} = {six_card_total(n):,}); a coup reads the first "
            "four to six, one that uses k cards standing for the (N−k)!/(N−6)! ways to fill the "
            "rest (the six-card convention); each physical card distinct"
        )


@cache
def _positions(wager_type: type[BaccaratWager]) -> IntArray:
    import numpy as np

    wager = wager_type()
    losing = len(wager.spec.outcomes)
    out = np.empty(SUMMARIES, dtype=np.int64)
    for index in range(SUMMARIES):
        outcome = wager.outcome_for(CoupSummary.from_index(index))
        out[index] = losing if outcome is None else outcome.position
    out.setflags(write=False)
    return out


# ------------------------------------------------------------------------------- base wagers


class PlayerOutcome(OrderedOutcome):
    """Player wager outcomes (§ 631a.12): the Player hand wins, or a tie (the wager pushes)."""

    PLAYER_WINS = "player-win"
    TIE = "tie"


class BankerOutcome(OrderedOutcome):
    """Banker wager outcomes (§ 631a.12). A Banker win is split by the hands the no-commission
    variants pay differently: a winning point count of 6, and a winning three-card 7."""

    BANKER_WINS = "banker-win"
    BANKER_WINS_WITH_SIX = "banker-win-six"
    BANKER_WINS_WITH_THREE_CARD_SEVEN = "banker-win-three-card-7"
    TIE = "tie"


class TieOutcome(OrderedOutcome):
    """Tie wager outcome (§ 631a.12): the two hands have the same point count."""

    TIE = "tie"


@register
class PlayerWager(BaccaratWager):
    """The Player wager (58 Pa. Code § 631a.8(a)): wins when the Player hand has the higher point
    count, pushes on a tie (pays: industry standard, ``631a.toml``)."""

    spec = BASE_WAGER(id="player", name="Player", outcomes=PlayerOutcome)

    def outcome_for(self, coup: CoupSummary) -> PlayerOutcome | None:
        """§ 631a.12: Player wins on the higher point count; a tie pushes."""
        if coup.winner is Winner.PLAYER:
            return PlayerOutcome.PLAYER_WINS
        if coup.winner is Winner.TIE:
            return PlayerOutcome.TIE
        return None


@register
class BankerWager(BaccaratWager):
    """The Banker wager (58 Pa. Code § 631a.8(a)): wins when the Banker hand has the higher point
    count, pushes on a tie; commission or no-commission pays (industry standard, ``631a.toml``)."""

    spec = BASE_WAGER(id="banker", name="Banker", outcomes=BankerOutcome)

    def outcome_for(self, coup: CoupSummary) -> BankerOutcome | None:
        """§ 631a.12: Banker wins on the higher point count (a winning 6, and a winning three-card
        7, told apart for the no-commission pays); a tie pushes."""
        if coup.winner is Winner.BANKER:
            if coup.banker_total == 6:
                return BankerOutcome.BANKER_WINS_WITH_SIX
            if coup.banker_total == 7 and coup.banker_cards == 3:
                return BankerOutcome.BANKER_WINS_WITH_THREE_CARD_SEVEN
            return BankerOutcome.BANKER_WINS
        if coup.winner is Winner.TIE:
            return BankerOutcome.TIE
        return None


@register
class TieWager(BaccaratWager):
    """The Tie wager (58 Pa. Code § 631a.8(a)): wins when the hands have equal point counts
    (8 to 1, or 9 to 1 as an option: industry standard, ``631a.toml``)."""

    spec = BASE_WAGER(id="tie", name="Tie", outcomes=TieOutcome)

    def outcome_for(self, coup: CoupSummary) -> TieOutcome | None:
        """§ 631a.12: the Tie wager wins when the point counts are equal."""
        return TieOutcome.TIE if coup.winner is Winner.TIE else None


# ------------------------------------------------------------------------------- a dealt round

BASE_WAGERS = ("player", "banker", "tie")
"""The Baccarat wagers of § 631a.8(a); a 5 Treasures wager needs one of them (§ 631c.3(a), (c))."""


@dataclass(frozen=True)
class BaccaratTable:
    """The paytables a Baccarat table offers (from the certificate holder's Rules Submission).

    Each key names a paytable of the wager's section; the 5 Treasures wagers share one paytable
    (§ 631c.3(h)).
    """

    decks: int = 8
    """Decks in the shoe (an operator parameter)."""
    player: str = "standard"
    """Player wager paytable (``631a.toml``)."""
    banker: str = "commission"
    """Banker wager paytable: ``commission``, ``no-commission`` or ``ez``."""
    tie: str = "8-to-1"
    """Tie wager paytable: ``8-to-1`` or ``9-to-1``."""
    five_treasures: str = "A"
    """5 Treasures paytable, ``A`` or ``B`` (§ 631c.3(h)), for all five of its wagers."""

    def paytable_for(self, wager: Wager) -> Paytable:
        """The paytable this table uses for ``wager`` (checked against the deck count)."""
        key = {"player": self.player, "banker": self.banker, "tie": self.tie}.get(
            wager.spec.id, self.five_treasures
        )
        return wager.paytable(key, self.decks)


@dataclass(frozen=True)
class CoupSettlement:
    """A dealt coup and the settlement of every wager placed on it (money in integer cents)."""

    coup: Coup
    settlements: tuple[Settlement, ...] = field(default_factory=tuple)

    @property
    def win_cents(self) -> int:
        """The player's net result over every wager."""
        return sum(s.win_cents for s in self.settlements)

    @property
    def returned_cents(self) -> int:
        """What the dealer hands back over every wager (stakes returned plus wins)."""
        return sum(s.returned_cents for s in self.settlements)

    def lines(self, seat: int = 1) -> tuple[SettlementLine, ...]:
        """Each wager's settlement line at ``seat`` (the table's record,
        :class:`~croupier.wagers.at_table.SettlementLine`)."""
        return tuple(line_of(seat, s) for s in self.settlements)


def baccarat_wagers() -> tuple[BaccaratWager, ...]:
    """Every registered Baccarat wager (base wagers, then the 5 Treasures wagers)."""
    return tuple(w for w in all_wagers() if isinstance(w, BaccaratWager))


def settle_round(
    cards: Sequence[Card],
    bets: Mapping[str, int],
    table: BaccaratTable | None = None,
) -> CoupSettlement:
    """Play the coup dealt as ``cards`` (exactly the cards the rules deal, in dealing order) and
    settle every wager in ``bets`` (wager id → amount in cents) under ``table``'s paytables.

    Per § 631c.3(a) and (c) a 5 Treasures wager is placed only by a player who has placed a
    Baccarat wager (Player, Banker or Tie); Cover All may be placed without the other four
    (§ 631c.3(f)(5)). Raises :class:`~croupier.errors.RulesError`,
    :class:`~croupier.errors.UnknownWagerError`, :class:`~croupier.errors.CardError` or
    :class:`~croupier.errors.ShoeError` before anything is settled.
    """
    table = table or BaccaratTable()
    wagers: list[tuple[BaccaratWager, int]] = []
    for wager_id, amount in bets.items():
        wager = get_wager(wager_id)
        if not isinstance(wager, BaccaratWager):
            raise UnknownWagerError(
                f"{wager.spec.id!r} is a {wager.spec.game.value} wager, not a Baccarat wager "
                f"(Baccarat wagers: {', '.join(w.spec.id for w in baccarat_wagers())})"
            )
        wagers.append((wager, amount))
    side_bets = [w.spec.id for w, _ in wagers if w.spec.id not in BASE_WAGERS]
    if side_bets and not any(w.spec.id in BASE_WAGERS for w, _ in wagers):
        raise RulesError(
            f"a 5 Treasures wager ({', '.join(side_bets)}) is placed only after a Baccarat wager "
            "(Player, Banker or Tie)",
            section="631c.3(c)",
        )
    coup = deal_coup(cards)
    Shoe.standard(table.decks).check_deal(cards)
    paytables = [(w, table.paytable_for(w), amount) for w, amount in wagers]
    settlements = tuple(
        w.settle(cards, paytable, amount, table.decks) for w, paytable, amount in paytables
    )
    return CoupSettlement(coup, settlements)

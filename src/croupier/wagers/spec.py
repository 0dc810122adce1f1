"""A wager's settings as one record: what its regulation section says, read as data — with the
values it is made of: the outcomes (:class:`OrderedOutcome`) and the cards read (:class:`DealSpec`).

Each wager class sets ``spec = WagerSpec(...)`` (the model: a frozen dataclass with a docstring on
every field, like hhoppe/blackjack's ``Rules``); :class:`~croupier.wagers.base.Wager` reads its
settings from it, and copies each field onto the class so that ``wager.id``, ``wager.section`` …
read as before.

Wagers of one game that share settings build their specs with :func:`functools.partial`
(``COUP_WAGER = partial(WagerSpec, game=Game.BACCARAT, deal=COUP_DEAL, …)``), and a wager that is
another under a house rule with :func:`dataclasses.replace` of that one's spec.

>>> from croupier.wagers import get_wager
>>> get_wager("perfect-pairs").spec.base_rule
'633b.1(c)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from math import prod

from croupier.cards import Card
from croupier.errors import CardError
from croupier.poker.ranking import RankedCategory
from croupier.wagers.at_table import CardSource, Game, SettleWhen, TableContext


class OrderedOutcome(RankedCategory):
    """Base of a wager's outcome enum: members declared best first, valued by paytable key (a
    ranking of :mod:`croupier.poker.ranking`).

    Members compare by rank, a better outcome being greater:

    >>> from croupier.wagers.perfect_pairs import PerfectPairsOutcome as O
    >>> O.PERFECT_PAIR > O.COLORED_PAIR > O.MIXED_PAIR
    True
    >>> O("colored-pair").position
    1
    """

    @property
    def key(self) -> str:
        """The paytable outcome key."""
        return str(self._value_)  # .value, without the enum property's Python call

    @property
    def position(self) -> int:
        """0 for the best outcome, 1 for the next, …"""
        return list(type(self)).index(self)

    @property
    def line_key(self) -> str:
        """The paytable line that pays this outcome: its own key, unless the outcome is a variant
        of a printed line (AxMan's pays multiplied by the player's kings of diamonds, § 633c.12(j))."""
        return self.key

    @property
    def multiplier_condition(self) -> str | None:
        """The paytable multiplier (:attr:`Paytable.multipliers` condition) this outcome's pay is
        multiplied by, or ``None`` (the default: the pay as printed)."""
        return None

    @classmethod
    def _best_first(cls) -> bool:
        return True


@dataclass(frozen=True)
class CardGroup:
    """A named group of cards a wager reads, e.g. the player's initial two cards.

    ``ordered`` is False when the order within the group does not matter to the wager (a player's
    two cards); the exact counts then count each set of physical cards once. ``source`` says where
    at the table the cards come from (``None``: nowhere the table deals them, e.g. a wager settled
    only in analysis).
    """

    name: str
    size: int
    ordered: bool = False
    source: CardSource | None = None


@dataclass(frozen=True)
class DealSpec:
    """The cards a wager reads, as groups in dealing order (player's two cards, dealer's upcard)."""

    groups: tuple[CardGroup, ...]

    @cached_property
    def size(self) -> int:
        """How many cards the wager reads."""
        return sum(g.size for g in self.groups)

    @property
    def unordered_symmetry(self) -> int:
        """How many ordered deals make one combination: the product of k! over unordered groups."""
        return prod(_factorial(g.size) for g in self.groups if not g.ordered)

    def describe(self) -> str:
        """e.g. ``'player's two cards + dealer's upcard'``."""
        return " + ".join(g.name for g in self.groups)

    def at_table(self, ctx: TableContext, seat: int) -> tuple[Card, ...]:
        """The cards the groups read at ``seat`` of a dealt round, in order.

        Raises :class:`CardError` naming a group no source at the table deals.
        """
        cards: list[Card] = []
        for g in self.groups:
            if g.source is None:
                raise CardError(f"the table deals no {g.name}", "")
            cards += ctx.cards.read(g.source, seat)
        return tuple(cards)


def _factorial(n: int) -> int:
    return prod(range(1, n + 1))


@dataclass(frozen=True, kw_only=True)
class WagerSpec:
    """What one regulation section says about a wager: its id and name, where it is played, the
    cards it reads, and the paragraphs the table cites when it checks, closes and settles it."""

    # -- what the wager is ---------------------------------------------------------------------
    id: str
    """The wager's id, lower case (``"perfect-pairs"``): what a Rules Submission, a round file, the
    command line and the service name it by."""
    name: str
    """The wager's name for people (``"Perfect Pairs"``)."""
    game: Game
    """The base game at whose tables it is offered (``Game.BLACKJACK``)."""
    section: str
    """The section of 58 Pa. Code that defines it (``"633b.1"``); its paytables are the data file
    of this section."""
    settle_rule: str
    """The paragraph that settles it (``"633b.1(e)"``): the section cited on each settlement."""
    outcomes: type[OrderedOutcome]
    """The winning combinations, best first, valued by the paytable lines' outcome keys."""
    deal: DealSpec
    """The cards it reads, as groups in dealing order, each naming where at the table they come
    from."""
    # -- the section's rules on decks, sizes and pays --------------------------------------------
    allowed_decks: tuple[int, ...] | None = None
    """The deck counts the section allows (``None``: the section sets none)."""
    decks_rule: str | None = None
    """The subsection that states :attr:`allowed_decks`."""
    wager_amount_rule: str | None = None
    """The subsection that fixes the progressive wager sizes (e.g. § 633b.3(e): $1 or $5)."""
    seed_rule: str | None = None
    """The subsection that sets the progressive meter's seed (e.g. § 633b.3(j))."""
    fallbacks: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Outcome key → outcome key paid instead when the paytable prints "N/A" for the first (left
    out of the spec's hash, which a mapping has none of)."""
    # -- what the table needs (read by croupier.table: submission checks, round, training) ------
    base_wagers: tuple[str, ...] = ()
    """The wagers one of which the player must have placed at the seat first (Perfect Pairs after
    the Blackjack wager, § 633b.1(c)); empty: a base wager, or a wager that needs none."""
    base_rule: str | None = None
    """The paragraph requiring :attr:`base_wagers` (§ 633b.1(c))."""
    settled: SettleWhen = SettleWhen.WITH_BASE_GAME
    """When the table settles the wager (§ 633b.1(e): right after the second card)."""
    lockout_rule: str | None = None
    """The paragraph that closes the wager at "No more bets" (``None``: the base game's)."""
    limits_rule: str | None = None
    """The paragraph on the table's minimum and maximum (``None``: § 601a.2, the submission)."""
    settles_with: str | None = None
    """The wager whose :meth:`~croupier.wagers.base.Wager.settle_at_table` settles this one too,
    seat by seat in one pass (Four Card Poker's wagers with the Ante, § 641a.7(d)); ``None``:
    settled on its own."""
    one_paytable: tuple[str, str] | None = None
    """Set when every wager of the section at a table shares one paytable: (what the wagers are
    called, the paragraph that says so) — ``("the 5 Treasures wagers", "631c.3(h)")``."""
    stands_alone: bool = False
    """Whether a player may place it without the base game's wager (Aces Up, § 641a.7(d)(3)): a
    table offering it offers a round without its base wager."""
    aliases: tuple[str, ...] = ()
    """Ids of the same wager under another house rule, which a table offering this one offers
    (``axman`` and ``axman-h17``)."""
    # -- how croupier analyses it ----------------------------------------------------------------
    kernel: str | None = None
    """The compiled simulation of this wager: ``"module:function"`` of a plan function under
    :mod:`croupier.analysis.kernels` (given the wager and the shoe, it returns the engine dealing
    the rounds and the classifier reading them); ``None``: the numpy simulator
    (:func:`croupier.analysis.simulate.simulate_counts`)."""

"""What every wager module provides: outcomes, the cards it reads, classification and settlement.

A wager module (one per regulation section, ``croupier/wagers/<name>.py``) defines

* an :class:`OrderedOutcome` enum — the winning combinations of the section, best first, each valued
  by the outcome key its paytable lines use;
* a :class:`Wager` subclass whose ``spec`` (:class:`~croupier.wagers.spec.WagerSpec`, one record)
  says what the section says — which cards it reads (:class:`DealSpec`), which deck counts it
  allows, the paragraphs the table cites — and whose methods classify a dealt hand (scalar, and
  vectorised on integer card arrays for the simulator); it registers an instance with
  :func:`croupier.wagers.registry.register`.

:class:`OrderedOutcome`, :class:`CardGroup` and :class:`DealSpec` live in
:mod:`croupier.wagers.spec` with the record they make up, and are imported here as before.

Paytables come from the data file of the wager's section; settlement and analysis read the pays from
there, so a wager module holds no numbers of its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import TYPE_CHECKING, Any, ClassVar, Self

from croupier.cards import Card, CardsLike, Shoe, as_cards, decks_phrase, format_cards
from croupier.errors import (
    CardError,
    InputError,
    PaytableError,
    RulesError,
    UnknownPaytableError,
    one_of,
)
from croupier.frozen import stored_at_once
from croupier.paytables import (
    MeterLevel,
    MeterShare,
    NotAvailable,
    OddsFor,
    OddsTo,
    PayLine,
    Paytable,
    PaytableBook,
    Push,
    builtin_paytables,
)
from croupier.units import check_cents, format_money
from croupier.wagers.at_table import Game as Game
from croupier.wagers.at_table import SettlementLine, SettleWhen, TableContext
from croupier.wagers.spec import CardGroup as CardGroup
from croupier.wagers.spec import DealSpec as DealSpec
from croupier.wagers.spec import OrderedOutcome as OrderedOutcome
from croupier.wagers.spec import WagerSpec

if TYPE_CHECKING:  # numpy is imported where a wager is vectorised (start-up: settling needs none)
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]


def __getattr__(name: str) -> object:
    """``IntArray`` (the numpy array of card indices), numpy imported on first use (PEP 562)."""
    if name == "IntArray":
        import numpy as np
        import numpy.typing as npt

        return npt.NDArray[np.int64]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class PricedOutcome:
    """How a wager that prices its own outcomes (:meth:`Wager.priced_outcomes`) shows and values
    one: the label and pays for people, and the net win per unit wagered."""

    label: str
    pays: str
    net: Fraction


class ProgressiveStake(Enum):
    """How an award that is a share of a progressive meter relates to the wager.

    Progressive wagers are collected into the table inventory before the deal (58 Pa. Code
    § 633b.2(f), § 633b.3(f)). ``COLLECTED`` (the default, the industry's reading): the meter award
    is the whole payment, the stake is not returned, so the net win is award − stake.
    ``RETURNED``: the award is paid on top of the returned stake, like "to 1" odds.
    See docs/interpretations.md.
    """

    COLLECTED = "collected"
    RETURNED = "returned"


MeterValues = dict[MeterLevel, Fraction]
"""Meter amounts in units of the wager (meter dollars ÷ wager dollars), by level."""


@lru_cache(maxsize=1024)
def _checked_paytable(wager: Wager, key: str, decks: int | None) -> Paytable:
    return wager._find_paytable(key, decks)


_NOTHING_DROPPED = Fraction(0)
"""No fraction of a cent left by rounding (the common case: one value, not a new one a pay)."""


def net_win(
    line: PayLine | None,
    meters: MeterValues | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
) -> Fraction:
    """Net win per unit wagered for a paid line (``None`` or "N/A": the wager loses, −1).

    "X to Y" nets X/Y; "X for Y" nets X/Y − 1; a push 0; a meter share nets share × meter − 1 (stake
    collected) or share × meter (stake returned). Raises :class:`PaytableError` when a meter share
    is paid and no meter value is given.

    >>> from croupier.paytables import parse_pay
    >>> net_win(PayLine("x", "X", parse_pay("25 to 1")))
    Fraction(25, 1)
    >>> net_win(PayLine("x", "X", parse_pay("10% of Progressive")),
    ...         {MeterLevel.PROGRESSIVE: Fraction(1000)})
    Fraction(99, 1)
    """
    if line is None:
        return Fraction(-1)
    pays = line.pays
    if isinstance(pays, OddsTo | OddsFor | Push):
        return pays.net
    if isinstance(pays, NotAvailable):
        return Fraction(-1)
    if meters is None or pays.level not in meters:
        raise PaytableError(
            f"line {line.label!r} pays {pays} but no {pays.level.value} meter value"
        )
    award = pays.share * meters[pays.level]
    return award - 1 if stake is ProgressiveStake.COLLECTED else award


@stored_at_once
@dataclass(frozen=True)
class Settlement:
    """The settled result of one wager on one dealt hand. Money in integer cents.

    ``win_cents`` is the player's net result (−amount for a loss); ``returned_cents`` what the dealer
    hands back (stake plus win for odds pays; the award alone for a collected progressive stake;
    0 for a loss). ``pending_validation`` is True for a meter award, which a floorperson or above
    must validate before it is paid (58 Pa. Code § 633b.2(h)(3), § 633b.3(h)(3)).
    ``rounding_cents_dropped`` is what rounding a pay down to the cent removed (see
    docs/interpretations.md).
    """

    wager: str
    section: str
    paytable: str
    cards: tuple[Card, ...]
    outcome: OrderedOutcome | None
    line: PayLine | None
    amount_cents: int
    win_cents: int
    returned_cents: int
    pending_validation: bool = False
    rounding_cents_dropped: Fraction = Fraction(0)
    factor: int = 1
    """The multiplier applied to a winning pay (1 unless a paytable multiplier applies)."""

    @property
    def won(self) -> bool:
        """Whether the wager was paid."""
        return self.line is not None

    def describe(self) -> str:
        """One line for people: cards, outcome, pay and result."""
        what = self.line.label if self.line else "no winning combination"
        pays = f" pays {self.line.pays}" if self.line else ""
        if self.line and self.factor != 1:
            pays += f" ×{self.factor}"
        sign = "+" if self.win_cents >= 0 else ""
        return (
            f"{format_cards(self.cards)}: {what}{pays}; {sign}{format_money(self.win_cents)} "
            f"on {format_money(self.amount_cents)}"
        )


def line_of(seat: int, s: Settlement, bet: str = "", extra_cents: int = 0) -> SettlementLine:
    """The settlement line of ``s`` at ``seat`` (``extra_cents``: an envy bonus paid beside it,
    § 633b.2(i)); ``bet`` the id of the bet it settles when it is not ``s.wager``."""
    detail = s.describe() + (f"; envy {format_money(extra_cents)}" if extra_cents else "")
    return SettlementLine(
        seat=seat,
        wager=s.wager,
        outcome=s.line.label if s.line else "no winning combination",
        pays=(str(s.line.pays) + (f" ×{s.factor}" if s.factor != 1 else "")) if s.line else "loses",
        stake_cents=s.amount_cents,
        win_cents=s.win_cents + extra_cents,
        returned_cents=s.returned_cents + extra_cents,
        section=s.section,
        pending_validation=s.pending_validation,
        outcome_key=s.line.outcome if s.line else None,
        detail=detail,
        bet="" if bet == s.wager else bet,
        rounding_cents_dropped=s.rounding_cents_dropped,
    )


@dataclass(frozen=True)
class Wager(ABC):
    """A wager defined by one regulation section. Subclasses set :attr:`spec` (the section's
    settings, one :class:`~croupier.wagers.spec.WagerSpec` record) and implement
    :meth:`classify` (and :meth:`classify_indices` for the simulator).
    """

    spec: ClassVar[WagerSpec]
    """The wager's settings: id, name, section, the cards it reads, the rules the table cites."""

    # Each field of the spec, copied onto the class when it sets ``spec`` (__init_subclass__), so
    # that ``wager.id``, ``wager.section`` … read as before; see WagerSpec for what each means.
    id: ClassVar[str]
    name: ClassVar[str]
    game: ClassVar[Game]
    section: ClassVar[str]
    settle_rule: ClassVar[str]
    outcomes: ClassVar[type[OrderedOutcome]]
    deal: ClassVar[DealSpec]
    allowed_decks: ClassVar[tuple[int, ...] | None]
    decks_rule: ClassVar[str | None]
    wager_amount_rule: ClassVar[str | None]
    seed_rule: ClassVar[str | None]
    fallbacks: ClassVar[Mapping[str, str]]
    base_wagers: ClassVar[tuple[str, ...]]
    base_rule: ClassVar[str | None]
    settled: ClassVar[SettleWhen]
    lockout_rule: ClassVar[str | None]
    limits_rule: ClassVar[str | None]
    settles_with: ClassVar[str | None]
    one_paytable: ClassVar[tuple[str, str] | None]
    stands_alone: ClassVar[bool]
    aliases: ClassVar[tuple[str, ...]]
    kernel: ClassVar[str | None]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Copy the fields of the class's own :attr:`spec` onto it (``cls.id`` is ``spec.id``).

        Raises :class:`TypeError` for a class that sets a setting outside its spec (``id = …``
        in the class body: it would not be read)."""
        super().__init_subclass__(**kwargs)
        names = [f.name for f in fields(WagerSpec)]
        stray = [n for n in names if n in cls.__dict__]
        if stray:
            raise TypeError(
                f"{cls.__qualname__} sets {', '.join(stray)} in its class body: a wager's "
                f"settings are its spec, e.g. spec = WagerSpec({stray[0]}=...)"
            )
        spec = cls.__dict__.get("spec")
        if spec is not None:
            for name in names:
                setattr(cls, name, getattr(spec, name))

    book_override: PaytableBook | None = None
    """Paytables to read instead of the built-in ones (see :meth:`with_book`)."""

    @property
    def book(self) -> PaytableBook:
        """Where the wager's paytables come from: the override, else the built-in paytables."""
        return self.book_override if self.book_override is not None else builtin_paytables()

    # -- regulation rules ------------------------------------------------------------------
    @property
    def citation(self) -> str:
        """``'58 Pa. Code § 633b.1'``."""
        return f"58 Pa. Code § {self.spec.section}"

    def check_decks(self, decks: int) -> None:
        """Raise :class:`RulesError` citing the section when it forbids ``decks`` decks."""
        if self.spec.allowed_decks is not None and decks not in self.spec.allowed_decks:
            raise RulesError(
                f"the {self.spec.name} wager is played with "
                f"{decks_phrase(self.spec.allowed_decks, ' or ')}, not {decks}",
                section=self.spec.decks_rule or self.spec.section,
            )

    # -- paytables -------------------------------------------------------------------------
    def with_book(self, book: PaytableBook) -> Self:
        """The same wager reading its paytables from ``book`` (e.g. with user paytables added)."""
        return type(self)(book_override=book)

    def serves(self, table: Paytable) -> bool:
        """Whether ``table`` has lines for this wager: where one section's table serves several
        wagers (§ 631c.3(h), § 641a.7), each line names its wager; a line naming none serves all."""
        return any(line.wager in (None, self.spec.id) for line in table.lines)

    def paytables(self) -> tuple[Paytable, ...]:
        """The paytables of the wager's section that serve it, checked against its outcomes."""
        tables = tuple(t for t in self.book.for_section(self.spec.section) if self.serves(t))
        for t in tables:
            self._check_paytable(t)
        return tables

    def paytable(self, key: str, decks: int | None = None) -> Paytable:
        """The paytable named ``key`` (for ``decks`` decks), checked; see :meth:`PaytableBook.get`.

        Raises :class:`~croupier.errors.UnknownPaytableError` (also for a paytable of the section
        that serves another wager), :class:`RulesError` (deck count forbidden by the section, or
        not the paytable's: cites :attr:`decks_rule`) or :class:`PaytableError` (the paytable
        lacks a line).

        The wager, its book and paytables are immutable, so a paytable found and checked once is
        remembered (a settlement looks its paytable up on every call); errors are raised afresh.
        """
        return _checked_paytable(self, key, decks)

    def _find_paytable(self, key: str, decks: int | None) -> Paytable:
        """:meth:`paytable` without the memo."""
        if decks is not None:
            self.check_decks(decks)
            printed = sorted(
                {
                    d
                    for t in self.book.for_section(self.spec.section)
                    if t.key == key
                    for d in t.decks
                }
            )
            if printed and decks not in printed:
                raise RulesError(
                    f"paytable {key} of the {self.spec.name} wager is printed for "
                    f"{decks_phrase(printed, ' or ')}, not {decks}",
                    section=self.spec.decks_rule or self.spec.section,
                )
        table = self.book.get(self.spec.section, key, decks)
        if not self.serves(table):
            own = ", ".join(dict.fromkeys(t.key for t in self.paytables())) or "none"
            raise UnknownPaytableError(
                f"paytable {table.key} of § {self.spec.section} is not for the "
                f"{self.spec.name} wager (its paytables: {own})"
            )
        self._check_paytable(table)
        return table

    def _check_paytable(self, table: Paytable) -> None:
        missing = [o.line_key for o in self.spec.outcomes if table.line(o.line_key) is None]
        known = {o.key for o in self.spec.outcomes} | set(self.spec.fallbacks.values())
        unknown = [
            line.outcome
            for line in table.lines
            if line.outcome not in known and line.wager in (None, self.spec.id)
        ]
        if missing or unknown:
            problems = []
            if unknown:
                problems.append(f"lines for outcomes the wager does not have: {', '.join(unknown)}")
            if missing:
                problems.append(
                    f"no line for {', '.join(missing)} (an outcome the paytable does not pay "
                    'still needs its line: pays = "N/A")'
                )
            expected = ", ".join(o.key for o in self.spec.outcomes)
            raise PaytableError(
                f"paytable {table.key} of § {table.section} ({table.source}) has "
                f"{'; '.join(problems)} (the {self.spec.name} wager's outcomes: {expected})"
            )
        for d in table.decks:
            self.check_decks(d)

    def offerings(self) -> tuple[tuple[Paytable, int], ...]:
        """Every (paytable, deck count) this wager may be offered with."""
        return tuple((t, d) for t in self.paytables() for d in t.decks)

    def pay_line(self, table: Paytable, outcome: OrderedOutcome | None) -> PayLine | None:
        """The line that pays ``outcome`` under ``table`` (following :attr:`fallbacks` past an
        "N/A"), or ``None`` when the wager loses."""
        key = outcome.line_key if outcome is not None else None
        while key is not None:
            line = table.line(key)
            if line is not None and not isinstance(line.pays, NotAvailable):
                return line
            key = self.spec.fallbacks.get(key)
        return None

    def pay_factor(self, table: Paytable, outcome: OrderedOutcome | None) -> int:
        """The multiplier on ``outcome``'s pay under ``table``: 1, or the factor of the paytable
        multiplier the outcome names (:attr:`OrderedOutcome.multiplier_condition`).

        Raises :class:`PaytableError` when the paytable lacks that multiplier.
        """
        condition = outcome.multiplier_condition if outcome is not None else None
        if condition is None:
            return 1
        for m in table.multipliers:
            if m.condition == condition:
                return m.factor
        raise PaytableError(
            f"paytable {table.key} of § {table.section} has no multiplier {condition!r}"
        )

    # -- classification --------------------------------------------------------------------
    @abstractmethod
    def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
        """The winning combination the cards (in dealing order, :attr:`deal`) form, or ``None``.

        Callers outside hot loops should use :meth:`evaluate`, which validates the cards.
        """

    def count_exact(self, shoe: Shoe) -> tuple[int, ...] | None:
        """Exact outcome counts by the wager's own method, or ``None`` (the default) to let
        :func:`croupier.analysis.exact.exact_counts` enumerate every deal of :attr:`deal`.

        Override when enumerating card sequences is too slow (e.g. baccarat coups by composition).
        Same shape as the generic result: one count per outcome position, then the count of deals
        with no winning combination; state the convention in :meth:`counting_convention`.
        """
        return None

    def counting_convention(self, shoe: Shoe) -> str | None:
        """The convention of :meth:`count_exact` in words, or ``None`` for the generic one."""
        return None

    def simulate_own(
        self,
        shoe: Shoe,
        rounds: int,
        seed: int,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, ...] | None:
        """Observed outcome counts from the wager's own simulation, or ``None`` (the default) to
        let :func:`croupier.analysis.simulate.simulate_counts` deal the cards of :attr:`deal`.

        Override when the cards the wager reads depend on play (AxMan reads the dealer's final
        hand: the simulation plays whole rounds). Same shape as :meth:`count_exact`; describe the
        simulation in :meth:`simulation_convention`.
        """
        return None

    def simulation_convention(self, shoe: Shoe, rounds: int, seed: int) -> str | None:
        """What :meth:`simulate_own` deals, in words, or ``None`` for the generic simulation."""
        return None

    def priced_outcomes(self, table: Paytable) -> tuple[PricedOutcome, ...] | None:
        """Label, pays and net win of each outcome, then of the deals that win nothing, for a
        wager whose results are not single paytable lines — a base game's Ante and Play settled
        together (58 Pa. Code § 641a.7(d)(1)). ``None`` (the default): each outcome is paid by its
        paytable line."""
        return None

    def extra_figures(self, table: Paytable) -> tuple[tuple[str, str, Any], ...]:
        """Figures beyond the par sheet as (JSON key, line for people, JSON value) — e.g. a base
        game's house edge per total wagered and how often its strategy plays; none by default."""
        return ()

    def classify_indices(self, cards: IntArray) -> IntArray:
        """Vectorised :meth:`classify` for the simulator.

        ``cards`` is an ``(n, deal.size)`` array of card indices (``Card.index``); the result holds,
        per row, the outcome's :attr:`OrderedOutcome.position`, or ``len(outcomes)`` for no winning
        combination. This default loops over :meth:`classify`; wagers override it with numpy.
        """
        import numpy as np

        from croupier.cards import DECK

        losing = len(self.spec.outcomes)
        out = np.empty(cards.shape[0], dtype=np.int64)
        for i, row in enumerate(cards.tolist()):
            o = self.classify([DECK[c] for c in row])
            out[i] = losing if o is None else o.position
        return out

    def check_cards(self, cards: CardsLike, decks: int | None = None) -> None:
        """Raise :class:`CardError` unless ``cards`` (:class:`Card` values or text such as
        ``"8s 8h"``) is the number of cards the wager reads, and
        :class:`~croupier.errors.ShoeError` when a ``decks``-deck shoe cannot hold them."""
        cards = as_cards(cards)
        deal = self.spec.deal
        if len(cards) != deal.size:
            raise CardError(
                f"the {self.spec.name} wager reads {deal.size} cards ({deal.describe()}), "
                f"got {len(cards)}",
                format_cards(cards),
            )
        if decks is not None:
            Shoe.standard(decks).check_deal(cards)

    def evaluate(self, cards: CardsLike, decks: int | None = None) -> OrderedOutcome | None:
        """Validate then :meth:`classify` ``cards`` (:class:`Card` values or text, in dealing
        order, :attr:`deal`).

        Raises what :meth:`check_cards` raises: :class:`CardError` (not the cards the wager
        reads) and :class:`~croupier.errors.ShoeError` (more than a ``decks``-deck shoe holds).
        """
        cards = as_cards(cards)
        self.check_cards(cards, decks)
        return self.classify(cards)

    # -- settlement at a table -------------------------------------------------------------
    def settle_at_table(self, ctx: TableContext) -> tuple[SettlementLine, ...]:
        """Settle ``ctx.bets`` (this wager's, with those that :attr:`settles_with` it) at a dealt
        round: by default :meth:`settle` on the cards of :attr:`deal` (:meth:`DealSpec.at_table`)
        by the wager and paytable :meth:`at_table` picks, one line per bet, seats in the order
        given.

        Raises what :meth:`at_table` and :meth:`settle` raise (:class:`CardError`,
        :class:`RulesError`, :class:`PaytableError`).
        """
        wager, table = self.at_table(ctx)
        return tuple(
            line_of(
                b.seat,
                wager.settle(
                    wager.spec.deal.at_table(ctx, b.seat), table, b.amount_cents, ctx.decks
                ),
                b.wager,
            )
            for b in ctx.bets
        )

    def at_table(self, ctx: TableContext) -> tuple[Wager, Paytable]:
        """The wager a table settles this one's bets as, and under which paytable: by default
        this wager and the paytable the table offers for it."""
        return self, ctx.paytables[self.spec.id]

    def check_seat_bets(self, bets: dict[str, int]) -> None:
        """Check a seat's wagers at "No more bets" (``bets``: id → cents), for rules on which
        wagers go together that the base-wager rule does not state; none by default.

        Raises :class:`RulesError` citing the paragraph.
        """
        return None

    # -- settlement ------------------------------------------------------------------------
    def settle(
        self,
        cards: CardsLike,
        paytable: Paytable,
        amount_cents: int,
        decks: int,
        meter_cents: dict[MeterLevel, int] | None = None,
        stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    ) -> Settlement:
        """Settle a wager of ``amount_cents`` on ``cards`` (:class:`Card` values or text such as
        ``"8s 8h"``) dealt from ``decks`` decks.

        ``meter_cents`` gives the current value of each progressive meter level (default: the
        paytable's seeds for this wager size). Pays that are not whole cents are rounded down
        (the remainder is reported in ``rounding_cents_dropped``). Raises :class:`CardError`,
        :class:`~croupier.errors.ShoeError`, :class:`RulesError` (deck count or wager size the
        section forbids) or :class:`PaytableError`; nothing is changed on error.
        """
        if paytable.section != self.spec.section:
            raise PaytableError(
                f"paytable {paytable.key} is for § {paytable.section}, not § {self.spec.section}"
            )
        self.check_decks(decks)
        if decks not in paytable.decks:
            printed = decks_phrase(paytable.decks, " or ")
            raise RulesError(
                f"paytable {paytable.key} of the {self.spec.name} wager is printed for {printed}, "
                f"not {decks}",
                section=self.spec.decks_rule or _cited(paytable.citation) or paytable.section,
            )
        check_cents(amount_cents)  # a whole number of cents within croupier's limit
        self.check_wager_amount(paytable, amount_cents)
        cards = as_cards(cards)
        outcome = self.evaluate(cards, decks)
        line = self.pay_line(paytable, outcome)
        paid, pending, dropped, factor = 0, False, _NOTHING_DROPPED, 1  # a loss
        if line is not None:
            paid, pending, dropped, factor = self._paid(
                line, outcome, paytable, amount_cents, meter_cents, stake
            )
        return Settlement(
            self.spec.id,
            self.spec.settle_rule,
            paytable.key,
            tuple(cards),
            outcome,
            line,
            amount_cents,
            paid - amount_cents,
            paid,
            pending,
            dropped,
            factor,
        )

    def _paid(
        self,
        line: PayLine,
        outcome: OrderedOutcome | None,
        paytable: Paytable,
        amount_cents: int,
        meter_cents: dict[MeterLevel, int] | None,
        stake: ProgressiveStake,
    ) -> tuple[int, bool, Fraction, int]:
        """What the dealer hands back for a win paid by ``line`` (cents, rounded down), whether
        it waits for validation (a meter award), the fraction of a cent dropped, and the pay's
        multiplier (:meth:`settle`)."""
        pays = line.pays
        if isinstance(pays, MeterShare):
            value = (meter_cents or {}).get(pays.level)
            if value is None:
                value = paytable.meter_value_cents(pays.level, amount_cents)
            self.check_meter(paytable, pays.level, value, amount_cents)
            award = pays.share * value
            gross = award + (amount_cents if stake is ProgressiveStake.RETURNED else 0)
            paid = floor(gross)
            return paid, True, Fraction(gross) - paid, 1
        factor = self.pay_factor(paytable, outcome)
        net = net_win(line)
        # amount × (1 + net × factor), rounded down to the cent: in integers over net's
        # denominator (the same exact value as in fractions, without building them)
        paid, rest = divmod(
            amount_cents * (net.denominator + net.numerator * factor), net.denominator
        )
        return paid, False, Fraction(rest, net.denominator) if rest else _NOTHING_DROPPED, factor

    def check_wager_amount(self, paytable: Paytable, amount_cents: int) -> None:
        """Raise :class:`RulesError` when a progressive paytable does not take this wager size.

        The error cites the rule that binds: the section's wager sizes (:attr:`wager_amount_rule`,
        e.g. § 633b.2(e): $1 or $5) for a size no paytable of the section takes, else the
        paytable's own Wager row (its citation, e.g. § 633b.2(i): P1 is printed for $5)."""
        prog = paytable.progressive
        if prog is None or amount_cents in prog.wager_cents:
            return
        sizes = one_of(format_money(c) for c in prog.wager_cents)
        in_section = any(
            t.progressive is not None and amount_cents in t.progressive.wager_cents
            for t in self.book.for_section(self.spec.section)
        )
        if in_section:
            raise RulesError(
                f"paytable {paytable.key} of the {self.spec.name} wager is printed for a {sizes} "
                f"wager, not ${amount_cents / 100:g}",
                section=_cited(paytable.citation) or self.spec.section,
            )
        raise RulesError(
            f"the {self.spec.name} wager is {sizes}, not ${amount_cents / 100:g}",
            section=self.spec.wager_amount_rule or self.spec.section,
        )

    def check_meter(
        self, paytable: Paytable, level: MeterLevel, cents: int, wager_cents: int
    ) -> None:
        """Raise :class:`InputError` for a meter amount that no progressive can stand at: zero or
        less. A meter *below its seed* is accepted: the seed is the meter's initial amount and
        its reset (:attr:`seed_rule`), and a share award (10% of the meter) leaves the meter
        below it until increments refill it (docs/interpretations.md, *The meter below its
        seed*)."""
        if cents <= 0:
            raise InputError(
                f"the {level.value} meter cannot stand at {format_money(cents)}: a meter is above "
                f"$0 (its seed is {format_money(paytable.meter_value_cents(level, wager_cents))})"
            )

    def default_meters(self, paytable: Paytable, wager_cents: int) -> MeterValues:
        """Each meter at its seed, in units of a ``wager_cents`` wager."""
        if paytable.progressive is None:
            return {}
        return {
            m.level: Fraction(m.seed_for(wager_cents), wager_cents)
            for m in paytable.progressive.meters
        }


def _cited(citation: str) -> str | None:
    """``'58 Pa. Code § 633b.2(i)'`` → ``'633b.2(i)'`` (``None`` for no citation)."""
    _, sign, section = citation.partition("§")
    return (section.strip() or None) if sign else None

"""Paytables as immutable domain values.

A :class:`Paytable` is one column of a table printed in the regulation (or supplied by an operator):
its id as printed, the section that prints it, the deck counts it may be used with, its lines in
printed order, and — for progressive wagers — its meters (seed, increment rates) and envy bonuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from croupier.errors import PaytableError, UnknownPaytableError
from croupier.paytables.pays import MeterLevel, Pay


@dataclass(frozen=True)
class PayLine:
    """One printed line of a paytable.

    ``outcome`` is the machine key a wager classifies into (kebab-case, e.g. ``"perfect-pair"``);
    ``label`` is the line as printed; ``envy_cents`` the envy bonus in the "Pays w/ Envy" column,
    paid to every *other* player holding the progressive wager (58 Pa. Code § 633b.2(i)).
    ``wager`` names the wager the line belongs to where one table serves several wagers
    (§ 631c.3(h)); ``optional`` marks a pay the casino offers only if its Rules Submission says so
    (§ 633b.4(i)(2)(ii)).
    """

    outcome: str
    label: str
    pays: Pay
    envy_cents: int | None = None
    wager: str | None = None
    optional: bool = False


@dataclass(frozen=True)
class Meter:
    """One progressive meter level and how it is funded (58 Pa. Code § 633b.2(i), § 633b.3(j)).

    Exactly one of ``seed_cents`` (a fixed seed/reseed) and ``seed_wager_multiple`` (a seed of
    N times the progressive wager, § 633b.3(j)) is set. ``increment_rate`` is the share of each
    progressive wager added to this meter (the primary rate where a secondary rate, funding the
    reseed reserve, is printed too).
    """

    level: MeterLevel
    seed_cents: int | None = None
    seed_wager_multiple: int | None = None
    increment_rate: Fraction | None = None
    secondary_increment_rate: Fraction | None = None

    def seed_for(self, wager_cents: int) -> int:
        """The seed in cents for a progressive wager of ``wager_cents``."""
        if self.seed_cents is not None:
            return self.seed_cents
        assert self.seed_wager_multiple is not None
        return self.seed_wager_multiple * wager_cents


@dataclass(frozen=True)
class Progressive:
    """The progressive part of a paytable: allowed wager sizes, meters, total increment rate.

    ``wager_cents`` lists the progressive wager sizes the paytable is printed for (its "Wager" row,
    or the section's "$1 or $5"); ``total_increment_rate`` is printed by some tables instead of
    per-meter rates (§ 633b.2(i) P7–P16); ``envy_heading`` is the printed column heading
    ("Pays w/ Envy", "Pays w/ Max Envy") when the table has an envy column.
    """

    wager_cents: tuple[int, ...]
    meters: tuple[Meter, ...]
    total_increment_rate: Fraction | None = None
    envy_heading: str | None = None

    def meter(self, level: MeterLevel) -> Meter:
        """The meter of ``level``; :class:`PaytableError` when the paytable has none."""
        for m in self.meters:
            if m.level is level:
                return m
        raise PaytableError(f"this progressive has no {level.value} meter")


@dataclass(frozen=True)
class Multiplier:
    """A multiplier on a winning pay, e.g. AxMan's king of diamonds (58 Pa. Code § 633c.12(j))."""

    condition: str
    label: str
    factor: int


@dataclass(frozen=True)
class Paytable:
    """One paytable: printed id (and option), section, deck counts, lines, progressive, source.

    ``key`` is how users name it: the printed id, with ``-OPTION`` appended when the regulation
    prints options (``"P17-A"``). Two paytables of one section may share a key when their deck
    counts differ (§ 633b.3 prints Paytable 1 for six decks and another for eight).
    """

    section: str
    id: str
    title: str
    decks: tuple[int, ...]
    lines: tuple[PayLine, ...]
    citation: str
    source: str
    option: str | None = None
    progressive: Progressive | None = None
    multipliers: tuple[Multiplier, ...] = ()
    notes: str = ""
    regulation: bool = False
    """True for the paytables croupier ships, typed from the regulation; False for a user's file."""
    _by_outcome: dict[str, PayLine] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_outcome", {line.outcome: line for line in self.lines})

    @property
    def key(self) -> str:
        """The paytable's name for users: the printed id, plus ``-OPTION`` where printed."""
        return f"{self.id}-{self.option}" if self.option else self.id

    def line(self, outcome: str) -> PayLine | None:
        """The line paying ``outcome``, or ``None`` when the paytable has no such line."""
        return self._by_outcome.get(outcome)

    def outcomes(self) -> tuple[str, ...]:
        """The outcome keys in printed order."""
        return tuple(line.outcome for line in self.lines)

    def meter_value_cents(self, level: MeterLevel, wager_cents: int) -> int:
        """The seed of ``level`` for this wager size: the default meter value in analysis."""
        if self.progressive is None:
            raise PaytableError(f"paytable {self.key} of § {self.section} has no progressive meter")
        return self.progressive.meter(level).seed_for(wager_cents)


class PaytableBook:
    """An immutable collection of paytables, searchable by section, key and deck count.

    :meth:`with_paytables` returns a new book, so adding user paytables never changes the built-in
    one. Keys are matched case-insensitively.
    """

    def __init__(self, paytables: Iterable[Paytable] = ()) -> None:
        self._tables: tuple[Paytable, ...] = ()
        self._tables = self._checked(tuple(paytables))

    def __iter__(self) -> Iterator[Paytable]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    @staticmethod
    def _checked(tables: tuple[Paytable, ...]) -> tuple[Paytable, ...]:
        seen: dict[tuple[str, str, int], Paytable] = {}
        for table in tables:
            for d in table.decks:
                k = (table.section, table.key.upper(), d)
                if k in seen:
                    raise PaytableError(
                        f"paytable {table.key} of § {table.section} for {d} decks is defined twice "
                        f"({seen[k].source} and {table.source})"
                    )
                seen[k] = table
        return tables

    def with_paytables(self, extra: Iterable[Paytable]) -> PaytableBook:
        """A new book holding these paytables and ``extra``; a clash is a :class:`PaytableError`."""
        return PaytableBook(self._tables + tuple(extra))

    def sections(self) -> tuple[str, ...]:
        """The sections that have paytables, in first-seen order."""
        return tuple(dict.fromkeys(t.section for t in self._tables))

    def for_section(self, section: str) -> tuple[Paytable, ...]:
        """Every paytable of ``section`` in file order."""
        return tuple(t for t in self._tables if t.section == section)

    def get(self, section: str, key: str, decks: int | None = None) -> Paytable:
        """The paytable of ``section`` named ``key`` allowed with ``decks``.

        With ``decks`` omitted the key must name exactly one paytable. Raises
        :class:`~croupier.errors.UnknownPaytableError` listing what exists when nothing matches.
        """
        named = [t for t in self.for_section(section) if t.key.upper() == key.strip().upper()]
        if not named:
            known = ", ".join(dict.fromkeys(t.key for t in self.for_section(section))) or "none"
            raise UnknownPaytableError(
                f"§ {section} has no paytable {key!r} (its paytables: {known})"
            )
        allowed = ", ".join(str(d) for d in sorted({d for t in named for d in t.decks}))
        if decks is not None:
            for t in named:
                if decks in t.decks:
                    return t
            raise UnknownPaytableError(
                f"paytable {key} of § {section} is not for {decks} decks (allowed: {allowed})"
            )
        if len(named) > 1:
            raise UnknownPaytableError(
                f"paytable {key} of § {section} is printed for several deck counts "
                f"({allowed}): give the deck count"
            )
        return named[0]

"""Reading paytable files (TOML, validated with pydantic) into :class:`Paytable` values.

One file per regulation section. The shape, with every key the schema accepts::

    section = "633b.2"                       # the section that prints the paytables
    title = "Jackpot Party Progressive wager"
    citation = "58 Pa. Code § 633b.2(i)"     # where the tables are printed
    printed_in_regulation = false            # optional, default true: set false for shipped
                                             # pays the regulation does not print (industry
                                             # standard, e.g. the Baccarat base wagers)

    [[paytables]]
    id = "P17"                               # as printed
    option = "A"                             # optional: printed options (P17 Option A/B/C)
    title = "One Deck—P17, Option A"         # optional, the printed heading
    decks = [1]                              # deck counts the paytable may be used with
    citation = "..."                         # optional; defaults to the file's
    notes = "..."                            # optional
    lines = [
      { outcome = "royal-flush-diamonds", label = "Royal Flush (A—J)—Diamonds",
        pays = "100% Mega", envy = "$3,000" },
      { outcome = "fortune-7", label = "Fortune 7", pays = "40 to 1",
        wager = "fortune-7" },             # where one table serves several wagers
      { outcome = "tie-blackjack", label = "...", pays = "1 to 2",
        optional = true },                 # only if the Rules Submission offers it
      { outcome = "straight", label = "Straight", pays = "150 to 1" },
    ]
    multipliers = [ { condition = "one-king-of-diamonds", label = "...", factor = 2 } ]

    [paytables.progressive]                  # only for progressive wagers
    wagers = ["$5"]                          # progressive wager sizes
    total_increment_rate = "18.50%"          # optional
    envy_heading = "Pays w/ Max Envy"        # optional: the printed envy column heading
    meters = [
      { level = "Mega", seed = "$50,000", increment_rate = "6%" },
      # or seed_wager_multiple = 1000, and secondary_increment_rate = "6%"
    ]

Pays are written as printed ("25 to 1", "10 for 1", "100% of Progressive", "10% Major", "N/A"),
money as printed ("$3,000"), rates as printed ("3.75%"). Any mistake is a
:class:`~croupier.errors.PaytableError` naming the file and the field.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from croupier.errors import AmountLimitError, InputFileError, PaytableError, limit_of, one_line
from croupier.inputs import parse_toml, read_text, where
from croupier.paytables.model import (
    Meter,
    Multiplier,
    PayLine,
    Paytable,
    PaytableBook,
    Progressive,
)
from croupier.paytables.pays import MeterLevel, MeterShare, parse_pay
from croupier.units import parse_money, parse_percent

_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SECTION = re.compile(r"^\d{3}[a-z]\.\d+$", re.ASCII)


class _Strict(BaseModel):
    # defer_build: the schema is built at a user file's first validation, not at import (start-up:
    # croupier's own files are read without it, :func:`_shipped`)
    model_config = ConfigDict(
        extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True
    )


class LineSpec(_Strict):
    """One paytable line as written in a file."""

    outcome: str
    label: str = Field(min_length=1)
    pays: str
    envy: str | None = None
    wager: str | None = None
    optional: StrictBool = False

    @field_validator("outcome", "wager")
    @classmethod
    def _kebab(cls, v: str) -> str:
        if not _KEY.match(v):
            raise ValueError(
                f"outcome key {v!r} must be lower-case kebab-case, e.g. 'perfect-pair'"
            )
        return v

    @field_validator("pays")
    @classmethod
    def _pays(cls, v: str) -> str:
        parse_pay(v)
        return v

    @field_validator("envy")
    @classmethod
    def _envy(cls, v: str | None) -> str | None:
        if v is not None:
            parse_money(v)
        return v


class MeterSpec(_Strict):
    """One progressive meter level as written in a file."""

    level: str
    seed: str | None = None
    seed_wager_multiple: Annotated[StrictInt, Field(gt=0)] | None = None
    increment_rate: str | None = None
    secondary_increment_rate: str | None = None

    @field_validator("level")
    @classmethod
    def _level(cls, v: str) -> str:
        MeterLevel.parse(v)
        return v

    @field_validator("increment_rate", "secondary_increment_rate")
    @classmethod
    def _rate(cls, v: str | None) -> str | None:
        if v is not None and not 0 <= parse_percent(v) <= 1:
            raise ValueError(f"rate {v!r} must lie between 0% and 100%")
        return v

    @model_validator(mode="after")
    def _one_seed(self) -> MeterSpec:
        if (self.seed is None) == (self.seed_wager_multiple is None):
            raise ValueError("give exactly one of 'seed' and 'seed_wager_multiple'")
        if self.seed is not None:
            parse_money(self.seed)
        return self


class ProgressiveSpec(_Strict):
    """The progressive part of a paytable as written in a file."""

    wagers: list[str] = Field(min_length=1)
    meters: list[MeterSpec] = Field(min_length=1)
    total_increment_rate: str | None = None
    envy_heading: str | None = None

    @field_validator("wagers")
    @classmethod
    def _wagers(cls, v: list[str]) -> list[str]:
        for w in v:
            if parse_money(w) <= 0:
                raise ValueError(f"progressive wager {w!r} must be positive")
        return v


class MultiplierSpec(_Strict):
    """A pay multiplier as written in a file."""

    condition: str
    label: str
    factor: Annotated[StrictInt, Field(ge=1)]


class PaytableSpec(_Strict):
    """One paytable as written in a file."""

    id: str = Field(min_length=1)
    option: str | None = None
    title: str | None = None
    decks: list[Annotated[StrictInt, Field(ge=1, le=8)]] = Field(min_length=1)
    citation: str | None = None
    notes: str = ""
    lines: list[LineSpec] = Field(min_length=1)
    progressive: ProgressiveSpec | None = None
    multipliers: list[MultiplierSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> PaytableSpec:
        if len(set(self.decks)) != len(self.decks):
            raise ValueError(f"deck counts repeat: {self.decks}")
        outcomes = [line.outcome for line in self.lines]
        dupes = sorted({o for o in outcomes if outcomes.count(o) > 1})
        if dupes:
            raise ValueError(f"outcome keys repeat: {', '.join(dupes)}")
        levels = (
            {MeterLevel.parse(m.level) for m in self.progressive.meters}
            if self.progressive
            else set()
        )
        for line in self.lines:
            pay = parse_pay(line.pays)
            if isinstance(pay, MeterShare) and pay.level not in levels:
                raise ValueError(
                    f"line {line.outcome!r} pays {line.pays!r} but the paytable defines no "
                    f"{pay.level.value} meter under [progressive]"
                )
            if line.envy is not None and self.progressive is None:
                raise ValueError(f"line {line.outcome!r} has an envy bonus but no [progressive]")
        return self


class SectionFile(_Strict):
    """A whole paytable file: one regulation section."""

    section: str
    title: str
    citation: str
    printed_in_regulation: StrictBool = True
    paytables: list[PaytableSpec] = Field(min_length=1)

    @field_validator("section")
    @classmethod
    def _section(cls, v: str) -> str:
        if not _SECTION.match(v):
            raise ValueError(f"section {v!r} must look like '633b.1'")
        return v


def _shipped(data: dict[str, Any]) -> SectionFile:
    """croupier's own section file as the :class:`SectionFile` it validates to, read without
    validating (start-up time: building the pydantic schema costs more than reading a settle's
    paytables). The shipped files are validated by ``tests/test_startup.py``, which checks that
    this reading and :meth:`SectionFile.model_validate` give the same paytables for every one."""

    def ns(mapping: dict[str, Any], defaults: dict[str, Any]) -> Any:
        values = {**defaults, **mapping}
        return SimpleNamespace(
            **{k: v.strip() if isinstance(v, str) else v for k, v in values.items()}
        )

    line_defaults = {"envy": None, "wager": None, "optional": False}
    meter_defaults = {
        "seed": None,
        "seed_wager_multiple": None,
        "increment_rate": None,
        "secondary_increment_rate": None,
    }
    tables = []
    for p in data["paytables"]:
        prog = p.get("progressive")
        progressive = None
        if prog is not None:
            progressive = ns(
                {**prog, "meters": [ns(m, meter_defaults) for m in prog["meters"]]},
                {"total_increment_rate": None, "envy_heading": None},
            )
        table = {
            **p,
            "lines": [ns(line, line_defaults) for line in p["lines"]],
            "progressive": progressive,
            "multipliers": [ns(m, {}) for m in p.get("multipliers", [])],
        }
        tables.append(ns(table, {"option": None, "title": None, "citation": None, "notes": ""}))
    spec = ns({**data, "paytables": tables}, {"printed_in_regulation": True})
    return cast(SectionFile, spec)


def _to_domain(spec: SectionFile, source: str, regulation: bool) -> tuple[Paytable, ...]:
    tables = []
    for p in spec.paytables:
        progressive = None
        if p.progressive is not None:
            progressive = Progressive(
                wager_cents=tuple(parse_money(w) for w in p.progressive.wagers),
                meters=tuple(
                    Meter(
                        level=MeterLevel.parse(m.level),
                        seed_cents=parse_money(m.seed) if m.seed is not None else None,
                        seed_wager_multiple=m.seed_wager_multiple,
                        increment_rate=(
                            parse_percent(m.increment_rate) if m.increment_rate else None
                        ),
                        secondary_increment_rate=(
                            parse_percent(m.secondary_increment_rate)
                            if m.secondary_increment_rate
                            else None
                        ),
                    )
                    for m in p.progressive.meters
                ),
                total_increment_rate=(
                    parse_percent(p.progressive.total_increment_rate)
                    if p.progressive.total_increment_rate
                    else None
                ),
                envy_heading=p.progressive.envy_heading,
            )
        tables.append(
            Paytable(
                section=spec.section,
                id=p.id,
                option=p.option,
                title=p.title or f"Paytable {p.id}" + (f", Option {p.option}" if p.option else ""),
                decks=tuple(sorted(p.decks)),
                lines=tuple(
                    PayLine(
                        outcome=line.outcome,
                        label=line.label,
                        pays=parse_pay(line.pays),
                        envy_cents=parse_money(line.envy) if line.envy is not None else None,
                        wager=line.wager,
                        optional=line.optional,
                    )
                    for line in p.lines
                ),
                citation=p.citation or spec.citation,
                source=source,
                progressive=progressive,
                multipliers=tuple(
                    Multiplier(m.condition, m.label, m.factor) for m in p.multipliers
                ),
                notes=p.notes,
                regulation=regulation,
            )
        )
    return tuple(tables)


def _where(loc: tuple[int | str, ...], data: object = None) -> str:
    """('paytables', 0, 'lines', 2, 'pays') -> 'paytable 1, line 3, pays' — with the paytable's
    id when ``data`` (the parsed file) gives it: 'paytable 1 (id 'H4'), line 3, pays'."""

    def label(key: str, n: int) -> str:
        if key != "paytables" or not isinstance(data, dict):
            return ""
        entries = data.get("paytables")
        entry = entries[n] if isinstance(entries, list) and 0 <= n < len(entries) else None
        pid = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(pid, (str, int)) and not isinstance(pid, bool):
            return f" (id {one_line(str(pid))[:40]!r})"
        return ""

    return where(loc, label)


def _wrapped(message: str, exc: Exception) -> PaytableError:
    """The file's :class:`PaytableError` for ``exc`` — an
    :class:`~croupier.errors.AmountLimitError` (a :class:`PaytableError` too) keeping its
    ``maximum`` when an amount over croupier's limit is what ``exc`` holds."""
    limit = limit_of(exc)
    return PaytableError(message) if limit is None else AmountLimitError(message, limit)


def _first_error(exc: ValidationError, data: object = None) -> str:
    parts = []
    for err in exc.errors()[:3]:
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{_where(tuple(err['loc']), data)}: {msg}")
    more = len(exc.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def parse_section_text(
    text: str, source: str, regulation: bool = False, validated: bool = True
) -> tuple[Paytable, ...]:
    """Parse the TOML ``text`` of one section file; ``source`` names it in errors.

    ``regulation`` marks the paytables as typed from the regulation (only croupier's own files);
    ``validated=False`` reads one of croupier's own files without the schema check (their tests
    run it).
    """
    try:
        # croupier's own files are read as they are; any other text within the input limits
        data = tomllib.loads(text) if regulation else parse_toml(text, source)
    except tomllib.TOMLDecodeError as exc:  # pragma: no cover - the shipped files are tested
        raise PaytableError(f"{source}: not valid TOML: {exc}") from exc
    except InputFileError as exc:  # malformed TOML, too deep, a number too long
        raise PaytableError(str(exc)) from exc
    if regulation and not validated:
        return _to_domain(_shipped(data), source, data.get("printed_in_regulation", True))
    try:
        spec = SectionFile.model_validate(data)
    except ValidationError as exc:
        raise _wrapped(f"{source}: {_first_error(exc, data)}", exc) from exc
    except PaytableError as exc:  # raised inside a validator
        raise _wrapped(f"{source}: {exc}", exc) from exc
    return _to_domain(spec, source, regulation and spec.printed_in_regulation)


def load_paytable_file(path: str | Path) -> tuple[Paytable, ...]:
    """Load a user's paytable file (same schema as the built-in ones).

    Raises :class:`~croupier.errors.PaytableError` when the file cannot be read or is invalid.
    """
    try:
        text = read_text(path)  # a regular UTF-8 file within the size limit
    except InputFileError as exc:
        raise PaytableError(f"paytable file {exc}") from exc
    return parse_section_text(text, one_line(str(path)))


_SECTION_KEY = re.compile(r'^section\s*=\s*"([^"]*)"', re.MULTILINE)


@cache
def _builtin_files() -> dict[str, str]:
    """Each built-in file's section → the file's name (``631a.8`` → ``631a.toml``), read from the
    file's top-level ``section = "…"`` line without parsing the whole file (a file that has none
    is read whole to find it)."""
    data = resources.files("croupier.paytables") / "data"
    files: dict[str, str] = {}
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            text = entry.read_text(encoding="utf-8")
            found = _SECTION_KEY.search(text)
            section = found.group(1) if found else tomllib.loads(text).get("section", entry.name)
            files[str(section)] = entry.name
    return files


_PARSED: set[str] = set()


@cache
def builtin_section(section: str) -> tuple[Paytable, ...]:
    """The built-in paytables of one ``section`` (``()`` when croupier has none), parsed from that
    section's file alone (start-up time: a settle reads the files of the wagers it settles)."""
    name = _builtin_files().get(section)
    if name is None:
        return ()
    text = (resources.files("croupier.paytables") / "data" / name).read_text(encoding="utf-8")
    tables = parse_section_text(text, name, regulation=True, validated=False)
    _PARSED.add(section)
    return PaytableBook._checked(tables)  # a key printed twice for a deck count is an error


def _parsed_sections() -> tuple[str, ...]:
    """The sections whose built-in file has been parsed in this process (what start-up read)."""
    return tuple(sorted(_PARSED))


class _BuiltinBook(PaytableBook):
    """The book of the built-in paytables, each section's file parsed when the section is first
    looked up (:meth:`get`, :meth:`for_section`); anything that walks the whole book
    (iteration, :meth:`sections`, :meth:`with_paytables`) reads every file first."""

    def __init__(self) -> None:
        super().__init__()
        self._complete = False

    def _all(self) -> tuple[Paytable, ...]:
        if not self._complete:
            tables = tuple(t for s in _builtin_files() for t in builtin_section(s))
            self._tables = self._checked(tables)
            self._complete = True
        return self._tables

    def __iter__(self) -> Iterator[Paytable]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def with_paytables(self, extra: Iterable[Paytable]) -> PaytableBook:
        return PaytableBook(self._all() + tuple(extra))

    def sections(self) -> tuple[str, ...]:
        self._all()
        return super().sections()

    def for_section(self, section: str) -> tuple[Paytable, ...]:
        if self._complete:
            return super().for_section(section)
        return builtin_section(section)


@cache
def builtin_paytables() -> PaytableBook:
    """Every paytable printed in the regulation, from the data files shipped with croupier (each
    file read when its section is first looked up)."""
    return _BuiltinBook()

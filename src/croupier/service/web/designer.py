"""The paytable designer: a paytable of the regulation with its pays edited, its exact figures,
one pay solved for a target house edge, and the edited paytable as a TOML file croupier loads.

The figures of an edited paytable are croupier's own exact par sheet of it
(:func:`croupier.analysis.parsheet.exact_parsheet` takes a :class:`Paytable`), so fallbacks,
pushes and the counting convention are those of the engine. Solving is exact: the expected
return is linear in one line's net pay ``n``, so the pay giving house edge ``h`` is
``n + (−h − E)·T / c`` (``E`` the expected return now, ``T`` the combinations, ``c`` those the
line pays). A paytable prints whole odds, so the designer offers the largest whole "to 1" pay at
or below it (the house edge it gives is at least the target) and its "for 1" equal, with the
house edge each gives, computed again by the engine.

Fixed-pay paytables only: a progressive's meters and a paytable with multipliers are refused
(one line, :class:`croupier.errors.InputError`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.cards import decks_phrase
from croupier.errors import InputError, PaytableError
from croupier.paytables import Paytable
from croupier.paytables.pays import OddsFor, OddsTo, parse_pay
from croupier.wagers import Wager

PREFIX = "pay:"
"""Query parameters ``pay:OUTCOME=25 to 1`` carry the edited pays."""


@dataclass(frozen=True)
class Solved:
    """A pay solved for a target house edge."""

    outcome: str
    label: str
    target: Fraction
    exact_net: Fraction
    to_one: int
    """The largest whole "N to 1" pay at or below :attr:`exact_net` (None-free: at least 0)."""
    house_edge: Fraction
    """The house edge with :attr:`to_one` paid."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the exact pay as ``"p/q"`` and a decimal, the whole pay as "to 1" and as
        "for 1", and the house edge it gives."""
        return {
            "outcome": self.outcome,
            "label": self.label,
            "target_house_edge": float(self.target),
            "exact_pay_to_1": f"{self.exact_net.numerator}/{self.exact_net.denominator}",
            "exact_pay_to_1_decimal": float(self.exact_net),
            "pays": f"{self.to_one} to 1",
            "pays_for_1": f"{self.to_one + 1} for 1",
            "house_edge": float(self.house_edge),
            "house_edge_exact": f"{self.house_edge.numerator}/{self.house_edge.denominator}",
        }


def base_paytable(w: Wager, key: str, decks: int) -> Paytable:
    """The paytable to start from; :class:`InputError` for one the designer does not edit."""
    table = w.paytable(key, decks)
    if table.progressive is not None or table.multipliers:
        raise InputError(
            f"paytable {key} of the {w.name} wager has progressive meters or multipliers: the "
            "designer edits fixed pays only"
        )
    return table


def edited(table: Paytable, pays: Mapping[str, str], decks: int) -> Paytable:
    """``table`` with the pays given (outcome → pay text, e.g. ``"24 to 1"``) for ``decks``
    decks, as a user's paytable (not printed in the regulation). :class:`PaytableError` for a
    pay croupier cannot read or an outcome the paytable has no line for."""
    known = set(table.outcomes())
    unknown = sorted(set(pays) - known)
    if unknown:
        raise PaytableError(f"paytable {table.key} has no line {', '.join(map(repr, unknown))}")
    lines = []
    for line in table.lines:
        text = pays.get(line.outcome)
        if text is not None and text.strip() and text.strip() != str(line.pays):
            pay = parse_pay(text.strip())
            if not isinstance(pay, OddsTo | OddsFor):
                raise PaytableError(
                    f"{line.label}: the designer takes 'N to 1' or 'N for 1', not {text!r}"
                )
            line = replace(line, pays=pay)
        lines.append(line)
    changed = tuple(lines) != table.lines
    return replace(
        table,
        id=f"{table.id}-designed" if changed else table.id,
        decks=(decks,),
        lines=tuple(lines),
        regulation=table.regulation and not changed,
        source="designer" if changed else table.source,
    )


def pays_from(query: Mapping[str, str]) -> dict[str, str]:
    """The edited pays in a page's query (``pay:OUTCOME``)."""
    return {k.removeprefix(PREFIX): v for k, v in query.items() if k.startswith(PREFIX) and v}


def _edge(text: str) -> Fraction:
    t = text.strip().removesuffix("%").strip()
    try:
        if not t.isascii():  # Decimal reads every script's digits: "５" would be 5
            raise ValueError(t)
        value = Fraction(Decimal(t)) / 100
    except (InvalidOperation, ValueError):
        raise InputError(f"target house edge {text!r}: give a percentage, e.g. 5 or 2.5%") from None
    if not -100 < value * 100 < 100:
        raise InputError(f"target house edge {text!r}: give a percentage between -100 and 100")
    return value


def solve(w: Wager, table: Paytable, sheet: ParSheet, outcome: str, target: str) -> Solved:
    """The pay of ``outcome`` that gives house edge ``target`` (a percentage), exactly, and
    the whole "to 1" pay at or below it with the house edge it gives."""
    line = table.line(outcome)
    if line is None:
        raise PaytableError(f"paytable {table.key} has no line {outcome!r}")
    pay = line.pays
    if not isinstance(pay, OddsTo | OddsFor):
        raise PaytableError(f"{line.label} pays {pay}: only an 'N to 1' or 'N for 1' pay is solved")
    count = sum(r.combinations or 0 for r in sheet.rows if r.outcome == outcome)
    if count == 0:
        raise InputError(
            f"{line.label} never occurs with {decks_phrase(sheet.decks or 0)}: no pay moves it"
        )
    h = _edge(target)
    exact = pay.net + (-h - sheet.expected_return) * sheet.total / count
    whole = max(math.floor(exact), 0)
    decks = sheet.decks if sheet.decks is not None else table.decks[0]
    check = exact_parsheet(w, edited(table, {outcome: f"{whole} to 1"}, decks), decks=decks)
    return Solved(outcome, line.label, h, exact, whole, check.house_edge)


def toml_text(table: Paytable, base: Paytable, section_title: str) -> str:
    """``table`` (edited from ``base``) as a section file croupier loads
    (``--paytable-file``), marked as not printed in the regulation."""

    def q(text: str) -> str:  # a JSON string is a TOML basic string
        return json.dumps(text, ensure_ascii=False)

    origin = f"{base.citation}, paytable {base.key}"
    out = [
        f"# A paytable made with croupier's designer from {origin}; NOT printed in the regulation.",
        f"section = {q(table.section)}",
        f"title = {q(section_title + ' (designed)')}",
        f"citation = {q('designed from ' + origin)}",
        "printed_in_regulation = false",
        "",
        "[[paytables]]",
        f"id = {q(table.id)}",
        *([f"option = {q(table.option)}"] if table.option else []),
        f"decks = [{', '.join(str(d) for d in table.decks)}]",
        "lines = [",
    ]
    for line in table.lines:
        fields = [f"outcome = {q(line.outcome)}", f"label = {q(line.label)}"]
        fields.append(f"pays = {q(str(line.pays))}")
        if line.wager:
            fields.append(f"wager = {q(line.wager)}")
        if line.optional:
            fields.append("optional = true")
        out.append("  { " + ", ".join(fields) + " },")
    out += ["]", ""]
    return "\n".join(out)


__all__ = ["PREFIX", "Solved", "base_paytable", "edited", "pays_from", "solve", "toml_text"]

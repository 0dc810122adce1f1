"""The par sheet summary a table-games manager compares paytables by: one row per sheet.

One row model serves ``croupier parsheet --summary`` (its table, ``--json`` and ``--csv``), the
``summary.json`` / ``summary.csv`` of ``croupier parsheet --out`` and the web comparison
(``/compare``, ``/compare.csv``). Each :class:`SummaryRow` holds, for one wager × paytable × shoe:

* the paytable and its status (printed in the regulation, not printed, or an EXAMPLE);
* the house edge with the progressive meters at their seeds, the hit frequency, the standard
  deviation (exact: the variance as ``p/q``) and the volatility index at 90, 95 and 99 %
  (VI = z·SD, :mod:`croupier.analysis.confidence`);
* the long-run return, stake included (:func:`croupier.analysis.meters.long_run_total`: the meter
  model under a reseed reading for a progressive, else 1 + the expected return);
* for a progressive, the **breakeven meter with the wager it is on**: Jackpot Party P1's
  $583,449.50 is the meter at which a **$5** wager breaks even, P3's $159,880.56 one for a **$1**
  wager (§ 633b.2(i) prints each paytable's wager). A breakeven in dollars means nothing without
  its wager: a manager sorting the column compares like with like only at one wager size, which
  :func:`compare_paytables` chooses (``stake_cents``): a paytable not offered at that size says
  so instead of showing a breakeven for another size.

It lives in analysis, not in the application layer, because ``parsheet --out``
(:func:`croupier.analysis.report.write_report`) writes it: the row is figures and the money
text beside them, as :meth:`~croupier.analysis.meters.MeterReturn.to_dict` gives, nothing drawn.
No SciPy or matplotlib is imported here (``croupier parsheet --summary`` is timed, issue 33).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.analysis.confidence import CONFIDENCE_LEVELS, VI_NOTE, volatility_index
from croupier.analysis.meters import MeterReturn, ReseedFunding, long_run_total, meter_returns
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.errors import InputError, citation
from croupier.units import format_money
from croupier.wagers import Wager

PRINTED = "printed in the regulation"
"""The status of a paytable the regulation prints (:attr:`ParSheet.paytable_status` is '')."""


@dataclass(frozen=True)
class SummaryRow:
    """One par sheet's summary: exact figures (``Fraction``) until shown.

    ``long_run_return`` is per unit wagered, the stake included (0.9437: 94.37 % of the money
    wagered comes back), ``None`` for a user's progressive paytable (no meter model).
    ``wager_cents`` is the progressive wager size every money figure of the row is on (``None``
    for a fixed-pay wager); ``breakeven_cents`` the top meter at which that wager breaks even,
    the other meters at their seeds (``None``: a fixed-pay wager, no meter share, positive at any
    meter, or the size asked for not offered); ``not_offered_cents`` the wager size asked for
    when the paytable does not take it.
    """

    sheet: ParSheet
    long_run_return: Fraction | None
    reseed: ReseedFunding
    wager_cents: int | None = None
    top_meter: str | None = None
    breakeven_cents: Fraction | None = None
    positive_at_seed: bool | None = None
    not_offered_cents: int | None = None

    @property
    def paytable_status(self) -> str:
        """'printed in the regulation', 'not printed in the regulation' or 'EXAMPLE, made up;
        not PA text'."""
        return self.sheet.paytable_status or PRINTED

    @property
    def volatility(self) -> dict[str, float]:
        """The volatility index by key (``vi_90``, ``vi_95``, ``vi_99``): z·SD per unit
        wagered."""
        sd = self.sheet.standard_deviation
        return {lv.key: volatility_index(sd, lv) for lv in CONFIDENCE_LEVELS}

    @property
    def breakeven_meter_cents(self) -> int | None:
        """The breakeven meter rounded to the cent, or ``None``."""
        return round(self.breakeven_cents) if self.breakeven_cents is not None else None

    def breakeven_text(self) -> str:
        """The breakeven as a manager reads it: '$583,449.50 on $5', 'not offered at $1',
        'positive at every meter' (the return is positive with the top meter at 0), or '—'."""
        if self.not_offered_cents is not None:
            return f"not offered at {format_money(self.not_offered_cents)}"
        cents = self.breakeven_meter_cents
        if cents is not None and self.wager_cents is not None:
            return f"{format_money(cents)} on {format_money(self.wager_cents)}"
        return "positive at every meter" if self.positive_at_seed else "—"

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON (:class:`croupier.operations.schemas.analysis.ParSheetSummaryRow`):
        floats beside exact fractions ``"p/q"``, money as text beside integer cents."""
        s = self.sheet
        lr = self.long_run_return
        be = self.breakeven_meter_cents
        progressive = self.wager_cents is not None or self.not_offered_cents is not None
        return {
            "wager": s.wager,
            "wager_name": s.wager_name,
            "section": s.section,
            "citation": citation(s.section),
            "paytable": s.paytable,
            "paytable_status": self.paytable_status,
            "paytable_citation": s.paytable_origin,
            "paytable_in_regulation": s.regulation,
            "paytable_example": s.example,
            "decks": s.decks,
            "house_edge": float(s.house_edge),
            "house_edge_exact": _frac(s.house_edge),
            "long_run_return": float(lr) if lr is not None else None,
            "long_run_return_exact": _frac(lr) if lr is not None else None,
            "reseed_funding": self.reseed.value if progressive else None,
            "wager_amount": format_money(self.wager_cents) if self.wager_cents else None,
            "wager_amount_cents": self.wager_cents,
            "top_meter": self.top_meter,
            "breakeven_meter": format_money(be) if be is not None else None,
            "breakeven_meter_cents": be,
            "breakeven": self.breakeven_text(),
            "offered": self.not_offered_cents is None,
            "hit_frequency": float(s.hit_frequency),
            "hit_frequency_exact": _frac(s.hit_frequency),
            "standard_deviation": s.standard_deviation,
            "variance_exact": _frac(s.variance),
            **self.volatility,
        }


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def summary_row(
    sheet: ParSheet,
    mr: MeterReturn | None,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    not_offered_cents: int | None = None,
) -> SummaryRow:
    """The :class:`SummaryRow` of ``sheet`` (``mr``: its :class:`MeterReturn`, ``None`` for a
    fixed-pay wager or a user's progressive paytable); ``not_offered_cents``: the wager size
    asked for that the paytable does not take (the row then shows no breakeven)."""
    long_run = long_run_total(sheet, mr, reseed)  # at the paytable's own size if not offered
    if mr is None or not_offered_cents is not None:
        return SummaryRow(
            sheet,
            long_run,
            reseed,
            wager_cents=None if not_offered_cents is not None else sheet.wager_cents,
            not_offered_cents=not_offered_cents,
        )
    be = mr.breakeven_cents()
    return SummaryRow(
        sheet,
        long_run,
        reseed,
        wager_cents=mr.wager_cents,
        top_meter=mr.top.value,
        breakeven_cents=be if be is not None and be >= 0 else None,
        positive_at_seed=mr.positive_at_seed(),
    )


def summary_rows(
    sheets: Sequence[ParSheet],
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    meters: Sequence[tuple[ParSheet, MeterReturn]] | None = None,
) -> list[SummaryRow]:
    """One :class:`SummaryRow` per sheet, in order. ``meters``: the progressives'
    :class:`MeterReturn` by sheet (default :func:`~croupier.analysis.meters.meter_returns`, the
    regulation's paytables at each sheet's own wager size)."""
    by_sheet = {id(s): mr for s, mr in (meter_returns(sheets) if meters is None else meters)}
    return [summary_row(s, by_sheet.get(id(s)), reseed) for s in sheets]


def compare_paytables(
    wager: Wager,
    decks: int,
    stake_cents: int | None = None,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
) -> list[SummaryRow]:
    """The summary rows of every paytable of ``wager`` offered with ``decks`` decks, a
    progressive's at the wager size ``stake_cents`` when its paytable takes it (else the row
    says it is not offered at that size; its other figures at the paytable's smallest size);
    ``None``: each paytable at its smallest size.

    Raises :class:`InputError` when no paytable is offered at that deck count.
    """
    rows: list[SummaryRow] = []
    for table, d in wager.offerings():
        if d != decks:
            continue
        prog = table.progressive
        offered = prog is None or stake_cents is None or stake_cents in prog.wager_cents
        size = stake_cents if prog is not None and stake_cents is not None and offered else None
        sheet = exact_parsheet(wager, table, decks=decks, wager_cents=size)
        mr = next((m for _, m in meter_returns([sheet])), None)
        rows.append(summary_row(sheet, mr, reseed, None if offered else stake_cents))
    if not rows:
        raise InputError(f"no paytable of the {wager.name} wager is offered with {decks} decks")
    return rows


SUMMARY_COLUMNS = (
    "wager",
    "section",
    "paytable",
    "paytable_status",
    "decks",
    "house_edge",
    "house_edge_exact",
    "long_run_return",
    "long_run_return_exact",
    "reseed_funding",
    "wager_amount",
    "wager_amount_cents",
    "top_meter",
    "breakeven_meter",
    "breakeven_meter_cents",
    "breakeven",
    "hit_frequency",
    "hit_frequency_exact",
    "standard_deviation",
    "variance_exact",
    *(lv.key for lv in CONFIDENCE_LEVELS),
)
"""The summary CSV's columns: the JSON row's keys a spreadsheet needs (each decimal with its
exact ``p/q`` beside it; the standard deviation, irrational, with the exact variance), an empty
cell where the JSON has null."""


def summary_csv(rows: Iterable[SummaryRow]) -> str:
    """The rows as CSV (columns :data:`SUMMARY_COLUMNS`, floats in full as ``repr`` gives them,
    the section as its citation)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SUMMARY_COLUMNS)
    for r in rows:
        d = r.to_dict()
        d["section"] = d["citation"]
        w.writerow(["" if d[c] is None else _cell(d[c]) for c in SUMMARY_COLUMNS])
    return buf.getvalue()


def _cell(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def summary_document(
    rows: Iterable[SummaryRow], games: Sequence[dict[str, object]] = ()
) -> dict[str, Any]:
    """``{"summary": [...], "volatility_index": VI_NOTE, "games": [...]}`` (games, the § 633b.4
    whole-game figures, only when there are some):
    :class:`croupier.operations.schemas.analysis.ParSheetSummaryFile`."""
    doc: dict[str, Any] = {
        "summary": [r.to_dict() for r in rows],
        "volatility_index": VI_NOTE,
    }
    if games:
        doc["games"] = list(games)
    return doc


def summary_json(rows: Iterable[SummaryRow], games: Sequence[dict[str, object]] = ()) -> str:
    """:func:`summary_document` as indented JSON."""
    return json.dumps(summary_document(rows, games), indent=2, ensure_ascii=False)


__all__ = [
    "SUMMARY_COLUMNS",
    "SummaryRow",
    "compare_paytables",
    "summary_csv",
    "summary_document",
    "summary_json",
    "summary_row",
    "summary_rows",
]

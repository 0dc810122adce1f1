"""One exact par sheet as every interface shows it: the sheet, its progressive's meter analysis,
the wager's own extra figures, and the JSON document ``croupier analyze --json``, ``GET
/parsheets/{wager}``, the web page's explorer and a lab's report bundle all give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.analysis.meters import MeterReturn, ReseedFunding, meter_return
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.paytables import MeterLevel
from croupier.wagers.base import ProgressiveStake, Wager


@dataclass(frozen=True)
class AnalysedSheet:
    """An exact par sheet with what is shown beside it."""

    sheet: ParSheet
    """The exact par sheet."""
    meter: MeterReturn | None
    """The progressive's meter analysis (return at a meter, breakeven, long run); ``None``
    without a progressive."""
    extras: tuple[tuple[str, str, Any], ...]
    """The wager's figures beyond the par sheet (:meth:`Wager.extra_figures`): (JSON key, line for
    people, JSON value)."""
    document: dict[str, Any]
    """The JSON document: :meth:`ParSheet.to_dict`, ``meter_analysis`` for a progressive, then the
    extra figures by key."""


def analyse_sheet(
    wager: Wager,
    paytable: str,
    *,
    decks: int | None = None,
    meter_cents: int | dict[MeterLevel, int] | None = None,
    wager_cents: int | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
) -> AnalysedSheet:
    """The exact par sheet of ``wager`` × ``paytable`` (arguments as in
    :func:`~croupier.analysis.parsheet.exact_parsheet`) and what every interface shows with it.

    Raises what :func:`~croupier.analysis.parsheet.resolve` raises for a request the paytable does
    not allow (deck count, meter, wager size), each naming its section.
    """
    sheet = exact_parsheet(
        wager, paytable, decks=decks, meter_cents=meter_cents, wager_cents=wager_cents, stake=stake
    )
    meter = None
    if sheet.meters:
        meter = meter_return(
            wager, paytable, decks=sheet.decks, wager_cents=sheet.wager_cents, stake=stake
        )
    extras = wager.extra_figures(wager.paytable(sheet.paytable, sheet.decks))
    document = sheet.to_dict()
    if meter is not None:
        document["meter_analysis"] = meter.to_dict(sheet.meters, reseed)
    document.update({key: value for key, _, value in extras})
    return AnalysedSheet(sheet, meter, extras, document)

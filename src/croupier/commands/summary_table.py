"""The par sheet summary on the terminal (``croupier parsheet``, ``--summary``): a table a
table-games manager reads in a 120-column terminal, with the notes under it.

The rows are grouped under a heading line per wager (``banker § 631a.8``), each sheet one line:
its paytable's key, the deck count and the figures (:mod:`croupier.analysis.summary`). A paytable
the regulation does not print carries a mark — ``*`` not printed in the regulation (a paytable
file's, or pays seen at a casino), ``†`` an EXAMPLE croupier made up — explained on one line under
the table. No cell is ever wrapped: the table is about 117 columns wide with the shipped
paytables. On a narrower console (80 to 116 columns) each sheet takes two lines instead, the
figures in pairs (house edge over hit frequency, long-run return over breakeven meter, SD over
VI 95%), about 80 columns wide: a layout that fits beats one line the terminal folds into pieces
(below 80 columns Rich shrinks that table as it must). The text depends on the console's width
only, so a pipe (140 columns) prints what a 140-column terminal shows; the table is drawn as plain
text when nothing is coloured (:mod:`croupier.commands.plain_tables`, issue 33).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

from croupier.analysis.confidence import CONFIDENCE_LEVELS, VI_NOTE
from croupier.analysis.meters import long_run_sentence
from croupier.analysis.report import see_readings
from croupier.cards import decks_phrase
from croupier.commands.common import _pct, fitted, out
from croupier.commands.plain_tables import plain

if TYPE_CHECKING:
    from rich.console import Console

    from croupier.analysis.meters import ReseedFunding
    from croupier.analysis.summary import SummaryRow

MARKS = {"not printed in the regulation": "*", "EXAMPLE, made up; not PA text": "†"}
"""The mark after a paytable's key by its status (:attr:`ParSheet.paytable_status`); none for a
paytable printed in the regulation."""

_FIGURES = (
    "House edge\nat seed",
    "Long-run\nreturn",
    "Breakeven\nmeter",
    "Hit\nfrequency",
    "SD",
    "VI 95%",
)
"""The wide table's figure columns, in the order of :func:`_figures`."""

_PAIRS = ((0, 3), (1, 2), (4, 5))
"""The narrow table's figure columns: two of :data:`_FIGURES` each, one above the other."""


def print_summary(rows: list[SummaryRow], reseed: ReseedFunding) -> None:
    """The summary table (:func:`summary_table`) and its notes: the paytable marks used, the
    volatility index, and a warning for every paytable whose long-run return is above 100% of
    the wager."""
    out.print(plain(summary_table(rows, out), out))
    marks = {s.paytable_status for s in (r.sheet for r in rows)}
    used = [f"{mark} {status}" for status, mark in MARKS.items() if status in marks]
    if used:
        out.print("; ".join(used), soft_wrap=True)
    if rows:
        out.print(f"{VI_NOTE}; 90% and 99% in --json and --csv", soft_wrap=True)
    above = [
        f"{r.sheet.wager} {r.sheet.paytable} ({decks_phrase(r.sheet.decks or 0)}) "
        f"{float(r.long_run_return):.4%}"
        for r in rows
        if r.long_run_return is not None and r.long_run_return > 1
    ]
    if above:
        out.print(
            "WARNING: long-run return above 100% of the wager: "
            + "; ".join(above)
            + f". {long_run_sentence(reseed)} {see_readings(reseed)}",
            soft_wrap=True,
        )


def summary_table(rows: list[SummaryRow], console: Console) -> Table:
    """The summary as a table for ``console``: one line per sheet when that fits its width,
    else two lines per sheet (module docstring); its columns as wide as their text when the
    table fits (:func:`croupier.commands.common.fitted`)."""
    wide = fitted(_table(rows, narrow=False), console)
    if all(c.width is not None for c in wide.columns):
        return wide
    return fitted(_table(rows, narrow=True), console)


def _table(rows: list[SummaryRow], narrow: bool) -> Table:
    """The summary table: a heading row for each wager, then a row for each of its sheets;
    ``narrow``: each row two lines, the figures in pairs (:data:`_PAIRS`)."""
    t = Table(
        title="Par sheet summary (exact)",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=(0, 1, 0, 0),
    )
    first = "Wager, paytable\n§ section, decks" if narrow else "Wager § section\n  paytable"
    t.add_column(first)
    if not narrow:
        t.add_column("Decks", justify="right")
    columns = (
        [_FIGURES[a].replace("\n", " ") + "\n" + _FIGURES[b].replace("\n", " ") for a, b in _PAIRS]
        if narrow
        else list(_FIGURES)
    )
    for header in columns:
        t.add_column(header, justify="right")
    blank = [""] * (len(t.columns) - 1)
    wager = None
    for r in rows:
        s = r.sheet
        if s.wager != wager:
            wager = s.wager
            heading = f"{s.wager}\n§ {s.section}" if narrow else f"{s.wager} § {s.section}"
            t.add_row(heading, *blank, style="bold")
        key = s.paytable + MARKS.get(s.paytable_status, "")
        figures = _figures(r)
        if narrow:
            t.add_row(
                f"{key}\n{decks_phrase(s.decks or 0)}",
                *(f"{figures[a]}\n{figures[b]}" for a, b in _PAIRS),
            )
        else:
            t.add_row(f"  {key}", str(s.decks), *figures)
    return t


def _figures(r: SummaryRow) -> tuple[str, ...]:
    """A row's figures as the summary prints them, in the order of :data:`_FIGURES`: the long-run
    return flagged ⚠ above 100% of the wager, the breakeven meter with the wager it is on."""
    s, long_run = r.sheet, r.long_run_return
    flag = " ⚠" if long_run is not None and long_run > 1 else ""
    return (
        _pct(s.house_edge),
        f"{float(long_run):.4%}{flag}" if long_run is not None else "—",
        r.breakeven_text(),
        _pct(s.hit_frequency),
        f"{s.standard_deviation:.4f}",
        f"{r.volatility[CONFIDENCE_LEVELS[1].key]:.4f}",
    )

"""Tables whose column widths are set from their text (commands.common.fitted, issue 33) print
exactly as Rich prints them when it measures every cell itself: the par sheets and the summary
of ``croupier parsheet``, on a wide console and on one too narrow for them (Rich shrinks and
wraps: ``fitted`` leaves those tables alone)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.table import Table

from croupier.analysis.meters import ReseedFunding
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.analysis.summary import summary_rows
from croupier.commands import common, plain_tables, summary_table
from croupier.wagers import all_wagers


def _console(width: int) -> Console:
    return Console(file=io.StringIO(), highlight=False, markup=False, width=width)


def _sheets() -> list[ParSheet]:
    jobs = [(w, t, d) for w in all_wagers() for t, d in w.offerings()]
    return [exact_parsheet(w, t, decks=d) for w, t, d in jobs[::9]]  # every ninth: each game


@pytest.mark.parametrize("width", [140, 60])
def test_par_sheet_tables_print_as_rich_measures_them(width: int) -> None:
    for sheet in _sheets():
        measured, fitted = _console(width), _console(width)
        measured.print(common._sheet_table(sheet))
        fitted.print(common.fitted(common._sheet_table(sheet), fitted))
        assert fitted.file.getvalue() == measured.file.getvalue(), sheet.wager  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [140, 120, 100, 80, 60])
def test_the_summary_prints_as_rich_measures_it(width: int) -> None:
    rows = summary_rows(_sheets(), ReseedFunding.RESERVE)
    fitted, measured = _console(width), _console(width)
    fitted.print(summary_table.summary_table(rows, fitted))
    table = summary_table.summary_table(rows, measured)
    for column in table.columns:
        column.width = None  # Rich measures every cell itself
    measured.print(table)
    assert fitted.file.getvalue() == measured.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [140, 120, 100, 80, 60])
def test_the_summary_drawn_plain_is_what_rich_draws(width: int) -> None:
    rows = summary_rows(_sheets(), ReseedFunding.RESERVE)
    rich, plain = _console(width), _console(width)
    rich.print(summary_table.summary_table(rows, rich))
    table = summary_table.summary_table(rows, plain)
    shown = plain_tables.plain(table, plain)
    assert (shown is not table) is (width >= 80)  # the table fits from 80 columns up
    plain.print(shown)
    assert plain.file.getvalue() == rich.file.getvalue()  # type: ignore[attr-defined]


def test_tables_with_set_widths_or_other_cells_are_left_to_rich() -> None:
    t = Table()
    t.add_column("a", width=3)
    t.add_row("x")
    assert common.fitted(t, _console(80)).columns[0].width == 3
    t = Table()
    t.add_column("a")
    t.add_row(Table())
    assert common.fitted(t, _console(80)).columns[0].width is None


@pytest.mark.parametrize("width", [140, 60])
def test_plain_drawing_is_the_characters_rich_draws(width: int) -> None:
    drawn = 0
    for sheet in _sheets():
        for make in (common._sheet_table, common._band_table):
            measured, plain = _console(width), _console(width)
            measured.print(make(sheet))
            table = make(sheet)
            assert table is not None
            shown = plain_tables.plain(common.fitted(table, plain), plain)
            drawn += shown is not table
            plain.print(shown)
            assert plain.file.getvalue() == measured.file.getvalue(), sheet.wager  # type: ignore[attr-defined]
    assert drawn > 0 or width < 100  # at 140 columns the plain drawing was used


def test_plain_drawing_of_headers_over_lines_sections_and_centred_cells() -> None:
    def table() -> Table:
        t = Table(title="a title longer than the table it heads, wrapped", caption="note")
        t.add_column("Long\nheader", justify="right")
        t.add_column("c", justify="center")
        t.add_column("Left")
        t.add_row("1", "ab", "two\nlines")
        t.add_section()
        t.add_row("", "abc", "⚠ x")
        return t

    measured, plain = _console(80), _console(80)
    measured.print(table())
    t = table()
    shown = plain_tables.plain(common.fitted(t, plain), plain)
    assert shown is not t
    plain.print(shown)
    assert plain.file.getvalue() == measured.file.getvalue()  # type: ignore[attr-defined]


def test_a_console_that_prints_colour_gets_the_table_for_rich() -> None:
    t = Table()
    t.add_column("a", width=3)
    t.add_row("x")
    colour = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    assert plain_tables.plain(t, colour) is t

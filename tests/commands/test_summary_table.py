"""The par sheet summary on the terminal (croupier.commands.summary_table): every sheet one line
of a table that fits 120 columns, two lines at 80, no cell wrapped, each figure of the summary
rows on its sheet's line, and the same text on a colour terminal as through a pipe."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from croupier.analysis.meters import ReseedFunding
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.summary import SummaryRow, summary_rows
from croupier.commands import common, summary_table
from croupier.wagers import all_wagers


@pytest.fixture(scope="module")
def rows() -> list[SummaryRow]:
    jobs = [(w, t, d) for w in all_wagers() for t, d in w.offerings()]
    return summary_rows([exact_parsheet(w, t, decks=d) for w, t, d in jobs], ReseedFunding.RESERVE)


def _printed(rows: list[SummaryRow], width: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    console = Console(file=io.StringIO(), highlight=False, markup=False, width=width)
    monkeypatch.setattr(summary_table, "out", console)
    summary_table.print_summary(rows, ReseedFunding.RESERVE)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text.splitlines()


def _expected(row: dict[str, object]) -> list[str]:
    """A row's figures as text, from its JSON (``--json``'s numbers)."""
    lr = row["long_run_return"]
    assert lr is None or isinstance(lr, float)
    return [
        f"{row['house_edge']:.4%}",
        "—" if lr is None else f"{lr:.4%}" + (" ⚠" if lr > 1 else ""),
        str(row["breakeven"]),
        f"{row['hit_frequency']:.4%}",
        f"{row['standard_deviation']:.4f}",
        f"{row['vi_95']:.4f}",
    ]


def test_at_120_columns_every_sheet_is_one_line_with_every_figure(
    rows: list[SummaryRow], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _printed(rows, 120, monkeypatch)
    rule = next(i for i, x in enumerate(lines) if x.startswith("───"))
    assert rule == 3  # the title, then a header of two lines
    wagers = list(dict.fromkeys(r.sheet.wager for r in rows))
    body = lines[rule + 1 : rule + 1 + len(rows) + len(wagers)]
    assert all(len(x) <= 120 for x in lines[: rule + 1 + len(body)])
    sheet_lines = iter(body)
    for r in rows:
        d = r.to_dict()
        line = next(sheet_lines)
        if not line.startswith("  "):  # a wager's heading: its id and section, no figures
            assert line.split() == [d["wager"], "§", d["section"]]
            line = next(sheet_lines)
        mark = {"printed in the regulation": "", "not printed in the regulation": "*"}
        key = f"{d['paytable']}{mark.get(str(d['paytable_status']), '†')}"
        assert re.split(r"\s{2,}", line.strip()) == [key, str(d["decks"]), *_expected(d)]
    # the marks are said under the table; the notes follow
    after = lines[rule + 1 + len(body)]
    assert after == "* not printed in the regulation; † EXAMPLE, made up; not PA text"


def test_jackpot_party_shows_each_breakeven_with_its_wager(
    rows: list[SummaryRow], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _printed(rows, 120, monkeypatch)
    start = lines.index(next(x for x in lines if x.startswith("jackpot-party § 633b.2")))
    table = {tuple(re.split(r"\s{2,}", x.strip())[:2]): x for x in lines[start + 1 : start + 80]}
    # § 633b.2(i) prints P1 for a $5 wager and P3 for a $1 wager
    assert "$583,449.50 on $5" in table[("P1", "6")]
    assert "$159,880.56 on $1" in table[("P3", "6")]


def test_at_80_columns_every_sheet_takes_two_lines_and_nothing_is_wrapped(
    rows: list[SummaryRow], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _printed(rows, 80, monkeypatch)
    rule = next(i for i, x in enumerate(lines) if x.startswith("───"))
    assert rule == 3
    wagers = list(dict.fromkeys(r.sheet.wager for r in rows))
    body = lines[rule + 1 : rule + 1 + 2 * (len(rows) + len(wagers))]
    assert all(len(x) <= 80 for x in lines[: rule + 1 + len(body)])
    pairs = iter(zip(body[::2], body[1::2], strict=True))
    for r in rows:
        d = r.to_dict()
        top, bottom = next(pairs)
        if top.split()[0] == d["wager"] and bottom.split() == ["§", d["section"]]:
            top, bottom = next(pairs)  # the wager's heading
        he, lr, be, hit, sd, vi = _expected(d)
        decks = f"{d['decks']} deck" + ("s" if d["decks"] != 1 else "")
        assert re.split(r"\s{2,}", top.strip())[1:] == [he, lr, sd]
        assert re.split(r"\s{2,}", bottom.strip()) == [decks, hit, be, vi]
    assert lines[rule + 1 + len(body)].startswith("* not printed in the regulation")


@pytest.mark.parametrize("width", [140, 120, 80])
def test_a_colour_terminal_shows_the_text_a_pipe_gets(
    rows: list[SummaryRow], width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    piped = _printed(rows, width, monkeypatch)
    terminal = Console(
        file=io.StringIO(), force_terminal=True, color_system="truecolor", width=width
    )
    monkeypatch.setattr(summary_table, "out", terminal)
    monkeypatch.setattr(common, "out", terminal)
    summary_table.print_summary(rows, ReseedFunding.RESERVE)
    shown = re.sub(r"\x1b\[[0-9;]*m", "", terminal.file.getvalue())  # type: ignore[attr-defined]
    assert shown.splitlines() == piped

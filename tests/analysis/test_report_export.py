"""A test lab exporting one sheet (`croupier analyze … --out DIR`), and the full report: contents
and anchors, one colour and one legend entry per outcome, § 633b.4 in the CSV, the long-run
warning in the HTML, example paytables marked in every summary row."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from html.parser import HTMLParser
from math import comb
from pathlib import Path

import pytest

from cli_support import assert_one_error_line, run_main
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.analysis.report import (
    LOSS_COLOR,
    chart_outcomes,
    contribution_figure,
    outcome_colors,
    parsheets_csv,
    parsheets_html,
    sheet_id,
)
from croupier.analysis.switch_hands import game_sheet
from croupier.commands.common import out
from croupier.wagers import get_wager


def _sheets(*wager_ids: str) -> list[ParSheet]:
    return [
        exact_parsheet(w, table, decks=decks)
        for w in (get_wager(x) for x in wager_ids)
        for table, decks in w.offerings()
    ]


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


class _Anchors(HTMLParser):
    """Every id, every in-page link, and the links inside the <nav> (the contents)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.nav_links: list[str] = []
        self._in_nav = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "nav":
            self._in_nav = True
        href = a.get("href")
        if tag == "a" and href and href.startswith("#"):
            self.links.append(href[1:])
            if self._in_nav:
                self.nav_links.append(href[1:])

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in_nav = False


# -- one sheet: analyze --out ----------------------------------------------------------------------


def test_analyze_out_writes_the_sheet_as_json_csv_and_html(tmp_path: Path) -> None:
    run = run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "8", "--out", str(tmp_path)])
    assert run.code == 0, run.err
    stem = tmp_path / "perfect-pairs-A-8-decks"
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == [
        f"{stem.name}-return-bands.csv",
        f"{stem.name}.csv",
        f"{stem.name}.html",
        f"{stem.name}.json",
    ]
    assert str(stem) + ".json" in run.err  # says what it wrote
    # the JSON is what `analyze --json` prints
    printed = json.loads(run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "8", "--json"]).out)
    assert json.loads(Path(f"{stem}.json").read_text(encoding="utf-8")) == printed
    # the CSV: exact counts and exact fractions, derived by hand. Eight decks: C(416, 2) pairs;
    # a perfect pair is two of the 8 copies of one of 52 cards; a coloured pair two cards of one
    # rank, different suits of one colour (13 ranks × 2 colours × 8 × 8); a mixed pair different
    # colours (13 ranks × 4 suit pairs × 8 × 8). Paytable A (§ 633b.1(f)): 25, 12 and 6 to 1.
    total = comb(416, 2)
    perfect, coloured, mixed = 52 * comb(8, 2), 13 * 2 * 64, 13 * 4 * 64
    rows = {r["outcome"]: r for r in _csv_rows(Path(f"{stem}.csv").read_text(encoding="utf-8"))}
    assert (total, perfect) == (86_320, 1_456)
    assert int(rows["perfect-pair"]["combinations"]) == perfect
    assert int(rows["perfect-pair"]["total"]) == total
    assert Fraction(rows["perfect-pair"]["probability_exact"]) == Fraction(perfect, total)
    assert Fraction(rows["perfect-pair"]["return_exact"]) == Fraction(25 * perfect, total)
    assert float(rows["perfect-pair"]["probability"]) == pytest.approx(perfect / total)
    lose = total - perfect - coloured - mixed
    edge = Fraction(lose - 25 * perfect - 12 * coloured - 6 * mixed, total)
    assert Fraction(rows["lose"]["house_edge_exact"]) == edge
    assert Fraction(rows["lose"]["return_exact"]) == Fraction(-lose, total)
    assert Fraction(rows["lose"]["long_run_return_exact"]) == 1 - edge  # no meter
    assert {r["paytable_status"] for r in rows.values()} == {"printed in the regulation"}
    # the HTML: the sheet under its anchor, its exact counts
    page = Path(f"{stem}.html").read_text(encoding="utf-8")
    anchors = _Anchors()
    anchors.feed(page)
    assert "sheet-perfect-pairs-A-8d" in anchors.ids
    assert "sheet-perfect-pairs-A-8d" in anchors.nav_links
    assert f"{perfect:,}" in page and f"{total:,}" in page


def test_analyze_out_of_a_progressive_warns_when_the_long_run_is_above_the_wager(
    tmp_path: Path,
) -> None:
    for key in ("1", "10"):
        run = run_main(["analyze", "match-the-dealer", "-p", key, "-d", "6", "-o", str(tmp_path)])
        assert run.code == 0, run.err
    sheet = exact_parsheet(get_wager("match-the-dealer"), "10", decks=6)
    rows = _csv_rows((tmp_path / "match-the-dealer-10-6-decks.csv").read_text(encoding="utf-8"))
    # independently of the meter analysis: at the seed the par sheet values the top line at
    # 1,000 units and the 10% line at 100; in the long run every increment (15% + 6%) is paid
    # back and the reserve (6% of every wager, far more than one 1,000-unit seed per top award)
    # pays the reseeds, so the long run is the par sheet less the seed's share, plus 21%
    p = {r.outcome: r.probability for r in sheet.rows}
    top, tenth = p["two-suited-match-aces-of-spades"], p["two-suited-match"]
    assert top * 1000 < Fraction(6, 100)
    long_run = 1 + sheet.expected_return - top * 1000 - tenth * 100 + Fraction(21, 100)
    assert {Fraction(r["long_run_return_exact"]) for r in rows} == {long_run}
    assert long_run > 1
    page = (tmp_path / "match-the-dealer-10-6-decks.html").read_text(encoding="utf-8")
    assert "WARNING: in the long run paytable 10 (6 decks) returns" in page
    assert f"{float(long_run):.4%}" in page
    low = (tmp_path / "match-the-dealer-1-6-decks.html").read_text(encoding="utf-8")
    assert "WARNING" not in low  # paytable 1 stays below 100% in the long run


def test_analyze_out_that_is_a_file_or_cannot_be_written_is_one_error_line(
    tmp_path: Path,
) -> None:
    a_file = tmp_path / "report.txt"
    a_file.write_text("keep me", encoding="utf-8")
    line = assert_one_error_line(
        run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "6", "--out", str(a_file)])
    )
    assert "is a file, not a folder" in line
    assert a_file.read_text(encoding="utf-8") == "keep me"
    # a folder under a file cannot be made: one line, nothing printed, nothing written
    line = assert_one_error_line(
        run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "6", "-o", str(a_file / "sub")])
    )
    assert line.startswith("error: cannot write the report into")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]
    run = run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "6", "--json", "-o", str(a_file)])
    assert run.code == 2 and json.loads(run.out)["error"]["type"] == "OutputError"
    # parsheet: the same folder check, before any sheet is computed
    assert_one_error_line(run_main(["parsheet", "--wager", "perfect-pairs", "-o", str(a_file)]))


def test_analyze_out_of_a_whole_game_points_to_parsheet(tmp_path: Path) -> None:
    line = assert_one_error_line(
        run_main(["analyze", "switch-hands", "-d", "6", "--out", str(tmp_path)])
    )
    assert "croupier parsheet --wager switch-hands --out DIR" in line


# -- the full report ---------------------------------------------------------------------------


def test_report_has_contents_with_an_anchor_for_every_sheet_grouped_by_section() -> None:
    sheets = _sheets(
        "match-the-dealer", "perfect-pairs", "aces-up", "bad-beat-bonus", "ultimate-pairs"
    )
    page = parsheets_html(sheets, [game_sheet(6)])
    anchors = _Anchors()
    anchors.feed(page)
    assert len(anchors.ids) == len(set(anchors.ids))  # every id once
    assert set(anchors.links) <= set(anchors.ids)  # every link lands
    sheet_ids = [sheet_id(s) for s in sheets]
    assert len(set(sheet_ids)) == len(sheets)
    # § 633b.3(i) prints paytables 1-10 for six and for eight decks: 20 sheets, 20 anchors
    assert sum(i.startswith("sheet-match-the-dealer-") for i in anchors.nav_links) == 20
    assert set(sheet_ids) <= set(anchors.nav_links)
    assert {
        "wager-match-the-dealer",
        "wager-ultimate-pairs",
        "switch-hands-and-blackjack-premium",
    } <= set(anchors.nav_links)
    # grouped by section: the Baccarat wagers (§ 631a.8) under one entry, each wager under it
    nav = page[page.index("<nav") : page.index("</nav>")]
    entries = {
        part.split("<ul>")[0]: part for part in nav.split("<li>58 Pa. Code § ")[1:]
    }  # section -> its part of the contents
    assert list(entries) == ["633b.3", "633b.1", "641a.7", "674b.1", "633b.4"]
    assert "wager-aces-up" in entries["641a.7"] and "wager-bad-beat-bonus" in entries["641a.7"]
    assert "wager-perfect-pairs" in entries["633b.1"] and "wager-aces-up" not in entries["633b.1"]
    assert "sheet-bad-beat-bonus-example-bad-beat-1d" in entries["641a.7"]


def test_every_outcome_of_a_chart_has_its_own_colour_and_one_legend_entry() -> None:
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_hex
    from matplotlib.container import BarContainer

    # the wagers with the most outcomes (AxMan 27, Jackpot Party 10 under 15 printed labels)
    for w in (get_wager(x) for x in ("axman", "jackpot-party", "ultimate-pairs", "banker")):
        sheets = _sheets(w.id)
        fig = contribution_figure(sheets)
        ax = fig.axes[0]
        legend = ax.get_legend()
        assert legend is not None
        labels = [t.get_text() for t in legend.get_texts()]
        assert len(labels) == len(set(labels)), (w.id, labels)
        bars = [
            c
            for c in ax.containers
            if isinstance(c, BarContainer) and c.get_label() != "losing hands"
        ]
        colours = [to_hex(c.patches[0].get_facecolor()) for c in bars]
        assert len(colours) == len(set(colours)), w.id
        assert to_hex(LOSS_COLOR) not in colours
        # one bar series per distinct outcome of the wager's paytables, the losses apart
        paying = {r.outcome for s in sheets for r in s.rows if r.outcome != "lose"}
        assert len(bars) == len(paying), w.id
        plt.close(fig)


def test_jackpot_party_chart_names_each_of_its_ten_outcomes_once() -> None:
    # § 633b.2(a) lists ten combinations; P1-P6 and P7-P36 print some labels differently
    # ("Royal Flush—Diamonds", "Royal Flush (A—J)—Diamonds"): one outcome, one legend entry
    outcomes = chart_outcomes(_sheets("jackpot-party"))
    assert len(outcomes) == 10
    (diamonds,) = [label for key, label in outcomes if key == "royal-flush-diamonds"]
    assert diamonds == "Royal Flush—Diamonds / Royal Flush (A—J)—Diamonds"


@pytest.mark.parametrize("n", [1, 9, 10, 15, 18, 19, 27, 40])
def test_outcome_colours_are_distinct(n: int) -> None:
    colours = outcome_colors(n)
    assert len(colours) == n == len(set(colours))
    assert LOSS_COLOR not in colours


def test_csv_has_switch_hands_and_blackjack_premium() -> None:
    games = [game_sheet(6)]
    rows = _csv_rows(parsheets_csv(_sheets("perfect-pairs"), games))
    game_rows = [r for r in rows if r["section"] == "58 Pa. Code § 633b.4"]
    assert {r["wager"] for r in game_rows} == {"switch-hands", "blackjack-premium"}
    assert len(game_rows) == len(games[0].analyses) == 4
    for r, a in zip(game_rows, games[0].analyses, strict=True):
        assert r["decks"] == "6" and r["outcome"] == "whole-game"
        assert float(r["house_edge"]) == pytest.approx(a.house_edge)
        # the Ante is $1 for every $5 (§ 633b.4(c)): per total wagered is per 1.2 units
        per_total = a.house_edge / (1.2 if a.ante else 1)
        assert float(r["house_edge_per_total_wagered"]) == pytest.approx(per_total)
    # the par-sheet rows are still there, before them
    assert rows[0]["wager"] == "perfect-pairs"


# -- long-run warning and example paytables in every summary ---------------------------------------


def test_html_summary_table_and_sheet_carry_the_long_run_warning() -> None:
    sheets = _sheets("match-the-dealer")
    page = parsheets_html(sheets)
    summary = page[page.index("<table class='summary'>") :]
    summary = summary[: summary.index("</table>")]
    flagged = [row for row in summary.split("<tr>") if "above 100%" in row]
    # under the default reading paytables 6-10 return more than the wager at six and eight decks
    assert len(flagged) == 10
    for s in sheets:
        section = page[page.index(f"id='{sheet_id(s)}'") :]
        section = section[: section.index("</section>")]
        expected = int(s.paytable) >= 6
        assert ("WARNING: in the long run" in section) is expected, (s.paytable, s.decks)


def test_example_paytables_are_marked_in_every_summary_row(tmp_path: Path) -> None:
    wagers = ["bad-beat-bonus", "six-card-bonus", "aces-up"]
    width = out._width  # a wide console: one table row per line
    out._width = 400
    try:
        run = run_main(
            ["parsheet", "--summary", *[f"--wager={w}" for w in wagers], "-o", str(tmp_path)]
        )
    finally:
        out._width = width
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("───"))  # under the header
    keys = [line.split()[0] for line in lines[rule:] if line.startswith("  ")]  # a sheet's line
    # the terminal marks each key (a note under the table says what the marks mean)
    assert sorted(keys) == ["example-bad-beat†", "example-six-card-bonus†", "pa-casino*"]
    assert "* not printed in the regulation; † EXAMPLE, made up; not PA text" in lines
    # the Aces Up pays were seen at a PA casino, not made up: not printed in the regulation
    csv_rows = _csv_rows((tmp_path / "parsheets.csv").read_text(encoding="utf-8"))
    for r in csv_rows:
        status = r["paytable_status"]
        assert status == (
            "EXAMPLE, made up; not PA text"
            if r["paytable"].startswith("example-")
            else "not printed in the regulation"
        )
    page = (tmp_path / "parsheets.html").read_text(encoding="utf-8")
    summary_rows = [
        row
        for table in page.split("<table class='summary'>")[1:]
        for row in table[: table.index("</table>")].split("<tr>")[2:]
    ]
    assert len(summary_rows) == len(keys)
    for row in summary_rows:
        assert ("EXAMPLE, made up; not PA text" in row) is ("example-" in row)
    args = [f"--wager={w}" for w in wagers[1:]]
    doc = json.loads(run_main(["parsheet", "--json", "--summary", *args]).out)
    assert {r["paytable"]: r["paytable_example"] for r in doc["summary"]} == {
        "example-six-card-bonus": True,
        "pa-casino": False,
    }
    assert {r["paytable"]: r["paytable_status"] for r in doc["summary"]} == {
        "example-six-card-bonus": "EXAMPLE, made up; not PA text",
        "pa-casino": "not printed in the regulation",
    }


# -- who pays the reseed (docs/interpretations.md, § 633b.3(j)) -----------------------------------


def test_the_reserve_pays_the_reseed_and_the_house_only_what_it_lacks() -> None:
    from dataclasses import replace

    from croupier.analysis.meters import ReseedFunding, meter_return
    from croupier.paytables import MeterLevel

    mtd = meter_return(get_wager("match-the-dealer"), "10", decks=6)
    level = MeterLevel.PROGRESSIVE
    # § 633b.3(j): 15% to the meter, 6% to the reserve; the seed is 1,000 wagers
    assert mtd.reserve_rates == {level: Fraction(6, 100)}
    # an ace of spades up (6 of them) and two of the other five in the player's hand
    p_top = Fraction(6 * comb(5, 2), 312 * comb(311, 2))
    assert mtd.full_award_probability == {level: p_top}
    assert mtd.long_run() == mtd.fixed + Fraction(21, 100)
    assert mtd.long_run(reseed=ReseedFunding.HOUSE) == mtd.fixed + Fraction(21, 100) + p_top * 1000
    # a reserve too small for the seed: the house adds exactly what it lacks
    thin = replace(mtd, reserve_rates={level: p_top * 400})
    assert thin.long_run() == mtd.fixed + Fraction(21, 100) + p_top * 600
    # a level with no printed reserve (P17-A of § 633b.2(i)) is reseeded by the house either way
    p17 = meter_return(get_wager("jackpot-party"), "P17-A", decks=1)
    assert p17.reserve_rates == {}
    assert (
        p17.long_run() == p17.long_run(reseed=ReseedFunding.HOUSE) > p17.fixed + Fraction(20, 100)
    )


def test_reseed_option_names_the_reading_in_the_json_and_the_summary() -> None:
    args = ["analyze", "match-the-dealer", "-p", "4", "-d", "8", "--json"]
    default = json.loads(run_main(args).out)["meter_analysis"]
    house = json.loads(run_main([*args, "--reseed", "house"]).out)["meter_analysis"]
    assert (default["reseed_funding"], house["reseed_funding"]) == ("reserve", "house")
    # eight decks: an ace of spades up (8) and two of the other seven in the player's hand, of
    # 416 upcards × C(415, 2) pairs; the seed is 1,000 wagers
    seed_share = Fraction(8 * comb(7, 2), 416 * comb(415, 2)) * 1000
    diff = Fraction(house["long_run_return_exact"]) - Fraction(default["long_run_return_exact"])
    assert diff == seed_share
    # paytable 4 at eight decks is above 100% only under the house-funded reading
    assert default["long_run_return"] < 0 < house["long_run_return"]
    run = run_main(["parsheet", "--summary", "--wager", "match-the-dealer", "--reseed", "house"])
    (warning,) = [line for line in run.out.splitlines() if line.startswith("WARNING")]
    assert "match-the-dealer 4 (8 decks)" in warning and "new money from the house" in warning


USER_MTD = """
section = "633b.3"
title = "An operator's Match the Dealer table"
citation = "house table H10"

[[paytables]]
id = "H10"
title = "Six Decks, the pays of paytable 10"
decks = [6]
lines = [
  { outcome = "two-suited-match-aces-of-spades", label = "Aces of Spades", pays = "100% Progressive" },
  { outcome = "two-suited-match", label = "2 Suited Match—All Others", pays = "10% Progressive" },
  { outcome = "non-suited-and-suited-match", label = "1 Non-Suited and 1 Suited Match", pays = "13 to 1" },
  { outcome = "suited-match", label = "1 Suited Match", pays = "9 to 1" },
  { outcome = "two-non-suited-matches", label = "2 Non-Suited Matches", pays = "8 to 1" },
  { outcome = "non-suited-match", label = "1 Non-Suited Match", pays = "4 to 1" },
]
[paytables.progressive]
wagers = ["$1", "$5"]
[[paytables.progressive.meters]]
level = "Progressive"
seed_wager_multiple = 1000
increment_rate = "15%"
secondary_increment_rate = "6%"
"""


def test_a_users_progressive_paytable_exported_alone_gets_its_long_run_warning(
    tmp_path: Path,
) -> None:
    f = tmp_path / "h10.toml"
    f.write_text(USER_MTD, encoding="utf-8")
    out_dir = tmp_path / "out"
    args = ["analyze", "match-the-dealer", "-p", "H10", "-d", "6", "--paytable-file", str(f)]
    run = run_main([*args, "--out", str(out_dir)])
    assert run.code == 0, run.err
    # the pays of § 633b.3(i) paytable 10 at six decks: the same long-run return
    rows = _csv_rows((out_dir / "match-the-dealer-H10-6-decks.csv").read_text(encoding="utf-8"))
    regulation = _csv_rows(
        parsheets_csv([exact_parsheet(get_wager("match-the-dealer"), "10", decks=6)])
    )
    assert {r["long_run_return_exact"] for r in rows} == {
        r["long_run_return_exact"] for r in regulation
    }
    assert {r["paytable_status"] for r in rows} == {"not printed in the regulation"}
    page = (out_dir / "match-the-dealer-H10-6-decks.html").read_text(encoding="utf-8")
    assert "WARNING: in the long run paytable H10 (6 decks) returns 110.1132%" in page

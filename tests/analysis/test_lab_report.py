"""A par sheet, lab grade (issue 30): "1 in N" per outcome, the volatility index, the confidence
band of the return after N rounds, the maximum win and a progressive's meter figures, the same in
the sheet (croupier.analysis.parsheet), its JSON, its CSV exports and its HTML report
(croupier.analysis.lab_report, croupier.analysis.report), and on the terminal.

Every figure is worked by hand from the hand counts and the printed pays: Perfect Pairs A at
8 decks (§ 633b.1(f): 25, 12, 6 to 1) counts 1,456 perfect, 1,664 coloured and 3,328 mixed pairs
of C(416, 2) = 86,320 two-card deals (52 · C(8, 2); 13 · 2 · 8 · 8; 13 · 4 · 8 · 8); z is the
published two-sided normal quantile (1.644854, 1.959964, 2.575829: any normal table).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from cli_support import run_main
from croupier.analysis.lab_report import BandChart, band_chart_svg, bands_csv
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.report import parsheets_csv, parsheets_html
from croupier.wagers import get_wager

Z = {90: 1.644854, 95: 1.959964, 99: 2.575829}
TOTAL = comb(416, 2)
PERFECT, COLOURED, MIXED = 52 * comb(8, 2), 13 * 2 * 64, 13 * 4 * 64
LOSES = TOTAL - PERFECT - COLOURED - MIXED
PAYS = {PERFECT: 25, COLOURED: 12, MIXED: 6, LOSES: -1}
MEAN = Fraction(sum(n * x for n, x in PAYS.items()), TOTAL)
SD = math.sqrt(Fraction(sum(n * x * x for n, x in PAYS.items()), TOTAL) - MEAN**2)


def test_the_hand_counts_are_the_published_ones() -> None:
    assert (PERFECT, COLOURED, MIXED, LOSES, TOTAL) == (1_456, 1_664, 3_328, 79_872, 86_320)
    assert f"{float(-MEAN):.4%}" == "4.0964%"  # the house edge every PP A 8-deck sheet prints


def test_one_in_n_volatility_index_and_max_win_by_hand() -> None:
    sheet = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)
    assert sheet.rows[0].one_in == Fraction(86_320, 1_456)  # 59.29
    assert [r.one_in for r in sheet.rows] == [Fraction(TOTAL, n) for n in PAYS]
    assert sheet.standard_deviation == pytest.approx(SD, rel=1e-12)
    for percent, vi in sheet.volatility_indexes.items():
        assert vi == pytest.approx(Z[percent] * SD, abs=1e-6 * SD)  # z to six places
    best = sheet.max_win
    assert (best.outcome, best.net) == ("perfect-pair", Fraction(25))
    assert sheet.max_win_cents is None  # no wager size without a progressive
    assert sheet.least_return == 0  # the wager loses at most its stake


def test_the_band_after_n_rounds_by_hand() -> None:
    sheet = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)
    bands = {(b.rounds, b.level.percent): b for b in sheet.return_bands}
    assert sorted({n for n, _ in bands}) == [10**k for k in range(2, 9)]
    for (n, percent), b in bands.items():
        half = Z[percent] * SD / math.sqrt(n)
        assert b.low == pytest.approx(1 + float(MEAN) - half, abs=1e-6)
        assert b.high == pytest.approx(1 + float(MEAN) + half, abs=1e-6)
    # 10,000 rounds at 95 %: 0.959036 ± 1.959964 · 3.953457 / 100
    b = bands[(10_000, 95)]
    assert (round(b.low, 4), round(b.high, 4)) == (0.8816, 1.0365)


def test_the_json_carries_the_lab_figures() -> None:
    d = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8).to_dict()
    perfect = d["outcomes"][0]
    assert Fraction(perfect["one_in_exact"]) == Fraction(TOTAL, PERFECT)
    assert perfect["one_in"] == pytest.approx(TOTAL / PERFECT)
    assert set(d["volatility_index"]) == {"90", "95", "99"}
    assert d["volatility_index"]["95"] == pytest.approx(Z[95] * SD, abs=1e-5)
    assert len(d["return_bands"]) == 7 * 3
    first = d["return_bands"][0]
    assert (first["rounds"], first["confidence"]) == (100, 90)
    assert first["low"] == pytest.approx(1 + float(MEAN) - Z[90] * SD / 10, abs=1e-6)
    assert d["max_win"] == {
        "outcome": "perfect-pair",
        "label": "Perfect Pair",
        "pays": "25 to 1",
        "net_win": 25,
    }


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_csv_and_its_band_file_carry_them() -> None:
    sheet = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)
    rows = {r["outcome"]: r for r in _rows(parsheets_csv([sheet]))}
    assert Fraction(rows["perfect-pair"]["one_in_exact"]) == Fraction(TOTAL, PERFECT)
    assert float(rows["perfect-pair"]["one_in"]) == pytest.approx(TOTAL / PERFECT)
    for percent in (90, 95, 99):
        (value,) = {float(r[f"vi_{percent}"]) for r in rows.values()}  # one per sheet
        assert value == pytest.approx(Z[percent] * SD, abs=1e-5)
    assert {r["max_win"] for r in rows.values()} == {"25"}
    assert {r["breakeven_meter"] for r in rows.values()} == {""}  # no meter
    bands = _rows(bands_csv([sheet]))
    assert len(bands) == 21
    (b,) = [r for r in bands if r["rounds"] == "1000000" and r["confidence"] == "99"]
    assert float(b["return_high"]) == pytest.approx(1 + float(MEAN) + Z[99] * SD / 1000, abs=1e-6)
    assert float(b["volatility_index"]) == pytest.approx(Z[99] * SD, abs=1e-5)


def test_the_html_report_shows_them_with_the_definitions() -> None:
    sheet = exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)
    page = parsheets_html([sheet])
    assert f"{TOTAL / PERFECT:.2f}" == "59.29" and "<td>59.29</td>" in page
    assert f"{Z[95] * SD:.4f}" in page  # 7.7486
    assert "Volatility index VI = z·SD per unit wagered" in page
    assert "1.644854 at 90%, 1.959964 at 95%, 2.575829 at 99%" in page
    assert "normal approximation" in page
    low, high = 1 + float(MEAN) - Z[95] * SD / 100, 1 + float(MEAN) + Z[95] * SD / 100
    assert f"<td>{low:.2%} – {high:.2%}</td>" in page  # 10,000 rounds at 95 %
    assert "<td>100,000,000</td>" in page
    # the band chart: an SVG of its own, its ids scoped to the sheet
    assert "sheet-perfect-pairs-A-8d-bands-" in page
    assert "25× the wager (Perfect Pair, pays 25 to 1; 1 in 59.29)" in page


# -- a progressive: Jackpot Party P1, 6 decks (§ 633b.2(i): $5 wager, seed $50,000, 16% + 3.75%) --


def test_a_progressives_max_win_breakeven_and_hit_odds_by_hand(tmp_path: Path) -> None:
    sheet = exact_parsheet(get_wager("jackpot-party"), "P1", decks=6)
    rows = {r.outcome: r for r in sheet.rows}
    diamonds, other = rows["royal-flush-diamonds"], rows["royal-flush-other"]
    # the meter lines' probabilities stand as counted; the rest is arithmetic on them: the
    # Royal Flush in diamonds takes the whole $50,000 meter for the $5 stake (stake collected)
    assert (sheet.max_win.outcome, sheet.max_win.net) == ("royal-flush-diamonds", Fraction(9_999))
    assert sheet.max_win_cents == 5_000_000 - 500
    # the breakeven meter M: Σ p · net of the fixed lines + p_d (M/5 − 1) + p_o (M/50 − 1) = 0
    fixed = sum((r.contribution for r in sheet.rows if r not in (diamonds, other)), Fraction(0))
    p_d, p_o = diamonds.probability, other.probability
    meter = (p_d + p_o - fixed) / (p_d / 5 + p_o / 50)  # dollars
    hits = p_d + p_o
    run = run_main(["analyze", "jackpot-party", "-p", "P1", "-d", "6", "--out", str(tmp_path)])
    assert run.code == 0, run.err
    rows_csv = _rows((tmp_path / "jackpot-party-P1-6-decks.csv").read_text(encoding="utf-8"))
    (be_cents,) = {int(r["breakeven_meter_cents"]) for r in rows_csv}
    assert be_cents == round(meter * 100)  # $583,449.50
    assert {r["wager_amount"] for r in rows_csv} == {"$5"}  # the stake it is on
    assert {r["hit_odds"] for r in rows_csv} == {f"Progressive 1 in {round(1 / hits):,}"}
    assert {r["increment_rates"] for r in rows_csv} == {
        "Progressive 16% to the meter, 3.75% to the reserve"
    }
    assert {r["max_win_amount"] for r in rows_csv} == {"$49,995"}
    doc = json.loads((tmp_path / "jackpot-party-P1-6-decks.json").read_text(encoding="utf-8"))
    assert doc["max_win"]["amount_cents"] == 4_999_500
    assert doc["increment_rates"] == {
        "Progressive": {"increment_rate": 0.16, "secondary_increment_rate": 0.0375}
    }
    assert doc["meter_analysis"]["breakeven_meter_cents"] == be_cents
    page = (tmp_path / "jackpot-party-P1-6-decks.html").read_text(encoding="utf-8")
    money = f"${be_cents // 100:,}.{be_cents % 100:02d}"
    assert f"{money} on a $5 wager" in page
    assert f"1 in {round(1 / hits):,}" in page
    assert "76.7931% of the wager (Progressive $50,000 on a $5 wager)" in page
    assert f"{money} on a $5 wager" in run_main(["analyze", "jackpot-party", "-p", "P1"]).out


def test_the_terminal_sheet_prints_the_lab_figures() -> None:
    text = run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "8"]).out
    assert "59.29" in text
    vi = " · ".join(f"{Z[p] * SD:.4f}" for p in (90, 95, 99))
    assert f"volatility index at 90%, 95%, 99%: {vi}" in text
    assert "z the two-sided standard normal" in text
    assert "maximum win 25× the wager" in text
    low, high = 1 + float(MEAN) - Z[99] * SD / 10_000, 1 + float(MEAN) + Z[99] * SD / 10_000
    assert "100,000,000" in text and f"{low:.2%} – {high:.2%}" in text
    assert "below 0%" in text  # 99 % at 100 rounds: the approximation's failing said so
    jp = run_main(["analyze", "jackpot-party", "-p", "P1", "-d", "6"]).out
    assert "maximum win 9,999× the wager = $49,995 on a $5 wager at the meters shown" in jp
    assert "increment rates: Progressive 16% to the meter, 3.75% to the reserve" in jp
    assert "return there 76.7931% of the wager" in jp


def test_a_simulated_sheet_labels_its_figures_observed() -> None:
    run = run_main(["simulate", "perfect-pairs", "-p", "A", "-d", "8", "-n", "4000", "-s", "5"])
    assert run.code == 0, run.err
    assert "1 in (seen)" in run.out and "(from the sample SD)" in run.out
    doc = json.loads(
        run_main(
            ["simulate", "perfect-pairs", "-p", "A", "-d", "8", "-n", "4000", "-s", "5", "--json"]
        ).out
    )
    assert "return_bands" not in doc  # a simulation's interval is its own, not the exact band
    for o in doc["outcomes"]:
        assert o["one_in"] == (pytest.approx(doc["rounds"] / o["hits"]) if o["hits"] else None)
    sd = doc["standard_deviation"]
    assert doc["volatility_index"]["99"] == pytest.approx(Z[99] * sd, rel=1e-6)
    assert doc["max_win"]["net_win"] == 25


def _undated(svg: str) -> str:
    return re.sub(r"<dc:date>[^<]*</dc:date>", "", svg)


def test_a_band_chart_drawn_in_the_reports_batch_is_the_one_drawn_alone() -> None:
    """The report draws every sheet's band chart with one figure (BandChart, issue 33): each
    chart is the SVG a figure made for that sheet alone gives, whatever was drawn before it —
    with and without the least return's line (Perfect Pairs' band after 100 rounds reaches
    below 0%, the Banker's does not), and the
    expected return the legend states is the one worked by hand."""
    pairs, banker = get_wager("perfect-pairs"), get_wager("banker")
    sheets = [
        exact_parsheet(pairs, "A", decks=8),
        exact_parsheet(banker, "commission", decks=8),
        exact_parsheet(pairs, "A", decks=6),
        exact_parsheet(banker, "no-commission", decks=8),
        exact_parsheet(pairs, "A", decks=8),
    ]
    below = [any(b.low < s.least_return for b in s.return_bands) for s in sheets]
    assert below == [True, False, True, False, True]
    chart = BandChart()
    try:
        batch = [band_chart_svg(s, chart) for s in sheets]
    finally:
        chart.close()
    for sheet, svg in zip(sheets, batch, strict=True):
        assert _undated(svg) == _undated(band_chart_svg(sheet))
    assert _undated(batch[0]) == _undated(batch[4])  # the same sheet again, the same chart
    assert f"expected {float(1 + MEAN):.2%}" in batch[0]  # Perfect Pairs A, 8 decks, by hand
    assert "the least the wager can return" in batch[2]
    assert "the least the wager can return" not in batch[1]

"""The par sheet summary a manager compares paytables by (croupier.analysis.summary): each
breakeven meter with the wager it is on, the volatility index, the CSV's columns, the JSON held to
its model, and the comparison at a chosen wager size."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from croupier.analysis.meters import ReseedFunding
from croupier.analysis.parsheet import ParSheet, exact_parsheet
from croupier.analysis.report import write_report
from croupier.analysis.summary import (
    SUMMARY_COLUMNS,
    compare_paytables,
    summary_csv,
    summary_document,
    summary_rows,
)
from croupier.operations.schemas.analysis import ParSheetSummaryFile
from croupier.wagers import get_wager
from model_support import held
from repo_paths import ROOT

JP = get_wager("jackpot-party")
MTD = get_wager("match-the-dealer")


@pytest.fixture(scope="module")
def jackpot_six() -> list[ParSheet]:
    """Jackpot Party P1 and P3 at six decks: § 633b.2(i) prints P1 for a $5 wager (seed
    $50,000) and P3 for a $1 wager (seed $10,000) — its "Wager $5 $5 $1" row under P1–P3."""
    return [exact_parsheet(JP, key, decks=6) for key in ("P1", "P3")]


def test_each_breakeven_is_on_the_wager_its_paytable_is_printed_for(
    jackpot_six: list[ParSheet],
) -> None:
    p1, p3 = summary_rows(jackpot_six)
    assert (p1.wager_cents, p3.wager_cents) == (500, 100)  # § 633b.2(i): $5, $1
    assert p1.breakeven_text() == "$583,449.50 on $5"
    assert p3.breakeven_text() == "$159,880.56 on $1"
    # a second method: the per-outcome par sheet with the meter at that amount (and the wager
    # the row names) returns nothing to either side, to within one cent on the meter
    for row, key, wager in ((p1, "P1", 500), (p3, "P3", 100)):
        cents = row.breakeven_meter_cents
        assert cents is not None
        below = exact_parsheet(JP, key, decks=6, meter_cents=cents - 1, wager_cents=wager)
        above = exact_parsheet(JP, key, decks=6, meter_cents=cents + 1, wager_cents=wager)
        assert below.expected_return < 0 < above.expected_return


def test_the_volatility_index_is_z_times_sd_by_hand() -> None:
    """Perfect Pairs A, 8 decks (§ 633b.1(f)): of C(416, 2) = 86,320 pairs, 1,456 perfect
    (25 to 1), 1,664 coloured (12 to 1), 3,328 mixed (6 to 1), 79,872 lose; z the published
    two-sided normal quantiles."""
    (row,) = summary_rows([exact_parsheet(get_wager("perfect-pairs"), "A", decks=8)])
    counts = {25: 1456, 12: 1664, 6: 3328, -1: 79872}
    total = sum(counts.values())
    assert total == math.comb(416, 2)
    mean = sum(Fraction(n * x, total) for x, n in counts.items())
    variance = sum(Fraction(n * x * x, total) for x, n in counts.items()) - mean**2
    sd = math.sqrt(variance)
    d = row.to_dict()
    assert Fraction(d["variance_exact"]) == variance
    assert Fraction(d["house_edge_exact"]) == -mean
    for key, z in (("vi_90", 1.644854), ("vi_95", 1.959964), ("vi_99", 2.575829)):
        assert d[key] == pytest.approx(z * sd, rel=1e-6)
    assert d["vi_95"] == pytest.approx(7.7486, abs=5e-4)  # 1.959964 × 3.9534 (README)


def test_the_csv_has_its_columns_and_exact_fractions_beside_the_decimals(
    jackpot_six: list[ParSheet],
) -> None:
    text = summary_csv(summary_rows(jackpot_six))
    reader = csv.DictReader(io.StringIO(text))
    assert reader.fieldnames == [
        "wager", "section", "paytable", "paytable_status", "decks",
        "house_edge", "house_edge_exact", "long_run_return", "long_run_return_exact",
        "reseed_funding", "wager_amount", "wager_amount_cents", "top_meter",
        "breakeven_meter", "breakeven_meter_cents", "breakeven",
        "hit_frequency", "hit_frequency_exact", "standard_deviation", "variance_exact",
        "vi_90", "vi_95", "vi_99",
    ]  # fmt: skip
    assert tuple(reader.fieldnames) == SUMMARY_COLUMNS
    rows = list(reader)
    assert [(r["paytable"], r["wager_amount"], r["breakeven_meter"]) for r in rows] == [
        ("P1", "$5", "$583,449.50"),
        ("P3", "$1", "$159,880.56"),
    ]
    for r in rows:
        assert r["section"] == "58 Pa. Code § 633b.2"
        for figure in ("house_edge", "long_run_return", "hit_frequency"):
            assert float(Fraction(r[f"{figure}_exact"])) == pytest.approx(float(r[figure]))
        assert math.sqrt(Fraction(r["variance_exact"])) == pytest.approx(
            float(r["standard_deviation"])
        )
    # a fixed-pay wager leaves the progressive's cells empty
    (pp,) = csv.DictReader(
        io.StringIO(summary_csv(summary_rows([exact_parsheet(get_wager("perfect-pairs"), "A", 8)])))
    )
    assert [pp[c] for c in ("wager_amount", "breakeven_meter", "reseed_funding")] == ["", "", ""]
    assert pp["breakeven"] == "—"


def test_the_json_is_held_to_its_model_and_its_schema(jackpot_six: list[ParSheet]) -> None:
    doc = json.loads(json.dumps(summary_document(summary_rows(jackpot_six))))
    held(ParSheetSummaryFile, doc)
    schema = json.loads((ROOT / "docs/schemas/parsheet-summary.schema.json").read_text("utf-8"))
    assert not list(Draft202012Validator(schema).iter_errors(doc))


def test_a_wager_size_not_offered_says_so_and_a_scaled_seed_scales_the_breakeven() -> None:
    at_one = {r.sheet.paytable: r for r in compare_paytables(JP, 6, stake_cents=100)}
    assert at_one["P3"].breakeven_text() == "$159,880.56 on $1"
    for key in ("P1", "P2", "P10"):  # printed for $5 only
        assert at_one[key].breakeven_text() == "not offered at $1"
        assert at_one[key].to_dict()["breakeven_meter"] is None
        assert at_one[key].to_dict()["offered"] is False
    # § 633b.3(e), (j): Match the Dealer takes $1 or $5 and seeds at 1,000 times the wager, so
    # per unit wagered nothing changes: the breakeven on $5 is exactly five times that on $1
    one = compare_paytables(MTD, 8, stake_cents=100)
    five = compare_paytables(MTD, 8, stake_cents=500)
    for a, b in zip(one, five, strict=True):
        assert (a.wager_cents, b.wager_cents) == (100, 500)
        assert a.breakeven_cents is not None and b.breakeven_cents == 5 * a.breakeven_cents
        assert b.long_run_return == a.long_run_return
    assert all(r.to_dict()["reseed_funding"] == "reserve" for r in one)
    house = compare_paytables(MTD, 8, reseed=ReseedFunding.HOUSE)
    assert all(r.to_dict()["reseed_funding"] == "house" for r in house)


def test_parsheet_out_writes_the_summary_and_the_meter_analysis(
    jackpot_six: list[ParSheet],
    tmp_path: Path,
) -> None:
    written = {p.name for p in write_report(jackpot_six, tmp_path)}
    assert {"summary.json", "summary.csv", "parsheets.json", "parsheets.csv"} <= written
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))
    held(ParSheetSummaryFile, summary)
    assert [r["breakeven"] for r in summary["summary"]] == [
        "$583,449.50 on $5",
        "$159,880.56 on $1",
    ]
    sheets = json.loads((tmp_path / "parsheets.json").read_text("utf-8"))["parsheets"]
    p1, p3 = (s["meter_analysis"] for s in sheets)
    assert (p1["wager_amount"], p1["breakeven_meter"]) == ("$5", "$583,449.50")
    assert (p3["wager_amount"], p3["breakeven_meter"]) == ("$1", "$159,880.56")
    # § 633b.2(i): P1 16% primary + 3.75% secondary, P3 19% + 4.25%
    assert p1["increment_rates"] == {"Progressive": 0.1975}
    assert p3["increment_rates"] == {"Progressive": 0.2325}
    rows = list(csv.DictReader(io.StringIO((tmp_path / "parsheets.csv").read_text("utf-8"))))
    by_table = {r["paytable"]: r for r in rows}
    assert by_table["P1"]["increment_rate_exact"] == "79/400"
    assert by_table["P3"]["increment_rate_exact"] == "93/400"
    # § 633b.2(i), P3: primary increment rate 19%, secondary 4.25% (23.25% in all)
    assert by_table["P3"]["increment_rates"] == "Progressive 19% to the meter, 4.25% to the reserve"
    assert (by_table["P3"]["wager_amount"], by_table["P3"]["breakeven_meter"]) == (
        "$1",
        "$159,880.56",
    )
    # the return at the meter (the seed here) is the par sheet's expected return
    for s, key in zip(jackpot_six, ("P1", "P3"), strict=True):
        assert Fraction(by_table[key]["return_at_meters_exact"]) == s.expected_return
        assert by_table[key]["reseed_funding"] == "reserve"

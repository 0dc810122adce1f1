"""Simulation as evidence (issue 30): the chi-square goodness-of-fit test, its pooling rule, the
return's confidence intervals and the run's record, each against values worked by hand, a
chi-square table or a closed form — not against SciPy's own output."""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from importlib import metadata
from pathlib import Path

import pytest

from croupier.analysis.evidence import (
    GoodnessOfFit,
    OutcomeCheck,
    RunInfo,
    chi_square_p_value,
    pooled_cells,
    simulation_evidence,
    write_evidence,
)
from croupier.analysis.evidence_report import evidence_csv, evidence_html
from croupier.analysis.parsheet import exact_parsheet, resolve
from croupier.analysis.simulate import observed_sheet
from croupier.errors import InputError
from croupier.wagers import get_wager


def checks(rounds: int, *cells: tuple[str, Fraction, int]) -> tuple[OutcomeCheck, ...]:
    """Outcomes ``(id, exact probability, observed count)`` over ``rounds`` rounds."""
    return tuple(OutcomeCheck(key, key, "", p, seen, rounds) for key, p, seen in cells)


QUARTER, HALF = Fraction(1, 4), Fraction(1, 2)


def test_three_cells_worked_by_hand() -> None:
    """100 rounds, p = 1/4, 1/2, 1/4, so E = 25, 50, 25; O = 30, 50, 20:
    χ² = 5²/25 + 0 + 5²/25 = 2 on 2 degrees of freedom. With two degrees of freedom the
    chi-square survival function is e^(−x/2): p = e^(−1) = 0.367879."""
    fit = GoodnessOfFit(
        pooled_cells(checks(100, ("a", QUARTER, 30), ("b", HALF, 50), ("c", QUARTER, 20)))
    )
    assert fit.statistic == 2
    assert fit.degrees_of_freedom == 2
    assert fit.p_value == pytest.approx(math.exp(-1), abs=1e-12)
    assert fit.consistent is True


def test_a_second_three_cell_example() -> None:
    """O = 18, 55, 27 against E = 25, 50, 25: χ² = 49/25 + 25/50 + 4/25 = 1.96 + 0.5 + 0.16
    = 2.62; p = e^(−1.31) = 0.269820."""
    fit = GoodnessOfFit(
        pooled_cells(checks(100, ("a", QUARTER, 18), ("b", HALF, 55), ("c", QUARTER, 27)))
    )
    assert fit.statistic == Fraction(262, 100)
    assert fit.p_value == pytest.approx(0.269820, abs=1e-6)


@pytest.mark.parametrize(
    ("critical", "df", "alpha"),
    [  # upper critical values of the chi-square distribution (NIST/SEMATECH e-Handbook, 1.3.6.7.4)
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (5.991, 2, 0.05),
        (7.815, 3, 0.05),
        (11.345, 3, 0.01),
        (15.507, 8, 0.05),
        (20.090, 8, 0.01),
    ],
)
def test_p_values_match_a_chi_square_table(critical: float, df: int, alpha: float) -> None:
    # the table's values are rounded to three decimals: the p-value to a few parts in 10^4
    assert chi_square_p_value(critical, df) == pytest.approx(alpha, rel=2e-3)


def test_a_p_value_needs_a_degree_of_freedom_and_a_statistic_of_at_least_zero() -> None:
    with pytest.raises(InputError, match="degree of freedom"):
        chi_square_p_value(1.0, 0)
    with pytest.raises(InputError, match="≥ 0"):
        chi_square_p_value(-1.0, 2)


def _keys(fit_cells: tuple[object, ...]) -> list[tuple[str, ...]]:
    return [c.outcomes for c in fit_cells]  # type: ignore[attr-defined]


P = (Fraction(1, 1000), Fraction(2, 1000), Fraction(100, 1000), Fraction(897, 1000))


def _four(rounds: int) -> tuple[OutcomeCheck, ...]:
    return checks(rounds, *((k, p, 0) for k, p in zip("abcd", P, strict=True)))


def test_rare_outcomes_pooled_into_one_cell() -> None:
    """2,000 rounds: E = 2, 4, 200, 1794; a and b (below 5) pooled, E = 6: 3 cells, df 2."""
    cells = pooled_cells(_four(2000))
    assert _keys(cells) == [("a", "b"), ("c",), ("d",)]
    assert [c.expected for c in cells] == [6, 200, 1794]
    assert GoodnessOfFit(cells).degrees_of_freedom == 2


def test_a_pooled_cell_still_below_five_is_merged_with_the_smallest_other_cell() -> None:
    """1,000 rounds: E = 1, 2, 100, 897; a and b pooled (E = 3) are still below 5, so they join
    the smallest other cell, c (100): cells {a, b, c} (E 103) and {d}; df 1."""
    cells = pooled_cells(_four(1000))
    assert _keys(cells) == [("a", "b", "c"), ("d",)]
    assert [c.expected for c in cells] == [103, 897]
    assert GoodnessOfFit(cells).degrees_of_freedom == 1


def test_one_rare_outcome_joins_the_smallest_other_cell() -> None:
    """3,000 rounds: E = 3, 6, 300, 2691; only a is below 5; it joins b (6, the smallest)."""
    assert _keys(pooled_cells(_four(3000))) == [("a", "b"), ("c",), ("d",)]


def test_the_sentence_names_the_pooled_outcomes_and_the_rule() -> None:
    """1,000 rounds: a and b (E = 1, 2) pooled and, still below 5, joined to c (E = 100): the
    one line names the three outcomes of that cell and says why they were pooled."""
    sentence = GoodnessOfFit(pooled_cells(_four(1000))).sentence()
    assert "2 cells; pooled into one: a, b and c" in sentence
    assert "expected fewer than 5 times" in sentence and "smallest other cell" in sentence
    unpooled = GoodnessOfFit(pooled_cells(_four(100_000))).sentence()
    assert "(4 cells)" in unpooled and "pooled" not in unpooled


def test_every_outcome_rare_is_one_cell_and_no_test() -> None:
    fit = GoodnessOfFit(pooled_cells(_four(4)))
    assert _keys(fit.cells) == [("a", "b", "c", "d")]
    assert fit.degrees_of_freedom == 0
    assert fit.p_value is None and fit.consistent is None
    assert "no test" in fit.sentence()


def test_a_count_far_from_expected_is_not_consistent() -> None:
    """O = 40, 40, 20 against E = 25, 50, 25: χ² = 9 + 2 + 1 = 12 on 2 df, p = e^(−6) = 0.00248,
    below the 1 % level."""
    fit = GoodnessOfFit(
        pooled_cells(checks(100, ("a", QUARTER, 40), ("b", HALF, 40), ("c", QUARTER, 20)))
    )
    assert fit.statistic == 12
    assert fit.p_value == pytest.approx(math.exp(-6), rel=1e-9)
    assert fit.consistent is False
    assert "DO NOT agree" in fit.sentence()


def test_an_outcomes_z_is_its_binomial_departure() -> None:
    """O = 30 against N·p = 25 with N·p·(1 − p) = 18.75: z = 5/√18.75 = 1.154701."""
    (o,) = checks(100, ("a", QUARTER, 30))
    assert o.expected == 25
    assert o.z == pytest.approx(5 / math.sqrt(18.75), abs=1e-12)
    (never,) = checks(100, ("x", Fraction(0), 0))
    assert never.z is None


PERFECT_PAIRS_A_8 = (1456, 1664, 3328, 79872)
"""Perfect Pairs at 8 decks among the C(416, 2) = 86,320 pairs of cards: perfect pairs
52·C(8, 2) = 1,456; coloured 13 ranks · 2 colours · 8·8 = 1,664; mixed 13 · (2·2 suits) · 8·8 =
3,328; the rest lose."""


def _chi2_sf_3(x: float) -> float:
    """The chi-square survival function on 3 degrees of freedom in closed form:
    erfc(√(x/2)) + √(2x/π)·e^(−x/2)."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)


def test_a_par_sheet_against_counts_chosen_by_hand() -> None:
    """86,320 rounds of Perfect Pairs A at 8 decks, so E = the exact counts; O moves the perfect
    pair +38, the coloured −52, the losses +14: χ² = 1444/1456 + 2704/1664 + 196/79872
    = 0.991758 + 1.625 + 0.002454 = 2.619212 on 3 degrees of freedom."""
    w = get_wager("perfect-pairs")
    exact = exact_parsheet(w, "A", decks=8)
    assert tuple(r.combinations for r in exact.rows) == PERFECT_PAIRS_A_8
    seen = (1456 + 38, 1664 - 52, 3328, 79872 + 14)
    sim = observed_sheet(resolve(w, "A", 8), seen, "simulation", "by hand")
    ev = simulation_evidence(exact, sim, RunInfo(7, 86320, 1 << 20, kernel=True))
    assert [o.expected for o in ev.outcomes] == list(PERFECT_PAIRS_A_8)
    assert [o.observed for o in ev.outcomes] == list(seen)
    assert float(ev.fit.statistic) == pytest.approx(2.619212, abs=1e-6)
    assert ev.fit.degrees_of_freedom == 3
    assert ev.fit.p_value == pytest.approx(_chi2_sf_3(2.6192121), abs=1e-7)


def test_the_return_interval_worked_by_hand() -> None:
    """100 rounds of Fortune 7 (pays 40 to 1): 3 wins, 97 losses. x̄ = (120 − 97)/100 = 0.23;
    s² = (3·39.77² + 97·1.23²)/99 = 4891.71/99; SE = s/10; the 95 % interval is
    1.23 ± 1.959964·SE = −0.147720 … 2.607720."""
    w = get_wager("fortune-7")
    exact = exact_parsheet(w, "A", decks=8)
    sim = observed_sheet(resolve(w, "A", 8), (3, 97), "simulation", "by hand")
    ev = simulation_evidence(exact, sim, RunInfo(1, 100, 1 << 20, kernel=True))
    se = math.sqrt(4891.71 / 99) / 10
    assert ev.simulated.standard_error == pytest.approx(se, rel=1e-12)
    by_level = {i.level.percent: i for i in ev.intervals}
    assert sorted(by_level) == [90, 95, 99]
    assert by_level[95].low == pytest.approx(1.23 - 1.959964 * se, abs=1e-6)
    assert by_level[95].high == pytest.approx(1.23 + 1.959964 * se, abs=1e-6)
    assert by_level[95].low == pytest.approx(-0.147720, abs=1e-6)
    assert by_level[99].high == pytest.approx(1.23 + 2.575829 * se, abs=1e-6)
    # 1 − 7.6113 % (the exact house edge) lies inside all three
    assert all(i.contains_exact for i in ev.intervals)
    assert float(ev.exact_return) == pytest.approx(0.923887, abs=1e-6)


def test_sheets_of_different_paytables_are_refused() -> None:
    w = get_wager("perfect-pairs")
    sim = observed_sheet(resolve(w, "B", 8), PERFECT_PAIRS_A_8, "simulation", "")
    with pytest.raises(InputError, match="does not match"):
        simulation_evidence(exact_parsheet(w, "A", decks=8), sim, RunInfo(1, 86320, 1 << 20, True))


def test_the_run_records_the_generator_seed_chunks_and_versions() -> None:
    run = RunInfo(2**70, 2_000_001, 1 << 20, kernel=False).to_dict()
    assert run["seed_entropy"] == str(2**70)
    assert run["chunks"] == 2  # 1,048,576 + 951,425
    assert "PCG64" in run["rng"] and "spawn_key=(i,)" in run["rng"]
    assert run["croupier_version"] == metadata.version("croupier")
    assert run["numpy_version"] == metadata.version("numpy")
    assert "xoshiro256**" in RunInfo(1, 3, 2, kernel=True).rng
    assert RunInfo(1, 4, 2, kernel=True).chunks == 2


def test_write_evidence_writes_json_csv_and_html(tmp_path: Path) -> None:
    w = get_wager("perfect-pairs")
    seen = (1456 + 38, 1664 - 52, 3328, 79872 + 14)
    sim = observed_sheet(resolve(w, "A", 8), seen, "simulation", "by hand")
    ev = simulation_evidence(exact_parsheet(w, "A", decks=8), sim, RunInfo(7, 86320, 1 << 20, True))
    written = write_evidence(ev, tmp_path / "out")
    assert [p.name for p in written] == [
        f"perfect-pairs-A-8-decks-simulation.{ext}" for ext in ("json", "csv", "html")
    ]
    doc = json.loads(written[0].read_text("utf-8"))
    assert doc["evidence"]["goodness_of_fit"]["degrees_of_freedom"] == 3
    assert [o["observed"] for o in doc["evidence"]["outcomes"]] == list(seen)
    rows = list(csv.DictReader(io.StringIO(written[1].read_text("utf-8"))))
    assert [int(r["observed"]) for r in rows] == list(seen)
    assert {r["degrees_of_freedom"] for r in rows} == {"3"}
    page = written[2].read_text("utf-8")
    assert "<svg" in page and "Goodness of fit" in page and "2.6192 on 3 degrees" in page


def test_a_zero_standard_error_gives_no_interval() -> None:
    """2 rounds of Fortune 7, both lost: every round −1, so the sample SD and the standard error
    are 0 and 1 + x̄ ± z·0 would be a 'confidence interval' of one point (0 %), with the exact
    return 92.39 % outside it. There is no interval: none in the evidence, null in the JSON,
    blank in the CSV, said in words in the HTML."""
    w = get_wager("fortune-7")
    sim = observed_sheet(resolve(w, "A", 8), (0, 2), "simulation", "by hand")
    assert sim.standard_error == 0
    ev = simulation_evidence(exact_parsheet(w, "A", decks=8), sim, RunInfo(7, 2, 1 << 20, True))
    assert ev.intervals == ()
    assert ev.to_dict()["confidence_intervals"] is None
    assert "every round gave the same result" in ev.no_interval_reason()
    rows = list(csv.DictReader(io.StringIO(evidence_csv(ev))))
    assert {r["ci_95_low"] for r in rows} == {""}
    page = evidence_html(ev)
    assert "No confidence interval" in page and "0.000000% to" not in page
    assert "<th>Confidence</th>" not in page


def test_the_chunks_are_stated_once_and_as_dealt() -> None:
    """300,000 rounds are one chunk of 300,000 (a chunk holds up to 2^20 = 1,048,576): the
    sheet's convention says so, not 'in chunks of 1,048,576 rounds', and the HTML says the
    chunks once; 2,000,000 rounds are 2 chunks, the last 2,000,000 − 1,048,576 = 951,424."""
    from croupier.analysis.kernels.chunks import chunks_phrase
    from croupier.analysis.simulate import run_fields, simulate

    assert chunks_phrase(2_000_000, 1 << 20) == "2 chunks of 1,048,576 rounds, the last 951,424"
    assert chunks_phrase(300_000, 1 << 20) == "1 chunk of 300,000 rounds"
    w = get_wager("perfect-pairs")
    sim = simulate(w, "A", 300_000, seed=7, decks=8)
    assert "1 chunk of 300,000 rounds" in sim.convention and "1,048,576" not in sim.convention
    run = RunInfo(7, 300_000, int(run_fields(w, 7, decks=8)["chunk_rounds"]), True)
    page = evidence_html(simulation_evidence(exact_parsheet(w, "A", decks=8), sim, run))
    assert page.count("chunk of 300,000") == 1 and "1,048,576" not in page

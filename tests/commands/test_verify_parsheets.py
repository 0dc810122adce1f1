"""``croupier verify-parsheets``: each par sheet simulated to the target standard error, exact
against simulated with z-scores, |z| > 4 flagged with exit status 1; the JSON matches its schema."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from jsonschema import Draft202012Validator

from cli_support import assert_one_error_line, run_main
from croupier.commands import verify_parsheets as vp
from croupier.commands.verify_parsheets import rounds_for
from repo_paths import ROOT

SCHEMA = ROOT / "docs" / "schemas" / "verify-parsheets.schema.json"


def _check_schema(doc: object) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert [e.message for e in Draft202012Validator(schema).iter_errors(doc)] == []


def test_every_sheet_of_the_wagers_named_reaches_the_target() -> None:
    run = run_main(
        ["verify-parsheets", "--wager", "perfect-pairs", "--wager", "ultimate-pairs",
         "--target-se", "0.02", "--seed", "18", "--json"]
    )  # fmt: skip
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    _check_schema(doc)
    sheets = doc["sheets"]
    # Perfect Pairs: paytables A and B at 1, 2, 4, 6 and 8 decks; Ultimate Pairs: A–E, one deck
    assert len(sheets) == 10 + 5
    assert {(s["wager"], s["paytable"]) for s in sheets} >= {
        ("perfect-pairs", "B"),
        ("ultimate-pairs", "E"),
    }
    for s in sheets:
        assert s["target_reached"] and s["standard_error"] <= 0.02
        assert abs(s["z_score"]) <= 4 and not s["flagged"]
        assert s["degrees_of_freedom"] >= 1 and 0 <= s["chi_square_p_value"] <= 1
    # Perfect Pairs A, 6 decks, pays 25/12/6 to 1: the exact edge by hand — of the 311 cards left
    # after the first, 5 make a perfect pair, 6 a colored pair (same color, other suit), 12 mixed
    pp = next(
        s for s in sheets if (s["wager"], s["paytable"], s["decks"]) == ("perfect-pairs", "A", 6)
    )
    edge = -(Fraction(5 * 25 + 6 * 12 + 12 * 6, 311) - Fraction(311 - 23, 311))
    assert Fraction(pp["exact_house_edge_fraction"]) == edge
    assert doc["seed_entropy"] == "18" and doc["flagged"] == 0


def test_a_sheet_that_disagrees_is_flagged_and_the_exit_status_is_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a simulation that deals the wrong game: every Perfect Pairs round a perfect pair
    def rigged(
        wager: object, shoe: object, rounds: int, *args: object, **kw: object
    ) -> tuple[int, ...]:
        return (rounds, 0, 0, 0)

    monkeypatch.setattr(vp, "run_chunks", rigged)
    run = run_main(
        ["verify-parsheets", "--wager", "perfect-pairs", "--target-se", "0.05", "-s", "1"]
    )
    assert run.code == 1
    assert "FLAGGED" in run.out and "10 flagged" in run.out
    # the chi-square test, shown beside z, says so too: with every round a perfect pair, that
    # cell alone adds N·(1 − p)²/p, p = 5/311 at 6 decks (thousands of rounds: χ² in the 10^5s)
    args = ["verify-parsheets", "--wager", "perfect-pairs", "--target-se", "0.05", "-s", "1"]
    doc = json.loads(run_main([*args, "--json"]).out)
    assert all(s["chi_square_p_value"] < 1e-12 for s in doc["sheets"])


def test_text_output_names_exact_simulated_and_z() -> None:
    run = run_main(["verify-parsheets", "--wager", "axman", "--target-se", "0.03", "-s", "4"])
    assert run.code == 0, run.err
    assert "Exact edge" in run.out and "16.7320%" in run.out  # AxMan 6 decks S17 (exact sheet)
    assert "2 par sheets; 0 flagged" in run.out and "seed entropy 4" in run.out


def test_the_round_limit_stops_a_sheet_short_of_the_target() -> None:
    run = run_main(
        ["verify-parsheets", "--wager", "five-card-progressive", "--target-se", "0.001",
         "--max-rounds", "20000", "-s", "2", "--json"]
    )  # fmt: skip
    assert run.code == 0, run.err
    (sheet,) = json.loads(run.out)["sheets"]
    assert sheet["rounds"] == 20_000 and not sheet["target_reached"]


def test_rounds_for_the_target() -> None:
    assert rounds_for(2.0, 0.01, 10**9) == 40_000  # (2 / 0.01)²
    assert rounds_for(0.1, 0.01, 10**9) == 10_000  # at least MIN_ROUNDS
    assert rounds_for(40.0, 0.001, 10**8) == 10**8  # at most --max-rounds
    assert rounds_for(0.1, 0.01, 500) == 500  # --max-rounds wins over MIN_ROUNDS


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--wager", "no-such-wager"], "no wager 'no-such-wager'"),
        (["--target-se", "0"], "--target-se"),
        (["--target-se", "-1"], "--target-se"),
    ],
)
def test_bad_requests_are_one_error_line(args: list[str], needle: str) -> None:
    line = assert_one_error_line(run_main(["verify-parsheets", *args]))
    assert needle in line


def test_each_sheet_is_dealt_its_own_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # the trial's finding: Fortune 7 A and B were judged on the same coups (identical rows) and
    # 27 of 30 z-scores had one sign; each sheet's streams now have their own entropy
    seen: list[int] = []

    def recording(
        wager: object, shoe: object, rounds: int, entropy: int, *args: object, **kw: object
    ) -> tuple[int, ...]:
        seen.append(entropy)
        return (0, 0, 0, rounds)  # every round "no winning combination": the counts don't matter

    monkeypatch.setattr(vp, "run_chunks", recording)
    run_main(["verify-parsheets", "--wager", "perfect-pairs", "--target-se", "0.05", "-s", "3"])
    assert len(seen) == 10 and len(set(seen)) == 10  # 2 paytables × 5 deck counts, 10 streams
    again: list[int] = []

    def again_recording(
        wager: object, shoe: object, rounds: int, entropy: int, *args: object, **kw: object
    ) -> tuple[int, ...]:
        again.append(entropy)
        return (0, 0, 0, rounds)

    monkeypatch.setattr(vp, "run_chunks", again_recording)
    run_main(["verify-parsheets", "--wager", "perfect-pairs", "--target-se", "0.05", "-s", "3"])
    assert again == seen  # the same seed, the same streams
    assert vp.sheet_entropy(3, "perfect-pairs", "A", 6) != vp.sheet_entropy(
        4, "perfect-pairs", "A", 6
    )

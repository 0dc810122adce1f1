"""The effect-of-removal section of the HTML report for every wager (not Baccarat alone)."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from cli_support import run_main
from croupier.analysis import eor_report
from croupier.analysis.eor import BACCARAT_EXACT_SAMPLE, count_in_shoes
from croupier.analysis.eor_report import REPORT_PAYTABLES, REPORT_SEED, eor_report_html
from croupier.analysis.eor_table import CounterConditions, Vulnerability, vulnerability
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.report import parsheets_html
from croupier.operations.presenters.eor import counter_conditions
from croupier.wagers import get_wager


def test_axman_section_tags_cards_and_shows_the_counter() -> None:
    sheet = exact_parsheet(get_wager("axman"), "standard", decks=6)
    section = eor_report_html([sheet])
    assert section is not None
    assert "Effect of removal and counting, 6-deck shoe" in section
    assert "tags are by card" in section  # the king of diamonds is wild
    assert "simulated shoes dealt to three seats" in section
    assert "Units per hour" in section
    page = parsheets_html([sheet])
    assert page.count("<svg") == 3  # contributions, effect of removal, the return band


def test_jackpot_party_counts_the_first_paytables_only() -> None:
    w = get_wager("jackpot-party")
    sheets = [exact_parsheet(w, key, decks=6) for key in ("P1", "P2", "P3", "P10")]
    section = eor_report_html(sheets)
    assert section is not None
    assert f"the first {REPORT_PAYTABLES} of 4 paytables" in section
    assert "<td>P10</td>" not in section and "<td>P1</td>" in section


def test_one_deck_and_uncountable_wagers() -> None:
    aces = eor_report_html([exact_parsheet(get_wager("aces-up"), "pa-casino", decks=1)])
    assert aces is not None and "shuffled before every round" in aces
    mtd = eor_report_html([exact_parsheet(get_wager("match-the-dealer"), "1", decks=6)])
    assert mtd is not None and "only the A♠ differs" in mtd
    assert "a computer knowing every unseen card (500 shoes)" in mtd
    # no exact analysis of a part-dealt deck: no section
    ante = exact_parsheet(get_wager("four-card-poker"), "25-20-2", decks=1)
    assert eor_report_html([ante]) is None


def test_one_baccarat_sample_for_the_command_the_service_and_the_report() -> None:
    assert inspect.signature(count_in_shoes).parameters["sample"].default == BACCARAT_EXACT_SAMPLE
    assert CounterConditions().baccarat_sample == BACCARAT_EXACT_SAMPLE
    # `croupier eor` and GET /eor/{wager} build their conditions with this one function
    assert counter_conditions(300, 1, 0.75, 3, 60).baccarat_sample == BACCARAT_EXACT_SAMPLE


def test_the_report_and_the_command_agree_on_baccarat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's Baccarat count figures are the command's for the same shoes and seed: the
    same coups evaluated exactly (the report sampled 1,000 of them, the command 10,000)."""
    shoes = 1_000
    monkeypatch.setattr(eor_report, "REPORT_SHOES", shoes)
    rows: list[Vulnerability] = []

    def spy(*args: Any, **kwargs: Any) -> Vulnerability:
        rows.append(vulnerability(*args, **kwargs))
        return rows[-1]

    monkeypatch.setattr(eor_report, "vulnerability", spy)
    section = eor_report_html([exact_parsheet(get_wager("fortune-7"), "A", decks=8)])
    assert section is not None
    (row,) = rows
    assert row.coups is not None
    run = run_main(["eor", "fortune-7", "-p", "A", "-d", "8", "--shoes", str(shoes),
                    "--seed", str(REPORT_SEED), "--json"])  # fmt: skip
    assert run.code == 0, run.err
    shown = json.loads(run.out)["shoes"]
    assert shown["bets"] > 1_000  # more coups bet than the report's old sample
    assert shown["coups_evaluated_exactly"] == min(shown["bets"], BACCARAT_EXACT_SAMPLE)
    mine = row.coups.to_dict()
    assert mine == {k: shown[k] for k in mine}
    assert f"<td>{shown['average_edge_when_betting']:+.2%}</td>" in section
    assert f"up to {BACCARAT_EXACT_SAMPLE:,} of them" in section

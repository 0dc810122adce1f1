"""The effect-of-removal section of the HTML report for every wager (not Baccarat alone)."""

from __future__ import annotations

from croupier.analysis.eor_report import REPORT_PAYTABLES, eor_report_html
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.report import parsheets_html
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
    assert page.count("<svg") == 2


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

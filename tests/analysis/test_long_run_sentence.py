"""One sentence for a long-run return above 100% of the wager (issue 30): what it says, that
docs/interpretations.md quotes it word for word, and that the HTML report gives it."""

from __future__ import annotations

import re

import pytest

from croupier.analysis.meters import (
    ReseedFunding,
    long_run_assumptions,
    long_run_sentence,
    meter_return,
)
from croupier.analysis.parsheet import exact_parsheet
from croupier.analysis.report import long_run_warning, parsheets_html
from croupier.wagers import get_wager
from repo_paths import ROOT

HEADING = "## A long-run return above 100%: the sentence (issue 30)"


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_docs_quote_the_sentence_of_the_default_reading() -> None:
    doc = (ROOT / "docs" / "interpretations.md").read_text(encoding="utf-8")
    section = doc[doc.index(HEADING) :]
    section = section[: section.index("\n## ", len(HEADING))]
    quoted = [line[2:] for line in section.splitlines() if line.startswith("> ")]
    assert (
        _words(" ".join(quoted)) == long_run_sentence() == long_run_sentence(ReseedFunding.RESERVE)
    )


@pytest.mark.parametrize(
    ("reseed", "funding"),
    [
        (ReseedFunding.RESERVE, "from the reserve (the house adding what the reserve lacks)"),
        (ReseedFunding.HOUSE, "with new money from the house (the reserve added to the meter"),
    ],
)
def test_the_sentence_states_each_assumption(reseed: ReseedFunding, funding: str) -> None:
    """The assumptions issue 30 asks it to state, in its words, under either reading."""
    text = long_run_sentence(reseed)
    assert text.startswith("A long-run return above 100% of the wager means the player has")
    assert text.endswith(".") and text.count(".") == 1  # one sentence
    for part in (
        "over the long run of many awards",
        "every increment rate (meter and reserve) is paid back to the players through the meters",
        "the house funds the initial seed",
        "after a whole-meter award the meter is reseeded to its seed " + funding,
        "after a share award the meter is reduced only by the share paid",
    ):
        assert part in text
    assert long_run_assumptions(reseed) in text
    # what the page said before, wrong for a share award
    assert "after each award" not in text


def test_a_warning_gives_the_figure_then_the_sentence() -> None:
    w = get_wager("match-the-dealer")
    sheet = exact_parsheet(w, "10", decks=8)
    for reseed in ReseedFunding:
        text = long_run_warning(sheet, meter_return(w, "10", decks=8), reseed)
        assert text is not None
        assert text.startswith("WARNING: in the long run paytable 10 (8 decks) returns ")
        assert long_run_sentence(reseed) in text
    # paytable 1's house edge at the seed (about 28%) is more than its 21% of increments
    assert long_run_warning(exact_parsheet(w, "1", decks=8), meter_return(w, "1", decks=8)) is None


def test_the_html_report_gives_the_sentence_in_the_summary_and_each_warned_sheet() -> None:
    w = get_wager("match-the-dealer")
    sheets = [exact_parsheet(w, key, decks=8) for key in ("1", "10")]
    page = parsheets_html(sheets)
    sentence = long_run_sentence()
    summary = re.search(r"<p class='warning'>⚠ WARNING: long-run return above 100%.*?</p>", page)
    assert summary is not None and sentence in summary.group(0)
    assert "10</a> (8 decks) 109.9680%" in summary.group(0)
    assert page.count(sentence) == 2  # the summary and paytable 10's sheet; not paytable 1's
    # the sheet without a warning gives the assumptions with its long-run return instead
    assert f"of the wager (assuming {long_run_assumptions()})." in page
    assert "reset to their seeds" not in page

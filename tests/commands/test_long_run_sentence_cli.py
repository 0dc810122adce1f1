"""The CLI gives issue 30's one sentence for a long-run return above 100% of the wager:
``croupier analyze`` on the paytable, ``croupier parsheet --summary`` under the table."""

from __future__ import annotations

import pytest

from cli_support import run_main
from croupier.analysis.meters import ReseedFunding, long_run_assumptions, long_run_sentence


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("reseed", list(ReseedFunding))
def test_analyze_gives_the_sentence_of_the_reading_in_force(reseed: ReseedFunding) -> None:
    run = run_main(["analyze", "match-the-dealer", "-p", "10", "-d", "8", "--reseed", reseed.value])
    assert run.code == 0, run.err
    text = _words(run.out)
    assert long_run_sentence(reseed) in text
    assert "WARNING: in the long run paytable 10 (8 decks) returns" in text
    other = next(r for r in ReseedFunding if r is not reseed)
    assert long_run_assumptions(other) not in text


def test_analyze_without_a_warning_still_states_the_assumptions() -> None:
    run = run_main(["analyze", "match-the-dealer", "-p", "1", "-d", "8"])
    assert run.code == 0, run.err
    text = _words(run.out)
    assert "WARNING" not in text and long_run_sentence() not in text
    assert f"assuming {long_run_assumptions()}" in text


def test_the_summary_warning_line_names_the_paytables_then_gives_the_sentence() -> None:
    run = run_main(["parsheet", "--summary", "--wager", "match-the-dealer", "--decks", "8"])
    assert run.code == 0, run.err
    (warning,) = [line for line in run.out.splitlines() if line.startswith("WARNING")]
    head, _, rest = warning.partition(". ")
    assert head.startswith("WARNING: long-run return above 100% of the wager: match-the-dealer")
    assert rest.startswith(long_run_sentence())

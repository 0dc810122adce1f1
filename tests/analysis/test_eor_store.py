"""The shipped counts of every shoe less one card (analysis/data/eor-counts.json): current for
the installed code, and what counting afresh gives."""

from __future__ import annotations

import pytest

from croupier.analysis.eor_store import counted, main, stored, stored_offerings
from croupier.analysis.precomputed import class_name, fingerprint
from croupier.wagers import get_wager


def test_every_stored_entry_is_current() -> None:
    entries = stored()
    assert entries, "analysis/data/eor-counts.json is missing"
    stale = [
        f"{cls} {decks}"
        for w, decks in stored_offerings()
        if (cls := class_name(type(w)), decks) in entries
        and entries[(cls, decks)][0] != fingerprint(type(w))
    ]
    assert not stale, f"stale: {stale} (run python -m croupier.analysis.eor_store)"
    # everything the store should hold, except wagers whose exact analysis takes no part-shoe
    held = {(w.id, d) for w, d in stored_offerings() if (class_name(type(w)), d) in entries}
    assert ("axman", 6) in held and ("jackpot-party", 8) in held and ("six-card-bonus", 1) in held
    assert ("bad-beat-bonus", 1) in held  # the showdown counts of the deck less each card
    assert ("four-card-poker", 1) not in held  # the Ante and Play: a full deck only


@pytest.mark.parametrize(("wager", "decks"), [("perfect-pairs", 2), ("jackpot-party", 1)])
def test_stored_counts_are_what_counting_gives(wager: str, decks: int) -> None:
    w = get_wager(wager)
    fresh, _ = counted(w, decks, None)
    assert stored()[(class_name(type(w)), decks)][1] == fresh


@pytest.mark.slow
def test_every_stored_count_recounts_the_same() -> None:
    # every entry but the Bad Beat Bonus's, whose recount alone takes about 4 min of CPU and
    # 2.5 GB (half the slow suite's time): its stored counts are checked without recounting by
    # the identities of tests/games/test_four_card_poker_depleted_deck.py (each outcome 41 × its
    # full-deck count over the 52 removals, the suits of a rank alike) and the engine by brute
    # force on small decks;
    # `python -m croupier.analysis.eor_store --check` still recounts it
    assert main(["--check", "--skip", "bad-beat-bonus"]) == 0

"""``croupier eor bad-beat-bonus`` (issue 18): the Bad Beat Bonus's effect of removal from the
shipped counts of the deck less each card, priced here by hand at the EXAMPLE paytable's pays."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

from jsonschema import Draft202012Validator

from cli_support import run_main
from croupier.analysis.eor_store import card_counts
from croupier.cards import DECK
from croupier.wagers import get_wager
from repo_paths import ROOT

SCHEMA = ROOT / "docs" / "schemas" / "eor.schema.json"

# EXAMPLE paytable example-bad-beat (paytables/examples/641a.7-examples.toml), by the losing
# hand: four of a kind 5000 to 1, straight flush 1000, three of a kind 100, flush 30, straight
# 15, two pair 7; anything else loses the wager
NETS = (5000, 1000, 100, 30, 15, 7, -1)


def test_the_effects_are_the_stored_counts_priced_by_hand() -> None:
    run = run_main(["eor", "bad-beat-bonus", "--json"])
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    spec = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert not [e.message for e in Draft202012Validator(spec).iter_errors(doc)]
    assert doc["decks"] == 1 and doc["paytable"] == "example-bad-beat"
    assert "stored" in doc["method"] and not doc["suits_matter"]
    per_card, _ = card_counts(get_wager("bad-beat-bonus"), 1)
    deals = comb(51, 5) * comb(46, 6)  # the player's five, then the dealer's six, of 51 cards
    by_rank = {e["rank"]: e for e in doc["effects"]}
    for card in DECK:
        counts = per_card[card.index]
        assert sum(counts) == deals
        without = Fraction(sum(n * net for n, net in zip(counts, NETS, strict=True)), deals)
        row = by_rank[card.rank.letter]
        assert row["expected_return_without"] == float(without)
        full = Fraction(doc["expected_return_exact"])
        assert Fraction(row["effect_exact"]) == without - full
    # a balanced count of the ranks, but one deck shuffled every round: nothing to count
    assert doc["count"] is not None and sum(doc["count"]["tags"].values()) == 0
    assert doc["vulnerability"]["verdict"] == "no count carries between rounds"

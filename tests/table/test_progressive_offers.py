"""Which progressive a progressive bet feeds (croupier.table.progressive, registry-driven): one per
wager and size, the same section, paytable, deck count and wager size; none is a LinkError citing
§ 605a.8 and the paragraph that puts the wager on a progressive table game system."""

from __future__ import annotations

import pytest

from croupier.errors import LinkError, ProgressiveMismatchError
from croupier.progressive.offers import assign_progressives, progressives_for
from croupier.table.progressive import ProgressiveOffer, progressive_bets, progressive_offers
from croupier.table.record import settle_file
from croupier.table.submission import load_submission
from progressive_support import paytable_definition
from repo_paths import ROOT

EXAMPLES = ROOT / "examples"
JP_5 = paytable_definition("633b.2", "P1", 6, 500, "jp-5")
MTD_1 = paytable_definition("633b.3", "1", 6, 100, "mtd-1")
MTD_5 = paytable_definition("633b.3", "1", 6, 500, "mtd-5")
MTD_5_EIGHT = paytable_definition("633b.3", "1", 8, 500, "mtd-5-8")


def test_a_submission_offers_each_progressive_wager_at_each_size() -> None:
    """examples/submissions/blackjack-6deck.toml: Jackpot Party P1 at $5, Match the Dealer
    paytable 1 at $1 and $5 — three progressives' worth of wagers (§ 633b.2(e), § 633b.3(e))."""
    sub = load_submission(EXAMPLES / "submissions" / "blackjack-6deck.toml")
    assert progressive_offers(sub) == (
        ProgressiveOffer("jackpot-party", 500, "633b.2", "P1", 6),
        ProgressiveOffer("match-the-dealer", 100, "633b.3", "1", 6),
        ProgressiveOffer("match-the-dealer", 500, "633b.3", "1", 6),
    )
    found = assign_progressives(
        progressive_offers(sub), table="BJ-1", named=[JP_5], linked=[MTD_5_EIGHT, MTD_5, MTD_1]
    )
    assert [found[o].name for o in progressive_offers(sub)] == ["jp-5", "mtd-1", "mtd-5"]


def test_a_wager_no_progressive_takes_is_refused_citing_its_section() -> None:
    sub = load_submission(EXAMPLES / "submissions" / "blackjack-6deck.toml")
    with pytest.raises(LinkError) as err:  # the 8-deck one takes no 6-deck wager
        assign_progressives(progressive_offers(sub), table="BJ-1", linked=[JP_5, MTD_5_EIGHT])
    assert err.value.section == "605a.8"
    text = str(err.value)
    assert "$1 match-the-dealer wager (§ 633b.3 paytable 1, 6 decks)" in text
    assert "58 Pa. Code § 633b.3(d)" in text and "jp-5, mtd-5-8" in text
    rnd = settle_file(EXAMPLES / "rounds" / "four-card-progressive-award.json")
    assert [o.wager for _, o in progressive_bets(rnd)] == [
        "four-card-progressive",
        "five-card-progressive",
        "five-card-progressive",
    ]
    with pytest.raises(LinkError) as err:
        progressives_for(rnd, table="FCP-1")
    assert "58 Pa. Code § 641a.7(d)(4)" in str(err.value)  # the progressive wagering device


def test_named_progressives_come_first_and_must_match_the_round() -> None:
    """The Match the Dealer example round holds $5 wagers only: mtd-5 named takes them; the
    linked ones are not read. A named progressive of another deck count is refused."""
    rnd = settle_file(EXAMPLES / "rounds" / "match-the-dealer-award.json")

    def never() -> list[object]:
        raise AssertionError("the links are read only for a bet no named progressive takes")

    assert progressives_for(rnd, table="BJ-1", named=[MTD_5], linked=never) == (MTD_5,)  # type: ignore[arg-type]
    with pytest.raises(ProgressiveMismatchError):
        progressives_for(rnd, table="BJ-1", named=[MTD_5_EIGHT])

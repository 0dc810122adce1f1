"""What a dealer reads: one prefix per step, the right article, the citation that binds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_support import assert_one_error_line, run_main
from repo_paths import ROOT

SUBMISSION = str(ROOT / "examples" / "submissions" / "blackjack-6deck.toml")


def settle_error(tmp_path: Path, steps: list[dict[str, Any]], submission: Any = SUBMISSION) -> str:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"submission": submission, "steps": steps}), "utf-8")
    return assert_one_error_line(run_main(["settle", str(path)]))


BJ = {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"}


def test_a_step_is_named_once(tmp_path: Path) -> None:
    line = settle_error(tmp_path, [{"action": "bet", "seat": 1, "wager": "blackjack"}])
    assert line.count("step 1") == 1 and "step 1, amount: Field required" in line, line
    line = settle_error(tmp_path, [BJ, {**BJ, "amount": "ten"}])
    assert line.count("step 2 (bet)") == 1, line


def test_articles_and_a_did_you_mean(tmp_path: Path) -> None:
    ax = {"action": "bet", "seat": 1, "wager": "axman", "amount": "$5"}
    assert "already has an axman wager" in settle_error(tmp_path, [BJ, ax, ax])
    line = settle_error(tmp_path, [BJ, {**ax, "wager": "axmam"}])
    assert "did you mean 'axman'?" in line and "§ 601a.2" in line


def test_an_empty_round_cites_the_blackjack_wager(tmp_path: Path) -> None:
    line = settle_error(tmp_path, [{"action": "deal", "players": {}, "dealer": "Ad Kd"}])
    assert "no wager has been placed" in line and line.endswith("(58 Pa. Code § 633a.6(d))")


@pytest.mark.parametrize(
    ("amount", "section"),
    [("$1", "601a.2"), ("$2", "633b.2(e)")],  # $1 is a size of (e); this table offers P1 at $5
)
def test_a_jackpot_party_amount_cites_the_rule_that_binds(
    tmp_path: Path, amount: str, section: str
) -> None:
    jp = {"action": "bet", "seat": 1, "wager": "jackpot-party", "amount": amount}
    assert settle_error(tmp_path, [BJ, jp]).endswith(f"(58 Pa. Code § {section})")


def test_a_submission_offering_p1_at_one_dollar_cites_the_paytables_wager_row(
    tmp_path: Path,
) -> None:
    text = Path(SUBMISSION).read_text("utf-8").replace('amounts = ["$5"]', 'amounts = ["$1", "$5"]')
    path = tmp_path / "sub.toml"
    path.write_text(text, "utf-8")
    run = run_main(["check", str(path)])
    assert run.code == 2
    assert "P1 of the Jackpot Party Progressive wager is printed for a $5 wager, not $1" in run.err
    assert "(58 Pa. Code § 633b.2(i))" in run.err and "633b.2(e)" not in run.err


@pytest.mark.parametrize(
    ("wager", "key", "rule"),
    [("jackpot-party", "P1", "633b.2(b)"), ("match-the-dealer", "1", "633b.3(b)")],
)
def test_a_paytable_for_other_decks_cites_the_sections_deck_rule(
    wager: str, key: str, rule: str
) -> None:
    from croupier.cards import parse_cards
    from croupier.errors import RulesError
    from croupier.wagers import get_wager

    w = get_wager(wager)
    if wager == "jackpot-party":  # P1 is printed for six decks only (MtD prints a 1 for each)
        with pytest.raises(RulesError) as lookup:
            w.paytable(key, 8)
        assert lookup.value.section == rule and "printed for 6 decks, not 8" in str(lookup.value)
    six = w.paytable(key, 6)
    cards = parse_cards("8s 8s Kd Kh" if wager == "jackpot-party" else "8s 8s 8s")
    with pytest.raises(RulesError) as settled:
        w.settle(cards, six, 500, decks=8)
    assert settled.value.section == rule


def test_the_axman_multiplier_is_in_the_pays_column(tmp_path: Path) -> None:
    steps = [
        {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
        {"action": "bet", "seat": 1, "wager": "axman", "amount": "$5"},
        # the dealer's 5h 5c Kd (20): three of a kind (the king of diamonds wild), 20 to 1; the
        # player's own king of diamonds doubles it (§ 633c.12): 20 to 1 ×2, +$200 on $5
        {"action": "deal", "players": {"1": "Kd 9h"}, "dealer": "5h 5c Kd"},
        {"action": "stand", "seat": 1},
    ]
    path = tmp_path / "axman.json"
    path.write_text(json.dumps({"submission": SUBMISSION, "steps": steps}), "utf-8")
    run = run_main(["settle", str(path), "--json"])
    assert run.code == 0, run.err
    (line,) = [x for x in json.loads(run.out)[0]["settlement"]["lines"] if x["wager"] == "axman"]
    assert (line["pays"], line["win_cents"]) == ("20 to 1 ×2", 20_000), line


def test_dealt_cards_take_a_mapping_and_refuse_other_shapes_with_a_croupier_error() -> None:
    from croupier.cards import parse_cards
    from croupier.errors import CardError, InputError
    from croupier.table.round import DealtCards

    given = DealtCards(players={3: "8s 8s", 2: parse_cards("Kd 7c")}, dealer="Kd 9c")
    assert given == DealtCards.parse(players={2: "Kd 7c", 3: "8s 8s"}, dealer="Kd 9c")
    for bad in ({0: "Kd 7c"}, {1: 5}, 3, [(1,)]):
        with pytest.raises(InputError):
            DealtCards(players=bad)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        DealtCards(players={1: "Kd 1x"})

"""Settling a dealt Blackjack round's AxMan and Jackpot Party wagers, from Python and the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import CardError, InputError, RulesError, ShoeError
from croupier.games.blackjack import BlackjackRules, DealerCompletion, SoftSeventeen
from croupier.paytables import MeterLevel
from croupier.wagers.blackjack_round import BlackjackDeal, settle_round

runner = CliRunner()
SIX = BlackjackRules(6)


def test_a_round_with_both_wagers_and_an_envy_bonus() -> None:
    rnd = BlackjackDeal.parse("Ad Kd", ["Qd Jd", "9s 9h", "Kd 2c"])
    out = settle_round(
        rnd,
        SIX,
        axman_cents={1: 500, 3: 1000},
        jackpot_party_cents={1: 500, 2: 500},
        jackpot_party_paytable="P10",
    )
    assert [s.seat for s in out] == [3, 2, 1]  # from the dealer's right, counterclockwise
    by_seat = {s.seat: s for s in out}
    one = by_seat[1]
    assert one.jackpot_party is not None and one.jackpot_party.line is not None
    assert one.jackpot_party.line.outcome == "royal-flush-diamonds"
    assert one.jackpot_party.returned_cents == 5_000_000  # 100% of the $50,000 seed
    assert one.jackpot_party.pending_validation
    assert one.envy_cents == 0  # the envy bonus is for the *other* players
    two = by_seat[2]
    assert two.jackpot_party is not None and two.jackpot_party.win_cents == 5000  # pair, 10 to 1
    assert two.envy_cents == 300_000 and two.envy_from == (1,)  # P10: $3,000 envy
    # AxMan on the dealer's A-K♦ Blackjack: K♦ wild pairs the ace, jacks or better 5 to 1
    assert one.axman is not None and one.axman.win_cents == 2500
    three = by_seat[3]
    assert three.axman is not None and three.axman.win_cents == 10_000  # ×2 for seat 3's K♦
    assert three.jackpot_party is None


def test_the_meters_are_read_at_the_amounts_given() -> None:
    rnd = BlackjackDeal.parse("As Js", ["Ks Qs"])
    out = settle_round(
        rnd,
        SIX,
        jackpot_party_cents={1: 500},
        jackpot_party_paytable="P1",
        meter_cents={MeterLevel.PROGRESSIVE: 7_500_000},
    )
    s = out[0].jackpot_party
    assert s is not None and s.returned_cents == 750_000  # 10% of $75,000


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"axman_cents": {1: 500}, "rules": BlackjackRules(4)}, RulesError, r"633c\.12\(a\)"),
        (
            {"jackpot_party_cents": {1: 500}, "jackpot_party_paytable": "P4"},
            RulesError,
            r"P4 .* printed for 8 decks, not 6 .*§ 633b\.2\(b\)",
        ),
        (
            {"jackpot_party_cents": {1: 200}, "jackpot_party_paytable": "P10"},
            RulesError,
            r"633b\.2\(e\)",
        ),
        ({"jackpot_party_cents": {1: 500}}, InputError, "paytable"),
        ({"axman_cents": {4: 500}}, InputError, "seat 4"),
    ],
)
def test_rejected_rounds_name_the_rule(kwargs: dict[str, Any], error: type, match: str) -> None:
    rules = kwargs.pop("rules", SIX)
    rnd = BlackjackDeal.parse("Qs 5h Kd", ["Kd 7c", "As Ah"])
    with pytest.raises(error, match=match):
        settle_round(rnd, rules, **kwargs)


def test_the_dealers_cards_must_follow_the_rule_and_fit_the_shoe() -> None:
    with pytest.raises(RulesError, match=r"633a\.7"):
        settle_round(BlackjackDeal.parse("Ks 7h 2c", ["2s 3s"]), SIX, axman_cents={1: 500})
    with pytest.raises(ShoeError):
        settle_round(
            BlackjackDeal.parse("Ks 7h", ["Ks Ks", "Ks Ks", "Ks Ks"]), SIX, axman_cents={1: 500}
        )
    with pytest.raises(CardError):
        BlackjackDeal.parse("Ks 7h", ["Ks"])
    # H17: soft 17 draws; the alternative completion reading lets a dealer stop on 16
    h17 = BlackjackRules(6, SoftSeventeen.HITS)
    settle_round(BlackjackDeal.parse("As 6h 4c", ["2s 3s"]), h17, axman_cents={1: 500})
    stops = BlackjackRules(6, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS)
    out = settle_round(BlackjackDeal.parse("Ks 6h", ["Ts 9s"]), stops, axman_cents={1: 500})
    assert out[0].axman is not None and out[0].axman.win_cents == -500


def run(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_blackjack_round() -> None:
    data = run(
        "blackjack-round",
        *("--dealer", "Qs 5h Kd", "--player", "Kd 7c", "--player", "As Ah"),
        *("--bet", "1:blackjack=10", "--bet", "2:blackjack=10"),
        *("--bet", "1:axman=5", "--bet", "2:axman=5"),
        *("--move", "1:stand", "--move", "2:stand"),  # croupier settles the base game
    )
    axman = {x["seat"]: x for x in data["settlement"]["lines"] if x["wager"] == "axman"}
    # Q-5-K♦ busts; K♦ wild pairs a king: Jacks or better 5 to 1, ×2 for seat 1's own K♦
    assert axman[1]["win_cents"] == 5000 and axman[1]["pays"] == "5 to 1 ×2"
    assert axman[2]["win"] == "+$25"
    result = runner.invoke(
        app,
        [
            *("blackjack-round", "--dealer", "Qs 5h Kd", "--player", "Kd 7c"),
            *("--bet", "1:blackjack=10", "--bet", "1:axman=5", "--move", "1:stand"),
        ],
    )
    assert "×2" in result.stdout


def test_cli_dealer_table_and_axman_given_the_players_cards() -> None:
    table = run("dealer", "--decks", "1")
    assert abs(table["upcards"]["6"]["bust"] - 0.420823) < 1e-6  # Wizard of Odds, Appendix 2B
    peeked = run("dealer", "--decks", "2", "--peeked")
    assert peeked["upcards"]["A"]["BJ"] == 0
    given = run("axman", "Kd Kd", "--decks", "6", "--upcard", "Qs")
    assert given["multiplier"] == 5
    assert given["hands"][-1]["hand"] == "lose"


def test_cli_analyze_jackpot_party_at_a_meter() -> None:
    data = run("analyze", "jackpot-party", "--paytable", "P1", "--decks", "6", "--meter", "50000")
    meters = data["meter_analysis"]
    assert meters["breakeven_meter"] == "$583,449.50"
    assert data["outcomes"][0]["net_win"] == 9999  # $50,000 on $5: the award less the stake
    several = run(
        "analyze",
        "jackpot-party",
        "-p",
        "P17-A",
        "-d",
        "1",
        "--meter",
        "Mega=60000,Major=6000",
        "--amount",
        "5",
    )
    assert several["meters"] == {"Mega": "$60,000", "Major": "$6,000", "Minor": "$500"}
    result = runner.invoke(app, ["analyze", "jackpot-party", "-p", "P1", "-d", "6"])
    assert "breakeven Progressive meter $583,449.50" in result.stdout

"""An envy bonus is a settlement line of its own, naming the seat whose hand paid it
(58 Pa. Code § 633b.2(i), "Pays w/ Envy"), in the Python record, ``croupier settle`` and its JSON."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli import app
from croupier.table.round import DealtCards, TableRound
from croupier.table.submission import submission_from_data
from croupier.wagers.at_table import LineKind

runner = CliRunner()
SUBMISSION = {
    "game": "blackjack",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$500"},
        {"wager": "jackpot-party", "paytable": "P10", "amounts": ["$5"]},
    ],
}
# the dealer's A♦ K♦ Blackjack: seat 1's Q♦ J♦ makes the Royal Flush (Diamonds), seat 2's 9♠ 9♥
# a Pair; seat 3 holds the wager and loses nothing but is dealt 2♣ 7h (Dealer Blackjack)
PLAYERS = {1: "Qd Jd", 2: "9s 9h", 3: "2c 7h"}
DEALER = "Ad Kd"


def _round() -> TableRound:
    r = TableRound.open(submission_from_data(SUBMISSION))
    for seat in PLAYERS:
        r = r.bet(seat, "blackjack", 1000).bet(seat, "jackpot-party", 500)
    return r.no_more_bets().deal(DealtCards(players=PLAYERS, dealer=DEALER)).settle()


def test_each_envy_bonus_is_its_own_line_naming_the_seat_it_comes_from() -> None:
    lines = [x for x in _round().settlement().lines if x.wager == "jackpot-party"]
    envy = [x for x in lines if x.kind is LineKind.ENVY_BONUS]
    # P10 (six decks) prints the Royal Flush (A—J)—Diamonds "Pays w/ Max Envy" $3,000: seats 2
    # and 3 each receive it for seat 1's hand; seat 1 receives none for its own hand
    assert [(x.seat, x.from_seat, x.win_cents, x.returned_cents) for x in envy] == [
        (3, 1, 300_000, 300_000),
        (2, 1, 300_000, 300_000),
    ]
    assert all(x.stake_cents == 0 and x.section == "633b.2(i)" for x in envy)
    assert all(x.outcome.startswith("envy bonus (from seat 1's Royal Flush") for x in envy)
    assert all(x.pays == "$3,000" for x in envy)
    # the bets' own lines carry only their own pay: seat 2's Pair 10 to 1 on $5, seat 3's Dealer
    # Blackjack 5 to 1 on $5 (P10's printed lines)
    own = {x.seat: x.win_cents for x in lines if x.kind is LineKind.WAGER}
    assert own[2] == 10 * 500 and own[3] == 5 * 500
    # each envy line follows the line of the bet it belongs to, seats from the dealer's right
    order = [(x.seat, x.kind) for x in lines]
    assert order == [
        (3, LineKind.WAGER),
        (3, LineKind.ENVY_BONUS),
        (2, LineKind.WAGER),
        (2, LineKind.ENVY_BONUS),
        (1, LineKind.WAGER),
    ]


def test_settle_prints_the_envy_line_and_writes_it_as_json(tmp_path: Path) -> None:
    steps: list[dict[str, object]] = []
    for seat in PLAYERS:
        steps.append({"action": "bet", "seat": seat, "wager": "blackjack", "amount": "$10"})
        steps.append({"action": "bet", "seat": seat, "wager": "jackpot-party", "amount": "$5"})
    steps.append({"action": "deal", "players": {str(s): c for s, c in PLAYERS.items()},
                  "dealer": DEALER})  # fmt: skip
    path = tmp_path / "envy.json"
    path.write_text(json.dumps({"submission": SUBMISSION, "steps": steps}), "utf-8")
    shown = runner.invoke(app, ["settle", str(path)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    envy_rows = [row for row in shown.stdout.splitlines() if "envy bonus" in row]
    assert len(envy_rows) == 2 and all("from seat 1's" in row for row in envy_rows)
    assert all("$3,000" in row and "§ 633b.2(i)" in row for row in envy_rows)
    data = json.loads(runner.invoke(app, ["settle", str(path), "--json"]).stdout)
    lines = data[0]["settlement"]["lines"]
    envy = [x for x in lines if x["kind"] == "envy-bonus"]
    assert [(x["seat"], x["from_seat"], x["win_cents"]) for x in envy] == [
        (3, 1, 300_000),
        (2, 1, 300_000),
    ]
    assert all(x["from_seat"] is None for x in lines if x["kind"] == "wager")


def test_a_fed_round_shows_the_ledgers_envy_award_on_the_envy_line_only(tmp_path: Path) -> None:
    env = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}
    db = ("--db", f"sqlite:///{tmp_path / 'floor.sqlite3'}")

    def cli(*args: str) -> str:
        result = runner.invoke(app, list(args), env=env)
        assert result.exit_code == 0, result.output
        return result.stdout

    cli("meters", "bootstrap", "sam", *db)
    cli("meters", "create", *db, "-p", "633b.2:P10", "-d", "6", "-a", "5", "--name", "jp-5",
        "--table", "BJ-1", "--as", "sam")  # fmt: skip
    cli("meters", "user", *db, "dana", "--role", "dealer", "--as", "sam")
    steps: list[dict[str, object]] = [
        {"action": "bet", "seat": s, "wager": w, "amount": a}
        for s in PLAYERS
        for w, a in (("blackjack", "$10"), ("jackpot-party", "$5"))
    ]
    steps.append({"action": "deal", "players": {str(s): c for s, c in PLAYERS.items()},
                  "dealer": DEALER})  # fmt: skip
    path = tmp_path / "envy.json"
    path.write_text(json.dumps({"submission": SUBMISSION, "steps": steps}), "utf-8")
    fed = ("--table", "BJ-1", "--as", "dana", "--progressive", "jp-5", "--json")
    data = json.loads(cli("settle", str(path), *db, *fed))
    lines = {
        (x["seat"], x["kind"]): x
        for x in data[0]["settlement"]["lines"]
        if x["wager"] == "jackpot-party"
    }
    events = {
        (e["seat"], e["outcome"].startswith("envy bonus")): e
        for e in data[0]["events"]
        if e["action"] == "settlement" and e["wager"] == "jackpot-party"
    }
    # the ledger pays seat 2 its own Pair (10 to 1 on $5, stake back: $55) and, apart, the
    # $3,000 envy bonus for seat 1's Royal Flush; the record and the events say the same
    assert lines[(2, "wager")]["returned_cents"] == 5500
    assert lines[(2, "envy-bonus")]["returned_cents"] == 300_000
    assert events[(2, False)]["returned_cents"] == 5500
    assert events[(2, True)]["returned_cents"] == 300_000


def test_the_python_settle_round_record_has_the_envy_line_too() -> None:
    from croupier.games.blackjack import BlackjackRules
    from croupier.wagers.blackjack_round import BlackjackDeal, settle_round

    deal = BlackjackDeal.parse("Ad Kd", ["Qd Jd", "9s 9h"])
    out = settle_round(deal, BlackjackRules(6), jackpot_party_cents={1: 500, 2: 500},
                       jackpot_party_paytable="P10")  # fmt: skip
    two = next(s for s in out if s.seat == 2)
    lines = two.lines()
    assert [(x.kind, x.win_cents, x.from_seat) for x in lines] == [
        (LineKind.WAGER, 5000, None),  # the Pair, 10 to 1 on $5
        (LineKind.ENVY_BONUS, 300_000, 1),  # P10's $3,000 for seat 1's Royal Flush (Diamonds)
    ]
    assert sum(x.settled_win_cents for x in lines) == two.net_cents

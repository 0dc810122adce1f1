"""The table reads what the wagers declare: no wager id in the engine, one settlement line per bet.

Issue 13: the table engine, the Rules Submission checks and the training dealer dispatch on none of
the wagers' ids; they read each registered wager's declared base wager, settlement moment,
lock-out paragraph and the cards it reads. Every shipped example round settles into one line per
bet (or a line recording that the base game settles it), and a round cannot close otherwise.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.errors import UnsettledBetError
from croupier.table import TableRound, settle_file, submission_from_data
from croupier.table.round import DealtCards
from croupier.wagers import all_wagers
from croupier.wagers.at_table import SettleWhen
from croupier.wagers.base_games import RECORDED_BASE
from croupier.wagers.switch_hands import ANTE_WAGER
from repo_paths import ROOT

ENGINE = ("table/round.py", "table/submission.py", "table/training.py")
ROUNDS = sorted((ROOT / "examples" / "rounds").glob("*.json"))
runner = CliRunner()


def _strings(path: Path) -> set[str]:
    """Every string constant of a module's code, f-strings' pieces included (docstrings left
    out: they may show examples)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    }


@pytest.mark.parametrize("module", ENGINE)
def test_no_wager_id_in_the_engine(module: str) -> None:
    ids = {w.id for w in all_wagers()} | set(RECORDED_BASE) | {ANTE_WAGER}
    found = ids & _strings(ROOT / "src" / "croupier" / module)
    assert not found, f"{module} names wager ids {sorted(found)}"


def test_every_registered_wager_declares_what_the_table_needs() -> None:
    for w in all_wagers():
        assert isinstance(w.settled, SettleWhen)
        for g in w.deal.groups:
            assert g.source is not None, f"{w.id}: {g.name} has no source at the table"
        for base in w.base_wagers:
            assert base in RECORDED_BASE or any(o.id == base for o in all_wagers()), (w.id, base)
            assert w.base_rule is not None, w.id


def test_settlement_moments_are_the_sections() -> None:
    moments = {w.id: w.settled for w in all_wagers()}
    # § 633b.1(e), § 633b.2(g), § 633b.3(g): immediately after the second card
    for wid in ("perfect-pairs", "jackpot-party", "match-the-dealer"):
        assert moments[wid] is SettleWhen.SECOND_CARD
    # § 633c.12(e): after the round is complete
    assert moments["axman"] is moments["axman-h17"] is SettleWhen.ROUND_END
    # § 631c.3(e), § 641a.7(d), § 674b.1(d): with the base game
    for wid in ("fortune-7", "cover-all", "aces-up", "six-card-bonus", "ultimate-pairs"):
        assert moments[wid] is SettleWhen.WITH_BASE_GAME


def _bets(path: Path) -> list[tuple[int, str]]:
    steps = json.loads(path.read_text(encoding="utf-8"))["steps"]
    return sorted((int(s["seat"]), s["wager"]) for s in steps if s["action"] == "bet")


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_settle_json_has_a_line_for_every_bet(path: Path) -> None:
    result = runner.invoke(app, ["settle", str(path), "--json"])
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.output)
    lines = data["settlement"]["lines"]
    # one line per bet: the bets written in the round file, each settled (or recorded as the
    # base game's); the Ante's Play and bonus are further parts of the Ante (wager
    # "four-card-poker:play"), a split hand a further Blackjack line
    principal = [
        (line["seat"], line["bet"])
        for line in lines
        if line["wager"] in (line["bet"], f"{line['bet']}:ante")
    ]
    assert sorted(set(principal)) == _bets(path)
    assert {(line["seat"], line["bet"]) for line in lines} == set(_bets(path))
    for line in lines:
        assert isinstance(line["stake_cents"], int)
        if not line["settled_by_base_game"]:
            assert isinstance(line["win_cents"], int)
            assert isinstance(line["returned_cents"], int)
    net = sum(line["win_cents"] for line in lines if not line["settled_by_base_game"])
    assert data["settlement"]["net_cents"] == net == data["net_cents"]


def test_the_round_settlement_is_the_events_settlement_lines() -> None:
    r = settle_file(ROOT / "examples" / "rounds" / "blackjack.json")
    rs = r.settlement()
    assert [line.win_cents for line in rs.lines if not line.by_base_game] == [
        e.win_cents for e in r.settlements()
    ]
    # seat 1 8s 8s: Perfect Pairs paytable A pays a perfect pair 25 to 1 on $5 (§ 633b.1(f))
    pp = next(line for line in rs.lines if line.wager == "perfect-pairs" and line.seat == 1)
    assert (pp.stake_cents, pp.win_cents, pp.returned_cents) == (500, 12_500, 13_000)
    assert rs.to_json()["net_cents"] == rs.net_cents


def test_a_round_cannot_close_with_a_bet_without_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    sub = submission_from_data(
        {
            "game": "blackjack",
            "decks": 6,
            "dealer": "S17",
            "wagers": [
                {"wager": "blackjack", "min": "$10", "max": "$500"},
                {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
            ],
        }
    )
    r = TableRound.open(sub).bet(1, "blackjack", 1000).bet(1, "perfect-pairs", 500)
    from croupier.wagers.perfect_pairs import PerfectPairs

    # a wager that says nothing at its settlement is refused, not settled as $0
    monkeypatch.setattr(PerfectPairs, "settle_at_table", lambda self, ctx: ())
    r = r.no_more_bets().deal(DealtCards.parse(players={1: "8s 8s"}, dealer="Kd 9c"))
    with pytest.raises(UnsettledBetError, match="perfect-pairs wager has no settlement line"):
        r.stand(1).settle()


def test_actions_are_records_and_the_round_says_what_it_allows() -> None:
    from croupier.table.actions import (
        Deal,
        NoMoreBets,
        PlaceBet,
        PlayWager,
        Settle,
        allowed,
        apply,
        can,
    )
    from croupier.table.procedure import Action

    sub = submission_from_data(
        {
            "game": "four-card-poker",
            "decks": 1,
            "adjacent_boxes": 2,
            "wagers": [
                {"wager": "four-card-poker", "paytable": "25-20-2", "min": "$5", "max": "$100"}
            ],
        }
    )
    cards = DealtCards.parse(players={1: "9h 9c 9d Ks 2s"}, dealer="Ah Ad 7c 7s 3d 4h")
    steps = (PlaceBet(1, "four-card-poker", 500), NoMoreBets(), Deal(cards))
    r = apply(TableRound.open(sub), *steps)
    # settle only once the seat has played or folded (§ 641a.7(d)(1)): what can(Settle) says
    assert allowed(r) == {Action.PLAY, Action.FOLD}
    # the Play is one to three times the Ante (§ 641a.7(d)(1)); asking changes nothing
    assert can(r, PlayWager(1, 1500)) and not can(r, PlayWager(1, 2000))
    assert not can(r, Settle())  # the seat has neither played nor folded
    done = apply(r, PlayWager(1, 1500), Settle())
    by_methods = TableRound.open(sub).bet(1, "four-card-poker", 500).no_more_bets()
    assert done == by_methods.deal(cards).play(1, 1500).settle()
    # trips beat a pair of aces: Ante +$5, Play +$15, the Ante bonus 2 to 1 (+$10)
    assert done.settlement().net_cents == 500 + 1500 + 1000
    assert allowed(done) == frozenset()


@pytest.mark.parametrize(
    "args",
    [
        ["hand", "match-the-dealer", "7h 7c 7h", "--paytable", "4", "--decks", "8"],
        ["baccarat", "--cards", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=10"],
        ["four-card-poker", "Tc Td 4h 9s Kc", "Qs 8d 7c 3h 2s 5d", "--bet", "ante=10"],
        [
            "blackjack-round",
            *("--dealer", "Ad Kd", "--player", "Qd Jd", "--player", "9s 9h"),
            *("--bet", "1:blackjack=10", "--bet", "2:blackjack=10"),
            *("--bet", "1:jackpot-party=5", "--bet", "2:jackpot-party=5"),
            *("--paytable", "jackpot-party=P10"),
        ],
    ],
    ids=lambda a: a[0],
)
def test_every_settling_command_gives_the_one_settlement_record(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    settlement = json.loads(result.output)["settlement"]
    lines = settlement["lines"]
    assert lines
    for line in lines:
        for key in ("stake_cents", "win_cents", "returned_cents"):
            assert isinstance(line[key], int), (key, line)
        assert line["stake"].startswith("$")
    assert settlement["net_cents"] == sum(line["win_cents"] for line in lines)
    if args[0] == "baccarat":
        # Player K♠ 2♦ = 2 draws the 3♥ (5); Banker 4♥ Q♣ = 4 draws the 3♠ on a Player 3 (7):
        # the Banker wins, 19 to 20 on $10 (§ 631a.12)
        assert [(x["wager"], x["win_cents"], x["returned_cents"]) for x in lines] == [
            ("banker", 950, 1950)
        ]

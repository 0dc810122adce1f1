"""Blackjack step by step in the order of the round (58 Pa. Code § 633a.7; base-games.md): the
deal gives the dealer the upcard and the hole card, the players act, then the dealer's draws
(``dealer-draw``), each checked against the drawing rule (S17/H17), then ``settle``.

Every expected figure is worked by hand in the comments (totals and 1-to-1 pays), not read from
croupier's output. The trial found ``deal`` needed the dealer's finished hand and ``settle`` was
allowed straight after the deal at an open table (trial findings, item 5).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_support import assert_one_error_line, run_main
from croupier.errors import InputError, ProcedureError, RulesError
from croupier.table.actions import allowed
from croupier.table.procedure import Action, Phase
from croupier.table.record import settle_record
from croupier.table.round import DealtCards, SettledBy, TableRound
from croupier.table.submission import RulesSubmission, load_submission, submission_from_data
from repo_paths import ROOT

EXAMPLES = ROOT / "examples"


def submission(dealer: str = "S17") -> dict[str, Any]:
    """A six-deck Blackjack table, $10–$500, with Perfect Pairs A."""
    return {
        "game": "blackjack",
        "decks": 6,
        "dealer": dealer,
        "wagers": [
            {"wager": "blackjack", "min": "$10", "max": "$500"},
            {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
        ],
    }


def rules(dealer: str = "S17") -> RulesSubmission:
    return submission_from_data(submission(dealer), "test")


def one_seat(dealer_cards: str, player: str = "Th 8c", *, dealer: str = "S17") -> TableRound:
    """Seat 1, $10 on Blackjack, dealt ``player`` against ``dealer_cards``; played live."""
    r = TableRound.open(rules(dealer), step_by_step=True).bet(1, "blackjack", 1000)
    return r.no_more_bets().deal(DealtCards.parse(players={1: player}, dealer=dealer_cards))


def blackjack_win(r: TableRound, seat: int = 1) -> int:
    (line,) = [x for x in r.settlement().lines if x.wager == "blackjack" and x.seat == seat]
    return line.settled_win_cents


def kinds(r: TableRound) -> set[str]:
    return {a.value for a in allowed(r)}


# -- the round's order, step by step --------------------------------------------------------


def test_dealer_16_must_draw_after_the_players() -> None:
    # the deal gives only the upcard and hole card: Kd 6c is 16, which must draw (§ 633a.7)
    r = one_seat("Kd 6c", "Th 9c")
    # no settle yet; Th 9c is no pair (no split) and the table offers no surrender (§ 633a.9)
    assert kinds(r) == {"hit", "stand", "double"}
    with pytest.raises(ProcedureError, match=r"seat 1's hand Th 9c \(19\) is unplayed") as exc:
        r.settle()
    assert exc.value.section == "633a.7"
    with pytest.raises(ProcedureError, match=r"seat 1's hand is not finished"):
        r.dealer_draw(["2c"])  # the dealer draws after the players
    r = r.stand(1)
    assert kinds(r) == {"dealer-draw"}
    with pytest.raises(RulesError, match=r"Kd 6c \(16\) is not finished: the dealer must draw"):
        r.settle()
    drew = r.dealer_draw(["2c"])  # 16 + 2 = 18: stands
    assert kinds(drew) == {"settle"}
    assert drew.events[-1].action is Action.DEALER_DRAW and drew.events[-1].section == "633a.7"
    assert blackjack_win(drew.settle()) == 1000  # 19 beats 18: 1 to 1 on $10
    # the same hand with a 5: 16 + 5 = 21 beats the player's 19
    assert blackjack_win(r.dealer_draw(["5h"]).settle()) == -1000


def test_s17_soft_17_stands() -> None:
    r = one_seat("Ah 6c").stand(1)  # A 6 = soft 17, the player 18
    assert kinds(r) == {"settle"}  # a dealer who stands has nothing to draw
    with pytest.raises(RulesError, match=r"stands on soft 17 \(Ah 6c\) and draws no 5d") as exc:
        r.dealer_draw(["5d"])
    assert exc.value.section == "633a.7"
    assert blackjack_win(r.settle()) == 1000  # 18 beats 17


def test_h17_soft_17_draws() -> None:
    r = one_seat("Ah 6c", dealer="H17").stand(1)
    assert kinds(r) == {"dealer-draw"}
    with pytest.raises(RulesError, match=r"Ah 6c \(soft 17\) is not finished"):
        r.settle()
    drew = r.dealer_draw(["Kd"])  # A 6 K: the ace counts 1, hard 17: stands
    assert kinds(drew) == {"settle"}
    assert blackjack_win(drew.settle()) == 1000  # 18 beats 17
    with pytest.raises(RulesError, match=r"stands on 17 \(Ah 6c Kd\) and draws no 2c"):
        r.dealer_draw(["Kd", "2c"])  # several cards in one step, the second not owed
    # A 6 then 4: soft 21, stands; the player's 18 loses
    assert blackjack_win(r.dealer_draw(["4d"]).settle()) == -1000


def test_a_draw_after_17_is_refused_and_changes_nothing() -> None:
    r = one_seat("Kd 7c").stand(1)
    with pytest.raises(RulesError, match=r"stands on 17 \(Kd 7c\) and draws no 2c"):
        r.dealer_draw(["2c"])
    assert r.settle().cards is not None and r.cards is not None
    assert r.cards.dealer == DealtCards.parse(dealer="Kd 7c").dealer  # nothing drawn
    # at the deal too, as before: 17 stands, the 2 is no draw
    locked = TableRound.open(rules()).bet(1, "blackjack", 1000).no_more_bets()
    with pytest.raises(RulesError, match="draws no 2c"):
        locked.deal(DealtCards.parse(players={1: "Th 8c"}, dealer="Kd 7c 2c"))


def test_draws_one_card_a_step_until_the_dealer_busts() -> None:
    r = one_seat("5d 6h", "Th 9c").stand(1)  # 11
    r = r.dealer_draw(["2c"])  # 13
    assert kinds(r) == {"dealer-draw"}
    r = r.dealer_draw(["3s"])  # 16
    r = r.dealer_draw(["Th"])  # 26: busts
    assert kinds(r) == {"settle"}
    assert "busts" in r.events[-1].detail
    assert blackjack_win(r.settle()) == 1000  # the standing 19 wins 1 to 1


def test_settle_before_a_seat_has_acted_is_refused() -> None:
    r = TableRound.open(rules(), step_by_step=True)
    r = r.bet(1, "blackjack", 1000).bet(3, "blackjack", 2000).no_more_bets()
    r = r.deal(DealtCards.parse(players={1: "Th 8c", 3: "9h 9s"}, dealer="Kd 7c")).stand(1)
    with pytest.raises(ProcedureError, match=r"seat 3's hand is not finished") as exc:
        r.settle()
    assert exc.value.section == "633a.7"
    assert "settle" not in kinds(r)
    # a recorded round (not live) that records no decision at all is refused the same way while
    # croupier settles the base game (the default): nothing in it chose another mode
    rec = TableRound.open(rules()).bet(1, "blackjack", 1000).no_more_bets()
    rec = rec.deal(DealtCards.parse(players={1: "Th 8c"}, dealer="Kd 7c"))
    assert "settle" not in kinds(rec)
    with pytest.raises(ProcedureError, match=r"seat 1's hand Th 8c \(18\) is unplayed: "):
        rec.settle()


def test_an_unplayed_hand_is_refused_naming_the_seat_the_hand_and_its_decisions() -> None:
    r = TableRound.open(rules()).bet(3, "blackjack", 2500).no_more_bets()
    r = r.deal(DealtCards.parse(players={3: "8s 8s"}, dealer="Kd 9c"))
    with pytest.raises(ProcedureError) as exc:
        r.settle()
    said = str(exc.value)
    assert said.startswith("seat 3's hand 8s 8s (16) is unplayed: double, hit, split or stand")
    assert '"base_game": "external"' in said and exc.value.section == "633a.7"
    assert r.phase is Phase.DEALT  # nothing settled


def test_an_external_base_game_records_the_blackjack_wager_with_no_win() -> None:
    r = TableRound.open(rules(), base_game="external").bet(3, "blackjack", 2500).no_more_bets()
    r = r.deal(DealtCards.parse(players={3: "8s 8s"}, dealer="Kd 9c"))
    assert kinds(r) == {"settle"} and r.turns() == ()  # the players' play is not croupier's
    with pytest.raises(ProcedureError, match=r"the round's base game is \"external\""):
        r.stand(3)
    done = r.settle()
    (line,) = done.settlement().lines
    assert (line.win_cents, line.returned_cents, line.by_base_game) == (None, None, True)
    assert line.outcome == "settled by the base game"
    shown = line.to_json()
    assert (shown["win_cents"], shown["win"], shown["returned_cents"]) == (None, None, None)
    assert shown["settled_by_base_game"] is True
    assert done.settlement().net_cents == 0 and done.settlement().returned_cents == 0
    assert [e.win_cents for e in done.events if e.action is Action.RECORDED] == [None]


def test_the_base_game_is_croupier_s_or_external_and_criss_cross_poker_is_external() -> None:
    with pytest.raises(InputError, match=r'base_game is "croupier" or "external", not \'own\''):
        TableRound.open(rules(), base_game="own")
    ccp = load_submission(EXAMPLES / "submissions" / "criss-cross-poker.toml")
    with pytest.raises(ProcedureError, match=r'declare "base_game": "external"') as exc:
        TableRound.open(ccp)
    assert exc.value.section == "674a.11"
    assert TableRound.open(ccp, base_game="external").base_game is SettledBy.EXTERNAL
    baccarat = load_submission(EXAMPLES / "submissions" / "baccarat-8deck.toml")
    with pytest.raises(ProcedureError, match=r'"external" is not taken at Baccarat'):
        TableRound.open(baccarat, base_game="external")


# -- croupier settle: round files ------------------------------------------------------------


def round_file(tmp: Path, steps: list[dict[str, Any]], dealer: str = "S17") -> str:
    path = tmp / "round.json"
    path.write_text(json.dumps({"submission": submission(dealer), "steps": steps}), "utf-8")
    return str(path)


BETS: list[dict[str, Any]] = [
    {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
    {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$20"},
    {"action": "no-more-bets"},
]


def settle_cli(path: str) -> dict[int, int]:
    run = run_main(["settle", path, "--json"])
    assert run.code == 0, run.err
    (rnd,) = json.loads(run.out)
    return {x["seat"]: x["win_cents"] for x in rnd["settlement"]["lines"]}


def test_croupier_settle_reads_dealer_draw_steps(tmp_path: Path) -> None:
    deal = {"action": "deal", "players": {"1": "Th 8c", "3": "9h 9s"}, "dealer": "Kd 6c"}
    played = [
        *BETS,
        deal,
        {"action": "stand", "seat": 1},
        {"action": "stand", "seat": 3},
    ]
    # 16 draws a 3: 19. Seat 1's 18 loses $10, seat 3's 18 loses $20
    path = round_file(tmp_path, [*played, {"action": "dealer-draw", "cards": "3d"}])
    assert settle_cli(path) == {1: -1000, 3: -2000}
    # 16 draws a 2 (18) then nothing: both 18s push
    path = round_file(tmp_path, [*played, {"action": "dealer-draw", "card": "2d"}])
    assert settle_cli(path) == {1: 0, 3: 0}
    # 16 draws a 6: 22, busts; both win 1 to 1
    path = round_file(tmp_path, [*played, {"action": "dealer-draw", "card": "6d"}])
    assert settle_cli(path) == {1: 1000, 3: 2000}
    # the draw missing: refused at the (supplied) settle, one line naming § 633a.7
    line = assert_one_error_line(run_main(["settle", round_file(tmp_path, played)]))
    assert "Kd 6c (16) is not finished: the dealer must draw" in line and "633a.7" in line
    # a draw after 18 refused
    steps = [*played, {"action": "dealer-draw", "cards": "2d 5c"}]
    line = assert_one_error_line(run_main(["settle", round_file(tmp_path, steps)]))
    assert "stands on 18 (Kd 6c 2d) and draws no 5c" in line and "633a.7" in line


def test_croupier_settle_refuses_a_seat_that_has_not_acted(tmp_path: Path) -> None:
    deal = {"action": "deal", "players": {"1": "Th 8c", "3": "9h 9s"}, "dealer": "Kd 7c"}
    steps = [*BETS, deal, {"action": "stand", "seat": 1}, {"action": "settle"}]
    line = assert_one_error_line(run_main(["settle", round_file(tmp_path, steps)]))
    assert "seat 3's hand is not finished" in line and "633a.7" in line
    steps = [*BETS, deal, {"action": "stand", "seat": 1}, {"action": "dealer-draw", "card": "2c"}]
    line = assert_one_error_line(run_main(["settle", round_file(tmp_path, steps)]))
    assert "seat 3's hand is not finished" in line


def test_h17_round_file(tmp_path: Path) -> None:
    deal = {"action": "deal", "players": {"1": "Th 8c", "3": "9h 9s"}, "dealer": "Ah 6c"}
    played = [*BETS, deal, {"action": "stand", "seat": 1}, {"action": "stand", "seat": 3}]
    line = assert_one_error_line(run_main(["settle", round_file(tmp_path, played, "H17")]))
    assert "(soft 17) is not finished" in line
    # H17: A 6 draws a 2 (soft 19): both 18s lose
    steps = [*played, {"action": "dealer-draw", "card": "2s"}]
    assert settle_cli(round_file(tmp_path, steps, "H17")) == {1: -1000, 3: -2000}
    # S17: the same soft 17 stands, both 18s win
    assert settle_cli(round_file(tmp_path, played, "S17")) == {1: 1000, 3: 2000}


def test_the_example_round_files_declare_their_base_game() -> None:
    """examples/rounds/http-blackjack.json declares its base game external: the Blackjack bet is
    the base game's, with no win; blackjack.json records the players' play and croupier settles
    it (docs/interpretations.md)."""
    path = EXAMPLES / "rounds" / "http-blackjack.json"
    r = settle_record(json.loads(path.read_text("utf-8")), path.parent)
    assert r.base_game is SettledBy.EXTERNAL
    (bj,) = [x for x in r.settlement().lines if x.wager == "blackjack"]
    assert bj.by_base_game and bj.win_cents is None
    assert r.settlement().net_cents == 12500  # the Perfect Pair alone
    path = EXAMPLES / "rounds" / "blackjack.json"
    r = settle_record(json.loads(path.read_text("utf-8")), path.parent)
    bj_lines = [x for x in r.settlement().lines if x.wager == "blackjack"]
    assert [(x.seat, x.win_cents, x.by_base_game) for x in bj_lines] == [
        (3, 5000, False),
        (1, 2500, False),
    ]


# -- the deal at an open table: the upcard and the hole card only (a fresh user's trial) ------


def test_a_round_played_step_by_step_is_dealt_the_upcard_and_the_hole_card_only() -> None:
    locked = TableRound.open(rules(), step_by_step=True).bet(1, "blackjack", 1000).no_more_bets()
    # 7 9 = 16 owes a card, but the dealer draws after the players act (§ 633a.7)
    with pytest.raises(ProcedureError, match=r"two cards, not 3 \(7h 9c 5d\)") as exc:
        locked.deal(DealtCards.parse(players={1: "Th 6c"}, dealer="7h 9c 5d"))
    assert exc.value.section == "633a.7"
    r = locked.deal(DealtCards.parse(players={1: "Th 6c"}, dealer="7h 9c")).stand(1)
    assert kinds(r) == {"dealer-draw"}
    # a recorded round (a round file) may still give the draw at the deal, as before
    rec = TableRound.open(rules()).bet(1, "blackjack", 1000).no_more_bets()
    rec = rec.deal(DealtCards.parse(players={1: "Th 6c"}, dealer="7h 9c 5d"))
    assert rec.cards is not None and len(rec.cards.dealer) == 3


def test_a_seeded_deal_step_by_step_leaves_the_draws_to_the_rest_of_the_shoe() -> None:
    """A shoe shuffled with the seed is dealt in its order: seat 1's two cards, the dealer's
    upcard and hole card, then the rest — the players' hits first, the dealer's draws after."""
    import random

    from croupier.cards import Shoe

    for seed in range(40):
        shoe = list(Shoe.standard(6).cards())
        random.Random(seed).shuffle(shoe)
        r = TableRound.open(rules(), step_by_step=True).bet(1, "blackjack", 1000)
        r = r.no_more_bets().deal_shoe(seed)
        assert r.cards is not None and r.cards.dealer == tuple(shoe[2:4]), seed
        if r.blackjack is None or not r.turns():
            continue  # a Blackjack at the peek or at the seat: nothing to play
        r = r.hit(1)  # seat 1's hit: the next card after the hole card
        assert r.blackjack is not None and r.blackjack.seats[0].hands[0].cards[2] == shoe[4]
        r = r.stand(1) if r.turns() else r
        if kinds(r) == {"dealer-draw"}:
            drew = r.dealer_draw()
            assert drew.cards is not None and drew.cards.dealer[2] == shoe[5], seed
            return
    raise AssertionError("no seed among 40 made the dealer draw")

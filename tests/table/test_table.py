"""The table: Rules Submissions, the regulated round procedure and ``croupier settle``.

Expected values are worked by hand from the regulation's text and paytables (the comments show the
arithmetic), never pasted from the engine's output.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from croupier.cards import Card, Rank
from croupier.cli import app, main
from croupier.errors import (
    CardError,
    CroupierError,
    InputError,
    LockoutError,
    ProcedureError,
    RulesError,
    ShoeError,
    SubmissionError,
)
from croupier.table import (
    PROCEDURE,
    Action,
    DealtCards,
    Phase,
    TableGame,
    TableRound,
    check_file,
    load_submission,
    settle_file,
    settle_record,
    submission_from_data,
)
from croupier.table.submission import check_submission, parse_submission
from repo_paths import ROOT

EXAMPLES = ROOT / "examples"
runner = CliRunner()


def bj(**extra: Any) -> dict[str, Any]:
    """A valid six-deck Blackjack submission, with ``extra`` keys replaced."""
    data: dict[str, Any] = {
        "game": "blackjack",
        "decks": 6,
        "dealer": "S17",
        "wagers": [
            {"wager": "blackjack", "min": "$10", "max": "$500"},
            {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
            {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
            {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$1", "$5"]},
            {"wager": "axman", "paytable": "standard", "min": "$5", "max": "$50"},
        ],
    }
    data.update(extra)
    return data


def sections(data: dict[str, Any]) -> list[str | None]:
    return [v.section for v in check_submission(parse_submission(data, "t"))]


# -- Rules Submissions ------------------------------------------------------------------------------


def test_example_submissions_pass_and_the_broken_one_cites_every_rule() -> None:
    for path in sorted((EXAMPLES / "submissions").glob("*.toml")):
        assert check_file(path) == (), path
        load_submission(path)  # builds the domain object
    found = {v.section for v in check_file(EXAMPLES / "broken" / "blackjack-2deck.toml")}
    # the file breaks: $5 increments at Switch Hands, AxMan and Match the Dealer at 6/8 decks,
    # P1 printed for 6 decks only, a $2 Jackpot Party wager, no paytable Z in § 633b.1, and
    # Ultimate Pairs away from Criss-Cross Poker
    assert found == {
        "633b.4(b)",
        "633c.12(a)",
        "633b.3(b)",
        "633b.2(b)",
        "633b.2(e)",
        "633b.1",
        "674b.1(a)",
    }


@pytest.mark.parametrize("decks", [6, 8])
def test_axman_and_match_the_dealer_are_allowed_at_six_and_eight_decks(decks: int) -> None:
    data = bj(decks=decks)
    data["wagers"] = [w for w in data["wagers"] if w["wager"] != "jackpot-party"]
    assert sections(data) == []


@pytest.mark.parametrize("decks", [1, 2, 4])
def test_axman_and_match_the_dealer_are_refused_below_six_decks(decks: int) -> None:
    data = bj(decks=decks)
    data["wagers"] = [w for w in data["wagers"] if w["wager"] != "jackpot-party"]
    assert sections(data) == ["633b.3(b)", "633c.12(a)"]


def test_jackpot_party_paytable_for_another_deck_count_and_wager_size() -> None:
    data = bj()
    # P4 is printed for eight decks (§ 633b.2 paytables), the table deals six
    data["wagers"][2] = {"wager": "jackpot-party", "paytable": "P4", "amounts": ["$5"]}
    assert sections(data) == ["633b.2(b)"]
    data["wagers"][2] = {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5", "$10"]}
    assert sections(data) == ["633b.2(e)"]  # § 633b.2(e): $1 or $5


def test_switch_hands_limits_in_five_dollar_increments() -> None:
    data = bj(switch_hands=True)
    assert sections(data) == []  # $10–$500: multiples of $5
    data["wagers"][0] = {"wager": "blackjack", "min": "$12", "max": "$500"}
    assert sections(data) == ["633b.4(b)"]


def test_unknown_paytable_and_wagers_of_other_games() -> None:
    data = bj()
    data["wagers"][1] = {"wager": "perfect-pairs", "paytable": "Q", "min": "$5", "max": "$25"}
    data["wagers"].append({"wager": "ultimate-pairs", "paytable": "A", "min": "$5", "max": "$25"})
    data["wagers"].append({"wager": "fortune-7", "paytable": "A", "min": "$5", "max": "$25"})
    assert sections(data) == ["633b.1", "674b.1(a)", "631c.3(c)"]


def test_game_level_rules() -> None:
    fcp = {
        "game": "four-card-poker",
        "decks": 1,
        "wagers": [{"wager": "four-card-poker", "paytable": "25-20-2", "min": "$5", "max": "$50"}],
    }
    assert sections(fcp) == ["641a.7(e)"]  # the adjacent boxes must be specified
    bac = {
        "game": "baccarat",
        "decks": 8,
        "wagers": [
            {"wager": "banker", "paytable": "commission", "min": "$5", "max": "$50"},
            {"wager": "fortune-7", "paytable": "A", "min": "$5", "max": "$50"},
            {"wager": "golden-8", "paytable": "B", "min": "$5", "max": "$50"},
        ],
    }
    assert sections(bac) == ["631c.3(h)"]  # the 5 Treasures wagers share one paytable
    no_base = bj()
    no_base["wagers"] = no_base["wagers"][1:]
    assert "633b.1(c)" in sections(no_base) and "633c.12(a)" in sections(no_base)


def test_submission_errors_list_every_problem() -> None:
    with pytest.raises(SubmissionError) as exc:
        submission_from_data(bj(decks=2), "bj2")
    assert {s for _, s in exc.value.violations} >= {"633b.3(b)", "633c.12(a)", "633b.2(b)"}
    with pytest.raises(SubmissionError) as shape:
        submission_from_data({"game": "poker", "decks": 0, "wagers": []})
    assert len(shape.value.violations) == 3  # game, decks and wagers, all at once


# -- the round procedure --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bj_sub() -> Any:
    return submission_from_data(bj(), "bj")


def test_blackjack_example_settles_in_the_prescribed_order_and_moment() -> None:
    r = settle_file(EXAMPLES / "rounds" / "blackjack.json")
    got = [(e.seat, e.wager, e.win_cents, e.section) for e in r.settlements()]
    # right after the second card (§ 633b.1(e)), from the dealer's right: seat 3, then seat 1
    # seat 3 7h 7c: a Mixed Pair (red and black sevens), 6 to 1 on $10 (paytable A) = +$60;
    #   Match the Dealer: neither 7 matches the K upcard, the $5 is lost
    # seat 1 8s 8s: a Perfect Pair, 25 to 1 on $5 = +$125; Jackpot Party: no dealer Blackjack and no
    #   ace up, lost
    # after the round (§ 633c.12(e)): the dealer's K♦ 5♥ K♦ — two wild kings of diamonds with the
    #   five make three fives, 20 to 1 on $10 = +$200 (seat 1 holds no K♦: no multiplier)
    # then the Blackjack wagers, both hands standing against the dealer's bust (25): 1 to 1
    assert got == [
        (3, "perfect-pairs", 6000, "633b.1(e)"),
        (3, "match-the-dealer", -500, "633b.3(g)"),
        (1, "perfect-pairs", 12500, "633b.1(e)"),
        (1, "jackpot-party", -500, "633b.2(g)"),
        (1, "axman", 20000, "633c.12(e)"),
        (3, "blackjack", 5000, "633a.6(d)"),
        (1, "blackjack", 2500, "633a.6(d)"),
    ]
    kinds = [e.action for e in r.events]
    deal, settle = kinds.index(Action.DEAL), kinds.index(Action.SETTLE)
    axman = next(e.index for e in r.settlements() if e.wager == "axman")
    side = [e for e in r.settlements() if e.wager not in ("axman", "blackjack")]
    assert all(deal < e.index < axman for e in side)
    assert all(axman < e.index for e in r.settlements() if e.wager == "blackjack")
    assert axman < settle
    assert [e.index for e in r.events] == list(range(len(r.events)))


def test_second_card_wagers_are_settled_at_the_deal_and_axman_only_at_the_end(bj_sub: Any) -> None:
    r = TableRound.open(bj_sub).bet(2, "blackjack", 1000).bet(2, "axman", 500)
    r = r.bet(2, "perfect-pairs", 500).no_more_bets()
    r = r.deal(DealtCards.parse(players={2: "Qh Qd"}, dealer="9s 8c"))
    assert [e.wager for e in r.settlements()] == ["perfect-pairs"]
    # Q♥ Q♦: same rank, same colour, different suits: a Colored Pair, 12 to 1 on $5
    assert r.settlements()[0].win_cents == 6000
    r = r.stand(2).settle()
    # AxMan reads 9♠ 8♣: no pair, no straight, the $5 is lost; then Q♥ Q♦ (20) beats 17
    assert [(e.wager, e.win_cents) for e in r.settlements()] == [
        ("perfect-pairs", 6000),
        ("axman", -500),
        ("blackjack", 1000),
    ]
    assert r.phase is Phase.SETTLED


def test_baccarat_example() -> None:
    r = settle_file(EXAMPLES / "rounds" / "baccarat.json")
    # Player K♠ 2♦ 3♥ = 5, Banker 4♥ Q♣ 3♠ = 7: the Banker wins with a three-card 7.
    # seat 5 (the dealer's right first): Player $50 lost; Golden 8 needs a Player three-card 8, lost
    # seat 2: Banker 19 to 20 on $25 = +$23.75; Fortune 7 40 to 1 on $5 = +$200; Cover All 6 to 1
    # on $5 = +$30 (§ 631c.3, paytable A)
    assert [(e.seat, e.wager, e.win_cents) for e in r.settlements()] == [
        (5, "player", -5000),
        (5, "golden-8", -500),
        (2, "banker", 2375),
        (2, "fortune-7", 20000),
        (2, "cover-all", 3000),
    ]
    treasures = [e.section for e in r.settlements() if e.wager not in ("player", "banker")]
    assert set(treasures) == {"631c.3(e)"}


def test_four_card_poker_example() -> None:
    r = settle_file(EXAMPLES / "rounds" / "four-card-poker.json")
    # seat 2 folds: the $20 Ante is lost. Seat 1: a pair of tens beats the dealer's queen high:
    # Ante $10 and Play $30 win even money; Aces Up pays on a pair of aces or better: lost
    assert [(e.seat, e.amount_cents, e.win_cents) for e in r.settlements()] == [
        (2, 2000, -2000),
        (1, 1000, 1000),
        (1, 3000, 3000),
        (1, 500, -500),
    ]


def test_criss_cross_ultimate_pairs_stays_in_action_when_folded() -> None:
    r = settle_file(EXAMPLES / "rounds" / "criss-cross-poker.json")
    # paytable C of § 674b.1(f): A♥ A♦ 100 to 1 (seat 1 folded, § 674b.1(c)); K/K 4 to 1
    assert [(e.seat, e.win_cents, e.section) for e in r.settlements()] == [
        (4, 2000, "674b.1(d)"),
        (1, 50000, "674b.1(d)"),
    ]


def unchanged(r: TableRound, action: Any, error: type[Exception], section: str | None) -> None:
    """``action(r)`` raises ``error`` citing ``section``; ``r`` is left exactly as it was."""
    before = (r.phase, r.bets, r.cards, r.decisions, r.events)
    with pytest.raises(error) as exc:
        action(r)
    if section is not None:
        assert isinstance(exc.value, RulesError) and exc.value.section == section
    assert (r.phase, r.bets, r.cards, r.decisions, r.events) == before


def test_bad_blackjack_rounds_are_rejected_and_change_nothing(bj_sub: Any) -> None:
    r = TableRound.open(bj_sub)
    unchanged(r, lambda r: r.bet(1, "perfect-pairs", 500), ProcedureError, "633b.1(c)")
    unchanged(r, lambda r: r.bet(1, "blackjack", 50_100), RulesError, "601a.2")  # max $500
    unchanged(r, lambda r: r.bet(1, "blackjack", 500), RulesError, "601a.2")  # min $10
    unchanged(r, lambda r: r.bet(9, "blackjack", 1000), InputError, None)  # seats 1–7
    unchanged(r, lambda r: r.bet(1, "tie", 1000), ProcedureError, "601a.2")
    unchanged(r, lambda r: r.deal(DealtCards()), ProcedureError, "633b.1(d)")  # bets still open
    # no wager at all: nothing to deal; the Blackjack wager comes first (§ 633a.6(d))
    unchanged(r, lambda r: r.no_more_bets(), ProcedureError, "633a.6(d)")
    r = r.bet(1, "blackjack", 1000)
    # $1 is a size of § 633b.2(e), but this table's submission offers P1 at $5 only (§ 601a.2);
    # $2 is no size of the section at all (§ 633b.2(e): $1 or $5)
    unchanged(r, lambda r: r.bet(1, "jackpot-party", 100), RulesError, "601a.2")
    unchanged(r, lambda r: r.bet(1, "jackpot-party", 200), RulesError, "633b.2(e)")
    unchanged(r, lambda r: r.bet(1, "axman", 5500), RulesError, "633c.12(c)")
    locked = r.no_more_bets()
    unchanged(locked, lambda r: r.bet(1, "jackpot-party", 500), LockoutError, "633b.2(d)(2)")
    unchanged(locked, lambda r: r.bet(1, "match-the-dealer", 500), LockoutError, "633b.3(d)(2)")
    unchanged(locked, lambda r: r.bet(2, "blackjack", 1000), LockoutError, None)
    three = DealtCards.parse(players={1: "Ah Kh Qh"}, dealer="Ts 9s")
    unchanged(locked, lambda r: r.deal(three), CardError, None)
    wrong_seat = DealtCards.parse(players={2: "Ah Kh"}, dealer="Ts 9s")
    unchanged(locked, lambda r: r.deal(wrong_seat), CardError, None)
    # the dealer stands on 19 and draws no 2 (§ 633a.7)
    unchanged(
        locked,
        lambda r: r.deal(DealtCards.parse(players={1: "Ah Kh"}, dealer="Ts 9s 2c")),
        RulesError,
        None,
    )
    # seven aces of spades do not fit in six decks
    aces = DealtCards.parse(players={1: "As As"}, dealer="As As As As As")
    unchanged(locked, lambda r: r.deal(aces), ShoeError, None)
    dealt = locked.deal(DealtCards.parse(players={1: "Ah Kh"}, dealer="Ts 9s"))
    unchanged(dealt, lambda r: r.play(1, 1000), ProcedureError, "633b.1(d)")
    settled = dealt.settle()
    unchanged(settled, lambda r: r.settle(), ProcedureError, "633b.1(d)")


def test_switch_hands_wagers_in_five_dollar_increments() -> None:
    sub = submission_from_data(bj(switch_hands=True))
    unchanged(TableRound.open(sub), lambda r: r.bet(1, "blackjack", 1200), RulesError, "633b.4(b)")
    assert TableRound.open(sub).bet(1, "blackjack", 1500).bets[0].amount_cents == 1500


@pytest.fixture(scope="module")
def fcp_sub() -> Any:
    return load_submission(EXAMPLES / "submissions" / "four-card-poker.toml")


def test_four_card_poker_play_and_boxes(fcp_sub: Any) -> None:
    r = TableRound.open(fcp_sub)
    # § 641a.7(e): the submission allows two adjacent boxes
    r = r.bet(3, "four-card-poker", 1000, player="ann")
    unchanged(r, lambda r: r.bet(5, "four-card-poker", 1000, player="ann"), RulesError, "641a.7(e)")
    r = r.bet(4, "four-card-poker", 1000, player="ann")
    unchanged(r, lambda r: r.bet(2, "four-card-poker", 1000, player="ann"), RulesError, "641a.7(e)")
    unchanged(r, lambda r: r.bet(1, "five-card-hand-bonus", 100), ProcedureError, "641a.7(d)(7)")
    locked = r.no_more_bets()
    unchanged(locked, lambda r: r.bet(1, "aces-up", 500), LockoutError, "641a.7(c)")
    unchanged(locked, lambda r: r.play(3, 1000), ProcedureError, "641a.7(d)(1)")  # before the cards
    dealt = locked.deal(
        DealtCards.parse(
            players={3: "Ah Ad 4h 9s Kc", 4: "2c 3c 4c 5c 7d"}, dealer="Qs 8d 7c 3h 2s 5d"
        )
    )
    unchanged(dealt, lambda r: r.play(3, 3100), RulesError, "641a.7(d)(1)")  # over 3× $10
    unchanged(dealt, lambda r: r.play(3, 900), RulesError, "641a.7(d)(1)")
    unchanged(dealt.play(3, 2000), lambda r: r.settle(), ProcedureError, "641a.7(d)(1)")  # box 4
    done = dealt.play(3, 2000).fold(4).settle()
    # box 4 folds: −$10; box 3's pair of aces beats queen high: Ante +$10, Play +$20
    assert [e.win_cents for e in done.settlements()] == [-1000, 1000, 2000]


def test_a_rejected_round_file_settles_nothing(tmp_path: Path) -> None:
    for name, section in (
        ("late-progressive.json", "633b.2(d)(2)"),
        ("side-without-base.json", "631c.3(c)"),
    ):
        with pytest.raises(RulesError) as exc:
            settle_file(EXAMPLES / "broken" / name)
        assert exc.value.section == section
    data = json.loads((EXAMPLES / "rounds" / "baccarat.json").read_text())
    data["submission"] = str(EXAMPLES / "submissions" / "baccarat-8deck.toml")
    data["steps"].insert(1, {"action": "bet", "seat": 2, "wager": "tie", "amount": "$1,000"})
    with pytest.raises(RulesError, match=r"\$5–\$500"):
        settle_record(data)


def test_replay_is_deterministic_and_the_record_is_json() -> None:
    path = EXAMPLES / "rounds" / "blackjack.json"
    a, b = settle_file(path), settle_file(path)
    assert a.events == b.events
    json.dumps([e.to_json() for e in a.events])


def test_the_state_machine_is_explicit() -> None:
    for game in TableGame:
        table = PROCEDURE[game]
        assert table[Phase.BETTING] == {Action.BET, Action.NO_MORE_BETS}
        assert table[Phase.LOCKED] == {Action.DEAL}
        assert table[Phase.SETTLED] == frozenset()
    assert Action.PLAY in PROCEDURE[TableGame.FOUR_CARD_POKER][Phase.DEALT]
    assert Action.PLAY not in PROCEDURE[TableGame.CRISS_CROSS_POKER][Phase.DEALT]


# -- random rounds against a settlement written from the regulation text --------------------------


def perfect_pairs_reference(a: Card, b: Card, amount: int) -> int:
    """§ 633b.1(a), paytable A: same rank and suit 25 to 1; same rank and colour 12 to 1; same
    rank 6 to 1; otherwise the wager is lost."""
    if a.rank != b.rank:
        return -amount
    if a.suit == b.suit:
        return 25 * amount
    red = {"h", "d"}
    same_colour = (str(a)[-1] in red) == (str(b)[-1] in red)
    return (12 if same_colour else 6) * amount


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sets(st.integers(1, 7), min_size=1, max_size=7))
def test_random_blackjack_rounds_agree_with_the_text(seed: int, seats: set[int]) -> None:
    sub = submission_from_data(bj(), "bj")
    r = TableRound.open(sub, base_game="external")  # no decision recorded: the table's own system
    rng = random.Random(seed)
    amounts = {}
    for s in sorted(seats):
        r = r.bet(s, "blackjack", 1000)
        amounts[s] = rng.choice((500, 1000, 2500))
        r = r.bet(s, "perfect-pairs", amounts[s])
    r = r.no_more_bets().deal_shoe(seed).settle()
    assert r.cards is not None
    got = [(e.seat, e.win_cents) for e in r.settlements()]
    want = []
    for s in sorted(seats, reverse=True):
        a, b = r.cards.hand(s)
        want.append((s, perfect_pairs_reference(a, b, amounts[s])))
    # the base game external: the $10 Blackjack wagers are the base game's, whatever the deal —
    # no win, outside the net
    assert got == want
    lines = [x for x in r.settlement().lines if x.wager == "blackjack"]
    assert [(x.seat, x.win_cents, x.by_base_game) for x in lines] == [
        (s, None, True) for s in sorted(seats, reverse=True)
    ]
    # the dealer's hand follows § 633a.7 (S17): it stops at 17 or more, and only there
    values = [min(int(c.rank), 10) if c.rank is not Rank.ACE else 1 for c in r.cards.dealer]
    totals = [sum(values[:i]) for i in range(2, len(values) + 1)]
    soft = [
        t + 10 if 1 in values[:i] and t + 10 <= 21 else t for i, t in enumerate(totals, start=2)
    ]
    assert soft[-1] >= 17 and all(t < 17 for t in soft[:-1])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    late=st.sampled_from(["jackpot-party", "perfect-pairs", "axman"]),
)
def test_any_wager_after_the_lockout_is_refused(seed: int, late: str) -> None:
    sub = submission_from_data(bj(), "bj")
    r = TableRound.open(sub).bet(1, "blackjack", 1000).no_more_bets()
    amount = 500
    with pytest.raises(LockoutError):
        r.bet(1, late, amount)
    with pytest.raises(LockoutError):
        r.deal_shoe(seed).bet(1, late, amount)


# -- the command line -----------------------------------------------------------------------------


def test_croupier_check_lists_every_violation() -> None:
    ok = runner.invoke(app, ["check", str(EXAMPLES / "submissions" / "blackjack-6deck.toml")])
    assert ok.exit_code == 0 and ok.stdout.splitlines()[0].endswith(": ok")
    assert ok.stdout.splitlines()[1].startswith("  submission sha256 ")  # its digest below
    bad = runner.invoke(app, ["check", str(EXAMPLES / "broken" / "blackjack-2deck.toml")])
    assert bad.exit_code == 2
    assert "7 violations" in bad.output and "§ 633b.4(b)" in bad.output
    data = json.loads(
        runner.invoke(
            app, ["check", "--json", str(EXAMPLES / "broken" / "blackjack-2deck.toml")]
        ).stdout
    )
    assert len(next(iter(data.values()))) == 7


def test_croupier_settle_json_and_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rounds = sorted(str(p) for p in (EXAMPLES / "rounds").glob("*.json"))
    res = runner.invoke(app, ["settle", *rounds, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    # baccarat: −$50 − $5 + $23.75 + $200 + $30 = +$198.75
    assert {Path(d["round"]).stem: d["net_cents"] for d in data}["baccarat"] == 19875
    table = runner.invoke(app, ["settle", str(EXAMPLES / "rounds" / "blackjack.json")])
    assert table.exit_code == 0 and "§ 633c.12(e)" in table.stdout
    monkeypatch.setattr(
        "sys.argv", ["croupier", "settle", str(EXAMPLES / "broken" / "late-progressive.json")]
    )
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "§ 633b.2(d)(2)" in lines[0]


def test_errors_are_croupier_errors() -> None:
    assert issubclass(SubmissionError, CroupierError) and issubclass(ProcedureError, RulesError)


# -- the progressive ledger -----------------------------------------------------------------------


def test_a_rounds_progressive_wagers_feed_the_ledger(tmp_path: Path) -> None:
    from croupier.operations.feeding import feed_progressive
    from croupier.paytables import MeterLevel, builtin_paytables
    from croupier.progressive import MICROS_PER_CENT, Ledger, ProgressiveDefinition, Role

    sub = submission_from_data(bj(), "bj")
    r = TableRound.open(sub)
    for seat in (2, 4):
        r = r.bet(seat, "blackjack", 1000).bet(seat, "match-the-dealer", 500)
    locked = r.no_more_bets()
    # seat 2: 7♥ 9♣ against the 7♥ upcard: one suited match; seat 4: 2♣ 3♦, no match
    dealt = locked.deal(DealtCards.parse(players={2: "7h 9c", 4: "2c 3d"}, dealer="7h Ts"))
    with Ledger(f"sqlite:///{tmp_path / 'p.sqlite3'}") as ledger:
        ledger.bootstrap("sam", "sam-secret")
        ledger.add_user("dana", Role.DEALER, "dana-secret", by="sam")
        table = builtin_paytables().get("633b.3", "1", 6)
        defn = ProgressiveDefinition.from_paytable(table, decks=6, wager_cents=500, name="mtd-5")
        ledger.create_progressive(defn, tables=["BJ-1"], by="sam")
        system = ledger.system("mtd-5")
        with pytest.raises(ProcedureError):
            feed_progressive(locked, system, table="BJ-1", round_id="r1", by="dana")
        first = feed_progressive(dealt, system, table="BJ-1", round_id="r1", by="dana")
        assert first is not None and not first.replayed
        assert [(a.position, a.outcome) for a in first.awards] == [(2, "suited-match")]
        # two $5 wagers: 15% to the meter, 6% to the reserve (§ 633b.3(j)) = 150¢ and 60¢
        (c,) = first.contributions
        assert c.level is MeterLevel.PROGRESSIVE
        assert (c.meter_micros, c.reserve_micros) == (150 * MICROS_PER_CENT, 60 * MICROS_PER_CENT)
        again = feed_progressive(dealt, system, table="BJ-1", round_id="r1", by="dana")
        assert again is not None and again.replayed


def baccarat_reference(cards: list[Card], bets: dict[str, int]) -> tuple[int, dict[str, int]]:
    """Play a coup and settle Player, Banker (commission), Tie 8 to 1, Fortune 7 and Golden 8
    (paytable A) from the text: § 631a.9–§ 631a.12 (drawing rules typed in
    tests/baccarat_reference.py from the printed table), § 631c.3(f)(1)–(2), (h)."""
    from baccarat_reference import _banker_draws

    def pt(cs: list[Card]) -> int:
        return (
            sum(
                0
                if int(c.rank) >= 10 and c.rank is not Rank.ACE
                else (1 if c.rank is Rank.ACE else int(c.rank))
                for c in cs
            )
            % 10
        )

    p, b, rest = [cards[0], cards[2]], [cards[1], cards[3]], list(cards[4:])
    if pt(p) < 8 and pt(b) < 8:
        third = None
        if pt(p) <= 5:
            p.append(rest.pop(0))
            third = pt([p[2]])
        if _banker_draws(pt(b), third):
            b.append(rest.pop(0))
    pp, bp = pt(p), pt(b)
    win: dict[str, int] = {}
    for wager, amount in bets.items():
        if wager == "player":
            win[wager] = 0 if pp == bp else (amount if pp > bp else -amount)
        elif wager == "banker":  # 19 to 20, rounded down to the cent
            win[wager] = 0 if pp == bp else (amount * 19 // 20 if bp > pp else -amount)
        elif wager == "tie":
            win[wager] = 8 * amount if pp == bp else -amount
        elif wager == "fortune-7":
            win[wager] = 40 * amount if bp > pp and bp == 7 and len(b) == 3 else -amount
        elif wager == "golden-8":
            win[wager] = 25 * amount if pp > bp and pp == 8 and len(p) == 3 else -amount
    return len(p) + len(b), win


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sets(st.integers(1, 7), min_size=1, max_size=4))
def test_random_baccarat_rounds_agree_with_the_text(seed: int, seats: set[int]) -> None:
    sub = load_submission(EXAMPLES / "submissions" / "baccarat-8deck.toml")
    rng = random.Random(seed)
    r = TableRound.open(sub)
    placed: dict[int, dict[str, int]] = {}
    for s in sorted(seats):
        base = rng.choice(("player", "banker", "tie"))
        placed[s] = {base: rng.choice((2500, 3500, 10000)) if base != "tie" else 500}
        for side in ("fortune-7", "golden-8"):
            if rng.random() < 0.5:
                placed[s][side] = 500
        for w, c in placed[s].items():
            r = r.bet(s, w, c)
    r = r.no_more_bets().deal_shoe(seed).settle()
    assert r.cards is not None
    got = [(e.seat, e.wager, e.win_cents) for e in r.settlements()]
    want = []
    for s in sorted(seats, reverse=True):
        used, win = baccarat_reference(list(r.cards.coup) + [r.cards.coup[0]] * 2, placed[s])
        assert used == len(r.cards.coup)
        want += [(s, w, win[w]) for w in placed[s]]
    assert got == want


def test_croupier_play_deals_reproducible_random_rounds() -> None:
    from croupier.table.training import random_rounds

    for path in sorted((EXAMPLES / "submissions").glob("*.toml")):
        args = ["play", "--submission", str(path), "--seed", "11", "-n", "3", "--json"]
        first, second = runner.invoke(app, args), runner.invoke(app, args)
        assert first.exit_code == 0, first.output
        assert first.stdout == second.stdout
        for r in random_rounds(load_submission(path), 5, 5):
            assert r.phase is Phase.SETTLED

            # within each settlement moment (the second-card wagers at the deal; AxMan after
            # the round; the Blackjack wagers and Antes at the end), from the dealer's right
            def moment(wager: str) -> str:
                if wager.startswith("axman"):
                    return "axman"
                return "end" if wager in ("blackjack", "switch-hands-ante") else "deal"

            for when in ("deal", "axman", "end"):
                seats = [e.seat or 0 for e in r.settlements() if moment(e.wager or "") == when]
                assert seats == sorted(seats, reverse=True)

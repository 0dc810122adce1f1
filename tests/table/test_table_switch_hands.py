"""Switch Hands and Blackjack Premium rounds through the table engine (58 Pa. Code § 633b.4), and the
players' Blackjack decisions (§§ 633a.9–633a.11). Every expected amount is worked by hand from
the section's pays in the comment beside it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import parse_card
from croupier.errors import (
    CardError,
    CroupierError,
    InputError,
    ProcedureError,
    RulesError,
    ShoeError,
    SubmissionError,
)
from croupier.table import DealtCards, TableRound, submission_from_data
from croupier.table.record import settle_file, settle_record
from croupier.table.round import Action, Phase, settled_net
from croupier.table.submission import RulesSubmission, check_file
from croupier.table.training import play_hands, random_rounds
from repo_paths import ROOT

EXAMPLES = ROOT / "examples"


def table(**options: Any) -> RulesSubmission:
    data: dict[str, Any] = {
        "game": "blackjack",
        "decks": 6,
        "dealer": "S17",
        "switch_hands": True,
        "wagers": [{"wager": "blackjack", "min": "$5", "max": "$1,000"}],
    }
    data.update(options)
    return submission_from_data(data, "test")


def dealt(sub: RulesSubmission, bets: dict[int, tuple[int, int]], **cards: Any) -> TableRound:
    r = TableRound.open(sub)
    for seat, (wager, ante) in bets.items():
        r = r.bet(seat, "blackjack", wager)
        if ante:
            r = r.bet(seat, "switch-hands-ante", ante)
    return r.no_more_bets().deal(DealtCards.parse(**cards))


def nets(r: TableRound) -> list[tuple[int | None, str | None, int | None]]:
    return [(e.seat, e.wager, e.win_cents) for e in r.settlements()]


# -- the cases: a switched suited Blackjack, a tie Blackjack -------------------------------


def test_the_example_round() -> None:
    r = settle_file(EXAMPLES / "rounds" / "switch-hands.json")
    # seat 6 keeps Q♥7♣ (17), stands, the dealer busts: +$100, Ante −$20
    # seat 4 keeps 8♠8♣, splits ($50 more), 8♠3♥ doubles ($50) to 20, 8♣K♣ stands on 18: +$100 +$50,
    #   Ante −$10; its Perfect Pairs $5 on two black eights is a Colored Pair, 12 to 1: +$60
    # seat 2 switches to A♥K♦: a same-colour Blackjack after a switch pays 2 to 1: +$50, Ante −$5
    assert nets(r) == [
        (4, "perfect-pairs", 6000),
        (6, "switch-hands-ante", -2000),
        (6, "blackjack", 10_000),
        (4, "switch-hands-ante", -1000),
        (4, "blackjack", 10_000),
        (4, "blackjack", 5000),
        (2, "switch-hands-ante", -500),
        (2, "blackjack", 5000),
    ]
    assert settled_net(r.events) == 32_500
    moves = [e.action for e in r.events if e.action in (Action.SWITCH, Action.KEEP)]
    assert moves == [Action.KEEP, Action.KEEP, Action.SWITCH]  # seats 6, 4, 2: from the right


@pytest.mark.parametrize(
    ("switched", "same_suit", "want"),
    [
        (True, True, 2 * 2500),  # § 633b.4(i)(2)(i): same suit, 2 to 1
        (True, False, 2 * 2500),  # same colour (hearts and diamonds), 2 to 1
        (False, True, 3750),  # kept: (i)(1), 3 to 2
    ],
)
def test_switched_suited_blackjack_pays_2_to_1(switched: bool, same_suit: bool, want: int) -> None:
    bj = "Ah Kh" if same_suit else "Ah Kd"
    face_up, face_down = ("9c 7s", bj) if switched else (bj, "9c 7s")
    r = dealt(
        table(), {3: (2500, 500)}, players={3: face_up}, switch_cards={3: face_down}, dealer="Ts 8c"
    )
    r = (r.switch(3) if switched else r.keep(3)).settle()
    assert nets(r) == [(3, "switch-hands-ante", -500), (3, "blackjack", want)]


def test_a_black_and_red_blackjack_after_a_switch_pays_3_to_2() -> None:
    r = dealt(
        table(), {3: (2500, 500)}, players={3: "9c 7s"}, switch_cards={3: "Ac Kd"}, dealer="Ts 8c"
    )
    assert nets(r.switch(3).settle())[-1] == (3, "blackjack", 3750)


@pytest.mark.parametrize(
    ("options", "switched", "want"),
    [
        ({"tie_blackjack_pays": True}, True, 1250),  # (i)(2)(ii): 1 to 2 on $25
        ({"tie_blackjack_pays": True}, False, 0),  # kept: (i)(1) has no tie pay, a push
        ({}, True, 0),  # the submission does not say so: a push
    ],
)
def test_tie_blackjack_at_switch_hands(options: dict[str, Any], switched: bool, want: int) -> None:
    face_up, face_down = ("9c 7s", "As Qs") if switched else ("As Qs", "9c 7s")
    r = dealt(
        table(**options),
        {3: (2500, 500)},
        players={3: face_up},
        switch_cards={3: face_down},
        dealer="Ah Kd",
    )
    r = (r.switch(3) if switched else r.keep(3)).settle()
    assert nets(r) == [(3, "switch-hands-ante", -500), (3, "blackjack", want)]


def test_blackjack_premium_pays_every_tie_blackjack_1_to_2() -> None:
    premium = table(switch_hands=False, blackjack_premium=True)
    # seat 1 plays only Blackjack ($12, no Ante, § 633b.4(k)); seat 2 places the Ante and keeps
    r = dealt(
        premium,
        {1: (1200, 0), 2: (2000, 400)},
        players={1: "Ac Kc", 2: "Kh Ad"},
        switch_cards={2: "5c 5d"},
        dealer="As Js",
    )
    with pytest.raises(RulesError, match=r"633b\.4\(k\)"):
        r.switch(1)
    r = r.keep(2)
    # the dealer's Blackjack ends the round at the peek: no card is drawn
    with pytest.raises(ProcedureError, match="peek"):
        r.stand(1)
    # (o): a tie Blackjack 1 to 2 for both — $6 on $12, $10 on $20; the Ante is lost
    assert nets(r.settle()) == [
        (2, "switch-hands-ante", -400),
        (2, "blackjack", 1000),
        (1, "blackjack", 600),
    ]


# -- wagers: § 633b.4(b), (c), (k) -----------------------------------------------------------------


def test_the_ante_and_the_5_dollar_increments() -> None:
    sh = table()
    with pytest.raises(RulesError, match=r"\$5 increments.*633b\.4\(b\)"):
        TableRound.open(sh).bet(1, "blackjack", 1200)
    r = TableRound.open(sh).bet(1, "blackjack", 2500)
    with pytest.raises(RulesError, match=r"\$5.*on \$25.*633b\.4\(c\)"):
        r.bet(1, "switch-hands-ante", 600)
    with pytest.raises(RulesError, match=r"633b\.4\(c\)"):
        r.no_more_bets()  # no Ante at a Switch Hands table
    with pytest.raises(ProcedureError, match=r"633b\.4\(c\)"):
        TableRound.open(sh).bet(2, "switch-hands-ante", 100)  # the Ante comes with the wager
    premium = table(switch_hands=False, blackjack_premium=True)
    odd = TableRound.open(premium).bet(1, "blackjack", 1200)  # a plain player: any amount
    with pytest.raises(RulesError, match=r"633b\.4\(b\)"):
        odd.bet(1, "switch-hands-ante", 240)  # an Ante player wagers in $5 increments
    plain = table(switch_hands=False)
    with pytest.raises(ProcedureError, match=r"633b\.4\(a\)"):
        TableRound.open(plain).bet(1, "blackjack", 1000).bet(1, "switch-hands-ante", 200)


def test_switch_hands_cards_go_to_ante_players() -> None:
    r = TableRound.open(table()).bet(1, "blackjack", 1000).bet(1, "switch-hands-ante", 200)
    with pytest.raises(CardError, match=r"633b\.4\(d\)"):
        r.no_more_bets().deal(DealtCards.parse(players={1: "9c 7s"}, dealer="Ts 8c"))
    plain = TableRound.open(table(switch_hands=False)).bet(1, "blackjack", 1000).no_more_bets()
    with pytest.raises(CardError, match="no Switch Hands cards"):
        plain.deal(
            DealtCards.parse(players={1: "9c 7s"}, switch_cards={1: "2c 3c"}, dealer="Ts 8c")
        )


# -- the order of the round -------------------------------------------------------------------------


def test_the_order_of_the_switch_and_of_play() -> None:
    r = dealt(
        table(),
        {1: (1000, 200), 4: (1000, 200)},
        players={1: "9c 7s", 4: "Th 6h"},
        switch_cards={1: "5c 5d", 4: "8d 8h"},
        dealer="7d Ts",
    )
    with pytest.raises(
        ProcedureError, match=r"seat 1 cannot keep yet: seat 4 is asked first.*633b\.4\(f\)"
    ):
        r.keep(1)
    r = r.switch(4)
    with pytest.raises(ProcedureError, match=r"seat 1 has not chosen.*633b\.4\(f\)"):
        r.hit(4, parse_card("2c"))  # no card is dealt before every player has chosen
    with pytest.raises(ProcedureError, match=r"633b\.4\(f\)"):
        r.settle()
    r = r.keep(1)
    with pytest.raises(
        ProcedureError, match=r"seat 4 cannot stand yet: seat 1 plays first.*633a\.7"
    ):
        r.stand(4)
    with pytest.raises(ProcedureError, match=r"seat 1's hand is not finished"):
        r.settle()
    r = r.hit(1, parse_card("Kd"))  # 9♣7♠K♦ busts: the turn passes to seat 4
    r = r.split(4).hit(4, parse_card("3c")).double(4, 500, parse_card("9c"))  # 8♦3♣9♣ = 20
    r = r.hit(4, parse_card("9h"))  # 8♥9♥ = 17: a hand under 21 ends only when it stands
    with pytest.raises(ProcedureError, match="seat 4's hand is not finished"):
        r.settle()
    # against the dealer's 17: seat 4's 20 doubled for $5 wins $15, its 17 pushes; seat 1 busts
    assert nets(r.stand(4).settle()) == [
        (4, "switch-hands-ante", -200),
        (4, "blackjack", 1500),
        (4, "blackjack", 0),
        (1, "switch-hands-ante", -200),
        (1, "blackjack", -1000),
    ]


def test_a_hand_ends_at_21_a_bust_a_double_or_a_stand() -> None:
    r = dealt(
        table(switch_hands=False),
        {1: (1000, 0), 2: (1000, 0)},
        players={1: "9c 7s", 2: "Th 6h"},
        dealer="7d Ts",
    )
    r = r.hit(1, parse_card("5d"))  # 21: seat 1 is done without a stand
    with pytest.raises(ProcedureError, match=r"seat 1 cannot hit \(seat 2 plays now"):
        r.hit(1, parse_card("2d"))
    r = r.hit(2, parse_card("2d")).stand(2).settle()
    # seat 2: 18 beats 17, +$10; seat 1: 21 beats 17, +$10 (§ 633a: 1 to 1)
    assert nets(r) == [(2, "blackjack", 1000), (1, "blackjack", 1000)]


# -- §§ 633a.9–633a.11: what each move may do ------------------------------------------------------


def test_surrender_where_offered_on_the_initial_two_cards() -> None:
    cards = {"players": {1: "Th 6h"}, "switch_cards": {1: "Tc 6c"}, "dealer": "Ad 9s"}
    r = dealt(table(), {1: (2500, 500)}, **cards).keep(1)
    with pytest.raises(RulesError, match=r"does not offer surrender.*633a\.9"):
        r.surrender(1)
    r = dealt(table(late_surrender=True), {1: (2500, 500)}, **cards).switch(1)
    with pytest.raises(RulesError, match=r"initial two cards or the Switch Hand.*633b\.4\(h\)"):
        r.hit(1, parse_card("2c")).surrender(1)
    # the Switch Hand surrendered: $12.50 of $25 back; the Ante is lost
    assert nets(r.surrender(1).settle()) == [
        (1, "switch-hands-ante", -500),
        (1, "blackjack", -1250),
    ]


def test_doubling_rules() -> None:
    no_das = table(double_after_split=False)
    r = dealt(
        no_das, {1: (1000, 200)}, players={1: "8c 8s"}, switch_cards={1: "2c 3c"}, dealer="6d Ts 2h"
    )
    r = r.keep(1).split(1).hit(1, parse_card("3h"))
    with pytest.raises(RulesError, match=r"no double down after a split.*633a\.10"):
        r.double(1, None, parse_card("Td"))
    with pytest.raises(RulesError, match=r"up to the hand's wager.*633a\.10"):
        dealt(table(), {1: (1000, 200)}, players={1: "6c 5s"}, switch_cards={1: "2c 3c"},
              dealer="6d Ts 2h").keep(1).double(1, 1500, parse_card("Td"))  # fmt: skip
    r = dealt(
        table(),
        {1: (1000, 200)},
        players={1: "6c 3s"},
        switch_cards={1: "2c 3c"},
        dealer="6d Ts 2h",
    )
    r = r.keep(1).hit(1, parse_card("2d"))
    with pytest.raises(RulesError, match=r"first two cards.*633a\.10"):
        r.double(1, None, parse_card("Td"))
    # doubling for less: $4 on a $10 wager; 6♣5♠T♦ = 21 beats the dealer's 16+K = bust
    r = dealt(
        table(),
        {1: (1000, 200)},
        players={1: "6c 5s"},
        switch_cards={1: "2c 3c"},
        dealer="6d Ts Kd",
    )
    r = r.keep(1).double(1, 400, parse_card("Td")).settle()
    assert nets(r) == [(1, "switch-hands-ante", -200), (1, "blackjack", 1400)]


def test_splitting_rules() -> None:
    two = table(split_hands=2)
    r = dealt(
        two, {1: (1000, 200)}, players={1: "8c 8s"}, switch_cards={1: "2c 3c"}, dealer="6d Ts 2h"
    )
    r = r.keep(1).split(1).hit(1, parse_card("8d"))
    with pytest.raises(RulesError, match=r"at most 2 hands.*633a\.11"):
        r.split(1)
    with pytest.raises(RulesError, match=r"not a pair.*633a\.11"):
        dealt(table(), {1: (1000, 200)}, players={1: "8c 9s"}, switch_cards={1: "2c 3c"},
              dealer="6d Ts 2h").keep(1).split(1)  # fmt: skip
    # aces: one card each, not split again (the defaults)
    r = dealt(
        table(),
        {1: (1000, 200)},
        players={1: "Ac As"},
        switch_cards={1: "2c 3c"},
        dealer="6d Ts 2h",
    )
    r = r.keep(1).split(1).hit(1, parse_card("Ad"))
    # A♣A♦ took its one card and is over; the turn is the second ace's, a single card
    with pytest.raises(RulesError, match=r"hand 2: As is not a pair.*633a\.11"):
        r.split(1)
    hits = table(hit_split_aces=True)
    h = dealt(
        hits, {1: (1000, 200)}, players={1: "Ac As"}, switch_cards={1: "2c 3c"}, dealer="6d Ts 2h"
    )
    h = h.keep(1).split(1).hit(1, parse_card("Ad"))
    with pytest.raises(RulesError, match=r"split aces are not split again.*633a\.11"):
        h.split(1)
    h.hit(1, parse_card("5c"))  # hitting split aces, where the table allows it
    r = r.hit(1, parse_card("Kd"))  # the first ace's hand is over (A♣A♦): the second takes K♦
    with pytest.raises(ProcedureError, match="every player's hand is finished"):
        r.hit(1, parse_card("5d"))
    # A♣A♦ = 12 loses to the dealer's 18; A♠K♦ after a split is 21, not a Blackjack: 1 to 1
    assert nets(r.settle()) == [
        (1, "switch-hands-ante", -200),
        (1, "blackjack", -1000),
        (1, "blackjack", 1000),
    ]
    # re-split aces where the table allows, up to three hands
    resplit = table(split_hands=3, resplit_aces=True)
    r = dealt(
        resplit,
        {1: (1000, 200)},
        players={1: "Ac As"},
        switch_cards={1: "2c 3c"},
        dealer="6d Ts 2h",
    )
    r = r.keep(1).split(1).hit(1, parse_card("Ad")).split(1)
    r = r.hit(1, parse_card("9d")).hit(1, parse_card("9h")).hit(1, parse_card("9s"))
    # A♣9♦, A♦9♥, A♠9♠: three 20s against 18: +$10 each
    assert nets(r.settle())[1:] == [(1, "blackjack", 1000)] * 3


def test_a_rejected_move_changes_nothing() -> None:
    one_deck = table(decks=1)
    r = dealt(
        one_deck,
        {1: (1000, 200)},
        players={1: "As 2c"},
        switch_cards={1: "2d 3d"},
        dealer="6d Ts 2h",
    ).keep(1)
    before = r
    with pytest.raises(ShoeError):
        r.hit(1, parse_card("As"))  # a second ace of spades in a one-deck shoe
    with pytest.raises(RulesError):
        r.double(1, 5000, parse_card("9c"))
    assert r == before and r.events == before.events


def test_a_recorded_move_names_its_card() -> None:
    r = dealt(
        table(),
        {1: (1000, 200)},
        players={1: "9c 2s"},
        switch_cards={1: "2d 3d"},
        dealer="6d Ts 2h",
    ).keep(1)
    with pytest.raises(InputError, match="name the card"):
        r.hit(1)


# -- the submission -----------------------------------------------------------------------------


def test_submission_options_are_checked(tmp_path: Path) -> None:
    base = 'game = "blackjack"\ndecks = 6\ndealer = "S17"\n'
    wagers = '[[wagers]]\nwager = "blackjack"\nmin = "$5"\nmax = "$500"\n'
    cases = {
        "switch_hands = true\nblackjack_premium = true\n": r"633b\.4\(k\)",
        "tie_blackjack_pays = true\n": r"633b\.4\(i\)\(2\)\(ii\)",
        "blackjack_premium = true\ntie_blackjack_pays = false\n": r"633b\.4\(o\)",
        "split_hands = 2\nresplit_aces = true\n": r"633a\.11",
    }
    for options, section in cases.items():
        path = tmp_path / "s.toml"
        path.write_text(base + options + wagers, encoding="utf-8")
        problems = check_file(path)
        assert len(problems) == 1 and problems[0].section is not None, (options, problems)
        with pytest.raises(SubmissionError, match=section):
            from croupier.table import load_submission

            load_submission(path)
    path = tmp_path / "b.toml"
    path.write_text(
        'game = "baccarat"\ndecks = 8\nlate_surrender = true\n[[wagers]]\nwager = "player"\n'
        'paytable = "standard"\nmin = "$5"\nmax = "$500"\n',
        encoding="utf-8",
    )
    assert ["Blackjack options" in v.message for v in check_file(path)] == [True]


def test_the_example_submissions_are_valid() -> None:
    for name in ("switch-hands-6deck", "blackjack-premium-8deck"):
        assert check_file(EXAMPLES / "submissions" / f"{name}.toml") == ()


# -- training rounds ----------------------------------------------------------------------------


def test_training_rounds_play_every_hand_to_a_settlement() -> None:
    from croupier.table import load_submission

    for name in ("switch-hands-6deck", "blackjack-premium-8deck", "blackjack-6deck"):
        sub = load_submission(EXAMPLES / "submissions" / f"{name}.toml")
        for r in random_rounds(sub, 1, 40):
            bets = {(b.seat, b.wager): b.amount_cents for b in r.bets}
            settled = [e for e in r.settlements() if e.wager == "blackjack"]
            assert {e.seat for e in settled} == {s for s, w in bets if w == "blackjack"}
            # every Blackjack settlement is the stake times a pay the sections print
            for e in settled:
                assert e.amount_cents is not None and e.win_cents is not None
                ratio = Fraction(e.win_cents, e.amount_cents)
                assert ratio in {Fraction(p) for p in ("-1", "-1/2", "0", "1/2", "1", "3/2", "2")}


def test_a_record_file_round_trips_its_steps() -> None:
    data: dict[str, Any] = {
        "submission": {
            "game": "blackjack", "decks": 6, "dealer": "S17", "switch_hands": True,
            "tie_blackjack_pays": True,
            "wagers": [{"wager": "blackjack", "min": "$5", "max": "$500"}],
        },
        "steps": [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "switch-hands-ante", "amount": "$2"},
            {"action": "deal", "players": {"1": "9c 7d"}, "switch_cards": {"1": "Ad Jd"},
             "dealer": "Ac Kh"},
            {"action": "switch", "seat": 1},
        ],
    }  # fmt: skip
    r = settle_record(data)
    # a suited Blackjack after a switch, tied by the dealer: 1 to 2 ((i)(2)(ii)): +$5, Ante −$2
    assert nets(r) == [(1, "switch-hands-ante", -200), (1, "blackjack", 500)]
    data["steps"].append({"action": "hit", "seat": 1, "card": "2c"})
    with pytest.raises(ProcedureError, match="peek"):
        settle_record(data)


# -- any sequence of moves ------------------------------------------------------------------------

MOVES = ("switch", "keep", "hit", "stand", "double", "split", "surrender", "settle")


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(["switch-hands", "premium", "plain"]),
    moves=st.lists(st.tuples(st.sampled_from(MOVES), st.integers(1, 4)), max_size=30),
)
def test_any_move_is_made_or_refused_with_nothing_changed(
    seed: int, kind: str, moves: list[tuple[str, int]]
) -> None:
    choices: dict[str, dict[str, Any]] = {
        "switch-hands": {"late_surrender": True},
        "premium": {"switch_hands": False, "blackjack_premium": True, "resplit_aces": True},
        "plain": {"switch_hands": False, "hit_split_aces": True, "split_hands": 3},
    }
    sub = table(**choices[kind])
    r = TableRound.open(sub)
    for seat in (1, 3, 4):
        r = r.bet(seat, "blackjack", 1000 * seat)
        if kind == "switch-hands" or (kind == "premium" and seat != 3):
            r = r.bet(seat, "switch-hands-ante", 200 * seat)
    r = r.no_more_bets().deal_shoe(seed)
    for move, seat in moves:
        before = r
        try:
            if move == "settle":
                r = r.settle()
                break
            r = getattr(r, move)(seat)
        except CroupierError:
            assert r is before
            continue
        assert len(r.events) == len(before.events) + 1
    if r.phase is not Phase.SETTLED:  # finish the round by the training rule
        r = play_hands(r).settle()
    # every Blackjack line is the hand's stake times a printed pay; every Ante is lost
    for e in r.settlements():
        assert e.amount_cents is not None and e.win_cents is not None
        if e.wager == "switch-hands-ante":
            assert e.win_cents == -e.amount_cents
        else:
            assert Fraction(e.win_cents, e.amount_cents) in {
                Fraction(p) for p in ("-1", "0", "1", "3/2", "2", "1/2")
            } or e.win_cents == -(e.amount_cents - e.amount_cents // 2)


def test_the_premium_example_and_several_files_at_once() -> None:
    from typer.testing import CliRunner

    from croupier.cli import app

    r = settle_file(EXAMPLES / "rounds" / "blackjack-premium.json")
    # seat 5 keeps 8♥5♦, draws to 19 against 18: +$15, Ante −$3; seat 3 switches to K♥A♦, a
    # same-colour Blackjack 2 to 1 ((o)): +$40, Ante −$4; seat 1 (no Ante) surrenders $12: −$6
    assert settled_net(r.events) == 1500 - 300 + 4000 - 400 - 600
    runner = CliRunner()
    files = [str(EXAMPLES / "rounds" / "blackjack-premium.json")]
    files.append(str(EXAMPLES / "broken" / "late-progressive.json"))
    res = runner.invoke(app, ["settle", *files])
    # the good file is settled and shown; the broken one is one line naming file, step, section
    assert res.exit_code == 2
    assert "players' net +$42" in res.stdout
    assert "late-progressive.json: step 3 (bet):" in res.stderr and "§ 633b.2(d)(2)" in res.stderr

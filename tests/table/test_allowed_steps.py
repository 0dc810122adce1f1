"""``allowed`` is exactly what the round would accept now, the round says who acts next (seat and
hand), and a refusal names the same truth (a fresh user's trial, item 1).

The trial, at a six-deck Blackjack table without surrender: after the deal every answer listed
``double, hit, split, stand, surrender``; after ``hit`` seat 1 ``5c``, ``double`` was refused
(§ 633a.10), ``split`` of 9h 2c 5c refused (§ 633a.11) and ``surrender`` refused (§ 633a.9); the
refusal of a second ``deal`` listed keep and switch, Switch Hands' decisions, at a plain table.

Every expected set is worked from the regulation's text in the comments: a double down is made
on the first two cards (§ 633a.10); a split needs two cards of equal value (§ 633a.11); late
surrender, where the table offers it, is of the initial two cards only (§ 633a.9); a hand made
by a split takes its second card before anything else, and a split ace takes one card
(§ 633a.11); the players act from seat 1 (§ 633a.7), the Switch Hands choice is asked from the
highest seat (§ 633b.4(f)); the dealer draws to 16 and stands on 17 (§ 633a.7, S17).

The last test walks random rounds of every example table and checks ``allowed`` against every
step of a broad grid of seats, amounts and cards, tried one by one (``can``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from croupier.cards import Card
from croupier.errors import ProcedureError, RulesError
from croupier.table.actions import (
    Deal,
    DealerDraw,
    DealShoe,
    Double,
    Fold,
    Hit,
    Keep,
    NoMoreBets,
    PlaceBet,
    PlayWager,
    Settle,
    Split,
    Stand,
    Surrender,
    Switch,
    TableAction,
    allowed,
    can,
)
from croupier.table.procedure import DECISIONS, PROCEDURE, Action, Phase
from croupier.table.round import DealtCards, TableRound
from croupier.table.submission import RulesSubmission, load_submission, submission_from_data
from repo_paths import ROOT

SUBMISSIONS = ROOT / "examples" / "submissions"


def blackjack(**options: Any) -> RulesSubmission:
    """A six-deck S17 Blackjack table, $10–$500 (no surrender unless ``options`` say so)."""
    return submission_from_data(
        {
            "game": "blackjack",
            "decks": 6,
            "dealer": "S17",
            **options,
            "wagers": [{"wager": "blackjack", "min": "$10", "max": "$500"}],
        },
        "test",
    )


def kinds(r: TableRound) -> set[str]:
    return {a.value for a in allowed(r)}


def turns(r: TableRound) -> list[tuple[int, int | None, int, str, set[str]]]:
    return [
        (t.seat, t.hand, t.hands, " ".join(map(str, t.cards)), {a.value for a in t.actions})
        for t in r.turns()
    ]


def dealt(sub: RulesSubmission, players: dict[int, str], dealer: str, **kw: Any) -> TableRound:
    """$10 on Blackjack at each seat of ``players``, dealt, played step by step."""
    r = TableRound.open(sub, step_by_step=True)
    for seat in sorted(players):
        r = r.bet(seat, "blackjack", 1000)
    return r.no_more_bets().deal(DealtCards.parse(players=players, dealer=dealer, **kw))


# -- the trial's round ------------------------------------------------------------------------


def test_the_trial_round_allows_only_what_it_accepts() -> None:
    r = dealt(blackjack(), {1: "9h 2c", 3: "Th 7c"}, "7h 9c")
    # 9h 2c: two cards, so a double (§ 633a.10); 9 and 2 differ, no split (§ 633a.11); the
    # table offers no surrender (§ 633a.9); seat 1 acts first (§ 633a.7)
    assert kinds(r) == {"double", "hit", "stand"}
    assert turns(r) == [(1, 1, 1, "9h 2c", {"double", "hit", "stand"})]
    r = r.hit(1, "5c")  # 9 + 2 + 5 = 16
    assert kinds(r) == {"hit", "stand"}  # three cards: no double; still no pair
    assert turns(r) == [(1, 1, 1, "9h 2c 5c", {"hit", "stand"})]
    # each action left out is one the round refuses, with its section
    refusals: tuple[tuple[Callable[[], object], str], ...] = (
        (lambda: r.double(1, None, "2d"), "633a.10"),
        (lambda: r.split(1), "633a.11"),
        (lambda: r.surrender(1), "633a.9"),
    )
    for step, section in refusals:
        with pytest.raises(RulesError) as exc:
            step()
        assert exc.value.section == section
    with pytest.raises(ProcedureError, match="seat 3 cannot stand yet: seat 1 plays first"):
        r.stand(3)
    # a refusal lists the same truth: no keep or switch at a plain table, and who acts
    with pytest.raises(ProcedureError) as refused:
        r.deal(DealtCards.parse(players={1: "9h 2c", 3: "Th 7c"}, dealer="7h 9c"))
    assert str(refused.value).startswith(
        "deal is not allowed once the cards are dealt (allowed: hit, stand; to act: seat 1 "
        "(9h 2c 5c): hit or stand)"
    )
    # the dealer's draw and the settlement, refused while seat 1 plays, name its real choices
    waiting: tuple[Callable[[], object], ...] = (lambda: r.dealer_draw(["2c"]), r.settle)
    for step in waiting:
        with pytest.raises(ProcedureError, match=r"seat 1's hand is not finished: hit or stand"):
            step()
    r = r.stand(1)
    assert turns(r) == [(3, 1, 1, "Th 7c", {"double", "hit", "stand"})]  # 17: any of them
    r = r.stand(3)
    # every hand stood: 7h 9c is 16, the dealer must draw (§ 633a.7), nothing else
    assert kinds(r) == {"dealer-draw"} and turns(r) == []
    r = r.dealer_draw(["Ts"])  # 26: busts
    assert kinds(r) == {"settle"}
    assert kinds(r.settle()) == set()


def test_a_pair_splits_and_each_split_hand_is_offered_its_own_moves() -> None:
    sub = blackjack(late_surrender=True, double_after_split=False, split_hands=4)
    r = dealt(sub, {1: "8s 8d"}, "9c 7d")
    # a pair on the initial two cards at a table offering surrender: every move
    assert kinds(r) == {"double", "hit", "split", "stand", "surrender"}
    r = r.split(1)
    # hand 1 of 2 holds 8s alone: it takes its second card first (§ 633a.11) — no stand, no
    # double (not two cards), no split (one card), no surrender (not the initial two cards)
    assert turns(r) == [(1, 1, 2, "8s", {"hit"})]
    with pytest.raises(ProcedureError, match="takes its second card first"):
        r.stand(1)
    r = r.hit(1, "3c")  # 8 3 = 11 on a split hand
    # no double after a split at this table (§ 633a.10), no surrender after a split (§ 633a.9)
    assert turns(r) == [(1, 1, 2, "8s 3c", {"hit", "stand"})]
    with pytest.raises(RulesError, match="no double down after a split"):
        r.double(1, None, "Tc")
    r = r.stand(1)
    assert turns(r) == [(1, 2, 2, "8d", {"hit"})]
    r = r.hit(1, "8h")  # another 8: split again, up to four hands (§ 633a.11)
    assert turns(r) == [(1, 2, 2, "8d 8h", {"hit", "split", "stand"})]
    with pytest.raises(ProcedureError) as exc:
        r.settle()
    assert "seat 1's hand is not finished (hand 2 of 2): hit, split or stand" in str(exc.value)


def test_split_aces_take_one_card_each() -> None:
    r = dealt(blackjack(split_hands=4), {1: "As Ad"}, "9c 7d").split(1)
    assert turns(r) == [(1, 1, 2, "As", {"hit"})]
    r = r.hit(1, "Kc")  # a split ace takes one card (§ 633a.11): hand 1 is done
    assert turns(r) == [(1, 2, 2, "Ad", {"hit"})]
    r = r.hit(1, "5h")
    assert turns(r) == [] and kinds(r) == {"dealer-draw"}  # 9 7 = 16: the dealer draws


def test_the_switch_hands_choice_comes_first_from_the_highest_seat() -> None:
    sub = load_submission(SUBMISSIONS / "switch-hands-6deck.toml")  # late surrender offered
    r = TableRound.open(sub, step_by_step=True)
    r = r.bet(1, "blackjack", 1000).bet(3, "blackjack", 1000)
    assert kinds(r) == {"bet"}  # each Switch Hands player owes the Ante first (§ 633b.4(c))
    with pytest.raises(RulesError, match="Switch Hands Ante"):
        r.no_more_bets()
    r = r.bet(1, "switch-hands-ante", 200).bet(3, "switch-hands-ante", 200)
    assert kinds(r) == {"bet", "no-more-bets"}
    r = r.no_more_bets().deal(
        DealtCards.parse(
            players={1: "9h 2c", 3: "Th 7c"},
            switch_cards={1: "5s 5d", 3: "Ah Kh"},
            dealer="7h 9c",
        )
    )
    # § 633b.4(f): the dealer asks from the player farthest to the dealer's right: seat 3
    assert kinds(r) == {"keep", "switch"}
    assert turns(r) == [(3, None, 1, "Th 7c", {"keep", "switch"})]
    r = r.switch(3)
    assert turns(r) == [(1, None, 1, "9h 2c", {"keep", "switch"})]
    r = r.switch(1)  # seat 1 plays 5s 5d: a pair of the initial two cards, surrender offered
    assert turns(r) == [(1, 1, 1, "5s 5d", {"double", "hit", "split", "stand", "surrender"})]


def test_betting_allows_what_it_accepts() -> None:
    r = TableRound.open(blackjack(), step_by_step=True)
    assert kinds(r) == {"bet"}  # no wager yet: "No more bets" is refused
    with pytest.raises(ProcedureError, match="no wager has been placed"):
        r.no_more_bets()
    with pytest.raises(ProcedureError) as exc:
        r.deal(DealtCards.parse(players={1: "9h 2c"}, dealer="7h 9c"))
    assert "(allowed: bet)" in str(exc.value)
    r = r.bet(1, "blackjack", 1000)
    assert kinds(r) == {"bet", "no-more-bets"}
    assert kinds(r.no_more_bets()) == {"deal"}


def test_four_card_poker_waits_for_every_ante_to_play_or_fold() -> None:
    sub = load_submission(SUBMISSIONS / "four-card-poker.toml")
    r = TableRound.open(sub).bet(1, "four-card-poker", 1000).bet(2, "four-card-poker", 1000)
    r = r.no_more_bets().deal(
        DealtCards.parse(
            players={1: "9h 9c 9d Ks 2s", 2: "4c 5d 7h Jc Qs"},
            dealer="Ah Ad 7c 7s 3d 4h",
            bonus="2h",
        )
    )
    # both Antes must play (one to three times) or fold before the settlement (§ 641a.7(d)(1))
    assert kinds(r) == {"fold", "play"}
    assert [(s, h, a) for s, h, _, _, a in turns(r)] == [
        (1, None, {"fold", "play"}),
        (2, None, {"fold", "play"}),
    ]
    r = r.play(1, 3000)
    assert [s for s, *_ in turns(r)] == [2]
    r = r.fold(2)
    assert kinds(r) == {"settle"} and turns(r) == []


def test_criss_cross_poker_may_fold_or_settle() -> None:
    sub = load_submission(SUBMISSIONS / "criss-cross-poker.toml")
    r = TableRound.open(sub, base_game="external")
    r = r.bet(1, "criss-cross", 1000).bet(2, "criss-cross", 1000)
    r = r.no_more_bets().deal(DealtCards.parse(players={1: "Ah Kd", 2: "7c 2s"}))
    assert kinds(r) == {"fold", "settle"}  # a fold is the player's choice (§ 674b.1(c))
    r = r.fold(2)
    assert [(s, a) for s, _, _, _, a in turns(r)] == [(1, {"fold"})]


def test_baccarat_settles_after_the_coup() -> None:
    sub = load_submission(SUBMISSIONS / "baccarat-8deck.toml")
    r = TableRound.open(sub).bet(1, "banker", 2500).no_more_bets()
    r = r.deal(DealtCards.parse(coup="Ks 4h 2d Qc 3h 3s"))
    assert kinds(r) == {"settle"} and turns(r) == []


# -- every example table: allowed against a grid of steps --------------------------------------

CARDS = tuple(Card.from_index(i) for i in (8, 25, 51))
"""A few cards of different ranks and suits to try every drawing step with."""


def candidates(r: TableRound, kind: Action) -> list[TableAction]:
    """Steps of ``kind`` over every seat and a grid of amounts and cards."""
    sub = r.submission
    seats = range(1, sub.seats + 1)
    if kind is Action.BET:
        out: list[TableAction] = []
        for w in sub.wagers:
            amounts = {*w.amounts_cents, w.min_cents or 100}
            amounts |= {a - a % 500 + 500 for a in amounts}  # Switch Hands: $5 steps
            out += [PlaceBet(s, w.wager, a) for s in seats for a in sorted(amounts)]
        for s in seats:
            base = r.seat_bets(s).get("blackjack")
            if base is not None and sub.variant is not None:
                out.append(PlaceBet(s, "switch-hands-ante", base // 5))
        return out
    simple: dict[Action, list[TableAction]] = {
        Action.NO_MORE_BETS: [NoMoreBets()],
        Action.DEAL: [DealShoe(seed) for seed in range(3)] + pairs(r),
        Action.SETTLE: [Settle()],
        Action.DEALER_DRAW: [DealerDraw((c,)) for c in CARDS],
        Action.PLAY: [
            PlayWager(s, k * ante)
            for s in seats
            for ante in {r.seat_bets(s).get("four-card-poker", 1000)}
            for k in (1, 2, 3, 4)
        ],
        Action.FOLD: [Fold(s) for s in seats],
        Action.KEEP: [Keep(s) for s in seats],
        Action.SWITCH: [Switch(s) for s in seats],
        Action.STAND: [Stand(s) for s in seats],
        Action.SPLIT: [Split(s) for s in seats],
        Action.SURRENDER: [Surrender(s) for s in seats],
        Action.HIT: [Hit(s, c) for s in seats for c in CARDS],
        Action.DOUBLE: [Double(s, None, c) for s in seats for c in CARDS],
    }
    return simple[kind]


def pairs(r: TableRound) -> list[TableAction]:
    """At Blackjack, a deal of a pair to every seat (and Switch Hands cards to each Ante) against
    the dealer's 5h 6c, which must draw: so that the walks split and the dealer draws."""
    if r.game.value != "blackjack":
        return []
    ranks = "23456789TJQKA"
    players = {s: f"{ranks[s]}s {ranks[s]}d" for s in r.seats()}
    down = {
        s: f"{ranks[s]}h {ranks[s]}c" for s in r.seats() if "switch-hands-ante" in r.seat_bets(s)
    }
    return [Deal(DealtCards.parse(players=players, switch_cards=down, dealer="5h 6c"))]


STEP_KINDS = (
    Action.BET,
    Action.NO_MORE_BETS,
    Action.DEAL,
    Action.PLAY,
    Action.FOLD,
    Action.SWITCH,
    Action.KEEP,
    Action.HIT,
    Action.STAND,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
    Action.DEALER_DRAW,
    Action.SETTLE,
)


@pytest.mark.parametrize("step_by_step", [True, False])
@pytest.mark.parametrize("name", sorted(p.name for p in SUBMISSIONS.glob("*.toml")))
def test_allowed_is_what_some_step_would_do(name: str, step_by_step: bool) -> None:
    sub = load_submission(SUBMISSIONS / name)
    rng = random.Random(f"{name}/{step_by_step}")
    seen: set[Action] = set()
    for walk in range(4):
        # croupier settles every base game it can; Criss-Cross Poker's is external
        by = "croupier" if sub.base.croupier_settles else "external"
        r = TableRound.open(sub, step_by_step=step_by_step, base_game=by)
        for _ in range(100):
            says = allowed(r)
            taken: list[TableAction] = []
            for kind in STEP_KINDS:
                ok = [a for a in candidates(r, kind) if can(r, a)]
                assert (kind in says) == bool(ok), (name, kind, r.events[-1].detail)
                taken += ok
            # a player's decision accepted: the turn names its seat and kind
            acting = {(t.seat, a) for t in r.turns() for a in t.actions}
            for a in taken:
                seat = vars(a).get("seat")
                if a.kind in DECISIONS:
                    assert (seat, a.kind) in acting, (name, a)
            seen.update(a.kind for a in taken)
            if r.phase is Phase.SETTLED or not taken:
                break
            bets = [a for a in taken if a.kind is Action.BET]
            deals = [a for a in taken if a.kind is Action.DEAL]
            antes = [a for a in bets if vars(a).get("wager") == "switch-hands-ante"]
            if walk % 2 and (antes or deals):  # every other walk: Antes, and the pairs
                r = (antes or deals)[-1].apply(r)  # against a dealer who must draw
            elif bets and len(r.bets) < 5 and rng.random() < 0.7:
                r = rng.choice(bets).apply(r)
            else:
                others = [a for a in taken if a.kind is not Action.BET] or taken
                r = rng.choice(others).apply(r)
    # the walks met every kind of step the game has (so each was checked both ways)
    absent = set() if sub.variant is not None else {Action.KEEP, Action.SWITCH}
    absent |= set() if sub.play_rules.late_surrender else {Action.SURRENDER}
    assert seen == {k for phase in PROCEDURE[sub.game].values() for k in phase} - absent, name


def test_a_seat_whose_play_is_over_is_told_so_not_to_wait_its_turn() -> None:
    """Seat 2's Ac Kc is a Blackjack: it takes no decision (§ 633a.7), so a move for it is
    refused saying that — not that another seat plays first (a user trial's finding)."""
    r = dealt(blackjack(), {1: "Th 6c", 2: "Ac Kc", 5: "9h 7c"}, "7h 9c")
    r = r.stand(1)
    with pytest.raises(ProcedureError, match=r"seat 2 has a Blackjack \(Ac Kc\) and plays no more"):
        r.stand(2)
    with pytest.raises(
        ProcedureError, match=r"every hand of seat 1 is finished: seat 1 cannot hit \(seat 5 plays"
    ):
        r.hit(1, "2c")

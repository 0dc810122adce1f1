"""Random rounds for a dealer in training (``croupier play``): wagers placed at random within the
Rules Submission's limits, dealt from a seeded shoe, played and settled by the round procedure.

Players: one to three seats; each places the base wager at the table minimum and each offered side
wager with probability ½ (at its minimum, or the first progressive size). At Four Card Poker the
Play follows the optimal strategy reading the dealer's face-up card (§ 641a.7(d)(1)); at
Criss-Cross Poker a player folds one time in three, the Ultimate Pairs wager staying in action
(§ 674b.1(c)). At Blackjack the players play their hands by a simple rule (:func:`play_hands`),
and at a Switch Hands table place the Ante (at Blackjack Premium one player in two does). The
same seed gives the same rounds.
"""

from __future__ import annotations

import random

from croupier.cards import Rank
from croupier.games.blackjack import basic_hits, card_value, hand_total
from croupier.table.blackjack_play import BlackjackPlay, SeatPlay
from croupier.table.round import TableRound
from croupier.table.submission import RulesSubmission, TableGame
from croupier.wagers import get_wager
from croupier.wagers.base_games import BASE_GAMES, RECORDED_BASE
from croupier.wagers.four_card_poker import AntePlay
from croupier.wagers.switch_hands import ANTE_WAGER, Variant


def _amount(sub: RulesSubmission, wager: str) -> int:
    offered = sub.offered(wager)
    assert offered is not None
    if offered.amounts_cents:
        return offered.amounts_cents[0]
    assert offered.min_cents is not None
    return offered.min_cents


def random_round(sub: RulesSubmission, rng: random.Random) -> TableRound:
    """One settled random round at ``sub``'s table."""
    # croupier does not settle Criss-Cross Poker's base game: a training round there declares it
    # external (its Criss-Cross Poker wagers recorded as the base game's, with no win)
    r = TableRound.open(sub, base_game="croupier" if sub.base.croupier_settles else "external")
    seats = sorted(rng.sample(range(1, sub.seats + 1), rng.randint(1, min(3, sub.seats))))
    offered = [w.wager for w in sub.wagers]
    game = BASE_GAMES[sub.game]
    bases = [w for w in offered if w in game.base_wagers]
    for seat in seats:
        base = rng.choice(bases) if sub.game is TableGame.BACCARAT else bases[0]
        r = r.bet(seat, base, _amount(sub, base))
        if sub.variant is Variant.SWITCH_HANDS or (
            sub.variant is Variant.PREMIUM and rng.random() < 0.5
        ):
            r = r.bet(seat, ANTE_WAGER, r.seat_bets(seat)[game.base_wagers[0]] // 5)
        for wager in offered:
            if wager in game.base_wagers or rng.random() < 0.5:
                continue
            needs = () if wager in RECORDED_BASE else get_wager(wager).base_wagers
            if not needs or any(b in r.seat_bets(seat) for b in needs):
                r = r.bet(seat, wager, _amount(sub, wager))
    r = r.no_more_bets().deal_shoe(rng.randrange(2**32))
    assert r.cards is not None
    if sub.game is TableGame.FOUR_CARD_POKER:
        ante_id = game.decision_wager
        assert ante_id is not None
        ante_play = get_wager(ante_id)
        assert isinstance(ante_play, AntePlay)
        table = sub.offered(ante_id)
        strategy = ante_play.strategy(table.paytable if table else None)
        for seat in seats:
            ante = r.seat_bets(seat).get(ante_id)
            if ante is None:
                continue
            decision = strategy.decide_with_upcard(r.cards.hand(seat), r.cards.dealer[0])
            r = r.play(seat, decision.multiple * ante) if decision.multiple else r.fold(seat)
    elif sub.game is TableGame.BLACKJACK:
        r = play_hands(r)
    elif sub.game is TableGame.CRISS_CROSS_POKER:
        for seat in seats:
            if rng.random() < 1 / 3:
                r = r.fold(seat)
    return r.settle()


def keeps(seat: SeatPlay) -> bool:
    """The training player's switch decision (§ 633b.4(f)), a simple rule and not the optimal one
    (``croupier strategy switch-hands`` prints that): keep a Blackjack, a pair of aces, a total of
    10 or 11, or 18 and more; otherwise take the face-down pair."""
    a, b = seat.face_up
    t = hand_total(seat.face_up)
    return a.rank is b.rank is Rank.ACE or t.total in (10, 11) or t.total >= 18


def _play(r: TableRound) -> BlackjackPlay:
    assert r.blackjack is not None
    return r.blackjack


def play_hands(r: TableRound) -> TableRound:
    """Every switch decision, then every hand, by a simple rule (not the optimal strategy): split
    aces and eights; double 11 against 2–10 and 10 against 2–9; surrender hard 16 against 9, 10 or
    an ace where it is offered; otherwise hit or stand by
    :func:`~croupier.games.blackjack.basic_hits`. Cards come from the round's shuffled shoe."""
    assert r.blackjack is not None and r.cards is not None
    rules = r.blackjack.rules
    up = card_value(r.cards.dealer[0])
    while (asked := _play(r).to_ask()) is not None:
        r = r.keep(asked.seat) if keeps(asked) else r.switch(asked.seat)
    while (seat := _play(r).to_act()) is not None:
        i = seat.current(rules)
        assert i is not None
        hand = seat.hands[i]
        n = seat.seat
        if len(hand.cards) < 2:
            r = r.hit(n)
            continue
        t = hand_total(hand.cards)
        two = len(hand.cards) == 2
        pair = two and card_value(hand.cards[0]) == card_value(hand.cards[1])
        can_split = (
            pair
            and len(seat.hands) < rules.split_hands
            and (not hand.split_aces or rules.resplit_aces)
        )
        can_double = (
            two
            and (not hand.from_split or rules.double_after_split)
            and (not hand.split_aces or rules.hit_split_aces)
        )
        if can_split and card_value(hand.cards[0]) in (1, 8):
            r = r.split(n)
        elif (
            two
            and rules.late_surrender
            and len(seat.hands) == 1
            and not hand.from_split
            and not t.soft
            and t.total == 16
            and up in (1, 9, 10)
        ):
            r = r.surrender(n)
        elif (
            can_double
            and not t.soft
            and ((t.total == 11 and up != 1) or (t.total == 10 and 2 <= up <= 9))
        ):
            r = r.double(n)
        elif hand.split_aces and not rules.hit_split_aces:
            r = r.stand(n)
        elif basic_hits(t.total, t.soft, up):
            r = r.hit(n)
        else:
            r = r.stand(n)
    return r


def random_rounds(sub: RulesSubmission, seed: int, rounds: int) -> list[TableRound]:
    """``rounds`` settled random rounds from ``seed``."""
    rng = random.Random(seed)
    return [random_round(sub, rng) for _ in range(rounds)]


__all__ = ["keeps", "play_hands", "random_round", "random_rounds"]

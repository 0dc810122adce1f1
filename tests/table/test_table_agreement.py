"""Random rounds through the table engine against settlements written from the regulation text.

Issue 6: "a second, independent settlement path in the tests (written from the regulation text,
not from the engine) agrees with the engine on at least 10^5 random rounds per game". Each game
deals seeded rounds through :class:`~croupier.table.TableRound` (``seed`` picks the seats, the
wagers and their amounts and, at Four Card Poker, the Play decisions; ``deal_shoe(seed)`` shuffles
the shoe) and compares every settlement event — seat, wager, net win in cents, in the engine's
order — with a reference that reads only the card *text* (``"Ah"``, ``"Td"``) and the pays typed
here by hand from the sections:

* Blackjack: Perfect Pairs (§ 633b.1, paytable A) and Match the Dealer (§ 633b.3, six decks,
  paytable 1; meter lines valued at the seed, 1,000 × the wager, the stake collected:
  docs/interpretations.md "Pays and money"). AxMan and Jackpot Party are not placed.
* Baccarat: Player, Banker (19 to 20, rounded down to the cent), Tie (8 or 9 to 1) and the five
  5 Treasures wagers (§ 631c.3(f), (h), paytables A and B), the coup played by a tableau written
  here from the printed § 631a.11 table (tests/baccarat_reference.py).
* Four Card Poker: Ante and Play (§ 641a.7(d)(1); Play one to three times the Ante, or a fold),
  the Ante bonus 25/20/2 and Aces Up 50/40/8/6/4/2/1, with a brute-force best four of five / of
  six evaluator written here (croupier.poker is not imported).
* Criss-Cross Poker: Ultimate Pairs (§ 674b.1(f), paytable C), folded or not.

The ``slow`` tests deal 100,000 rounds per game, shared among two forked processes; the fast ones
300, so the normal suite exercises the references. Nearly all of the time is the engine's (the
references take under a sixth of it): one to three seats a round (one or two at Four Card Poker,
the slowest to settle) keep the file within about four minutes on two cores.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from itertools import combinations

import pytest

import blackjack_reference as bjref
from baccarat_reference import PRINTED_TABLE
from croupier.cards import Card, parse_cards
from croupier.table import RulesSubmission, TableRound, load_submission, submission_from_data
from croupier.table.procedure import Action
from repo_paths import ROOT

EXAMPLES = ROOT / "examples" / "submissions"

SLOW_ROUNDS = 100_000
FAST_ROUNDS = 300

Got = list[tuple[int | None, str | None, int | None]]
Want = list[tuple[int, str, int]]

# -- reading cards from their text ----------------------------------------------------------------

RANKS = {r: i for i, r in enumerate("23456789TJQKA", start=2)}


@cache
def rank(c: Card) -> int:
    """2–14, the ace 14 (from the card's text, e.g. ``"Ah"``)."""
    return RANKS[str(c)[0]]


@cache
def suit(c: Card) -> str:
    return str(c)[1]


def colour(c: Card) -> str:
    return "red" if suit(c) in "hd" else "black"


def amount_between(rng: random.Random, lo: int, hi: int) -> int:
    """A wager in cents within the table limits, odd cents included now and then."""
    if rng.random() < 0.5:
        return rng.randrange(lo // 100, hi // 100 + 1) * 100
    return rng.randint(lo, hi)


def engine_events(r: TableRound) -> Got:
    return [(e.seat, e.wager, e.win_cents) for e in r.settlements()]


def check_seeds(game: str, start: int, stop: int) -> int:
    """Deal the rounds seeded ``start`` to ``stop - 1``; every settlement must agree with the
    reference. Returns the number of rounds checked."""
    one_round = GAMES[game]
    for seed in range(start, stop):
        got, want = one_round(seed)
        assert got == want, f"{game}, seed {seed}: engine {got} != reference {want}"
    return stop - start


def agree(game: str, rounds: int, workers: int = 1) -> None:
    """Seeds 0 to ``rounds - 1``, in ``workers`` processes (forked: the test module is shared)."""
    if workers <= 1:
        assert check_seeds(game, 0, rounds) == rounds
        return
    step = -(-rounds // (8 * workers))
    starts = range(0, rounds, step)
    stops = [min(s + step, rounds) for s in starts]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        done = sum(pool.map(check_seeds, [game] * len(starts), starts, stops))
    assert done == rounds


@cache
def example_submission(name: str) -> RulesSubmission:
    return load_submission(EXAMPLES / f"{name}.toml")


WORKERS = min(2, os.cpu_count() or 1)
"""The slow tests share the rounds among (at most two) processes."""


# -- Blackjack: Perfect Pairs (§ 633b.1) and Match the Dealer (§ 633b.3) --------------------------


def perfect_pairs(a: Card, b: Card, amount: int) -> int:
    """§ 633b.1(a), paytable A: Perfect Pair (same rank and suit) 25 to 1; Colored Pair (same rank
    and colour) 12 to 1; Mixed Pair (same rank) 6 to 1; otherwise lost."""
    if rank(a) != rank(b):
        return -amount
    if suit(a) == suit(b):
        return 25 * amount
    return (12 if colour(a) == colour(b) else 6) * amount


def match_the_dealer(a: Card, b: Card, up: Card, amount: int) -> int:
    """§ 633b.3(a), (i), six decks, paytable 1: 2 Suited Match — aces of spades 100% of the
    Progressive, all others 10%; 1 Non-Suited and 1 Suited Match 12 to 1; 1 Suited Match 10 to 1;
    2 Non-Suited Matches 4 to 1; 1 Non-Suited Match 2 to 1. A meter award is valued at the seed
    (§ 633b.3(j): 1,000 × the wager) and replaces the collected stake (net award − stake)."""
    suited = [rank(c) == rank(up) and suit(c) == suit(up) for c in (a, b)]
    rank_only = [rank(c) == rank(up) and suit(c) != suit(up) for c in (a, b)]
    seed_meter = 1000 * amount
    if all(suited):
        share = seed_meter if str(up) == "As" else seed_meter // 10
        return share - amount
    if any(suited) and any(rank_only):
        return 12 * amount
    if any(suited):
        return 10 * amount
    if all(rank_only):
        return 4 * amount
    if any(rank_only):
        return 2 * amount
    return -amount


BLACKJACK = {
    "game": "blackjack",
    "decks": 6,
    "dealer": "S17",
    "seats": 7,
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$1", "$5"]},
    ],
}


@cache
def blackjack_submission() -> RulesSubmission:
    return submission_from_data(BLACKJACK, "bj-agreement")


def blackjack_round(seed: int) -> tuple[Got, Want]:
    sub = blackjack_submission()
    rng = random.Random(seed)
    # no player decision is recorded: the table's own system settles the Blackjack wagers
    r = TableRound.open(sub, base_game="external")
    placed: dict[int, dict[str, int]] = {}
    for s in sorted(rng.sample(range(1, 8), rng.randint(1, 3))):
        placed[s] = {"blackjack": amount_between(rng, 1000, 100_000)}
        if rng.random() < 0.7:
            placed[s]["perfect-pairs"] = amount_between(rng, 500, 10_000)
        if rng.random() < 0.7:
            placed[s]["match-the-dealer"] = rng.choice((100, 500))
        for w, c in placed[s].items():
            r = r.bet(s, w, c)
    r = r.no_more_bets().deal_shoe(seed).settle()
    assert r.cards is not None
    up = r.cards.dealer[0]
    want: Want = []
    # § 633b.1(e), § 633b.3(g): from the player farthest to the dealer's right (the highest seat)
    for s in sorted(placed, reverse=True):
        a, b = r.cards.hand(s)
        if "perfect-pairs" in placed[s]:
            want.append((s, "perfect-pairs", perfect_pairs(a, b, placed[s]["perfect-pairs"])))
        if "match-the-dealer" in placed[s]:
            amount = placed[s]["match-the-dealer"]
            want.append((s, "match-the-dealer", match_the_dealer(a, b, up, amount)))
    # the base game external: each Blackjack wager is recorded as the base game's (no win, not
    # a settlement), whatever the deal — even one the deal alone ends
    recorded = [(e.seat, e.wager, e.win_cents) for e in r.events if e.action is Action.RECORDED]
    assert recorded == [(s, "blackjack", None) for s in sorted(placed, reverse=True)]
    return engine_events(r), want


def test_blackjack_reference_pays() -> None:
    a, b, up = parse_cards("As As As")
    assert match_the_dealer(a, b, up, 500) == 499_500  # 100% of a $5,000 meter, less the $5
    a, b, up = parse_cards("7h 7h 7h")
    assert match_the_dealer(a, b, up, 100) == 9_900  # 10% of a $1,000 meter, less the $1
    a, b, up = parse_cards("7h 7c 7h")
    assert match_the_dealer(a, b, up, 500) == 6_000  # one suited, one non-suited: 12 to 1
    a, b, up = parse_cards("Qd Qc Ks")
    assert match_the_dealer(a, b, up, 500) == -500  # a pair that does not match the upcard
    a, b = parse_cards("8s 8c")
    assert perfect_pairs(a, b, 500) == 6_000  # both black: a Colored Pair, 12 to 1


def test_blackjack_rounds_agree_with_the_text() -> None:
    agree("blackjack", FAST_ROUNDS)


@pytest.mark.slow
def test_blackjack_rounds_agree_with_the_text_100k() -> None:
    agree("blackjack", SLOW_ROUNDS, WORKERS)


# -- Blackjack, Switch Hands and Blackjack Premium: the players' hands played ---------------------

PLAYED_TABLES: list[dict[str, object]] = [
    {
        "game": "blackjack", "decks": 6, "dealer": "S17", "switch_hands": True,
        "tie_blackjack_pays": True, "late_surrender": True, "split_hands": 4,
        "wagers": [{"wager": "blackjack", "min": "$5", "max": "$1,000"}],
    },
    {
        "game": "blackjack", "decks": 8, "dealer": "H17", "switch_hands": True,
        "double_after_split": False, "split_hands": 2,
        "wagers": [{"wager": "blackjack", "min": "$5", "max": "$1,000"}],
    },
    {
        "game": "blackjack", "decks": 6, "dealer": "S17", "blackjack_premium": True,
        "late_surrender": True, "split_hands": 3, "resplit_aces": True, "hit_split_aces": True,
        "wagers": [{"wager": "blackjack", "min": "$5", "max": "$1,000"}],
    },
    {
        "game": "blackjack", "decks": 2, "dealer": "H17", "late_surrender": True,
        "split_hands": 3, "resplit_aces": True,
        "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
    },
]  # fmt: skip
"""Switch Hands (tie pays, surrender, split to 4), Switch Hands (H17, no DAS, one split), Blackjack
Premium (re-split and hit split aces, surrender) and plain Blackjack (H17, re-split aces)."""


@cache
def played_submission(i: int) -> RulesSubmission:
    return submission_from_data(PLAYED_TABLES[i], f"played-{i}")


def shoe_text(decks: int) -> list[str]:
    return [r + s for _ in range(decks) for r in "23456789TJQKA" for s in "shdc"]


class PlayedHand:
    """A hand as the test tracks it: its cards, double-down cents, whether a split made it and
    whether it is over."""

    def __init__(self, cards: list[str], from_split: bool = False) -> None:
        self.cards = cards
        self.double = 0
        self.from_split = from_split
        self.over = False


def played_round(seed: int) -> tuple[Got, Want]:
    """A round whose cards and decisions the test makes itself: its own shuffled shoe, its own
    dealer (draw to 16, stand on 17 or hit soft 17), random decisions among those the Chapter 633a
    and § 633b.4 text allows, each passed to the engine with its card; the reference settles
    from the text."""
    from croupier.table import DealtCards

    rng = random.Random(seed)
    spec = PLAYED_TABLES[seed % len(PLAYED_TABLES)]
    sub = played_submission(seed % len(PLAYED_TABLES))
    table = (
        "switch-hands"
        if spec.get("switch_hands")
        else "blackjack-premium"
        if spec.get("blackjack_premium")
        else "blackjack"
    )
    split_limit = int(spec.get("split_hands", 4))  # type: ignore[call-overload]
    das = bool(spec.get("double_after_split", True))
    resplit_aces = bool(spec.get("resplit_aces", False))
    hit_aces = bool(spec.get("hit_split_aces", False))
    surrender_ok = bool(spec.get("late_surrender", False))
    shoe = shoe_text(int(spec["decks"]))  # type: ignore[call-overload]
    rng.shuffle(shoe)
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 4)))
    wager: dict[int, int] = {}
    ante: dict[int, int] = {}
    r = TableRound.open(sub)
    for s in seats:
        antes = table == "switch-hands" or (table == "blackjack-premium" and rng.random() < 0.5)
        wager[s] = rng.randint(2, 200) * 500 if antes else amount_between(rng, 1000, 100_000)
        ante[s] = wager[s] // 5 if antes else 0
        r = r.bet(s, "blackjack", wager[s])
        if ante[s]:
            r = r.bet(s, "switch-hands-ante", ante[s])
    down = {s: [shoe.pop(0), shoe.pop(0)] for s in seats if ante[s]}
    up = {s: [shoe.pop(0), shoe.pop(0)] for s in seats}
    dealer = bjref.dealer_hand(shoe, spec["dealer"] == "H17")
    r = r.no_more_bets().deal(
        DealtCards.parse(
            players={s: " ".join(c) for s, c in up.items()},
            dealer=" ".join(dealer),
            switch_cards={s: " ".join(c) for s, c in down.items()},
        )
    )
    # § 633b.4(f): from the player farthest to the dealer's right
    switched = {s: False for s in seats}
    for s in sorted(down, reverse=True):
        switched[s] = rng.random() < 0.5
        r = r.switch(s) if switched[s] else r.keep(s)
    pair = {s: down[s] if switched[s] else up[s] for s in seats}
    played: dict[int, list[PlayedHand]] = {s: [PlayedHand(list(pair[s]))] for s in seats}
    surrendered = dict.fromkeys(seats, False)
    dealer_bj = bjref.natural(dealer)
    for s in seats if not dealer_bj else ():
        hands = played[s]
        i = 0
        while i < len(hands):
            h = hands[i]
            while not h.over:
                if len(h.cards) == 1:  # a split hand takes its second card
                    h.cards.append(shoe.pop(0))
                    r = r.hit(s, parse_cards(h.cards[-1])[0])
                    continue
                t = bjref.total(h.cards)
                two = len(h.cards) == 2
                split_ace = h.from_split and h.cards[0][0] == "A"
                if (two and bjref.natural(h.cards) and not h.from_split) or t >= 21:
                    h.over = True
                    break
                can_split = (
                    two
                    and bjref.value(h.cards[0]) == bjref.value(h.cards[1])
                    and len(hands) < split_limit
                    and (not split_ace or resplit_aces)
                )
                if split_ace and not hit_aces and not (can_split and h.cards[1][0] == "A"):
                    h.over = True  # a split ace takes one card
                    break
                can_double = two and (not h.from_split or das) and (not split_ace or hit_aces)
                can_surrender = surrender_ok and two and len(hands) == 1 and not h.from_split
                can_hit = not split_ace or hit_aces
                choice = rng.random()
                if can_split and choice < 0.5:
                    first, second = PlayedHand([h.cards[0]], True), PlayedHand([h.cards[1]], True)
                    hands[i : i + 1] = [first, second]
                    h = first
                    r = r.split(s)
                elif can_surrender and choice < 0.1:
                    surrendered[s] = True
                    r = r.surrender(s)
                    h.over = True
                elif can_double and choice < 0.3:
                    h.double = wager[s] if rng.random() < 0.7 else rng.randint(1, wager[s])
                    h.cards.append(shoe.pop(0))
                    amount = h.double
                    r = r.double(s, amount, parse_cards(h.cards[-1])[0])
                    h.over = True
                elif can_hit and (t < 12 or choice < 0.6):
                    h.cards.append(shoe.pop(0))
                    r = r.hit(s, parse_cards(h.cards[-1])[0])
                else:
                    r = r.stand(s)
                    h.over = True
            i += 1
    r = r.settle()
    want: Want = []
    for s in sorted(seats, reverse=True):
        for wager_id, net in bjref.settle(
            table=table,
            wager=wager[s],
            ante=ante[s],
            switched=switched[s],
            pair=pair[s],
            hands=[(h.cards, h.double) for h in played[s]],
            surrendered=surrendered[s],
            dealer=dealer,
            tie_pays=bool(spec.get("tie_blackjack_pays", False)),
        ):
            want.append((s, wager_id, net))
    return engine_events(r), want


def test_blackjack_reference_settles_the_text() -> None:
    ref = bjref.settle
    # a switched same-colour Blackjack: 2 to 1; the $5 Ante is lost (§ 633b.4(c), (i)(2)(i))
    got = ref(table="switch-hands", wager=2500, ante=500, switched=True, pair=["Ah", "Kd"],
              hands=[(["Ah", "Kd"], 0)], surrendered=False, dealer=["9s", "8c"])  # fmt: skip
    assert got == [("switch-hands-ante", -500), ("blackjack", 5000)]
    # the same Blackjack kept: 3 to 2 ((i)(1)); at Premium with the Ante: 2 to 1 ((o))
    kept = {"ante": 500, "switched": False, "pair": ["Ah", "Kd"], "hands": [(["Ah", "Kd"], 0)],
            "surrendered": False, "dealer": ["9s", "8c"]}  # fmt: skip
    assert ref(table="switch-hands", wager=2500, **kept)[1] == ("blackjack", 3750)  # type: ignore[arg-type]
    assert ref(table="blackjack-premium", wager=2500, **kept)[1] == ("blackjack", 5000)  # type: ignore[arg-type]
    # a tie Blackjack: 1 to 2 after a switch where the table says so, a push otherwise
    tie = {"wager": 1000, "ante": 200, "switched": True, "pair": ["As", "Kd"],
           "hands": [(["As", "Kd"], 0)], "surrendered": False, "dealer": ["Ah", "Qc"]}  # fmt: skip
    assert ref(table="switch-hands", tie_pays=True, **tie)[1] == ("blackjack", 500)  # type: ignore[arg-type]
    assert ref(table="switch-hands", **tie)[1] == ("blackjack", 0)  # type: ignore[arg-type]
    # a split pair, one hand doubled, against a dealer 19; ace-ten after a split is 21, not BJ
    got = ref(table="blackjack", wager=1000, ante=0, switched=False, pair=["Ac", "Ad"],
              hands=[(["Ac", "Kd"], 0), (["Ad", "8h"], 0)], surrendered=False,
              dealer=["Ts", "9c"])  # fmt: skip
    assert got == [("blackjack", 1000), ("blackjack", 0)]
    # late surrender of an odd-cent wager: the player keeps the half rounded down
    got = ref(table="blackjack", wager=1001, ante=0, switched=False, pair=["Ts", "6c"],
              hands=[(["Ts", "6c"], 0)], surrendered=True, dealer=["As", "9c"])  # fmt: skip
    assert got == [("blackjack", -501)]
    assert bjref.dealer_hand(["As", "6c", "4d", "9h"], hits_soft_17=True) == ["As", "6c", "4d"]
    assert bjref.dealer_hand(["As", "6c", "4d"]) == ["As", "6c"]


def test_played_rounds_agree_with_the_text() -> None:
    agree("blackjack-played", FAST_ROUNDS)


@pytest.mark.slow
def test_played_rounds_agree_with_the_text_10k() -> None:
    agree("blackjack-played", 10_000, WORKERS)


# -- Baccarat: the Baccarat wagers and the 5 Treasures (§ 631c.3) ---------------------------------


def point(cards: Sequence[Card]) -> int:
    """Ace 1, 2–9 face value, tens and court cards 0; the total modulo 10."""
    return sum(1 if rank(c) == 14 else (rank(c) if rank(c) <= 9 else 0) for c in cards) % 10


def banker_draws(banker: int, player_third: int | None) -> bool:
    """§ 631a.11: a Banker whose Player stood draws on 0–5; after a Player draw, 0–2 always draw,
    7 stands, 3–6 follow the printed table by the Player's third card."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker >= 7:
        return False
    return PRINTED_TABLE[banker][player_third] == "D"


def tableau(coup: Sequence[Card]) -> tuple[list[Card], list[Card], int]:
    """Play the coup from the cards in dealing order (Player, Banker, Player, Banker, then the
    Player's third card and the Banker's): the two hands and the number of cards used."""
    deck = list(coup)
    player, banker = [deck[0], deck[2]], [deck[1], deck[3]]
    used = 4
    if point(player) < 8 and point(banker) < 8:  # a natural stops all drawing
        third = None
        if point(player) <= 5:
            player.append(deck[used])
            used += 1
            third = point(player[2:])
        if banker_draws(point(banker), third):
            banker.append(deck[used])
            used += 1
    return player, banker, used


TREASURES = ("fortune-7", "golden-8", "heavenly-9", "blazing-7s", "cover-all")
# § 631c.3(h): the pays of paytables A and B (None: N/A, the outcome is not paid)
TREASURE_PAYS: dict[str, dict[str, int | None]] = {
    "A": {
        "fortune-7": 40,
        "golden-8": 25,
        "heavenly-9 both": 75,
        "heavenly-9 either": 10,
        "blazing-7s 3-card": 400,
        "blazing-7s 2-card": None,
        "cover-all": 6,
    },
    "B": {
        "fortune-7": 40,
        "golden-8": 25,
        "heavenly-9 both": 75,
        "heavenly-9 either": 10,
        "blazing-7s 3-card": 200,
        "blazing-7s 2-card": 50,
        "cover-all": 6,
    },
}


def treasure_odds(player: list[Card], banker: list[Card], paytable: str) -> dict[str, int | None]:
    """§ 631c.3(f): the odds each of the four wagers is paid at (None: it loses)."""
    pays = TREASURE_PAYS[paytable]
    p, b = point(player), point(banker)
    odds: dict[str, int | None] = {
        # (1) the Banker's hand wins with a 3-card total of 7; (2) the Player's with a 3-card 8
        "fortune-7": pays["fortune-7"] if b > p and b == 7 and len(banker) == 3 else None,
        "golden-8": pays["golden-8"] if p > b and p == 8 and len(player) == 3 else None,
        "heavenly-9": None,
        "blazing-7s": None,
    }
    nines = [len(h) == 3 and point(h) == 9 for h in (player, banker)]  # (3)
    if all(nines):
        odds["heavenly-9"] = pays["heavenly-9 both"]
    elif any(nines):
        odds["heavenly-9"] = pays["heavenly-9 either"]
    if p == b == 7 and len(player) == len(banker):  # (4) both 2-card 7s or both 3-card 7s
        odds["blazing-7s"] = pays[f"blazing-7s {len(player)}-card"]
    # (5) Cover All wins if any other of the four wins (under the same paytable)
    odds["cover-all"] = pays["cover-all"] if any(v is not None for v in odds.values()) else None
    return odds


def baccarat_settle(
    coup: Sequence[Card], bets: dict[str, int], paytable: str, tie_odds: int
) -> tuple[int, dict[str, int]]:
    player, banker, used = tableau(coup)
    p, b = point(player), point(banker)
    odds = treasure_odds(player, banker, paytable)
    win: dict[str, int] = {}
    for wager, amount in bets.items():
        if wager == "player":  # 1 to 1; a tie pushes
            win[wager] = 0 if p == b else (amount if p > b else -amount)
        elif wager == "banker":  # 1 to 1 less a 5% commission (19 to 20), rounded down to the cent
            win[wager] = 0 if p == b else (amount * 19 // 20 if b > p else -amount)
        elif wager == "tie":
            win[wager] = tie_odds * amount if p == b else -amount
        else:
            o = odds[wager]
            win[wager] = -amount if o is None else o * amount
    return used, win


@cache
def baccarat_submission(paytable: str, tie: str) -> RulesSubmission:
    limits = {"min": "$5", "max": "$100"}
    return submission_from_data(
        {
            "game": "baccarat",
            "decks": 8,
            "seats": 7,
            "wagers": [
                {"wager": "player", "paytable": "standard", "min": "$25", "max": "$5,000"},
                {"wager": "banker", "paytable": "commission", "min": "$25", "max": "$5,000"},
                {"wager": "tie", "paytable": tie, "min": "$5", "max": "$500"},
                *({"wager": w, "paytable": paytable, **limits} for w in TREASURES),
            ],
        },
        f"bac-{paytable}",
    )


def baccarat_round(seed: int) -> tuple[Got, Want]:
    rng = random.Random(seed)
    # paytable A with Tie 8 to 1 at even seeds, B with Tie 9 to 1 at odd ones
    paytable, tie, tie_odds = ("A", "8-to-1", 8) if seed % 2 == 0 else ("B", "9-to-1", 9)
    sub = baccarat_submission(paytable, tie)
    r = TableRound.open(sub)
    placed: dict[int, dict[str, int]] = {}
    for s in sorted(rng.sample(range(1, 8), rng.randint(1, 3))):
        bases = [w for w in ("player", "banker", "tie") if rng.random() < 0.4]
        bases = bases or [rng.choice(("player", "banker", "tie"))]
        placed[s] = {}
        for w in bases:
            lo, hi = (500, 50_000) if w == "tie" else (2500, 500_000)
            placed[s][w] = amount_between(rng, lo, hi)
        for w in TREASURES:
            if rng.random() < 0.35:
                placed[s][w] = amount_between(rng, 500, 10_000)
        for w, c in placed[s].items():
            r = r.bet(s, w, c)
    r = r.no_more_bets().deal_shoe(seed).settle()
    assert r.cards is not None
    coup = r.cards.coup
    want: Want = []
    for s in sorted(placed, reverse=True):
        used, win = baccarat_settle(coup, placed[s], paytable, tie_odds)
        assert used == len(coup), f"seed {seed}: the coup {coup} used {used} cards"
        want += [(s, w, win[w]) for w in placed[s]]
    return engine_events(r), want


def test_baccarat_reference_pays() -> None:
    # Player K♠ 2♦ 3♥ = 5, Banker 4♥ Q♣ 3♠ = 7: Fortune 7 and Cover All (examples/rounds)
    coup = parse_cards("Ks 4h 2d Qc 3h 3s")
    bets = {"banker": 1000, "fortune-7": 500, "cover-all": 500, "golden-8": 500}
    assert baccarat_settle(coup, bets, "A", 8) == (
        6,
        {"banker": 950, "fortune-7": 20_000, "cover-all": 3000, "golden-8": -500},
    )
    # Player 4♠ 3♦ = 7, Banker 5♥ 2♣ = 7: two-card Blazing 7s, N/A under A, 50 to 1 under B
    coup = parse_cards("4s 5h 3d 2c")
    bets = {"tie": 500, "blazing-7s": 500, "cover-all": 500}
    assert baccarat_settle(coup, bets, "A", 8)[1] == {
        "tie": 4000,
        "blazing-7s": -500,
        "cover-all": -500,
    }
    assert baccarat_settle(coup, bets, "B", 9)[1] == {
        "tie": 4500,
        "blazing-7s": 25_000,
        "cover-all": 3000,
    }


def test_baccarat_rounds_agree_with_the_text() -> None:
    agree("baccarat", FAST_ROUNDS)


@pytest.mark.slow
def test_baccarat_rounds_agree_with_the_text_100k() -> None:
    agree("baccarat", SLOW_ROUNDS, WORKERS)


# -- Four Card Poker: Ante and Play, Ante bonus, Aces Up (§ 641a.7(d)(1)–(2)) ---------------------

HIGH, PAIR, TWO_PAIR, STRAIGHT, FLUSH, TRIPS, STRAIGHT_FLUSH, QUADS = range(8)
"""The four-card categories, low to high (base-games.md, Chapter 641a)."""


def four_card_key(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """(category, ranks breaking ties): the cards that make the category first (more of a rank
    first, then the higher rank), then the rest from the highest; a straight by its top card, the
    ace low only in A-2-3-4 (top card 4), no wrap-around."""
    ranks = [rank(c) for c in cards]
    counts = Counter(ranks)
    by_count = tuple(sorted(ranks, key=lambda x: (counts[x], x), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    flush = len({suit(c) for c in cards}) == 1
    distinct = sorted(counts)
    top = None
    if len(distinct) == 4:
        if distinct[3] - distinct[0] == 3:
            top = distinct[3]
        elif distinct == [2, 3, 4, 14]:
            top = 4
    if shape == [4]:
        return QUADS, by_count
    if top is not None and flush:
        return STRAIGHT_FLUSH, (top,)
    if shape[0] == 3:
        return TRIPS, by_count
    if flush:
        return FLUSH, by_count
    if top is not None:
        return STRAIGHT, (top,)
    if shape == [2, 2]:
        return TWO_PAIR, by_count
    if shape[0] == 2:
        return PAIR, by_count
    return HIGH, by_count


def best_four(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """The best four-card hand among the cards (five for a player, six for the dealer)."""
    return max(four_card_key(four) for four in combinations(cards, 4))


ANTE_BONUS = {QUADS: 25, STRAIGHT_FLUSH: 20, TRIPS: 2}
"""Ante bonus 25/20/2 to 1 (paytable ``25-20-2``; industry pays, not PA text)."""
ACES_UP = {QUADS: 50, STRAIGHT_FLUSH: 40, TRIPS: 8, FLUSH: 6, STRAIGHT: 4, TWO_PAIR: 2}
"""Aces Up 50/40/8/6/4/2 to 1, and a pair of aces 1 to 1 (paytable ``pa-casino``)."""


def four_card_poker(
    hand: Sequence[Card], dealer: Sequence[Card], bets: dict[str, int], play: int | None
) -> Want:
    """One seat's settlements, in the engine's order: Ante, Play, Ante bonus, Aces Up (seat 0:
    the caller fills it in). ``play`` None: no Ante; 0: the player folds."""
    mine, theirs = best_four(hand), best_four(dealer)
    out: Want = []
    if "four-card-poker" in bets:
        ante = bets["four-card-poker"]
        assert play is not None
        if play == 0:  # a fold loses the Ante (and with it the Ante bonus)
            out.append((0, "four-card-poker:ante", -ante))
        else:
            # the dealer always qualifies; a player hand equal to or better than the dealer's wins
            sign = 1 if mine >= theirs else -1
            out.append((0, "four-card-poker:ante", sign * ante))
            out.append((0, "four-card-poker:play", sign * play))
            if mine[0] in ANTE_BONUS:  # paid whatever the dealer holds
                out.append((0, "four-card-poker:ante-bonus", ANTE_BONUS[mine[0]] * ante))
    if "aces-up" in bets:
        amount = bets["aces-up"]
        odds = ACES_UP.get(mine[0])
        if odds is None and mine[0] == PAIR and mine[1][0] == 14:
            odds = 1
        out.append((0, "aces-up", -amount if odds is None else odds * amount))
    return out


def four_card_poker_round(seed: int) -> tuple[Got, Want]:
    sub = example_submission("four-card-poker")
    rng = random.Random(seed)
    r = TableRound.open(sub)
    placed: dict[int, dict[str, int]] = {}
    for s in sorted(rng.sample(range(1, 7), rng.randint(1, 2))):
        placed[s] = {}
        if rng.random() < 0.85:
            placed[s]["four-card-poker"] = amount_between(rng, 1000, 50_000)
        if rng.random() < 0.6 or not placed[s]:
            placed[s]["aces-up"] = amount_between(rng, 500, 10_000)
        for w, c in placed[s].items():
            r = r.bet(s, w, c)
    r = r.no_more_bets().deal_shoe(seed)
    plays: dict[int, int] = {}
    for s, bets in placed.items():
        ante = bets.get("four-card-poker")
        if ante is None:
            continue
        if rng.random() < 0.2:
            plays[s] = 0
            r = r.fold(s)
        else:  # any amount from one to three times the Ante (§ 641a.7(d)(1))
            plays[s] = rng.choice((ante, 2 * ante, 3 * ante, rng.randint(ante, 3 * ante)))
            r = r.play(s, plays[s])
    r = r.settle()
    assert r.cards is not None
    want: Want = []
    for s in sorted(placed, reverse=True):
        rows = four_card_poker(r.cards.hand(s), r.cards.dealer, placed[s], plays.get(s))
        want += [(s, w, c) for _, w, c in rows]
    return engine_events(r), want


def test_four_card_poker_reference() -> None:
    assert four_card_key(parse_cards("Ah 2d 3c 4s")) == (STRAIGHT, (4,))
    assert four_card_key(parse_cards("2h 3d 4c 5s")) > four_card_key(parse_cards("Ah 2d 3c 4s"))
    assert four_card_key(parse_cards("Qh Kd Ac 2s"))[0] == HIGH  # no wrap-around
    assert best_four(parse_cards("9h 9c 9d Ks 2s")) == (TRIPS, (9, 9, 9, 13))
    assert best_four(parse_cards("2h 3h 4h 5h 5d 5s"))[0] == STRAIGHT_FLUSH
    # the module example of croupier.wagers.four_card_poker, worked from the pays above:
    # trips beat a pair of aces: Ante +$5, Play +$15, Ante bonus 2 to 1, Aces Up 8 to 1
    rows = four_card_poker(
        parse_cards("9h 9c 9d Ks 2s"),
        parse_cards("Ah Ad 7c 7s 3d 4h"),
        {"four-card-poker": 500, "aces-up": 500},
        1500,
    )
    assert [(w, c) for _, w, c in rows] == [
        ("four-card-poker:ante", 500),
        ("four-card-poker:play", 1500),
        ("four-card-poker:ante-bonus", 1000),
        ("aces-up", 4000),
    ]


def test_four_card_poker_rounds_agree_with_the_text() -> None:
    agree("four-card-poker", FAST_ROUNDS)


@pytest.mark.slow
def test_four_card_poker_rounds_agree_with_the_text_100k() -> None:
    agree("four-card-poker", SLOW_ROUNDS, WORKERS)


# -- Criss-Cross Poker: Ultimate Pairs (§ 674b.1) -------------------------------------------------


def ultimate_pairs(a: Card, b: Card, amount: int) -> int:
    """§ 674b.1(e), (f), paytable C, on the player's two cards, each hand paid on its most specific
    line: ace of hearts and ace of diamonds 100 to 1; ace/ace 30 to 1; ace/king, ace/queen or
    ace/jack suited 20 to 1; ace/king 10 to 1; king/king, queen/queen or jack/jack 4 to 1;
    ace/queen or ace/jack 10 to 1; a pair of 10s or less 4 to 1; otherwise lost."""
    hi, lo = sorted((rank(a), rank(b)), reverse=True)
    suited = suit(a) == suit(b)
    if {str(a), str(b)} == {"Ah", "Ad"}:
        odds = 100
    elif hi == lo == 14:
        odds = 30
    elif hi == 14 and lo in (13, 12, 11):
        odds = 20 if suited else 10
    elif hi == lo:  # king/king, queen/queen or jack/jack; a pair of 10s or less: both 4 to 1
        odds = 4
    else:
        return -amount
    return odds * amount


def criss_cross_round(seed: int) -> tuple[Got, Want]:
    sub = example_submission("criss-cross-poker")
    rng = random.Random(seed)
    r = TableRound.open(sub, base_game="external")  # croupier does not settle its base game
    placed: dict[int, int] = {}
    seats = sorted(rng.sample(range(1, 7), rng.randint(1, 3)))
    for s in seats:
        r = r.bet(s, "criss-cross", amount_between(rng, 1000, 50_000))
        if rng.random() < 0.8:
            placed[s] = amount_between(rng, 500, 10_000)
            r = r.bet(s, "ultimate-pairs", placed[s])
    r = r.no_more_bets().deal_shoe(seed)
    for s in seats:
        if rng.random() < 1 / 3:  # the Ultimate Pairs wager stays in action (§ 674b.1(c))
            r = r.fold(s)
    r = r.settle()
    assert r.cards is not None
    want: Want = []
    for s in sorted(placed, reverse=True):
        a, b = r.cards.hand(s)
        want.append((s, "ultimate-pairs", ultimate_pairs(a, b, placed[s])))
    return engine_events(r), want


def test_ultimate_pairs_reference() -> None:
    pays = {
        "Ah Ad": 100,
        "Ac As": 30,
        "As Ks": 20,
        "Jh Ah": 20,
        "As Kh": 10,
        "Qc Ad": 10,
        "Kd Kc": 4,
        "Td Tc": 4,
        "2d 2c": 4,
        "Kd Qd": -1,
    }
    for text, odds in pays.items():
        a, b = parse_cards(text)
        assert ultimate_pairs(a, b, 100) == odds * 100, text


def test_criss_cross_rounds_agree_with_the_text() -> None:
    agree("criss-cross-poker", FAST_ROUNDS)


@pytest.mark.slow
def test_criss_cross_rounds_agree_with_the_text_100k() -> None:
    agree("criss-cross-poker", SLOW_ROUNDS, WORKERS)


GAMES: dict[str, Callable[[int], tuple[Got, Want]]] = {
    "blackjack": blackjack_round,
    "blackjack-played": played_round,
    "baccarat": baccarat_round,
    "four-card-poker": four_card_poker_round,
    "criss-cross-poker": criss_cross_round,
}
"""Each game's round: ``seed`` → (the engine's settlements, the reference's)."""


# -- rare hands, dealt as recorded cards -----------------------------------------------------------


def test_rare_hands_agree_with_the_text() -> None:
    """Outcomes too rare to count on in random rounds, through the engine and the references."""
    from croupier.table import DealtCards

    bj = TableRound.open(blackjack_submission())
    for s in (1, 2, 3):
        bj = bj.bet(s, "blackjack", 1000).bet(s, "match-the-dealer", 500)
    # against the A♠ upcard: two suited aces of spades (100% of the $5,000 meter, less the $5);
    # one suited and one non-suited match, 12 to 1; two non-suited matches, 4 to 1
    dealt = bj.no_more_bets().deal(
        DealtCards.parse(players={1: "As As", 2: "Ah As", 3: "Ac Ad"}, dealer="As Kd")
    )
    assert dealt.cards is not None
    up = dealt.cards.dealer[0]
    want = []
    for s in (3, 2, 1):
        a, b = dealt.cards.hand(s)
        want.append((s, "match-the-dealer", match_the_dealer(a, b, up, 500)))
    assert engine_events(dealt) == want
    assert [w for _, _, w in want] == [4 * 500, 12 * 500, 499_500]
    # two suited 7♥ against the 7♥ upcard: 10% of the $1,000 meter, less the $1
    ten = TableRound.open(blackjack_submission()).bet(5, "blackjack", 1000)
    ten = ten.bet(5, "match-the-dealer", 100).bet(5, "perfect-pairs", 500).no_more_bets()
    ten = ten.deal(DealtCards.parse(players={5: "7h 7h"}, dealer="7h Ks"))
    assert engine_events(ten) == [(5, "perfect-pairs", 12_500), (5, "match-the-dealer", 9_900)]

    for coup, paytable, tie in (
        ("2s 2h 2d 2c 3s 3h", "A", "8-to-1"),  # 3-card Blazing 7s
        ("2s 2h 2d 2c 3s 3h", "B", "9-to-1"),
        ("2s 2h 2d 2c 5s 5h", "A", "8-to-1"),  # Heavenly 9, player and banker
        ("4s 5h 3d 2c", "B", "9-to-1"),  # 2-card Blazing 7s: paid under B only
        ("4s 5h 3d 2c", "A", "8-to-1"),
    ):
        sub = baccarat_submission(paytable, tie)
        bets = {"tie": 500, **dict.fromkeys(TREASURES, 500)}
        r = TableRound.open(sub)
        for w, c in bets.items():
            r = r.bet(4, w, c)
        r = r.no_more_bets().deal(DealtCards.parse(coup=coup)).settle()
        _, win = baccarat_settle(parse_cards(coup), bets, paytable, int(tie[0]))
        assert engine_events(r) == [(4, w, win[w]) for w in bets], (coup, paytable)

    fcp = TableRound.open(example_submission("four-card-poker"))
    hands = {1: "9h 9c 9d 9s 2s", 2: "5h 6h 7h 8h Kd", 3: "Ac Ad Kc 3s 2h"}
    for s in hands:
        fcp = fcp.bet(s, "four-card-poker", 1000).bet(s, "aces-up", 500)
    fcp = fcp.no_more_bets().deal(DealtCards.parse(players=hands, dealer="Qs Qd 7c 7s 3d 4c"))
    for s in hands:
        fcp = fcp.play(s, 3000)
    fcp = fcp.settle()
    assert fcp.cards is not None
    want = [
        (s, w, c)
        for s in (3, 2, 1)
        for _, w, c in four_card_poker(
            fcp.cards.hand(s), fcp.cards.dealer, {"four-card-poker": 1000, "aces-up": 500}, 3000
        )
    ]
    assert engine_events(fcp) == want

    ccp = TableRound.open(example_submission("criss-cross-poker"), base_game="external")
    pairs = {1: "Ah Ad", 2: "Ks As", 3: "Jc Js"}
    for s in pairs:
        ccp = ccp.bet(s, "criss-cross", 1000).bet(s, "ultimate-pairs", 500)
    ccp = ccp.no_more_bets().deal(DealtCards.parse(players=pairs)).fold(1).settle()
    assert engine_events(ccp) == [
        (3, "ultimate-pairs", 2000),
        (2, "ultimate-pairs", 10_000),
        (1, "ultimate-pairs", 50_000),
    ]

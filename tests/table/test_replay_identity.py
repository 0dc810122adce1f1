"""The round engine's results pinned: thousands of random rounds replayed now give exactly what the
engine gave before its replay and settlement document were made cheaper (issue 16) — the same
events, settlement lines, settlement JSON, content digest (a stored identity key) and, for a
step that breaks a rule, the same error (type, text, section, step note).

The rounds:

* the random rounds of ``test_table_agreement`` (each game's generator: Blackjack with Perfect
  Pairs and Match the Dealer, Blackjack / Switch Hands / Premium hands played out, Baccarat with
  the 5 Treasures, Four Card Poker played or folded, Criss-Cross Poker), caught as each
  generator hands its round to ``engine_events``;
* random round *files* (:func:`round_file`) replayed as ``POST /rounds/settle`` replays them
  (:func:`croupier.operations.rounds.replay`): tables of every game offering every kind of wager
  (Jackpot Party with and without envy, Match the Dealer, AxMan at S17 and H17, the Four Card
  Poker progressives), bets inside and outside the rules, cards recorded or dealt from a seeded
  shoe, the players' decisions mostly in turn, and now and then a step that breaks a rule.

Each round's *record* — the events and settlement lines as JSON, the content digest, the document
parts :func:`~croupier.operations.rounds.feed_and_document` builds from the round (valued at the
seed, or with made-up ledger awards through
:func:`~croupier.table.progressive.with_ledger_amounts`), the round's final state — is hashed;
``replay_identity_digests.json`` holds the digests the engine gave before the change (written by
``PYTHONPATH=tests python tests/table/test_replay_identity.py --write``, only ever from a commit
whose results are the reference). The content digest is also checked against :func:`reference_content`, the
straightforward ``json.dumps`` of the round's data written here.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import test_table_agreement as agreement
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Shoe
from croupier.errors import CroupierError
from croupier.frozen import stored_at_once
from croupier.operations.rounds import replay
from croupier.paytables import MeterLevel
from croupier.progressive.model import AwardKind, AwardStatus
from croupier.progressive.records import Award, RoundSettlement
from croupier.table import RulesSubmission, TableRound, load_submission, submission_from_data
from croupier.table.blackjack_play import BlackjackPlay, HandInPlay, MoveResult, SeatPlay
from croupier.table.procedure import Action, Event, Phase
from croupier.table.progressive import (
    canonical_json,
    round_content,
    valued_at_seed,
    with_ledger_amounts,
)
from croupier.table.record import apply_step, parse_step
from croupier.table.round import settled_net
from croupier.wagers.at_table import SeatBet, SettlementLine, TableContext
from croupier.wagers.base import Settlement
from croupier.wagers.switch_hands import Line as SwitchLine
from croupier.wagers.switch_hands import PlayedHand, SeatSettlement, SwitchSeat
from repo_paths import ROOT

DIGESTS = Path(__file__).with_name("replay_identity_digests.txt")
PER_LINE = 16
EXAMPLES = ROOT / "examples" / "submissions"

AGREEMENT_ROUNDS = 400
"""Seeds 0 … 399 of each ``test_table_agreement`` generator."""
FILE_ROUNDS = 2400
"""Random round files, seeds 0 … 2399."""


# -- the record of a round ------------------------------------------------------------------------


def reference_content(rnd: TableRound) -> str:
    """The round's content digest written out plainly: SHA-256 of the canonical JSON (sorted
    keys, no spaces, UTF-8) of its game, decks, bets, cards and every event's JSON — the "No
    more bets", deal and "round settled" events with the base game's lock-out, deal and
    procedure paragraphs, as the record cited them when the digests were first stored (their
    citations are the table's own since: a round's identity does not change with a citation)."""
    events = [e.to_json() for e in rnd.events]
    was = {
        "no-more-bets": rnd.base.lockout_rule,
        "deal": rnd.base.deal_rule,
        "settle": rnd.base.procedure_rule,
    }
    for e in events:
        if e["action"] in was:
            e["section"] = was[e["action"]]
            e["citation"] = f"58 Pa. Code § {was[e['action']]}"
    data = {
        "game": rnd.submission.game.value,
        "decks": rnd.submission.decks,
        "bets": [[b.seat, b.wager, b.amount_cents, b.player] for b in rnd.bets],
        "cards": [str(c) for c in rnd.cards.every_card()] if rnd.cards is not None else None,
        "events": events,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _document(shown: TableRound) -> dict[str, Any]:
    """What the settlement document takes from a round (feed_and_document's round fields)."""
    return {
        "submission": shown.submission.name or shown.submission.game.value,
        "cards": shown.cards.describe() if shown.cards else None,
        "events": [e.to_json() for e in shown.events],
        "settlement": shown.settlement().to_json(),
        "net_cents": settled_net(shown.events),
        "wagers": sorted({b.wager for b in shown.bets}),
    }


def _made_up_awards(rnd: TableRound) -> list[tuple[str, RoundSettlement]]:
    """Ledger settlements for the round's progressive wagers, with awards made up from its
    winning lines (an own award, paid or pending, and an envy award from another seat), to put
    :func:`with_ledger_amounts` through its paces."""
    out: list[tuple[str, RoundSettlement]] = []
    for wager in ("jackpot-party", "match-the-dealer", "four-card-progressive"):
        wins = [
            e
            for e in rnd.events
            if e.action is Action.SETTLEMENT and e.wager == wager and e.seat is not None
        ]
        if not wins:
            continue
        awards = []
        for n, e in enumerate(wins):
            assert e.seat is not None
            status = AwardStatus.PENDING if n % 2 else AwardStatus.PAID
            awards.append(
                Award(
                    n,
                    "p",
                    "T/r",
                    "T",
                    e.seat,
                    e.outcome_key or "x",
                    AwardKind.METER,
                    status,
                    (e.win_cents or 0) + 12_345 * (n + 1),
                    level=MeterLevel.PROGRESSIVE,
                    share=Fraction(1, 10),
                )
            )
            if e.line is not None and e.line.from_seat is not None:
                awards.append(
                    Award(
                        100 + n,
                        "p",
                        "T/r",
                        "T",
                        e.seat,
                        "envy",
                        AwardKind.ENVY,
                        AwardStatus.PAID,
                        2_500,
                        source_position=e.line.from_seat,
                    )
                )
        out.append((wager, RoundSettlement(f"{wager}-p", "T/r", "T", "k", (), tuple(awards))))
    return out


def record(rnd: TableRound) -> dict[str, Any]:
    """Everything the round shows: its state, events, settlement, content digest and document
    parts (valued at the seed; with made-up ledger awards)."""
    content = round_content(rnd)
    assert content == reference_content(rnd)
    awarded = _made_up_awards(rnd)
    return {
        "phase": rnd.phase.value,
        "bets": [[b.seat, b.wager, b.amount_cents, b.player] for b in rnd.bets],
        "decisions": [list(d) for d in rnd.decisions],
        "play": repr(rnd.blackjack),
        "cards": repr(rnd.cards),
        "events": [e.to_json() for e in rnd.events],
        "lines": [repr(e.line) for e in rnd.events],
        "settlement": rnd.settlement().to_json(),
        "content": content,
        "at_seed": _document(valued_at_seed(rnd)) if rnd.phase is Phase.SETTLED else None,
        "ledger": _document(with_ledger_amounts(rnd, awarded)) if awarded else None,
    }


def error_record(exc: CroupierError) -> dict[str, Any]:
    """A refused step: the error's type, text, section and notes."""
    return {
        "error": type(exc).__name__,
        "text": str(exc),
        "section": getattr(exc, "section", None),
        "notes": list(getattr(exc, "__notes__", [])),
    }


def digest(rec: dict[str, Any]) -> str:
    """The first 32 bits of the SHA-256 of the record's canonical JSON (a changed record keeps
    its digest once in four billion)."""
    text = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def read_digests() -> dict[str, str]:
    """The stored digests: each line ``GENERATOR FIRST_SEED`` then the digests of
    :data:`PER_LINE` seeds in a row, run together."""
    out: dict[str, str] = {}
    for line in DIGESTS.read_text().splitlines():
        generator, first, run = line.split()
        for k in range(0, len(run), 8):
            out[f"{generator}/{int(first) + k // 8}"] = run[k : k + 8]
    return out


def write_digests(digests: dict[str, str]) -> None:
    lines: list[str] = []
    names = list(digests)
    for k in range(0, len(names), PER_LINE):
        chunk = names[k : k + PER_LINE]
        generator, first = chunk[0].rsplit("/", 1)
        assert all(n.rsplit("/", 1)[0] == generator for n in chunk)
        lines.append(f"{generator} {first} {''.join(digests[n] for n in chunk)}")
    DIGESTS.write_text("\n".join(lines) + "\n")


# -- the agreement tests' random rounds ----------------------------------------------------------


@contextmanager
def caught_rounds() -> Iterator[list[TableRound]]:
    """The rounds the agreement generators hand to ``engine_events``, as they hand them."""
    caught: list[TableRound] = []
    original = agreement.engine_events

    def catch(r: TableRound) -> agreement.Got:
        caught.append(r)
        return original(r)

    agreement.engine_events = catch
    try:
        yield caught
    finally:
        agreement.engine_events = original


def agreement_records(game: str, seeds: range) -> Iterator[tuple[str, dict[str, Any]]]:
    one_round = agreement.GAMES[game]
    with caught_rounds() as caught:
        for seed in seeds:
            caught.clear()
            one_round(seed)
            assert len(caught) == 1, (game, seed)
            yield f"{game}/{seed}", record(caught[0])


# -- random round files --------------------------------------------------------------------------

TABLES: list[dict[str, Any] | str] = [
    {  # the benchmark's table (benchmarks/bench_service.py)
        "game": "blackjack", "name": "bench", "decks": 6, "dealer": "S17",
        "wagers": [
            {"wager": "blackjack", "min": "$10", "max": "$1,000"},
            {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
            {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
        ],
    },
    {  # H17 (AxMan as axman-h17), an envy paytable, Match the Dealer
        "game": "blackjack", "decks": 6, "dealer": "H17", "late_surrender": True,
        "wagers": [
            {"wager": "blackjack", "min": "$5", "max": "$500"},
            {"wager": "perfect-pairs", "paytable": "B", "min": "$1", "max": "$50"},
            {"wager": "jackpot-party", "paytable": "P10", "amounts": ["$5"]},
            {"wager": "match-the-dealer", "paytable": "3", "amounts": ["$1", "$5"]},
            {"wager": "axman", "paytable": "standard", "min": "$5", "max": "$100"},
        ],
    },
    {  # one deck: the shoe runs out of a card now and then
        "game": "blackjack", "decks": 1, "dealer": "S17", "seats": 5,
        "wagers": [
            {"wager": "blackjack", "min": "$10", "max": "$100"},
            {"wager": "jackpot-party", "paytable": "P17-B", "amounts": ["$5"]},
            {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$25"},
        ],
    },
    "blackjack-6deck",
    "switch-hands-6deck",
    "blackjack-premium-8deck",
    "baccarat-8deck",
    "four-card-poker",
    "four-card-poker-progressive",
    "criss-cross-poker",
]  # fmt: skip


@cache
def table(i: int) -> RulesSubmission:
    spec = TABLES[i]
    if isinstance(spec, str):
        return load_submission(EXAMPLES / f"{spec}.toml")
    return submission_from_data(spec, f"table-{i}")


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _amount(rng: random.Random, sub: RulesSubmission, wager: str) -> str:
    offered = sub.offered(wager)
    if offered is None or rng.random() < 0.006:
        return rng.choice(["$5", "$0.50", "$2,000", "5", "$1.234", "$10"])
    if offered.amounts_cents:
        return _money(rng.choice(offered.amounts_cents))
    lo, hi = offered.min_cents or 100, offered.max_cents or 100_000
    if sub.variant is not None and wager == "blackjack":  # § 633b.4(b): in $5 increments
        return _money(500 * rng.randint(-(-lo // 500), hi // 500))
    return _money(
        rng.randint(lo, hi) if rng.random() < 0.5 else rng.randint(lo // 100, hi // 100) * 100
    )


def _bets(rng: random.Random, sub: RulesSubmission) -> list[dict[str, Any]]:
    ids = [w.wager for w in sub.wagers]
    base = [w for w in ids if w in sub.base.base_wagers]
    side = [w for w in ids if w not in base]
    if sub.variant is not None:
        side.append("switch-hands-ante")
    steps: list[dict[str, Any]] = []
    seats = sorted(rng.sample(range(1, sub.seats + 1), rng.randint(1, min(4, sub.seats))))
    for seat in seats:
        chosen = [rng.choice(base)] if base and rng.random() < 0.98 else []
        if base and sub.game.value == "baccarat" and rng.random() < 0.3:
            chosen = rng.sample(base, rng.randint(1, len(base)))
        chosen += [
            w
            for w in side
            if rng.random() < (0.97 if w == "switch-hands-ante" and sub.switch_hands else 0.6)
        ]
        if rng.random() < 0.01:
            rng.shuffle(chosen)  # a side wager before its base wager
        if rng.random() < 0.01:
            chosen.append(rng.choice(["perfect-pair", "blackjack", "AXMAN", " jackpot-party "]))
        player = rng.choice(["ann", "bob"]) if sub.adjacent_boxes and rng.random() < 0.5 else None
        for w in chosen:
            amount = _amount(rng, sub, w)
            if w == "switch-hands-ante":  # $1 for every $5 of the Blackjack wager, mostly
                prev = [
                    s["amount"] for s in steps if s["seat"] == seat and s["wager"] == "blackjack"
                ]
                cents = int(prev[0][1:].split(".")[0].replace(",", "")) * 20 if prev else 200
                amount = _money(cents if rng.random() < 0.97 else cents + 100)
            step: dict[str, Any] = {"action": "bet", "seat": seat, "wager": w, "amount": amount}
            if player:
                step["player"] = player
            if rng.random() < 0.003:
                step["seat"] = rng.choice([0, 8, 10])
            steps.append(step)
    return steps


def _cards(cards: list[str], n: int) -> str:
    return " ".join(cards.pop() for _ in range(n))


def _deal(
    rng: random.Random, sub: RulesSubmission, rnd: TableRound, shoe: list[str]
) -> dict[str, Any]:
    seats = sorted({b.seat for b in rnd.bets})
    if sub.game.value == "baccarat" or rng.random() < 0.25:
        return {"action": "deal", "seed": rng.randrange(1_000_000)}
    if rng.random() < 0.03 and seats:
        seats = seats[1:] or [seats[0] + 1]  # a seat left out, or another dealt
    if sub.game.value == "blackjack":
        step: dict[str, Any] = {
            "action": "deal",
            "players": {str(s): _cards(shoe, 2) for s in seats},
        }
        ante = {b.seat for b in rnd.bets if b.wager == "switch-hands-ante"}
        if ante:
            step["switch_cards"] = {str(s): _cards(shoe, 2) for s in sorted(ante)}
        step["dealer"] = _cards(shoe, rng.choice([2, 2, 2, 2, 3]))
        if rng.random() < 0.15:  # a dealer Blackjack, for the peek and Jackpot Party
            step["dealer"] = rng.choice(["As Kd", "Ad Jd", "Qh Ah", "Ac Tc"])
        if rng.random() < 0.2 and seats:  # a pair, to split
            first = shoe.pop()
            second = shoe.pop(next(i for i, c in enumerate(shoe) if c[0] == first[0]))
            step["players"][str(rng.choice(seats))] = f"{first} {second}"
        if rng.random() < 0.08 and seats:  # a royal flush: Jackpot Party's meter and envy
            suit = rng.choice("cdhs")
            step["dealer"] = f"A{suit} J{suit}"
            step["players"][str(rng.choice(seats))] = f"K{suit} Q{suit}"
        return step
    if sub.game.value == "four-card-poker":
        players = {str(s): _cards(shoe, 5) for s in seats}
        return {"action": "deal", "players": players, "dealer": _cards(shoe, 6),
                "bonus": shoe.pop()}  # fmt: skip
    return {"action": "deal", "players": {str(s): _cards(shoe, 2) for s in seats}}


def _decision(rng: random.Random, rnd: TableRound, shoe: list[str]) -> dict[str, Any] | None:
    """A decision step, mostly one the round allows now (the seat whose turn it is)."""
    seats = sorted({b.seat for b in rnd.bets})
    play = rnd.blackjack
    if play is None:
        ante = {b.seat for b in rnd.bets if b.wager in ("four-card-poker", "criss-cross")}
        todo = [s for s in seats if s in ante and s not in dict(rnd.decisions)]
        if not todo or rng.random() < 0.03:
            return None
        seat = todo[0] if rng.random() < 0.9 else rng.choice(seats)
        if rnd.game.value == "four-card-poker" and rng.random() < 0.8:
            ante_cents = rnd.seat_bets(seat).get("four-card-poker", 1000)
            return {"action": "play", "seat": seat,
                    "amount": _money(ante_cents * rng.choice([1, 2, 3, 3, 2, 1, 4]))}  # fmt: skip
        return {"action": "fold", "seat": seat}
    asking, acting = play.to_ask(), play.to_act()
    card = shoe.pop() if shoe else None
    if asking is not None:
        seat = asking.seat if rng.random() < 0.95 else rng.choice(seats)
        return {"action": rng.choice(["keep", "switch"]), "seat": seat}
    if acting is not None:
        seat = acting.seat if rng.random() < 0.95 else rng.choice(seats)
        move = rng.choice(["hit", "hit", "hit", "stand", "stand", "stand", "double", "split"])
        if rng.random() < 0.04:
            move = "surrender"
        hand = acting.hands[acting.current(play.rules) or 0].cards
        if len(hand) == 2 and hand[0].rank == hand[1].rank and rng.random() < 0.6:
            move = "split"
        step: dict[str, Any] = {"action": move, "seat": seat}
        if move in ("hit", "double") and card is not None and rng.random() < 0.97:
            step["card"] = card
        if move == "double" and rng.random() < 0.3:
            step["amount"] = "$5"
        return step
    if rnd.dealer_finished() or rng.random() < 0.05:
        return None
    if rng.random() < 0.5 and card is not None:
        return {"action": "dealer-draw", "card": card}
    return {
        "action": "dealer-draw",
        "cards": " ".join(c for c in (card, shoe.pop() if shoe else None) if c),
    }


def base_game_of(sub: RulesSubmission) -> str:
    """Who settles a random round file's base game: croupier, except at Criss-Cross Poker, whose
    base game croupier does not settle (the file declares it ``"external"``)."""
    return "croupier" if sub.base.croupier_settles else "external"


def round_file(seed: int) -> tuple[RulesSubmission, list[dict[str, Any]]]:
    """A random round file's table and steps: bets, mostly a no-more-bets, a deal, decisions
    mostly in turn, mostly a settle — stopped at the first step the engine refuses (the file
    keeps that step)."""
    rng = random.Random(seed)
    sub = table(seed % len(TABLES))
    shoe = [str(c) for c in Shoe.standard(sub.decks).cards()]
    rng.shuffle(shoe)
    steps = _bets(rng, sub)
    rnd = TableRound.open(sub, base_game=base_game_of(sub))

    def take(step: dict[str, Any]) -> bool:
        nonlocal rnd
        steps.append(step)
        try:
            rnd = apply_step(rnd, parse_step(step), len(steps))
        except CroupierError:
            return False
        return True

    bets, steps = steps, []
    for step in bets:
        if not take(step):
            return sub, steps
    if rng.random() < 0.85 and not take({"action": "no-more-bets"}):
        return sub, steps
    if rng.random() < 0.02:
        take({"action": "bet", "seat": 1, "wager": sub.wagers[0].wager, "amount": "$25"})
        return sub, steps
    if not take(_deal(rng, sub, rnd, shoe)):
        return sub, steps
    for _ in range(40):
        decision = _decision(rng, rnd, shoe)
        if decision is None:
            break
        if not take(decision):
            return sub, steps
    if rng.random() < 0.85:
        take({"action": "settle"})
    return sub, steps


def file_records(seeds: range) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each round file replayed from the start as the service replays it."""
    for seed in seeds:
        sub, steps = round_file(seed)
        try:
            rnd = replay(sub, [parse_step(s) for s in steps], "r", base_game_of(sub))
        except CroupierError as exc:
            yield f"file/{seed}", error_record(exc)
            continue
        yield f"file/{seed}", record(rnd)


def every_record() -> Iterator[tuple[str, dict[str, Any]]]:
    for game in agreement.GAMES:
        yield from agreement_records(game, range(AGREEMENT_ROUNDS))
    yield from file_records(range(FILE_ROUNDS))


# -- the test ------------------------------------------------------------------------------------


def test_random_rounds_give_what_the_engine_gave_before() -> None:
    want = read_digests()
    seen = 0
    for name, rec in every_record():
        assert name in want, f"{name}: no digest stored (write them: see the module docstring)"
        got = digest(rec)
        if got != want[name]:
            text = json.dumps(rec, indent=1, sort_keys=True, ensure_ascii=False)
            raise AssertionError(f"{name}: the round's record changed ({got}):\n{text[:6000]}")
        seen += 1
    assert seen == len(want)


def test_the_round_files_exercise_what_they_should() -> None:
    """Errors, settled rounds, every game and the progressive and envy lines are all there."""
    kinds: dict[str, int] = {}
    for _, rec in file_records(range(0, FILE_ROUNDS, 3)):
        if "error" in rec:
            kinds["error"] = kinds.get("error", 0) + 1
            continue
        kinds["settled"] = kinds.get("settled", 0) + 1
        for e in rec["events"]:
            key = e["action"] + (":" + e["wager"] if e["wager"] else "")
            kinds[key] = kinds.get(key, 0) + 1
        for line in rec["settlement"]["lines"]:
            kinds[line["kind"]] = kinds.get(line["kind"], 0) + 1
    for kind in ("error", "settled", "settlement:jackpot-party", "settlement:axman-h17",
                 "settlement:match-the-dealer", "settlement:four-card-progressive", "envy-bonus",
                 "hit:blackjack", "split:blackjack", "dealer-draw", "switch:blackjack",
                 "settlement:cover-all", "fold", "play:four-card-poker"):  # fmt: skip
        assert kinds.get(kind, 0) > 0, (kind, sorted(kinds.items()))


# -- the shortcuts the engine takes, and what they rest on --------------------------------------


def _outcome(make: Callable[[], bytes]) -> bytes | str:
    try:
        return make()
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        return type(exc).__name__


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.text(st.characters(exclude_categories=())),  # lone surrogates too
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=()), max_size=4), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=400)
@given(JSON_VALUES)
def test_canonical_json_is_what_json_dumps_made(value: object) -> None:
    """round_content's orjson bytes are json.dumps's (sorted keys, no spaces, UTF-8) for every
    value a round holds — control characters, quotes, any Unicode — and where orjson refuses a
    value (beyond 64 bits, a lone surrogate) the outcome is json's: the same bytes, or the same
    error."""

    def plain() -> bytes:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return text.encode()

    assert _outcome(lambda: canonical_json(value)) == _outcome(plain)


STORED_AT_ONCE = [
    Event, SettlementLine, Settlement, SeatBet, TableContext,
    HandInPlay, SeatPlay, MoveResult, BlackjackPlay,
    PlayedHand, SwitchSeat, SwitchLine, SeatSettlement,
]  # fmt: skip


@pytest.mark.parametrize("cls", STORED_AT_ONCE, ids=lambda c: c.__name__)
def test_an_init_that_stores_at_once_takes_and_makes_what_the_generated_one_did(
    cls: type,
) -> None:
    """The classes given :func:`croupier.frozen.stored_at_once`: the same parameters, kinds and
    defaults as the dataclass's generated ``__init__``, and the same instance from the same
    arguments (every field in the instance dict, in order), still frozen."""
    init: Any = vars(cls)["__init__"]
    generated = init.__wrapped__
    assert init.__qualname__ == generated.__qualname__ == f"{cls.__qualname__}.__init__"
    ours, theirs = inspect.signature(init), inspect.signature(generated)
    assert [(p.name, p.kind, p.annotation) for p in ours.parameters.values()] == [
        (p.name, p.kind, p.annotation) for p in theirs.parameters.values()
    ]
    for f, p in zip(fields(cls), list(ours.parameters.values())[1:], strict=True):
        if f.default_factory is not MISSING:
            assert repr(p.default) == "<factory>"
        else:
            assert p.default is (inspect.Parameter.empty if f.default is MISSING else f.default)
    # every field given (a distinct object each), then only the required ones
    given = {f.name: object() for f in fields(cls)}
    made: Any = object.__new__(cls)
    reference: Any = object.__new__(cls)
    init(made, **given)
    generated(reference, **given)
    assert list(vars(made).items()) == list(vars(reference).items())
    required = [
        given[f.name] for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING
    ]
    made, reference = object.__new__(cls), object.__new__(cls)
    init(made, *required)
    generated(reference, *required)
    assert vars(made) == vars(reference)
    with pytest.raises(FrozenInstanceError):
        setattr(made, fields(cls)[0].name, None)


def test_stored_at_once_refuses_a_class_whose_init_does_more() -> None:
    @dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class Hidden:
        a: int
        b: int = field(default=0, init=False)

    @dataclass
    class Mutable:
        a: int

    for cls in (Checked, Hidden, Mutable):
        with pytest.raises(TypeError):
            stored_at_once(cls)


def test_a_round_copied_without_init_has_nothing_else_to_init() -> None:
    """TableRound._evolve copies a round's dict: sound only while ``__init__`` does nothing but
    store the fields."""
    assert not hasattr(TableRound, "__post_init__")
    assert all(f.init for f in fields(TableRound))
    assert TableRound.__dataclass_params__.frozen  # type: ignore[attr-defined]


def _write() -> None:  # pragma: no cover - run by hand at a reference commit
    out = {name: digest(rec) for name, rec in every_record()}
    write_digests(out)
    print(f"{len(out)} digests written to {DIGESTS}")


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] != ["--write"]:
        raise SystemExit(
            "usage: PYTHONPATH=tests python tests/table/test_replay_identity.py --write"
        )
    _write()

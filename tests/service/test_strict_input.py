"""Wrong types and repeated keys are refused, not converted (a fresh user's trial of the HTTP
service):

* ``"seat": true`` was seat 1; ``"amount": "$１０"`` (fullwidth) and ``"$١٠"`` (Arabic-Indic
  digits) were $10, and ``croupier hand … --amount '５'`` settled $5. A number is a JSON number
  (never a boolean or a string), and money and whole numbers are read from the ASCII digits 0–9
  only.
* ``{"action": "bet", …, "action": "settle"}`` ran as a settle: a key named twice in one object
  of a request body or a round file is an ``InputError`` naming the key.

Expected values are the regulation's pays worked by hand (§ 633b.1 paytable A: a Mixed Pair pays
6 to 1).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.errors import (
    InputError,
    InputFileError,
    PaytableError,
    RoundStateError,
    SubmissionError,
)
from croupier.inputs import parse_json
from croupier.progressive import QualifyingHand
from croupier.service.app import _plainly_within
from croupier.table.record import settle_record
from croupier.table.round import TableRound
from croupier.table.submission import submission_from_data
from croupier.units import ascii_digits, parse_amount, parse_money
from croupier.wagers.at_table import DealtCards
from progressive_support import FLOOR, mtd_ledger
from service_support import (
    BLACKJACK_SUBMISSION,
    DEALER,
    PIT,
    PLAIN_SUBMISSION,
    Server,
    keyed,
    link,
    pp_round,
    serving,
)

ROUND: list[dict[str, Any]] = [
    {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
    {"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"},
    {"action": "no-more-bets"},
    {"action": "deal", "players": {"3": "8s 8h"}, "dealer": "Kd 9c"},
]
"""Seat 3: 8♠ 8♥, a Mixed Pair (§ 633b.1 paytable A: 6 to 1, +$30 on $5)."""


def _round(steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "r", "submission": PLAIN_SUBMISSION, "steps": steps}


# -- the library ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["$１０", "$١٠", "$1０", "$\u00a010"])
def test_money_is_read_from_ascii_digits_only(text: str) -> None:
    with pytest.raises(PaytableError, match="not a dollar amount"):
        parse_money(text)
    assert parse_money("$10") == 1000


def test_an_amount_typed_with_other_digits_says_which_digit() -> None:
    with pytest.raises(InputError, match="'５' is U\\+FF15 FULLWIDTH DIGIT FIVE"):
        parse_amount("５", "--amount")
    with pytest.raises(InputError, match="U\\+0661 ARABIC-INDIC DIGIT ONE"):
        parse_amount("$١٠", "--amount")


def test_ascii_digits_are_0_to_9() -> None:
    assert [ascii_digits(t) for t in ("0", "42", "４２", "٤", "²", "", "4 2")] == [
        True,
        True,
        False,
        False,
        False,
        False,
        False,
    ]


@pytest.mark.parametrize(
    ("step", "field"),
    [
        ({"action": "bet", "seat": True, "wager": "perfect-pairs", "amount": "$5"}, "seat"),
        ({"action": "bet", "seat": "3", "wager": "perfect-pairs", "amount": "$5"}, "seat"),
        ({"action": "bet", "seat": 3.0, "wager": "perfect-pairs", "amount": "$5"}, "seat"),
        ({"action": "deal", "seed": True}, "seed"),
        ({"action": "deal", "players": {"3_0": "8s 8h"}, "dealer": "Kd 9c"}, "players"),
        ({"action": "deal", "players": {"３": "8s 8h"}, "dealer": "Kd 9c"}, "players"),
        ({"action": "deal", "players": {"+3": "8s 8h"}, "dealer": "Kd 9c"}, "players"),
    ],
)
def test_a_round_files_numbers_are_json_numbers(step: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError, match=f"step 1, {field}"):
        settle_record(_round([step]))


@pytest.mark.parametrize("amount", ["$１０", "$١٠"])
def test_a_round_files_amounts_are_ascii(amount: str) -> None:
    bet = {"action": "bet", "seat": 3, "wager": "blackjack", "amount": amount}
    with pytest.raises(InputError, match="not a dollar amount"):
        settle_record(_round([bet, *ROUND[1:]]))


def test_the_round_the_trial_sent_settles_with_its_true_types() -> None:
    rnd = settle_record({**_round(ROUND), "base_game": "external"})  # no player's play
    pp = next(line for line in rnd.settlement().lines if line.wager == "perfect-pairs")
    assert (pp.seat, pp.stake_cents, pp.win_cents) == (3, 500, 3000)  # 6 to 1 on $5


def test_the_round_library_takes_no_boolean_seat_or_seed() -> None:
    sub = submission_from_data(PLAIN_SUBMISSION, "plain")
    rnd = TableRound.open(sub)
    with pytest.raises(InputError, match="seat True"):
        rnd.bet(True, "blackjack", 2500)
    placed = rnd.bet(1, "blackjack", 2500).no_more_bets()
    with pytest.raises(InputError, match="seed"):
        placed.deal_shoe(True)
    dealt = placed.deal(DealtCards.parse(players={1: "Th 6c"}, dealer="Kd 7c"))
    with pytest.raises(InputError, match="a seat is a whole number from 1, not True"):
        dealt.stand(True)
    assert dealt.stand(1).phase is not None  # seat 1 itself stands


def test_the_ledgers_library_takes_no_boolean_count_position_or_award(tmp_path: Path) -> None:
    with mtd_ledger(f"sqlite:///{tmp_path / 'ledger.db'}") as ledger:
        system = ledger.system("mtd-5")
        system.accept_wagers("BJ-1/r1", "BJ-1", [1], by=DEALER)
        system.lock_out("BJ-1/r1", by=DEALER)
        before = ledger.event_count()
        with pytest.raises(RoundStateError, match="a chip count is a whole number, not True"):
            system.verify_chips("BJ-1/r1", True, by=DEALER)
        with pytest.raises(InputError, match="a position is a seat number"):
            QualifyingHand(True, "suited-match")
        with pytest.raises(InputError, match="an award id is a whole number, not True"):
            ledger.validate(True, by=FLOOR)
        with pytest.raises(InputError, match="an award id is a whole number, not True"):
            ledger.void_award(True, by=FLOOR, reason="not a winning hand")
        assert ledger.event_count() == before


@pytest.mark.parametrize("key", ["３", "3_0", "x"])
def test_dealt_cards_seats_are_ascii_digits(key: str) -> None:
    with pytest.raises(InputError, match="a seat is a whole number from 1"):
        DealtCards.parse(players={key: "8s 8h"}, dealer="Kd 9c")  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("key", "value"),
    [("decks", True), ("decks", "6"), ("seats", 7.0), ("switch_hands", "no"), ("switch_hands", 1)],
)
def test_a_rules_submissions_numbers_and_flags_are_not_converted(key: str, value: object) -> None:
    with pytest.raises(SubmissionError, match=key):
        submission_from_data({**PLAIN_SUBMISSION, key: value}, "submission")


def test_a_key_named_twice_in_a_json_file_is_refused_naming_it() -> None:
    text = '{"steps": [{"action": "bet", "seat": 3, "action": "settle"}]}'
    with pytest.raises(InputFileError, match="the key 'action' appears twice in one object"):
        parse_json(text, "round.json")


# -- the service's cheap scan ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "plain"),
    [
        (b'{"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"}', True),
        (b'{"a": {"b": [1, {"c": 2}]}, "d": []}', True),
        (b'{"action": "bet", "seat": 3, "action": "settle"}', False),  # the repeated key
        (b'{"a": {"b": 1, "b": 1}}', False),  # even with the same value
        (b'{"paytable": "633b.3:1"}', False),  # a colon in a string: looked at closer
        (b'"a:b"', False),
        (b"[1, 2]", True),
    ],
)
def test_the_scan_passes_only_bodies_with_a_member_per_colon(body: bytes, plain: bool) -> None:
    assert _plainly_within(body) is plain


def test_a_body_the_scan_doubts_is_judged_by_the_full_parse() -> None:
    assert parse_json('{"paytable": "633b.3:1", "at": "06:00"}', "body") == {
        "paytable": "633b.3:1",
        "at": "06:00",
    }


# -- over HTTP -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-strict")) as srv:
        with srv.client() as c:
            link(c, srv, "ST-1")
            r = c.post(
                "/tables",
                json={"table": "ST-1", "submission": BLACKJACK_SUBMISSION},
                headers=keyed(srv.auth(PIT)),
            )
            assert r.status_code == 201, r.text
        yield srv


def _post(srv: Server, path: str, body: bytes, **params: str) -> httpx.Response:
    headers = keyed({**srv.auth(DEALER), "Content-Type": "application/json"})
    with srv.client() as c:
        return c.post(path, content=body, params=params, headers=headers)


def _table(srv: Server) -> dict[str, Any]:
    with srv.client() as c:
        found: dict[str, Any] = c.get("/tables/ST-1", headers=srv.auth(DEALER)).json()
    return found


@pytest.mark.parametrize(
    "step",
    [
        {"action": "bet", "seat": True, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$２５"},
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$٢٥"},
    ],
)
def test_an_open_tables_step_of_the_wrong_type_is_refused_and_changes_nothing(
    server: Server, step: dict[str, Any]
) -> None:
    before = _table(server)
    r = _post(server, "/tables/ST-1/steps", json.dumps(step, ensure_ascii=False).encode())
    assert r.status_code == 422, r.text
    assert r.json()["error_type"] == "InputError"
    assert _table(server)["events"] == before["events"]


def test_a_step_naming_its_action_twice_is_refused_naming_the_key(server: Server) -> None:
    before = _table(server)
    body = (
        b'{"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25", "action": "settle"}'
    )
    r = _post(server, "/tables/ST-1/steps", body)
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["error_type"] == "InputFileError"
    assert "the key 'action' appears twice in one object" in problem["detail"]
    assert _table(server)["events"] == before["events"]


@pytest.mark.parametrize("kind", ["application/json", "application/JSON", "application/ld+json"])
def test_a_round_file_with_a_repeated_key_is_refused_whatever_the_case_of_its_type(
    server: Server, kind: str
) -> None:
    text = json.dumps(pp_round("dup-1"))
    body = text.replace('"id": "dup-1"', '"id": "dup-1", "id": "dup-2"', 1).encode()
    headers = keyed({**server.auth(DEALER), "Content-Type": kind})
    with server.client() as c:
        r = c.post("/rounds/settle", content=body, params={"table": "BJ-1"}, headers=headers)
        assert r.status_code == 422, r.text
        assert "the key 'id' appears twice" in r.json()["detail"]
        stored = c.get("/rounds", params={"table": "BJ-1"}, headers=server.auth(DEALER)).json()
    assert stored["count"] == 0


def test_a_deeply_nested_body_typed_in_capitals_is_held_to_the_limit(server: Server) -> None:
    body = b'{"id": "deep", "submission": ' + b"[" * 40 + b"]" * 40 + b', "steps": []}'
    headers = keyed({**server.auth(DEALER), "Content-Type": "Application/JSON"})
    with server.client() as c:
        r = c.post("/rounds/settle", content=body, params={"table": "BJ-1"}, headers=headers)
    assert r.status_code == 422, r.text
    assert "nested more than 32 deep" in r.json()["detail"]


def test_a_progressive_of_true_decks_is_refused(server: Server) -> None:
    spec = {"paytable": "633b.3:1", "decks": True, "amount": "$5", "name": "mtd-true"}
    with server.client() as c:
        r = c.post("/progressives", json=spec, headers=keyed(server.auth("sam")))
    assert r.status_code == 422, r.text
    assert "decks" in r.json()["detail"]


# -- the command line ----------------------------------------------------------------------------


def _croupier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("amount", ["５", "$١٠"])
def test_croupier_hand_refuses_an_amount_in_other_digits(amount: str) -> None:
    p = _croupier(
        "hand", "perfect-pairs", "8s 8s", "--paytable", "A", "--decks", "6", "--amount", amount
    )
    assert p.returncode == 2
    assert "digits are ASCII 0–9 only" in p.stderr
    assert "+$" not in p.stdout  # nothing settled


def test_croupier_settle_refuses_a_round_file_with_a_repeated_key(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    steps = json.dumps(ROUND)[1:-1]
    path.write_text(
        '{"submission": ' + json.dumps(PLAIN_SUBMISSION) + ', "steps": [' + steps + "],"
        ' "steps": []}',
        encoding="utf-8",
    )
    p = _croupier("settle", str(path))
    assert p.returncode == 2
    assert "the key 'steps' appears twice in one object" in p.stderr

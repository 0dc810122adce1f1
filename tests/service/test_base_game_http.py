"""Who settles a round's base game, over HTTP (issue 29): ``POST /rounds/settle`` and
``POST /tables`` take ``"base_game"`` — ``"croupier"`` (the default: a Blackjack hand left unplayed
is refused naming the seat) or ``"external"`` (each base wager a line of the base game's, its win
``null``, outside the net) — and the stored round says which."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from progressive_support import BACKENDS
from service_support import DEALER, PIT, Server, keyed, round_file, serving

PLAIN: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-plain",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
    ],
}
"""A table with no progressive wager (it opens without a linked progressive)."""

CRISS_CROSS: dict[str, Any] = {
    "game": "criss-cross-poker",
    "decks": 1,
    "seats": 6,
    "wagers": [
        {"wager": "criss-cross", "min": "$10", "max": "$500"},
        {"wager": "ultimate-pairs", "paytable": "C", "min": "$5", "max": "$100"},
    ],
}

STEPS: list[dict[str, Any]] = [
    {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
    {"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"},
    {"action": "no-more-bets"},
    {"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"},
    {"action": "settle"},
]
"""Seat 3's 8s 8s (a Perfect Pair, 25 to 1 on $5) against Kd 9c; no player decision."""


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"base-game-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def post_round(c: httpx.Client, srv: Server, table: str, body: dict[str, Any]) -> httpx.Response:
    return c.post(
        "/rounds/settle", params={"table": table}, json=body, headers=keyed(srv.auth(DEALER))
    )


def test_a_round_without_its_decisions_is_refused_naming_the_seat(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        r = post_round(c, server, table, round_file("r1", STEPS, PLAIN))
        assert r.status_code == 422, r.text
        detail = r.json()["detail"]
        assert "seat 3's hand 8s 8s (16) is unplayed" in detail
        assert '"base_game": "external"' in detail
        assert r.json()["section"] == "633a.7"
        # nothing stored
        assert c.get(f"/rounds/{table}/r1", headers=server.auth(DEALER)).status_code == 404


def test_an_external_round_s_blackjack_line_is_null_and_outside_the_net(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        r = post_round(c, server, table, round_file("r1", STEPS, PLAIN, base_game="external"))
        assert r.status_code == 201, r.text
        doc = r.json()
        assert doc["base_game"] == "external"
        (bj,) = [x for x in doc["settlement"]["lines"] if x["wager"] == "blackjack"]
        assert bj["settled_by_base_game"] is True
        assert (bj["win_cents"], bj["win"], bj["returned_cents"]) == (None, None, None)
        assert doc["settlement"]["net_cents"] == doc["net_cents"] == 12500  # the pair alone
        stored = c.get(f"/rounds/{table}/r1", headers=server.auth(DEALER)).json()
        assert stored["base_game"] == "external"
        # the same bet played out (one stand) and croupier settling it: 16 loses against 19
        played = [*STEPS[:4], {"action": "stand", "seat": 3}, STEPS[4]]
        r = post_round(c, server, table, round_file("r2", played, PLAIN))
        assert r.status_code == 201, r.text
        assert r.json()["base_game"] == "croupier"
        (bj,) = [x for x in r.json()["settlement"]["lines"] if x["wager"] == "blackjack"]
        assert (bj["win_cents"], bj["settled_by_base_game"]) == (-2500, False)
        assert r.json()["net_cents"] == 12500 - 2500


def test_an_unknown_base_game_is_refused(server: Server) -> None:
    with server.client() as c:
        body = round_file("r1", STEPS, PLAIN, base_game="vendor")
        r = post_round(c, server, uid("BJ"), body)
        assert r.status_code == 422, r.text


def test_an_open_table_declared_external_settles_without_the_players_play(
    server: Server,
) -> None:
    table = uid("BJ")
    with server.client() as c:
        opened = c.post(
            "/tables",
            json={"table": table, "submission": PLAIN, "base_game": "external"},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        assert opened.json()["base_game"] == "external"
        listed = c.get("/tables", headers=server.auth(DEALER)).json()["tables"]
        assert [t["base_game"] for t in listed if t["table"] == table] == ["external"]
        last = None
        for body in STEPS[:4]:
            last = c.post(f"/tables/{table}/steps", json=body, headers=keyed(server.auth(DEALER)))
            assert last.status_code == 200, last.text
        assert last is not None
        assert last.json()["to_act"] == [] and "settle" in last.json()["allowed"]
        stand = c.post(
            f"/tables/{table}/steps",
            json={"action": "stand", "seat": 3},
            headers=keyed(server.auth(DEALER)),
        )
        assert stand.status_code == 422, stand.text
        settled = c.post(
            f"/tables/{table}/steps", json={"action": "settle"}, headers=keyed(server.auth(DEALER))
        )
        assert settled.status_code == 200, settled.text
        doc = settled.json()["settled"]
        assert doc["base_game"] == "external"
        (bj,) = [x for x in doc["settlement"]["lines"] if x["wager"] == "blackjack"]
        assert (bj["win_cents"], bj["settled_by_base_game"]) == (None, True)
        assert doc["net_cents"] == 12500
        # the table's next round is external too
        assert settled.json()["base_game"] == "external"


def test_an_open_table_croupier_settles_refuses_settle_before_the_hands(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        opened = c.post(
            "/tables", json={"table": table, "submission": PLAIN}, headers=keyed(server.auth(PIT))
        )
        assert opened.status_code == 201, opened.text
        assert opened.json()["base_game"] == "croupier"
        for body in STEPS[:4]:
            last = c.post(f"/tables/{table}/steps", json=body, headers=keyed(server.auth(DEALER)))
            assert last.status_code == 200, last.text
        settle = c.post(
            f"/tables/{table}/steps", json={"action": "settle"}, headers=keyed(server.auth(DEALER))
        )
        assert settle.status_code == 422, settle.text
        assert "seat 3's hand 8s 8s (16) is unplayed" in settle.json()["detail"]


def test_criss_cross_poker_must_be_declared_external(server: Server) -> None:
    with server.client() as c:
        refused = c.post(
            "/tables",
            json={"table": uid("CC"), "submission": CRISS_CROSS},
            headers=keyed(server.auth(PIT)),
        )
        assert refused.status_code == 422, refused.text
        assert 'declare "base_game": "external"' in refused.json()["detail"]
        assert refused.json()["section"] == "674a.11"
        opened = c.post(
            "/tables",
            json={"table": uid("CC"), "submission": CRISS_CROSS, "base_game": "external"},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text

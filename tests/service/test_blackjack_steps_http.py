"""Blackjack step by step at an open table over HTTP (``POST /tables``, ``POST
/tables/{t}/steps``): the dealer's draws are a ``dealer-draw`` step after the players' hands
(§ 633a.7), ``settle`` is refused until every hand is played and the dealer's hand is finished,
and ``allowed`` follows the round's order (trial findings, item 5). Figures by hand in comments.

One backend (SQLite): the order is the round's state machine, the same whatever the database.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service_support import DEALER, PIT, Server, keyed, serving

SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "F2",
    "decks": 6,
    "dealer": "S17",
    "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("f2-service")) as srv:
        yield srv


def test_the_dealer_draws_in_its_own_step_after_the_players(server: Server) -> None:
    table = f"F2-{uuid.uuid4().hex[:8]}"
    with server.client() as c:
        opened = c.post(
            "/tables",
            json={"table": table, "submission": SUBMISSION},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text

        def step(body: dict[str, Any]) -> httpx.Response:
            return c.post(f"/tables/{table}/steps", json=body, headers=keyed(server.auth(DEALER)))

        for body in (
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 4, "wager": "blackjack", "amount": "$10"},
            {"action": "no-more-bets"},
        ):
            assert step(body).status_code == 200
        # the upcard and hole card only: Kd 6c is 16 and must draw, later
        dealt = step({"action": "deal", "players": {"1": "Th 9c", "4": "7s 7d"}, "dealer": "Kd 6c"})
        assert dealt.status_code == 200, dealt.text
        assert "settle" not in dealt.json()["allowed"]
        assert "dealer-draw" not in dealt.json()["allowed"]
        early = step({"action": "settle"})  # straight after the deal: refused, nothing stored
        assert early.json()["error_type"] == "ProcedureError", early.text
        assert early.json()["section"] == "633a.7" and "seat 1" in early.json()["detail"]
        assert step({"action": "stand", "seat": 1}).status_code == 200
        waiting = step({"action": "dealer-draw", "card": "2c"})  # seat 4 has not acted
        assert waiting.json()["error_type"] == "ProcedureError"
        assert "seat 4" in waiting.json()["detail"]
        hit = step({"action": "hit", "seat": 4, "card": "Kh"})  # 7 7 K = 24: busts
        assert hit.status_code == 200, hit.text
        assert hit.json()["allowed"] == ["dealer-draw"]
        missing = step({"action": "settle"})
        assert (
            missing.json()["error_type"] == "RulesError" and missing.json()["section"] == "633a.7"
        )
        drew = step({"action": "dealer-draw", "card": "2c"})  # 16 + 2 = 18: stands
        assert drew.status_code == 200, drew.text
        assert drew.json()["allowed"] == ["settle"]
        assert drew.json()["events"][-1]["action"] == "dealer-draw"
        more = step({"action": "dealer-draw", "card": "3c"})
        assert more.json()["error_type"] == "RulesError" and "draws no 3c" in more.json()["detail"]
        done = step({"action": "settle"})
        assert done.status_code == 200, done.text
        lines = {x["seat"]: x["win_cents"] for x in done.json()["settled"]["settlement"]["lines"]}
        # seat 1: 19 beats 18, 1 to 1 on $25; seat 4 busted: loses $10
        assert lines == {1: 2500, 4: -1000}
        assert done.json()["settled"]["cards"].startswith("dealer: Kd 6c 2c")

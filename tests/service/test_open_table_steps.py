"""An open table over HTTP after a fresh user's trial: ``allowed`` is exactly what the round would
accept and ``to_act`` names the seat and hand (item 1); the deal is the dealer's upcard and hole
card only, the draws coming by ``dealer-draw`` after every hand (item 2, § 633a.7); and no page
names a host taken from the request's ``Host`` header (item 3).

Figures by hand in the comments. One backend (SQLite): the round's state machine and the pages
are the same whatever the database.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from service_support import DEALER, PIT, Server, keyed, round_file, serving

SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "H-plain",
    "decks": 6,
    "dealer": "S17",
    "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
}
"""A plain six-deck S17 Blackjack table: no surrender (§ 633a.9: only where the Rules Submission
offers it), no Switch Hands."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-table")) as srv:
        yield srv


def open_table(c: httpx.Client, server: Server, submission: dict[str, Any] = SUBMISSION) -> str:
    table = f"H-{uuid.uuid4().hex[:8]}"
    opened = c.post(
        "/tables",
        json={"table": table, "submission": submission},
        headers=keyed(server.auth(PIT)),
    )
    assert opened.status_code == 201, opened.text
    # no wager yet: "No more bets" would be refused (no wager has been placed), so only bet
    assert opened.json()["allowed"] == ["bet"] and opened.json()["to_act"] == []
    return table


def stepper(c: httpx.Client, server: Server, table: str) -> Any:
    def step(body: dict[str, Any]) -> httpx.Response:
        return c.post(f"/tables/{table}/steps", json=body, headers=keyed(server.auth(DEALER)))

    return step


def test_allowed_and_to_act_are_what_the_round_takes(server: Server) -> None:
    with server.client() as c:
        table = open_table(c, server)
        step = stepper(c, server, table)
        for body in (
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$25"},
            {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$10"},
        ):
            assert step(body).json()["allowed"] == ["bet", "no-more-bets"]
        assert step({"action": "no-more-bets"}).json()["allowed"] == ["deal"]
        dealt = step({"action": "deal", "players": {"1": "9h 2c", "3": "Th 7c"}, "dealer": "7h 9c"})
        assert dealt.status_code == 200, dealt.text
        # 9h 2c: a double on two cards (§ 633a.10), no pair to split (§ 633a.11), no surrender
        # at this table (§ 633a.9); seat 1, its only hand, acts first (§ 633a.7)
        assert dealt.json()["allowed"] == ["double", "hit", "stand"]
        assert dealt.json()["to_act"] == [
            {
                "seat": 1,
                "hand": 1,
                "hands": 1,
                "cards": "9h 2c",
                "actions": ["double", "hit", "stand"],
            }
        ]
        hit = step({"action": "hit", "seat": 1, "card": "5c"})
        assert hit.json()["allowed"] == ["hit", "stand"]  # three cards: no double
        assert hit.json()["to_act"][0]["cards"] == "9h 2c 5c"
        for body, section in (
            ({"action": "double", "seat": 1, "card": "2d"}, "633a.10"),
            ({"action": "split", "seat": 1}, "633a.11"),
            ({"action": "surrender", "seat": 1}, "633a.9"),
        ):
            refused = step(body)
            assert refused.status_code == 422 and refused.json()["section"] == section, body
        again = step({"action": "deal", "players": {"1": "9h 2c"}, "dealer": "7h 9c"})
        assert again.status_code == 422
        # the refusal lists the answer's own allowed, and who acts: no keep or switch here
        assert (
            "(allowed: hit, stand; to act: seat 1 (9h 2c 5c): hit or stand)"
            in (again.json()["detail"])
        ), again.text
        stood = step({"action": "stand", "seat": 1})
        assert stood.json()["to_act"] == [
            {
                "seat": 3,
                "hand": 1,
                "hands": 1,
                "cards": "Th 7c",
                "actions": ["double", "hit", "stand"],
            }
        ]
        step({"action": "stand", "seat": 3})
        read = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        # every hand stood: the dealer's 7 9 = 16 must draw (§ 633a.7), and nothing else
        assert (read["allowed"], read["to_act"]) == (["dealer-draw"], [])
        drew = step({"action": "dealer-draw", "card": "Ts"})  # 26: busts
        assert drew.json()["allowed"] == ["settle"]
        done = step({"action": "settle"})
        lines = {x["seat"]: x["win_cents"] for x in done.json()["settled"]["settlement"]["lines"]}
        assert lines == {1: 2500, 3: 1000}  # the dealer busts: 16 and 17 win 1 to 1


def test_the_deal_at_an_open_table_is_the_upcard_and_the_hole_card(server: Server) -> None:
    with server.client() as c:
        table = open_table(c, server)
        step = stepper(c, server, table)
        step({"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$10"})
        step({"action": "no-more-bets"})
        before = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        whole = step({"action": "deal", "players": {"2": "Th 6c"}, "dealer": "7h 9c 5d"})
        assert whole.status_code == 422, whole.text
        assert (whole.json()["error_type"], whole.json()["section"]) == ("ProcedureError", "633a.7")
        assert "two cards, not 3" in whole.json()["detail"]
        one = step({"action": "deal", "players": {"2": "Th 6c"}, "dealer": "7h"})
        assert one.status_code == 422 and "two cards, not 1" in one.json()["detail"]
        after = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert after == before  # refused: nothing changed
        dealt = step({"action": "deal", "players": {"2": "Th 6c"}, "dealer": "7h 9c"})
        assert dealt.status_code == 200, dealt.text
        assert dealt.json()["cards"].startswith("dealer: 7h 9c;")


def test_a_seeded_deal_at_an_open_table_leaves_the_draws_to_dealer_draw(server: Server) -> None:
    with server.client() as c:
        table = open_table(c, server)
        step = stepper(c, server, table)
        step({"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"})
        dealt = step({"action": "deal", "seed": 11})
        assert dealt.status_code == 200, dealt.text
        dealer = re.match(r"dealer: ([^;]+);", dealt.json()["cards"])
        assert dealer is not None and len(dealer.group(1).split()) == 2  # upcard and hole card
        state = dealt.json()
        while state["to_act"]:  # seat 1 stands on whatever it holds
            state = step({"action": "stand", "seat": 1}).json()
        if "dealer-draw" in state["allowed"]:
            state = step({"action": "dealer-draw"}).json()  # from the rest of the shoe
            assert state["events"][-1]["action"] == "dealer-draw"
        assert state["allowed"] == ["settle"]
        done = step({"action": "settle"})
        assert done.status_code == 200, done.text


def test_a_round_file_may_still_give_the_dealers_draws_at_the_deal(server: Server) -> None:
    """A whole round posted at once (``POST /rounds/settle``) may give the draws after the hole
    card in its deal, as before (docs/interpretations.md): 9 7 T, drawn to 16, is owed."""
    body = round_file(
        f"h-{uuid.uuid4().hex[:8]}",
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$25"},
            {"action": "deal", "players": {"1": "Th 6c"}, "dealer": "9s 7d Ts"},
            {"action": "stand", "seat": 1},
        ],
        SUBMISSION,
    )
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "H-FILE"},
            json=body,
            headers=keyed(server.auth(DEALER)),
        )
    assert r.status_code == 201, r.text
    (line,) = r.json()["settlement"]["lines"]
    assert line["win_cents"] == 2500  # the dealer's 26 busts: 16 wins 1 to 1 on $25


def test_a_round_dealt_the_dealers_whole_hand_before_the_change_still_plays(
    server: Server,
) -> None:
    """A table's round stored mid-play with a deal this service now refuses (the dealer's whole
    hand, taken before the deal was held to two cards) is replayed as it was taken: the table
    can still be read, played and settled (or voided), never stuck."""
    import json

    import sqlalchemy as sa

    from croupier.service import store

    with server.client() as c:
        table = open_table(c, server)
        step = stepper(c, server, table)
        step({"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$25"})
        step({"action": "no-more-bets"})
        engine = sa.create_engine(server.url)
        try:
            with engine.begin() as conn:
                t = store.tables
                row = conn.execute(sa.select(t).where(t.c.table_id == table)).one()
                steps = [
                    *json.loads(row.steps),
                    {"action": "deal", "players": {"1": "Th 6c"}, "dealer": "9s 7d Ts"},
                ]
                conn.execute(
                    sa.update(t)
                    .where(t.c.table_id == table)
                    .values(steps=json.dumps(steps), version=row.version + 1)
                )
        finally:
            engine.dispose()
        read = c.get(f"/tables/{table}", headers=server.auth(DEALER))
        assert read.status_code == 200, read.text
        assert read.json()["cards"].startswith("dealer: 9s 7d Ts;")
        assert read.json()["allowed"] == ["double", "hit", "stand"]  # Th 6c: 16, no pair
        assert step({"action": "stand", "seat": 1}).json()["allowed"] == ["settle"]  # 26: bust
        done = step({"action": "settle"})
        (line,) = done.json()["settled"]["settlement"]["lines"]
        assert line["win_cents"] == 2500  # the dealer's 26 busts: 16 wins 1 to 1 on $25

"""Open tables over HTTP, as a fresh user's trial found them (issue 16, items 1, 3, 4, 18): a real
``croupier serve`` process on SQLite and PostgreSQL.

* Round ids: an open table's rounds are ``round-N``; a round file can't take one at an open
  table, a round file stored before the table opened is numbered past, ``GET /tables/X`` says
  ``round`` as the id ``GET /rounds/X/{id}`` takes, and a table whose round has no bets can be
  closed (``DELETE /tables/X``).
* Events say the table's id where they say "at".
* A share of a meter shown mid-round is valued at the live meter and says it is an estimate.
* The submission digest is the one ``croupier check`` prints, whatever the form.
"""

from __future__ import annotations

import json
import tomllib
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from progressive_support import BACKENDS
from repo_paths import ROOT
from service_support import (
    DEALER,
    PIT,
    Server,
    keyed,
    link,
    pp_round,
    round_file,
    serving,
)

EXAMPLE = ROOT / "examples" / "submissions" / "blackjack-6deck.toml"


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"f1-tables-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


_LINKED: set[tuple[str, str]] = set()


def open_table(
    c: httpx.Client, srv: Server, table: str, progressives: list[str] | None = None
) -> httpx.Response:
    """Open ``table`` under :data:`~service_support.BLACKJACK_SUBMISSION`: linked first to a
    progressive of each progressive wager it offers (once), as a table must be to open."""
    if (srv.base, table) not in _LINKED:
        link(c, srv, table)
        _LINKED.add((srv.base, table))
    sub = pp_round("x")["submission"]
    return c.post(
        "/tables",
        json={"table": table, "submission": sub, "progressives": progressives or []},
        headers=keyed(srv.auth(PIT)),
    )


def step(c: httpx.Client, srv: Server, table: str, body: dict[str, Any]) -> httpx.Response:
    return c.post(f"/tables/{table}/steps", json=body, headers=keyed(srv.auth(DEALER)))


PLAY: list[dict[str, Any]] = [
    {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
    {"action": "no-more-bets"},
    {"action": "deal", "players": {"3": "Th 9c"}, "dealer": "Kd 8c"},
    {"action": "stand", "seat": 3},
    {"action": "settle"},
]
"""One round: 19 stands against the dealer's 18: the $25 Blackjack wager wins 1 to 1."""


def test_a_round_file_cannot_take_an_open_tables_round_id(server: Server) -> None:
    """Trial item 1: a round file stored as round-3 at BJ-7 left BJ-7's own round 3 unsettleable.
    Now the round file is refused (nothing stored) and the table settles its round."""
    table = uid("BJ")
    with server.client() as c:
        assert open_table(c, server, table).status_code == 201
        r = c.post(
            "/rounds/settle",
            params={"table": table},
            json=pp_round("round-1"),
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 409, r.text
        assert r.json()["error_type"] == "RoundConflictError"
        assert "another id" in r.json()["detail"]
        assert c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).status_code == 404
        # another id is the round file's own
        assert (
            c.post(
                "/rounds/settle",
                params={"table": table},
                json=pp_round("hand-1"),
                headers=keyed(server.auth(DEALER)),
            ).status_code
            == 201
        )
        for body in PLAY:
            last = step(c, server, table, body)
            assert last.status_code == 200, last.text
        assert last.json()["settled"]["round"] == "round-1"


def test_a_round_file_stored_before_the_table_opened_is_numbered_past(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        for rid in ("round-1", "round-2"):
            r = c.post(
                "/rounds/settle",
                params={"table": table},
                json=pp_round(rid),
                headers=keyed(server.auth(DEALER)),
            )
            assert r.status_code == 201, r.text
        before = c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).json()
        opened = open_table(c, server, table)
        assert opened.status_code == 201, opened.text
        assert (opened.json()["round"], opened.json()["round_number"]) == ("round-3", 3)
        for body in PLAY:
            last = step(c, server, table, body)
            assert last.status_code == 200, last.text
        settled = last.json()["settled"]
        assert settled["round"] == "round-3"
        # by hand: 19 against 18, the $25 Blackjack wager wins 1 to 1
        (bj,) = [x for x in settled["settlement"]["lines"] if x["wager"] == "blackjack"]
        assert bj["win_cents"] == 2500
        assert c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).json() == before
        retry = c.post(  # the round file posted again: answered as stored, not refused
            "/rounds/settle",
            params={"table": table},
            json=pp_round("round-1"),
            headers=keyed(server.auth(DEALER)),
        )
        assert (retry.status_code, retry.json()) == (200, {"stored_already": True, **before})
        assert c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()["round"] == "round-4"


def test_the_round_a_table_shows_is_the_id_its_stored_round_takes(server: Server) -> None:
    """Trial item 18: GET /tables/BJ-7 said "round": 3, GET /rounds/BJ-7/3 was a 404; the first
    event said "betting open at BJ-1", the submission's name, at table BJ-7."""
    table = uid("BJ")
    with server.client() as c:
        opened = open_table(c, server, table).json()
        assert opened["events"][0]["detail"] == f"betting open at table {table}"
        listed = c.get("/tables", headers=server.auth(DEALER)).json()["tables"]
        (mine,) = [t for t in listed if t["table"] == table]
        assert mine["round"] == opened["round"] == "round-1"
        assert mine["opened_at"].endswith("+00:00")
        for body in PLAY:
            last = step(c, server, table, body).json()
        rid = last["settled"]["round"]
        assert rid == opened["round"]
        stored = c.get(f"/rounds/{table}/{rid}", headers=server.auth(DEALER))
        assert stored.status_code == 200
        assert stored.json()["events"][0]["detail"] == f"betting open at table {table}"
        nxt = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert nxt["round"] == "round-2"
        assert nxt["events"][0]["detail"] == f"betting open at table {table}"


def test_a_table_whose_round_has_no_bets_can_be_closed(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        assert open_table(c, server, table).status_code == 201
        assert step(c, server, table, PLAY[0]).status_code == 200
        busy = c.delete(f"/tables/{table}", headers=keyed(server.auth(PIT)))
        assert busy.status_code == 409, busy.text
        assert busy.json()["error_type"] == "RoundStateError"
        assert "settle it" in busy.json()["detail"]
        for body in PLAY[1:]:
            assert step(c, server, table, body).status_code == 200
        assert c.delete(f"/tables/{table}", headers=keyed(server.auth(DEALER))).status_code == 403
        closed = c.delete(f"/tables/{table}", headers=keyed(server.auth(PIT)))
        assert closed.status_code == 200, closed.text
        assert closed.json()["closed_by"] == PIT
        assert closed.json()["round_not_played"] == "round-2"
        assert c.get(f"/tables/{table}", headers=server.auth(DEALER)).status_code == 404
        # its settled round stays stored; opened again it numbers past it
        assert c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).status_code == 200
        again = open_table(c, server, table)
        assert again.status_code == 201, again.text
        assert again.json()["round"] == "round-2"
        assert c.delete("/tables/nope", headers=keyed(server.auth(PIT))).status_code == 404


def test_a_table_open_already_is_no_idempotency_conflict(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        assert open_table(c, server, table).status_code == 201
        again = open_table(c, server, table)
        assert again.status_code == 409
        assert again.json()["error_type"] == "RoundStateError"
        assert "Idempotency" not in again.text


def test_a_share_of_the_meter_mid_round_is_valued_at_the_live_meter(server: Server) -> None:
    """Trial item 3: the deal answer said +$495 (10% of the $5,000 seed less the $5 stake) with
    the meter at $4,531.35; the settle answer paid 10% of the meter."""
    table = uid("BJ")
    with server.client() as c:
        assert open_table(c, server, table, ["mtd-5"]).status_code == 201
        for body in (
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
        ):
            assert step(c, server, table, body).status_code == 200
        moved = c.post(
            "/progressives/mtd-5/adjust",
            json={"level": "Progressive", "meter": "-468.65", "reason": "meter test"},
            headers=keyed(server.auth(PIT)),
        )
        assert moved.status_code == 200, moved.text  # the meter off its seed
        status = c.get("/progressives/mtd-5", headers=server.auth(DEALER)).json()
        (level,) = [lv for lv in status["levels"] if lv["level"] == "Progressive"]
        available_cents = level["available_micros"] // 10_000
        dealt = step(
            c, server, table, {"action": "deal", "players": {"1": "Kd Kd"}, "dealer": "Kd 9c"}
        )
        assert dealt.status_code == 200, dealt.text
        body = dealt.json()
        (line,) = [x for x in body["settlement"]["lines"] if x["wager"] == "match-the-dealer"]
        # § 633b.3 paytable 1: two cards of the up card's rank and suit pay 10% of the meter;
        # the $5 stake is collected: net = 10% of what the meter holds now, less $5
        assert line["win_cents"] == available_cents // 10 - 500
        assert line["win_cents"] != 500_000 // 10 - 500  # not the seed's
        assert "estimate at the live meter" in line["pays"]
        assert "estimate at the live meter" in body["estimate"]
        (ev,) = [e for e in body["events"] if e["action"] == "settlement" and e["seat"] == 1]
        assert ev["win_cents"] == line["win_cents"] and "estimate" in ev["pays"]
        # the table's own read says the same
        again = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert again["settlement"] == body["settlement"]
        assert step(c, server, table, {"action": "stand", "seat": 1}).status_code == 200
        done = step(c, server, table, {"action": "settle"}).json()
        (paid,) = [x for x in done["settlement"]["lines"] if x["wager"] == "match-the-dealer"]
        (award,) = done["settled"]["progressives"][0]["awards"]
        assert paid["win_cents"] == award["amount_cents"] - 500
        assert "estimate" not in paid["pays"]
        # the estimate was short only by what was added to the meter since (this round's own
        # contribution): never the seed's $495
        assert 0 <= paid["win_cents"] - line["win_cents"] <= 100


def _check_digest() -> str:
    result = CliRunner().invoke(app, ["check", str(EXAMPLE), "--digests", "--json"])
    assert result.exit_code == 0, result.output
    digest: str = json.loads(result.stdout)[str(EXAMPLE)]["submission_sha256"]
    return digest


def test_one_submission_digest_whatever_the_form(server: Server) -> None:
    """Trial item 4: the service stored a hash of the raw JSON, not what ``croupier check``
    prints."""
    want = _check_digest()
    data = tomllib.loads(EXAMPLE.read_text())
    table = uid("BJ")
    with server.client() as c:
        link(c, server, table)  # its Jackpot Party and Match the Dealer wagers: each a progressive
        opened = c.post(
            "/tables", json={"table": table, "submission": data}, headers=keyed(server.auth(PIT))
        )
        assert opened.status_code == 201, opened.text
        assert opened.json()["submission_digest"] == want
        # the same submission with its keys in another order and another name: the same rules
        shuffled = dict(reversed(list(data.items())))
        shuffled["name"] = "another name"
        rf = round_file("d-1", PLAY, shuffled)
        settled = c.post(
            "/rounds/settle",
            params={"table": uid("BJ")},
            json=rf,
            headers=keyed(server.auth(DEALER)),
        )
        assert settled.status_code == 201, settled.text
        assert settled.json()["submission_digest"] == want

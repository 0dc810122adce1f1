"""Money controls a user trial of the service found open (issue 16): a real ``croupier serve``
process on SQLite and PostgreSQL.

1. A progressive wager is never settled with no progressive behind it: with no ``?progressive=``
   it feeds the progressive linked to the table that takes it (section, paytable, deck count,
   wager size), and with none the round is refused (§ 605a.8 and the wager's section); an open
   table offering a progressive wager opens only with one.
2. A round at an open table is settled under the table's Rules Submission (§ 601a.2).
3. A suspended progressive's wager is refused when it is placed; a floorperson voids an open
   round (every wager returned), on the progressive's ledger too when its wagers are there.

Expected amounts are worked by hand from the paytables of 58 Pa. Code § 633b.1–§ 633b.3.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest

from croupier.progressive import Ledger, RoundStatus
from croupier.table.submission import submission_digest, submission_from_data
from progressive_support import BACKENDS
from repo_paths import ROOT
from service_support import (
    BLACKJACK_SUBMISSION,
    DEALER,
    FLOOR,
    PIT,
    PLAIN_SUBMISSION,
    SHIFT,
    Server,
    keyed,
    link,
    pp_round,
    round_file,
    serving,
)


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"h-controls-{request.param}")) as srv:
        yield srv


SCHEMA = json.loads((ROOT / "docs/schemas/service-round.schema.json").read_text("utf-8"))


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


P10_SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-6 Jackpot Party P10",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "jackpot-party", "paytable": "P10", "amounts": ["$5"]},
    ],
}
"""Six decks, Jackpot Party paytable P10 (read as a $5 wager; seed $50,000, total increment rate
18.50%, Royal Flush in diamonds 100% of the progressive with a $3,000 envy bonus)."""

MTD_SUBMISSION: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-6 Match the Dealer 1",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$1", "$5"]},
    ],
}
"""Six decks, Match the Dealer paytable 1 at $1 and $5 (one suited match 10 to 1, one
non-suited match 2 to 1)."""


def p10_royal(round_id: str) -> dict[str, Any]:
    """The trial's round: the dealer A♦ K♦, seat 1 Q♦ J♦ — a Royal Flush in diamonds (§ 633b.2(a)
    (1)) — and seat 2 9♣ 8♥ (any hand with a dealer Blackjack, 5 to 1, and the $3,000 envy
    bonus for seat 1's Royal), each with $10 on Blackjack and $5 on Jackpot Party."""
    return round_file(
        round_id,
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "jackpot-party", "amount": "$5"},
            {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 2, "wager": "jackpot-party", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Qd Jd", "2": "9c 8h"}, "dealer": "Ad Kd"},
            {"action": "settle"},
        ],
        P10_SUBMISSION,
    )


def post_round(
    c: httpx.Client, srv: Server, table: str, body: dict[str, Any], *progressive: str
) -> httpx.Response:
    params: list[tuple[str, str | int | float | bool | None]] = [("table", table)]
    params += [("progressive", p) for p in progressive]
    return c.post("/rounds/settle", params=params, json=body, headers=keyed(srv.auth(DEALER)))


def step(c: httpx.Client, srv: Server, table: str, body: dict[str, Any]) -> httpx.Response:
    return c.post(f"/tables/{table}/steps", json=body, headers=keyed(srv.auth(DEALER)))


def pending_awards(c: httpx.Client, srv: Server) -> list[dict[str, Any]]:
    r = c.get("/awards", params={"status": "pending"}, headers=srv.auth(DEALER))
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["awards"]
    return found


def new_progressive(
    c: httpx.Client, srv: Server, paytable: str, amount: str, tables: list[str]
) -> str:
    name = uid("prog")
    spec = {"paytable": paytable, "decks": 6, "amount": amount, "name": name, "tables": tables}
    r = c.post("/progressives", json=spec, headers=keyed(srv.auth(SHIFT)))
    assert r.status_code == 201, r.text
    return name


def lines_of(doc: dict[str, Any], wager: str) -> list[dict[str, Any]]:
    return [x for x in doc["settlement"]["lines"] if x["wager"] == wager]


# -- 1. no progressive wager without its progressive ---------------------------------------------


def test_a_progressive_wager_at_a_table_no_progressive_takes_is_refused(server: Server) -> None:
    """The trial: ROGUE-1, never opened nor linked, stored a seed-valued 100% line and a $3,000
    envy bonus, counted as paid and never on the ledger. Now one 422, nothing stored."""
    table = uid("ROGUE")
    with server.client() as c:
        before = pending_awards(c, server)
        r = post_round(c, server, table, p10_royal("r1"))
        assert r.status_code == 422, r.text
        p = r.json()
        assert (p["error_type"], p["section"]) == ("LinkError", "605a.8")
        assert "no progressive behind it" in p["detail"]
        assert "§ 633b.2(d)" in p["detail"]  # the wager's own section: a progressive system
        assert "58 Pa. Code § 605a.8" in p["detail"]
        assert c.get(f"/rounds/{table}/r1", headers=server.auth(DEALER)).status_code == 404
        summary = c.get("/rounds/summary", params={"table": table}, headers=server.auth(PIT))
        assert summary.json()["rounds"] == 0 and summary.json()["wagers"] == []
        assert pending_awards(c, server) == before


def test_a_linked_table_feeds_the_progressive_that_takes_the_wager(server: Server) -> None:
    """No ``?progressive=``: the round feeds the P10 progressive linked to the table. By hand:
    two $5 wagers at 18.50% add $1.85 to the $50,000 seed; seat 1's Royal Flush in diamonds takes
    100% of the meter, $50,001.85, the $5 stake collected: +$49,996.85, pending validation.
    Seat 2: a dealer Blackjack pays 5 to 1, +$25, and the envy bonus for seat 1's Royal
    $3,000."""
    table = uid("BJ")
    with server.client() as c:
        name = new_progressive(c, server, "jackpot-party:P10", "$5", [table])
        r = post_round(c, server, table, p10_royal("r1"))
        assert r.status_code == 201, r.text
        doc = r.json()
        assert [f["progressive"] for f in doc["progressives"]] == [name]
        jp = lines_of(doc, "jackpot-party")
        (royal,) = [x for x in jp if x["seat"] == 1 and x["from_seat"] is None]
        assert royal["win_cents"] == 5_000_185 - 500
        assert royal["pending_validation"] is True
        assert "pending validation" in royal["pays"] and "seed" not in royal["pays"]
        (own,) = [x for x in jp if x["seat"] == 2 and x["from_seat"] is None]
        assert own["win_cents"] == 5 * 500
        (envy,) = [x for x in jp if x["seat"] == 2 and x["from_seat"] == 1]
        assert envy["win_cents"] == 300_000
        (award,) = [a for a in pending_awards(c, server) if a["progressive"] == name]
        assert (award["amount_cents"], award["table"], award["position"]) == (5_000_185, table, 1)
        summary = c.get("/rounds/summary", params={"table": table}, headers=server.auth(PIT))
        (row,) = [w for w in summary.json()["wagers"] if w["wager"] == "jackpot-party"]
        assert row["pending_cents"] == 5_000_185
        # not counted as paid while it waits: seat 1's stake lost, seat 2's +$25 and $3,000
        assert row["win_cents"] == -500 + 2_500 + 300_000


def test_a_named_progressive_must_take_the_wager(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        new_progressive(c, server, "jackpot-party:P10", "$5", [table])
        link(c, server, table, ("jp-5",))  # § 633b.2 paytable P1: not the table's P10
        r = post_round(c, server, table, p10_royal("r1"), "jp-5")
        assert r.status_code == 422, r.text
        assert r.json()["error_type"] == "ProgressiveMismatchError"
        assert c.get(f"/rounds/{table}/r1", headers=server.auth(DEALER)).status_code == 404


def test_a_dollar_and_a_five_dollar_wager_each_feed_their_own_progressive(server: Server) -> None:
    """``?progressive=mtd-5`` names only the $5 progressive; seat 1's $1 wager feeds mtd-1,
    linked to the table, and each seat is paid by its own. By hand (§ 633b.3 paytable 1, the
    dealer's K♦ up): seat 1 K♥ 2♣, one non-suited match, 2 to 1 on $1: +$2; seat 2 K♦ 3♣, one
    suited match, 10 to 1 on $5: +$50."""
    table = uid("BJ")
    body = round_file(
        "r1",
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 1, "wager": "match-the-dealer", "amount": "$1"},
            {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$10"},
            {"action": "bet", "seat": 2, "wager": "match-the-dealer", "amount": "$5"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Kh 2c", "2": "Kd 3c"}, "dealer": "Kd 9c"},
            {"action": "settle"},
        ],
        MTD_SUBMISSION,
        base_game="external",  # the players' play is not recorded
    )
    with server.client() as c:
        elsewhere = uid("BJ")
        nope = post_round(c, server, elsewhere, body, "no-such-progressive")
        # the query of a change names nothing: refused as a progressive not linked (§ 605a.8),
        # a 422 — a 404 is for a path that names nothing
        assert (nope.status_code, nope.json()["error_type"], nope.json()["section"]) == (
            422,
            "LinkError",
            "605a.8",
        )
        unlinked = post_round(c, server, elsewhere, body, "mtd-5")
        assert unlinked.status_code == 422, unlinked.text
        assert "not linked to progressive 'mtd-5'" in unlinked.json()["detail"]
        link(c, server, elsewhere, ("mtd-5",))
        only_five = post_round(c, server, elsewhere, body, "mtd-5")  # no $1 progressive there
        assert only_five.status_code == 422, only_five.text
        assert "$1 match-the-dealer" in only_five.json()["detail"]
        link(c, server, table, ("mtd-1", "mtd-5"))
        wagered = {
            n: c.get(f"/progressives/{n}", headers=server.auth(DEALER)).json()["levels"][0][
                "wagered_cents"
            ]
            for n in ("mtd-1", "mtd-5")
        }
        r = post_round(c, server, table, body, "mtd-5")
        assert r.status_code == 201, r.text
        doc = r.json()
        assert sorted(f["progressive"] for f in doc["progressives"]) == ["mtd-1", "mtd-5"]
        by_seat = {x["seat"]: x for x in lines_of(doc, "match-the-dealer")}
        assert (by_seat[1]["win_cents"], by_seat[1]["returned_cents"]) == (200, 300)
        assert (by_seat[2]["win_cents"], by_seat[2]["returned_cents"]) == (5_000, 5_500)
        for n, cents in (("mtd-1", 100), ("mtd-5", 500)):
            now = c.get(f"/progressives/{n}", headers=server.auth(DEALER)).json()
            assert now["levels"][0]["wagered_cents"] == wagered[n] + cents


def test_a_table_offering_a_progressive_wager_opens_only_with_its_progressive(
    server: Server,
) -> None:
    table = uid("BJ")
    spec = {"table": table, "submission": BLACKJACK_SUBMISSION}
    with server.client() as c:
        pit = server.auth(PIT)
        r = c.post("/tables", json=spec, headers=keyed(pit))
        assert r.status_code == 422, r.text
        assert (r.json()["error_type"], r.json()["section"]) == ("LinkError", "605a.8")
        assert "jackpot-party" in r.json()["detail"]
        assert c.get(f"/tables/{table}", headers=server.auth(DEALER)).status_code == 404
        link(c, server, table, ("jp-5", "mtd-5"))  # the $1 Match the Dealer wager has none
        r = c.post("/tables", json=spec, headers=keyed(pit))
        assert r.status_code == 422 and "$1 match-the-dealer" in r.json()["detail"], r.text
        # a progressive named for the table must be linked to it
        named = c.post("/tables", json={**spec, "progressives": ["mtd-1"]}, headers=keyed(pit))
        assert named.status_code == 422 and "not linked" in named.json()["detail"], named.text
        link(c, server, table, ("mtd-1",))
        # and take a wager the table offers
        plain = c.post(
            "/tables",
            json={"table": table, "submission": PLAIN_SUBMISSION, "progressives": ["jp-5"]},
            headers=keyed(pit),
        )
        assert plain.status_code == 422, plain.text
        assert plain.json()["error_type"] == "ProgressiveMismatchError"
        r = c.post("/tables", json=spec, headers=keyed(pit))
        assert r.status_code == 201, r.text
        assert r.json()["progressives"] == ["jp-5", "mtd-1", "mtd-5"]


# -- 2. an open table's Rules Submission -------------------------------------------------------


def test_a_round_at_an_open_table_carries_the_tables_submission(server: Server) -> None:
    """The trial: BJ-1 open with Perfect Pairs paytable A (25 to 1) stored "30 to 1" from a round
    file under paytable B. By hand: 8♠ 8♠ is a perfect pair, 25 to 1 on $5 under A: +$125."""
    table = uid("BJ")
    other = copy.deepcopy(BLACKJACK_SUBMISSION)
    other["wagers"][1]["paytable"] = "B"
    theirs = submission_digest(submission_from_data(other))
    with server.client() as c:
        link(c, server, table)
        opened = c.post(
            "/tables",
            json={"table": table, "submission": BLACKJACK_SUBMISSION},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        ours = opened.json()["submission_digest"]
        assert ours == submission_digest(submission_from_data(BLACKJACK_SUBMISSION))
        body = pp_round("r1")
        body["submission"] = other
        r = post_round(c, server, table, body)
        assert r.status_code == 422, r.text
        p = r.json()
        assert (p["error_type"], p["section"]) == ("SubmissionError", "601a.2")
        assert ours in p["detail"] and theirs in p["detail"]
        assert c.get(f"/rounds/{table}/r1", headers=server.auth(DEALER)).status_code == 404
        r = post_round(c, server, table, pp_round("r1"))
        assert r.status_code == 201, r.text
        (pp,) = lines_of(r.json(), "perfect-pairs")
        assert (pp["pays"], pp["win_cents"]) == ("25 to 1", 12_500)


def test_a_table_not_open_settles_under_the_round_files_submission(server: Server) -> None:
    """The reading recorded in docs/interpretations.md: the service holds no submission for a
    table never opened, so each round file's own (checked in full) settles it and is stored
    with the round; the hold report shows each digest apart. By hand: 8♠ 8♠ under A 25 to 1,
    under B 30 to 1, on $5."""
    table = uid("BJ")
    other = copy.deepcopy(BLACKJACK_SUBMISSION)
    other["wagers"][1]["paytable"] = "B"
    with server.client() as c:
        a = post_round(c, server, table, pp_round("r1"))
        b_round = pp_round("r2")
        b_round["submission"] = other
        b = post_round(c, server, table, b_round)
        assert a.status_code == b.status_code == 201, (a.text, b.text)
        assert [x["win_cents"] for x in lines_of(a.json(), "perfect-pairs")] == [12_500]
        assert [x["win_cents"] for x in lines_of(b.json(), "perfect-pairs")] == [15_000]
        assert a.json()["submission_digest"] != b.json()["submission_digest"]
        report = c.get(
            "/hold-report",
            params={"table": table, "wager": "perfect-pairs"},
            headers=server.auth(PIT),
        ).json()
        assert sorted(r["hold_cents"] for r in report["rows"]) == [-15_000, -12_500]


# -- 3. suspended progressives; voiding a round --------------------------------------------------


MTD5_SUBMISSION: dict[str, Any] = {
    **MTD_SUBMISSION,
    "wagers": [
        MTD_SUBMISSION["wagers"][0],
        {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$5"]},
    ],
}
""":data:`MTD_SUBMISSION` at $5 only."""


def mtd_table(c: httpx.Client, srv: Server) -> tuple[str, str]:
    """A table open under :data:`MTD5_SUBMISSION`, linked to a fresh $5 progressive."""
    table = uid("BJ")
    name = new_progressive(c, srv, "match-the-dealer:1", "$5", [table])
    r = c.post(
        "/tables",
        json={"table": table, "submission": MTD5_SUBMISSION},
        headers=keyed(srv.auth(PIT)),
    )
    assert r.status_code == 201, r.text
    assert r.json()["progressives"] == [name]
    return table, name


BJ_BET = {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"}
MTD_BET = {"action": "bet", "seat": 1, "wager": "match-the-dealer", "amount": "$5"}


def test_a_suspended_progressives_wager_is_refused_when_placed(server: Server) -> None:
    with server.client() as c:
        table, name = mtd_table(c, server)
        why = {"reason": "new seed approved"}
        assert c.post(
            f"/progressives/{name}/suspend", json=why, headers=keyed(server.auth(PIT))
        ).is_success
        assert step(c, server, table, BJ_BET).status_code == 200
        r = step(c, server, table, MTD_BET)
        assert r.status_code == 422, r.text
        p = r.json()
        assert (p["error_type"], p["section"]) == ("LinkError", "605a.8")
        assert p["detail"].startswith("step 2 (bet): ")
        assert "no wager is accepted at its tables until it is resumed" in p["detail"]
        assert "58 Pa. Code § 605a.8" in p["detail"]
        now = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert [e["wager"] for e in now["events"] if e["action"] == "bet"] == ["blackjack"]
        # a round file at the table: refused at its bet, nothing stored
        rf = round_file(
            "rf-1",
            [BJ_BET, MTD_BET, {"action": "deal", "players": {"1": "Kh 2c"}, "dealer": "Kd 9c"}],
            MTD5_SUBMISSION,
            base_game="external",  # the players' play is not recorded
        )
        r = post_round(c, server, table, rf)
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith("step 2 (bet): ")
        assert c.get(f"/rounds/{table}/rf-1", headers=server.auth(DEALER)).status_code == 404
        assert c.post(f"/progressives/{name}/resume", headers=keyed(server.auth(PIT))).is_success
        for body in (
            MTD_BET,
            {"action": "deal", "players": {"1": "Kh 2c"}, "dealer": "Kd 9c"},
            {"action": "stand", "seat": 1},
        ):
            assert step(c, server, table, body).status_code == 200, body
        done = step(c, server, table, {"action": "settle"})
        assert done.status_code == 200, done.text
        # one non-suited match, 2 to 1 on $5: +$10
        (mtd,) = lines_of(done.json()["settled"], "match-the-dealer")
        assert mtd["win_cents"] == 1_000
        assert [f["progressive"] for f in done.json()["settled"]["progressives"]] == [name]


def plain_table(c: httpx.Client, srv: Server) -> str:
    """A new table open under :data:`PLAIN_SUBMISSION` (no progressive wager): its id."""
    table = uid("BJ")
    r = c.post(
        "/tables",
        json={"table": table, "submission": PLAIN_SUBMISSION},
        headers=keyed(srv.auth(PIT)),
    )
    assert r.status_code == 201, r.text
    return table


def test_a_floorperson_voids_a_misdealt_round_every_wager_returned(server: Server) -> None:
    """Seat 3: $25 Blackjack and $5 Perfect Pairs; 8♠ 8♠ dealt (Perfect Pairs settled at the deal,
    +$125), then the round is voided: both wagers go back, $30, and nothing is won or lost."""
    with server.client() as c:
        table = plain_table(c, server)
        nothing = c.post(
            f"/tables/{table}/void", json={"reason": "r"}, headers=keyed(server.auth(FLOOR))
        )
        assert nothing.status_code == 409, nothing.text
        for body in pp_round("x")["steps"][:4]:  # bets, no more bets, the deal
            assert step(c, server, table, body).status_code == 200, body
        why = {"reason": "misdeal: the dealer's hole card was exposed"}
        dealer = c.post(f"/tables/{table}/void", json=why, headers=keyed(server.auth(DEALER)))
        assert dealer.status_code == 403 and dealer.json()["error_type"] == "AuthorizationError"
        r = c.post(f"/tables/{table}/void", json=why, headers=keyed(server.auth(FLOOR)))
        assert r.status_code == 200, r.text
        state = r.json()
        assert (state["round"], state["phase"]) == ("round-2", "betting open")
        voided = state["voided"]
        assert voided["voided"]["by"] == FLOOR and voided["voided"]["reason"] == why["reason"]
        assert voided["voided"]["returned_cents"] == 3_000
        lines = {x["wager"]: x for x in voided["settlement"]["lines"]}
        assert (lines["blackjack"]["returned_cents"], lines["blackjack"]["win_cents"]) == (2_500, 0)
        assert (lines["perfect-pairs"]["returned_cents"], lines["perfect-pairs"]["win_cents"]) == (
            500,
            0,
        )
        assert voided["net_cents"] == 0 and voided["events"][-1]["action"] == "void"
        stored = c.get(f"/rounds/{table}/round-1", headers=server.auth(DEALER)).json()
        assert stored == voided
        jsonschema.validate(stored, SCHEMA, cls=jsonschema.Draft202012Validator)
        summary = c.get("/rounds/summary", params={"table": table}, headers=server.auth(PIT))
        assert (summary.json()["rounds"], summary.json()["voided_rounds"]) == (0, 1)
        assert summary.json()["wagers"] == []
        report = c.get("/hold-report", params={"table": table}, headers=server.auth(PIT))
        assert report.json()["rows"] == []
        closed = c.delete(f"/tables/{table}", headers=keyed(server.auth(PIT)))
        assert closed.status_code == 200, closed.text


def test_a_round_stuck_on_a_suspended_progressive_is_voided(server: Server) -> None:
    """The trial: the wager accepted, the progressive suspended, and settle refused — the hand
    could not be settled. The floorperson voids the round: every wager returned."""
    with server.client() as c:
        table, name = mtd_table(c, server)
        for body in (BJ_BET, MTD_BET, {"action": "deal", "players": {"1": "Kh 2c"},
                                       "dealer": "Kd 9c"}, {"action": "stand", "seat": 1}):  # fmt: skip
            assert step(c, server, table, body).status_code == 200, body
        assert c.post(
            f"/progressives/{name}/suspend", json={"reason": "r"}, headers=keyed(server.auth(PIT))
        ).is_success
        stuck = step(c, server, table, {"action": "settle"})
        assert stuck.status_code == 422 and "until it is resumed" in stuck.json()["detail"]
        r = c.post(
            f"/tables/{table}/void", json={"reason": "suspended"}, headers=keyed(server.auth(FLOOR))
        )
        assert r.status_code == 200, r.text
        assert r.json()["voided"]["voided"]["returned_cents"] == 1_500  # $10 + $5
        assert r.json()["voided"]["voided"]["ledger_rounds_voided"] == []  # never fed
        assert c.post(f"/progressives/{name}/resume", headers=keyed(server.auth(PIT))).is_success


def test_a_void_voids_the_round_on_the_progressives_ledger(server: Server) -> None:
    """A round whose progressive wagers the ledger accepted (a feed left part-way) is voided by
    the ledger's own void: its wagers returned, nothing contributed (a ``void-round`` event)."""
    with server.client() as c:
        table, name = mtd_table(c, server)
        for body in (BJ_BET, MTD_BET):
            assert step(c, server, table, body).status_code == 200
        with Ledger(server.url) as ledger:
            ledger.system(name).accept_wagers(f"{table}/round-1", table, [1], by=DEALER)
        before = c.get(f"/progressives/{name}", headers=server.auth(DEALER)).json()["levels"]
        r = c.post(
            f"/tables/{table}/void", json={"reason": "misdeal"}, headers=keyed(server.auth(FLOOR))
        )
        assert r.status_code == 200, r.text
        assert r.json()["voided"]["voided"]["ledger_rounds_voided"] == [name]
        with Ledger(server.url) as ledger:
            assert ledger.system(name).round(f"{table}/round-1").status is RoundStatus.VOIDED
        history = c.get(f"/progressives/{name}/history", headers=server.auth(DEALER)).json()
        (ev,) = [e for e in history["history"] if e["kind"] == "void-round"]
        assert ev["by"] == FLOOR
        after = c.get(f"/progressives/{name}", headers=server.auth(DEALER)).json()["levels"]
        assert after == before  # nothing contributed
        # voided again: the table's next round has nothing to void
        again = c.post(
            f"/tables/{table}/void", json={"reason": "x"}, headers=keyed(server.auth(FLOOR))
        )
        assert again.status_code == 409


# -- a step's fields --------------------------------------------------------------------------


def test_a_field_the_step_does_not_read_is_refused_not_dropped(server: Server) -> None:
    """The trial: a split posted with ``cards`` and a stand with ``card``, ``wager`` and
    ``amount`` were answered 200, the fields dropped unread; a hit with ``cards`` said only
    "name the card dealt". Each is a 422 naming the fields the step takes; nothing changes."""
    with server.client() as c:
        table = plain_table(c, server)
        assert step(c, server, table, BJ_BET).status_code == 200
        assert step(c, server, table, {"action": "no-more-bets"}).status_code == 200
        late = step(c, server, table, {**BJ_BET, "seat": 2})
        assert late.status_code == 422 and late.json()["error_type"] == "LockoutError"
        assert "(allowed: deal)" in late.json()["detail"]  # what the round takes now
        deal = {"action": "deal", "players": {"1": "8s 8h"}, "dealer": "Kd 9c"}
        before = step(c, server, table, deal).json()
        for body, words in (
            ({"action": "split", "seat": 1, "cards": "3h 2d"}, "a split step takes 'seat', not "
             "'cards'"),
            ({"action": "hit", "seat": 1, "cards": "3h"}, "a hit step takes 'seat' and 'card', "
             "not 'cards'"),
            ({"action": "stand", "seat": 1, "card": "5h", "wager": "perfect-pairs",
              "amount": "$99"}, "a stand step takes 'seat', not 'wager', 'amount' or 'card'"),
        ):  # fmt: skip
            r = step(c, server, table, body)
            assert r.status_code == 422, (body, r.text)
            assert words in r.json()["detail"], r.json()["detail"]
        now = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert now["events"] == before["events"]  # nothing was taken
        assert step(c, server, table, {"action": "split", "seat": 1}).status_code == 200

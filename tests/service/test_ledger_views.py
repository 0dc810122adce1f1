"""Hold figures and award views against the ledger, the book of record for progressive amounts
(issue 16, trial items 2, 10, 19): a real ``croupier serve`` process on SQLite and PostgreSQL.

A voided award paid nothing (the wager lost), a pending one is owed (shown apart, not as paid),
a validated one is paid; ``validated_by`` is set by a validation only; ``/rounds/summary``'s
``?wager=`` gives that wager's row only; ``hold_percent`` is a percent.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from progressive_support import BACKENDS
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    Server,
    keyed,
    pp_round,
    royal_round,
    serving,
)

STAKE = 500  # royal_round's $5 Jackpot Party wager


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"f1-views-{request.param}")) as srv:
        yield srv


def royal_at_new_table(c: httpx.Client, srv: Server) -> tuple[str, dict[str, Any]]:
    """A new table linked to jp-5 and its Royal Flush round (100% of the meter, pending)."""
    table = f"BJ-{uuid.uuid4().hex[:8]}"
    linked = c.post(
        "/progressives/jp-5/links", json={"table": table}, headers=keyed(srv.auth(SHIFT))
    )
    assert linked.status_code == 201, linked.text
    r = c.post(
        "/rounds/settle",
        params={"table": table, "progressive": "jp-5"},
        json=royal_round("r1"),
        headers=keyed(srv.auth(DEALER)),
    )
    assert r.status_code == 201, r.text
    (award,) = r.json()["progressives"][0]["awards"]
    assert award["status"] == "pending"
    return table, award


def jp_row(c: httpx.Client, srv: Server, table: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The Jackpot Party row of ``table`` in /rounds/summary and in /hold-report."""
    s = c.get("/rounds/summary", params={"table": table}, headers=srv.auth(PIT)).json()
    (summary,) = [w for w in s["wagers"] if w["wager"] == "jackpot-party"]
    h = c.get("/hold-report", headers=srv.auth(PIT)).json()
    (hold,) = [r for r in h["rows"] if r["table"] == table and r["wager"] == "jackpot-party"]
    return summary, hold


def test_a_pending_award_is_owed_not_paid(server: Server) -> None:
    with server.client() as c:
        table, award = royal_at_new_table(c, server)
        summary, hold = jp_row(c, server, table)
        # the stake collected, the award owed: nothing paid yet
        assert (summary["win_cents"], summary["pending_cents"]) == (-STAKE, award["amount_cents"])
        assert summary["hold_cents"] == STAKE
        assert (hold["hold_cents"], hold["pending_cents"]) == (STAKE, award["amount_cents"])


def test_a_voided_award_paid_nothing_and_names_who_voided_it(server: Server) -> None:
    """Trial items 2 and 10: voided award 22 still counted as paid (hold −$448.21), and the void
    said "validated_by": "flo"."""
    with server.client() as c:
        table, award = royal_at_new_table(c, server)
        voided = c.post(
            f"/awards/{award['award']}/void",
            json={"reason": "the hand was misread"},
            headers=keyed(server.auth(FLOOR)),
        )
        assert voided.status_code == 200, voided.text
        body = voided.json()
        assert (body["status"], body["validated_by"], body["voided_by"]) == (
            "voided",
            None,
            FLOOR,
        )
        listed = c.get("/awards", params={"status": "voided"}, headers=server.auth(DEALER)).json()[
            "awards"
        ]
        (mine,) = [a for a in listed if a["award"] == award["award"]]
        assert (mine["validated_by"], mine["voided_by"]) == (None, FLOOR)
        summary, hold = jp_row(c, server, table)
        # the wager lost: the table kept the $5 stake and paid nothing
        assert summary["win_cents"] == -STAKE and summary["pending_cents"] == 0
        assert summary["voided_cents"] == award["amount_cents"]
        assert (hold["hold_cents"], hold["pending_cents"]) == (STAKE, 0)
        assert hold["voided_cents"] == award["amount_cents"]
        # 100% held: $5 of $5, a percent (not a ratio)
        assert (hold["hold_ratio"], hold["hold_percent"]) == (1.0, 100.0)


def test_a_validated_award_is_paid_by_whoever_validated_it(server: Server) -> None:
    with server.client() as c:
        table, award = royal_at_new_table(c, server)
        done = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert done.status_code == 200, done.text
        assert (done.json()["validated_by"], "voided_by" in done.json()) == (FLOOR, False)
        paid = c.get("/awards", params={"status": "paid"}, headers=server.auth(DEALER)).json()
        (mine,) = [a for a in paid["awards"] if a["award"] == award["award"]]
        summary, hold = jp_row(c, server, table)
        assert summary["win_cents"] == mine["amount_cents"] - STAKE
        assert summary["pending_cents"] == 0
        assert hold["hold_cents"] == STAKE - mine["amount_cents"]
        assert hold["hold_percent"] == round(100 * hold["hold_cents"] / STAKE, 4)


def test_a_summary_by_wager_gives_that_wagers_row_only(server: Server) -> None:
    """Trial item 19: ?wager=match-the-dealer&table=BJ-2 still showed a blackjack row, and the
    Blackjack wagers not played out showed a stake of 0."""
    with server.client() as c:
        table, _ = royal_at_new_table(c, server)
        only = c.get(
            "/rounds/summary",
            params={"table": table, "wager": "jackpot-party"},
            headers=server.auth(PIT),
        ).json()
        assert [w["wager"] for w in only["wagers"]] == ["jackpot-party"]
        played = c.post(
            "/rounds/settle",
            params={"table": table},
            json=pp_round("r2"),
            headers=keyed(server.auth(DEALER)),
        )
        assert played.status_code == 201, played.text
        every = c.get("/rounds/summary", params={"table": table}, headers=server.auth(PIT)).json()
        (bj,) = [w for w in every["wagers"] if w["wager"] == "blackjack"]
        # royal_round's $10 Blackjack wager loses to the dealer's Blackjack (A♦ J♦); pp_round's
        # $25 one is settled by the play of the hand (not recorded): its stake counted apart
        assert (bj["lines"], bj["stake_cents"], bj["win_cents"]) == (1, 1000, -1000)
        assert (bj["settled_by_base_game"], bj["base_game_stake_cents"]) == (1, 2500)


def test_the_hold_report_is_in_the_openapi(server: Server) -> None:
    spec = httpx.get(f"{server.base}/openapi.json", timeout=60).json()
    assert "/hold-report" in spec["paths"]

"""An ``Idempotency-Key`` is the member's own and required (issue 16, item 1): on SQLite and on
PostgreSQL, against a real server.

The trial found keys shared by everyone and optional: dana (a dealer) sent flo's key with flo's
validation and was answered flo's stored 200 instead of her 403; a member reusing another's key
for a step was answered the other's stored step; ``POST /awards/8/validate`` with no key paid the
award. Now a key's record is found by the member and the key, the role is checked before any
stored response is answered again, and a request that changes money or configuration without a
key is a 400 problem that changes nothing. The migration that scopes the key (service revision
``s0003``) keeps the records a database holds."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from croupier.service import store
from progressive_support import BACKENDS, new_db_url
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    PLAIN_SUBMISSION,
    SHIFT,
    Server,
    keyed,
    pending_award,
    pp_round,
    serving,
)

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"idem-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def award_status(srv: Server, c: httpx.Client, award_id: int) -> str:
    found = c.get("/awards", headers=srv.auth(DEALER)).json()["awards"]
    (a,) = [a for a in found if a["award"] == award_id]
    return str(a["status"])


def test_another_members_key_answers_nothing_of_theirs(server: Server) -> None:
    """flo validates under a key; dana (a dealer) sends the same key and body: she is refused
    with the paragraph, not answered flo's payment; flo's own retry is answered as before."""
    key = uid("val")
    with server.client() as c:
        award = pending_award(server, c)
        path = f"/awards/{award['award']}/validate"
        paid = c.post(path, headers=keyed(server.auth(FLOOR), key))
        assert paid.status_code == 200, paid.text
        assert (paid.json()["status"], paid.json()["validated_by"]) == ("paid", FLOOR)
        history = c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json()
        dana = c.post(path, headers=keyed(server.auth(DEALER), key))
        assert dana.status_code == 403, dana.text
        assert dana.headers["content-type"] == PROBLEM
        assert "Idempotent-Replayed" not in dana.headers
        assert (dana.json()["error_type"], dana.json()["section"]) == (
            "AuthorizationError",
            "633b.2(h)(3)",
        )
        assert "validated_by" not in dana.json()  # nothing of flo's answer
        again = c.post(path, headers=keyed(server.auth(FLOOR), key))
        assert again.status_code == 200 and again.json() == paid.json()
        assert again.headers["Idempotent-Replayed"] == "true"
        after = c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json()
    assert after == history  # neither dana's request nor flo's retry changed the ledger


def test_a_key_taken_by_another_member_is_a_new_key(server: Server) -> None:
    """dana places a bet under a key; pat sends the same key: with the same step it is his own
    request (refused: the bet is placed already), with another step it is taken — never dana's
    stored answer, never a conflict with her key."""
    table, key = uid("T"), uid("step")
    sub = PLAIN_SUBMISSION
    with server.client() as c:
        opened = c.post(
            "/tables", json={"table": table, "submission": sub}, headers=keyed(server.auth(PIT))
        )
        assert opened.status_code == 201, opened.text
        bet = {"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"}
        steps = f"/tables/{table}/steps"
        first = c.post(steps, json=bet, headers=keyed(server.auth(DEALER), key))
        assert first.status_code == 200, first.text
        same = c.post(steps, json=bet, headers=keyed(server.auth(PIT), key))
        assert same.status_code == 422 and "Idempotent-Replayed" not in same.headers
        assert same.json()["error_type"] == "ProcedureError"
        state = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
        assert [e["seat"] for e in state["events"] if e["action"] == "bet"] == [2]
        other = {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$10"}
        taken = c.post(steps, json=other, headers=keyed(server.auth(PIT), key))
        assert taken.status_code == 200, taken.text  # not a 409: the key is pat's own
        mine = c.post(steps, json=bet, headers=keyed(server.auth(DEALER), key))
        assert mine.json() == first.json() and mine.headers["Idempotent-Replayed"] == "true"
        state = c.get(f"/tables/{table}", headers=server.auth(DEALER)).json()
    bets = [(e["seat"], e["amount_cents"]) for e in state["events"] if e["action"] == "bet"]
    assert bets == [(2, 2500), (3, 1000)]


def test_a_validation_without_a_key_pays_nothing(server: Server) -> None:
    with server.client() as c:
        award = pending_award(server, c)
        r = c.post(f"/awards/{award['award']}/validate", headers=server.auth(FLOOR))
        assert r.status_code == 400, r.text
        assert r.headers["content-type"] == PROBLEM
        assert r.json()["error_type"] == "IdempotencyKeyError"
        assert f"POST /awards/{award['award']}/validate" in r.json()["detail"]
        assert "Idempotency-Key" in r.json()["detail"]
        assert award_status(server, c, award["award"]) == "pending"
        for bad in ("", "k" * 201):
            r = c.post(
                f"/awards/{award['award']}/validate",
                headers={**server.auth(FLOOR), "Idempotency-Key": bad},
            )
            assert r.status_code == 400 and r.json()["error_type"] == "IdempotencyKeyError", bad
        assert award_status(server, c, award["award"]) == "pending"


def keyed_operations(spec: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (method.upper(), path)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if any(p["name"] == "Idempotency-Key" for p in op.get("parameters", []))
    }


def test_every_route_that_changes_money_or_configuration_needs_a_key(server: Server) -> None:
    """Every operation that is not a read (nor the log-in or log-out, nor a simulation, which
    change neither money nor configuration) takes the key, marked required in the OpenAPI; each
    refuses a request without it (400) before anything changes — the member authorized, the
    body valid."""
    with server.client() as c:
        spec = c.get("/openapi.json").json()
    writes = {
        (m.upper(), p)
        for p, ops in spec["paths"].items()
        for m in ops
        if m != "get" and p not in ("/token", "/token/revoke", "/simulations")
    }
    assert keyed_operations(spec) == writes
    assert len(writes) == 17
    for path, ops in spec["paths"].items():
        for op in ops.values():
            for p in op.get("parameters", []):
                if p["name"] == "Idempotency-Key":
                    assert p["required"] is True, path
    name, table = uid("mtd"), uid("K")
    sub = PLAIN_SUBMISSION
    level = "Progressive"
    bodies: dict[tuple[str, str], tuple[str, str, Any]] = {
        ("POST", "/rounds/settle"): (DEALER, "/rounds/settle?table=BJ-2", pp_round(uid("nk"))),
        ("POST", "/tables"): (PIT, "/tables", {"table": table, "submission": sub}),
        ("POST", "/tables/{table}/steps"): (DEALER, "/tables/BJ-1/steps", {"action": "settle"}),
        ("DELETE", "/tables/{table}"): (PIT, "/tables/BJ-1", None),
        ("POST", "/awards/{award_id}/validate"): (FLOOR, "/awards/1/validate", None),
        ("POST", "/awards/{award_id}/void"): (FLOOR, "/awards/1/void", {"reason": "misread"}),
        ("POST", "/progressives"): (
            SHIFT,
            "/progressives",
            {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name},
        ),
        ("POST", "/progressives/{name}/links"): (SHIFT, "/progressives/jp-5/links", {"table": "Z"}),
        ("POST", "/progressives/{name}/adjust"): (
            PIT,
            "/progressives/jp-5/adjust",
            {"level": level, "meter": "1.00", "reason": "test"},
        ),
        ("POST", "/progressives/{name}/suspend"): (
            PIT,
            "/progressives/jp-5/suspend",
            {"reason": "r"},
        ),
        ("POST", "/progressives/{name}/resume"): (PIT, "/progressives/jp-5/resume", None),
        ("POST", "/progressives/{name}/reconfigure"): (
            SHIFT,
            "/progressives/jp-5/reconfigure",
            {"approval": "A-1", "seeds": {level: "$20,000"}},
        ),
        ("POST", "/staff"): (
            SHIFT,
            "/staff",
            {"name": uid("eve"), "role": "dealer", "password": "a long passphrase"},
        ),
        ("DELETE", "/staff/{name}"): (SHIFT, f"/staff/{DEALER}", None),
        ("POST", "/staff/{name}/role"): (SHIFT, f"/staff/{DEALER}/role", {"role": "floorperson"}),
        ("POST", "/staff/{name}/credential"): (
            SHIFT,
            f"/staff/{DEALER}/credential",
            {"password": "another passphrase"},
        ),
        ("POST", "/tables/{table}/void"): (FLOOR, "/tables/BJ-1/void", {"reason": "misdeal"}),
    }
    assert set(bodies) == writes
    with server.client() as c:
        before = {
            "rounds": c.get("/rounds", headers=server.auth(DEALER)).json()["count"],
            "tables": c.get("/tables", headers=server.auth(DEALER)).json(),
            "jp": c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json(),
            "all": c.get("/progressives", headers=server.auth(DEALER)).json(),
            "staff": c.get("/staff", headers=server.auth(SHIFT)).json(),
        }
        for (method, _), (user, url, body) in sorted(bodies.items()):
            r = c.request(method, url, json=body, headers=server.auth(user))
            assert r.status_code == 400, (method, url, r.text)
            assert r.json()["error_type"] == "IdempotencyKeyError", (method, url)
        after = {
            "rounds": c.get("/rounds", headers=server.auth(DEALER)).json()["count"],
            "tables": c.get("/tables", headers=server.auth(DEALER)).json(),
            "jp": c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json(),
            "all": c.get("/progressives", headers=server.auth(DEALER)).json(),
            "staff": c.get("/staff", headers=server.auth(SHIFT)).json(),
        }
    assert after == before


# -- the migration -------------------------------------------------------------------------------

ROW = {
    "route": "POST /awards/3/validate",
    "request_digest": "d" * 64,
    "status": 200,
    "response": '{"status":"paid"}',
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_migration_scopes_each_key_to_its_member(backend: str, tmp_path: Path) -> None:
    """A database at s0002 with records is brought to s0003: every record kept under the member
    who made it (one made without a member under the empty name); two members may then hold
    the same key; back at s0002 one record per key is left, the oldest."""
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    engine = sa.create_engine(url)
    try:
        store.upgrade(engine, "s0002")
        old = sa.table(
            "service_idempotency",
            *(sa.column(c) for c in ("key", "actor", "created_at", *ROW)),
        )
        at = datetime(2027, 1, 2, tzinfo=UTC)
        with engine.begin() as conn:
            conn.execute(
                sa.insert(old),
                [
                    {**ROW, "key": "val-3", "actor": FLOOR, "created_at": at},
                    {**ROW, "key": "BJ-1/r1", "actor": DEALER, "created_at": at},
                    {**ROW, "key": "anon", "actor": None, "created_at": at},
                ],
            )
        store.upgrade(engine, "s0003")
        t = store.idempotency
        with engine.begin() as conn:
            assert store.current_revision(conn) == "s0003"
            rows = conn.execute(sa.select(t.c.actor, t.c.key, t.c.response)).all()
            assert sorted(rows) == [
                ("", "anon", ROW["response"]),
                (DEALER, "BJ-1/r1", ROW["response"]),
                (FLOOR, "val-3", ROW["response"]),
            ]
            later = datetime(2027, 1, 3, tzinfo=UTC)
            conn.execute(
                sa.insert(t).values(**ROW, key="val-3", actor=DEALER, created_at=later)
            )  # dana's own val-3 beside flo's
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as conn:
            conn.execute(sa.insert(t).values(**ROW, key="val-3", actor=DEALER, created_at=at))
        with engine.connect() as conn:
            got = conn.execute(
                sa.select(t.c.actor).where(t.c.key == "val-3").order_by(t.c.actor)
            ).scalars()
            assert list(got) == [DEALER, FLOOR]
        from alembic import command

        cfg = store.alembic_config()
        with engine.connect() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "s0002")
            conn.commit()
        with engine.connect() as conn:
            kept = sorted(tuple(r) for r in conn.execute(sa.select(old.c.key, old.c.actor)))
        assert kept == [("BJ-1/r1", DEALER), ("anon", ""), ("val-3", FLOOR)]  # the oldest val-3
    finally:
        engine.dispose()
        urls.close()  # type: ignore[attr-defined]

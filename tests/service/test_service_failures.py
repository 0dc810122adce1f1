"""A failure of the service is answered as what it is, and leaves the connection usable
(issue 27):

* an exception no handler expected is a 500 that never invites a retry (the same request would
  fail the same way), and the client's next request on the same keep-alive connection is
  answered — Starlette raised the exception again after answering it, and uvicorn closed the
  connection of a request that raised, so the next request was reset;
* a database failure is a 503 only when a retry can cure it (the connection lost, a lock not had
  in time, a serialization failure, a unique key a concurrent writer took); one the database
  would give again (a value beyond its column, a NOT NULL broken) is a 500
  (:class:`~croupier.progressive.store.DatabaseRefusedError`).

The errors classified are the drivers' own, provoked on a real SQLite file and PostgreSQL.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI

from croupier.progressive.store import (
    DatabaseRefusedError,
    LedgerDatabaseError,
    database_failure,
    retry_cures,
)
from croupier.service.app import ServiceConfig, create_app
from croupier.service.problems import status_of
from progressive_support import PG_URL, require_pg
from service_support import free_port


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service in this process, served by uvicorn on a loopback port, with routes that fail
    as a bug (``/boom``) and as the database would (``/locked``: SQLite's lock not had in time;
    ``/overflow``: a value beyond its column)."""
    db = tmp_path_factory.mktemp("failures") / "ledger.sqlite3"
    app: FastAPI = create_app(ServiceConfig(db=f"sqlite:///{db}"))

    def boom() -> None:
        raise RuntimeError("an internal failure")

    def locked() -> None:
        raise sa.exc.OperationalError(
            "UPDATE x", {}, sqlite3.OperationalError("database is locked")
        )

    def overflow() -> None:
        raise OverflowError("Python int too large to convert to SQLite INTEGER")

    for path, route in (("/boom", boom), ("/locked", locked), ("/overflow", overflow)):
        app.add_api_route(path, route, methods=["GET", "POST"], include_in_schema=False)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < end, "the service did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def _port(r: httpx.Response) -> int:
    port: int = r.extensions["network_stream"].get_extra_info("client_addr")[1]
    return port


@pytest.mark.parametrize(
    ("path", "status", "kind"),
    [
        ("/boom", 500, "InternalError"),
        ("/overflow", 500, "InternalError"),
        ("/locked", 503, "ServiceUnavailable"),
    ],
)
def test_a_failure_is_answered_and_the_connection_answers_the_next_request(
    live: str, path: str, status: int, kind: str
) -> None:
    with httpx.Client(base_url=live, timeout=30) as c:
        for method in ("GET", "POST"):
            r = c.request(method, path, headers={"Idempotency-Key": "k-1"})
            assert (r.status_code, r.json()["error_type"]) == (status, kind), r.text
            assert r.headers["content-type"] == "application/problem+json"
            detail = r.json()["detail"]
            # only a fault a retry can cure says to send the request again
            assert ("again" in detail) == (status == 503), detail
            assert "internal failure" not in detail and "INTEGER" not in detail
            nxt = c.get("/health")
            assert nxt.status_code == 200, nxt.text
            assert _port(nxt) == _port(r)  # the same connection: it was not closed


# -- which database failures a retry cures -------------------------------------------------------


def test_sqlite_failures_a_retry_cures_and_those_it_does_not(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    first = sqlite3.connect(path, timeout=0, isolation_level=None)
    first.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
    first.execute("INSERT INTO t VALUES (1, 1)")
    second = sqlite3.connect(path, timeout=0, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")
    with pytest.raises(sqlite3.OperationalError) as busy:  # the writer's lock, held
        second.execute("BEGIN IMMEDIATE")
    first.execute("ROLLBACK")
    with pytest.raises(sqlite3.IntegrityError) as unique:
        first.execute("INSERT INTO t VALUES (1, 2)")
    with pytest.raises(sqlite3.IntegrityError) as not_null:
        first.execute("INSERT INTO t VALUES (2, NULL)")
    with pytest.raises(OverflowError) as too_big:
        first.execute("INSERT INTO t VALUES (3, ?)", (2**63,))
    assert retry_cures(busy.value)
    assert retry_cures(unique.value)  # a concurrent writer may have taken the key
    assert not retry_cures(not_null.value)
    assert not retry_cures(too_big.value)
    # wrapped as SQLAlchemy wraps them, and as the ledger raises them
    wrapped = sa.exc.OperationalError("BEGIN", {}, busy.value)
    assert isinstance(database_failure(wrapped, "refused"), LedgerDatabaseError)
    refused = database_failure(sa.exc.IntegrityError("INSERT", {}, not_null.value), "refused")
    assert type(refused) is DatabaseRefusedError and "NOT NULL" in str(refused)
    assert (status_of(database_failure(wrapped, "x")), status_of(refused)) == (503, 500)
    first.close()
    second.close()


def test_postgresql_failures_a_retry_cures_and_those_it_does_not() -> None:
    require_pg()
    engine = sa.create_engine(PG_URL)
    seen: dict[str, sa.exc.DBAPIError] = {}
    try:
        with engine.connect() as a, engine.connect() as b:
            a.execute(sa.text("CREATE TEMPORARY TABLE t (k int PRIMARY KEY, v bigint NOT NULL)"))
            a.execute(sa.text("INSERT INTO t VALUES (1, 1)"))
            a.commit()
            for name, sql in (
                ("overflow", "SELECT 9223372036854775807::bigint + 1"),
                ("unique", "INSERT INTO t VALUES (1, 2)"),
                ("not-null", "INSERT INTO t VALUES (2, NULL)"),
            ):
                with pytest.raises(sa.exc.DBAPIError) as caught:
                    a.execute(sa.text(sql))
                seen[name] = caught.value
                a.rollback()
            with pytest.raises(sa.exc.DBAPIError) as caught:
                b.execute(sa.text("SELECT 1/0"))
            seen["division"] = caught.value
            b.rollback()
            a.execute(sa.text("SELECT pg_advisory_lock(605271)"))  # held by a's session
            b.execute(sa.text("SET lock_timeout = '20ms'"))
            with pytest.raises(sa.exc.DBAPIError) as caught:
                b.execute(sa.text("SELECT pg_advisory_lock(605271)"))
            seen["lock"] = caught.value
            b.rollback()
            a.execute(sa.text("SELECT pg_advisory_unlock(605271)"))
            a.commit()
    finally:
        engine.dispose()
    assert not retry_cures(seen["overflow"])  # numeric_value_out_of_range: the same every time
    assert retry_cures(seen["unique"])
    assert not retry_cures(seen["not-null"])
    assert not retry_cures(seen["division"])
    assert retry_cures(seen["lock"])  # lock_not_available: the lock's holder lets go
    assert isinstance(database_failure(seen["lock"], "refused"), LedgerDatabaseError)
    assert type(database_failure(seen["overflow"], "refused")) is DatabaseRefusedError
    assert status_of(database_failure(seen["overflow"], "refused")) == 500


@pytest.mark.parametrize(
    ("state", "cured"),
    [
        ("40001", True),  # serialization_failure
        ("40P01", True),  # deadlock_detected
        ("55P03", True),  # lock_not_available
        ("57014", True),  # query_canceled (statement timeout)
        ("08006", True),  # connection_failure
        ("53100", True),  # disk_full
        ("22003", False),  # numeric_value_out_of_range
        ("22001", False),  # string_data_right_truncation
        ("23502", False),  # not_null_violation
        ("40002", False),  # integrity_constraint_violation within a rollback
        ("42P01", False),  # undefined_table
    ],
)
def test_postgresql_states_a_retry_cures(state: str, cured: bool) -> None:
    """The SQLSTATEs of PostgreSQL's Appendix A, as the driver reports them (``sqlstate``)."""

    class DriverError(Exception):
        sqlstate = state

    DriverError.__module__ = "psycopg"
    assert retry_cures(sa.exc.DBAPIError("SELECT", {}, DriverError("x"))) is cured

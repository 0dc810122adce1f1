"""A ``croupier serve`` process SIGKILLed while a floorperson validates or voids an award, then the
retry under the same ``Idempotency-Key``: each award decided once — paid once or voided once,
its state exactly the one answered — every key recorded once, ``verify`` passing; on SQLite and
on PostgreSQL.

Where the server dies (``$CROUPIER_SERVICE_CRASH_AT``): before the decision's transaction
(``after-effect``), inside it with its first event staged (``validation`` / ``void``), inside it
with every row staged — the key's record too — and the commit not made (``validation-commit`` /
``void-commit``), and after the commit with the answer not sent (``after-commit``). Then eight
decisions at once on a server that dies at the first commit: the others die in flight.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from croupier.progressive import AwardStatus, EventKind, Ledger
from croupier.service import store
from progressive_support import BACKENDS, new_db_url
from service_support import FLOOR, Server, make_ledger, pending_award

pytestmark = pytest.mark.slow

STAGES = {
    "validate": ("after-effect", "validation", "validation-commit", "after-commit"),
    "void": ("after-effect", "void", "void-commit", "after-commit"),
}
COMMITTED = "after-commit"
"""The one stage at which the decision is on record when the server dies."""
FINAL = {"validate": AwardStatus.PAID, "void": AwardStatus.VOIDED}
REASON = {"reason": "the hand was misread: not a royal flush"}


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    urls = new_db_url(request.param, tmp_path)
    found = next(urls)
    make_ledger(found)
    try:
        yield found
    finally:
        urls.close()  # type: ignore[attr-defined]


def decide(srv: Server, token: str, action: str, award: int, key: str) -> httpx.Response:
    return httpx.post(
        f"{srv.base}/awards/{award}/{action}",
        json=REASON if action == "void" else None,
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
        timeout=60,
    )


def pending_awards(url: str, tmp_path: Path, n: int) -> tuple[str, list[dict[str, Any]]]:
    """``n`` pending Royal Flush awards of jp-5, made by a server that is then stopped, and a
    floorperson's token (it outlives the server: its key is the ledger's)."""
    srv = Server(url, tmp_path / "awards.log").start()
    try:
        with srv.client() as c:
            made = [pending_award(srv, c, "BJ-3") for _ in range(n)]
        return srv.token(FLOOR), made
    finally:
        srv.stop()


def on_record(url: str, award: int, key: str) -> tuple[AwardStatus, int, int]:
    """Read behind the server's back: the award's status, its decision events in the ledger
    (a validation and its payment, or the void's adjustment) and the rows recording ``key``."""
    with Ledger(url) as ledger:
        status = ledger.award(award).status
        events = [
            e
            for e in ledger.history("jp-5")
            if e.event.award_id == award
            and (
                e.event.kind in (EventKind.VALIDATION, EventKind.PAYMENT)
                or e.event.detail.get("void_award") == award
            )
        ]
        with ledger.engine.connect() as conn:
            i = store.idempotency
            keys = conn.execute(
                sa.select(sa.func.count()).select_from(i).where(i.c.key == key)
            ).scalar_one()
    return status, len(events), int(keys)


def expected(action: str, award: dict[str, Any]) -> dict[str, Any]:
    """The answer of a decision on ``award`` (its JSON as made), derived from the request."""
    if action == "validate":
        return {**award, "status": "paid", "validated_by": FLOOR}
    return {**award, "status": "voided", "validated_by": None, "voided_by": FLOOR, **REASON}


def settled_totals(srv: Server, token: str) -> dict[str, int]:
    """jp-5's paid cents (the level's paid-to-date) with ``verify`` passing."""
    h = {"Authorization": f"Bearer {token}"}
    with srv.client(headers=h) as c:
        assert c.get("/verify").json()["chain_checked"] is True
        level = c.get("/progressives/jp-5").json()["levels"][0]
    return {"paid_cents": int(level["paid_cents"]), "hits": int(level["hits"])}


def test_a_decision_killed_at_each_stage_is_made_once_by_its_retry(
    url: str, tmp_path: Path
) -> None:
    plan = [(action, stage) for action, stages in STAGES.items() for stage in stages]
    token, awards = pending_awards(url, tmp_path, len(plan))
    by_job = {job: a for job, a in zip(plan, awards, strict=True)}
    kills = 0
    for action, stage in plan:  # each decision killed by its own doomed server
        award, key = by_job[(action, stage)]["award"], f"{action}/{stage}"
        doomed = Server(url, tmp_path / f"{stage}.log", {"CROUPIER_SERVICE_CRASH_AT": stage})
        doomed.start()
        with pytest.raises(httpx.TransportError):
            decide(doomed, token, action, award, key)
        assert doomed.proc is not None and doomed.proc.wait(15) == -9, stage
        doomed.proc = None
        kills += 1
        # all of the decision or none of it: the award, its events and the key's record
        if stage == COMMITTED:
            assert on_record(url, award, key) == (
                FINAL[action],
                2 if action == "validate" else 1,
                1,
            )
        else:
            assert on_record(url, award, key) == (AwardStatus.PENDING, 0, 0), stage
    srv = Server(url, tmp_path / "server.log").start()
    try:
        before = settled_totals(srv, token)
        for action, stage in plan:
            award, key = by_job[(action, stage)], f"{action}/{stage}"
            first = decide(srv, token, action, award["award"], key)
            assert first.status_code == 200, (stage, first.text)
            assert first.json() == expected(action, award), stage
            # committed before the kill: the retry is the record's answer, replayed
            assert (first.headers.get("Idempotent-Replayed") == "true") == (stage == COMMITTED)
            again = decide(srv, token, action, award["award"], key)
            assert (again.status_code, again.json()) == (200, first.json())
            assert again.headers["Idempotent-Replayed"] == "true"
            other = decide(srv, token, action, award["award"], f"{key}/new-key")
            assert other.status_code == 409, other.text  # decided already: nothing made twice
        after = settled_totals(srv, token)
    finally:
        srv.stop()
    for action, stage in plan:
        award, key = by_job[(action, stage)]["award"], f"{action}/{stage}"
        assert on_record(url, award, key) == (FINAL[action], 2 if action == "validate" else 1, 1)
    # the paid meter moved by each validated award's amount once (two paid before the restart)
    paid_later = sum(
        by_job[(a, s)]["amount_cents"] for a, s in plan if a == "validate" and s != COMMITTED
    )
    assert after["paid_cents"] - before["paid_cents"] == paid_later
    assert kills == len(plan) == 8


def test_decisions_in_flight_when_the_server_dies_are_each_made_once(
    url: str, tmp_path: Path
) -> None:
    """Eight decisions at once (four validations, four voids); the server dies at the first
    decision's commit, the others in flight. Every retry answers; each award ends as its
    request asked, decided once; an answer given before the kill is the retry's too."""
    token, awards = pending_awards(url, tmp_path, 8)
    jobs = [("validate" if i % 2 == 0 else "void", a) for i, a in enumerate(awards)]
    doomed = Server(url, tmp_path / "doomed.log", {"CROUPIER_SERVICE_CRASH_AT": "void-commit"})
    doomed.start()
    answered: dict[int, dict[str, Any]] = {}

    def one(job: tuple[str, dict[str, Any]]) -> None:
        action, award = job
        try:
            r = decide(doomed, token, action, award["award"], f"{action}/{award['award']}")
        except httpx.TransportError:
            return
        if r.status_code == 200:
            answered[award["award"]] = r.json()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, jobs))
    assert doomed.proc is not None and doomed.proc.wait(15) == -9
    doomed.proc = None
    srv = Server(url, tmp_path / "server.log").start()
    try:
        with ThreadPoolExecutor(8) as pool:
            retried = list(
                pool.map(
                    lambda j: decide(srv, token, j[0], j[1]["award"], f"{j[0]}/{j[1]['award']}"),
                    jobs,
                )
            )
        settled_totals(srv, token)  # verify passes
    finally:
        srv.stop()
    assert len(answered) < len(jobs), "every decision was answered before the kill"
    for (action, award), r in zip(jobs, retried, strict=True):
        assert r.status_code == 200, r.text
        assert r.json() == expected(action, award)
        if award["award"] in answered:
            assert r.json() == answered[award["award"]]
        key = f"{action}/{award['award']}"
        events = 2 if action == "validate" else 1
        assert on_record(url, award["award"], key) == (FINAL[action], events, 1)

"""CPU a settled round costs on the service's request path, in process (no HTTP, no load
generator): ``POST /rounds/settle`` of :mod:`bench_service`'s round (two seats, Blackjack, Perfect
Pairs and a $5 Jackpot Party wager each) driven straight through the ASGI application, with no
progressive fed and with the Jackpot Party wagers fed to one linked progressive, then the same
round's stages (no progressive) called one by one.

Run: ``python benchmarks/bench_service_path.py [--rounds 2000] [--db sqlite|postgresql]``.
The event loop is uvloop's where it is installed, as ``croupier serve`` runs.
Prints, per round, the CPU time (``time.process_time``: this process, every thread — what the
machine's other load disturbs least) and the wall time of the whole request through the app,
then the CPU time of each stage: the body's JSON checks, the round file's validation, the
idempotency digest, the Rules Submission's digest and check, the replay, the settlement document,
its JSON text, the durable write. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from bench_service import TABLES, drop_schema, make_db, round_body
from fastapi import FastAPI

from croupier.inputs import parse_json
from croupier.operations.documents import Settled
from croupier.operations.rounds import checked_submission, feed_and_document, replay
from croupier.paytables import builtin_paytables
from croupier.progressive import Ledger, ProgressiveDefinition, Role, StaffMember
from croupier.service import store
from croupier.service.app import ServiceConfig, _plainly_within, create_app
from croupier.service.auth import check_token, issue, read_token
from croupier.service.common import body_digest
from croupier.service.idempotency import lookup
from croupier.service.idempotency import row as key_row
from croupier.service.jsontext import dumps
from croupier.service.settling import INSERT_ROUND, round_row
from croupier.table.record import RoundFile


async def _call(app: FastAPI, path: str, query: str, headers: dict[str, str], body: bytes) -> int:
    """One HTTP request through the ASGI app; its status."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    sent = False
    status = 0

    async def receive() -> MutableMapping[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


def _per_round(fn: Callable[[int], object], n: int) -> tuple[float, float]:
    """CPU and wall µs per call of ``fn(i)`` over ``n`` calls."""
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6


async def _through_app(
    app: FastAPI, token: str, n: int, tag: str, progressive: bool = False
) -> tuple[float, float]:
    bodies = [json.dumps(round_body(f"{tag}{i}", i, jp=progressive)).encode() for i in range(n)]
    cpu, wall = time.process_time(), time.perf_counter()
    for i, body in enumerate(bodies):
        headers = {
            "authorization": f"Bearer {token}",
            "content-type": "application/json",
            "content-length": str(len(body)),
            "idempotency-key": f"{tag}/{i}",
        }
        query = f"table={TABLES[i % 4]}" + ("&progressive=jp-5" if progressive else "")
        status = await _call(app, "/rounds/settle", query, headers, body)
        if status != 201:
            raise SystemExit(f"round {i}: status {status}")
    return (time.process_time() - cpu) / n * 1e6, (time.perf_counter() - wall) / n * 1e6


def _stages(app: FastAPI, n: int) -> list[tuple[str, float]]:
    """CPU µs per round of each stage of the settle path, called directly."""
    ledger = app.state.ledger
    committer = app.state.committer
    raw = [json.dumps(round_body(f"s{i}", i, jp=False)).encode() for i in range(n)]
    out: list[tuple[str, float]] = []

    def stage(name: str, fn: Callable[[int], object]) -> None:
        out.append((name, _per_round(fn, n)[0]))

    stage("body JSON limits (parse_json, slow)", lambda i: parse_json(raw[i].decode(), "body"))
    stage("body JSON limits (orjson, fast)", lambda i: _plainly_within(raw[i]))
    dana = ledger.staff_now()["dana"]  # the token names her staff generation (issue 16)
    token = issue(ledger, StaffMember("dana", dana.role, dana.since), 3600)
    stage("token check (remembered)", lambda i: read_token(ledger, token))
    stage("token not revoked (one indexed read)", lambda i: check_token(ledger, token))
    reader = app.state.reader
    stage(
        "idempotency lookup (a new key)",
        lambda i: lookup(reader, "dana", f"new/{i}", "POST /rounds/settle?table=T1", "0" * 64),
    )
    records = [RoundFile.model_validate_json(b) for b in raw]
    stage("round file validated (pydantic)", lambda i: RoundFile.model_validate_json(raw[i]))
    dumped = [r.model_dump(mode="json", exclude_none=True) for r in records]
    stage("model_dump for the digest", lambda i: records[i].model_dump(mode="json"))
    stage("request digest", lambda i: body_digest({"table": "T1", "round": dumped[i]}))
    subs = [checked_submission(r.submission, "submission") for r in records]  # type: ignore[arg-type]
    stage(
        "submission digest + check (cached)",
        lambda i: checked_submission(records[i].submission, "submission"),  # type: ignore[arg-type]
    )
    stage("replay (TableRound)", lambda i: replay(subs[i][1], records[i].steps, "r"))
    rounds = [replay(subs[i][1], records[i].steps, "r") for i in range(n)]

    def doc(i: int) -> Settled:
        return feed_and_document(
            ledger,
            rounds[i],
            table="T1",
            round_id=f"s{i}",
            submission_digest=subs[i][0],
            progressives=[],
            by="dana",
        )

    stage("settlement document", doc)
    settled = [doc(i) for i in range(n)]
    rows = [round_row(s, submission_digest=subs[0][0], by="dana") for s in settled]
    stage("round row + document JSON", lambda i: dumps(settled[i].document))
    stage(
        "durable write (committer, alone)",
        lambda i: committer.write(
            [
                (INSERT_ROUND, rows[i]),
                (
                    sa.insert(store.idempotency),
                    key_row(f"s/{i}", "POST /rounds/settle?table=T1", "0" * 64, 201, "{}", "dana"),
                ),
            ]
        ),
    )
    return out


async def main_async(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="croupier-bench-path-"))
    os.environ["XDG_DATA_HOME"] = str(tmp / "data")
    url, schema = make_db(args.db, tmp)
    password = secrets.token_urlsafe(16)
    with Ledger(url) as ledger:
        ledger.bootstrap("sam", password)
        ledger.add_user("dana", Role.DEALER, password, by="sam")
        defn = ProgressiveDefinition.from_paytable(
            builtin_paytables().get("633b.2", "P1", 6), decks=6, wager_cents=500, name="jp-5"
        )
        ledger.create_progressive(defn, tables=TABLES, by="sam")
    app = create_app(ServiceConfig(db=url))
    try:
        async with app.router.lifespan_context(app):
            dana = app.state.ledger.authenticate("dana", password)
            token = issue(app.state.ledger, dana, 3600)
            await _through_app(app, token, 50, "warm")
            tag = uuid.uuid4().hex[:6]
            for fed in (False, True):
                cpu, wall = await _through_app(app, token, args.rounds, tag + str(fed), fed)
                print(
                    f"{args.db}: POST /rounds/settle{'?progressive=jp-5' if fed else ''} "
                    f"through the ASGI app, {args.rounds} rounds: "
                    f"{cpu:8.0f} µs CPU  {wall:8.0f} µs wall a round  "
                    f"({1e6 / cpu:.0f} rounds/s per core; load {os.getloadavg()[0]:.1f})"
                )
            total = 0.0
            for name, us in _stages(app, min(args.rounds, 1000)):
                total += 0 if "slow" in name else us
                print(f"    {name:38s} {us:8.0f} µs CPU")
            print(f"    {'sum of the stages (not the slow)':38s} {total:8.0f} µs CPU")
    finally:
        drop_schema(schema)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    args = ap.parse_args()
    args.rounds = max(10, min(args.rounds, 20000))  # bounded
    try:  # uvicorn's own loop where it is installed, as `croupier serve` runs
        import uvloop

        factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:  # pragma: no cover
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main_async(args))


if __name__ == "__main__":
    main()

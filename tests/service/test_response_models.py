"""The service's answers are their models' exact shape (issue 29): what a real ``croupier serve``
answers — a settled round and its reads, the rounds' listing and summary, an open table's
answers, the reading routes, a simulation job, a problem — is read by the model its route
declares (a key the model does not name refused) and written back by it unchanged
(:func:`model_support.held`), on SQLite and PostgreSQL."""

from __future__ import annotations

import importlib
import time
import typing
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.responses import Response

from croupier.operations.schemas import analysis, eor, problems, reading, rounds, simulation
from croupier.service.routes.token import Token
from model_support import held
from progressive_support import BACKENDS, secret
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    Server,
    keyed,
    link,
    pp_round,
    royal_round,
    serving,
)


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"models-{request.param}")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def answered(r: httpx.Response, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def test_a_settled_round_and_its_reads_are_stored_rounds(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        dealer, pit = server.auth(DEALER), server.auth(PIT)
        link(c, server, table)
        plain = c.post(
            "/rounds/settle", params={"table": table}, json=pp_round("r1"), headers=keyed(dealer)
        )
        held(rounds.StoredRound, answered(plain, 201))
        fed = c.post(
            "/rounds/settle",
            params={"table": table, "progressive": "jp-5"},
            json=royal_round("r2"),
            headers=keyed(dealer),
        )
        doc = answered(fed, 201)
        (award,) = [a for a in doc["progressives"][0]["awards"] if a["status"] == "pending"]
        held(rounds.StoredRound, doc)
        again = c.post(  # stored already: the round as stored, its awards the ledger's now
            "/rounds/settle",
            params={"table": table, "progressive": "jp-5"},
            json=royal_round("r2"),
            headers=keyed(dealer),
        )
        assert answered(again)["stored_already"] is True
        held(rounds.StoredRound, again.json())
        validated = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert validated.status_code == 200, validated.text
        read = answered(c.get(f"/rounds/{table}/r2", headers=dealer))
        assert "as_settled" in read and "recorded_status" in read["progressives"][0]["awards"][0]
        held(rounds.StoredRound, read)
        listed = answered(c.get("/rounds", params={"table": table}, headers=dealer))
        assert listed["count"] == 2
        held(rounds.RoundList, listed)
        for filters in ({}, {"table": table}, {"table": table, "wager": "jackpot-party"}):
            summary = answered(c.get("/rounds/summary", params=filters, headers=pit))
            held(rounds.RoundSummary, summary)


def test_an_open_tables_answers_are_table_states(server: Server) -> None:
    table = uid("T")
    with server.client() as c:
        dealer, pit = server.auth(DEALER), server.auth(PIT)
        link(c, server, table)
        spec = {"table": table, "submission": pp_round("x")["submission"], "progressives": []}
        held(rounds.TableState, answered(c.post("/tables", json=spec, headers=keyed(pit)), 201))

        def step(body: dict[str, Any]) -> Any:
            state = answered(c.post(f"/tables/{table}/steps", json=body, headers=keyed(dealer)))
            held(rounds.TableState, state)
            return state

        step({"action": "bet", "seat": 2, "wager": "blackjack", "amount": "$25"})
        step({"action": "bet", "seat": 2, "wager": "jackpot-party", "amount": "$5"})
        step({"action": "bet", "seat": 2, "wager": "match-the-dealer", "amount": "$5"})
        step({"action": "no-more-bets"})
        dealt = step({"action": "deal", "players": {"2": "Th 6c"}, "dealer": "9s 7d"})
        assert dealt["to_act"], dealt
        step({"action": "stand", "seat": 2})
        step({"action": "dealer-draw", "card": "Ts"})
        assert "settled" in step({"action": "settle"})
        held(rounds.TableState, answered(c.get(f"/tables/{table}", headers=dealer)))
        held(rounds.TableList, answered(c.get("/tables", headers=dealer)))
        step({"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"})
        step({"action": "bet", "seat": 1, "wager": "perfect-pairs", "amount": "$5"})
        voided = c.post(
            f"/tables/{table}/void",
            json={"reason": "misdeal"},
            headers=keyed(server.auth(FLOOR)),
        )
        assert "voided" in answered(voided)
        held(rounds.TableState, voided.json())
        closed = answered(c.delete(f"/tables/{table}", headers=keyed(pit)))
        held(rounds.TableClosed, closed)


def test_the_reading_routes_answer_their_models(server: Server) -> None:
    with server.client() as c:
        held(reading.Health, answered(c.get("/health")))
        staff = answered(c.get("/health", headers=server.auth(DEALER)))
        assert "database" in staff
        held(reading.Health, staff)
        held(reading.WagerList, answered(c.get("/wagers")))
        held(reading.PaytableList, answered(c.get("/paytables")))
        sheets: list[tuple[str, dict[str, str | int]]] = [
            ("perfect-pairs", {"paytable": "A", "decks": 6}),
            ("jackpot-party", {"paytable": "P10", "meter": "$60,000"}),  # its meter_analysis
            ("four-card-poker", {}),  # its strategy and figures per ante
            ("banker", {"paytable": "commission", "decks": 8}),
        ]
        docs = [answered(c.get(f"/parsheets/{w}", params=params)) for w, params in sheets]
        assert "meter_analysis" in docs[1] and "strategy" in docs[2], docs
        for doc in docs:
            held(analysis.ParSheet, doc)
        counts: list[tuple[str, dict[str, str | int]]] = [
            ("jackpot-party", {"decks": 6, "shoes": 200, "seed": 4}),
            ("banker", {"decks": 8, "shoes": 100, "seed": 4}),  # its shoes
            ("perfect-pairs", {"decks": 6, "shoes": 100}),  # its perfect play
        ]
        docs = [answered(c.get(f"/eor/{w}", params=params)) for w, params in counts]
        assert "shoes" in docs[1] and docs[2]["vulnerability"]["perfect_play"], docs
        for doc in docs:
            held(eor.EorDetail, doc)
        token = c.post("/token", data={"username": DEALER, "password": secret(DEALER)})
        held(Token, answered(token))


def test_a_simulation_job_is_its_model_queued_and_done(server: Server) -> None:
    spec = {"wager": "jackpot-party", "paytable": "P1", "decks": 6, "rounds": 20_000, "seed": 3}
    with server.client() as c:
        job = answered(c.post("/simulations", json=spec, headers=keyed(server.auth(DEALER))), 202)
        held(simulation.SimulationJob, job)
        deadline = time.monotonic() + 180
        while job["status"] in ("queued", "preparing", "running") and time.monotonic() < deadline:
            time.sleep(0.2)
            job = answered(c.get(f"/simulations/{job['job']}"))
            held(simulation.SimulationJob, job)
    assert job["status"] == "done" and job["result"]["hit_odds"], job


def test_a_problem_is_its_model(server: Server) -> None:
    sub = pp_round("x")["submission"]
    with server.client() as c:
        pit = keyed(server.auth(PIT))
        bad_rules = {"table": uid("T"), "submission": {**sub, "decks": 3}}
        answers = [
            c.get("/parsheets/perfect-pears"),  # 404: no such wager
            c.get("/parsheets/perfect-pairs", params={"decks": "lots"}),  # 422: its schema
            c.post("/tables", json=bad_rules, headers=pit),  # 422: the rules, with violations
            c.post("/tables", json={"table": uid("T"), "submission": sub}),  # 401
            c.post("/rounds/settle", json={"amount": "$1e400"}, headers=pit),
        ]
    for r in answers:
        assert r.status_code >= 400 and r.headers["content-type"] == "application/problem+json"
        held(problems.Problem, r.json())
    assert {"errors", "violations"} <= {k for r in answers for k in r.json()}


def test_no_answer_is_written_through_its_model() -> None:
    """A route declaring a model of croupier.operations.schemas answers the JSON text it wrote
    itself (a Response): FastAPI does not re-serialize it through the model, so the output is
    unchanged — a par sheet's net_win of 25 is never written 25.0."""
    declared = []
    for name in ("eor", "reading", "rounds", "simulations", "tables"):
        for route in importlib.import_module(f"croupier.service.routes.{name}").router.routes:
            model = getattr(route, "response_model", None)
            if isinstance(route, APIRoute) and "operations.schemas" in str(model):
                declared.append(route.path)
                returns = typing.get_type_hints(route.endpoint)["return"]
                assert returns is Response, (route.path, returns)
    assert len(declared) >= 17, declared


def test_every_json_answer_in_the_openapi_is_a_named_model() -> None:
    """A client generator types every answer: each success body with JSON content is a
    ``$ref`` to a model in ``components/schemas`` (or a list of one), never a bare object."""
    from croupier.service.app import create_app

    spec = create_app().openapi()
    loose = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                body = (answer.get("content") or {}).get("application/json")
                if not status.startswith("2") or body is None:
                    continue
                schema = body.get("schema", {})
                schema = schema.get("items", schema) if schema.get("type") == "array" else schema
                if not str(schema.get("$ref", "")).startswith("#/components/schemas/"):
                    loose.append(f"{method.upper()} {path} {status}")
    assert loose == []

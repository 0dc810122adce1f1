"""The service speaks HTTP's words and says what it means (issue 16, trial items 16, 17, 19, 21):
a real ``croupier serve`` process on SQLite (the backend that gives times back without a zone).

The OpenAPI lists every route with a success schema and error examples of its own path; errors
name query parameters, not CLI flags; a lost race between two steps says so (no idempotency key
was sent); a rule of 58 Pa. Code is cited first; times carry their offset; a JSON body sent as
text/plain is told so.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import jsonschema
import pytest
from typer.testing import CliRunner

from croupier.cli import app
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    PLAIN_SUBMISSION,
    SHIFT,
    Server,
    keyed,
    link,
    pp_round,
    royal_round,
    serving,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("f1-words")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# -- OpenAPI (item 16) ---------------------------------------------------------------------


def test_the_openapi_has_every_route_a_success_schema_and_its_own_error_paths(
    server: Server,
) -> None:
    spec = httpx.get(f"{server.base}/openapi.json", timeout=60).json()
    from croupier.service.app import create_app
    from croupier.service.openapi import api_routes

    routes = {
        (m.lower(), path)
        for path, methods, _ in api_routes(create_app())
        for m in methods
        if m not in ("HEAD", "OPTIONS")
    }
    assert len(routes) == 59  # the 49 of the API, and the 10 of the pages and downloads
    listed = {(m, p) for p, ops in spec["paths"].items() for m in ops}
    assert routes <= listed, routes - listed
    assert ("get", "/hold-report") in listed and ("delete", "/tables/{table}") in listed
    for path, ops in spec["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
        for method, op in ops.items():
            for status, r in op["responses"].items():
                for kind, body in (r.get("content") or {}).items():
                    if status.startswith("2"):
                        assert body.get("schema"), (method, path, status, kind)
                    if kind == "application/problem+json":
                        for example in body["examples"].values():
                            instance = example["value"]["instance"]
                            assert re.match(pattern, instance), (path, example)


def test_an_answer_matches_its_openapi_schema(server: Server) -> None:
    spec = httpx.get(f"{server.base}/openapi.json", timeout=60).json()

    def schema(method: str, path: str, status: str) -> dict[str, object]:
        """The answer's schema; a model's (a $ref into components/schemas) with the components
        beside it, so its own references resolve."""
        s: dict[str, object] = spec["paths"][path][method]["responses"][status]["content"][
            "application/json"
        ]["schema"]
        ref = s.get("$ref")
        if isinstance(ref, str):  # a model: its own schema, its references resolved beside it
            s = spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        return {**s, "components": spec["components"]}

    table = uid("BJ")
    with server.client() as c:
        # linked first: a table offering progressive wagers opens only with their progressives
        linked = c.post(
            "/progressives/jp-5/links", json={"table": table}, headers=keyed(server.auth(SHIFT))
        )
        jsonschema.validate(linked.json(), schema("post", "/progressives/{name}/links", "201"))
        link(c, server, table, ("mtd-1", "mtd-5"))
        opened = c.post(
            "/tables",
            json={"table": table, "submission": pp_round("x")["submission"]},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        jsonschema.validate(opened.json(), schema("post", "/tables", "201"))
        assert "required" in schema("post", "/tables", "201")
        r = c.post(
            "/rounds/settle",
            params={"table": table, "progressive": "jp-5"},
            json=royal_round("r1"),
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 201, r.text
        jsonschema.validate(r.json(), schema("post", "/rounds/settle", "201"))
        (award,) = r.json()["progressives"][0]["awards"]
        void = c.post(
            f"/awards/{award['award']}/void",
            json={"reason": "misread"},
            headers=keyed(server.auth(FLOOR)),
        )
        jsonschema.validate(void.json(), schema("post", "/awards/{award_id}/void", "200"))


# -- errors in HTTP's words (item 17) ------------------------------------------------------


def test_errors_name_the_query_parameters_not_cli_flags(server: Server) -> None:
    with server.client() as c:
        bad = c.get("/parsheets/match-the-dealer", params={"paytable": "1", "meter": "abc"})
        assert bad.status_code == 422
        assert "meter parameter" in bad.json()["detail"]
        assert "--" not in bad.json()["detail"]
        period = c.get(
            "/reconciliation",
            params={"from": "2026-12-03", "to": "2026-12-01"},
            headers=server.auth(PIT),
        )
        assert period.status_code == 422
        assert "give ?from= before ?to=" in period.json()["detail"]
        assert "--" not in period.json()["detail"]


def test_a_step_that_lost_a_race_says_so(server: Server) -> None:
    """Trial: two steps posted to one table at once, the loser got IdempotencyConflictError
    though no key was sent."""
    with server.client() as c:
        losers: list[httpx.Response] = []
        for _ in range(5):
            table = uid("BJ")
            opened = c.post(
                "/tables",
                json={"table": table, "submission": PLAIN_SUBMISSION},
                headers=keyed(server.auth(PIT)),
            )
            assert opened.status_code == 201, opened.text

            def bet(seat: int, table: str = table) -> httpx.Response:
                body = {"action": "bet", "seat": seat, "wager": "blackjack", "amount": "$10"}
                return httpx.post(
                    f"{server.base}/tables/{table}/steps",
                    json=body,
                    headers=keyed(server.auth(DEALER)),
                    timeout=60,
                )

            with ThreadPoolExecutor(7) as pool:
                answers = list(pool.map(bet, range(1, 8)))
            assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
            losers += [a for a in answers if a.status_code == 409]
            if losers:
                break
    if not losers:
        pytest.skip("no two steps met on this machine")
    for a in losers:
        assert a.json()["error_type"] == "RoundStateError"
        assert "Idempotency" not in a.json()["detail"]
        assert "at the same time" in a.json()["detail"]


def test_a_pa_rule_is_cited_first(server: Server) -> None:
    name = "jp-5"
    with server.client() as c:
        s = c.post(
            f"/progressives/{name}/suspend",
            json={"reason": "meter test"},
            headers=keyed(server.auth(PIT)),
        )
        assert s.status_code == 200, s.text
        try:
            r = c.post(
                "/rounds/settle",
                params={"table": "BJ-1", "progressive": name},
                json=pp_round(uid("r"), jp=True),
                headers=keyed(server.auth(DEALER)),
            )
        finally:
            assert c.post(
                f"/progressives/{name}/resume", headers=keyed(server.auth(PIT))
            ).is_success
        detail = r.json()["detail"]
        assert r.json()["section"] == "605a.8"
        assert detail.index("58 Pa. Code § 605a.8") < detail.index("NY 9 NYCRR")


# -- data in the JSON (item 19) and small text (item 21) -----------------------------------


def test_times_carry_their_offset(server: Server) -> None:
    with server.client() as c:
        history = c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json()
        assert history["history"]
        for e in history["history"]:
            assert re.search(r"[+-]\d\d:\d\d$", e["at"]), e["at"]
        events = c.get("/significant-events", headers=server.auth(SHIFT)).json()["events"]
        for e in events:
            assert re.search(r"[+-]\d\d:\d\d$", e["at"]), e["at"]


def test_a_json_body_sent_as_text_is_told_its_content_type(server: Server) -> None:
    with server.client() as c:
        r = c.post(
            "/awards/1/void",
            content=b'{"reason": "misread"}',
            headers=keyed({**server.auth(FLOOR), "Content-Type": "text/plain"}),
        )
        assert r.status_code == 415, r.text
        assert "Content-Type: application/json" in r.json()["detail"]
        assert "text/plain" in r.json()["detail"]
        assert "valid dictionary" not in r.text


def test_the_ledgers_default_path_in_help_names_xdg_data_home(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "200"}
    result = CliRunner().invoke(app, ["meters", "report", "--help"], env=env)
    assert result.exit_code == 0
    assert "$XDG_DATA_HOME/croupier/progressive.sqlite3" in " ".join(result.output.split())

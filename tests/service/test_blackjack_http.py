"""``GET /blackjack/house-edge`` and ``GET /blackjack/effects`` (croupier.service.routes.blackjack):
the command's figures over HTTP, held to their models, refused in one line, and run off the event
loop."""

from __future__ import annotations

import inspect
import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cli_support import run_main
from croupier.operations.schemas.strategy import BlackjackEffects, BlackjackHouseEdge
from croupier.service.problems import install
from croupier.service.routes import blackjack as blackjack_routes
from model_support import held

FAST = {"decks": 1, "split_hands": 2, "strategy": "composition"}
"""One deck, split to 2 hands, composition-dependent: about a second a rule set."""


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install(app)
    app.include_router(blackjack_routes.router)
    return TestClient(app)


def test_the_house_edge_is_what_the_command_prints(client: TestClient) -> None:
    r = client.get("/blackjack/house-edge", params={**FAST, "surrender": True})
    assert r.status_code == 200, r.text
    doc = r.json()
    held(BlackjackHouseEdge, doc)
    rules = ["-d", "1", "--split-hands", "2", "--surrender", "--strategy", "composition"]
    run = run_main(["strategy", "blackjack", *rules, "--json"])
    assert run.code == 0, run.err
    command = json.loads(run.out)
    for key in doc:
        assert doc[key] == command[key], key
    assert doc["rule_set"] == {
        "decks": 1,
        "dealer": "S17",
        "double_after_split": True,
        "split_hands": 2,
        "resplit_aces": False,
        "hit_split_aces": False,
        "late_surrender": True,
        "peek": True,
        "blackjack_pays": "3:2",
        "double_on": "any",
    }


def test_the_effects_table_over_http(client: TestClient) -> None:
    # a Blackjack paying 1 to 1 instead of 3 to 2 loses half a wager on every player Blackjack
    # the dealer does not match: from one deck, P(player A+T) = 2·4·16/(52·51) = 128/2652, and
    # the dealer's hole card and upcard then match it at most one time in ten — a change of
    # about 0.5 × 0.0483 × 0.95 ≈ 2.3 points
    r = client.get("/blackjack/effects", params={**FAST, "only": ["pays-1:1", "h17"]})
    assert r.status_code == 200, r.text
    doc = r.json()
    held(BlackjackEffects, doc)
    rows = {e["key"]: e for e in doc["effects"]}
    assert set(rows) == {"pays-1:1", "h17"}
    assert 0.022 < rows["pays-1:1"]["change"] < 0.0242
    assert rows["h17"]["change"] > 0  # hitting soft 17 costs the player
    for e in doc["effects"]:
        assert e["change"] == pytest.approx(e["house_edge"] - doc["house_edge"], abs=1e-15)


def test_bad_rules_are_one_line_problems(client: TestClient) -> None:
    r = client.get("/blackjack/house-edge", params={**FAST, "resplit_aces": True})
    assert r.status_code == 422
    assert r.json()["section"] == "633a.11" and "\n" not in r.json()["detail"]
    r = client.get("/blackjack/effects", params={**FAST, "only": "x"})
    assert r.status_code == 422 and r.json()["detail"].startswith("no variation 'x'")
    for bad in ({"decks": 9}, {"blackjack_pays": "2:1"}, {"double": "8-11"}, {"split_hands": 5}):
        assert client.get("/blackjack/house-edge", params=bad).status_code == 422, bad


def test_the_routes_do_not_block_the_event_loop() -> None:
    # FastAPI runs a plain function in its thread pool; a coroutine would hold the loop for
    # the seconds a rule set takes
    assert not inspect.iscoroutinefunction(blackjack_routes.blackjack_house_edge)
    assert not inspect.iscoroutinefunction(blackjack_routes.blackjack_effects)

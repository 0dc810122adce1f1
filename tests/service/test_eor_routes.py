"""The count analysis on the service and the page (issue 18): ``GET /eor/{wager}`` answers the
JSON of ``croupier eor WAGER --json``; ``GET /eor`` shows it as a table and a chart. In-process
(the routes on a bare application); tests/service/web/test_eor_browser.py opens the page in Chromium
against a real ``croupier serve``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from cli_support import run_main
from croupier.service.problems import install
from croupier.service.routes import eor as eor_routes
from croupier.service.web import mount
from repo_paths import ROOT

SCHEMA = ROOT / "docs" / "schemas" / "eor.schema.json"


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install(app)
    app.include_router(eor_routes.router)
    mount(app)
    return TestClient(app)


def _valid(doc: Any) -> None:
    spec = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = [e.message for e in Draft202012Validator(spec).iter_errors(doc)]
    assert not errors, errors


def test_the_route_answers_what_the_command_prints(client: TestClient) -> None:
    r = client.get("/eor/jackpot-party", params={"decks": 6, "shoes": 300, "seed": 4})
    assert r.status_code == 200, r.text
    doc = r.json()
    _valid(doc)
    run = run_main(["eor", "jackpot-party", "-d", "6", "--shoes", "300", "--seed", "4", "--json"])
    assert run.code == 0, run.err
    assert doc == json.loads(run.out)
    assert doc["counter"]["shoes"] == 300 and doc["count"]["trigger_true_count"] >= 1


def test_the_route_refuses_in_one_line(client: TestClient) -> None:
    r = client.get("/eor/four-card-poker")
    assert r.status_code == 422
    assert "full deck" in r.json()["detail"] and "\n" not in r.json()["detail"]
    r = client.get("/eor/jackpot-party", params={"shoes": eor_routes.MAX_SHOES + 1})
    assert r.status_code == 422 and r.json()["error_type"] == "InputError"
    r = client.get("/eor/no-such-wager")
    assert r.status_code == 404 and "no-such-wager" in r.json()["detail"]


def test_the_page_shows_the_table_by_suit_for_axman(client: TestClient) -> None:
    r = client.get("/eor", params={"wager": "axman", "decks": "6", "shoes": "200"})
    assert r.status_code == 200, r.text
    table = r.text[r.text.index('<table id="eor-table">') : r.text.index("</table>")]
    rows = re.findall(r"<tr><th scope=\"row\">(\w+)</th>", table)
    assert rows == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert "♦</th>" in table  # AxMan's king of diamonds: the suits are shown apart
    doc = client.get("/eor/axman", params={"decks": 6, "shoes": 200}).json()
    king = next(e for e in doc["effects"] if e["rank"] == "K")
    assert f"{king['effect'] * 100:+.5f}%" in table
    found = re.search(r'id="chart-data">(.*?)</script>', r.text, re.S)
    assert found is not None
    chart = json.loads(found.group(1))
    assert chart["ranks"][0] == "A" and len(chart["effects"]) == 13
    assert 'href="/eor/axman?' in r.text  # the JSON download


def test_the_page_names_a_problem_without_a_traceback(client: TestClient) -> None:
    r = client.get("/eor", params={"wager": "four-card-poker"})
    assert r.status_code == 422
    found = re.search(r'id="problem">(.*?)</p>', r.text, re.S)
    assert found is not None
    problem = found.group(1)
    assert "full deck" in problem and "Traceback" not in r.text
    assert "InputError" not in problem  # the CLI's line, no error-class name
    assert 'value="four-card-poker" selected' in r.text  # the pickers keep the wager
    r = client.get("/eor", params={"wager": "jackpot-party", "shoes": "lots"})
    assert r.status_code == 422 and "give a whole number of shoes" in r.text


def test_the_page_shows_the_bad_beat_bonus(client: TestClient) -> None:
    r = client.get("/eor", params={"wager": "bad-beat-bonus"})
    assert r.status_code == 200, r.text
    table = r.text[r.text.index('<table id="eor-table">') : r.text.index("</table>")]
    assert table.count('<tr><th scope="row">') == 13
    assert "no count carries between rounds" in r.text
    assert "641a.7" in r.text

"""What the pages say of bad input and of where a paytable comes from (a fresh user's trial of
issue 30): a problem is the one line the CLI prints for the same choice — no error-class name,
the section not said twice — the explorer gives the paytable's SHA-256 as ``analyze --json``
does, and no page points at a file path it cannot open (in-process: the pages on a bare
application)."""

from __future__ import annotations

import html
import json
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cli_support import assert_one_error_line, run_main
from croupier.service.problems import install
from croupier.service.web import mount


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install(app)
    mount(app)
    return TestClient(app)


def _problem(page: str) -> str:
    found = re.search(r'id="problem">(.*?)</p>', page, re.S)
    assert found is not None, page
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


@pytest.mark.parametrize(
    ("query", "cli"),
    [
        ({"wager": "perfect-pairs", "paytable": "Z"}, ["perfect-pairs", "-p", "Z", "-d", "8"]),
        ({"wager": "perfect-pair"}, ["perfect-pair", "-p", "A", "-d", "8"]),
        ({"wager": "perfect-pairs", "paytable": "A", "decks": 3}, ["perfect-pairs", "-p", "A"]),
        (
            {"wager": "match-the-dealer", "paytable": "1", "decks": 2},
            ["match-the-dealer", "-p", "1"],
        ),
    ],
)
def test_the_explorer_shows_the_clis_error_line(
    client: TestClient, query: dict[str, object], cli: list[str]
) -> None:
    decks = [] if "-d" in cli else ["-d", str(query["decks"])]
    line = assert_one_error_line(run_main(["analyze", *cli, *decks]))
    r = client.get("/", params=query)
    assert r.status_code == 422
    shown = _problem(r.text)
    assert shown == line.removeprefix("error: ")
    assert "Error:" not in shown and "§ 633b.3(b)) § 633b.3(b)" not in shown


def test_the_csv_download_refuses_a_paytable_with_the_clis_line(client: TestClient) -> None:
    """``/parsheet.csv`` (the explorer's download) answers an unknown paytable as before, 422
    with a PaytableError problem, now in the CLI's words."""
    line = assert_one_error_line(run_main(["analyze", "perfect-pairs", "-p", "Z", "-d", "8"]))
    r = client.get("/parsheet.csv", params={"wager": "perfect-pairs", "paytable": "Z"})
    assert r.status_code == 422 and r.json()["error_type"] == "PaytableError"
    assert r.json()["detail"] == line.removeprefix("error: ")


def test_the_explorer_shows_the_paytables_sha256(client: TestClient) -> None:
    doc = json.loads(run_main(["analyze", "jackpot-party", "-p", "P1", "-d", "6", "--json"]).out)
    digest = doc["paytable_sha256"]
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    r = client.get("/", params={"wager": "jackpot-party", "paytable": "P1", "decks": 6})
    assert r.status_code == 200
    found = re.search(r'id="paytable-sha256"[^>]*>([0-9a-f]{64})<', r.text)
    assert found is not None and found.group(1) == digest


@pytest.mark.parametrize(
    "path",
    ["/?wager=match-the-dealer&paytable=10&decks=8", "/compare?wager=match-the-dealer&decks=8"],
)
def test_no_page_names_a_file_it_cannot_open(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and 'id="above-100"' in r.text  # the long-run warning is shown
    assert "docs/interpretations.md" not in r.text

"""The paytable comparison (``GET /compare``) shows each breakeven meter with the wager it is on,
takes a wager size (``?stake=``) and exports itself as CSV (``GET /compare.csv``). In-process (the
page's routes on a bare application); tests/service/web/test_web.py sorts it in Chromium."""

from __future__ import annotations

import csv
import io
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from croupier.analysis.summary import SUMMARY_COLUMNS
from croupier.service.problems import install
from croupier.service.web import mount


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install(app)
    mount(app)
    return TestClient(app)


def _breakevens(html: str) -> dict[str, str]:
    """Each row's paytable and its breakeven cell."""
    rows = re.findall(r'<tr data-paytable="([^"]+)".*?</tr>', html, re.S)
    cells = re.findall(r'<tr data-paytable="[^"]+".*?<td class="num[^"]*">[^<]*</td>\s*'
                       r'<td class="num[^"]*">.*?</td>\s*<td class="num[^"]*">([^<]*)</td>',
                       html, re.S)  # fmt: skip
    return dict(zip(rows, cells, strict=True))


def test_each_breakeven_says_the_wager_it_is_on(client: TestClient) -> None:
    page = client.get("/compare", params={"wager": "jackpot-party", "decks": "6"})
    assert page.status_code == 200
    shown = _breakevens(page.text)
    # § 633b.2(i) prints P1 and P2 for a $5 wager, P3 for a $1 wager
    assert shown["P1"] == "$583,449.50 on $5"
    assert shown["P3"] == "$159,880.56 on $1"
    assert 'id="mixed-stakes"' in page.text  # two wager sizes in one column: the page says so
    assert "on a $1 wager)" not in page.text  # the old header that put every breakeven on $1
    assert "VI (95%)" in page.text
    assert '<option value="1" ' in page.text and '<option value="5" ' in page.text


def test_a_wager_size_compares_like_with_like(client: TestClient) -> None:
    page = client.get("/compare", params={"wager": "jackpot-party", "decks": "6", "stake": "1"})
    assert page.status_code == 200
    shown = _breakevens(page.text)
    assert shown["P3"] == "$159,880.56 on $1"
    assert shown["P1"] == shown["P2"] == "not offered at $1"
    assert 'id="mixed-stakes"' not in page.text
    assert '<option value="1" selected>' in page.text
    # the export link carries the page's choice
    assert 'href="/compare.csv?wager=jackpot-party&amp;decks=6&amp;stake=1"' in page.text


def test_the_csv_link_answers_the_comparison_as_csv(client: TestClient) -> None:
    got = client.get(
        "/compare.csv", params={"wager": "match-the-dealer", "decks": "8", "stake": "5"}
    )
    assert got.status_code == 200
    assert got.headers["content-type"].startswith("text/csv")
    assert "compare-match-the-dealer-8deck-500-cents.csv" in got.headers["content-disposition"]
    reader = csv.DictReader(io.StringIO(got.text))
    assert tuple(reader.fieldnames or ()) == SUMMARY_COLUMNS
    rows = list(reader)
    assert [r["paytable"] for r in rows] == [str(k) for k in range(1, 11)]  # § 633b.3, 8 decks
    assert all(r["wager_amount"] == "$5" and r["breakeven"].endswith(" on $5") for r in rows)


def test_a_bad_stake_is_one_line(client: TestClient) -> None:
    page = client.get("/compare", params={"wager": "jackpot-party", "stake": "lots"})
    assert page.status_code == 422
    assert "the stake field must be an amount in dollars" in page.text
    got = client.get("/compare.csv", params={"wager": "jackpot-party", "stake": "lots"})
    assert got.status_code == 422
    assert got.json()["error_type"] == "InputError"
    assert "Traceback" not in got.text

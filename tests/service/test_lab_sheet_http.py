"""The lab-grade par sheet (issue 30) over HTTP and on the page: ``GET /parsheets/{wager}``
answers the volatility index, the return bands, "1 in N" and the maximum win as ``croupier
analyze --json`` does, held to its model; the explorer (``GET /``) shows them. In-process (the
routes on a bare application); tests/service/web/test_web.py opens the page in Chromium.

Perfect Pairs A at 8 decks by hand (§ 633b.1(f), 25, 12, 6 to 1): 1,456 perfect, 1,664 coloured,
3,328 mixed pairs of C(416, 2) = 86,320 deals; z = 1.959964 at 95 % (any normal table).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cli_support import run_main
from croupier.operations.schemas.analysis import ParSheet
from croupier.service.problems import install
from croupier.service.routes import reading
from croupier.service.web import mount
from model_support import held

COUNTS = {1_456: 25, 1_664: 12, 3_328: 6, 79_872: -1}
TOTAL = 86_320
MEAN = Fraction(sum(n * x for n, x in COUNTS.items()), TOTAL)
SD = math.sqrt(Fraction(sum(n * x * x for n, x in COUNTS.items()), TOTAL) - MEAN**2)
Z95 = 1.959964


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    install(app)
    app.include_router(reading.router)
    mount(app)
    return TestClient(app)


def test_the_http_answer_carries_the_lab_figures(client: TestClient) -> None:
    r = client.get("/parsheets/perfect-pairs", params={"paytable": "A", "decks": 8})
    assert r.status_code == 200, r.text
    doc = r.json()
    held(ParSheet, doc)
    assert doc == json.loads(
        run_main(["analyze", "perfect-pairs", "-p", "A", "-d", "8", "--json"]).out
    )
    assert Fraction(doc["outcomes"][0]["one_in_exact"]) == Fraction(TOTAL, 1_456)
    assert doc["volatility_index"]["95"] == pytest.approx(Z95 * SD, abs=1e-5)
    (band,) = [b for b in doc["return_bands"] if (b["rounds"], b["confidence"]) == (10_000, 95)]
    assert band["high"] == pytest.approx(1 + float(MEAN) + Z95 * SD / 100, abs=1e-6)
    assert doc["max_win"]["net_win"] == 25


def test_a_progressive_answer_gives_its_max_win_in_money_and_its_rates(client: TestClient) -> None:
    r = client.get("/parsheets/jackpot-party", params={"paytable": "P1", "decks": 6})
    assert r.status_code == 200, r.text
    doc = r.json()
    held(ParSheet, doc)
    # § 633b.2(i) P1: the whole $50,000 meter for a $5 stake, collected; 16% and 3.75%
    assert (doc["max_win"]["net_win"], doc["max_win"]["amount_cents"]) == (9_999, 4_999_500)
    assert doc["increment_rates"]["Progressive"] == {
        "increment_rate": 0.16,
        "secondary_increment_rate": 0.0375,
    }
    assert doc["meter_analysis"]["wager_amount"] == "$5"


def test_the_explorer_shows_the_lab_figures(client: TestClient) -> None:
    page = client.get("/", params={"wager": "perfect-pairs", "paytable": "A", "decks": "8"}).text
    assert f'id="vi-95">{Z95 * SD:.4f}<' in page
    assert ">59.29<" in page  # 86,320 / 1,456
    assert "Volatility index VI = z·SD per unit wagered" in page
    assert "normal approximation" in page
    low = 1 + float(MEAN) - Z95 * SD / 100
    high = 1 + float(MEAN) + Z95 * SD / 100
    assert f"{low:.2%} – {high:.2%}" in page
    assert 'id="chart-bands"' in page
    data = json.loads(page.split('id="chart-data">')[1].split("</script>")[0])
    assert data["bands"]["rounds"] == [10**k for k in range(2, 9)]
    assert [lv["label"] for lv in data["bands"]["levels"]] == ["90%", "95%", "99%"]
    jp = client.get("/", params={"wager": "jackpot-party", "paytable": "P1", "decks": "6"}).text
    assert "9,999× the wager = $49,995 on a $5 wager" in jp
    assert "Progressive 16% to the meter, 3.75% to the reserve" in jp
    assert "$583,449.50 on a $5 wager" in jp

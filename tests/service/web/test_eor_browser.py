"""The count-analysis page in a real browser (issue 18): Playwright driving Debian's Chromium
against a real ``croupier serve`` on a free loopback port (a temporary SQLite ledger). The page
is opened from the navigation, a wager chosen with the pickers, and the count-vulnerability
table, its figures and the chart are found; the JSON download is the service's
``GET /eor/{wager}``. Skipped, with the reason, where Chromium or ``playwright`` is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from progressive_support import new_db_url
from service_support import Server, make_ledger

CHROMIUM = Path(os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium"))
if not CHROMIUM.exists():
    pytest.skip(
        f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("eor-web")
    url = next(new_db_url("sqlite", tmp))
    make_ledger(url)
    srv = Server(url, tmp / "server.log").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def page(server: Server) -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            p = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            p.on("pageerror", lambda e: errors.append(str(e)))
            yield p
            assert not errors, errors  # no script error
        finally:
            browser.close()


def test_the_page_shows_the_count_vulnerability_table(
    server: Server, page: Any, tmp_path: Path
) -> None:
    expect = sync_api.expect
    page.goto(server.base + "/")
    page.get_by_role("link", name="Count analysis").click()
    expect(page.locator("h1")).to_have_text("Count analysis")
    page.get_by_label("Wager", exact=True).select_option("jackpot-party")
    page.get_by_label("Paytable", exact=True).select_option("P1")
    page.get_by_label("Decks", exact=True).select_option("6")
    page.get_by_label("Shoes to simulate", exact=True).fill("300")
    page.get_by_role("button", name="Show the count analysis").click()
    expect(page.locator("#eor-title")).to_contain_text("6-deck shoe")
    rows = page.locator("#eor-table tbody tr")
    expect(rows).to_have_count(13)
    href = page.locator("#dl-json").get_attribute("href")
    doc = httpx.get(server.base + href, timeout=120).json()
    assert doc["wager"] == "jackpot-party" and doc["decks"] == 6
    first = doc["effects"][0]
    expect(rows.nth(0)).to_contain_text(f"{first['effect'] * 100:+.5f}%")
    count = doc["count"]
    expect(page.locator("#break-even")).to_have_text(f"{count['threshold_true_count']:+.2f}")
    expect(rows.nth(0).locator("td").last).to_have_text(
        f"{first['tag']:+d}" if first["tag"] else "0"
    )
    expect(page.locator("#verdict")).to_have_text(doc["vulnerability"]["verdict"])
    expect(page.locator("#counter-text")).to_contain_text("300 shuffled 6-deck shoes")
    assert page.locator("#chart-eor").bounding_box()["height"] > 100  # Chart.js drew it
    page.screenshot(path=str(tmp_path / "eor.png"), full_page=True)

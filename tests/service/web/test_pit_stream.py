"""The pit's and the dealer's screens on the live event stream, in Chromium (Playwright against
a real ``croupier serve``, as tests/service/web/test_web.py): a pending award shows on the pit
within a second of the round that made it and leaves it once paid, with no reload and no
polling; the meter history is drawn; a dealer's pit has no console error and asks for no
section it may not read; the dealer's screen follows its table's awards."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from progressive_support import secret
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    Server,
    keyed,
    link,
    pending_award,
    pp_round,
    royal_round,
    serving,
)

CHROMIUM = Path(os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium"))
if not CHROMIUM.exists():
    pytest.skip(
        f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

pytestmark = pytest.mark.browser

TABLE = "LIVE-1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("pit-stream")) as srv:
        with srv.client() as c:
            link(c, srv, TABLE)
            r = c.post(
                "/tables",
                json={"table": TABLE, "submission": pp_round("x")["submission"]},
                headers=keyed(srv.auth(PIT)),
            )
            assert r.status_code == 201, r.text
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield b
        finally:
            b.close()


class Watched:
    """A page with its script errors, console errors and requested paths recorded."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.console: list[str] = []
        self.requests: list[str] = []
        self.failed: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: self.requests.append(r.url))
        page.on(
            "response",
            lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        yield Watched(ctx.new_page())
    finally:
        ctx.close()


def login(page: Any, user: str) -> None:
    form = page.locator("#login")
    form.get_by_label("Name", exact=True).fill(user)
    form.get_by_label("Password", exact=True).fill(secret(user))
    form.get_by_role("button", name="Log in").click()
    sync_api.expect(page.locator("#whoami")).to_contain_text(f"Logged in as {user}")
    sync_api.expect(page.locator("#live")).to_have_text("live")


def test_the_pit_shows_a_pending_award_within_a_second_of_its_round(
    server: Server, watched: Watched
) -> None:
    page = watched.page
    page.goto(server.base + "/pit")
    login(page, FLOOR)
    sync_api.expect(page.locator("#meters tbody tr[data-progressive=jp-5]")).to_have_count(1)
    with server.client() as c:
        award = pending_award(server, c)  # the round settled: its answer is back
        made = time.monotonic()
        row = page.locator(f"#pending tbody tr[data-award='{award['award']}']")
        row.wait_for(timeout=1000)
        shown = time.monotonic() - made
        # the row's header cell is the award's number (a share: it has one), then its id
        assert award["number"] is not None
        assert row.locator("th").text_content() == str(award["number"])
        assert row.locator("td").nth(0).text_content() == str(award["award"])
        assert row.locator("td").nth(5).text_content() == award["amount"]
        paid = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert paid.status_code == 200, paid.text
        sync_api.expect(row).to_have_count(0, timeout=1000)
    print(f"\npending award shown {shown * 1000:.0f} ms after its round was settled")
    assert shown < 1.0
    # the meter history: jp-5's level, after each of its events (the award reset it)
    drawn = page.evaluate(
        "() => { const c = Chart.getChart(document.getElementById('chart-meter-history'));"
        " return c ? c.data.datasets.map((d) => d.data.length) : null; }"
    )
    assert drawn and all(n > 1 for n in drawn), drawn
    assert not any("/pit" in u and "refresh" in u for u in watched.requests)
    assert not watched.errors and not watched.console, (
        watched.errors,
        watched.console,
        watched.failed,
    )


def test_a_dealer_sees_no_hold_report_no_console_error_and_asks_for_none(
    server: Server, watched: Watched
) -> None:
    page = watched.page
    page.goto(server.base + "/pit")
    login(page, DEALER)
    sync_api.expect(page.locator("#meters tbody tr[data-progressive=jp-5]")).to_have_count(1)
    sync_api.expect(page.locator("#history tbody tr").first).to_be_visible()
    sync_api.expect(page.locator("#hold-section")).to_be_hidden()
    sync_api.expect(page.locator("#meter-history-section")).to_be_visible()
    page.wait_for_timeout(1500)  # what a page would ask for after loading, it has asked
    asked = [u.removeprefix(server.base) for u in watched.requests if u.startswith(server.base)]
    assert not [u for u in asked if u.startswith(("/hold-report", "/significant-events"))], asked
    assert "/events" in asked
    assert not watched.errors and not watched.console, (
        watched.errors,
        watched.console,
        watched.failed,
    )


def test_a_pit_manager_sees_the_hold_report(server: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(server.base + "/pit")
    login(page, PIT)
    sync_api.expect(page.locator("#hold-section")).to_be_visible()
    sync_api.expect(page.locator("#hold tbody tr").first).to_be_visible()
    assert not watched.errors and not watched.console, (
        watched.errors,
        watched.console,
        watched.failed,
    )


def test_the_dealer_screen_follows_its_tables_awards(server: Server, watched: Watched) -> None:
    page = watched.page
    page.goto(server.base + "/dealer")
    login(page, DEALER)
    page.locator("#table").select_option(TABLE)
    page.get_by_role("button", name="Open the round").click()
    sync_api.expect(page.locator("#round-table")).to_have_text(TABLE)
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": TABLE, "progressive": "jp-5"},
            json=royal_round(f"live-{time.monotonic_ns()}"),
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 201, r.text
        (fed,) = r.json()["progressives"]
        (award,) = [a for a in fed["awards"] if a["status"] == "pending"]
        item = page.locator(f"#table-awards li[data-award='{award['award']}']")
        sync_api.expect(item).to_contain_text("pending", timeout=2000)
        paid = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert paid.status_code == 200, paid.text
    sync_api.expect(item).to_contain_text(f"paid by {FLOOR}", timeout=2000)
    assert not watched.errors and not watched.console, (
        watched.errors,
        watched.console,
        watched.failed,
    )

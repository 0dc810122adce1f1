"""The listings and reports refuse filters that match nothing by construction (the trial:
``/rounds/summary?wager=nope`` and a period ending before it starts answered 200 with nothing,
while ``/reconciliation`` refused a reversed period): a wager no round can hold, with the nearest
one, and a period that ends before or when it starts are 422 problems on every route that takes
them; an unknown progressive is a 404."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service_support import PIT, SHIFT, Server, serving

ROUTES = ("/rounds", "/rounds/summary", "/hold-report")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-filters")) as srv:
        yield srv


@pytest.mark.parametrize("route", ROUTES)
def test_an_unknown_wager_is_refused_with_the_nearest(server: Server, route: str) -> None:
    with server.client(headers=server.auth(PIT)) as c:
        r = c.get(route, params={"wager": "perfect-pair"})
        assert r.status_code == 422, r.text
        assert r.json()["detail"] == (
            "?wager= 'perfect-pair' is not a wager croupier records; did you mean 'perfect-pairs'?"
        )
        nope = c.get(route, params={"wager": "nope"})
        assert nope.status_code == 422, nope.text
        assert nope.json()["detail"].startswith("?wager= 'nope' is not a wager croupier records")
        assert "perfect-pairs" in nope.json()["detail"]  # the wagers it may be
        for known in ("Perfect-Pairs", "blackjack", "banker", "switch-hands-ante"):
            assert c.get(route, params={"wager": known}).status_code == 200, known


@pytest.mark.parametrize("route", ROUTES)
def test_a_period_that_ends_before_it_starts_is_refused(server: Server, route: str) -> None:
    with server.client(headers=server.auth(PIT)) as c:
        for since, until in (("2030-01-01", "2020-01-01"), ("2026-12-01", "2026-12-01")):
            r = c.get(route, params={"since": since, "until": until})
            assert r.status_code == 422, r.text
            assert r.json()["detail"] == (
                f"the period of the rounds ends ({until}T00:00:00+00:00) before or when it "
                f"starts ({since}T00:00:00+00:00): give ?since= before ?until="
            )
        ok = c.get(route, params={"since": "2020-01-01", "until": "2030-01-01"})
        assert ok.status_code == 200, ok.text


def test_the_reconciliation_and_awards_refuse_the_same(server: Server) -> None:
    with server.client(headers=server.auth(PIT)) as c:
        r = c.get("/reconciliation", params={"from": "2030-01-01", "to": "2020-01-01"})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].endswith("give ?from= before ?to=")
        for path, params in (
            ("/awards", {"progressive": "nope"}),
            ("/reconciliation", {"name": "nope"}),
            ("/significant-events", {"progressive": "nope"}),
            ("/progressives/nope/history", {}),
        ):
            # the significant events are a shift manager's to read (a pit manager: 403)
            who = server.auth(SHIFT) if path == "/significant-events" else {}
            r = c.get(path, params=params, headers=who)
            assert r.status_code == 404, (path, r.text)

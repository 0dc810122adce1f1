"""The live event stream over HTTP (``GET /events``, ``GET /events/display``) against a real
``croupier serve``: an award's events in ledger order with their sequences as ids, a
resumption with ``Last-Event-ID`` that misses nothing, what each role is sent, the display
feed's meters, and a stream ended cleanly when the service stops.

The meters the stream starts with are the sums of the log's deltas
(:func:`croupier.progressive.feed.levels_at`); they are held here to the level rows the
ledger keeps beside the log (``GET /progressives``), a second record of the same figures."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.progressive import Ledger
from service_support import DEALER, FLOOR, SHIFT, Server, keyed, pending_award, pp_round, serving

Event = tuple[int | None, str, dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("stream")) as srv:
        yield srv


def events(response: httpx.Response) -> Iterator[Event]:
    """The events of a ``text/event-stream`` answer as (id, name, data), comments skipped."""
    seq: int | None = None
    name, data = "message", ""
    for line in response.iter_lines():
        if line == "":
            if data:
                yield seq, name, json.loads(data)
            seq, name, data = None, "message", ""
        elif line.startswith(":") or line.startswith("retry:"):
            continue
        else:
            field, _, value = line.partition(": ")
            if field == "id":
                seq = int(value)
            elif field == "event":
                name = value
            elif field == "data":
                data += value


def until(stream: Iterator[Event], wanted: Any, seconds: float = 10) -> list[Event]:
    """The events read until one for which ``wanted(event)`` holds (that one included)."""
    got: list[Event] = []
    end = time.monotonic() + seconds
    for e in stream:
        got.append(e)
        if wanted(e):
            return got
        assert time.monotonic() < end, f"not within {seconds} s: {got}"
    raise AssertionError(f"the stream ended first: {got}")


def open_stream(c: httpx.Client, path: str, headers: dict[str, str] | None = None, **params: Any):  # type: ignore[no-untyped-def]
    return c.stream("GET", path, headers=headers or {}, params=params or None)


def named(award: int, name: str) -> Any:
    return lambda e: e[1] == name and e[2]["award"]["award"] == award


def test_an_award_is_pending_validated_then_paid_in_ledger_order(server: Server) -> None:
    with server.client() as c, open_stream(c, "/events", server.auth(FLOOR)) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        stream = events(r)
        seq, name, first = next(stream)
        assert name == "meters" and seq == first["seq"]
        stored = c.get("/progressives", headers=server.auth(FLOOR)).json()["progressives"]
        kept = {(p["name"], lv["level"]): lv["meter_micros"] for p in stored for lv in p["levels"]}
        assert {(m["progressive"], m["level"]): m["meter_micros"] for m in first["meters"]} == kept

        award = pending_award(server, c)
        made = until(stream, named(award["award"], "award-pending"))
        validated = c.post(f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR)))
        assert validated.status_code == 200, validated.text
        made += until(stream, named(award["award"], "award-paid"))
    ids = [e[0] for e in made]
    assert all(i is not None for i in ids) and ids == sorted(ids)  # type: ignore[type-var]
    assert all(e[0] == e[2]["seq"] for e in made)
    mine = [e for e in made if e[1].startswith("award-")]
    assert [e[1] for e in mine] == ["award-pending", "award-validated", "award-paid"]
    assert mine[0][2]["by"] == DEALER and mine[1][2]["by"] == FLOOR
    assert mine[-1][2]["award"]["status"] == "paid"
    assert mine[-1][2]["award"]["validated_by"] == FLOOR
    # the round's contributions moved jp-5's meter: one coalesced message before the award's
    assert any(e[1] == "meter" and e[2]["progressive"] == "jp-5" for e in made)


def test_a_client_resuming_with_last_event_id_misses_nothing(server: Server) -> None:
    with server.client() as c:
        with open_stream(c, "/events", server.auth(DEALER)) as r:
            stream = events(r)
            start, _, _ = next(stream)
            award = pending_award(server, c)
            seen = until(stream, named(award["award"], "award-pending"))
        # disconnected: the award is validated and paid meanwhile
        assert (
            c.post(
                f"/awards/{award['award']}/validate", headers=keyed(server.auth(FLOOR))
            ).status_code
            == 200
        )
        last = seen[-1][0]
        assert last is not None
        headers = {**server.auth(DEALER), "Last-Event-ID": str(last)}
        with open_stream(c, "/events", headers) as r:
            stream = events(r)
            seq, name, meters = next(stream)
            assert (seq, name, meters["seq"]) == (last, "meters", last)
            after = until(stream, named(award["award"], "award-paid"))
        # from the start's sequence again, by query (a first connection): the same events
        with open_stream(c, "/events", server.auth(DEALER), after=start) as r:
            stream = events(r)
            next(stream)
            again = until(stream, named(award["award"], "award-paid"))
    assert [e[1] for e in after if e[1].startswith("award")] == ["award-validated", "award-paid"]
    assert all(e[0] is not None and e[0] > last for e in after)
    replayed = [(e[0], e[1]) for e in again if e[1].startswith("award")]
    assert replayed == [(e[0], e[1]) for e in seen + after if e[1].startswith("award")]


def test_the_significant_events_reach_a_shift_manager_only(server: Server) -> None:
    with (
        server.client() as c,
        open_stream(c, "/events", server.auth(SHIFT)) as shift,
        open_stream(c, "/events", server.auth(DEALER)) as dealer,
    ):
        s, d = events(shift), events(dealer)
        next(s), next(d)
        refused = httpx.post(f"{server.base}/token", data={"username": FLOOR, "password": "wrong"})
        assert refused.status_code == 401
        award = pending_award(server, c)  # what both see after the failed login
        got_shift = until(s, named(award["award"], "award-pending"))
        got_dealer = until(d, named(award["award"], "award-pending"))
    assert "significant" in [e[1] for e in got_shift]
    failed = [e[2] for e in got_shift if e[1] == "significant"]
    assert any(FLOOR in json.dumps(x) for x in failed)
    assert "significant" not in [e[1] for e in got_dealer]


def test_the_display_feed_sends_meters_only_without_a_token(server: Server) -> None:
    with server.client() as c, open_stream(c, "/events/display") as r:
        assert r.status_code == 200
        stream = events(r)
        _, name, first = next(stream)
        assert name == "meters"
        jp = {m["level"]: m for m in first["meters"] if m["progressive"] == "jp-5"}
        settled = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=pp_round(f"display-{time.monotonic_ns()}", jp=True, cards="8s 9h"),
            headers=keyed(server.auth(DEALER)),
        )
        assert settled.status_code == 201, settled.text
        got = until(stream, lambda e: e[1] == "meter" and e[2]["progressive"] == "jp-5")
    assert {e[1] for e in got} == {"meter"}
    moved = got[-1][2]
    # one $5 Jackpot Party wager: the level's primary rate of $5 (§ 633b.2(i)), as the stored
    # rows have it
    with server.client() as c:
        rows = c.get("/progressives/jp-5", headers=server.auth(DEALER)).json()["levels"]
    level = next(lv for lv in rows if lv["level"] == moved["level"])
    assert moved["meter_micros"] == level["meter_micros"] > jp[moved["level"]]["meter_micros"]
    assert set(moved) == {"progressive", "level", "meter", "meter_micros", "available",
                          "available_micros", "seq"}  # fmt: skip


def test_the_stream_refuses_no_token_and_a_bad_last_event_id(server: Server) -> None:
    with server.client() as c:
        assert c.get("/events").status_code == 401
        r = c.get("/events", headers={**server.auth(DEALER), "Last-Event-ID": "x1"})
        assert r.status_code == 422 and "Last-Event-ID" in r.json()["detail"]


def test_a_stream_ends_cleanly_when_the_service_stops(tmp_path: Path) -> None:
    with serving("sqlite", tmp_path) as srv:
        with srv.client() as c, open_stream(c, "/events/display") as r:
            stream = events(r)
            next(stream)
            proc = srv.proc
            assert proc is not None
            began = time.monotonic()
            proc.terminate()
            rest = list(stream)  # the server ends it: no read times out
            # uvicorn raises the signal it stopped for again once it has shut down
            assert proc.wait(15) in (0, -signal.SIGTERM)
            took = time.monotonic() - began
        with Ledger(srv.url) as ledger:  # the lifespan's end ran: the ledger closed as usual
            codes = [e.event.detail.get("code") for e in ledger.history(significant=True)]
    assert [e[1] for e in rest] == ["end"] and "stopping" in rest[0][2]["reason"]
    assert took < 5, f"the service took {took:.1f} s to stop"
    assert codes[-1] == "shutdown", codes

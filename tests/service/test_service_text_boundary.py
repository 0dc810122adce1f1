"""Every string a client sends is Unicode text (issue 27): a lone surrogate escape
(``"\\ud800"``, valid JSON that no UTF-8 text can hold) in any string of any request body — a
value, a key, an item of a list, deep or at the top — is a 422 ``UnicodeTextError`` naming the
string's JSON pointer, on SQLite and PostgreSQL alike; nothing is written (the ledger verifies,
no table gains a row), and the client's next request on the same keep-alive connection is
answered. Before, ``POST /rounds/settle``, ``/tables``, ``/progressives`` and
``/progressives/{name}/adjust`` answered 500, told the client to retry under the same
Idempotency-Key, and the server reset the connection.

The pointers expected are written by hand from each body (RFC 6901), not read from the service.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from cli_support import assert_one_error_line, run_main
from croupier.errors import InputFileError, UnicodeTextError
from croupier.inputs import parse_json, parse_toml
from croupier.progressive import Ledger
from progressive_support import FLOOR, mtd_ledger, secret
from service_support import (
    DEALER,
    PIT,
    PLAIN_SUBMISSION,
    SHIFT,
    Server,
    keyed,
    pp_round,
    serving,
)

LONE = "\ud800"
"""A high surrogate without its low half (what ``"\\ud800"`` in JSON reads as)."""


def _with(body: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """``body`` (a deep copy) with the item at ``path`` set to ``value``."""
    out = copy.deepcopy(body)
    target = out
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return out


ROUND = pp_round("text-r1")
ADJUST = {"level": "Progressive", "meter": "1", "reason": "meter test"}
NEW_PROGRESSIVE = {
    "paytable": "match-the-dealer:1",
    "decks": 6,
    "amount": "$5",
    "name": "mtd-text",
    "tables": ["BJ-1"],
}

CASES: list[tuple[str, str, str, Any, str]] = [
    # (who, method and path, what, body, the pointer of the bad string)
    (DEALER, "/rounds/settle?table=BJ-1", "a nested value",
     _with(ROUND, ("submission", "name"), "BJ" + LONE), "/submission/name"),
    (DEALER, "/rounds/settle?table=BJ-1", "the round id",
     _with(ROUND, ("id",), LONE), "/id"),
    (DEALER, "/rounds/settle?table=BJ-1", "a step's wager",
     _with(ROUND, ("steps", 1, "wager"), "perfect" + LONE), "/steps/1/wager"),
    (DEALER, "/rounds/settle?table=BJ-1", "a key (a seat)",
     _with(ROUND, ("steps", 3, "players"), {"3" + LONE: "8s 8s"}), "/steps/3/players"),
    (DEALER, "/rounds/settle?table=BJ-1", "a low surrogate alone",
     _with(ROUND, ("steps", 3, "dealer"), "Kd \udc009c"), "/steps/3/dealer"),
    (DEALER, "/tables", "the table",
     {"table": "T" + LONE, "submission": PLAIN_SUBMISSION}, "/table"),
    (DEALER, "/tables", "a Rules Submission's wager",
     {"table": "T-text", "submission": _with(PLAIN_SUBMISSION, ("wagers", 0, "wager"), LONE)},
     "/submission/wagers/0/wager"),
    (DEALER, "/tables/BJ-2/steps", "a step",
     {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25" + LONE}, "/amount"),
    (FLOOR, "/tables/BJ-2/void", "a reason", {"reason": LONE}, "/reason"),
    (SHIFT, "/progressives", "a name", _with(NEW_PROGRESSIVE, ("name",), LONE), "/name"),
    (SHIFT, "/progressives", "an item of a list",
     _with(NEW_PROGRESSIVE, ("tables",), ["BJ-1", "BJ" + LONE]), "/tables/1"),
    (SHIFT, "/progressives", "a limit's level (a key)",
     {**NEW_PROGRESSIVE, "limits": {LONE: "$50,000"}}, "/limits"),
    (PIT, "/progressives/jp-5/adjust", "a reason", _with(ADJUST, ("reason",), "x" + LONE),
     "/reason"),
    (PIT, "/progressives/jp-5/adjust", "an amount", _with(ADJUST, ("meter",), "1" + LONE),
     "/meter"),
    (PIT, "/progressives/jp-5/adjust", "the level", _with(ADJUST, ("level",), LONE), "/level"),
    (SHIFT, "/progressives/jp-5/links", "a table", {"table": LONE}, "/table"),
    (PIT, "/progressives/jp-5/suspend", "a reason", {"reason": LONE}, "/reason"),
    (PIT, "/progressives/jp-5/reconfigure", "a seed's level (a key)",
     {"approval": "CHG-1", "seeds": {"Progressive" + LONE: "$1"}}, "/seeds"),
    (FLOOR, "/awards/1/void", "a reason", {"reason": LONE}, "/reason"),
    (SHIFT, "/staff", "a name", {"name": LONE, "role": "dealer", "password": "a long pass"},
     "/name"),
    (SHIFT, "/staff/dana/role", "a role", {"role": "dealer" + LONE}, "/role"),
    (SHIFT, "/staff/dana/credential", "a credential", {"password": "pass" + LONE}, "/password"),
    (DEALER, "/simulations", "a wager", {"wager": LONE, "paytable": "A"}, "/wager"),
    (DEALER, "/rounds/settle?table=BJ-1", "the whole body", LONE, ""),
]  # fmt: skip

COUNTED = (
    "ledger_events",
    "progressives",
    "linked_tables",
    "staff",
    "awards",
    "service_rounds",
    "service_idempotency",
    "service_tables",
    "service_jobs",
)
"""The tables a refused request must leave as they were."""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"text-{request.param}")) as srv:
        yield srv


def counts(url: str) -> dict[str, int]:
    """How many rows each of :data:`COUNTED` holds."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return {
                t: int(conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one())
                for t in COUNTED
            }
    finally:
        engine.dispose()


def local_port(r: httpx.Response) -> int:
    """The client's own port of the connection ``r`` came on."""
    stream = r.extensions["network_stream"]
    port: int = stream.get_extra_info("client_addr")[1]
    return port


def same_connection_answers(c: httpx.Client, before: httpx.Response) -> None:
    """The next request on ``before``'s connection is answered on that connection."""
    after = c.get("/health")
    assert after.status_code == 200, after.text
    assert local_port(after) == local_port(before)


def _raw(body: Any) -> bytes:
    """``body`` as JSON text, a lone surrogate written as its escape (``\\ud800``), as a client's
    JSON library writes it (``ensure_ascii``)."""
    return json.dumps(body).encode()


def test_a_lone_surrogate_in_any_string_of_any_body_is_a_422_naming_it(server: Server) -> None:
    before = counts(server.url)
    with server.client() as c:
        for who, where, what, body, pointer in CASES:
            headers = {**keyed(server.auth(who)), "Content-Type": "application/json"}
            r = c.post(where, content=_raw(body), headers=headers)
            assert r.status_code == 422, (where, what, r.text)
            problem = r.json()
            assert problem["error_type"] == "UnicodeTextError", (where, what, problem)
            assert problem["pointer"] == pointer, (where, what, problem)
            assert "retry" not in problem["detail"].lower()
            same_connection_answers(c, r)
    assert counts(server.url) == before
    with Ledger(server.url) as ledger:
        ledger.audit()  # the chain and every derived table as the log says


def test_a_body_without_a_content_type_is_held_to_the_same_rule(server: Server) -> None:
    """A route reads a body sent without ``Content-Type`` as JSON too (FastAPI): it was read
    past every limit croupier holds JSON to."""
    before = counts(server.url)
    with server.client() as c:
        r = c.post(
            "/progressives/jp-5/adjust",
            content=_raw(_with(ADJUST, ("reason",), LONE)),
            headers=keyed(server.auth(PIT)),
        )
        assert "content-type" not in r.request.headers
        assert r.status_code == 422, r.text
        assert (r.json()["error_type"], r.json()["pointer"]) == ("UnicodeTextError", "/reason")
        same_connection_answers(c, r)
        # a body without a type that is JSON with a key named twice: refused as any JSON body is
        twice = b'{"level": "Progressive", "meter": "1", "reason": "a", "reason": "b"}'
        r = c.post("/progressives/jp-5/adjust", content=twice, headers=keyed(server.auth(PIT)))
        assert r.status_code == 422 and "appears twice" in r.json()["detail"], r.text
    assert counts(server.url) == before


def test_a_surrogate_pair_is_text(server: Server) -> None:
    """An astral character escaped as its pair (``"\\ud83c\\udccf"``, 🃏) is one character."""
    with server.client() as c:
        body = _with(ADJUST, ("reason",), "joker 🃏")
        raw = _raw(body)
        assert b"\\ud83c\\udccf" in raw
        r = c.post(
            "/progressives/jp-5/adjust",
            content=raw,
            headers={**keyed(server.auth(PIT)), "Content-Type": "application/json"},
        )
        assert r.status_code == 200, r.text
        assert r.json()["reason"] == "joker 🃏"


def test_bytes_that_are_not_utf8_in_a_path_query_or_form_are_a_422_naming_where(
    server: Server,
) -> None:
    """Outside a JSON body a client's text is percent-escaped bytes: bytes that are not UTF-8
    (the UTF-8 form of a surrogate, ``%ED%A0%80``) were replaced with U+FFFD by the server's
    decoder, and ``"���"`` was stored as a round's table. They are refused, naming the
    parameter, before any route reads them."""
    before = counts(server.url)
    with server.client() as c:
        answers = [
            (c.get("/progressives/%ED%A0%80"), "path"),
            (
                c.post(
                    "/rounds/settle?table=%ED%A0%80",
                    json=pp_round("text-q1"),
                    headers=keyed(server.auth(DEALER)),
                ),
                "query.table",
            ),
            (c.get("/rounds?table=BJ-1&wager=%ED%A0%80"), "query.wager"),
            (
                c.post(
                    "/token",
                    content=b"username=%ED%A0%80&password=" + secret(SHIFT).encode(),
                    headers={"Content-Type": "application/x-www-form-urlencoded"},
                ),
                "body.username",
            ),
        ]
        for r, where in answers:
            assert r.status_code == 422, (r.request.url, r.status_code, r.text)
            assert r.json()["errors"][0]["where"] == where, r.text
            assert "not UTF-8 text" in r.json()["detail"]
            same_connection_answers(c, r)
        # a header the route reads as ASCII refuses any other byte itself
        r = c.post(
            "/progressives/jp-5/adjust",
            json=ADJUST,
            headers=[
                *((k.encode(), v.encode()) for k, v in server.auth(PIT).items()),
                (b"Idempotency-Key", b"k-\xed\xa0\x80"),
            ],
        )
        assert (r.status_code, r.json()["error_type"]) == (400, "IdempotencyKeyError"), r.text
        same_connection_answers(c, r)
        # text that is UTF-8, percent-escaped, is read as sent
        r = c.get("/rounds?table=%E2%99%A0", headers=server.auth(SHIFT))
        assert r.status_code == 200, r.text
    assert counts(server.url) == before


SECRET = "sam-secret-123"
"""A password a client sends with a bad character: no answer or log line may quote it."""


def _quotes_secret(text: str) -> bool:
    return SECRET in text or "secret-123" in text


def test_no_refusal_of_a_secret_field_echoes_the_secret(server: Server) -> None:
    """A password with a lone surrogate or bytes that are not UTF-8 — sent as JSON or as a form
    to ``POST /token``, to ``POST /staff`` or to a credential change — is refused as any other
    string is (a 422 naming the field), and neither the problem nor the server's log quotes
    the value: the message names the escape and where it is in the string instead. Pydantic's
    own refusals of those fields (too long, not a string) do not echo it either."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    json_type = {"Content-Type": "application/json"}
    shift = {**keyed(server.auth(SHIFT)), **json_type}
    bad = SECRET + LONE
    with server.client() as c:
        answers = [
            c.post("/token", content=_raw({"username": "sam", "password": bad}), headers=json_type),
            c.post(
                "/token",
                content=b"username=sam&password=" + SECRET.encode() + b"%ED%A0%80",
                headers=form,
            ),
            c.post("/staff", content=_raw({"name": "sam", "role": "dealer", "password": bad}),
                   headers=shift),
            c.post("/staff/dana/credential", content=_raw({"password": bad}), headers=shift),
            c.post("/staff", json={"name": "sam", "role": "dealer", "password": SECRET * 100},
                   headers=keyed(server.auth(SHIFT))),
            c.post("/staff", json={"name": "sam", "role": "dealer", "password": SECRET,
                                   "extra": SECRET}, headers=keyed(server.auth(SHIFT))),
            c.post("/staff", json={"name": "sam", "role": "cheat", "password": SECRET},
                   headers=keyed(server.auth(SHIFT))),
        ]  # fmt: skip
        for r in answers:
            assert r.status_code == 422, (r.request.url, r.text)
            assert not _quotes_secret(r.text), r.text
        assert answers[0].json()["pointer"] == "/password"
        assert "\\ud800 at character 15 of 15" in answers[0].json()["detail"]
        assert answers[1].json()["errors"][0]["where"] == "body.password"
        assert answers[2].json()["pointer"] == "/password"
        assert answers[3].json()["pointer"] == "/password"
    assert not _quotes_secret(server.log.read_text("utf-8", "replace"))


# -- the same rule where croupier reads JSON files -----------------------------------------------


def test_parse_json_refuses_a_lone_surrogate_naming_its_pointer() -> None:
    with pytest.raises(UnicodeTextError) as caught:
        parse_json('{"steps": [{"seat": 3}, {"wager": "a/\\udfff"}]}', "round.json")
    assert caught.value.pointer == "/steps/1/wager"
    assert isinstance(caught.value, InputFileError)  # a file's error, as every other refusal
    assert str(caught.value).startswith("round.json: the string at /steps/1/wager holds")
    # a key's pointer escapes "/" and "~" (RFC 6901 § 3)
    with pytest.raises(UnicodeTextError) as caught:
        parse_json('{"a/b~": {"\\ud800": 1}}', "x.json")
    assert caught.value.pointer == "/a~1b~0" and caught.value.key
    # text that only looks like an escape is text: an escaped backslash, then "ud800"
    assert parse_json('"\\\\ud800"', "x.json") == "\\ud800"


def test_toml_refuses_a_surrogate_escape_itself() -> None:
    with pytest.raises(InputFileError, match="not valid TOML"):
        parse_toml('name = "\\ud800"', "rules.toml")


def test_the_cli_refuses_a_round_file_with_a_lone_surrogate_in_one_line(tmp_path: Path) -> None:
    f = tmp_path / "round.json"
    f.write_text(json.dumps(_with(ROUND, ("steps", 0, "wager"), "black" + LONE)), "utf-8")
    assert "\\ud800" in f.read_text("utf-8")
    line = assert_one_error_line(run_main(["settle", str(f)]))
    assert "the string at /steps/0/wager holds a lone surrogate" in line


@pytest.mark.parametrize(
    ("reason", "bad"),
    [("x\udced\udca0\udc80", "the byte 0xED"), ("x\ud800", "U+D800")],
    ids=["bytes-of-a-surrogate", "lone-surrogate"],
)
def test_the_cli_refuses_free_text_that_is_not_unicode_nothing_written(
    reason: str, bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command line's byte that is not UTF-8 reaches Python as a lone surrogate (\\udced
    for 0xED, surrogateescape): a reason typed so was refused by the ledger as "the adjustment
    event: the string at /detail/reason …", a field the user never typed. It is refused at the
    command line, naming the option the user gave (or the argument), saying it is not UTF-8;
    nothing is written."""
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    mtd_ledger(db).close()
    before = counts_of_ledger(db)
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(PIT))
    adjust = ["meters", "adjust", "mtd-5", "--level", "Progressive", "--meter", "1"]
    tail = ["--as", PIT, "--db", db]
    for argv, what in [
        ([*adjust, "--reason", reason, *tail], "--reason"),
        ([*adjust, f"--reason={reason}", *tail], "--reason"),
        ([*adjust, "--reason", "ok", "--as", PIT + reason, "--db", db], "--as"),
        (["meters", "adjust", "mtd" + reason, "--reason", "ok", *tail[:2],
          "--db", db], "argument 3 of the command line"),
        (["meters", "suspend", "mtd-5", "--reason", reason, *tail], "--reason"),
    ]:  # fmt: skip
        line = assert_one_error_line(run_main(argv))
        assert line.startswith(f"error: {what}: not valid UTF-8 text ({bad} at character"), line
        assert "lone surrogate" not in line and "/detail" not in line
    assert counts_of_ledger(db) == before
    with Ledger(db) as ledger:
        ledger.audit()


def test_a_file_named_in_bytes_that_are_not_utf8_is_still_read(tmp_path: Path) -> None:
    """A file's name is bytes: the command line's text rule leaves an existing path alone."""
    name = tmp_path / "round-\udcff.json"
    name.write_text(json.dumps(ROUND), "utf-8")
    result = run_main(["settle", str(name), "--json"])
    assert "not valid UTF-8" not in result.err, result.err


def counts_of_ledger(url: str) -> int:
    """How many events the ledger at ``url`` holds."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM ledger_events")).scalar_one())
    finally:
        engine.dispose()

"""One money maximum for every amount croupier takes, derived from what its columns hold
(issue 27): amounts up to $9,999,999,999,999.99 were accepted while meters are micro-dollars in
signed 64-bit columns, so ``croupier meters adjust … --meter 9999999999999.99`` was a traceback,
a 500 over HTTP on SQLite and a 503 (inviting retries) on PostgreSQL.

The limit is worked here by hand from the columns: a meter at the largest amount, in
micro-dollars, must have room for at least a thousand more of it within 2**63 − 1. The largest
amount is accepted and a cent more refused — before anything is written, in one error line (CLI)
or a 422 naming the limit (HTTP) — and a meter near its column fed a round's increments is a
typed :class:`~croupier.errors.MeterLimitError`, nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import croupier.progressive.schema as ledger_schema
import croupier.service.store as service_store
from cli_support import assert_one_error_line, run_main
from croupier.errors import (
    AmountLimitError,
    InputError,
    MeterLimitError,
    PaytableError,
    SubmissionError,
    limit_of,
)
from croupier.paytables import MeterLevel
from croupier.paytables.loader import parse_section_text
from croupier.progressive import Ledger
from croupier.progressive.meters import Delta, LevelState
from croupier.table.record import settle_record
from croupier.table.submission import submission_from_data
from croupier.units import MAX_CENTS, check_cents, parse_amount, parse_money
from progressive_support import DEALER, PIT, SHIFT, mtd_ledger, new_db_url, play, secret
from service_support import (
    PLAIN_SUBMISSION,
    Server,
    keyed,
    round_file,
    serving,
)

COLUMN = 9_223_372_036_854_775_807
"""A signed 64-bit integer's largest value: SQLite's INTEGER, PostgreSQL's BIGINT."""

LARGEST = 99_999_999_999
"""$999,999,999.99 in cents: the largest all-nines amount a meter can hold in micro-dollars
(10,000 a cent) with room for 1,000 more of it: 1,001 × 99,999,999,999 × 10,000 ≈ 1.0 × 10**18
fits in 2**63 − 1 ≈ 9.2 × 10**18, and 1,001 × 999,999,999,999 × 10,000 ≈ 1.0 × 10**19 does not."""

TOP = "$999,999,999.99"
OVER = "$1,000,000,000.00"  # a cent more


def test_the_largest_amount_is_derived_from_the_columns() -> None:
    assert MAX_CENTS == LARGEST
    assert 1_001 * LARGEST * 10_000 <= COLUMN < 1_001 * (10 * LARGEST + 9) * 10_000
    assert COLUMN // (LARGEST * 10_000) == 9_223  # the room a meter at the largest has: 9,222 more
    # every money column is a signed 64-bit integer: the derivation holds for each of them
    money = [
        c
        for meta in (ledger_schema.metadata, service_store.metadata)
        for table in meta.tables.values()
        for c in table.columns
        if c.name.endswith(("_cents", "_micros", "_delta")) and c.name != "hits_delta"
    ]
    assert len(money) >= 15
    for c in money:
        assert isinstance(c.type, sa.BigInteger), (c.table.name, c.name, c.type)


def test_the_largest_amount_is_taken_and_a_cent_more_refused_everywhere_it_is_parsed() -> None:
    assert parse_money(TOP) == parse_amount(TOP, "--amount") == LARGEST
    assert parse_amount("999999999.99", "--meter") == LARGEST
    check_cents(LARGEST)
    for text in (OVER, "1000000000", "9999999999999.99", "$9,999,999,999,999.99"):
        with pytest.raises(
            AmountLimitError, match=r"at most 9 digits of dollars \(\$999,999,999\.99\)"
        ):
            parse_amount(text, "--meter")
    with pytest.raises(AmountLimitError) as caught:
        parse_money(OVER)
    assert caught.value.maximum == TOP
    assert isinstance(caught.value, PaytableError) and isinstance(caught.value, InputError)
    with pytest.raises(AmountLimitError, match=r"croupier's limit, \$999,999,999\.99"):
        check_cents(LARGEST + 1)


def test_a_progressive_over_the_limit_is_refused_before_it_is_made(tmp_path: Path) -> None:
    with mtd_ledger(f"sqlite:///{tmp_path / 'l.sqlite3'}") as ledger:
        defn = ledger.definition("mtd-5")
    (level,) = defn.levels
    capped = replace(defn, name="capped", levels=(replace(level, limit_cents=LARGEST),))
    assert capped.levels[0].limit_cents == LARGEST
    with pytest.raises(AmountLimitError, match="Progressive limit of \\$1,000,000,000 is over"):
        replace(defn, levels=(replace(level, limit_cents=LARGEST + 1),))
    with pytest.raises(AmountLimitError, match="seed"):
        replace(defn, levels=(replace(level, seed_cents=LARGEST + 1),))


# -- the CLI -------------------------------------------------------------------------------------


def _events(url: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM ledger_events")).scalar_one())
    finally:
        engine.dispose()


def test_the_cli_adjusts_by_the_largest_amount_and_refuses_a_cent_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    mtd_ledger(db).close()
    monkeypatch.setenv("CROUPIER_PASSWORD", secret(PIT))
    args = ["meters", "adjust", "mtd-5", "--level", "Progressive", "--reason", "test", "--as", PIT]
    for over in ("1000000000.00", "9999999999999.99", "-1000000000.00"):
        before = _events(db)
        line = assert_one_error_line(run_main([*args, "--meter", over, "--db", db]))
        assert "over croupier's limit" in line and "$999,999,999.99" in line, line
        assert f"--meter {over!r} is over" in line, line
        assert _events(db) == before
    # the seed of § 633b.3 paytable 1 at $5 is $5,000 (the regulation): an adjustment of
    # $999,994,999.99 brings the meter to the largest amount, a cent more would pass it
    ok = run_main([*args, "--meter", "999994999.99", "--db", db, "--json"])
    assert ok.code == 0, ok.err
    assert json.loads(ok.out)["meter_micros"] == LARGEST * 10_000
    before = _events(db)
    line = assert_one_error_line(run_main([*args, "--meter", "0.01", "--db", db]))
    assert "over croupier's limit ($999,999,999.99" in line and "605a.7(a)(6)" in line, line
    assert _events(db) == before
    with Ledger(db) as ledger:
        ledger.audit()


def _round_at(amount: str) -> dict[str, Any]:
    """A Blackjack bet of ``amount`` at a table whose limit is the largest amount."""
    sub = json.loads(json.dumps(PLAIN_SUBMISSION))
    sub["wagers"][0]["max"] = TOP
    return round_file(
        "big",
        [
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": amount},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Th 9c"}, "dealer": "Kd 7c"},
            {"action": "stand", "seat": 1},
            {"action": "settle"},
        ],
        sub,
    )


def test_a_round_file_takes_the_largest_bet_and_refuses_a_cent_more(tmp_path: Path) -> None:
    rnd = settle_record(_round_at(TOP))
    (line,) = rnd.settlement().lines
    assert (line.stake_cents, line.win_cents) == (LARGEST, LARGEST)  # 19 beats 17: even money
    f = tmp_path / "big.json"
    f.write_text(json.dumps(_round_at(OVER)), "utf-8")
    line_text = assert_one_error_line(run_main(["settle", str(f)]))
    assert "'$1,000,000,000.00' is over croupier's limit" in line_text, line_text
    f.write_text(json.dumps(_round_at(TOP)), "utf-8")
    assert run_main(["settle", str(f)]).code == 0


# -- over HTTP, on both databases ----------------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Server]:
    with serving(request.param, tmp_path_factory.mktemp(f"money-{request.param}")) as srv:
        yield srv


def test_http_takes_the_largest_amount_and_refuses_a_cent_more_naming_the_limit(
    server: Server,
) -> None:
    with server.client() as c:
        for meter in (OVER, "9999999999999.99", "-1000000000"):
            before = _events(server.url)
            r = c.post(
                "/progressives/jp-5/adjust",
                json={"level": "Progressive", "meter": meter, "reason": "test"},
                headers=keyed(server.auth(PIT)),
            )
            assert r.status_code == 422, (meter, r.text)
            problem = r.json()
            assert (problem["error_type"], problem["maximum"]) == ("AmountLimitError", TOP)
            assert "$999,999,999.99" in problem["detail"]
            assert f"{meter!r} is over" in problem["detail"]  # as written, its sign too
            assert _events(server.url) == before
        # an adjustment by the largest amount is an amount croupier takes, but it would leave
        # the meter (its seed and more) above the largest: refused, naming the limit
        r = c.post(
            "/progressives/jp-5/adjust",
            json={"level": "Progressive", "meter": TOP, "reason": "test"},
            headers=keyed(server.auth(PIT)),
        )
        assert r.status_code == 422, r.text
        assert (r.json()["error_type"], r.json()["maximum"]) == ("AmountLimitError", TOP)
        assert "605a.7(a)(6)" in r.json()["detail"] and "meter at $1,00" in r.json()["detail"]
        assert _events(server.url) == before
        settled = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            json=_round_at(TOP),
            headers=keyed(server.auth(DEALER)),
        )
        assert settled.status_code == 201, settled.text
        before = _events(server.url)
        refused = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=_round_at(OVER),
            headers=keyed(server.auth(DEALER)),
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["maximum"] == TOP
        # the table's maximum over the limit: the submission's refusal keeps the limit's member
        table_over = _round_at("$5")
        table_over["submission"]["wagers"][0]["max"] = OVER
        refused = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=table_over,
            headers=keyed(server.auth(DEALER)),
        )
        assert refused.status_code == 422, refused.text
        assert (refused.json()["error_type"], refused.json()["maximum"]) == (
            "SubmissionError",
            TOP,
        )
        new = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": "mtd-big"}
        for limit, status in ((OVER, 422), (TOP, 201)):
            r = c.post(
                "/progressives",
                json={**new, "limits": {"Progressive": limit}},
                headers=keyed(server.auth(SHIFT)),
            )
            assert r.status_code == status, r.text
            if status == 422:
                assert _events(server.url) == before
    with Ledger(server.url) as ledger:
        ledger.audit()


def test_the_openapi_document_gives_every_amount_the_limit(server: Server) -> None:
    with server.client() as c:
        spec = c.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    declared = [
        schemas["Adjustment"]["properties"]["meter"],
        schemas["Adjustment"]["properties"]["reserve"],
        schemas["NewProgressive"]["properties"]["amount"],
        schemas["NewProgressive"]["properties"]["limits"]["additionalProperties"],
        schemas["Reconfiguration"]["properties"]["seeds"]["additionalProperties"],
        schemas["BetStep"]["properties"]["amount"],
        schemas["PlayStep"]["properties"]["amount"],
        schemas["DoubleStep"]["properties"]["amount"]["anyOf"][0],
    ]
    for schema in declared:
        assert schema["x-maximum"] == "999999999.99", schema
        assert "{1,9}" in schema["pattern"], schema  # at most nine digits of dollars


# -- a meter that cannot grow further ------------------------------------------------------------


def test_a_level_past_its_column_is_a_typed_refusal() -> None:
    near = LevelState(MeterLevel.PROGRESSIVE, meter=COLUMN - 5)
    assert near.apply(Delta(meter=5)).meter == COLUMN
    with pytest.raises(MeterLimitError, match="Progressive level would hold more"):
        near.apply(Delta(meter=6))
    with pytest.raises(MeterLimitError):
        LevelState(MeterLevel.PROGRESSIVE, wagered_cents=COLUMN).apply(Delta(wagered_cents=1))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_meter_near_its_column_fed_increments_is_refused_nothing_written(
    backend: str, tmp_path: Path
) -> None:
    urls = new_db_url(backend, tmp_path)
    url = next(urls)
    try:
        with mtd_ledger(url) as ledger:
            play(ledger, "mtd-5", "r1", "BJ-1", [1, 2])
            # the meter as a long life of increments would leave it: within a $5 wager's
            # increment (15% of it: 75¢, 7,500,000 micro-dollars) of the column's end
            engine = sa.create_engine(url)
            with engine.begin() as conn:
                conn.execute(
                    sa.text("UPDATE meter_levels SET meter_micros = :m"), {"m": COLUMN - 1_000}
                )
            engine.dispose()
            system = ledger.system("mtd-5")
            system.accept_wagers("r2", "BJ-1", [1, 2, 3], by=DEALER)
            system.lock_out("r2", by=DEALER)
            system.verify_chips("r2", 3, by=DEALER)
            before = _events(url)
            with pytest.raises(MeterLimitError):
                system.settle_round("r2", [], idempotency_key="BJ-1/r2", by=DEALER)
            assert _events(url) == before
            (level,) = ledger.status("mtd-5").levels
            assert level.meter == COLUMN - 1_000  # as it was
    finally:
        urls.close()  # type: ignore[attr-defined]


def test_an_adjustment_may_not_raise_a_meter_or_reserve_above_the_limit(tmp_path: Path) -> None:
    """A person sets no amount above the largest: an adjustment that would leave the meter or
    the reserve above $999,999,999.99 is refused naming the limit (§ 605a.7(a)(6)), nothing
    written; a meter grown past it by increments (set here as a long life of play would leave
    it) may still be brought down by an adjustment, even one that leaves it above."""
    db = f"sqlite:///{tmp_path / 'adj.sqlite3'}"
    with mtd_ledger(db) as ledger:
        # the seed is $5,000: $999,994,999.99 more is exactly the largest amount
        ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=LARGEST - 500_000,
                      by=PIT, reason="to the top")  # fmt: skip
        ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, reserve_cents=LARGEST - 1, by=PIT,
                      reason="reserve a cent under")  # fmt: skip
        before = _events(db)
        for meter, reserve in ((1, 0), (0, 2), (-1, 2), (1, -1)):
            with pytest.raises(AmountLimitError) as caught:
                ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=meter,
                              reserve_cents=reserve, by=PIT, reason="over")  # fmt: skip
            assert caught.value.maximum == TOP and "605a.7(a)(6)" in str(caught.value)
        assert _events(db) == before
        ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, reserve_cents=1, by=PIT, reason="top")
        grown = (LARGEST * 3) * 10_000
        engine = sa.create_engine(db)
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE meter_levels SET meter_micros = :m"), {"m": grown})
        engine.dispose()
        with pytest.raises(AmountLimitError):
            ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=1, by=PIT, reason="up")
        after = ledger.adjust("mtd-5", MeterLevel.PROGRESSIVE, meter_cents=-LARGEST, by=PIT,
                              reason="down")  # fmt: skip
        assert after.meter == (LARGEST * 2) * 10_000


def test_every_refusal_of_an_amount_over_the_limit_carries_the_limit(tmp_path: Path) -> None:
    """Where an amount over the limit is one problem of a larger refusal — a Rules
    Submission's violations, a paytable file's schema — the refusal keeps ``maximum`` (a 422
    problem's member); a refusal with no such amount has none."""
    sub = json.loads(json.dumps(PLAIN_SUBMISSION))
    sub["wagers"][0]["max"] = OVER
    with pytest.raises(SubmissionError) as caught:
        submission_from_data(sub, "rules.toml")
    assert caught.value.maximum == TOP and limit_of(caught.value) == TOP
    sub["wagers"][0]["max"] = "$5x"
    with pytest.raises(SubmissionError) as caught:
        submission_from_data(sub, "rules.toml")
    assert caught.value.maximum is None and limit_of(caught.value) is None
    # a paytable file whose progressive wager is over the limit: a PaytableError still, and
    # an AmountLimitError with the limit
    text = (
        'section = "633b.3"\ntitle = "t"\ncitation = "c"\n[[paytables]]\nid = "1"\n'
        'title = "t"\ndecks = [6]\nlines = [{ outcome = "suited-match", label = "x", '
        'pays = "10 to 1" }]\n[paytables.progressive]\nwagers = ["$1", "%s"]\n'
        'meters = [{ level = "Progressive", seed = "$5" }]\n'
    )
    with pytest.raises(AmountLimitError) as limit:
        parse_section_text(text % OVER, "mine.toml")
    assert limit.value.maximum == TOP and str(limit.value).startswith("mine.toml: ")
    with pytest.raises(PaytableError) as other:
        parse_section_text(text % "$5x", "mine.toml")
    assert not isinstance(other.value, AmountLimitError)

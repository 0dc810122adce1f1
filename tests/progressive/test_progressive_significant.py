"""Configuration digests enforced and the controller's significant events (issue 15; § 605a.7,
NY 9 NYCRR 5321.18, N.J.A.C. 13:69E-1.39C, 13:69D-1.52, NY 5320.8), on SQLite and PostgreSQL:
a progressive stores its approved paytable and submission digests, a running configuration that
differs refuses play and is logged; `Ledger.open` checks itself, records its start-up and its
shutdown, and recovers a session killed with SIGKILL to the exact state before the crash."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.analysis.parsheet import exact_parsheet
from croupier.errors import ConfigurationMismatchError, CroupierError, LedgerIntegrityError
from croupier.paytables import builtin_paytables, paytable_digest
from croupier.progressive import (
    EventKind,
    Ledger,
    LedgerEvent,
    ProgressiveDefinition,
    QualifyingHand,
    Role,
    SignificantCode,
)
from croupier.progressive.significant import levels_digest
from croupier.wagers import get_wager
from progressive_support import (
    BACKENDS,
    DEALER,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    play,
)
from repo_paths import ROOT

OTHER = "0" * 64  # a digest no paytable or submission has


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def significant(ledger: Ledger, code: SignificantCode | None = None) -> list[LedgerEvent]:
    return [
        e
        for e in ledger.history()
        if e.event.kind is EventKind.SIGNIFICANT
        and (code is None or e.event.detail["code"] == code.value)
    ]


def setup(url: str, defn: ProgressiveDefinition) -> None:
    with Ledger(url) as ledger:
        add_staff(ledger)
        ledger.create_progressive(defn, tables=["T"], by=SHIFT)


def test_a_progressive_stores_the_digest_the_par_sheet_prints() -> None:
    table = builtin_paytables().get("633b.3", "1", 6)
    d = ProgressiveDefinition.from_paytable(table, decks=6, wager_cents=500, name="mtd")
    # the same digest by a second route: the par sheet of the wager's paytable
    sheet = exact_parsheet(get_wager("match-the-dealer"), "1", decks=6, wager_cents=500)
    assert d.paytable_sha256 == paytable_digest(table) == sheet.paytable_sha256
    assert len(d.paytable_sha256) == 64 and d.submission_sha256 is None
    assert ProgressiveDefinition.from_json(d.to_json()) == d


def test_a_running_paytable_other_than_the_approved_one_refuses_play_and_is_logged(
    db_url: str,
) -> None:
    approved_elsewhere = replace(paytable_definition("633b.3", "1", 6, 500, "mtd"),
                                 paytable_sha256=OTHER)  # fmt: skip
    setup(db_url, approved_elsewhere)
    with Ledger(db_url) as ledger:
        before = ledger.event_count()
        system = ledger.system("mtd")
        for rid in ("r1", "r2"):
            with pytest.raises(ConfigurationMismatchError, match=r"differs.*§ 605a\.7") as exc:
                system.accept_wagers(rid, "T", [1], by=DEALER)
            assert "5321.18" in str(exc.value)
        with pytest.raises(ConfigurationMismatchError):
            system.play_round("r3", "T", [1], [], idempotency_key="T/r3", by=DEALER)
        assert system.find_round("r1") is None and system.find_round("r3") is None
        # the refusals changed nothing but the one significant event this ledger logged
        assert ledger.event_count() == before + 1
        (e,) = significant(ledger, SignificantCode.CONFIGURATION_MISMATCH)
        assert (e.progressive, e.event.table_id, e.event.actor) == ("mtd", "T", DEALER)
        assert e.event.detail["paytable_sha256"]["approved"] == OTHER
        running = paytable_digest(builtin_paytables().get("633b.3", "1", 6))
        assert e.event.detail["paytable_sha256"]["running"] == running
        # verify refuses too, and logs it again (a verification is asked for each time)
        with pytest.raises(ConfigurationMismatchError):
            ledger.verify("mtd")
        assert len(significant(ledger, SignificantCode.CONFIGURATION_MISMATCH)) == 2
        ledger.audit()  # the controller's events are on the chain like any other


def test_the_submission_digest_is_compared_when_the_running_one_is_known(db_url: str) -> None:
    approved = "a" * 64
    setup(db_url, paytable_definition("633b.3", "1", 6, 500, "mtd", submission_sha256=approved))
    with Ledger(db_url, submission_sha256="b" * 64) as ledger:
        with pytest.raises(ConfigurationMismatchError, match="Rules Submission runs with"):
            play(ledger, "mtd", "r1", "T", [1])
        assert ledger.check_configuration("mtd").differences
    with Ledger(db_url, submission_sha256=approved) as ledger:
        play(ledger, "mtd", "r2", "T", [1])
        assert ledger.check_configuration("mtd").ok
    with Ledger(db_url) as ledger:  # no running submission known: only the paytable compared
        play(ledger, "mtd", "r3", "T", [1])
        ledger.verify("mtd")


def test_open_checks_itself_and_records_its_start_up_and_shutdown(db_url: str) -> None:
    setup(db_url, paytable_definition("633b.3", "1", 6, 500, "mtd"))
    with Ledger.open(db_url, table="T") as ledger:
        assert ledger.startup is not None and all(c.ok for c in ledger.startup[1])
        play(ledger, "mtd", "r1", "T", [1, 2])
        (start,) = significant(ledger, SignificantCode.STARTUP_SELF_CHECK)
        assert start.event.detail["result"] == "passed"
        assert start.event.table_id == "T" and start.event.actor is None
        session = start.event.detail["session"]
    with Ledger(db_url) as ledger:
        (stop,) = significant(ledger, SignificantCode.SHUTDOWN)
        assert stop.event.detail["session"] == session
        assert not significant(ledger, SignificantCode.CRASH_RECOVERY)
        ledger.verify("mtd")


def test_open_logs_a_mismatch_and_the_progressive_refuses_play(db_url: str) -> None:
    setup(db_url, replace(paytable_definition("633b.3", "1", 6, 500, "mtd"), paytable_sha256=OTHER))
    with Ledger.open(db_url) as ledger:
        (start,) = significant(ledger, SignificantCode.STARTUP_SELF_CHECK)
        assert start.event.detail["result"] == "configuration-mismatch"
        assert start.event.detail["mismatched"] == ["mtd"]
        with pytest.raises(ConfigurationMismatchError):
            play(ledger, "mtd", "r1", "T", [1])
        # logged once, at start-up: the refusal does not log it again
        assert len(significant(ledger, SignificantCode.CONFIGURATION_MISMATCH)) == 1


def test_open_refuses_a_ledger_that_fails_verification_and_records_why(db_url: str) -> None:
    setup(db_url, paytable_definition("633b.3", "1", 6, 500, "mtd"))
    with Ledger(db_url) as ledger, ledger.engine.begin() as conn:
        conn.execute(sa.text("UPDATE meter_levels SET meter_micros = meter_micros + 1"))
    with pytest.raises(LedgerIntegrityError, match="Progressive level"):
        Ledger.open(db_url)
    with Ledger(db_url) as ledger:
        (failure,) = significant(ledger, SignificantCode.VERIFICATION_FAILURE)
        assert failure.event.detail["during"] == "start-up"
        assert "Progressive level" in failure.event.detail["error"]
        (start,) = significant(ledger, SignificantCode.STARTUP_SELF_CHECK)
        assert start.event.detail["result"] == "failed"
        with pytest.raises(LedgerIntegrityError):
            ledger.verify("mtd")
        assert len(significant(ledger, SignificantCode.VERIFICATION_FAILURE)) == 2


def _crash_mid_round(url: str, sessions: multiprocessing.SimpleQueue) -> None:  # type: ignore[type-arg]
    """A forked controller: opens the ledger, plays one round, and is killed inside the second
    round's transaction."""

    def hook(stage: str) -> None:
        if stage == "levels" and armed:
            os.kill(os.getpid(), signal.SIGKILL)

    armed = False
    ledger = Ledger.open(url, fault_hook=hook, table="T")
    assert ledger._session is not None
    sessions.put(ledger._session.id)
    system = ledger.system("mtd")
    system.play_round("c1", "T", [1, 2], [], idempotency_key="T/c1", by=DEALER)
    armed = True
    system.accept_wagers("c2", "T", [1, 2, 3], by=DEALER)
    system.lock_out("c2", by=DEALER)
    system.verify_chips("c2", 3, by=DEALER)
    system.settle_round(
        "c2", [QualifyingHand(1, "two-suited-match")], idempotency_key="T/c2", by=DEALER
    )
    os._exit(3)  # not reached: the settlement's transaction kills the process


def test_a_session_killed_mid_transaction_is_recovered_to_the_state_before_the_crash(
    db_url: str,
) -> None:
    setup(db_url, paytable_definition("633b.3", "1", 6, 500, "mtd"))
    ctx = multiprocessing.get_context("fork")
    sessions = ctx.SimpleQueue()
    child = ctx.Process(target=_crash_mid_round, args=(db_url, sessions))
    child.start()
    child.join(60)
    assert child.exitcode == -signal.SIGKILL
    crashed = sessions.get()
    with Ledger(db_url) as before:
        state = before.replay("mtd")  # what the crashed session left committed
        events_before = before.event_count()
        (lv,) = state.values()
        # c1 (two $5 wagers, 75¢ each to the meter) and c2's acceptance, lock-out and count are
        # committed; c2's settlement (its 3 × 75¢ and the 10% award) died with the process
        assert lv.meter == (500_000 + 150) * 10_000 and lv.hits == 0
    with Ledger.open(db_url) as ledger:
        (rec,) = significant(ledger, SignificantCode.CRASH_RECOVERY)
        d = rec.event.detail
        assert d["crashed_session"] == crashed and d["crashed_pid"] == child.pid
        assert d["last_event_before"] == events_before
        assert d["levels_sha256"] == {"mtd": levels_digest(state)}
        assert ledger.replay("mtd") == state
        (start,) = [
            e
            for e in significant(ledger, SignificantCode.STARTUP_SELF_CHECK)
            if e.event.detail["session"] != crashed
        ]
        assert start.event.detail["crash_recoveries"] == [crashed]
        # the round goes on from where the crash left it
        s = ledger.system("mtd").settle_round(
            "c2", [QualifyingHand(1, "two-suited-match")], idempotency_key="T/c2", by=DEALER
        )
        assert s.awards[0].amount_cents == (500_000 + 150 + 225) // 10
    with Ledger.open(db_url) as again:  # recovered once: the next start-up finds no crash
        assert len(significant(again, SignificantCode.CRASH_RECOVERY)) == 1


# -- the commands ------------------------------------------------------------------------------
SUBMISSIONS = ROOT / "examples" / "submissions"


def _schema_valid(name: str, data: object) -> None:
    import json

    import jsonschema  # type: ignore[import-untyped,unused-ignore]

    schema = json.loads((ROOT / "docs" / "schemas" / f"{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)


def test_the_commands_store_print_and_enforce_the_digests_and_list_the_events(
    tmp_path: Path,
) -> None:
    import json

    from typer.testing import CliRunner

    from croupier.cli import app
    from croupier.table.submission import load_submission, submission_digest

    runner = CliRunner()
    env = {"CROUPIER_PASSWORD": "sam-secret"}
    db = ("--db", f"sqlite:///{tmp_path / 'cli.sqlite3'}")

    def run(*args: str, code: int = 0) -> str:
        """The command's output; with ``code`` 2, the one-line error ``main`` would print (the
        runner hands the typed error back)."""
        r = runner.invoke(app, list(args), env=env)
        if code == 2:
            assert isinstance(r.exception, CroupierError), r.output
            return str(r.exception)
        assert r.exit_code == code, r.output
        return r.stdout

    run("meters", "bootstrap", "sam", *db)
    made = {}
    # two progressives of one wager are linked to two tables: one wager feeds one meter
    for name, sub, table in (
        ("good", "blackjack-6deck.toml", "BJ-1"),
        ("other", "switch-hands-6deck.toml", "BJ-2"),
    ):
        made[name] = json.loads(run(
            "meters", "create", "--paytable", "633b.3:1", "--decks", "6", "--amount", "5",
            "--name", name, "--table", table, "--submission", str(SUBMISSIONS / sub),
            "--as", "sam", *db, "--json",
        ))  # fmt: skip
    digest = submission_digest(load_submission(SUBMISSIONS / "blackjack-6deck.toml"))
    assert made["good"]["submission_sha256"] == digest
    assert made["good"]["paytable_sha256"] == paytable_digest(
        builtin_paytables().get("633b.3", "1", 6)
    )
    shown = run("meters", "--name", "good", *db)
    assert f"Approved Rules Submission SHA-256 {digest}" in shown
    # the round file is dealt under blackjack-6deck.toml: fed to 'good'; 'other' refuses it
    with Ledger(db[1]) as ledger:
        ledger.add_user("dana", Role.DEALER, "dana-secret", by="sam")
    rnd = json.loads((ROOT / "examples/rounds/match-the-dealer-award.json").read_text("utf-8"))
    rnd["submission"] = str(SUBMISSIONS / "blackjack-6deck.toml")
    path = tmp_path / "r1.json"
    path.write_text(json.dumps(rnd), "utf-8")
    env["CROUPIER_PASSWORD"] = "dana-secret"
    run("settle", str(path), "--progressive", "good", "--table", "BJ-1", "--as", "dana", *db)
    refused = run("settle", str(path), "--progressive", "other", "--table", "BJ-2", "--as",
                  "dana", *db, code=2)  # fmt: skip
    assert "Rules Submission runs with digest" in refused and "605a.7" in refused
    # verify compares the running submission given, and says what it compared
    verified = json.loads(run("meters", "verify", "--name", "good", "--submission",
                              str(SUBMISSIONS / "blackjack-6deck.toml"), *db, "--json"))  # fmt: skip
    _schema_valid("meters-verify", verified)
    assert verified["configuration"]["good"]["running_submission_sha256"] == digest
    run("meters", "verify", "--name", "other", "--submission",
        str(SUBMISSIONS / "blackjack-6deck.toml"), *db, code=2)  # fmt: skip
    env["CROUPIER_PASSWORD"] = "sam-secret"  # the events are a shift manager's to read
    listed = json.loads(run("meters", "events", "--as", "sam", *db, "--json"))
    _schema_valid("meters-events", listed)
    codes = [(e["code"], e["progressive"]) for e in listed["events"]]
    # the refused settlement and the refused verification, each logged
    assert codes == [("configuration-mismatch", "other")] * 2
    assert listed["events"][0]["table"] == "BJ-2" and listed["events"][0]["by"] == "dana"
    only = json.loads(
        run("meters", "events", "--code", "crash-recovery", "--as", "sam", *db, "--json")
    )
    assert only == {"events": []}
    assert "configuration-mismatch" in run("meters", "events", "--as", "sam", *db)
    assert "unknown code" in run("meters", "events", "--code", "nope", "--as", "sam", *db, code=2)

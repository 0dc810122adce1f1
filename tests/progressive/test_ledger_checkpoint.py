"""A rollback that cannot hide (issue 27): the copy of the chain head beside the ledger key is
required, and signed checkpoints of the head kept off the box catch a database restored together
with that copy — on SQLite and on PostgreSQL.

A checkpoint's mac is recomputed here from the format the module docstring of
:mod:`croupier.progressive.checkpoint` states (HMAC-SHA256 under HMAC-SHA256(key, label) of the
canonical JSON of every other field), and its head from the database's own rows.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from cli_support import assert_one_error_line, run_main
from croupier.errors import LedgerIntegrityError
from croupier.progressive import EventKind, Ledger, Role, SignificantCode, schema
from croupier.progressive.checkpoint import ENV_CHECKPOINT_DIR
from croupier.service.app import ServiceConfig, create_app
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    mtd_ledger,
    new_db_url,
    play,
    restore,
    secret,
    snapshot,
    without_append_only,
)

AUDITOR = "audrey"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


@pytest.fixture
def ledger(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ledger]:
    """Staff with an auditor, ``mtd-5`` linked to BJ-1, one settled round; no checkpoint
    directory unless a test sets one."""
    monkeypatch.delenv(ENV_CHECKPOINT_DIR, raising=False)
    with mtd_ledger(db_url) as led:
        led.add_user(AUDITOR, Role.AUDITOR, secret(AUDITOR), by=SHIFT)
        play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3])
        yield led


def head_row(ledger: Ledger) -> tuple[int, str]:
    """The last event's seq and mac, read from the table."""
    e = schema.ledger_events
    with ledger.engine.connect() as conn:
        row = conn.execute(sa.select(e.c.seq, e.c.mac).order_by(e.c.seq.desc()).limit(1)).one()
    return int(row.seq), str(row.mac)


def expected_mac(key: bytes, doc: dict[str, Any]) -> str:
    signing = hmac.new(key, b"croupier checkpoint v1", hashlib.sha256).digest()
    body = {k: v for k, v in doc.items() if k != "mac"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(signing, text.encode(), hashlib.sha256).hexdigest()


def verify(url: str, *extra: str) -> Any:
    return run_main(["meters", "verify", "--db", url, *extra])


def take(url: str, out: Path) -> dict[str, Any]:
    run = run_main(["meters", "checkpoint", "--db", url, "--out", str(out)])
    assert run.code == 0, run.err
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


# -- the copy of the head is required ------------------------------------------------------
def test_a_deleted_head_file_fails_verify_naming_it(ledger: Ledger) -> None:
    assert ledger.head_file is not None and ledger.head_file.exists()
    assert ledger.kept_head() == head_row(ledger)
    ledger.head_file.unlink()
    line = assert_one_error_line(verify(ledger.url))
    assert f"the copy of the chain head {ledger.head_file} is missing" in line
    assert "--accept-missing-head" in line
    # and no write re-creates it behind the operator's back
    with pytest.raises(LedgerIntegrityError, match=re.escape(f"{ledger.head_file} is missing")):
        play(ledger, "mtd-5", "r2", "BJ-1", [1])
    assert not ledger.head_file.exists()
    # an unreadable copy is no copy
    ledger.head_file.write_text("garbage\n")
    line = assert_one_error_line(verify(ledger.url))
    assert f"{ledger.head_file} holds no readable record" in line


def test_the_explicit_option_accepts_it_only_for_a_chain_that_verifies(ledger: Ledger) -> None:
    assert ledger.head_file is not None
    seq, mac = head_row(ledger)
    ledger.head_file.unlink()
    # an event edited behind croupier's back: the chain does not verify, nothing is made
    e = schema.ledger_events
    without_append_only(ledger)
    with ledger.engine.begin() as conn:
        conn.execute(sa.update(e).where(e.c.seq == 3).values(actor=FLOOR))
    line = assert_one_error_line(verify(ledger.url, "--accept-missing-head"))
    assert "ledger event 3" in line
    assert not ledger.head_file.exists()
    with ledger.engine.begin() as conn:  # undone: the chain verifies again
        conn.execute(sa.update(e).where(e.c.seq == 3).values(actor=SHIFT))
    run = verify(ledger.url, "--accept-missing-head")
    assert run.code == 0, run.err
    said = " ".join(run.out.split())
    assert f"{ledger.head_file} was made anew at event {seq}" in said
    # what it says the copy names now is what the copy holds: one past, the recreation's event
    assert f"it now names event {seq + 1}," in said
    # the copy was made at the head verified; the recreation is itself on the chain, the event
    # after it, which the copy then follows as after every write
    assert ledger.kept_head() == head_row(ledger) and head_row(ledger)[0] == seq + 1
    (made,) = [
        h.event.detail
        for h in ledger.history()
        if h.event.kind is EventKind.SIGNIFICANT
        and h.event.detail.get("code") == SignificantCode.HEAD_COPY_RECREATED.value
    ]
    assert (made["seq"], made["head_mac"], made["was"]) == (seq, mac, "is missing")
    play(ledger, "mtd-5", "r2", "BJ-1", [1])  # writing goes on
    assert ledger.kept_head() == head_row(ledger)
    assert verify(ledger.url).code == 0


def test_serve_refuses_a_ledger_whose_head_file_vanished(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ledger.head_file is not None
    ledger.head_file.unlink()
    monkeypatch.setenv("CROUPIER_DB", ledger.url)
    line = assert_one_error_line(run_main(["serve", "--port", "1"]))
    assert f"{ledger.head_file} is missing" in line
    # a controller's start-up self-check refuses it too (each worker of the service)
    with pytest.raises(LedgerIntegrityError, match=re.escape(f"{ledger.head_file} is missing")):
        Ledger.open(ledger.url)


def test_serve_refuses_a_rolled_back_or_edited_database_in_one_line(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    backup = snapshot(ledger)
    play(ledger, "mtd-5", "r2", "BJ-1", [1, 2, 3])
    newest = head_row(ledger)[0]
    restore(ledger, backup)  # the head file kept: it names an event the log no longer holds
    monkeypatch.setenv("CROUPIER_DB", ledger.url)
    run = run_main(["serve", "--port", "1"])
    line = assert_one_error_line(run)
    assert run.code == 2 and "Traceback" not in run.err
    assert f"names event {newest}, but the database's log ends at {backup_events(backup)}" in line
    # an event edited behind croupier's back: the whole-ledger audit, in one line too
    assert ledger.head_file is not None
    ledger.head_file.unlink()
    assert verify(ledger.url, "--accept-missing-head").code == 0
    e = schema.ledger_events
    with ledger.engine.begin() as conn:
        conn.execute(sa.update(e).where(e.c.seq == 3).values(actor=FLOOR))
    run = run_main(["serve", "--port", "1"])
    assert "ledger event 3" in assert_one_error_line(run) and run.code == 2


def backup_events(backup: dict[str, list[dict[str, object]]]) -> int:
    return len(backup["ledger_events"])


# -- checkpoints -----------------------------------------------------------------------------
def test_a_rollback_with_its_head_file_restored_is_caught_by_a_later_checkpoint(
    ledger: Ledger, tmp_path: Path
) -> None:
    assert ledger.head_file is not None and ledger.key is not None
    early = take(ledger.url, tmp_path / "early.json")
    assert (early["seq"], early["head_mac"]) == head_row(ledger)
    assert early["mac"] == expected_mac(ledger.key, early)
    backup, head_copy = snapshot(ledger), ledger.head_file.read_bytes()
    play(ledger, "mtd-5", "r2", "BJ-1", [1, 2], [(1, "suited-match")])
    later_file = tmp_path / "later.json"
    later = take(ledger.url, later_file)
    assert later["seq"] > early["seq"] and (later["seq"], later["head_mac"]) == head_row(ledger)
    # the meters it records are the level rows at that head
    with ledger.engine.connect() as conn:
        meter = conn.execute(sa.select(schema.meter_levels.c.meter_micros)).scalar_one()
    assert later["meters"]["mtd-5"]["Progressive"]["meter_micros"] == meter

    restore(ledger, backup)  # the database and its head file, from the same backup
    ledger.head_file.write_bytes(head_copy)
    assert verify(ledger.url).code == 0  # nothing on the box can tell
    assert verify(ledger.url, "--checkpoint", str(tmp_path / "early.json")).code == 0
    line = assert_one_error_line(verify(ledger.url, "--checkpoint", str(later_file)))
    assert f"checkpoint {later_file}" in line
    assert f"records event {later['seq']}, but the log ends at {early['seq']}" in line
    assert "rolled back past it" in line

    # written on anew past the checkpoint's head: a fork, caught too
    play(ledger, "mtd-5", "r9", "BJ-1", [1, 2, 3])
    play(ledger, "mtd-5", "r10", "BJ-1", [1, 2, 3])
    assert head_row(ledger)[0] >= later["seq"]
    line = assert_one_error_line(
        verify(
            ledger.url,
            "--checkpoint",
            str(tmp_path / "early.json"),
            "--checkpoint",
            str(later_file),
        )
    )
    assert f"checkpoint {later_file}" in line and "another mac than the log's" in line


def test_a_checkpoint_of_another_ledger_or_with_a_changed_field_is_refused(
    ledger: Ledger, db_url: str, tmp_path: Path
) -> None:
    mine = take(ledger.url, tmp_path / "mine.json")
    # another ledger, its own key
    other_url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    with mtd_ledger(other_url):
        pass
    theirs_file = tmp_path / "theirs.json"
    theirs = take(other_url, theirs_file)
    line = assert_one_error_line(verify(ledger.url, "--checkpoint", str(theirs_file)))
    assert f"checkpoint {theirs_file} was signed with another ledger key" in line
    assert theirs["key_id"] in line
    # another ledger under the same key (a key file shared): its identity differs
    assert ledger.key is not None
    same_key_url = f"sqlite:///{tmp_path / 'same-key.sqlite3'}"
    with Ledger(same_key_url, key=ledger.key) as twin:
        twin.bootstrap(SHIFT, secret(SHIFT))
        twin_doc = twin.checkpoint()
    twin_file = tmp_path / "twin.json"
    twin_file.write_text(json.dumps(twin_doc))
    line = assert_one_error_line(verify(ledger.url, "--checkpoint", str(twin_file)))
    assert f"checkpoint {twin_file} belongs to another ledger ({twin_doc['ledger']}" in line
    # each field changed after it was made
    for field, value in [
        ("seq", 1),
        ("head_mac", "0" * 64),
        ("time", "2030-01-01T00:00:00.000000Z"),
        ("meters", {"mtd-5": {"Progressive": {"meter_micros": 1}}}),
        ("reason", "award"),
    ]:
        forged = tmp_path / f"forged-{field}.json"
        forged.write_text(json.dumps({**mine, field: value}))
        line = assert_one_error_line(verify(ledger.url, "--checkpoint", str(forged)))
        assert f"checkpoint {forged} does not match its signature" in line, field
    # not a checkpoint at all: one line naming the file
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "something else"}')
    line = assert_one_error_line(verify(ledger.url, "--checkpoint", str(junk)))
    assert str(junk) in line and "not a usable checkpoint" in line
    del db_url


# -- over HTTP ---------------------------------------------------------------------------------
def test_the_http_route_serves_the_same_document_to_an_auditor_only(
    ledger: Ledger, tmp_path: Path
) -> None:
    assert ledger.key is not None
    url, key = ledger.url, ledger.key
    ledger.close()
    app = create_app(ServiceConfig(db=url))
    with TestClient(app) as c:

        def auth(user: str) -> dict[str, str]:
            r = c.post("/token", data={"username": user, "password": secret(user)})
            assert r.status_code == 200, r.text
            return {"Authorization": f"Bearer {r.json()['access_token']}"}

        got = c.get("/checkpoint", headers=auth(AUDITOR))
        assert got.status_code == 200, got.text
        doc = got.json()
        with Ledger(url) as again:
            assert (doc["seq"], doc["head_mac"]) == head_row(again)
        # the command line's document, field for field (but the time it was made and its mac)
        cli = take(url, tmp_path / "cli.json")
        refused = c.get("/checkpoint", headers=auth(DEALER))
        assert c.get("/checkpoint", headers=auth(SHIFT)).status_code == 200
        assert c.get("/checkpoint").status_code == 401
        assert "/checkpoint" in c.get("/openapi.json").json()["paths"]
    assert refused.status_code == 403, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert "shift-manager or above, or an auditor" in refused.json()["detail"]
    assert doc["mac"] == expected_mac(key, doc)
    assert list(cli) == list(doc)
    assert {k: v for k, v in cli.items() if k not in ("time", "mac")} == {
        k: v for k, v in doc.items() if k not in ("time", "mac")
    }
    served = tmp_path / "served.json"
    served.write_text(json.dumps(doc))
    assert verify(url, "--checkpoint", str(served)).code == 0


# -- automatic checkpoints ---------------------------------------------------------------------
def test_automatic_checkpoints_are_written_at_a_significant_event_and_an_award(
    ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = tmp_path / "elsewhere"
    monkeypatch.setenv(ENV_CHECKPOINT_DIR, str(where))
    with Ledger.open(ledger.url) as opened:  # its start-up self-check: a significant event
        seq, mac = head_row(opened)
        (written,) = list(where.rglob("*.json"))
        doc = json.loads(written.read_text())
        assert (doc["seq"], doc["head_mac"], doc["reason"]) == (seq, mac, "significant")
        assert written.name == f"{seq:012d}-{mac[:16]}.json"
        assert written.parent.name == doc["ledger"]
        assert opened.key is not None and doc["mac"] == expected_mac(opened.key, doc)
        # a round without a hit makes none; an award does, with the meters after it
        play(opened, "mtd-5", "r2", "BJ-1", [1])
        assert len(list(where.rglob("*.json"))) == 1
        play(opened, "mtd-5", "r3", "BJ-1", [1, 2], [(2, "two-suited-match")])
        seq, mac = head_row(opened)
        doc = json.loads((written.parent / f"{seq:012d}-{mac[:16]}.json").read_text())
        assert (doc["head_mac"], doc["reason"]) == (mac, "award")
        with opened.engine.connect() as conn:
            held = conn.execute(sa.select(schema.meter_levels.c.held_micros)).scalar_one()
        assert doc["meters"]["mtd-5"]["Progressive"]["held_micros"] == held > 0  # pending
    # verify takes the directory: every checkpoint in it is held by the log
    run = verify(ledger.url, "--checkpoint", str(where))
    assert run.code == 0, run.err
    count = len(list(where.rglob("*.json")))
    assert count >= 3
    # one summary line for the given ones and one for those of $CROUPIER_CHECKPOINT_DIR
    assert f"{count} checkpoints given" in run.out and "all held by the log" in run.out
    assert f"{count} automatic checkpoints in $CROUPIER_CHECKPOINT_DIR" in run.out


def test_an_unwritable_location_never_fails_the_money_operation(
    ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    monkeypatch.setenv(ENV_CHECKPOINT_DIR, str(blocker / "checkpoints"))
    settled = play(ledger, "mtd-5", "r2", "BJ-1", [1, 2], [(1, "suited-match")])
    assert settled.awards  # the award is made and settled although no checkpoint was written
    play(ledger, "mtd-5", "r3", "BJ-1", [1, 2], [(2, "suited-match")])

    def codes() -> list[str]:
        return [
            str(h.event.detail.get("code"))
            for h in ledger.history()
            if h.event.kind is EventKind.SIGNIFICANT
        ]

    # the fault is recorded once, not at every award
    assert codes().count(SignificantCode.CHECKPOINT_FAILURE.value) == 1
    (failure,) = [
        h.event.detail
        for h in ledger.history()
        if h.event.detail.get("code") == SignificantCode.CHECKPOINT_FAILURE.value
    ]
    assert failure["location"] == str(blocker / "checkpoints") and failure["after"] == "award"
    # the location back: the next checkpoint is written, and the clearing recorded
    monkeypatch.setenv(ENV_CHECKPOINT_DIR, str(tmp_path / "fixed"))
    level = ledger.definition("mtd-5").named_level("Progressive")
    ledger.adjust("mtd-5", level, meter_cents=100, reserve_cents=0, by=PIT, reason="a test")
    assert codes()[-1] == SignificantCode.CHECKPOINT_RESUMED.value
    newest = max((tmp_path / "fixed").rglob("*.json"))
    assert json.loads(newest.read_text())["seq"] == head_row(ledger)[0]
    assert verify(ledger.url).code == 0


# -- write-once automatic checkpoints ----------------------------------------------------------
def significant_codes(ledger: Ledger) -> list[str]:
    return [
        str(h.event.detail.get("code"))
        for h in ledger.history()
        if h.event.kind is EventKind.SIGNIFICANT
    ]


def test_a_rolled_back_ledger_never_overwrites_the_genuine_automatic_checkpoints(
    ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ledger.head_file is not None
    where = tmp_path / "elsewhere"
    backup, head_copy = snapshot(ledger), ledger.head_file.read_bytes()
    monkeypatch.setenv(ENV_CHECKPOINT_DIR, str(where))
    play(ledger, "mtd-5", "r2", "BJ-1", [1, 2], [(1, "suited-match")])
    level = ledger.definition("mtd-5").named_level("Progressive")
    ledger.adjust("mtd-5", level, meter_cents=100, reserve_cents=0, by=PIT, reason="a test")
    genuine = {p: p.read_bytes() for p in where.rglob("*.json")}
    newest = max(json.loads(b)["seq"] for b in genuine.values())
    assert len(genuine) == 2

    restore(ledger, backup)  # the database and its head file, from the same backup
    ledger.head_file.write_bytes(head_copy)
    # plain verify reads $CROUPIER_CHECKPOINT_DIR: both genuine checkpoints are past the log
    run = verify(ledger.url)
    assert run.code != 0 and "Traceback" not in run.err
    assert "2 of the 2 checkpoints are not held by the log" in run.err
    assert all(str(p) in run.err for p in genuine)
    # its verification-failure made an automatic checkpoint, which saw the genuine ones ahead
    assert SignificantCode.CHECKPOINT_CONFLICT.value in significant_codes(ledger)
    # the forked log written on past the highest genuine number: nothing genuine is replaced
    for n in range(3, 12):
        play(ledger, "mtd-5", f"r{n}", "BJ-1", [1, 2], [(2, "suited-match")])
        if head_row(ledger)[0] > newest:
            break
    assert head_row(ledger)[0] > newest
    assert all(p.read_bytes() == b for p, b in genuine.items())
    assert len(list(where.rglob("*.json"))) > len(genuine)
    run = verify(ledger.url)
    assert run.code != 0 and "another mac than the log's" in run.err
    assert all(str(p) in run.err for p in genuine)
    # the option to skip them: the log on its own cannot tell
    run = verify(ledger.url, "--no-checkpoint-dir")
    assert run.code == 0, run.err
    assert "CROUPIER_CHECKPOINT_DIR" not in run.out


def test_two_checkpoints_of_one_event_with_other_macs_are_named_together(
    ledger: Ledger, tmp_path: Path
) -> None:
    from croupier.progressive.checkpoint import HeadState, document, file_name, write_new

    assert ledger.key is not None
    seq, mac = head_row(ledger)
    with ledger.engine.connect() as conn:
        first = conn.execute(
            sa.select(schema.ledger_events.c.mac).where(schema.ledger_events.c.seq == 1)
        ).scalar_one()
    forked = "f" * 64
    files = []
    for head in (mac, forked):
        doc = document(ledger.key, HeadState(str(first), seq, head, {}))
        path = tmp_path / file_name(seq, head)
        assert write_new(path, json.dumps(doc))
        assert not write_new(path, "{}")  # write-once: the file is never replaced
        files.append(path)
    assert json.loads(files[0].read_text())["head_mac"] == mac
    run = verify(ledger.url, "--checkpoint", str(tmp_path))
    assert run.code != 0
    said = " ".join(run.err.split())
    assert f"checkpoints {files[0]} and {files[1]} both record event {seq}" in said


def test_failed_logins_are_anchored_at_most_once_a_minute(
    ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier.errors import CroupierError

    where = tmp_path / "elsewhere"
    monkeypatch.setenv(ENV_CHECKPOINT_DIR, str(where))
    for _ in range(5):
        with pytest.raises(CroupierError):
            ledger.authenticate(FLOOR, "not the password")
    assert significant_codes(ledger).count(SignificantCode.LOGIN_FAILURE.value) == 5
    assert len(list(where.rglob("*.json"))) == 1  # the first; the rest within the minute
    # a money event is anchored at once, covering the failures before it
    play(ledger, "mtd-5", "r2", "BJ-1", [1, 2], [(1, "suited-match")])
    docs = [json.loads(p.read_text()) for p in where.rglob("*.json")]
    assert sorted(d["reason"] for d in docs) == ["award", "security"]
    # a minute later (the coalescing window passed), the next failure is anchored again
    ledger.security_anchored = None
    with pytest.raises(CroupierError):  # another member: FLOOR is locked out by now
        ledger.authenticate(DEALER, "not the password")
    docs = [json.loads(p.read_text()) for p in where.rglob("*.json")]
    assert sorted(d["reason"] for d in docs) == ["award", "security", "security"]
    # the retention rule: security checkpoints older than the newest KEEP go, once all verify
    run = run_main(["meters", "checkpoint", "--db", ledger.url, "--prune", "0"])
    assert run.code == 0, run.err
    assert "pruned 2 security checkpoints" in run.err
    left = [json.loads(p.read_text())["reason"] for p in where.rglob("*.json")]
    assert "security" not in left and "award" in left


def test_a_checkpoint_never_replaces_a_device_a_link_or_a_folder(tmp_path: Path) -> None:
    """``--out`` is renamed into place, so a path that is not a regular file is refused: a
    rename over ``/dev/null`` run as root would leave a file where the device was."""
    import os
    import stat

    from croupier.progressive.checkpoint import write_file

    before = os.stat("/dev/null")
    target = tmp_path / "real.json"
    target.write_text("kept")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    for path in (Path("/dev/null"), link, tmp_path):
        with pytest.raises(OSError, match="not a regular file"):
            write_file(path, "{}")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_mode == before.st_mode
    assert link.is_symlink() and target.read_text() == "kept"
    write_file(target, "{}")  # a regular file is replaced, as before
    assert target.read_text() == "{}"

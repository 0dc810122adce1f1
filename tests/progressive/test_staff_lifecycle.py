"""Issue 16, item 1: staff removed, their role or credential changed, logged out — each a staff
event naming the actor, replayed and verified, on SQLite and PostgreSQL; the ledger's cached
staff (the fast settlement path's) follow every change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.errors import (
    AuthenticationError,
    AuthorizationError,
    ConfusableNameError,
    LedgerError,
    LedgerIntegrityError,
)
from croupier.progressive import EventKind, Ledger, QualifyingHand, Role
from progressive_support import (
    BACKENDS,
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    keyless,
    mtd_ledger,
    new_db_url,
    play,
    secret,
    without_append_only,
)


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    urls = new_db_url(request.param, tmp_path)
    led = mtd_ledger(next(urls))
    yield led
    led.close()
    urls.close()  # type: ignore[attr-defined]


def _staff_events(ledger: Ledger) -> list[tuple[str, str | None, str | None, str | None]]:
    """(kind, actor, actor's role, user) of every staff event, in order."""
    kinds = {"user", "user-removed", "user-role", "user-credential", "logout"}
    return [
        (e.event.kind.value, e.event.actor, e.event.actor_role, e.event.detail.get("user"))
        for e in ledger.history()
        if e.event.kind.value in kinds
    ]


def _sql(ledger: Ledger, text: str, **params: object) -> None:
    with ledger.engine.begin() as conn:
        conn.execute(sa.text(text), params)


def test_a_removed_member_cannot_log_in_or_act_and_history_names_them(ledger: Ledger) -> None:
    play(ledger, "mtd-5", "r1", "BJ-1", [1])  # dana settles a round
    ledger.remove_user(DEALER, by=SHIFT)
    with pytest.raises(AuthenticationError, match="not a staff member"):
        ledger.authenticate(DEALER, secret(DEALER))
    system = ledger.system("mtd-5")
    with pytest.raises(AuthenticationError, match="was removed"):
        system.play_round(
            "r2", "BJ-1", [1], [], idempotency_key="BJ-1/r2", by=DEALER
        )  # the fast path's cached staff saw the removal
    with pytest.raises(AuthenticationError, match="was removed"):
        system.accept_wagers("r3", "BJ-1", [1], by=DEALER)
    assert DEALER not in {m.name for m in ledger.users()}
    assert ledger.removed_users() == [DEALER]
    assert {e.event.actor for e in ledger.history("mtd-5")} >= {DEALER}  # history names her
    assert _staff_events(ledger)[-1] == ("user-removed", SHIFT, "shift-manager", DEALER)
    # her name is never given to another member, nor one that reads as it
    with pytest.raises(ConfusableNameError, match="'dana'"):
        ledger.add_user("Dana", Role.DEALER, "a new pin", by=SHIFT)
    assert ledger.audit().events == ledger.event_count()


def test_only_a_shift_manager_manages_staff_and_the_last_one_stays(ledger: Ledger) -> None:
    before = ledger.event_count()
    with pytest.raises(AuthorizationError, match="pat is a pit-manager; removing staff"):
        ledger.remove_user(DEALER, by=PIT)
    with pytest.raises(AuthorizationError, match="changing a role"):
        ledger.set_role(DEALER, Role.SHIFT_MANAGER, by=DEALER)
    with pytest.raises(AuthorizationError, match="another member's credential"):
        ledger.change_credential(FLOOR, "a new pin", by=PIT)
    with pytest.raises(LedgerError, match="without a shift manager"):
        ledger.remove_user(SHIFT, by=SHIFT)
    with pytest.raises(LedgerError, match="without a shift manager"):
        ledger.set_role(SHIFT, Role.PIT_MANAGER, by=SHIFT)
    with pytest.raises(LedgerError, match="is a dealer already"):
        ledger.set_role(DEALER, Role.DEALER, by=SHIFT)
    assert ledger.event_count() == before  # a rejected operation changes nothing
    ledger.set_role(PIT, Role.SHIFT_MANAGER, by=SHIFT)
    ledger.remove_user(SHIFT, by=PIT)  # another shift manager now: sam may go
    with pytest.raises(AuthenticationError, match="was removed"):
        ledger.add_user("eve", Role.DEALER, "eve's pin", by=SHIFT)
    ledger.audit()


def test_a_role_change_counts_at_once_on_both_paths(ledger: Ledger) -> None:
    s = play(ledger, "mtd-5", "r1", "BJ-1", [2], [(2, "two-suited-match")])
    (award,) = [a for a in s.awards if a.status.value == "pending"]
    ledger.set_role(FLOOR, Role.DEALER, by=SHIFT)
    with pytest.raises(AuthorizationError, match="flo is a dealer"):
        ledger.validate(award.id, by=FLOOR)
    ledger.set_role(DEALER, Role.FLOORPERSON, by=SHIFT)
    assert ledger.validate(award.id, by=DEALER).status.value == "paid"
    # an auditor reads and changes nothing: the fast path refuses them too
    ledger.set_role(FLOOR, Role.AUDITOR, by=SHIFT)
    with pytest.raises(AuthorizationError, match="flo is an auditor"):
        ledger.system("mtd-5").play_round(
            "r2", "BJ-1", [1], [QualifyingHand(1, "two-suited-match")],
            idempotency_key="BJ-1/r2", by=FLOOR,
        )  # fmt: skip
    assert _staff_events(ledger)[-3:] == [
        ("user-role", SHIFT, "shift-manager", FLOOR),
        ("user-role", SHIFT, "shift-manager", DEALER),
        ("user-role", SHIFT, "shift-manager", FLOOR),
    ]
    roles = {m.name: m.role for m in ledger.users()}
    assert (roles[FLOOR], roles[DEALER]) == (Role.AUDITOR, Role.FLOORPERSON)
    ledger.audit()


def test_credentials_change_own_with_the_old_one_or_by_a_shift_manager(ledger: Ledger) -> None:
    with pytest.raises(AuthenticationError, match="needs the old one"):
        ledger.change_credential(DEALER, "dana's new pin", by=DEALER)
    with pytest.raises(AuthenticationError, match="not a staff member"):
        ledger.change_credential(DEALER, "dana's new pin", by=DEALER, old_secret="wrong")
    ledger.change_credential(DEALER, "dana's new pin", by=DEALER, old_secret=secret(DEALER))
    with pytest.raises(AuthenticationError):
        ledger.authenticate(DEALER, secret(DEALER))
    assert ledger.authenticate(DEALER, "dana's new pin").role is Role.DEALER
    ledger.change_credential(FLOOR, "set by sam", by=SHIFT)  # a reset: no old one needed
    assert ledger.authenticate(FLOOR, "set by sam").name == FLOOR
    events = _staff_events(ledger)[-2:]
    assert events == [
        ("user-credential", DEALER, "dealer", DEALER),
        ("user-credential", SHIFT, "shift-manager", FLOOR),
    ]
    own = [e.event.detail for e in ledger.history() if e.event.kind is EventKind.USER_CREDENTIAL]
    assert [d["own"] for d in own] == [True, False]
    assert all(d["credential"].startswith("$argon2id$") for d in own)  # the hash, never the text
    assert all("new pin" not in str(d) and "set by sam" not in str(d) for d in own)
    # the wrong old credential and the old one tried after the change: two failed logins
    codes = [
        e.event.detail.get("code") for e in ledger.history() if e.event.kind.value == "significant"
    ]
    assert codes.count("login-failure") == 2
    ledger.audit()


def test_every_change_moves_the_members_generation(ledger: Ledger) -> None:
    """What a token is checked against (croupier.service.auth): a member's ``since``."""
    first = ledger.authenticate(DEALER, secret(DEALER)).since
    assert ledger.staff_now()[DEALER].since == first > 0
    ledger.logout(DEALER)
    after_logout = ledger.staff_now()[DEALER].since
    assert after_logout > first
    assert ledger.authenticate(DEALER, secret(DEALER)).since == after_logout
    ledger.set_role(DEALER, Role.FLOORPERSON, by=SHIFT)
    assert ledger.staff_now()[DEALER].since > after_logout
    ledger.remove_user(DEALER, by=SHIFT)
    assert DEALER not in ledger.staff_now()
    assert _staff_events(ledger)[-3][0] == "logout"


def test_verify_sees_the_staff_rows_edited_behind_croupiers_back(ledger: Ledger) -> None:
    ledger.set_role(DEALER, Role.FLOORPERSON, by=SHIFT)
    ledger.remove_user(PIT, by=SHIFT)
    ledger.audit()
    # the role change undone in the table
    _sql(ledger, "UPDATE staff SET role = 'dealer' WHERE name = :n", n=DEALER)
    with pytest.raises(LedgerIntegrityError, match="staff store differs from the log for dana"):
        ledger.audit()
    with pytest.raises(LedgerIntegrityError, match="staff store's entry for 'dana'"):
        ledger.system("mtd-5").accept_wagers("r9", "BJ-1", [1], by=DEALER)
    _sql(ledger, "UPDATE staff SET role = 'floorperson' WHERE name = :n", n=DEALER)
    ledger.audit()
    # the removed member put back
    _sql(
        ledger,
        "INSERT INTO staff (name, role, added_at, credential) "
        "SELECT :n, 'shift-manager', added_at, credential FROM staff WHERE name = :m",
        n=PIT,
        m=SHIFT,
    )
    with pytest.raises(LedgerIntegrityError, match="staff store differs from the log for pat"):
        ledger.audit()
    with pytest.raises(AuthenticationError, match="was removed"):
        ledger.adjust("mtd-5", ledger.definition("mtd-5").levels[0].level, by=PIT, reason="x",
                      meter_cents=1)  # fmt: skip


def test_verify_refuses_a_staff_event_made_by_someone_not_allowed(
    ledger: Ledger, tmp_path: Path
) -> None:
    """A logout of another member, forged past the trigger: the chain breaks, and without the
    key verify still names the actor who may not."""
    ledger.logout(DEALER)
    ledger.audit()
    without_append_only(ledger)
    _sql(ledger, "UPDATE ledger_events SET actor = :p, actor_role = 'pit-manager' "
         "WHERE kind = 'logout'", p=PIT)  # fmt: skip
    with pytest.raises(LedgerIntegrityError, match=r"\(logout\) does not match its mac"):
        ledger.audit()
    with (
        keyless(ledger, tmp_path) as other,
        pytest.raises(LedgerIntegrityError, match="a logout is one's own"),
    ):
        other.audit()

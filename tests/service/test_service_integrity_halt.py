"""A controller halted for an integrity fault (issue 27): the copy of the chain head beside the
ledger key deleted while ``croupier serve`` runs. Every login is refused before its credential is
looked at — the same 503 problem for the right and a wrong password, so the answer is no oracle —
every write and check is refused with that problem, and no problem names a server path; the
fault is told on stderr, since the ledger can record nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from croupier.progressive import Ledger
from croupier.progressive.checkpoint import ENV_CHECKPOINT_DIR
from croupier.service.app import ServiceConfig, create_app
from progressive_support import BACKENDS, DEALER, PIT, SHIFT, mtd_ledger, new_db_url, play, secret
from service_support import keyed


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from new_db_url(request.param, tmp_path)


def test_a_head_file_deleted_while_serving_halts_logins_and_writes_alike(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(ENV_CHECKPOINT_DIR, raising=False)
    with mtd_ledger(db_url) as led:
        play(led, "mtd-5", "r1", "BJ-1", [1, 2, 3])
        head = led.head_file
        key_file = led.key_file
    assert head is not None and key_file is not None
    with TestClient(create_app(ServiceConfig(db=db_url))) as c:
        ok = c.post("/token", data={"username": PIT, "password": secret(PIT)})
        assert ok.status_code == 200, ok.text
        bearer = {"Authorization": f"Bearer {ok.json()['access_token']}"}
        shift = c.post("/token", data={"username": SHIFT, "password": secret(SHIFT)})
        shift_bearer = {"Authorization": f"Bearer {shift.json()['access_token']}"}
        head.unlink()  # deleted behind the running service's back
        capsys.readouterr()

        right = c.post("/token", data={"username": DEALER, "password": secret(DEALER)})
        wrong = c.post("/token", data={"username": DEALER, "password": "not it"})
        adjust = c.post(
            "/progressives/mtd-5/adjust",
            json={"level": "Progressive", "meter": "1.00", "reason": "a test"},
            headers=keyed(bearer),
        )
        verify = c.get("/verify", headers=shift_bearer)
        checkpoint = c.get("/checkpoint", headers=shift_bearer)
        for r in (right, wrong, adjust, verify, checkpoint):
            assert r.status_code == 503, r.text
            assert "Retry-After" not in r.headers
            body = r.json()
            assert body["error_type"] == "LedgerHaltedError"
            assert "halted for an integrity fault" in body["detail"]
            assert "the copy of the chain head beside the ledger key is missing" in body["detail"]
            # no server path: neither the head file's nor the key's folder
            assert str(head) not in r.text and str(key_file.parent) not in r.text
        assert right.json() == wrong.json()  # the same answer: no oracle of the password
    # told on stderr, naming the file for the operator
    err = capsys.readouterr().err
    assert f"ledger halted: the copy of the chain head {head} is missing" in err
    # nothing was counted against the member: their lockout row is not moved by a halt
    with Ledger(db_url) as again:
        assert again.halted() is not None

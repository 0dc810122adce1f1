"""``GET /liability``, ``GET /contributions`` and ``GET /awards/{award_id}/slip`` answer what
``croupier meters liability | contributions | slip`` print, for the day with an award of
``progressive_support.day_with_an_award`` (figures by hand in
tests/progressive/test_progressive_liability.py), and refuse whom the command refuses."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from croupier.cli import app
from croupier.service.app import ServiceConfig, create_app
from progressive_support import DEALER, FLOOR, PIT, day_with_an_award, secret


@pytest.fixture(scope="module")
def ledger_day(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, datetime, int, int]:
    url = f"sqlite:///{tmp_path_factory.mktemp('liability-http') / 'day.sqlite3'}"
    ledger, start, big, small = day_with_an_award(url)
    ledger.close()
    return url, start, big, small


def run(who: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["meters", *args, "--as", who], env={"CROUPIER_PASSWORD": secret(who)}
    )
    return result.exit_code, result.stdout


def test_the_service_answers_what_the_command_prints(
    ledger_day: tuple[str, datetime, int, int],
) -> None:
    url, start, big, _ = ledger_day
    with TestClient(create_app(ServiceConfig(db=url))) as c:

        def auth(who: str) -> dict[str, str]:
            r = c.post("/token", data={"username": who, "password": secret(who)})
            assert r.status_code == 200, r.text
            return {"Authorization": f"Bearer {r.json()['access_token']}"}

        params = {"from": start.isoformat()}
        served = c.get("/liability", params=params, headers=auth(PIT))
        assert served.status_code == 200, served.text
        _, printed = run(PIT, "liability", "--db", url, "--from", start.isoformat(), "--json")
        assert served.json() == json.loads(printed)
        assert c.get("/liability", params=params, headers=auth(DEALER)).status_code == 403
        page = c.get("/liability", params={**params, "format": "html"}, headers=auth(PIT))
        assert page.headers["content-type"].startswith("text/html")
        found = c.get("/contributions", params=params, headers=auth(PIT)).json()
        assert {t["table"] for t in found["tables"]} == {"BJ-1", "BJ-2"}
        slip = c.get(f"/awards/{big}/slip", headers=auth(FLOOR))
        assert slip.status_code == 200 and "Five thousand four dollars and fifty cents" in slip.text
        assert c.get(f"/awards/{big}/slip", headers=auth(DEALER)).status_code == 403
        assert c.get("/awards/999999/slip", headers=auth(FLOOR)).status_code == 404

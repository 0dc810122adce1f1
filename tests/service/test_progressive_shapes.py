"""The progressive controller's, the reports' and the staff routes' answers are exactly their
models (croupier.operations.schemas: progressives, reports, staff) — a real ``croupier serve``
on SQLite: each body validates (unknown keys refused) and the model gives the same JSON back
(no key added, dropped or changed), and the OpenAPI names the model for each route (issue 29)."""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import BaseModel

from croupier.operations.schemas.progressives import (
    Adjusted,
    Award,
    Awards,
    Checkpoint,
    History,
    Linked,
    MetersStatus,
    Progressive,
    Reconfigured,
    SignificantEvents,
    SuspendedState,
    Verified,
    VoidedAward,
)
from croupier.operations.schemas.reports import HoldReport, Reconciliation, ReportRow
from croupier.operations.schemas.staff import (
    CredentialChanged,
    LoggedOut,
    MemberAdded,
    MemberRemoved,
    RoleChanged,
    Roster,
)
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    Server,
    keyed,
    pending_award,
    pp_round,
    serving,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("shapes")) as srv:
        yield srv


def exactly(model: type[BaseModel], r: httpx.Response, status: int = 200) -> dict[str, Any]:
    """``r``'s JSON body, checked to be ``model`` exactly: it validates, and the model writes
    the same JSON back."""
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    again = model.model_validate(body).model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert json.dumps(again) == json.dumps(body)  # the same keys, order and values
    return body


def test_the_progressive_routes_answer_their_models(server: Server) -> None:
    shift, pit = server.auth(SHIFT), server.auth(PIT)
    with server.client() as c:
        name = f"mtd-{uuid.uuid4().hex[:6]}"
        new = {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5", "name": name}
        made = exactly(Progressive, c.post("/progressives", json=new, headers=keyed(shift)), 201)
        assert made["suspended"] is None and made["pending"] == []
        table = f"BJ-{uuid.uuid4().hex[:6]}"
        linked = c.post(f"/progressives/{name}/links", json={"table": table}, headers=keyed(shift))
        exactly(Linked, linked, 201)
        paid = pending_award(server, c)
        exactly(
            Award, c.post(f"/awards/{paid['award']}/validate", headers=keyed(server.auth(FLOOR)))
        )
        voided = pending_award(server, c, "BJ-4")
        exactly(
            VoidedAward,
            c.post(
                f"/awards/{voided['award']}/void",
                json={"reason": "misread"},
                headers=keyed(server.auth(FLOOR)),
            ),
        )
        everyone = exactly(MetersStatus, c.get("/progressives", headers=pit))
        assert "history" not in everyone
        exactly(Progressive, c.get("/progressives/jp-5", headers=pit))
        exactly(History, c.get("/progressives/jp-5/history", headers=pit))
        shown = exactly(Awards, c.get("/awards", headers=pit))
        assert {"voided_by", "envy_for_position"} & {k for a in shown["awards"] for k in a}
        exactly(SignificantEvents, c.get("/significant-events", headers=shift))
        exactly(Verified, c.get("/verify", headers=pit))
        exactly(Checkpoint, c.get("/checkpoint", headers=shift))
        fix = {"level": "Progressive", "meter": "-1", "reason": "meter test"}
        exactly(Adjusted, c.post(f"/progressives/{name}/adjust", json=fix, headers=keyed(pit)))
        off = c.post(
            f"/progressives/{name}/suspend", json={"reason": "new rate"}, headers=keyed(pit)
        )
        assert exactly(SuspendedState, off)["suspended"] is True
        change = {"approval": "CHG-1", "rates": {"Progressive": "12%+3%"}, "seeds": {}}
        redone = c.post(f"/progressives/{name}/reconfigure", json=change, headers=keyed(shift))
        exactly(Reconfigured, redone)
        exactly(Progressive, c.get(f"/progressives/{name}", headers=pit))  # suspended: by whom
        back = c.post(f"/progressives/{name}/resume", headers=keyed(pit))
        assert exactly(SuspendedState, back)["suspended"] is False


def test_the_reports_answer_their_models(server: Server) -> None:
    pit = server.auth(PIT)
    with server.client() as c:
        pending_award(server, c, "BJ-2")  # a progressive's row: no par sheet, a note
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-2"},
            json=pp_round(f"pp-{uuid.uuid4().hex[:6]}"),
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 201, r.text
        report = exactly(Reconciliation, c.get("/reconciliation", headers=pit))
        assert report["progressives"]
        text = c.get("/reconciliation", params={"format": "csv"}, headers=pit).text
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows and list(rows[0]) == list(ReportRow.model_fields)
        for row in rows:
            ReportRow.model_validate(row)  # the CSV's text, as a reader takes it
        held = exactly(HoldReport, c.get("/hold-report", headers=pit))
        assert any("verdict" in row for row in held["rows"])
        assert any("note" in row for row in held["rows"])


def test_the_staff_routes_answer_their_models(server: Server) -> None:
    shift = server.auth(SHIFT)
    with server.client() as c:
        who = f"eve{uuid.uuid4().hex[:6]}"
        new = {"name": who, "role": "dealer", "password": "a long passphrase"}
        exactly(MemberAdded, c.post("/staff", json=new, headers=keyed(shift)), 201)
        role = c.post(f"/staff/{who}/role", json={"role": "floorperson"}, headers=keyed(shift))
        exactly(RoleChanged, role)
        cred = c.post(f"/staff/{who}/credential", json={"password": "x" * 20}, headers=keyed(shift))
        exactly(CredentialChanged, cred)
        token = c.post("/token", data={"username": who, "password": "x" * 20}).json()
        mine = {"Authorization": f"Bearer {token['access_token']}"}
        exactly(LoggedOut, c.post("/token/revoke", headers=mine))
        exactly(Roster, c.get("/staff", headers=shift))
        exactly(MemberRemoved, c.delete(f"/staff/{who}", headers=keyed(shift)))
        assert DEALER in {m["user"] for m in c.get("/staff", headers=shift).json()["staff"]}


ROUTES = {
    ("get", "/progressives"): "MetersStatus",
    ("post", "/progressives"): "Progressive",
    ("get", "/progressives/{name}"): "Progressive",
    ("post", "/awards/{award_id}/validate"): "Award",
    ("post", "/awards/{award_id}/void"): "VoidedAward",
    ("get", "/reconciliation"): "Reconciliation",
    ("get", "/hold-report"): "HoldReport",
    ("get", "/staff"): "Roster",
    ("post", "/token/revoke"): "LoggedOut",
}


def test_the_openapi_names_each_routes_model() -> None:
    from croupier.service.app import create_app

    spec = create_app().openapi()
    for (method, path), name in ROUTES.items():
        op = spec["paths"][path][method]
        ok = next(v for k, v in op["responses"].items() if k.startswith("2"))
        assert ok["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{name}"
        }, (method, path)
    csv_body = spec["paths"]["/reconciliation"]["get"]["responses"]["200"]["content"]["text/csv"]
    assert "paid_by_table_cents" in csv_body["schema"]["description"]

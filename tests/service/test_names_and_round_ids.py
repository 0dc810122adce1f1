"""Names and round ids (a fresh user's trial of the HTTP service): one rule per kind of name.

* Round ids had no rule: ``"a\\nb"``, ``"\\u202eevil"``, ``"m\\u200b1"`` (read as the stored ``m1``:
  the same round settled twice), ``" "`` and 5,000 × ``x`` were settled and stored. A round's id
  now follows the name rule of :mod:`croupier.names` as given, with no space and no character
  drawn like another — in round files (HTTP and ``croupier settle``) and on the ledger's library.
* ``/`` in a progressive's or a staff member's name made them unreachable over HTTP; a table id
  with a space could be linked but never opened. A table's id holds neither, anywhere; a
  progressive's and a member's name hold no ``/``. Names stored before the rule keep working.

Every expected message names the character the rule refuses, from the text of the rule.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import croupier.names
import croupier.progressive.rounds
from croupier.errors import ConfusableNameError, NameRuleError
from croupier.names import (
    PROGRESSIVE,
    STAFF,
    TABLE,
    checked_ledger_round_id,
    confusable_characters,
    normalize,
    round_id,
)
from croupier.progressive import Ledger, QualifyingHand, Role
from progressive_support import (
    BACKENDS,
    DEALER,
    SHIFT,
    add_staff,
    new_db_url,
    paytable_definition,
    secret,
)
from service_support import (
    BLACKJACK_SUBMISSION,
    Server,
    keyed,
    pp_round,
    serving,
)

TRIAL_IDS = {
    "a\nb": "U+000A LINE FEED",
    "\u202eevil": "U+202E RIGHT-TO-LEFT OVERRIDE",
    "m\u200b1": "U+200B ZERO WIDTH SPACE",
    " ": "needs an id",
    "x" * 5000: "at most 100 characters, not 5000",
    " m1": "no spaces around it",
    "m 1": "cannot hold a space (U+0020 SPACE)",
    "BJ/1": "cannot hold '/' (U+002F SOLIDUS)",
    "..": "cannot be '..'",
    "\u043c1": "U+043C CYRILLIC SMALL LETTER EM",  # drawn as the Latin m
    "\uff4d1": "U+FF4D FULLWIDTH LATIN SMALL LETTER M",
    "r\u20131": "U+2013 EN DASH",
    "Zoe\u0308": "Unicode NFC",
}
"""The trial's round ids and their kin, each with what the refusal must name."""


# -- the rule ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rid", "named"), TRIAL_IDS.items(), ids=range(len(TRIAL_IDS)))
def test_a_round_id_that_breaks_the_rule_is_refused_naming_why(rid: str, named: str) -> None:
    with pytest.raises(NameRuleError) as e:
        round_id(rid)
    assert named in str(e.value)
    assert "\n" not in str(e.value)  # one line, whatever the id held


@pytest.mark.parametrize("rid", ["m1", "r-17", "2026-12-01_0042", "R1", "round-1", "Zo\u00eb-1"])
def test_round_ids_of_the_rule_are_taken_as_given(rid: str) -> None:
    assert round_id(rid) == rid


def test_the_ledgers_round_id_is_table_slash_round_within_its_column() -> None:
    assert checked_ledger_round_id("BJ-1/r-17") == "BJ-1/r-17"
    assert (
        checked_ledger_round_id("BJ 1/r-17") == "BJ 1/r-17"
    )  # a table linked before the table rule
    with pytest.raises(NameRuleError, match="U\\+200B ZERO WIDTH SPACE"):
        checked_ledger_round_id("BJ-1/m\u200b1")
    with pytest.raises(NameRuleError, match="at most 100 characters, not 101"):
        checked_ledger_round_id("BJ-1/" + "x" * 96)


def test_only_characters_drawn_like_others_are_confusable_characters() -> None:
    assert confusable_characters("m1 R_1 O0 l1") == []  # ASCII differences a reader sees
    assert confusable_characters("\u0455am") == ["\u0455"]  # Cyrillic dze for s
    assert confusable_characters("\u0392J-1") == ["\u0392"]  # Greek capital beta for B
    assert confusable_characters("BJ\u22121") == ["\u2212"]  # MINUS SIGN
    assert confusable_characters("Zo\u00eb \u00e9t\u00e9") == []  # accents are letters


@pytest.mark.parametrize(
    ("what", "name", "named"),
    [
        (TABLE, "BJ 1", "a table's id cannot hold a space (U+0020 SPACE)"),
        (TABLE, "BJ/1", "a table's id cannot hold '/' (U+002F SOLIDUS)"),
        (PROGRESSIVE, "mtd/6", "a progressive's name cannot hold '/' (U+002F SOLIDUS)"),
        (STAFF, "eve/x", "a staff member's name cannot hold '/' (U+002F SOLIDUS)"),
        (STAFF, "..", "a staff member's name cannot be '..'"),
        (PROGRESSIVE, ".", "a progressive's name cannot be '.'"),
    ],
)
def test_each_kind_of_name_refuses_its_characters(what: str, name: str, named: str) -> None:
    with pytest.raises(NameRuleError) as e:
        normalize(what, name)
    assert str(e.value).startswith(named)


@pytest.mark.parametrize(("what", "name"), [(PROGRESSIVE, "Mega Jackpot"), (STAFF, "Dana Ortiz")])
def test_progressive_and_staff_names_may_hold_spaces(what: str, name: str) -> None:
    assert normalize(what, name) == name


# -- the ledger's library ------------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    urls = new_db_url(request.param, tmp_path)
    with Ledger(next(urls)) as led:
        add_staff(led)
        led.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "mtd-5"), tables=["BJ-1"], by=SHIFT
        )
        yield led
    urls.close()  # type: ignore[attr-defined]


def test_the_ledger_refuses_new_names_with_the_characters_of_their_kind(ledger: Ledger) -> None:
    before = ledger.event_count()
    with pytest.raises(NameRuleError, match="'/' \\(U\\+002F SOLIDUS\\)"):
        ledger.create_progressive(paytable_definition("633b.3", "1", 6, 100, "mtd/6"), by=SHIFT)
    with pytest.raises(NameRuleError, match="a space \\(U\\+0020 SPACE\\)"):
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 8, 100, "mtd-8"), tables=["BJ 1"], by=SHIFT
        )
    with pytest.raises(NameRuleError, match="a space \\(U\\+0020 SPACE\\)"):
        ledger.link_table("mtd-5", "BJ 2", by=SHIFT)
    with pytest.raises(NameRuleError, match="'/' \\(U\\+002F SOLIDUS\\)"):
        ledger.add_user("eve/x", Role.DEALER, secret("eve"), by=SHIFT)
    assert ledger.event_count() == before  # nothing written
    assert ledger.names() == ["mtd-5"]
    assert ledger.tables() == ["BJ-1"]


@pytest.mark.parametrize("rid", ["BJ-1/a\nb", "BJ-1/m\u200b1", " BJ-1/m1", "BJ-1/\u043c1"])
def test_the_ledgers_library_refuses_a_round_id_outside_the_rule(ledger: Ledger, rid: str) -> None:
    system = ledger.system("mtd-5")
    before = ledger.event_count()
    with pytest.raises(NameRuleError):
        system.accept_wagers(rid, "BJ-1", [1], by=DEALER)
    with pytest.raises(NameRuleError):
        system.play_round(rid, "BJ-1", [1], [], idempotency_key=f"k-{rid}", by=DEALER)
    with pytest.raises(NameRuleError):
        system.play_new_round(rid, "BJ-1", [1], [], idempotency_key=f"k-{rid}", by=DEALER)
    assert ledger.event_count() == before
    assert system.find_round(rid) is None


def test_names_stored_before_the_rule_keep_working(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ledger made before the rule: its names with "/" and its table with a space (made here
    with the rule lifted) are read, played and managed as before; only new ones are refused."""
    with monkeypatch.context() as m:
        m.setattr(croupier.names, "PATH_SEGMENTS", frozenset())
        m.setattr(croupier.names, "NO_SPACES", frozenset())
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 8, 500, "mtd/8"), tables=["BJ 9"], by=SHIFT
        )
        ledger.add_user("eve/x", Role.DEALER, secret("eve/x"), by=SHIFT)
    assert "mtd/8" in ledger.names() and "BJ 9" in ledger.tables()
    assert ledger.authenticate("eve/x", secret("eve/x")).role is Role.DEALER
    settled = ledger.system("mtd/8").play_round(
        "BJ 9/r-1", "BJ 9", [2], [QualifyingHand(2, "suited-match")],
        idempotency_key="mtd/8/BJ 9/r-1", by="eve/x",
    )  # fmt: skip
    assert settled.round_id == "BJ 9/r-1"
    ledger.set_role("eve/x", Role.FLOORPERSON, by=SHIFT)
    ledger.remove_user("eve/x", by=SHIFT)
    ledger.audit()
    with pytest.raises(NameRuleError, match="SOLIDUS"):  # a new member by it: still refused
        ledger.add_user("eve/y", Role.DEALER, secret("eve"), by=SHIFT)


# -- over HTTP -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-names")) as srv:
        yield srv


def _problem(r: httpx.Response, status: int, kind: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error_type"] == kind, body
    detail: str = body["detail"]
    assert "should match pattern" not in detail and "^[" not in detail  # words, not a regex
    return detail


@pytest.mark.parametrize(("rid", "named"), TRIAL_IDS.items(), ids=range(len(TRIAL_IDS)))
def test_a_round_file_whose_id_breaks_the_rule_is_refused_and_nothing_stored(
    server: Server, rid: str, named: str
) -> None:
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-7"},
            json=pp_round(rid),
            headers=keyed(server.auth(DEALER)),
        )
        assert named in _problem(r, 422, "NameRuleError")
        rounds = c.get("/rounds", params={"table": "BJ-7"}, headers=server.auth(DEALER)).json()
    assert [d["round"] for d in rounds["rounds"]] == []


def test_the_trial_round_m1_is_stored_once(server: Server) -> None:
    """BJ-4 is linked to jp-5: the second settlement was a second Jackpot Party round."""
    with server.client() as c:
        ok = c.post(
            "/rounds/settle",
            params={"table": "BJ-4"},
            json=pp_round("m1", jp=True),
            headers=keyed(server.auth(DEALER)),
        )
        assert ok.status_code == 201, ok.text
        again = c.post(
            "/rounds/settle",
            params={"table": "BJ-4"},
            json=pp_round("m\u200b1", jp=True),
            headers=keyed(server.auth(DEALER)),
        )
        assert "U+200B ZERO WIDTH SPACE" in _problem(again, 422, "NameRuleError")
        rounds = c.get("/rounds", params={"table": "BJ-4"}, headers=server.auth(DEALER)).json()
        history = c.get("/progressives/jp-5/history", headers=server.auth(DEALER)).json()
    assert [d["round"] for d in rounds["rounds"]] == ["m1"]
    rounds_fed = {e["round"] for e in history["history"] if e.get("table") == "BJ-4"}
    assert rounds_fed - {None} == {"BJ-4/m1"}  # (a link event names the table, no round)


@pytest.mark.parametrize(
    ("table", "named"),
    [
        ("BJ 1", "a table's id cannot hold a space (U+0020 SPACE)"),
        ("BJ\u200b1", "U+200B ZERO WIDTH SPACE"),
        (" BJ-1", "no spaces around it"),
        ("x" * 101, "at most 100 characters, not 101"),
    ],
)
def test_a_table_id_outside_the_rule_is_refused_in_words_everywhere(
    server: Server, table: str, named: str
) -> None:
    with server.client() as c:
        settle = c.post(
            "/rounds/settle",
            params={"table": table},
            json=pp_round("r-1"),
            headers=keyed(server.auth(DEALER)),
        )
        assert named in _problem(settle, 422, "NameRuleError")
        opened = c.post(
            "/tables",
            json={"table": table, "submission": BLACKJACK_SUBMISSION},
            headers=keyed(server.auth("pat")),
        )
        assert named in _problem(opened, 422, "NameRuleError")
        spec = {"paytable": "633b.3:1", "decks": 8, "amount": "$5", "name": "mtd-8-sp"}
        created = c.post(
            "/progressives", json={**spec, "tables": [table]}, headers=keyed(server.auth(SHIFT))
        )
        assert named in _problem(created, 422, "NameRuleError")
        linked = c.post(
            "/progressives/mtd-5/links", json={"table": table}, headers=keyed(server.auth(SHIFT))
        )
        assert named in _problem(linked, 422, "NameRuleError")
        listed = c.get("/progressives", headers=server.auth(SHIFT)).json()["progressives"]
    names = [p["name"] for p in listed]
    assert "mtd-8-sp" not in names  # refused whole: no progressive without its table


@pytest.mark.parametrize(
    ("path", "body", "named"),
    [
        (
            "/progressives",
            {"paytable": "633b.3:1", "decks": 6, "amount": "$5", "name": "mtd/6"},
            "a progressive's name cannot hold '/' (U+002F SOLIDUS)",
        ),
        (
            "/staff",
            {"name": "eve/x", "role": "dealer", "password": "eve's long passphrase"},
            "a staff member's name cannot hold '/' (U+002F SOLIDUS)",
        ),
    ],
)
def test_a_name_no_route_could_reach_is_refused(
    server: Server, path: str, body: dict[str, object], named: str
) -> None:
    with server.client() as c:
        r = c.post(path, json=body, headers=keyed(server.auth(SHIFT)))
        assert _problem(r, 422, "NameRuleError").startswith(named)


# -- the command line ----------------------------------------------------------------------------


def _settle(tmp_path: Path, name: str, data: dict[str, object]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    path.write_text(json.dumps({**data, "submission": BLACKJACK_SUBMISSION}), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "croupier", "settle", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(("rid", "named"), list(TRIAL_IDS.items())[:4], ids=range(4))
def test_croupier_settle_refuses_a_round_file_whose_id_breaks_the_rule(
    tmp_path: Path, rid: str, named: str
) -> None:
    steps = {k: v for k, v in pp_round(rid).items() if k != "submission"}
    p = _settle(tmp_path, "r.json", steps)
    assert p.returncode == 2
    assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1  # one line
    assert named in p.stderr and "NameRule" not in p.stdout


def test_a_round_file_named_by_its_file_follows_the_rule_when_fed(tmp_path: Path) -> None:
    from croupier.table.progressive import round_id_of

    spaced = tmp_path / "round 1.json"
    spaced.write_text(json.dumps({"steps": []}), encoding="utf-8")
    with pytest.raises(NameRuleError, match="cannot hold a space") as e:
        round_id_of(spaced)
    assert 'give the round an "id"' in " ".join(e.value.__notes__)
    assert round_id_of(tmp_path / "r-1.json") == "r-1"


def test_croupier_meters_prints_a_stored_odd_id_on_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pending award of a round whose id was stored before the rule (a newline in it, an
    RTL override): the pending-award table keeps one row, the id shown escaped."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    with Ledger(url) as led:
        add_staff(led)
        led.create_progressive(
            paytable_definition("633b.2", "P1", 6, 500, "jp-5"), tables=["BJ-1"], by=SHIFT
        )
        with monkeypatch.context() as m:
            m.setattr(croupier.names, "checked_ledger_round_id", lambda rid: rid)
            m.setattr(croupier.progressive.rounds, "checked_ledger_round_id", lambda rid: rid)
            led.system("jp-5").play_round(
                "BJ-1/a\nb\u202eevil", "BJ-1", [1], [QualifyingHand(1, "royal-flush-diamonds")],
                idempotency_key="old", by=DEALER,
            )  # fmt: skip
    p = subprocess.run(
        [sys.executable, "-m", "croupier", "meters", "--db", url],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "COLUMNS": "200"},
    )
    assert p.returncode == 0, p.stderr
    row = [line for line in p.stdout.splitlines() if "BJ-1/a" in line]
    assert len(row) == 1
    assert "BJ-1/a\\nb\\u202eevil" in row[0]
    assert "\u202e" not in p.stdout


def test_a_confusable_table_is_still_refused_after_the_rule(ledger: Ledger) -> None:
    with pytest.raises(ConfusableNameError, match="'BJ-1'"):
        ledger.link_table("mtd-5", "bj-1", by=SHIFT)


def _legacy_pending_award(url: str, monkeypatch: pytest.MonkeyPatch, rid: str) -> None:
    """A Royal Flush in diamonds on jp-5 at BJ-3 whose ledger round id was stored before the rule
    (the rule lifted while it is played): 100% of the progressive, pending validation."""
    with monkeypatch.context() as m, Ledger(url) as led:
        m.setattr(croupier.progressive.rounds, "checked_ledger_round_id", lambda rid: rid)
        led.system("jp-5").play_round(
            rid, "BJ-3", [1], [QualifyingHand(1, "royal-flush-diamonds")],
            idempotency_key=f"legacy-{rid!r}", by=DEALER,
        )  # fmt: skip


@pytest.mark.browser
def test_the_pit_page_shows_a_stored_odd_round_id_escaped(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("no Chromium at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is missing")
    _legacy_pending_award(server.url, monkeypatch, "BJ-3/a\nb\u202eevil")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), headless=True)
        try:
            page = browser.new_page()
            page.goto(server.base + "/pit")
            form = page.locator("#login")
            form.get_by_label("Name", exact=True).fill(DEALER)
            form.get_by_label("Password", exact=True).fill(secret(DEALER))
            form.get_by_role("button", name="Log in").click()
            row = page.locator("#pending tbody tr[data-award]").filter(has_text="BJ-3")
            sync_api.expect(row).to_have_count(1)
            text = row.inner_text()
        finally:
            browser.close()
    assert "BJ-3/a\\nb\\u202eevil" in text  # as `croupier meters` prints it
    assert "\u202e" not in text and "a\nb" not in text

"""The trial's wording and citation findings, each where a client meets it (a real server on
SQLite) or in the library that makes it: a form route asked with JSON, a CLI option named over
HTTP, a role that is a department, the action a refusal stops, a control character's name, who
reads the roster, a key that is not ASCII, an amount over the limit, a phase in prose, the
paragraph a void answers to, and "No more bets" at a table without Jackpot Party."""

from __future__ import annotations

import copy
import tomllib
import unicodedata
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from croupier.errors import LockoutError, ProcedureError
from croupier.names import CONTROL_NAMES, char_name
from croupier.progressive import Role
from croupier.table import TableRound, submission_from_data
from croupier.table.progressive import round_content
from croupier.table.round import DealtCards
from progressive_support import secret
from repo_paths import ROOT
from service_support import (
    DEALER,
    FLOOR,
    PIT,
    SHIFT,
    Server,
    keyed,
    pending_award,
    pp_round,
    royal_round,
    serving,
)

ACCT, AUDIT = "acct", "audrey"
EXAMPLES = ROOT / "examples" / "submissions"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-words")) as srv:
        with srv.client() as c:
            for name, role in ((ACCT, "accounting"), (AUDIT, "auditor")):
                member = {"name": name, "role": role, "password": secret(name)}
                r = c.post("/staff", json=member, headers=keyed(srv.auth(SHIFT)))
                assert r.status_code == 201, r.text
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def detail(r: httpx.Response) -> str:
    text: str = r.json()["detail"]
    return text


def test_a_login_sent_as_json_says_the_form_it_takes(server: Server) -> None:
    with server.client() as c:
        r = c.post("/token", json={"username": DEALER, "password": secret(DEALER)})
        assert r.status_code == 415, r.text
        assert detail(r) == (
            "POST /token reads form fields (username and password), as OAuth2's password "
            "grant: send them with Content-Type: application/x-www-form-urlencoded "
            "(username=…&password=…), not application/json"
        )
        ok = c.post("/token", data={"username": DEALER, "password": secret(DEALER)})
        assert ok.status_code == 200, ok.text


def test_http_names_the_body_field_not_the_cli_option(server: Server) -> None:
    with server.client() as c:
        spec = {"paytable": "perfect-pairs:A", "decks": 6, "amount": "$5", "name": uid("pp")}
        r = c.post("/progressives", json=spec, headers=keyed(server.auth(SHIFT)))
        assert r.status_code == 422, r.text
        assert detail(r).startswith(
            "the paytable field 'perfect-pairs:A': 'perfect-pairs' is not a progressive wager"
        ), detail(r)
        shapeless = c.post(
            "/progressives", json={**spec, "paytable": "P1"}, headers=keyed(server.auth(SHIFT))
        )
        assert detail(shapeless).startswith("the paytable field is SECTION:PAYTABLE")
        change = {"approval": "CHG-1", "seeds": {"Progressive": "$6,000"}}
        inplay = c.post(
            "/progressives/mtd-5/reconfigure", json=change, headers=keyed(server.auth(SHIFT))
        )
        assert inplay.status_code == 409, inplay.text
        assert "suspend it first (POST /progressives/mtd-5/suspend)" in detail(inplay)
        for refused in (r, shapeless, inplay):
            assert "--" not in detail(refused) and "croupier meters" not in detail(refused)


def test_a_role_is_said_as_a_noun_and_the_action_is_named(server: Server) -> None:
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            json=pp_round(uid("r")),
            headers=keyed(server.auth(ACCT)),
        )
        assert r.status_code == 403, r.text
        assert detail(r) == (
            "acct is in accounting (a role that reads and changes nothing); recording a round "
            "needs a dealer or above (58 Pa. Code § 605a.7)"
        )
        demote = c.post(
            f"/staff/{SHIFT}/role", json={"role": "accounting"}, headers=keyed(server.auth(SHIFT))
        )
        assert demote.status_code == 409, demote.text
        assert detail(demote) == (
            "moving 'sam' to accounting would leave the ledger without a shift manager ('sam' "
            "is the only one, and a shift manager manages staff): add or promote another first"
        )
        down = c.post(
            f"/staff/{SHIFT}/role", json={"role": "pit-manager"}, headers=keyed(server.auth(SHIFT))
        )
        assert detail(down).startswith("making 'sam' a pit-manager would leave the ledger")
        gone = c.delete(f"/staff/{SHIFT}", headers=keyed(server.auth(SHIFT)))
        assert detail(gone).startswith("removing 'sam' would leave the ledger")


def test_the_roster_refusal_says_who_reads_it(server: Server) -> None:
    with server.client() as c:
        r = c.get("/staff", headers=server.auth(PIT))
        assert r.status_code == 403, r.text
        assert detail(r) == (
            "pat is a pit-manager; reading the staff roster needs a shift-manager or above, or "
            "an auditor (58 Pa. Code § 605a.7)"
        )
        assert c.get("/staff", headers=server.auth(AUDIT)).status_code == 200
        report = c.get("/rounds/summary", headers=server.auth(DEALER))
        assert report.status_code == 403
        assert "needs a pit-manager or above, accounting or an auditor" in detail(report)
        assert c.get("/rounds/summary", headers=server.auth(ACCT)).status_code == 200


def test_a_newline_in_a_name_is_named_line_feed(server: Server) -> None:
    with server.client() as c:
        member = {"name": "an\nn", "role": "dealer", "password": secret("ann")}
        r = c.post("/staff", json=member, headers=keyed(server.auth(SHIFT)))
        assert r.status_code == 422, r.text
        assert detail(r).endswith("'an\\nn' holds U+000A LINE FEED")


def test_control_characters_have_their_names() -> None:
    for code, name in CONTROL_NAMES.items():  # each is Unicode's own alias for it
        assert unicodedata.lookup(name) == chr(code), name
    assert char_name("\n") == "U+000A LINE FEED"
    assert char_name("\t") == "U+0009 CHARACTER TABULATION"
    assert char_name("\x7f") == "U+007F DELETE"
    assert char_name("\u200b") == "U+200B ZERO WIDTH SPACE"
    assert char_name("\ue000") == "U+E000 a private-use character"


def test_a_key_that_is_not_ascii_is_refused_saying_so(server: Server) -> None:
    with server.client() as c:
        token = server.auth(DEALER)["Authorization"].encode()
        headers = [(b"Authorization", token), (b"Idempotency-Key", "ключ-ü".encode())]  # UTF-8
        r = c.post(
            "/rounds/settle", params={"table": "BJ-1"}, json=pp_round(uid("r")), headers=headers
        )
        assert r.status_code == 400, r.text
        assert detail(r).startswith(
            "Idempotency-Key is 1–200 printable ASCII characters (letters, digits, punctuation"
        )
        assert "this one holds other characters" in detail(r)


def test_an_amount_over_the_limit_names_the_limit(server: Server) -> None:
    body = pp_round(uid("big"))
    body["steps"][0]["amount"] = "$99999999999999999999999999"
    with server.client() as c:
        r = c.post(
            "/rounds/settle",
            params={"table": "BJ-1"},
            json=body,
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 422, r.text
        assert detail(r) == (
            "step 1 (bet): '$99999999999999999999999999' is over croupier's limit: at most 9 "
            "digits of dollars ($999,999,999.99)"
        )


def test_a_void_by_a_dealer_cites_the_paragraph_a_void_answers_to(server: Server) -> None:
    table = uid("BJ")
    with server.client() as c:
        spec = {"paytable": "jackpot-party:P1", "decks": 6, "amount": "$5", "name": uid("jp"),
                "tables": [table]}  # fmt: skip
        assert c.post("/progressives", json=spec, headers=keyed(server.auth(SHIFT))).is_success
        r = c.post(
            "/rounds/settle",
            params={"table": table},
            json=royal_round("r1"),
            headers=keyed(server.auth(DEALER)),
        )
        assert r.status_code == 201, r.text
        award = r.json()["progressives"][0]["awards"][0]["award"]
        no = c.post(
            f"/awards/{award}/void", json={"reason": "x"}, headers=keyed(server.auth(DEALER))
        )
        assert no.status_code == 403, no.text
        assert no.json()["section"] == "633b.2(h)(1)"  # verify that the hand is a winning hand
        assert detail(no) == (  # refused before the award is looked up: both games' paragraph
            "dana is a dealer; voiding a progressive payout (a hand found not to be a winning "
            "one) needs a floorperson or above (58 Pa. Code § 633b.2(h)(1); 58 Pa. Code "
            "§ 633b.3(h)(1))"
        )
        ok = c.post(f"/awards/{award}/validate", headers=keyed(server.auth(DEALER)))
        assert ok.json()["section"] == "633b.2(h)(3)"  # validation is (h)(3)
        done = c.post(
            f"/awards/{award}/void", json={"reason": "x"}, headers=keyed(server.auth(FLOOR))
        )
        assert done.status_code == 200, done.text


def test_a_settle_step_sent_again_under_a_new_key_names_the_round_it_settled(
    server: Server,
) -> None:
    table = uid("T")
    plain = {**copy.deepcopy(pp_round("x")["submission"]), "name": "plain"}
    plain["wagers"] = [w for w in plain["wagers"] if "amounts" not in w]
    with server.client() as c:
        opened = c.post(
            "/tables", json={"table": table, "submission": plain}, headers=keyed(server.auth(PIT))
        )
        assert opened.status_code == 201, opened.text
        steps = f"/tables/{table}/steps"
        first = c.post(steps, json={"action": "settle"}, headers=keyed(server.auth(DEALER)))
        assert first.status_code == 422, first.text  # round-1 has no bet: the procedure's words
        assert detail(first) == (
            "step 1 (settle): settle is not allowed while betting is open (allowed: bet) "
            "(58 Pa. Code § 633b.1(d))"
        )
        for step in (
            {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$10"},
            {"action": "no-more-bets"},
            {"action": "deal", "players": {"1": "Kd Qd"}, "dealer": "9c 8h"},
            {"action": "stand", "seat": 1},
            {"action": "settle"},
        ):
            r = c.post(steps, json=step, headers=keyed(server.auth(DEALER)))
            assert r.status_code == 200, r.text
        again = c.post(steps, json={"action": "settle"}, headers=keyed(server.auth(DEALER)))
        assert again.status_code == 409, again.text
        assert detail(again) == (
            f"table {table}'s round round-2 has no bet yet: there is nothing to settle; its last "
            f"round, round-1, was settled and stored (GET /rounds/{table}/round-1, its awards as "
            "the ledger has them now) — a settle step sent again under a new Idempotency-Key "
            "settles nothing twice; nothing changed"
        )


# -- "No more bets" cites the table's own rule --------------------------------------------------

BASE: dict[str, Any] = {
    "game": "blackjack",
    "name": "t",
    "decks": 6,
    "dealer": "S17",
    "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
}
PP = {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"}
JP = {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]}
MTD = {"wager": "match-the-dealer", "paytable": "1", "amounts": ["$5"]}


def locked(*offered: dict[str, Any]) -> TableRound:
    data = copy.deepcopy(BASE)
    data["wagers"] += offered
    r = TableRound.open(submission_from_data(data, "t")).bet(1, "blackjack", 1000)
    return r.no_more_bets()


@pytest.mark.parametrize(
    ("offered", "section"),
    [
        ((), "633a.6(d)"),  # the Blackjack wager placed before the deal
        ((PP,), "633b.1(d)"),  # Perfect Pairs: "the dealer shall deal the cards"
        ((PP, JP), "633b.2(d)(2)"),  # the progressive table game system's lock-out
        ((MTD,), "633b.3(d)(2)"),
    ],
)
def test_no_more_bets_cites_a_rule_of_the_table(
    offered: tuple[dict[str, Any], ...], section: str
) -> None:
    r = locked(*offered)
    (ev,) = [e for e in r.events if e.action.value == "no-more-bets"]
    assert ev.section == section
    with pytest.raises(LockoutError) as exc:  # a late Blackjack wager
        r.bet(2, "blackjack", 1000)
    assert exc.value.section == ("633b.1(d)" if PP in offered else "633a.6(d)")


@pytest.mark.parametrize(
    ("offered", "section"),
    [
        ((), "633a.7"),  # the base game's dealing and completion, which § 633b.1(d) refers to
        ((JP,), "633a.7"),
        ((MTD,), "633a.7"),
        ((PP,), "633b.1(d)"),  # Perfect Pairs: "the dealer shall deal the cards"
        ((PP, JP), "633b.1(d)"),
    ],
)
def test_the_deal_and_the_settlement_cite_a_rule_of_the_table(
    offered: tuple[dict[str, Any], ...], section: str
) -> None:
    """A Blackjack table without Perfect Pairs records its deal and its settlement, and refuses
    a step out of phase, under § 633a.7 — never § 633b.1(d), a wager it does not offer."""
    r = locked(*offered)
    with pytest.raises(ProcedureError) as exc:  # settled before the deal
        r.settle()
    assert exc.value.section == section
    done = r.deal(DealtCards(players={1: "Ts 9h"}, dealer="Kd 9c")).stand(1).settle()
    cited = {e.action.value: e.section for e in done.events}
    assert (cited["deal"], cited["settle"]) == (section, section)


def other_game(example: str, keep: set[str]) -> TableRound:
    """A table of ``example``'s game offering only the wagers ``keep``, one base wager placed."""
    data = tomllib.loads((EXAMPLES / f"{example}.toml").read_text(encoding="utf-8"))
    data["wagers"] = [w for w in data["wagers"] if w["wager"] in keep]
    base = {"baccarat-8deck": "player", "criss-cross-poker": "criss-cross"}[example]
    sub = submission_from_data(data, "t")
    by = "croupier" if sub.base.croupier_settles else "external"  # Criss-Cross Poker: external
    return TableRound.open(sub, base_game=by).bet(1, base, 2500)


@pytest.mark.parametrize(
    ("example", "keep", "cited"),
    [  # (no more bets, deal, settle): the base chapter's paragraphs without the side wager
        ("baccarat-8deck", {"player", "banker"}, ("631a.8(a)", "631a.9", "631a.12")),
        ("baccarat-8deck", {"player", "fortune-7"}, ("631c.3(c)", "631a.9", "631c.3(c)")),
        ("criss-cross-poker", {"criss-cross"}, ("674a.7(d)", "674a.11", "674a.11")),
        ("criss-cross-poker", {"criss-cross", "ultimate-pairs"}, ("674b.1(c)",) * 3),
    ],
)
def test_other_games_cite_the_side_wager_only_where_it_is_offered(
    example: str, keep: set[str], cited: tuple[str, str, str]
) -> None:
    """§ 631c.3(d) deals "in accordance with § 631a.9(b)—(f)" and completes the round under
    § 631a.10—631a.12; § 674b.1(c), (d) under § 674a.11: a table without the side wager cites
    those instead (the Baccarat deal is § 631a.9 at every table)."""
    done = other_game(example, keep).no_more_bets().deal_shoe(7).settle()
    by = {e.action.value: e.section for e in done.events}
    assert (by["no-more-bets"], by["deal"], by["settle"]) == cited


def test_a_rounds_identity_does_not_change_with_its_citation() -> None:
    """A round stored before "No more bets" cited the table's own rule is the same round: its
    content digest counts the event with the base game's lock-out, § 633b.2(d)(2), as then."""
    r = locked(PP).deal(DealtCards(players={1: "8s 8s"}, dealer="Kd 9c"))
    same = locked(PP, JP).deal(DealtCards(players={1: "8s 8s"}, dealer="Kd 9c"))
    assert [e.section for e in r.events] != [e.section for e in same.events]
    before = [e.to_json() for e in r.events]
    assert before[2]["section"] == "633b.1(d)"
    # by hand: the digest of the round as the record was before, the event citing § 633b.2(d)(2)
    import hashlib
    import json

    before[2] = {**before[2], "section": "633b.2(d)(2)", "citation": "58 Pa. Code § 633b.2(d)(2)"}
    data = {
        "game": "blackjack",
        "decks": 6,
        "bets": [[1, "blackjack", 1000, None]],
        "cards": [str(c) for c in r.cards.every_card()] if r.cards is not None else None,
        "events": before,
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert round_content(r) == hashlib.sha256(text.encode()).hexdigest()


def test_role_words() -> None:
    assert [r.said for r in Role] == [
        "a dealer",
        "a floorperson",
        "a pit-manager",
        "an assistant-shift-manager",
        "a shift-manager",
        "in accounting",
        "an auditor",
    ]
    assert Role.SHIFT_MANAGER.who_may(reading=True) == "a shift-manager or above, or an auditor"
    assert Role.PIT_MANAGER.who_may(reading=True) == (
        "a pit-manager or above, accounting or an auditor"
    )
    assert Role.ASSISTANT_SHIFT_MANAGER.who_may() == "an assistant-shift-manager or above"


def test_the_phase_in_prose() -> None:
    r = locked(PP)
    with pytest.raises(ProcedureError) as exc:
        r.no_more_bets()
    assert str(exc.value) == (
        'no-more-bets is not allowed after "No more bets" (allowed: deal) (58 Pa. Code § 633b.1(d))'
    )


def test_a_step_stored_before_its_fields_were_checked_replays() -> None:
    """A step an open table stored when a field its action does not read was dropped unread
    replays as it was taken (stored_step); the same step posted now is refused."""
    from croupier.table.steps import StandStep, parse_step, stored_step

    taken = {"action": "stand", "seat": 1, "card": "5h"}
    assert stored_step(taken) == StandStep(action="stand", seat=1)
    with pytest.raises(ValueError, match="a stand step takes 'seat', not 'card'"):
        parse_step(taken)


def test_a_role_that_only_reads_is_refused_the_rule_of_what_it_tried(server: Server) -> None:
    """The trial: accounting validating, voiding or suspending was told each "needs a dealer or
    above (§ 605a.7)" — the route's token gate, not the rule. The ledger answers every role with
    the operation's own: a floorperson or above validates (§ 633b.2(h)(3)) and voids ((h)(1)) a
    Jackpot Party award; a pit manager suspends."""
    with server.client() as c:
        award = pending_award(server, c, "BJ-4")
        for who in (ACCT, AUDIT):
            for path, body, needs in (
                (f"/awards/{award['award']}/validate", None, "633b.2(h)(3)"),
                (f"/awards/{award['award']}/void", {"reason": "r"}, "633b.2(h)(1)"),
                ("/progressives/jp-5/suspend", {"reason": "r"}, None),
            ):
                refused = c.post(path, json=body, headers=keyed(server.auth(who)))
                assert refused.status_code == 403, (who, path, refused.text)
                said = refused.json()
                assert "dealer or above" not in said["detail"], said["detail"]
                if needs is not None:
                    assert said["section"] == needs, (who, path, said)
                    assert "floorperson or above" in said["detail"], said["detail"]
                else:
                    assert "pit-manager or above" in said["detail"], said["detail"]


def test_a_suspended_progressive_says_so_and_why(server: Server) -> None:
    """The trial: after a suspension no read of the progressive said it was suspended, and a bet
    was refused as "suspended for a reconfiguration" whatever the reason given."""
    with server.client() as c:
        name = "mtd-1"
        why = {"reason": "meter display fault"}
        assert c.post(f"/progressives/{name}/suspend", json=why, headers=keyed(server.auth(PIT)))
        shown = c.get(f"/progressives/{name}", headers=server.auth(DEALER)).json()
        assert shown["suspended"]["reason"] == "meter display fault"
        assert shown["suspended"]["by"] == PIT and shown["suspended"]["since"]
        listed = c.get("/progressives", headers=server.auth(DEALER)).json()["progressives"]
        assert [p["suspended"] is not None for p in listed if p["name"] == name] == [True]
        round_ = royal_round(uid("off"))
        round_["steps"][1] = {**round_["steps"][1], "wager": "match-the-dealer", "amount": "$1"}
        refused = c.post(
            "/rounds/settle",
            params={"table": "BJ-4"},
            json=round_,
            headers=keyed(server.auth(DEALER)),
        )
        assert refused.status_code == 422, refused.text
        assert "for a reconfiguration" not in refused.json()["detail"]
        assert f"GET /progressives/{name}" in refused.json()["detail"]
        assert c.post(f"/progressives/{name}/resume", headers=keyed(server.auth(PIT))).is_success
        back = c.get(f"/progressives/{name}", headers=server.auth(DEALER)).json()
        assert back["suspended"] is None


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/progressives/mtd-5/links", {"table": "BJ-9"}),
        ("/progressives/mtd-5/adjust", {"level": "Progressive", "meter": "1", "reason": "t"}),
        ("/progressives/mtd-5/reconfigure", {"approval": "A", "rates": {"Progressive": "12%"}}),
        ("/progressives", {"paytable": "match-the-dealer:1", "decks": 6, "amount": "$5",
                           "name": "ro-x"}),
    ],
)  # fmt: skip
def test_no_route_lets_a_role_that_only_reads_change_anything(
    server: Server, path: str, body: dict[str, Any]
) -> None:
    """The controller's routes take any member's token and leave the role to the ledger: each
    refuses accounting and an auditor, naming who may (never the token gate's dealer; starting a
    simulation is a dealer's, BY_AN_AUDITOR in test_http_problems)."""
    with server.client() as c:
        for who in (ACCT, AUDIT):
            r = c.post(path, json=body, headers=keyed(server.auth(who)))
            assert r.status_code == 403, (who, path, r.text)
            assert "reads and changes nothing" in r.json()["detail"], r.json()["detail"]
            assert "dealer or above" not in r.json()["detail"], r.json()["detail"]

"""``POST /progressives`` creates every progressive ``croupier meters create`` can, with its
options, checks and words (the trial: a Four Card Poker progressive on its EXAMPLE paytable was a
404 over HTTP — "§ 641a.7 has no paytable 'example-four-card-progressive'" — though the CLI
made it, and the body had no ``reseed``, ``hit_policy``, ``limits`` or ``submission``).

Both call :func:`croupier.progressive.create.new_definition`; these tests make the same
progressive both ways against one ledger and compare what the ledger holds, and refuse the same
mistakes both ways in the same words (each naming its own option or field).
"""

from __future__ import annotations

import json
import os
import tomllib
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from typer.testing import CliRunner

from cli_support import run_main
from croupier.cli import app
from progressive_support import secret
from repo_paths import ROOT
from service_support import DEALER, PIT, SHIFT, Server, keyed, serving

EXAMPLES = ROOT / "examples"
FCP_TOML = EXAMPLES / "submissions" / "four-card-poker-progressive.toml"
FCP_SUBMISSION: dict[str, Any] = tomllib.loads(FCP_TOML.read_text(encoding="utf-8"))
FOUR = "four-card-progressive:example-four-card-progressive"
FIVE = "five-card-progressive:example-five-card-progressive"

runner = CliRunner()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-fcp-create")) as srv:
        yield srv


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def cli_create(server: Server, *args: str) -> tuple[int, Any]:
    """``croupier meters create ARGS --json`` as the shift manager, on the server's ledger,
    through the console script's entry point: the exit status and the JSON printed (the
    progressive, or ``{"error": …}``)."""
    with mock.patch.dict(os.environ, {"CROUPIER_PASSWORD": secret(SHIFT)}):
        run = run_main(["meters", "create", *args, "--as", SHIFT, "--db", server.url, "--json"])
    return run.code, json.loads(run.out)


def http_create(server: Server, body: dict[str, Any]) -> Any:
    with server.client() as c:
        return c.post("/progressives", json=body, headers=keyed(server.auth(SHIFT)))


def digests() -> dict[str, Any]:
    """``croupier check --json --digests`` of the Four Card Poker progressive submission: the
    submission's and each paytable's SHA-256, as the CLI prints them."""
    result = runner.invoke(app, ["check", str(FCP_TOML), "--json", "--digests"])
    assert result.exit_code == 0, result.output
    (found,) = json.loads(result.stdout).values()
    return dict(found)


DEFINITION = (
    "section",
    "paytable",
    "decks",
    "wager_cents",
    "reset_timing",
    "envy_rule",
    "reseed_funding",
    "paytable_sha256",
    "submission_sha256",
    "hit_policy",
)


def definition(status: dict[str, Any]) -> dict[str, Any]:
    """What a progressive's status says of its definition (not its name, tables or play)."""
    levels = [
        {k: lv[k] for k in ("level", "seed_cents", "primary_rate", "secondary_rate", "limit_cents")}
        for lv in status["levels"]
    ]
    return {**{k: status[k] for k in DEFINITION}, "levels": levels}


def test_a_four_card_progressive_is_created_over_http_with_every_option_of_the_cli(
    server: Server,
) -> None:
    name = uid("fcp")
    body = {
        "paytable": FOUR,
        "decks": 1,
        "amount": "$1",
        "name": name,
        "tables": [uid("4CP")],
        "reset_timing": "on-award",
        "hit_policy": "first-takes-meter",
        "reseed": "house",
        "limits": {"Progressive": "$50,000"},
        "submission": FCP_SUBMISSION,
    }
    r = http_create(server, body)
    assert r.status_code == 201, r.text
    made = r.json()
    # the EXAMPLE paytable (src/croupier/paytables/examples/641a.7-examples.toml): $1 wagers,
    # one Progressive level seeded at $500 with a 15% increment rate; § 641a.7(d)(4), 1 deck
    assert (made["section"], made["paytable"], made["decks"], made["wager_cents"]) == (
        "641a.7",
        "example-four-card-progressive",
        1,
        100,
    )
    (lv,) = made["levels"]
    assert (lv["level"], lv["seed_cents"], lv["primary_rate"], lv["limit_cents"]) == (
        "Progressive",
        50_000,
        "15%",
        5_000_000,
    )
    assert (made["reset_timing"], made["hit_policy"], made["reseed_funding"]) == (
        "on-award",
        "first-takes-meter",
        "house",
    )
    # the digests the approved configuration is checked against: `croupier check`'s
    checked = digests()
    assert made["submission_sha256"] == checked["submission_sha256"]
    assert made["paytable_sha256"] == checked["paytables_sha256"][FOUR]

    # the CLI, with the same options, makes the same progressive
    code, by_cli = cli_create(
        server,
        *("--paytable", FOUR, "--decks", "1", "--amount", "1", "--name", uid("fcp-cli")),
        *("--reset-timing", "on-award", "--hit-policy", "first-takes-meter"),
        *("--reseed", "house", "--limit", "Progressive=50000", "--submission", str(FCP_TOML)),
    )
    assert code == 0, by_cli
    assert definition(by_cli) == definition(made)


def test_a_five_card_progressive_and_its_defaults_as_the_cli_makes_them(server: Server) -> None:
    r = http_create(server, {"paytable": FIVE, "decks": 1, "amount": "1", "name": uid("fcp5")})
    assert r.status_code == 201, r.text
    code, by_cli = cli_create(
        server, "--paytable", FIVE, "--decks", "1", "--amount", "1", "--name", uid("fcp5-cli")
    )
    assert code == 0, by_cli
    assert definition(r.json()) == definition(by_cli)
    (lv,) = r.json()["levels"]
    assert lv["seed_cents"] == 2_500_000  # "$25,000" in the EXAMPLE paytable
    assert (r.json()["reset_timing"], r.json()["reseed_funding"], r.json()["hit_policy"]) == (
        "on-validation",  # the defaults of `croupier meters create`
        "reserve",
        None,
    )


def test_a_table_on_progressives_made_over_http_opens_and_plays(server: Server) -> None:
    """examples/rounds/four-card-progressive-award.json's round at a table opened with
    ``POST /tables`` on two progressives made with ``POST /progressives``. By hand: two $1
    Five-Card Progressive wagers add 2 × 15% × $1 = $0.30 to the $25,000 seed before seat 1's
    royal flush takes 100% of it (§ 641a.7(d)(5)): an award of $25,000.30 pending validation;
    seat 2's envy bonus for it is $1,000 (the paytable's envy on a royal flush)."""
    table, four, five = uid("4CP"), uid("fcp4"), uid("fcp5")
    for paytable, name in ((FOUR, four), (FIVE, five)):
        spec = {"paytable": paytable, "decks": 1, "amount": "$1", "name": name, "tables": [table]}
        assert http_create(server, spec).status_code == 201
    steps = json.loads((EXAMPLES / "rounds" / "four-card-progressive-award.json").read_text())
    with server.client() as c:
        opened = c.post(
            "/tables",
            json={"table": table, "submission": FCP_SUBMISSION, "progressives": [four, five]},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        for step in steps["steps"]:
            r = c.post(f"/tables/{table}/steps", json=step, headers=keyed(server.auth(DEALER)))
            assert r.status_code == 200, (step, r.text)
        (award,) = c.get(
            "/awards", params={"progressive": five, "status": "pending"}, headers=server.auth(SHIFT)
        ).json()["awards"]
        assert (award["position"], award["amount_cents"], award["share"]) == (1, 2_500_030, "100%")
        paid = c.get("/awards", params={"progressive": five}, headers=server.auth(SHIFT)).json()
        envy = [a for a in paid["awards"] if a["kind"] == "envy"]
        assert [(a["position"], a["amount_cents"]) for a in envy] == [(2, 100_000)]


WORDS = {
    "--paytable": "the paytable field",
    "--amount": "the amount field",
    "--limit Progressive": "the limit of Progressive",
}
"""What the CLI's message calls an input and what the service's calls it."""


@pytest.mark.parametrize(
    ("body", "args", "kind", "section"),
    [
        # § 633b.3(b): Match the Dealer is dealt from six or eight decks
        (
            {"paytable": "match-the-dealer:1", "decks": 2, "amount": "$5"},
            ("--paytable", "match-the-dealer:1", "--decks", "2", "--amount", "5"),
            "RulesError",
            "633b.3(b)",
        ),
        # § 633b.3(i) prints paytables 1–10 only
        (
            {"paytable": "633b.3:99", "decks": 6, "amount": "$5"},
            ("--paytable", "633b.3:99", "--decks", "6", "--amount", "5"),
            "RulesError",
            "633b.3",
        ),
        # none of § 641a.7's progressive wagers has that paytable
        (
            {"paytable": "four-card-progressive:nope", "decks": 1, "amount": "$1"},
            ("--paytable", "four-card-progressive:nope", "--decks", "1", "--amount", "1"),
            "RulesError",
            "641a.7",
        ),
        # the EXAMPLE paytable takes $1 wagers only
        (
            {"paytable": FOUR, "decks": 1, "amount": "$5"},
            ("--paytable", FOUR, "--decks", "1", "--amount", "5"),
            "RulesError",
            "641a.7",
        ),
        (
            {"paytable": FOUR, "decks": 1, "amount": "$1", "hit_policy": "share"},
            ("--paytable", FOUR, "--decks", "1", "--amount", "1", "--hit-policy", "share"),
            "InputError",
            None,
        ),
        (
            {"paytable": FOUR, "decks": 1, "amount": "$1", "limits": {"Mega": "$9"}},
            ("--paytable", FOUR, "--decks", "1", "--amount", "1", "--limit", "Mega=9"),
            "InputError",
            None,
        ),
        (
            {"paytable": FOUR, "decks": 1, "amount": "$1", "limits": {"Progressive": "1e9"}},
            ("--paytable", FOUR, "--decks", "1", "--amount", "1", "--limit", "Progressive=1e9"),
            "InputError",
            None,
        ),
        (
            {"paytable": FOUR, "decks": 1, "amount": "1e400"},
            ("--paytable", FOUR, "--decks", "1", "--amount", "1e400"),
            "InputError",
            None,
        ),
        (
            {"paytable": "four-card:1", "decks": 1, "amount": "$1"},
            ("--paytable", "four-card:1", "--decks", "1", "--amount", "1"),
            "InputError",
            None,
        ),
    ],
)
def test_the_service_refuses_what_the_cli_refuses_in_its_words(
    server: Server,
    body: dict[str, Any],
    args: tuple[str, ...],
    kind: str,
    section: str | None,
) -> None:
    name = uid("bad")
    r = http_create(server, {**body, "name": name})
    code, said = cli_create(server, *args, "--name", name)
    assert code == 2
    assert (r.status_code, r.json()["error_type"], r.json()["section"]) == (422, kind, section)
    assert (said["error"]["type"], said["error"]["section"]) == (kind, section)
    cli_words = said["error"]["message"]
    for option, field in WORDS.items():
        cli_words = cli_words.replace(option, field)
    assert r.json()["detail"] == cli_words
    with server.client() as c:  # nothing was made, either way
        gone = c.get(f"/progressives/{name}", headers=server.auth(SHIFT))
    assert gone.status_code == 404


def test_the_openapi_examples_of_a_new_progressive_are_created(server: Server) -> None:
    """Each example body ``/openapi.json`` shows for ``POST /progressives`` — the second with
    every field the CLI's options have — creates its progressive (under a fresh name, at fresh
    tables: the test ledger's BJ-1 has a $5 Match the Dealer progressive already)."""
    with server.client() as c:
        spec = c.get("/openapi.json").json()
    examples = spec["components"]["schemas"]["NewProgressive"]["examples"]
    assert {"reseed", "hit_policy", "limits", "submission"} <= set(examples[1])
    for example in examples:
        fresh = {"name": uid(example["name"]), "tables": [uid(t) for t in example["tables"]]}
        r = http_create(server, {**example, **fresh})
        assert r.status_code == 201, r.text
        shown = r.json()
        assert shown["paytable"] == example["paytable"].partition(":")[2]
        assert shown["tables"] == fresh["tables"]

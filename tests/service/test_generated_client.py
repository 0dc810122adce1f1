"""A vendor's generated client drives the service (issue 29): ``openapi-python-client`` makes a
Python package from the live ``/openapi.json`` once per session, and the tests play a Blackjack
round with side wagers, a Baccarat coup with the 5 Treasures wagers, a Four Card Poker round, a
table step by step and a progressive award validated by a floorperson through its typed
functions and models, reading the answers by their attributes. Every expected figure is worked
out here from the regulation's paytable, not read back from croupier.

The generator pins its own ``typer`` (``<0.28``) below croupier's (``>=0.29``), so it cannot be
installed beside croupier: CI installs it in a virtual environment of its own (``.ci/run``) and
names it in ``CROUPIER_OPENAPI_PYTHON_CLIENT``; elsewhere the ``openapi-python-client`` beside
this interpreter or on ``PATH`` is used, else the module in this interpreter, else the tests are
skipped saying so. It runs with ``--fail-on-warning``: a warning about the document is a defect
of the document. Nothing generated is kept: the package lives in the session's temporary folder.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import typing
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import httpx
import pytest

from progressive_support import secret
from repo_paths import ROOT
from service_support import DEALER, FLOOR, PIT, SHIFT, Server, serving

PACKAGE = "croupier_vendor_client"
"""The generated package's name (the folder it is generated into)."""

GENERATOR_ENV = "CROUPIER_OPENAPI_PYTHON_CLIENT"
"""The environment variable naming the generator's executable (CI: its own virtual environment)."""

SUBMISSIONS = ROOT / "examples" / "submissions"


def submission(name: str) -> dict[str, Any]:
    """A Rules Submission of ``examples/submissions`` (the TOML file, as JSON takes it)."""
    return tomllib.loads((SUBMISSIONS / name).read_text(encoding="utf-8"))


BLACKJACK: dict[str, Any] = {
    "game": "blackjack",
    "name": "GC-BJ-6",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
    ],
}
"""Six decks, dealer stands on soft 17, Perfect Pairs paytable A (§ 633b.1(f))."""

JACKPOT_PARTY: dict[str, Any] = {
    **BLACKJACK,
    "name": "GC-BJ-6-JP",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "jackpot-party", "paytable": "P1", "amounts": ["$5"]},
    ],
}
"""Six decks with Jackpot Party paytable P1, a $5 wager (§ 633b.2(h))."""


# ---------------------------------------------------------------------------------------------
# the generated package


def generator() -> list[str] | None:
    """The command that runs openapi-python-client, or None when there is none."""
    named = os.environ.get(GENERATOR_ENV)
    if named:
        found = shutil.which(named)
        assert found, f"{GENERATOR_ENV} names {named!r}: no such executable"
        return [found]
    beside = Path(sys.executable).parent / "openapi-python-client"
    found = str(beside) if beside.exists() else shutil.which("openapi-python-client")
    if found:
        return [found]
    if importlib.util.find_spec("openapi_python_client") is not None:
        return [sys.executable, "-m", "openapi_python_client"]
    return None


def generate(spec: Path, where: Path) -> ModuleType:
    """Generate the client of ``spec`` into ``where / PACKAGE`` and import it (post hooks off:
    nothing formats code no one reads; a warning about the document fails)."""
    command = generator()
    if command is None:
        pytest.skip(
            f"openapi-python-client is not installed (CI installs it on its own, {GENERATOR_ENV})"
        )
    config = where / "generator.yaml"
    # application/toml (the paytable download, RFC 9618) is text to the generator, which knows
    # no TOML: its documented content_type_overrides say so.
    config.write_text(
        "post_hooks: []\ncontent_type_overrides:\n  application/toml: text/plain\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [
            *command,
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(where / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(config),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, f"the generator failed or warned:\n{run.stdout}\n{run.stderr}"
    sys.path.insert(0, str(where))
    return importlib.import_module(PACKAGE)


class Api:
    """The generated package, by operation and model name."""

    def __init__(self, package: ModuleType, base: str) -> None:
        self.package = package
        self.base = base
        self.models: Any = importlib.import_module(f"{PACKAGE}.models")
        self.problem: type[Any] = self.models.Problem
        folder = Path(package.__file__ or "").parent / "api"
        self.operations = {p.stem: f"{p.parent.name}.{p.stem}" for p in folder.glob("*/*.py")}

    def op(self, name: str) -> Any:
        """The module of operation ``name`` (its ``sync``, ``sync_detailed`` …)."""
        found = self.operations.get(name)
        assert found, f"no operation {name!r} in the client: {sorted(self.operations)}"
        return importlib.import_module(f"{PACKAGE}.api.{found}")

    def body(self, name: str) -> Any:
        """The model operation ``name`` takes as its body (whatever the document calls it)."""
        hints = typing.get_type_hints(self.op(name)._get_kwargs)
        return hints["body"]

    def client(self, token: str | None = None) -> Any:
        """A client of the server; authenticated with ``token``."""
        if token is None:
            return self.package.Client(base_url=self.base, raise_on_unexpected_status=True)
        return self.package.AuthenticatedClient(
            base_url=self.base, token=token, raise_on_unexpected_status=True, timeout=60.0
        )

    def login(self, user: str) -> Any:
        """An authenticated client of test staff member ``user``, logged in by ``POST /token``."""
        form = self.body("login")(username=user, password=secret(user))
        answer = self.op("login").sync_detailed(client=self.client(), body=form)
        assert answer.status_code == 200, answer.content
        return self.client(answer.parsed.access_token)

    def call(self, name: str, status: int, **kwargs: Any) -> Any:
        """Operation ``name``'s answer (``sync_detailed``), which must have ``status``: its
        parsed body (a generated model). A request that changes something gets a fresh
        Idempotency-Key."""
        module = self.op(name)
        if "idempotency_key" in typing.get_type_hints(module._get_kwargs):
            kwargs.setdefault("idempotency_key", f"gc-{uuid.uuid4().hex}")
        answer = module.sync_detailed(**kwargs)
        assert answer.status_code == status, answer.content
        assert (status >= 400) == isinstance(answer.parsed, self.problem), answer.parsed
        assert not untyped_keys(answer.parsed), untyped_keys(answer.parsed)
        return answer.parsed

    def step(self, action: str, **fields: Any) -> Any:
        """A step of a round: the generated model of ``action`` (``BetStep``, ``DealerDrawStep``
        … of the union discriminated by ``action``)."""
        model = getattr(self.models, "".join(w.title() for w in action.split("-")) + "Step")
        return model.from_dict({"action": action, **fields})


def untyped_keys(value: Any, where: str = "answer") -> list[str]:
    """The keys of an answer the generated models do not type (kept in a model's
    ``additional_properties``), by where they are: none, when the document types every key."""
    if isinstance(value, list):
        return [k for i, v in enumerate(value) for k in untyped_keys(v, f"{where}[{i}]")]
    if not attrs.has(type(value)):
        return []
    found = [f"{where}.{k}" for k in getattr(value, "additional_properties", {})]
    for field in attrs.fields(type(value)):
        if field.name != "additional_properties":
            found += untyped_keys(getattr(value, field.name), f"{where}.{field.name}")
    return found


@dataclass(frozen=True)
class Vendor:
    """A live server and a client generated from its OpenAPI, logged in as each role."""

    server: Server
    api: Api
    dealer: Any
    pit: Any
    floor: Any
    shift: Any


@pytest.fixture(scope="session")
def vendor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vendor]:
    where = tmp_path_factory.mktemp("generated-client")
    with serving("sqlite", where) as srv:
        spec = where / "openapi.json"
        spec.write_bytes(httpx.get(f"{srv.base}/openapi.json", timeout=60).content)
        api = Api(generate(spec, where), srv.base)
        try:
            yield Vendor(
                srv, api, api.login(DEALER), api.login(PIT), api.login(FLOOR), api.login(SHIFT)
            )
        finally:
            sys.path.remove(str(where))
            for name in [m for m in sys.modules if m.split(".")[0] == PACKAGE]:
                del sys.modules[name]


# ---------------------------------------------------------------------------------------------
# the flows


def settle(vendor: Vendor, rules: dict[str, Any], steps: list[Any], **params: Any) -> Any:
    """``POST /rounds/settle`` of a round file with ``rules`` inline, as the dealer (201)."""
    api = vendor.api
    round_file = api.body("settle_round").from_dict(
        {"id": f"gc-{uuid.uuid4().hex[:12]}", "submission": rules, "steps": []}
    )
    round_file.steps = steps
    params.setdefault("table", f"GC-{uuid.uuid4().hex[:8]}")
    return api.call("settle_round", 201, client=vendor.dealer, body=round_file, **params)


def lines(settled: Any) -> dict[tuple[int, str], int]:
    """Each settlement line's win in cents, by seat and wager."""
    return {(x.seat, x.wager): x.win_cents for x in settled.settlement.lines}


def test_a_blackjack_round_with_perfect_pairs_settles_through_the_client(vendor: Vendor) -> None:
    step = vendor.api.step
    settled = settle(
        vendor,
        BLACKJACK,
        [
            step("bet", seat=1, wager="blackjack", amount="$10"),
            step("bet", seat=1, wager="perfect-pairs", amount="$5"),
            step("bet", seat=3, wager="blackjack", amount="$25"),
            step("bet", seat=3, wager="perfect-pairs", amount="$5"),
            step("no-more-bets"),
            step("deal", players={"1": "7h 7d", "3": "8s 8s"}, dealer="Kd 9c"),
            step("stand", seat=1),
            step("stand", seat=3),
            step("settle"),
        ],
    )
    # § 633b.1(f) paytable A: a perfect pair (8♠ 8♠) 25 to 1, a colored pair (7♥ 7♦) 12 to 1,
    # on $5; 14 and 16 lose to the dealer's 19 (K 9: stands, § 633a.7), losing the stake
    assert lines(settled) == {
        (1, "blackjack"): -1000,
        (1, "perfect-pairs"): 12 * 500,
        (3, "blackjack"): -2500,
        (3, "perfect-pairs"): 25 * 500,
    }
    assert settled.net_cents == settled.settlement.net_cents == -1000 + 6000 - 2500 + 12500
    sections = {x.wager: x.section for x in settled.settlement.lines}
    assert sections["perfect-pairs"].startswith("633b.1")
    assert settled.recorded_by == DEALER


def test_a_baccarat_coup_with_the_5_treasures_wagers(vendor: Vendor) -> None:
    step = vendor.api.step
    settled = settle(
        vendor,
        submission("baccarat-8deck.toml"),
        [
            step("bet", seat=2, wager="banker", amount="$25"),
            step("bet", seat=2, wager="fortune-7", amount="$5"),
            step("bet", seat=2, wager="cover-all", amount="$5"),
            step("bet", seat=5, wager="player", amount="$50"),
            step("bet", seat=5, wager="golden-8", amount="$5"),
            step("no-more-bets"),
            step("deal", coup="Ks 4h 2d Qc 3h 3s"),
            step("settle"),
        ],
    )
    # Player K 2 = 2 draws the 3: 5; Banker 4 Q = 4 draws against a Player's third card of 3
    # (the drawing rules of Chapter 631a): 4 3 = 7.
    # The Banker wins with a three-card 7: Fortune 7 pays 40 to 1, Cover All 6 to 1 (§ 631c.3(f),
    # (h) paytable A); Golden 8 (the Player winning with three cards totalling 8) loses; the
    # Banker pays 19 to 20 (the 5% commission), $23.75 on $25
    assert lines(settled) == {
        (2, "banker"): 2375,
        (2, "fortune-7"): 40 * 500,
        (2, "cover-all"): 6 * 500,
        (5, "player"): -5000,
        (5, "golden-8"): -500,
    }
    assert settled.cards == "coup: Ks 4h 2d Qc 3h 3s"


def test_a_four_card_poker_round_with_aces_up(vendor: Vendor) -> None:
    step = vendor.api.step
    settled = settle(
        vendor,
        submission("four-card-poker.toml"),
        [
            step("bet", seat=1, wager="four-card-poker", amount="$10"),
            step("bet", seat=1, wager="aces-up", amount="$5"),
            step("no-more-bets"),
            step("deal", players={"1": "Ac Ad Ah 9s Kc"}, dealer="Qs 8d 7c 3h 2s 5d"),
            step("play", seat=1, amount="$30"),
            step("settle"),
        ],
    )
    # three aces (A A A K) beat the dealer's Q 8 7 5: Ante and Play pay 1 to 1, the Ante bonus
    # three-of-a-kind 2 to 1 on the Ante (paytable 25-20-2), Aces Up "pa-casino" three-of-a-kind
    # 8 to 1 (§ 641a.7(d)(1), (2); the payouts as regulations/base-games.md records them)
    assert lines(settled) == {
        (1, "four-card-poker:ante"): 1000,
        (1, "four-card-poker:play"): 3000,
        (1, "four-card-poker:ante-bonus"): 2 * 1000,
        (1, "aces-up"): 8 * 500,
    }
    assert settled.net_cents == 1000 + 3000 + 2000 + 4000


def test_a_table_is_played_step_by_step(vendor: Vendor) -> None:
    api, step = vendor.api, vendor.api.step
    table = f"GC-T-{uuid.uuid4().hex[:8]}"
    rules = api.body("open_table").from_dict({"table": table, "submission": BLACKJACK})
    opened = api.call("open_table", 201, client=vendor.pit, body=rules)
    assert (opened.table, opened.allowed, opened.to_act) == (table, ["bet"], [])

    def play(action: str, **fields: Any) -> Any:
        body = step(action, **fields)
        return api.call("post_step", 200, client=vendor.dealer, table=table, body=body)

    play("bet", seat=1, wager="blackjack", amount="$25")
    assert play("bet", seat=1, wager="perfect-pairs", amount="$5").allowed == [
        "bet",
        "no-more-bets",
    ]
    assert play("no-more-bets").allowed == ["deal"]
    dealt = play("deal", players={"1": "9h 2c"}, dealer="7h 9c")
    # 9 2 = 11: a double on the first two cards (§ 633a.10), no pair to split, no surrender
    (seat,) = dealt.to_act
    assert (seat.seat, seat.cards, seat.actions) == (1, "9h 2c", ["double", "hit", "stand"])
    doubled = play("double", seat=1, card="Th")  # 21 on three cards: the hand is over
    assert (doubled.allowed, doubled.to_act) == (["dealer-draw"], [])
    assert play("dealer-draw", card="Ts").allowed == ["settle"]  # 7 9 T = 26: the dealer busts
    done = play("settle")
    # the doubled $50 wins 1 to 1 (§ 633a.10); 9♥ 2♣ is no pair: Perfect Pairs loses its $5
    assert lines(done.settled) == {(1, "blackjack"): 5000, (1, "perfect-pairs"): -500}
    assert done.settled.table == table


def test_a_progressive_award_is_validated_by_a_floorperson(vendor: Vendor) -> None:
    api, step = vendor.api, vendor.api.step
    name, table = f"gc-jp-{uuid.uuid4().hex[:8]}", f"GC-P-{uuid.uuid4().hex[:8]}"
    new = api.body("create_progressive")(
        paytable="633b.2:P1", decks=6, amount="$5", name=name, tables=[table]
    )
    created = api.call("create_progressive", 201, client=vendor.shift, body=new)
    assert (created.name, created.tables) == (name, [table])
    assert created.levels[0].seed_cents == 5_000_000  # § 633b.2(i) P1: a $50,000 meter seed
    settled = settle(
        vendor,
        JACKPOT_PARTY,
        [
            step("bet", seat=1, wager="blackjack", amount="$10"),
            step("bet", seat=1, wager="jackpot-party", amount="$5"),
            step("no-more-bets"),
            step("deal", players={"1": "Kd Qd"}, dealer="Ad Jd"),
            step("settle"),
        ],
        table=table,
        progressive=[name],
    )
    (fed,) = settled.progressives
    (award,) = [a for a in fed.awards if a.status == "pending"]
    # K♦ Q♦ and the dealer's A♦ J♦: a Royal Flush in diamonds takes 100% of the progressive
    # (§ 633b.2(i), P1), the $50,000 seed plus P1's primary increment, 16% of this round's $5,
    # pending a floorperson's validation (§ 633b.2(h)(3))
    assert award.amount_cents == 5_000_000 + 500 * 16 // 100
    refused = api.call("validate_award", 403, client=vendor.dealer, award_id=award.award)
    assert refused.section == "633b.2(h)(3)"  # the validation is a floorperson's
    paid = api.call("validate_award", 200, client=vendor.floor, award_id=award.award)
    assert (paid.status, paid.validated_by, paid.amount_cents) == ("paid", FLOOR, 5_000_080)
    assert (paid.progressive, paid.table) == (name, table)


def test_a_settlement_line_is_a_generated_model(vendor: Vendor) -> None:
    """The settlement's lines are generated classes with typed attributes, not
    ``additional_properties``."""
    api, step = vendor.api, vendor.api.step
    round_file = api.body("settle_round").from_dict(
        {"id": "gc-typed", "submission": BLACKJACK, "steps": []}
    )
    round_file.steps = [
        step("bet", seat=3, wager="blackjack", amount="$25"),
        step("bet", seat=3, wager="perfect-pairs", amount="$5"),
        step("deal", players={"3": "8s 8s"}, dealer="Kd 9c"),
        step("stand", seat=3),
    ]
    answer = api.op("settle_round").sync_detailed(
        client=vendor.dealer,
        body=round_file,
        table=f"GC-{uuid.uuid4().hex[:8]}",
        idempotency_key=f"gc-{uuid.uuid4().hex}",
    )
    assert answer.status_code == 201, answer.content  # not an AttributeError of a problem
    (line,) = [x for x in answer.parsed.settlement.lines if x.wager == "perfect-pairs"]
    assert (line.seat, line.win_cents) == (3, 25 * 500)  # § 633b.1(f) A: a perfect pair 25 to 1
    assert type(line).__module__.startswith(f"{PACKAGE}.models.")


def test_the_readmes_vendor_example_runs_as_written(
    vendor: Vendor, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's "A vendor's generated client" settles its round through the generated client and
    prints what its comments say (its names: the package, the server, the dealer, the ids)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    after = readme.split("**A vendor's generated client.**", 1)[1]
    code = after.split("```python\n", 1)[1].split("```", 1)[0]
    printed = [line[2:] for line in code.splitlines() if line.startswith("# 3 ")]
    uid = uuid.uuid4().hex[:8]
    for said, meant in {
        "croupier_client": PACKAGE,
        "http://127.0.0.1:8000": vendor.server.base,
        '"dana"': repr(DEALER),
        '"dana-secret"': repr(secret(DEALER)),
        '"r-1001"': repr(f"readme-{uid}"),
        '"BJ-1"': repr(f"RM-{uid}"),
        '"examples/': f'"{ROOT}/examples/',
    }.items():
        assert said in code, said
        code = code.replace(said, meant)
    capsys.readouterr()
    exec(compile(code, "README.md", "exec"), {})  # the README's own example
    assert capsys.readouterr().out.splitlines() == printed

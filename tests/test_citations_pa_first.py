"""A rule of 58 Pa. Code is cited first: where an error also cites another jurisdiction's rule
(NY 9 NYCRR 5321.18(b)(4) for a suspended progressive, N.J.A.C. 13:69E-1.39C for a
configuration, N.J.A.C. 13:69D-1.52(e)(4) for hit odds), the PA section comes ahead of it — in the
error's own text (the library), the CLI's ``error:`` line and ``--json`` object, and the
service's problem detail, which are the same words.

Swept three ways: every error type croupier defines, built with a message that cites another
rule; every place in the source that builds an error (or a Rules Submission violation) whose
text names another rule, which must name the PA section too; and the paths a user meets —
``croupier settle --progressive`` on a suspended progressive, the ledger API (accepting wagers,
a whole round, a reconfiguration in play), a configuration mismatch and a submission's hit odds.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import croupier
from cli_support import run_main
from croupier import cli
from croupier.errors import (
    OTHER_RULE,
    ConfigurationMismatchError,
    CroupierError,
    LinkError,
    RoundStateError,
    RulesError,
    SubmissionError,
    cite,
    error_section,
    pa_first,
)
from croupier.progressive import Ledger
from croupier.service.problems import install
from croupier.table.submission import Violation
from progressive_support import (
    DEALER,
    PIT,
    SHIFT,
    add_staff,
    mtd_ledger,
    paytable_definition,
    play,
)

SRC = Path(croupier.__file__).resolve().parent
NY = "NY 9 NYCRR 5321.18(b)(4)"


def _import_everything() -> None:
    for m in pkgutil.walk_packages([str(SRC)], "croupier."):
        if ".migrations." in m.name or m.name.endswith("__main__"):
            continue
        importlib.import_module(m.name)


def _error_types() -> list[type[CroupierError]]:
    _import_everything()
    out: list[type[CroupierError]] = []
    todo: list[type[CroupierError]] = [CroupierError]
    while todo:
        t = todo.pop()
        out.append(t)
        todo.extend(t.__subclasses__())
    return sorted(set(out), key=lambda t: f"{t.__module__}.{t.__qualname__}")


ERROR_TYPES = _error_types()

MESSAGES = (
    f"progressive 'p' is suspended: no wager is accepted ({NY})",  # closing parenthesis
    f"refused (the link; {NY}: suspended) while suspended",  # inside a parenthesis
    "N.J.A.C. 13:69D-1.52(e)(4) bounds the odds",  # in the words
    "refused",  # none
)


def _params(t: type[CroupierError]) -> Mapping[str, inspect.Parameter]:
    """The parameters of ``t``'s constructor (an exception's own: ``*args``)."""
    try:
        return inspect.signature(t).parameters
    except ValueError:  # Exception.__init__
        return inspect.signature(lambda *args: None).parameters


def _build(t: type[CroupierError], message: str, also: str | None) -> CroupierError:
    """An instance of ``t`` with ``message``, citing § 605a.8 where it takes a section (and
    ``also`` where it takes another rule)."""
    given: dict[str, Any] = {
        "message": message,
        "problem": message,
        "section": "605a.8",
        "also": also,
        "token": "x",
        "path": "round.json",
        "source": "table.toml",
        "violations": ((message, "601a.2"), ("an amount must be positive", None)),
        "offset": None,
        "maximum": "999999999.99",  # AmountLimitError, SubmissionError: the limit
        "public": message,  # LedgerHaltedError: what a client is told
        "pointer": "/bets/0",  # UnicodeTextError: where the string is
        "text": "a\ud800",  # ... and the string
        "key": False,
    }
    params = _params(t)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for name, p in params.items():
        if p.kind is p.VAR_POSITIONAL:
            args.append(message)
        elif p.kind is p.KEYWORD_ONLY:
            kwargs[name] = given[name]
        elif p.kind is not p.VAR_KEYWORD:
            args.append(given[name])
    return t(*args, **kwargs)


def _cases() -> Iterator[Any]:
    for t in ERROR_TYPES:
        for i, message in enumerate(MESSAGES):
            for also in (None, "N.J.A.C. 13:69E-1.39C") if "also" in _params(t) else (None,):
                yield pytest.param(t, message, also, id=f"{t.__name__}-{i}-{also is not None}")


def _service_detail(exc: CroupierError) -> dict[str, Any]:
    app = FastAPI()
    install(app)

    @app.get("/boom")
    def boom() -> None:
        raise exc

    r = TestClient(app).get("/boom")
    body: dict[str, Any] = r.json()
    return body


def _cli_error(exc: CroupierError, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], str]:
    """What ``croupier … --json`` prints when a command raises ``exc``: the JSON error object
    and the ``error:`` line."""

    class Raising:
        def main(self, **_: Any) -> None:
            raise exc

    # the command tree cli.main runs (built once and kept: patching typer's builder instead
    # would leave the raising tree cached for every later in-process run on this worker)
    monkeypatch.setattr(cli, "_root_command", lambda: Raising())
    run = run_main(["anything", "--json"])
    assert run.code == 2
    (line,) = run.error_lines()
    doc: dict[str, Any] = json.loads(run.out)["error"]
    return doc, line.removeprefix("error: ")


@pytest.mark.parametrize(("error_type", "message", "also"), list(_cases()))
def test_every_error_type_cites_pa_first_everywhere(
    error_type: type[CroupierError],
    message: str,
    also: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    exc = _build(error_type, message, also)
    text = str(exc)
    assert "\n" not in text
    section = error_section(exc)
    if section is not None:
        assert pa_first(text), text
        assert f"58 Pa. Code § {section}" in text
    if also is not None:
        assert text.index("58 Pa. Code") < text.index(also), text
    doc, line = _cli_error(exc, monkeypatch)
    assert line == doc["message"] == text
    assert doc["section"] == section
    assert doc["citation"] == (f"58 Pa. Code § {section}" if section else None)
    problem = _service_detail(exc)
    assert problem["detail"] == text and problem["section"] == section


def test_the_rule_in_words() -> None:
    """The forms of :func:`cite`, derived by hand."""
    pa = "58 Pa. Code § 605a.8"
    assert cite("refused", "605a.8") == f"refused ({pa})"
    assert cite("refused", "605a.8", also=NY) == f"refused ({pa}; {NY})"
    assert cite(f"refused ({NY})", "605a.8") == f"refused ({pa}; {NY})"
    assert cite(f"refused ({NY})", "605a.8", also="GLI-13") == f"refused ({pa}; {NY}) (GLI-13)"
    assert cite(f"a (b; {NY}) c", "605a.8") == f"a ({pa}; b; {NY}) c"
    assert cite("GLI-13 says so", "605a.8") == f"{pa}: GLI-13 says so"
    assert cite("refused (the meter)", "605a.8") == f"refused (the meter) ({pa})"
    assert cite("refused", None, also=NY) == f"refused ({NY})"
    assert not pa_first(f"refused ({NY}) ({pa})") and pa_first(f"refused ({pa}; {NY})")


# -- every place the source builds an error ---------------------------------------------------


def _constant_text(node: ast.AST, module: Any) -> str:
    """The literal text of an argument: string constants, an f-string's literal parts, and
    module-level string constants it names (``OTHER_RULES``, ``NJ_RULE``)."""
    parts: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            parts.append(sub.value)
        elif isinstance(sub, ast.Name) and isinstance(getattr(module, sub.id, None), str):
            parts.append(getattr(module, sub.id))
    return " ".join(parts)


def _section_given(call: ast.Call, positional_at: int | None) -> bool:
    for kw in call.keywords:
        if kw.arg == "section":
            return not (isinstance(kw.value, ast.Constant) and kw.value.value is None)
    if positional_at is not None and len(call.args) > positional_at:
        arg = call.args[positional_at]
        return not (isinstance(arg, ast.Constant) and arg.value is None)
    return False


def _builders() -> dict[str, int | None]:
    """Name → the position of the section among the positional arguments (``None``: keyword
    only or none) of every error type, and of a submission's :class:`Violation`."""
    out: dict[str, int | None] = {"Violation": 1}
    for t in ERROR_TYPES:
        names = list(_params(t))
        out[t.__name__] = names.index("section") if "section" in names else None
        if t.__init__ is RulesError.__init__ or issubclass(t, RulesError):
            out[t.__name__] = 1
    return out


def test_every_error_built_with_another_rule_names_its_pa_section() -> None:
    """An error (or violation) whose text names another jurisdiction's rule gives a section of
    58 Pa. Code too — which :func:`cite` then puts first — and passes the other rule as ``also``
    rather than writing it into the message."""
    builders = _builders()
    bad: list[str] = []
    seen = 0
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent)
        name = ".".join(rel.with_suffix("").parts).removesuffix(".__init__")
        if ".migrations." in name or name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called not in builders:
                continue
            message = _constant_text(node.args[0], module) if node.args else ""
            others = [kw for kw in node.keywords if kw.arg == "also"]
            if not OTHER_RULE.search(message) and not others:
                continue
            seen += 1
            where = f"{rel}:{node.lineno} {called}"
            if not _section_given(node, builders[called]):
                bad.append(f"{where}: cites another rule without a section of 58 Pa. Code")
            elif called != "Violation" and OTHER_RULE.search(message):
                bad.append(f"{where}: the other rule is written into the message, not also=")
    assert not bad, "\n".join(bad)
    assert seen >= 4  # the suspended link, the reconfiguration, the configuration, hit odds


# -- the paths a user meets ---------------------------------------------------------------------


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    with mtd_ledger(f"sqlite:///{tmp_path / 'c.sqlite3'}") as led:
        yield led


def _suspended_text(text: str, section: str = "605a.8") -> None:
    assert pa_first(text), text
    assert text.endswith(f"(58 Pa. Code § {section}; {NY})"), text
    assert text.count("58 Pa. Code") == 1


def test_the_ledger_refuses_a_suspended_link_citing_pa_first(ledger: Ledger) -> None:
    ledger.suspend("mtd-5", by=PIT, reason="new rate")
    system = ledger.system("mtd-5")
    with pytest.raises(LinkError) as accepted:
        system.accept_wagers("r1", "BJ-1", [1], by=DEALER)
    with pytest.raises(LinkError) as whole:
        system.play_round("r2", "BJ-1", [1], [], idempotency_key="BJ-1/r2", by=DEALER)
    for exc in (accepted.value, whole.value):
        assert exc.section == "605a.8"
        _suspended_text(str(exc))
    ledger.resume("mtd-5", by=PIT)
    play(ledger, "mtd-5", "r3", "BJ-1", [1])
    with pytest.raises(RoundStateError) as in_play:
        ledger.reconfigure("mtd-5", by=SHIFT, approval="CR-1", seeds_cents={})
    assert in_play.value.section == "605a.7"
    _suspended_text(str(in_play.value), "605a.7")


def test_settle_on_a_suspended_progressive_cites_pa_first(tmp_path: Path) -> None:
    """The trial's case: ``croupier settle ROUND --progressive`` while the link is suspended."""
    runner = CliRunner()
    env = {"CROUPIER_PASSWORD": "floor-secret", "CROUPIER_NEW_PASSWORD": "floor-secret"}
    db = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    for args in (
        ["meters", "bootstrap", "sam", "--db", db],
        ["meters", "create", "--db", db, "-p", "633b.3:1", "-d", "6", "-a", "5", "--name",
         "mtd-5", "--table", "BJ-1", "--as", "sam"],
        # the round's Jackpot Party wager needs its progressive too (never valued at the seed)
        ["meters", "create", "--db", db, "-p", "633b.2:P1", "-d", "6", "-a", "5", "--name",
         "jp-5", "--table", "BJ-1", "--as", "sam"],
        ["meters", "user", "--db", db, "dana", "--role", "dealer", "--as", "sam"],
        ["meters", "suspend", "mtd-5", "--reason", "new rate", "--db", db, "--as", "sam"],
    ):  # fmt: skip
        done = runner.invoke(cli.app, args, env=env)
        assert done.exit_code == 0, done.output
    round_file = Path(__file__).parent.parent / "examples" / "rounds" / "blackjack.json"
    settle = ["settle", str(round_file), "--db", db, "--table", "BJ-1", "--as", "dana",
              "--progressive", "mtd-5"]  # fmt: skip
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        as_json = run_main([*settle, "--json"])
        as_text = run_main(settle)
        reconfigure = run_main(["meters", "resume", "mtd-5", "--db", db, "--as", "sam"])
        assert reconfigure.code == 0, reconfigure.err
        in_play = run_main(["meters", "reconfigure", "mtd-5", "--db", db, "--as", "sam",
                            "--approval", "CR-1", "--rate", "20%", "--json"])  # fmt: skip
    assert as_json.code == 2 and as_text.code == 2
    error = json.loads(as_json.out)["error"]
    assert error["type"] == "LinkError"
    assert error["section"] == "605a.8" and error["citation"] == "58 Pa. Code § 605a.8"
    _suspended_text(error["message"])
    (line,) = as_text.error_lines()
    assert line == f"error: {error['message']}"
    assert as_json.error_lines() == as_text.error_lines()
    error = json.loads(in_play.out)["error"]
    assert error["type"] == "RoundStateError" and error["section"] == "605a.7"
    _suspended_text(error["message"], "605a.7")


def test_a_configuration_mismatch_cites_pa_first(tmp_path: Path) -> None:
    """A progressive approved under another paytable's digest refuses play (§ 605a.7)."""
    with Ledger(f"sqlite:///{tmp_path / 'c.sqlite3'}") as ledger:
        add_staff(ledger)
        approved_elsewhere = replace(
            paytable_definition("633b.3", "1", 6, 500, "mtd"), paytable_sha256="0" * 64
        )
        ledger.create_progressive(approved_elsewhere, tables=["BJ-1"], by=SHIFT)
        with pytest.raises(ConfigurationMismatchError) as refused:
            ledger.system("mtd").accept_wagers("r1", "BJ-1", [1], by=DEALER)
    text = str(refused.value)
    assert pa_first(text) and refused.value.section == "605a.7"
    assert text.endswith("(58 Pa. Code § 605a.7; NY 9 NYCRR 5321.18, N.J.A.C. 13:69E-1.39C)")


def test_a_hit_odds_violation_cites_pa_first() -> None:
    v = Violation(
        "wager w paytable 1: its Progressive meter is hit 1 in 4,165, longer than its "
        "hit_odds_bound of 1 in 4,164 (N.J.A.C. 13:69D-1.52(e)(4): at most 100,000,000 to one)",
        "601a.2",
    )
    assert str(v).endswith(
        "(58 Pa. Code § 601a.2; N.J.A.C. 13:69D-1.52(e)(4): at most 100,000,000 to one)"
    )
    exc = SubmissionError("table.toml", ((v.message, v.section),))
    assert pa_first(str(exc)) and str(exc) == f"table.toml: {v}"

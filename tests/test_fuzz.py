"""Property-based fuzzing of every input surface (issue 14).

Python API — card text, shoes, paytable files, pays, amounts, round records, Rules Submissions,
wager ids, settlement — and the CLI (through its console-script ``main``, with fuzzed arguments and
fuzzed files): the result is a value or a typed croupier error (:class:`CroupierError`), never
another exception; the CLI ends with exit status 0, or 2 and exactly one ``error:`` line.

The inputs are random text and bytes, and mutations (byte flips, insertions, deletions, splices
of hostile pieces: look-alike letters, NUL, newlines, huge numbers, deep brackets) of the real
example files. The normal run is bounded (:data:`FAST` examples per surface); the ``slow`` marker
runs :data:`SLOW` examples per surface.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_support import run_main
from croupier.cards import DECK, Shoe, parse_cards
from croupier.errors import CroupierError
from croupier.inputs import parse_json, parse_toml, read_text
from croupier.paytables import builtin_paytables, parse_section_text
from croupier.paytables.pays import parse_pay
from croupier.table.record import settle_record
from croupier.table.submission import submission_from_data
from croupier.units import parse_amount, parse_money, parse_percent
from croupier.wagers import all_wagers, get_wager

FAST = 40
"""Examples per surface in the normal test run."""
SLOW = 600
"""Examples per surface under ``-m slow``."""

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PAYTABLE_DATA = ROOT / "src" / "croupier" / "paytables" / "data"
ROUNDS = sorted((EXAMPLES / "rounds").glob("*.json")) + sorted((EXAMPLES / "broken").glob("*.json"))
SUBMISSIONS = sorted((EXAMPLES / "submissions").glob("*.toml")) + sorted(
    (EXAMPLES / "broken").glob("*.toml")
)
PAYTABLE_FILES = sorted(PAYTABLE_DATA.glob("*.toml"))

HOSTILE = [
    "\u212a",  # KELVIN SIGN, case-folds to k
    "\u017f",  # LONG S, case-folds to s
    "\u0130",
    "\x00",
    "\n",
    "\r\n",
    "\u2028",
    "\x1b[31m",
    "9" * 5000,
    "1e999999999",
    "NaN",
    "-inf",
    "[" * 1000,
    "{" * 700,
    '"',
    "'''",
    "\\",
    "%",
    "$",
    ",",
    "=",
    "[[x]]",
    "0x" + "f" * 300,
]


@st.composite
def mutated(draw: st.DrawFn, originals: list[bytes]) -> bytes:
    """One of ``originals`` with a few random edits: bytes flipped, inserted or deleted, hostile
    pieces spliced in, the file cut short."""
    data = bytearray(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "hostile", "cut"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 8))]
        elif op == "hostile":
            data[at:at] = draw(st.sampled_from(HOSTILE)).encode("utf-8")
        elif op == "cut":
            del data[at:]
    return bytes(data)


def _texts(originals: list[bytes]) -> st.SearchStrategy[str]:
    return mutated(originals).map(lambda b: b.decode("utf-8", errors="replace"))


def _read(paths: list[Path]) -> list[bytes]:
    return [p.read_bytes() for p in paths]


fuzz_text = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from([*HOSTILE, "Ah", "10d", "K♦", " ", "5", ".", "to", "for", "1"])).map(
        "".join
    ),
)
numbers = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["9" * 5000, "1e400", "1e999999999", "NaN", "inf", "٣", "0", "1_000", "0x1f"]),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
)
pay_text = st.tuples(
    numbers, st.sampled_from([" to ", " for ", "% of ", "% ", " ", ""]), numbers
).map("".join)
amount_text = st.one_of(
    numbers, st.tuples(st.sampled_from(["$", "", "$ "]), numbers).map("".join), fuzz_text
)
card_text = st.one_of(
    fuzz_text,
    st.lists(st.sampled_from([str(c) for c in DECK] + HOSTILE[:8]), max_size=8).map(" ".join),
)


def typed_or_value(call: Callable[[], object]) -> None:
    """``call()`` returns, or raises a :class:`CroupierError`; nothing else."""
    with contextlib.suppress(CroupierError):
        call()


# ---------------------------------------------------------------------- Python API surfaces


def _cards(text: str) -> None:
    typed_or_value(lambda: parse_cards(text))


def _shoe(counts: list[Any]) -> None:
    typed_or_value(lambda: Shoe(tuple(counts)))
    typed_or_value(lambda: Shoe.standard(counts[0] if counts else 0))
    typed_or_value(lambda: Shoe.from_counts({str(k): 1 for k in counts[:5]}))


def _amounts(text: str) -> None:
    typed_or_value(lambda: parse_amount(text, "--amount"))
    typed_or_value(lambda: parse_money(text))
    typed_or_value(lambda: parse_percent(text))


def _pays(text: str) -> None:
    typed_or_value(lambda: parse_pay(text))


def _wager_id(text: str) -> None:
    typed_or_value(lambda: get_wager(text))


def _paytable_text(text: str) -> None:
    typed_or_value(lambda: parse_section_text(text, "fuzz.toml"))


def _json_text(text: str) -> None:
    typed_or_value(lambda: parse_json(text, "fuzz.json"))


def _toml_text(text: str) -> None:
    typed_or_value(lambda: parse_toml(text, "fuzz.toml"))


def _round_text(text: str) -> None:
    def go() -> None:
        data = parse_json(text, "fuzz.json")
        if isinstance(data, dict):
            settle_record(data, EXAMPLES / "rounds", "fuzz.json")

    typed_or_value(go)


def _submission_text(text: str) -> None:
    typed_or_value(lambda: submission_from_data(parse_toml(text, "fuzz.toml"), "fuzz.toml"))


def _path(text: str) -> None:
    typed_or_value(lambda: read_text(text))


_WAGERS = [w.id for w in all_wagers()]


@st.composite
def settle_args(draw: st.DrawFn) -> tuple[str, str, str, int, int]:
    wager = draw(st.sampled_from(_WAGERS))
    tables = [t.key for t in get_wager(wager).paytables()] or ["A"]
    table = draw(st.one_of(st.sampled_from(tables), fuzz_text))
    cards = draw(card_text)
    amount = draw(st.one_of(st.integers(-5, 10**6), st.integers(), st.just(10**5000)))
    decks = draw(st.one_of(st.sampled_from([1, 2, 4, 6, 8]), st.integers(-3, 20)))
    return wager, table, cards, amount, decks


def _settle(args: tuple[str, str, str, int, int]) -> None:
    wager_id, table_id, text, amount, decks = args

    def go() -> None:
        wager = get_wager(wager_id)
        cards = parse_cards(text)
        table = wager.paytable(table_id, decks) if decks in (1, 2, 4, 6, 8) else None
        if table is None:
            table = wager.paytable(table_id)
        wager.settle(cards, table, amount, decks)

    typed_or_value(go)


API: list[tuple[str, st.SearchStrategy[Any], Callable[[Any], None]]] = [
    ("parse_cards", card_text, _cards),
    (
        "Shoe",
        st.lists(
            st.one_of(st.integers(-2, 10), st.integers(), st.text(max_size=3), st.none()),
            max_size=60,
        ),
        _shoe,
    ),
    ("amounts", amount_text, _amounts),
    ("parse_pay", st.one_of(pay_text, fuzz_text), _pays),
    ("get_wager", fuzz_text, _wager_id),
    ("paytable text", _texts(_read(PAYTABLE_FILES)), _paytable_text),
    ("json", st.one_of(_texts(_read(ROUNDS)), fuzz_text), _json_text),
    ("toml", st.one_of(_texts(_read(SUBMISSIONS)), fuzz_text), _toml_text),
    ("round record", _texts(_read(ROUNDS)), _round_text),
    ("submission", _texts(_read(SUBMISSIONS)), _submission_text),
    ("settle", settle_args(), _settle),
    (
        "read a path",
        st.one_of(fuzz_text, st.sampled_from(["/dev/zero", "/", "/proc/self/status"])),
        _path,
    ),
]


def _run(strategy: st.SearchStrategy[Any], prop: Callable[[Any], None], examples: int) -> None:
    settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )(given(strategy)(prop))()


# --------------------------------------------------------------------------------- the CLI


def assert_cli_contract(args: list[str], lines_allowed: int = 1) -> None:
    """``croupier ARGS`` exits 0, or 2 with exactly one ``error:`` line on stderr (or, where the
    command reports several problems — ``check``'s violations, ``settle``'s files — one line each,
    at most ``lines_allowed``); any exception other than SystemExit fails the test."""
    run = run_main(args)
    assert run.code in (0, 2), (args, run.code, run.err)
    if run.code == 2:
        lines = run.error_lines()
        if lines_allowed == 1:
            assert len(lines) == 1 and lines[0].startswith("error: "), (args, run.err)
        else:
            assert 1 <= len(lines) <= lines_allowed, (args, run.err)


@st.composite
def hand_args(draw: st.DrawFn) -> list[str]:
    wager = draw(st.one_of(st.sampled_from(_WAGERS), fuzz_text))
    args = [
        "hand",
        wager,
        draw(card_text),
        "-p",
        draw(st.one_of(st.sampled_from("AB1"), fuzz_text)),
    ]
    if draw(st.booleans()):
        args += ["--decks", draw(st.one_of(st.sampled_from(["1", "6", "8"]), fuzz_text))]
    if draw(st.booleans()):
        args += ["--amount", draw(st.one_of(st.sampled_from(["5", "0.25"]), amount_text))]
    if draw(st.booleans()):
        args.append("--json")
    return args


@st.composite
def analyze_args(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(["analyze", "paytables", "wagers", "baccarat", "dealer"]))
    args = [command]
    if command == "analyze":
        args += [draw(st.one_of(st.sampled_from(["perfect-pairs", "ultimate-pairs"]), fuzz_text))]
        args += ["-p", draw(st.one_of(st.sampled_from("AB"), fuzz_text))]
        args += ["--decks", draw(st.one_of(st.sampled_from(["1", "2"]), fuzz_text))]
    elif command == "paytables":
        args += [draw(st.one_of(st.sampled_from(["633b.1", "perfect-pairs"]), fuzz_text))]
    elif command == "baccarat":
        args += [draw(card_text)]
        if draw(st.booleans()):
            args += ["--bet", draw(fuzz_text) + "=" + draw(fuzz_text)]
    elif command == "dealer":
        args += ["--decks", draw(fuzz_text)]
    return args


def _write(data: bytes, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix, dir=_TMP)
    with open(fd, "wb") as f:
        f.write(data)
    return Path(name)


_TMP = tempfile.mkdtemp(prefix="croupier-fuzz-")
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def _cli_args(args: list[str]) -> None:
    # check lists every violation; settle with several files gives one error line per file
    allowed = {"check": 100, "settle": len(args)}.get(args[0], 1) if args else 1
    assert_cli_contract(args, lines_allowed=allowed)


def _cli_round_file(data: bytes) -> None:
    # a round file next to the example submissions, so its relative submission path resolves
    path = _write(data, ".json")
    try:
        assert_cli_contract(["settle", str(path)])
        assert_cli_contract(["settle", str(path), "--json"])
    finally:
        path.unlink()


def _cli_submission_file(data: bytes) -> None:
    path = _write(data, ".toml")
    try:
        assert_cli_contract(["check", str(path)], lines_allowed=100)
    finally:
        path.unlink()


def _cli_paytable_file(data: bytes) -> None:
    path = _write(data, ".toml")
    try:
        assert_cli_contract(["wagers", "-f", str(path)])
        assert_cli_contract(["paytables", "-f", str(path)])
    finally:
        path.unlink()


def _rounds_with_absolute_submissions() -> list[bytes]:
    out = []
    for p in ROUNDS:
        data = json.loads(p.read_text(encoding="utf-8"))
        if isinstance(data.get("submission"), str):
            data["submission"] = str((p.parent / data["submission"]).resolve())
        out.append(json.dumps(data, indent=1).encode("utf-8"))
    return out


CLI: list[tuple[str, st.SearchStrategy[Any], Callable[[Any], None]]] = [
    ("hand", hand_args(), _cli_args),
    ("analyze and friends", analyze_args(), _cli_args),
    (
        "any arguments",
        st.lists(
            st.one_of(
                fuzz_text,
                st.sampled_from(["--json", "-p", "-d", "hand", "settle", "check", "wagers", "-f"]),
                st.sampled_from(["/dev/zero", "/", ".", "/etc/hostname", "/proc/self/status"]),
            ),
            max_size=5,
        ),
        _cli_args,
    ),
    ("round file", mutated(_rounds_with_absolute_submissions()), _cli_round_file),
    ("submission file", mutated(_read(SUBMISSIONS)), _cli_submission_file),
    ("paytable file", mutated(_read(PAYTABLE_FILES[:4])), _cli_paytable_file),
]


SURFACES = [(f"api: {n}", st_, p, SLOW) for n, st_, p in API] + [
    (f"cli: {n}", st_, p, SLOW // 3)
    for n, st_, p in CLI  # a CLI run costs more
]
RUNS = [pytest.param(st_, p, FAST, id=name) for name, st_, p, _ in SURFACES] + [
    pytest.param(st_, p, slow, id=f"{name} (long)", marks=pytest.mark.slow)
    for name, st_, p, slow in SURFACES
]


@pytest.mark.parametrize(("strategy", "prop", "examples"), RUNS)
def test_a_value_or_a_typed_error_exit_0_or_2_with_one_line(
    strategy: st.SearchStrategy[Any], prop: Callable[[Any], None], examples: int
) -> None:
    _run(strategy, prop, examples)


def test_the_examples_themselves_pass() -> None:
    # the unmutated files settle, check and load: the fuzzing starts from working input
    for p in sorted((EXAMPLES / "rounds").glob("*.json")):
        assert run_main(["settle", str(p)]).code == 0, p
    for p in sorted((EXAMPLES / "submissions").glob("*.toml")):
        assert run_main(["check", str(p)]).code == 0, p
    assert len(builtin_paytables().sections()) == len(PAYTABLE_FILES)

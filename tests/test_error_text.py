"""Error text quoting what a user typed stays short, one line and as typed — for every error of
the hierarchy, not one message at a time (the trial of stop 13 found a 5,000-digit amount echoed
whole, ``\\udcff`` shown for the byte 0xff, and a round file's step counted from 0)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.errors import (
    MAX_QUOTED,
    CroupierError,
    InputError,
    UnknownWagerError,
    closest,
    suggest,
)
from croupier.inputs import where
from croupier.units import parse_money
from croupier.wagers import get_wager

ROUNDS = Path(__file__).resolve().parents[1] / "examples" / "rounds"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "croupier", *args], capture_output=True, env=env, cwd=cwd, timeout=60
    )


def test_a_long_quoted_input_is_cut_and_its_length_given() -> None:
    text = "$" + "9" * 5000
    with pytest.raises(CroupierError) as info:
        parse_money(text)
    shown = str(info.value)
    # the quoted piece: MAX_QUOTED - 20 characters of it, an ellipsis, then its length
    assert f"'{text[: MAX_QUOTED - 20]}…' (5,001 characters)" in shown
    assert len(shown) < 200


def test_short_quotes_and_unquoted_lists_are_left_whole() -> None:
    ids = ", ".join(f"wager-{i}" for i in range(40))  # a long list, but no one quoted piece
    message = f"no wager 'perfect-pair' (known wagers: {ids})"
    assert str(InputError(message)) == message


def test_a_byte_that_is_not_utf8_is_shown_as_the_byte() -> None:
    typed = b"perfect\xff".decode("utf-8", "surrogateescape")  # how Python hands argv over
    with pytest.raises(UnknownWagerError) as info:
        get_wager(typed)
    assert "'perfect\\xff'" in str(info.value)
    assert "udcff" not in str(info.value)


def test_the_command_line_shows_the_byte_as_typed() -> None:
    done = _run("analyze", os.fsdecode(b"perfect\xff"))
    assert done.returncode == 2
    # refused where it is typed, before any command reads it: the byte named, no surrogate shown
    assert b"not valid UTF-8 text (the byte 0xFF at character 8)" in done.stderr, done.stderr
    assert b"udcff" not in done.stderr


def test_locations_count_items_from_one() -> None:
    assert where(("steps", 0, "amount")) == "step 1, amount"
    assert where(("paytables", 2, "lines", 0)) == "paytable 3, line 1"
    assert where(("decks",)) == "decks"


def test_a_round_file_error_names_the_step_as_the_settlement_does(tmp_path: Path) -> None:
    data = json.loads((ROUNDS / "baccarat.json").read_text())
    data["steps"][1]["seat"] = "x"  # the second step
    data["submission"] = str((ROUNDS / data["submission"]).resolve())
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = _run("settle", str(bad))
    assert done.returncode == 2
    assert b"step 2, seat" in done.stderr, done.stderr


def test_a_huge_amount_in_a_round_file_is_one_short_line(tmp_path: Path) -> None:
    data = json.loads((ROUNDS / "baccarat.json").read_text())
    data["steps"][0]["amount"] = "$" + "9" * 5000
    data["submission"] = str((ROUNDS / data["submission"]).resolve())
    bad = tmp_path / "big.json"
    bad.write_text(json.dumps(data))
    done = _run("settle", str(bad))
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300 and "(5,001 characters)" in lines[0]


def test_one_suggestion_rule_for_every_unknown_name() -> None:
    assert closest("Blackjak ", ["blackjack", "baccarat"]) == "blackjack"
    assert suggest("zzz", ["blackjack"]) == ""
    done = _run("strategy", "blackjak")
    assert done.returncode == 2 and b"did you mean 'blackjack'" in done.stderr


def test_bootstrap_help_does_not_speak_of_as() -> None:
    done = _run("meters", "bootstrap", "--help")
    assert b"--as" not in done.stdout


@pytest.mark.parametrize("command", ["settle", "eor", "check"])
def test_no_python_type_in_help(command: str) -> None:
    done = _run(command, "--help")
    assert b"list[" not in done.stdout


def test_a_list_of_choices_reads_as_a_sentence() -> None:
    """'1, 2, 4, 6 or 8', not '1 or 2 or 4 or 6 or 8' (a fresh user's trial of issue 30)."""
    from croupier.errors import one_of

    assert one_of([1, 2, 4, 6, 8]) == "1, 2, 4, 6 or 8"
    assert one_of([6, 8]) == "6 or 8" and one_of(["$5"]) == "$5"


@pytest.mark.parametrize(
    ("wager", "paytable", "printed"),
    [  # § 633b.1(f), § 633b.2(b): 1, 2, 4, 6 or 8 decks; § 633b.3(b): 6 or 8
        (
            "perfect-pairs",
            "A",
            "paytable A of the Perfect Pairs wager is printed for 1, 2, 4, 6 or 8",
        ),
        ("jackpot-party", "P3", "Jackpot Party Progressive wager is played with 1, 2, 4, 6 or 8"),
        ("match-the-dealer", "1", "Match the Dealer Progressive wager is played with 6 or 8"),
    ],
)
def test_the_deck_counts_a_paytable_allows_are_listed_as_a_sentence(
    wager: str, paytable: str, printed: str
) -> None:
    with pytest.raises(CroupierError) as refused:
        get_wager(wager).paytable(paytable, 3)
    assert f"{printed} decks, not 3" in str(refused.value)
    assert " or 2 or " not in str(refused.value)

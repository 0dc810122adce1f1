"""Bad input at the boundary (issue 14): each crash class the fuzz trial found is one typed error,
one ``error:`` line and exit status 2 from the CLI, and changes nothing.

The expected messages are written from the limits stated in docs/limits.md, not copied from the
code's output.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from cli_support import assert_one_error_line, run_main
from croupier.analysis.eor import EffectOfRemoval, RankEffect, balanced_count, effect_of_removal
from croupier.cards import Rank, Shoe, parse_card, parse_cards
from croupier.errors import (
    AmountLimitError,
    CardError,
    CroupierError,
    InputError,
    InputFileError,
    NoCountError,
    PaytableError,
    ShoeError,
    SubmissionError,
    one_line,
)
from croupier.inputs import MAX_FILE_BYTES, parse_json, parse_toml, read_text
from croupier.paytables import load_paytable_file, parse_section_text
from croupier.paytables.pays import parse_pay
from croupier.table.record import settle_file
from croupier.table.submission import load_submission
from croupier.units import amount_schema, parse_amount, parse_money, parse_signed_amount
from croupier.wagers import get_wager

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def one_error_line(args: list[str]) -> str:
    """Run ``croupier ARGS``; assert exit 2, nothing on stdout, exactly one ``error:`` line."""
    return assert_one_error_line(run_main(args))


# ------------------------------------------------------------- Unicode look-alikes in card text


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("\u212ah", "U+212A KELVIN SIGN"),  # folds to k under re.IGNORECASE
        ("A\u017f", "U+017F LATIN SMALL LETTER LONG S"),  # folds to s
        ("\u0130s", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE"),
        ("Ah\u212ad", None),  # run together: not split into cards
        ("K\ue000", "U+E000 a private-use character"),  # Unicode gives it no name
        ("A\U000e0080", "U+E0080 unassigned"),
    ],
)
def test_case_folding_look_alikes_are_not_cards(text: str, named: str | None) -> None:
    with pytest.raises(CardError) as exc:
        parse_cards(text)
    if named:
        assert named in str(exc.value)
    with pytest.raises(CardError):
        parse_card(text)


def test_the_card_pattern_takes_every_ascii_case() -> None:
    assert parse_cards("aH Kd tS 10c qD") == parse_cards("Ah kD Ts 10C Qd")


def test_cli_names_the_kelvin_sign() -> None:
    line = one_error_line(["hand", "perfect-pairs", "\u212ah Kh", "-p", "A", "--decks", "6"])
    assert "KELVIN SIGN" in line


# ------------------------------------------------------------------------------ input files


BAD_UTF8 = b'{"steps": []}\n# caf\xe9\n'


def test_not_utf8_names_the_byte_offset(tmp_path: Path) -> None:
    f = tmp_path / "latin1.json"
    f.write_bytes(BAD_UTF8)
    with pytest.raises(InputFileError) as exc:
        read_text(f)
    assert exc.value.offset == 19  # counted by hand: 14 bytes of JSON, "\n", then "# caf"
    assert "byte 0xe9 at offset 19" in str(exc.value)


@pytest.mark.parametrize(
    ("command", "name", "content"),
    [
        ("settle", "round.json", BAD_UTF8),
        ("check", "table.toml", b'[table]\ngame = "caf\xe9"\n'),
        ("wagers -f", "paytable.toml", b'section = "633b.1"\ntitle = "Caf\xe9"\n'),
    ],
)
def test_cli_files_that_are_not_utf8(
    tmp_path: Path,
    command: str,
    name: str,
    content: bytes,
) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    args = [*command.split(), str(f)]
    if command == "check":
        run = run_main(args)
        assert run.code == 2 and "not UTF-8" in run.err
        return
    line = one_error_line(args)
    assert "not UTF-8" in line and str(f) in line


def test_each_reader_raises_its_own_typed_error(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_bytes(b"\xff")
    with pytest.raises(PaytableError, match="not UTF-8"):
        load_paytable_file(f)
    with pytest.raises(SubmissionError, match="not UTF-8"):
        load_submission(f)
    with pytest.raises(InputFileError, match="not UTF-8"):
        settle_file(f)


# ---------------------------------------------------------------------- numbers and nesting


LONG = "9" * 5000  # beyond Python's 4,300-digit int conversion limit


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (parse_json, '{"amount": ' + LONG + "}"),
        (parse_json, "[-" + LONG + "]"),
        (parse_toml, "x = " + LONG),
        (parse_toml, "x = 1_" + LONG),
        (parse_toml, "x = 0x" + "f" * 5000),  # no decimal digits, still too large
        (parse_json, "[" * 1000 + "]" * 1000),
        (parse_json, '{"a":' * 1000 + "1" + "}" * 1000),
        (parse_toml, "x = " + "[" * 600 + "]" * 600),
        (parse_toml, "x = " + "{a = " * 600 + "1" + "}" * 600),
        (parse_toml, "x." * 600 + "y = 1"),  # dotted keys nest without a bracket
        (parse_json, "[NaN]"),
    ],
)
def test_numbers_and_nesting_beyond_the_limits(
    parse: Callable[[str, str], object], text: str
) -> None:
    with pytest.raises(InputFileError) as exc:
        parse(text, "in.txt")
    assert str(exc.value).startswith("in.txt: ")


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    assert parse_json('{"a": "' + "[" * 100 + '"}', "x") == {"a": "[" * 100}
    assert parse_toml("# " + "[" * 100 + "\nb = '" + "{" * 100 + "'", "x") == {"b": "{" * 100}


def test_a_long_integer_in_a_round_file_is_one_line(tmp_path: Path) -> None:
    f = tmp_path / "round.json"
    f.write_text('{"submission": "t.toml", "steps": [{"seat": ' + LONG + "}]}", encoding="utf-8")
    assert "digits" in one_error_line(["settle", str(f)])


def test_deep_toml_submission_is_one_line(tmp_path: Path) -> None:
    f = tmp_path / "deep.toml"
    f.write_text("x = " + "[" * 600 + "]" * 600, encoding="utf-8")
    run = run_main(["check", str(f)])
    assert run.code == 2 and "nested" in run.err


@pytest.mark.parametrize("text", ["1e400", "1e999999999", "NaN", "inf", "-inf", "sNaN", LONG])
def test_huge_and_non_finite_amounts(text: str) -> None:
    with pytest.raises(InputError):
        parse_amount(text, "--amount")
    line = one_error_line(["hand", "perfect-pairs", "Ah Kh", "-p", "A", "-d", "6", "-a", text])
    assert "--amount" in line


def test_printed_dollar_amounts_have_a_digit_limit() -> None:
    assert parse_money("$999,999,999.99") == 99_999_999_999  # the largest amount: 9 digits
    with pytest.raises(PaytableError, match=r"over croupier's limit: .*\$999,999,999\.99"):
        parse_money("$1,000,000,000")
    with pytest.raises(PaytableError):
        parse_money("$" + LONG)


def test_amounts_as_typed() -> None:
    # cents written out by hand
    assert [parse_amount(t, "x") for t in ("5", "$5", "0.25", "12,345.67", " 5\n", "$ 7.5")] == [
        500,
        500,
        25,
        1_234_567,
        500,
        750,
    ]
    assert (parse_amount(".50", "x"), parse_amount("5.500", "x")) == (50, 550)


READ = ["5", "$5", "0.25", ".5", "$.50", "12,345.67", "$ 7.5", " 5 ", "\t5\n", "5.500",
        "999,999,999.99", "$999999999.99", "0", "007"]  # fmt: skip
"""Amounts croupier reads (zero is read, then refused as not positive)."""
NOT_READ = ["+5", "-5", "5.", ".", "", " ", "$", "1e3", "NaN", "inf", "1,23", "12,3456",
            "5.123", "5.5.5", "$１０", "5 5", "$,5", ",5", "5$", "$$5", "\u00a05", "5\u2003",
            "0x10", "1_000", "(5)"]  # fmt: skip
"""Text that is no amount croupier reads: a sign where none is taken, a point without digits,
a third decimal, whitespace other than ASCII's around it."""
SIGNED_READ = ["-5", "+5", "-$5", "+$1.50", "-.5", "0", " -5 ", "-$ 5"]
SIGNED_NOT_READ = ["--5", "+-5", "- 5", "$-5", "5-", "-", "+", "-5.", "−5"]  # the last: U+2212


def _read(parse: Any, text: str) -> bool:
    """Whether ``parse`` reads ``text`` as an amount (a positive-amount refusal is read)."""
    try:
        parse(text, "x")
    except AmountLimitError:
        raise
    except InputError as exc:
        return "positive amount" in str(exc)
    return True


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_the_amount_pattern_and_the_parser_agree(signed: bool) -> None:
    """The OpenAPI document's ``pattern`` of an amount (what a client is told) takes what the
    parser takes, within the limit, and refuses what it refuses; over the limit the pattern
    refuses and the parser names the limit."""
    pattern = re.compile(amount_schema(signed)["pattern"])
    parse = parse_signed_amount if signed else parse_amount
    read = READ + SIGNED_READ if signed else READ
    not_read = [t for t in NOT_READ if t not in SIGNED_READ] + SIGNED_NOT_READ
    for text in read:
        assert _read(parse, text), text
        assert pattern.match(text), text
    for text in not_read:
        assert not _read(parse, text), text
        assert not pattern.match(text), text
    for text in ("1000000000", "1,000,000,000.00", "$9999999999.99"):
        assert not pattern.match(text), text
        with pytest.raises(AmountLimitError):
            parse(text, "x")


def test_an_amount_refused_is_quoted_as_written() -> None:
    """The sign and the spaces the user wrote are in the message: "-1000000000.00" was quoted
    as '1000000000.00'."""
    with pytest.raises(AmountLimitError, match=r"'-1000000000\.00' is over croupier's limit"):
        parse_signed_amount("-1000000000.00", "--meter")
    with pytest.raises(InputError, match=r"not '\+5'"):
        parse_amount("+5", "--amount")
    with pytest.raises(InputError, match=r"not '--5'"):
        parse_signed_amount("--5", "--meter")


# -------------------------------------------------------------------------------- paths


def test_a_nul_byte_in_a_path(tmp_path: Path) -> None:
    bad = str(tmp_path / "a\x00b.json")
    with pytest.raises(InputFileError, match="NUL"):
        read_text(bad)
    line = one_error_line(["settle", bad])  # Typer's own check of the path, or croupier's
    assert "null byte" in line.replace("NUL", "null") and "\x00" not in line


def test_a_path_that_is_not_text(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="not valid text"):
        read_text(str(tmp_path / "bad\ud800.json"))
    with pytest.raises(InputFileError, match="cannot read"):
        read_text(tmp_path / ("x" * 5000))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_not_read(device: str) -> None:
    if not os.path.exists(device):  # pragma: no cover
        pytest.skip(f"no {device}")
    with pytest.raises(InputFileError, match="not a regular file"):
        read_text(device)
    assert "not a regular file" in one_error_line(["settle", device])
    assert "not a regular file" in one_error_line(["wagers", "-f", device])


def test_a_fifo_is_not_opened_for_a_blocking_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(InputFileError, match="not a regular file"):
        read_text(fifo)  # would block for ever without O_NONBLOCK and the stat check
    with pytest.raises(InputFileError, match="a directory"):
        read_text(tmp_path)


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    f = tmp_path / "big.toml"
    f.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(InputFileError, match="1,048,576 bytes"):
        read_text(f)
    f.write_bytes(b"#" * MAX_FILE_BYTES)
    assert len(read_text(f)) == MAX_FILE_BYTES


# ----------------------------------------------------------------- one line, whatever the text


def test_control_characters_are_escaped_in_every_message() -> None:
    assert one_line("a\nb\r\x00\x1b[31m\u2028") == "a\\nb\\r\\x00\\x1b[31m\\u2028"
    with pytest.raises(CroupierError) as exc:
        parse_cards("Ah\nerror: forged")
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize(
    "args",
    [
        ["hand", "perfect-pairs", "Ah Kh", "-p", "A", "-d", "6", "-a", "5\nerror: forged"],
        ["hand", "perfect-pairs", "Ah\nerror: forged", "-p", "A", "-d", "6"],
        ["hand", "perfect-pairs\nerror: forged", "Ah Kh"],
        ["hand", "perfect-pairs", "Ah Kh", "-p", "A", "-d", "six\nerror: forged"],
        ["settle", "no\nsuch\x1b[2J.json"],
    ],
)
def test_user_text_cannot_split_the_error_line(args: list[str]) -> None:
    line = one_error_line(args)
    assert "\x1b" not in line


def test_a_rejected_paytable_file_changes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_bytes(b"\xff")
    before = get_wager("perfect-pairs").paytables()
    one_error_line(["wagers", "-f", str(f)])
    assert get_wager("perfect-pairs").paytables() == before
    with pytest.raises(PaytableError):
        parse_section_text("x = " + "[" * 600 + "]" * 600, "p.toml")


# ---------------------------------------------------------------------- effect of removal


def _perfect_pairs_return(black: tuple[int, int], red: tuple[int, int], others: int) -> Fraction:
    """Perfect Pairs paytable A (25/12/6 to 1) over a shoe where one rank has ``black`` (clubs,
    spades) and ``red`` (diamonds, hearts) copies and the other 12 ranks ``others`` of each card,
    by hand: pairs of one card type, of two suits of a color, of two colors."""
    n = sum(black) + sum(red) + 12 * 4 * others
    perfect = sum(comb(c, 2) for c in (*black, *red)) + 12 * 4 * comb(others, 2)
    colored = black[0] * black[1] + red[0] * red[1] + 12 * 2 * others * others
    mixed = sum(black) * sum(red) + 12 * (2 * others) * (2 * others)
    hands = comb(n, 2)
    lose = hands - perfect - colored - mixed
    return Fraction(25 * perfect + 12 * colored + 6 * mixed - lose, hands)


def test_perfect_pairs_effect_of_removal_by_hand() -> None:
    eor = effect_of_removal(get_wager("perfect-pairs"), "A", decks=2)
    full = _perfect_pairs_return((2, 2), (2, 2), 2)
    without_ace = _perfect_pairs_return((1, 2), (2, 2), 2)  # A♣ (or any one ace) removed
    assert eor.expected_return == full
    assert without_ace == full  # by hand: one card of a rank alone does not move the return
    assert all(r.expected_return == without_ace and r.effect == 0 for r in eor.effects)
    with pytest.raises(NoCountError, match="exactly 0"):
        balanced_count(eor)
    # ... but two cards of a rank do: the return is not "independent of the cards removed"
    assert _perfect_pairs_return((1, 1), (2, 2), 2) != full


def test_no_balanced_count_when_one_rank_alone_differs() -> None:
    # Match the Dealer's pattern: the ace's effect is −12 times every other rank's
    e = Fraction(1, 1000)
    effects = tuple(RankEffect(r, -e, -12 * e if r is Rank.ACE else e) for r in Rank)
    eor = EffectOfRemoval("match-the-dealer", "Match the Dealer", "633b.3", "1", 6, -e, effects)
    with pytest.raises(NoCountError, match="at most ±4"):
        balanced_count(eor)


def test_eor_perfect_pairs_cli_shows_the_effects_and_why_there_is_no_count() -> None:
    run = run_main(["eor", "perfect-pairs", "-p", "A", "--decks", "2"])
    assert run.code == 0, run.err
    assert "does not depend" not in run.out
    assert "exactly 0" in run.out.replace("\n", " ")


def test_eor_refuses_a_wager_too_slow_to_count_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_RECOUNT", "1")  # not the shipped counts: count them now
    with pytest.raises(InputError, match="52 exact counts"):
        effect_of_removal(get_wager("match-the-dealer"), "1", decks=6, budget_seconds=0.001)


def test_eor_of_a_wager_without_a_partial_shoe_analysis_is_typed() -> None:
    with pytest.raises(InputError, match="cannot compute the effect of removal"):
        effect_of_removal(get_wager("four-card-poker"), "25-20-2", decks=1)


# ------------------------------------------------------------ numbers in the Python API


@pytest.mark.parametrize(
    "text", [LONG + " to 1", "1 to " + LONG, LONG + " for 1", LONG + "% of Progressive", "٣ to 1"]
)
def test_pays_with_numbers_too_long_or_not_ascii(text: str) -> None:
    with pytest.raises(PaytableError, match="cannot read pay"):
        parse_pay(text)


@pytest.mark.parametrize(
    "decks",
    [0, 1001, 10**12, 10**5000, -(10**5000)],
    ids=["0", "1001", "1e12", "1e5000", "-1e5000"],
)
def test_shoes_beyond_the_limit(decks: int) -> None:
    with pytest.raises(ShoeError, match="1 to 1,000 decks"):
        Shoe.standard(decks)
    if decks:  # a composition of no cards is a (empty) shoe
        with pytest.raises(ShoeError, match="from 0 to 1,000"):
            Shoe((decks,) * 52)


def test_shoe_counts_of_the_wrong_kind() -> None:
    with pytest.raises(ShoeError, match="whole number"):
        Shoe.from_counts({"Ah": "2"})  # type: ignore[dict-item]
    with pytest.raises(ShoeError, match="counts cards"):
        Shoe.from_counts({3: 1})  # type: ignore[dict-item]


@pytest.mark.parametrize(
    "amount", [10**5000, 10**15, 0, -5, True], ids=["1e5000", "1e15", "0", "-5", "True"]
)
def test_settle_amounts_beyond_the_limit(amount: int) -> None:
    w = get_wager("perfect-pairs")
    with pytest.raises(InputError, match="whole number of cents from 1 to 99999999999"):
        w.settle(parse_cards("Ah As"), w.paytable("A", 6), amount, 6)


def test_check_lists_violations_one_line_each(tmp_path: Path) -> None:
    f = tmp_path / "inject.toml"
    f.write_text('"a\\nb" = 1\n[table]\ngame = "x"\n', encoding="utf-8")  # a key with a newline
    run = run_main(["check", str(f)])
    assert run.code == 2
    lines = run.error_lines()
    assert lines[0] == f"{f}: {len(lines) - 1} violations"
    assert all(line.startswith("  ") for line in lines[1:])
    assert any("a\\nb" in line for line in lines)


def test_check_under_json_explains_its_exit_status_on_stderr() -> None:
    """Found by the fuzz suite: `croupier check '' --json` exited 2 with nothing on stderr (the
    path '' is the directory '.', which croupier does not read); the JSON lists the violation and
    stderr has one error line for the file."""
    run = run_main(["check", "", "--json"])
    assert run.code == 2
    assert run.error_lines() == [
        "error: .: cannot read: a directory (croupier reads regular files)"
    ]
    assert "a directory" in json.loads(run.out)["."][0]["message"]

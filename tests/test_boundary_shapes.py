"""Shapes a new user reached for and croupier misread (a fresh trial of the README, issue 14):
card text given where cards are expected, "$0.5" in a file, an unreadable submission, and the
simulators' names and signs for what they measured."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import run_main
from croupier.cards import Card, Rank, Suit, as_cards
from croupier.errors import CardError, PaytableError
from croupier.units import parse_money
from croupier.wagers import get_wager


def test_settle_reads_card_text_as_cards_not_characters() -> None:
    """``settle("8s 8s", …)`` read the string as five one-character cards; 8♠ 8♠ is a Perfect
    Pair, which paytable A pays 25 to 1 (§ 633b.1(e)): $5 wins $125."""
    pp = get_wager("perfect-pairs")
    table = next(t for t in pp.paytables() if t.key == "A")
    s = pp.settle("8s 8s", table, 500, 6)
    assert (s.win_cents, s.returned_cents) == (25 * 500, 26 * 500)
    assert s.cards == (Card(Rank.EIGHT, Suit.SPADES),) * 2
    assert pp.evaluate(["8s", "8h"]) == pp.evaluate(
        (Card(Rank.EIGHT, Suit.SPADES), Card(Rank.EIGHT, Suit.HEARTS))
    )


def test_as_cards_takes_text_cards_or_both_and_rejects_the_rest() -> None:
    ah = Card(Rank.ACE, Suit.HEARTS)
    assert as_cards("Ah Kd")[0] == ah
    assert as_cards([ah, "Kd"]) == as_cards("AhKd")
    for bad in (5, None, [1.5], "1h"):
        with pytest.raises(CardError):
            as_cards(bad)  # type: ignore[arg-type]


def test_a_dollar_amount_with_one_decimal_is_read_as_whole_cents() -> None:
    """ "$0.5" is fifty cents on the command line (parse_amount); in a file it now is too."""
    assert (parse_money("$0.5"), parse_money("$2.50"), parse_money("$0.05")) == (50, 250, 5)
    for bad in ("$0.505", "0.5", "$.5", "$1e3"):
        with pytest.raises(PaytableError):
            parse_money(bad)


def test_check_calls_a_missing_file_an_error_not_a_violation() -> None:
    r = run_main(["check", "/nonexistent/submission.toml"])
    assert r.code == 2
    assert r.error_lines() == [
        "error: /nonexistent/submission.toml: cannot read: No such file or directory"
    ]


def test_simulate_calls_observed_shares_frequencies() -> None:
    r = run_main(
        ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "2000", "-s", "1", "--json"]
    )
    assert r.code == 0, r.err
    data = json.loads(r.out)
    for row in data["outcomes"]:
        assert "probability" not in row and "probability_exact" not in row
        hits, rounds = map(int, row["frequency_fraction"].split("/"))
        assert row["hits"] * rounds == hits * data["rounds"]


def test_both_simulators_sign_z_as_simulated_minus_exact_house_edge() -> None:
    r = run_main(
        ["simulate", "perfect-pairs", "-p", "A", "-d", "6", "-n", "3000", "-s", "2", "--json"]
    )
    d = json.loads(r.out)
    assert (d["z_score"] > 0) == (d["house_edge"] > d["exact_house_edge"])
    r = run_main(["simulate-shoes", "--shoes", "40", "--seed", "4", "--json"])
    assert r.code == 0, r.err
    rows = json.loads(r.out)["wagers"]
    assert rows
    for row in rows:
        diff = row["simulated_house_edge"] - row["exact_house_edge"]
        if abs(diff) > 1e-12:
            assert (row["z_score"] > 0) == (diff > 0), row


def test_play_deals_a_fresh_session_each_time_and_says_how_to_deal_it_again() -> None:
    """``play`` without ``--seed`` dealt seed 0 every time: a dealer in training saw the same
    rounds each session. Now a fresh seed, printed, replays the session exactly."""
    sub = "examples/submissions/blackjack-6deck.toml"
    seeds, outs = [], []
    for _ in range(2):
        r = run_main(["play", "--submission", sub, "--json"])
        assert r.code == 0, r.err
        (line,) = [x for x in r.error_lines() if x.startswith("seed ")]
        seeds.append(int(line.split()[1]))
        outs.append(r.out)
    assert seeds[0] != seeds[1]  # 2^-32 chance of a false failure
    again = run_main(["play", "--submission", sub, "--json", "--seed", str(seeds[0])])
    assert again.out == outs[0]


def test_a_user_paytable_missing_an_outcome_is_told_how_to_leave_it_unpaid(tmp_path: Path) -> None:
    """A designer who left out Mixed Pair got "no line for mixed-pair" and no hint; the line
    that leaves an outcome unpaid is ``pays = "N/A"``, and with it the file loads."""
    head = (
        'section = "633b.1"\ntitle = "mine"\ncitation = "house"\n\n'
        '[[paytables]]\nid = "X"\ndecks = [6]\nlines = [\n'
    )
    lines = [
        '  { outcome = "perfect-pair", label = "Perfect Pair", pays = "30 to 1" },\n',
        '  { outcome = "colored-pair", label = "Colored Pair", pays = "15 to 1" },\n',
    ]
    path = tmp_path / "mine.toml"
    path.write_text(head + "".join(lines) + "]\n", encoding="utf-8")
    args = ["analyze", "perfect-pairs", "-p", "X", "-d", "6", "--paytable-file", str(path)]
    r = run_main(args)
    assert r.code == 2
    (line,) = r.error_lines()
    assert "no line for mixed-pair" in line and 'pays = "N/A"' in line
    na = '  { outcome = "mixed-pair", label = "Mixed Pair", pays = "N/A" },\n'
    path.write_text(head + "".join(lines) + na + "]\n", encoding="utf-8")
    r = run_main([*args, "--json"])
    assert r.code == 0, r.err
    # 6 decks, 312 cards: perfect pairs 52·C(6,2) = 780, coloured 26·6·6 = 936 (hand counts)
    rows = {o["outcome"]: o for o in json.loads(r.out)["outcomes"]}
    assert rows["perfect-pair"]["combinations"] == 52 * 15
    assert rows["colored-pair"]["combinations"] == 26 * 36


def test_a_table_round_takes_a_hit_card_as_text() -> None:
    """``r.hit(1, "Tc")`` ended in AttributeError: 'str' object has no attribute 'rank'."""
    from croupier.table import DealtCards, TableRound, load_submission

    r = TableRound.open(load_submission("examples/submissions/blackjack-6deck.toml"))
    r = r.bet(1, "blackjack", 1000).no_more_bets()
    r = r.deal(DealtCards(players={1: "9s 2h"}, dealer="Kd 7c"))
    r = r.double(1, card="Tc").settle()  # 9 + 2 + 10 = 21 against 17: the doubled $20 wins
    (line,) = r.settlement().lines
    assert (line.wager, line.win_cents) == ("blackjack", 2000)
    r = TableRound.open(load_submission("examples/submissions/blackjack-6deck.toml"))
    r = (
        r.bet(1, "blackjack", 1000)
        .no_more_bets()
        .deal(DealtCards(players={1: "9s 2h"}, dealer="Kd 7c"))
    )
    for bad in ("Tc Jc", "1h", 7):
        with pytest.raises(CardError):
            r.hit(1, bad)  # type: ignore[arg-type]


def test_parsheet_compares_the_deck_counts_asked_for() -> None:
    """``--decks 6 --decks 8`` kept only the last; a manager compares both in one table.
    Perfect Pairs' paytables A and B are printed for 1, 2, 4, 6 and 8 decks (§ 633b.1(f))."""
    r = run_main(["parsheet", "--json", "--wager", "perfect-pairs", "-d", "6", "-d", "8"])
    assert r.code == 0, r.err
    got = {(s["paytable"], s["decks"]) for s in json.loads(r.out)["parsheets"]}
    assert got == {(p, d) for p in "AB" for d in (6, 8)}
    r = run_main(["parsheet", "--summary", "--wager", "match-the-dealer", "-d", "8"])
    # each breakeven meter says the wager size it is for (the summary's sheets are $1 wagers)
    assert len(re.findall(r"\$[\d,]+\.\d\d on \$1 ", r.out)) == 10  # paytables 1-10


def test_the_ante_and_play_lines_say_what_they_pay_in_the_tables_words() -> None:
    """The pays column of the Ante and the Play said "+$10": a win is even money, "1 to 1"
    (§ 641a.7(d)(1)); a fold loses the Ante."""
    args = ["four-card-poker", "9h 9c 9d Ks 2s", "Ah 3c 4d 8s Jc Qd", "--json"]
    r = run_main([*args, "-b", "ante=10", "-b", "play=30"])
    assert r.code == 0, r.err
    pays = {x["wager"]: x["pays"] for x in json.loads(r.out)["settlement"]["lines"]}
    assert pays["four-card-poker:ante"] == pays["four-card-poker:play"] == "1 to 1"
    r = run_main([*args, "-b", "ante=10"])  # no Play: the player folds
    pays = {x["wager"]: x["pays"] for x in json.loads(r.out)["settlement"]["lines"]}
    assert pays["four-card-poker:ante"] == "loses"


def test_simulate_takes_the_paytable_as_analyze_does() -> None:
    """``simulate axman --decks 6`` demanded --paytable where ``analyze`` takes the only one."""
    r = run_main(["simulate", "axman", "-d", "6", "-n", "2000", "--json"])
    assert r.code == 0, r.err
    only = [t.key for t in get_wager("axman").paytables()]
    assert json.loads(r.out)["paytable"] == only[0] and len(set(only)) == 1
    r = run_main(["simulate", "perfect-pairs", "-d", "6", "-n", "2000"])
    assert r.code == 2 and "give --paytable" in r.err


def test_a_dealer_adding_staff_is_refused_for_the_role_before_the_credential(
    tmp_path: Path,
) -> None:
    """Through the library (the service's path) as through the CLI: who may add staff is
    checked before what they typed for the new member's credential (§ 605a.7)."""
    from croupier.errors import AuthorizationError
    from croupier.progressive import Role
    from progressive_support import DEALER, mtd_ledger

    with mtd_ledger(f"sqlite:///{tmp_path / 'l.sqlite3'}") as ledger:
        with pytest.raises(AuthorizationError) as info:
            ledger.add_user("mallory", Role.SHIFT_MANAGER, "x", by=DEALER)
        assert info.value.section == "605a.7"
        assert "mallory" not in {m.name for m in ledger.users()}


def test_a_misspelt_wager_for_paytables_gets_a_did_you_mean() -> None:
    """`croupier paytables perfect-pair` (the singular a user types) suggests the wager."""
    run = run_main(["paytables", "perfect-pair"])
    assert run.code == 2
    assert "no section or wager 'perfect-pair'; did you mean 'perfect-pairs'?" in run.err


@pytest.mark.parametrize(
    "command",
    [["blackjack-round"], ["hand"], ["meters", "create"], ["serve"], ["four-card-poker"]],
    ids=" ".join,
)
def test_help_at_eighty_columns_cuts_nothing_and_names_no_python_types(command: list[str]) -> None:
    """Issue 14: --help complete and untruncated on an 80-column terminal — a long option name
    (--dealer-stops-without-live-hands) or word ('Mega=60000,Major=6000', a database URL) is
    wrapped, never cut with '…'; a repeatable option shows its element, not '<list[str]>'."""
    run = subprocess.run(
        [sys.executable, "-m", "croupier", *command, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "80", "TERM": "dumb"},
    )
    assert run.returncode == 0, run.stderr
    assert "…" not in run.stdout
    assert "<list[" not in run.stdout and "<bool>" not in run.stdout
    if command == ["blackjack-round"]:  # the option's name whole, over two lines if need be
        assert "--dealer-stops-without-live-hands" in run.stdout or (
            "--dealer-stops-withou" in run.stdout and "t-live-hands" in run.stdout
        )
    if command == ["hand"]:
        assert "'Mega=60000,Major=6000" in run.stdout

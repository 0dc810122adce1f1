"""Adding a wager is two files (issue 13): a module and its paytable data file, nothing else —
then its stored counts regenerated (issue 28).

The test copies the croupier package, writes exactly the two files the README's "Adding a wager"
asks for — ``wagers/queens_up.py`` and ``paytables/data/699z.1.toml`` for an invented Blackjack
side wager, Queens Up, of an invented section § 699z.1 — and runs the copy in a fresh interpreter:
the Rules Submission that offers it is accepted, the round file is settled by ``croupier settle``,
and the wager is settled at the moment it declares (right after the second card, before any
player's decision and before AxMan, which is settled after the round), seat by seat from the
dealer's right, at the pays of its paytable worked here by hand.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import croupier

MODULE = '''
"""Queens Up wager (an invented § 699z.1, for the test): the player's two cards and the dealer's
upcard hold three queens or two."""

from collections.abc import Sequence

from croupier.cards import Card, Rank
from croupier.wagers import (
    CardGroup,
    CardSource,
    DealSpec,
    Game,
    OrderedOutcome,
    SettleWhen,
    Wager,
    WagerSpec,
    register,
)


class QueensUpOutcome(OrderedOutcome):
    THREE_QUEENS = "three-queens"
    TWO_QUEENS = "two-queens"


@register
class QueensUp(Wager):
    spec = WagerSpec(
        id="queens-up",
        name="Queens Up",
        game=Game.BLACKJACK,
        section="699z.1",
        settle_rule="699z.1(c)",
        outcomes=QueensUpOutcome,
        deal=DealSpec(
            (
                CardGroup("player's two cards", 2, source=CardSource.PLAYER),
                CardGroup("dealer's upcard", 1, ordered=True, source=CardSource.DEALER_UPCARD),
            )
        ),
        allowed_decks=(6, 8),
        decks_rule="699z.1(a)",
        base_wagers=("blackjack",),
        base_rule="699z.1(a)",
        settled=SettleWhen.SECOND_CARD,
        lockout_rule="699z.1(b)",
    )

    def classify(self, cards: Sequence[Card]) -> QueensUpOutcome | None:
        queens = sum(c.rank is Rank.QUEEN for c in cards)
        if queens == 3:
            return QueensUpOutcome.THREE_QUEENS
        return QueensUpOutcome.TWO_QUEENS if queens == 2 else None
'''

PAYTABLE = """
section = "699z.1"
title = "Queens Up wager"
citation = "58 Pa. Code § 699z.1(d)"

[[paytables]]
id = "A"
decks = [6, 8]
lines = [
  { outcome = "three-queens", label = "Three Queens", pays = "50 to 1" },
  { outcome = "two-queens", label = "Two Queens", pays = "5 to 1" },
]
"""

SUBMISSION = """
game = "blackjack"
name = "BJ-6 with Queens Up"
decks = 6
dealer = "S17"

[[wagers]]
wager = "blackjack"
min = "$10"
max = "$500"

[[wagers]]
wager = "perfect-pairs"
paytable = "A"
min = "$5"
max = "$100"

[[wagers]]
wager = "queens-up"
paytable = "A"
min = "$5"
max = "$100"

[[wagers]]
wager = "axman"
paytable = "standard"
min = "$5"
max = "$100"
"""

ROUND = {
    "submission": "table.toml",
    "steps": [
        {"action": "bet", "seat": 1, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 1, "wager": "queens-up", "amount": "$5"},
        {"action": "bet", "seat": 1, "wager": "perfect-pairs", "amount": "$5"},
        {"action": "bet", "seat": 1, "wager": "axman", "amount": "$10"},
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$50"},
        {"action": "bet", "seat": 3, "wager": "queens-up", "amount": "$10"},
        {"action": "no-more-bets"},
        {"action": "deal", "players": {"1": "Qh Qs", "3": "Qd 5c"}, "dealer": "Qc 9h"},
        {"action": "stand", "seat": 1},
        {"action": "stand", "seat": 3},
        {"action": "settle"},
    ],
}

LATE = """
from croupier.errors import LockoutError, ProcedureError
from croupier.table import TableRound, load_submission

sub = load_submission("table.toml")
r = TableRound.open(sub)
try:
    r.bet(2, "queens-up", 500)
except ProcedureError as exc:
    print("no base:", exc.section)
r = r.bet(2, "blackjack", 1000).no_more_bets()
try:
    r.bet(2, "queens-up", 500)
except LockoutError as exc:
    print("late:", exc.section)
"""


NOT_STORED = """
import json
from croupier.analysis import eor_store, precomputed
from croupier.analysis.precomputed import class_name, fingerprint

counts = precomputed.stored()
eor = eor_store.stored()
print(json.dumps({
    "regenerate": sorted(
        f"{w.id} {d}"
        for w, d in precomputed.offerings()
        if (e := counts.get((class_name(type(w)), d))) is None or e.fingerprint != fingerprint(type(w))
    ),
    "eor_store": sorted(
        f"{w.id} {d}"
        for w, d in eor_store.stored_offerings()
        if (e := eor.get((class_name(type(w)), d))) is None or e[0] != fingerprint(type(w))
    ),
}))
"""
"""The offerings whose stored counts (exact counts; counts of the shoe less each card) are not
stored or stale, by the command that stores them: what tests/analysis/test_precomputed.py and
tests/analysis/test_eor_store.py check."""


def _copy_with_the_two_files(tmp: Path) -> Path:
    package = Path(croupier.__file__).resolve().parent
    src = tmp / "src"
    shutil.copytree(package, src / "croupier", ignore=shutil.ignore_patterns("__pycache__"))
    (src / "croupier" / "wagers" / "queens_up.py").write_text(MODULE, encoding="utf-8")
    (src / "croupier" / "paytables" / "data" / "699z.1.toml").write_text(PAYTABLE, "utf-8")
    (tmp / "table.toml").write_text(SUBMISSION, encoding="utf-8")
    (tmp / "round.json").write_text(json.dumps(ROUND), encoding="utf-8")
    (tmp / "late.py").write_text(LATE, encoding="utf-8")
    return src


def _run(tmp: Path, src: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [sys.executable, *args], cwd=tmp, env=env, capture_output=True, text=True, check=False
    )


def _cli(tmp: Path, src: Path, *args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from croupier.cli import main; sys.argv[0] = 'croupier'; main()"
    return _run(tmp, src, "-c", code, *args)


def test_a_wager_added_as_two_files_is_settled_at_the_table(tmp_path: Path) -> None:
    src = _copy_with_the_two_files(tmp_path)
    where = _run(tmp_path, src, "-c", "import croupier; print(croupier.__file__)")
    assert where.stdout.strip().startswith(str(src)), where  # the copy runs, not the original

    checked = _cli(tmp_path, src, "check", "table.toml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ok" in checked.stdout

    settled = _cli(tmp_path, src, "settle", "round.json", "--json")
    assert settled.returncode == 0, settled.stdout + settled.stderr
    (data,) = json.loads(settled.stdout)
    events: list[dict[str, Any]] = data["events"]
    deal = next(e["index"] for e in events if e["action"] == "deal")
    first_stand = next(e["index"] for e in events if e["action"] == "stand")
    queens = [e for e in events if e["wager"] == "queens-up" and e["action"] == "settlement"]
    # right after the second card: between the deal and the first decision
    assert all(deal < e["index"] < first_stand for e in queens)
    # seat 3 first (the dealer's right); Perfect Pairs (§ 633b.1) before Queens Up (§ 699z.1)
    after_deal = [(e["seat"], e["wager"]) for e in events[deal + 1 : first_stand]]
    assert after_deal == [(3, "queens-up"), (1, "perfect-pairs"), (1, "queens-up")]
    # Q♥ Q♠ with the Q♣ up: three queens, 50 to 1 on $5; Q♦ 5♣ with Q♣: two queens, 5 to 1 on $10
    assert [(e["seat"], e["win_cents"], e["returned_cents"], e["section"]) for e in queens] == [
        (3, 5 * 1000, 6 * 1000, "699z.1(c)"),
        (1, 50 * 500, 51 * 500, "699z.1(c)"),
    ]
    # AxMan after the round, after the decisions; every bet has its line
    axman = next(
        e["index"] for e in events if e["wager"] == "axman" and e["action"] == "settlement"
    )
    assert axman > first_stand
    lines = data["settlement"]["lines"]
    bets = {(s["seat"], s["wager"]) for s in ROUND["steps"] if s["action"] == "bet"}  # type: ignore[index]
    assert {(line["seat"], line["bet"]) for line in lines} == bets

    late = _run(tmp_path, src, "late.py")
    assert late.returncode == 0, late.stderr
    assert late.stdout.split("\n")[:2] == ["no base: 699z.1(a)", "late: 699z.1(b)"]


def test_a_wager_added_has_its_counts_to_store_and_no_other(tmp_path: Path) -> None:
    """The README's last step: the new wager's counts are not stored, so the stored-count checks
    name it (and only it: its files change no other wager's fingerprint) until both stores are
    regenerated — which the test does not do (minutes)."""
    src = _copy_with_the_two_files(tmp_path)
    original = Path(croupier.__file__).resolve().parent.parent
    before = json.loads(_run(tmp_path, original, "-c", NOT_STORED).stdout)
    run = _run(tmp_path, src, "-c", NOT_STORED)
    assert run.returncode == 0, run.stderr
    after = json.loads(run.stdout)
    for store in ("regenerate", "eor_store"):
        assert set(after[store]) - set(before[store]) == {"queens-up 6", "queens-up 8"}, store
        assert set(before[store]) <= set(after[store]), store


def test_the_readme_says_which_two_files() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding a wager", 1)[1].split("\n## ", 1)[0]
    for words in ("paytables/data/", "base_wagers", "settled", "lockout_rule", "source="):
        assert words in section, words
    for words in ("spec = WagerSpec(", "python -m croupier.analysis.regenerate"):
        assert words in section, words
    assert "python -m croupier.analysis.eor_store" in section

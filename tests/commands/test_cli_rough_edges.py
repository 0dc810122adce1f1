"""Rough edges a fresh user's trial of the README found (stop 13), each fixed as a class."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.errors import UnknownWagerError
from croupier.wagers import get_wager
from repo_paths import ROOT


def _closed_early(args: list[str]) -> tuple[int, bytes]:
    """Run ``croupier ARGS`` with its stdout closed before it writes (a ``| head`` reader gone)."""
    env = {**os.environ, "COLUMNS": "100"}
    p = subprocess.Popen(
        [sys.executable, "-m", "croupier", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read()
    return p.wait(timeout=60), err


@pytest.mark.parametrize(
    "args",
    [
        ["paytables", "--json"],  # normal output
        ["paytables", "633b.9", "--json"],  # the --json error object
    ],
)
def test_a_closed_pipe_is_no_traceback(args: list[str]) -> None:
    code, err = _closed_early(args)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err
    assert code in (1, 2)


def test_a_misspelt_wager_id_gets_did_you_mean() -> None:
    with pytest.raises(UnknownWagerError, match="did you mean 'perfect-pairs'"):
        get_wager("perfect-pair")


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        # Player 2+2=4 draws Q (0): 4; Banker 4+3=7 stands: 5 cards used
        ("2s 4h 2d 3c Qc 5d", "the Banker stands"),
        # Player 2+2=4 draws 3 (7); Banker 4+Q=4 draws on a Player's 3rd card of 3: 6 used
        ("2s 4h 2d Qc 3h 5d 7c", "each hand has drawn its one third card"),
        # Player 3+4=7 stands; Banker 2+Q=2 draws: 5 used
        ("3s 2h 4d Qc 5d 9c", "the Player stands and the Banker's draw ends the coup"),
    ],
)
def test_extra_coup_cards_say_why_the_coup_ended(cards: str, why: str) -> None:
    """§ 631a.11: the message names which hands drew (the trial's 7-card coup said the Banker
    stood though it drew the 5d)."""
    from croupier.cards import parse_cards
    from croupier.errors import RulesError
    from croupier.games.baccarat import deal_coup

    with pytest.raises(RulesError, match=f"\\({why}\\)"):
        deal_coup(parse_cards(cards))


_H1 = """
section = "{section}"
title = "a designer's Perfect Pairs"
citation = "house paytable"

[[paytables]]
id = "H1"
decks = [6]
lines = [
  {{ outcome = "perfect-pair", label = "Perfect Pair", pays = "25 to 1" }},
  {{ outcome = "colored-pair", label = "Colored Pair", pays = "12 to 1" }},
  {{ outcome = "mixed-pair", label = "Mixed Pair", pays = "6 to 1" }},
]
"""


def test_a_paytable_file_of_no_wagers_section_is_refused(tmp_path: Path) -> None:
    from cli_support import run_main

    f = tmp_path / "bad.toml"
    f.write_text(_H1.format(section="633b.9"), encoding="utf-8")
    r = run_main(["analyze", "perfect-pairs", "-p", "H1", "-f", str(f), "--decks", "6"])
    assert r.code == 2 and len(r.error_lines()) == 1
    assert "bad.toml" in r.err and "'633b.9'" in r.err and "not the section of a wager" in r.err


def test_a_paytable_file_of_another_section_names_its_section(tmp_path: Path) -> None:
    from cli_support import run_main

    f = tmp_path / "other.toml"
    f.write_text(_H1.format(section="633b.2"), encoding="utf-8")  # Jackpot Party's section
    r = run_main(["analyze", "perfect-pairs", "-p", "H1", "-f", str(f), "--decks", "6"])
    assert r.code == 2 and len(r.error_lines()) == 1
    assert "other.toml holds § 633b.2" in r.err and "perfect-pairs's § 633b.1" in r.err


def test_the_right_section_still_analyses(tmp_path: Path) -> None:
    from cli_support import run_main

    f = tmp_path / "mine.toml"
    f.write_text(_H1.format(section="633b.1"), encoding="utf-8")
    r = run_main(["analyze", "perfect-pairs", "-p", "H1", "-f", str(f), "--decks", "6", "--json"])
    assert r.code == 0, r.err
    # the same pays as paytable A: 6 decks, 312 cards; a perfect pair is 6·C(6,2)·52 / C(312,2)
    import json
    from fractions import Fraction
    from math import comb

    doc = json.loads(r.out)
    lines = {ln["outcome"]: ln for ln in doc["outcomes"]}
    assert doc["paytable"] == "H1" and doc["paytable_source"].endswith("mine.toml")
    total = comb(312, 2)
    perfect = 52 * comb(6, 2)
    assert Fraction(lines["perfect-pair"]["probability_exact"]) == Fraction(perfect, total)


def test_a_paytable_file_error_names_the_paytable_id() -> None:
    """The trial's 'paytable 1: line …' meant the first entry, whose id was H4 — and at Match
    the Dealer 1 is a real paytable id."""
    from croupier.errors import PaytableError
    from croupier.paytables import parse_section_text

    text = _H1.format(section="633b.1").replace('id = "H1"', 'id = "H4"')
    text = text.replace('pays = "12 to 1"', 'pays = "twelve"')
    with pytest.raises(PaytableError, match=r"paytable 1 \(id 'H4'\), line 2"):
        parse_section_text(text, "mine.toml")


def test_exported_csv_and_html_carry_the_paytable_digest(tmp_path: Path) -> None:
    """A test lab ties an exported CSV or HTML sheet to its data: the paytable's SHA-256 that the
    JSON sheet and `croupier paytables` print is in every CSV row and in the sheet's HTML."""
    import csv
    import json

    from cli_support import run_main

    r = run_main(["analyze", "perfect-pairs", "-p", "A", "--decks", "6", "--out", str(tmp_path)])
    assert r.code == 0, r.err
    (js,) = tmp_path.glob("*.json")
    sheets = sorted(tmp_path.glob("*.csv"))  # the outcomes and the return bands
    assert len(sheets) == 2
    (ht,) = tmp_path.glob("*.html")
    digest = json.loads(js.read_text(encoding="utf-8"))["paytable_sha256"]
    assert len(digest) == 64
    for cs in sheets:
        rows = list(csv.DictReader(cs.read_text(encoding="utf-8").splitlines()))
        assert rows and {row["paytable_sha256"] for row in rows} == {digest}
    assert digest in ht.read_text(encoding="utf-8")
    listed = run_main(["paytables", "633b.1", "--paytable", "A", "--json"])
    assert digest in listed.out


def test_credentials_that_are_not_utf8_text_are_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A credential file or variable holding bytes that are not UTF-8, or a file too large, is
    one `error:` line (they were UnicodeDecodeError / UnicodeEncodeError tracebacks)."""
    from cli_support import run_main

    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    good, bad, big = tmp_path / "good", tmp_path / "bad", tmp_path / "big"
    good.write_text("goodpass1\n", encoding="utf-8")
    bad.write_bytes(b"\xff\xfe\n")
    big.write_bytes(b"a" * 5000)
    r = run_main(["meters", "--db", db, "bootstrap", "sam", "--password-file", str(good)])
    assert r.code == 0, r.err
    for args, needle in [
        (["login", "--as", "sam", "--password-file", str(bad)], "not UTF-8"),
        (["login", "--as", "sam", "--password-file", str(big)], "limit is 4,096 bytes"),
    ]:
        r = run_main(["meters", "--db", db, *args])
        assert r.code == 2 and len(r.error_lines()) == 1 and needle in r.err, r.err
    monkeypatch.setenv("CROUPIER_PASSWORD", "\udcff\udcfe")  # os.environ's undecodable bytes
    r = run_main(["meters", "--db", db, "login", "--as", "sam"])
    assert r.code == 2 and "must be UTF-8 text" in r.err
    monkeypatch.delenv("CROUPIER_PASSWORD")
    monkeypatch.setenv("CROUPIER_NEW_PASSWORD_FILE", str(bad))
    r = run_main(
        ["meters", "--db", db, "user", "dana", "--role", "dealer", "--as", "sam",
         "--password-file", str(good)]
    )  # fmt: skip
    assert r.code == 2 and len(r.error_lines()) == 1 and "not UTF-8" in r.err
    r = run_main(["meters", "--db", db, "login", "--as", "sam", "--password-file", str(good)])
    assert r.code == 0, r.err  # and nothing was lost


@pytest.mark.parametrize(
    ("paytable", "needle"),
    [
        ("tie=ez", "is not for the Tie wager"),  # ez is a Banker paytable
        ("five-treasures=C", "has no paytable 'C'"),  # § 631c.3(h) prints A and B only
        ("five-treasures=B", "which no --bet wagers on"),  # valid, but no 5 Treasures bet
    ],
)
def test_baccarat_refuses_a_paytable_it_cannot_use(paytable: str, needle: str) -> None:
    from cli_support import run_main

    r = run_main(["baccarat", "--cards", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=5", "-p", paytable])
    assert r.code == 2 and len(r.error_lines()) == 1 and needle in r.err, r.err


def test_blackjack_round_settles_every_blackjack_side_wager() -> None:
    """`blackjack-round` settled only AxMan and Jackpot Party; Perfect Pairs and Match the
    Dealer needed a round file. The pays are the regulation's: § 633b.1(f) paytable A, Perfect
    Pair 25 to 1; § 633b.3 paytable 1, "1 Non-Suited and 1 Suited Match 12 to 1" (7h 7c against
    the 7h upcard)."""
    import json

    from cli_support import run_main

    r = run_main(
        ["blackjack-round", "--dealer", "7h Kd", "--player", "8s 8s", "--player", "7h 7c",
         "--bet", "1:blackjack=10", "--bet", "2:blackjack=10", "--bet", "1:perfect-pairs=5",
         "--bet", "2:match-the-dealer=5", "-p", "perfect-pairs=A", "-p", "match-the-dealer=1",
         "--move", "1:stand", "--move", "2:stand", "--json"]
    )  # fmt: skip
    assert r.code == 0, r.err
    lines = json.loads(r.out)["settlement"]["lines"]
    by = {(ln["seat"], ln["wager"]): ln for ln in lines}
    assert by[(1, "perfect-pairs")]["win_cents"] == 25 * 500
    assert by[(2, "match-the-dealer")]["win_cents"] == 12 * 500
    assert by[(1, "blackjack")]["win_cents"] == by[(2, "blackjack")]["win_cents"] == -1000


def test_blackjack_round_asks_for_a_paytable_only_where_there_are_several() -> None:
    from cli_support import run_main

    base = ["blackjack-round", "--dealer", "7h Kd", "--player", "8s 8s", "--bet", "1:blackjack=10"]
    r = run_main([*base, "--bet", "1:perfect-pairs=5"])
    assert r.code == 2 and "--paytable perfect-pairs=ID (at 6 decks: A, B)" in r.err
    r = run_main([*base, "--bet", "1:axman=5", "--move", "1:stand"])  # one AxMan paytable
    assert r.code == 0, r.err


def test_hand_takes_the_only_paytable_without_being_told() -> None:
    """`hand axman` demanded --paytable though AxMan has one; `analyze` and `simulate` did not."""
    from cli_support import run_main

    r = run_main(["hand", "axman", "As Ks 7h Td", "--decks", "6"])
    assert r.code == 0, r.err
    r = run_main(["hand", "perfect-pairs", "8s 8s"])
    assert r.code == 2 and "paytables A, B: give --paytable" in r.err


def test_a_reversed_reconciliation_period_is_refused(tmp_path: Path) -> None:
    """`meters report --from 2026-12-02 --to 2026-12-01` ran without complaint."""
    from cli_support import run_main

    good = tmp_path / "pw"
    good.write_text("goodpass1\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    assert (
        run_main(["meters", "--db", db, "bootstrap", "sam", "--password-file", str(good)]).code == 0
    )
    for lo, hi in [("2026-12-02", "2026-12-01"), ("2026-12-01", "2026-12-01")]:
        r = run_main(["meters", "--db", db, "report", "--from", lo, "--to", hi, "--as", "sam"])
        assert r.code == 2 and len(r.error_lines()) == 1 and "give --from before --to" in r.err
    sam = ["--as", "sam", "--password-file", str(good)]
    assert run_main(["meters", "--db", db, "report", "--from", "2026-12-01", *sam]).code == 0


def test_a_database_error_is_one_line_without_sqlalchemys_links(tmp_path: Path) -> None:
    from cli_support import run_main

    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not an SQLite database file, only text" * 100)
    r = run_main(["meters", "--db", f"sqlite:///{bad}"])
    assert r.code == 2 and len(r.error_lines()) == 1, r.err
    assert "sqlalche.me" not in r.err and "Background on this error" not in r.err
    assert "[SQL:" not in r.err


def test_keep_and_switch_are_offered_only_where_a_seat_can_make_them() -> None:
    """After the deal at a plain six-deck Blackjack table the trial's `allowed` listed keep and
    switch, Switch Hands' decisions (§ 633b.4(f)); at a Switch Hands table an Ante player can."""
    from croupier.table.actions import allowed
    from croupier.table.procedure import Action
    from croupier.table.round import DealtCards, TableRound
    from croupier.table.submission import load_submission

    root = ROOT / "examples" / "submissions"
    plain = TableRound.open(load_submission(root / "blackjack-6deck.toml"))
    plain = plain.bet(1, "blackjack", 1000).no_more_bets()
    plain = plain.deal(DealtCards(players={1: "Th 6c"}, dealer="9s 7d Ts"))
    kinds = allowed(plain)
    assert Action.KEEP not in kinds and Action.SWITCH not in kinds
    assert {Action.HIT, Action.STAND} <= kinds


def test_the_meters_say_no_envy_where_the_paytable_pays_none(tmp_path: Path) -> None:
    """Match the Dealer's paytables print no envy bonus (§ 633b.3): `croupier meters` said "an
    envy bonus for every other player's qualifying hand" for it; Jackpot Party P10 does, P1 not."""
    import os

    from cli_support import run_main

    pw = tmp_path / "pw"
    pw.write_text("goodpass1\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    os.environ["COLUMNS"] = "200"
    try:
        assert (
            run_main(["meters", "--db", db, "bootstrap", "sam", "--password-file", str(pw)]).code
            == 0
        )
        for spec, name in (("633b.3:1", "mtd-5"), ("633b.2:P10", "jp-5")):
            r = run_main(
                ["meters", "--db", db, "create", "-p", spec, "-d", "6", "-a", "5", "--name", name,
                 "--as", "sam", "--password-file", str(pw)]
            )  # fmt: skip
            assert r.code == 0, r.err
        mtd = " ".join(run_main(["meters", "--db", db, "--name", "mtd-5"]).out.split())
        jp = " ".join(run_main(["meters", "--db", db, "--name", "jp-5"]).out.split())
    finally:
        del os.environ["COLUMNS"]
    assert "no envy bonus on this paytable" in mtd and "every other player" not in mtd
    assert "an envy bonus for every other player's qualifying hand" in jp


def test_one_deck_is_one_deck(tmp_path: Path) -> None:
    """`meters create` said "1 decks" for a single-deck Jackpot Party progressive (P7)."""
    from cli_support import run_main

    pw = tmp_path / "pw"
    pw.write_text("goodpass1\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    assert (
        run_main(["meters", "--db", db, "bootstrap", "sam", "--password-file", str(pw)]).code == 0
    )
    r = run_main(
        ["meters", "--db", db, "create", "-p", "633b.2:P7", "-d", "1", "-a", "5", "--name", "jp",
         "--as", "sam", "--password-file", str(pw)]
    )  # fmt: skip
    assert r.code == 0, r.err
    shown = run_main(["meters", "--db", db]).out
    assert "1 deck " in shown and "1 decks" not in shown


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["create", "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "j\nk"], "control or format"),
        (["create", "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "m" * 101], "at most 100"),
        (["link", "mtd", "BJ\n2"], "control or format"),
        (["user", "e\nve", "--role", "dealer"], "control or format"),
    ],
)
def test_names_with_a_newline_or_too_long_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], needle: str
) -> None:
    """The second trial's names with a newline were accepted and printed across two lines."""
    from cli_support import run_main

    pw = tmp_path / "pw"
    pw.write_text("goodpass1\n", encoding="utf-8")
    monkeypatch.setenv("CROUPIER_NEW_PASSWORD", "goodpass2")
    db = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    auth = ["--as", "sam", "--password-file", str(pw)]
    assert (
        run_main(["meters", "--db", db, "bootstrap", "sam", "--password-file", str(pw)]).code == 0
    )
    made = ["create", "-p", "633b.3:1", "-d", "6", "-a", "5", "--name", "mtd"]
    assert run_main(["meters", "--db", db, *made, *auth]).code == 0
    r = run_main(["meters", "--db", db, *args, *auth])
    assert r.code == 2 and len(r.error_lines()) == 1 and needle in r.err, r.err


def test_a_ledger_url_of_another_database_says_which_run_the_ledger() -> None:
    """`--db mysql://x` said "No module named 'MySQLdb'", an internal text."""
    from cli_support import run_main

    r = run_main(["meters", "--db", "mysql://x"])
    assert r.code == 2 and len(r.error_lines()) == 1
    assert "runs on SQLite or PostgreSQL" in r.err and "MySQLdb" not in r.err


def test_eor_default_decks_of_a_paytable_printed_for_several() -> None:
    # Match the Dealer's paytable 1 is printed once for 6 decks and once for 8 (§ 633b.3): with no
    # --decks, eor takes the most, as its help says, instead of asking for the deck count
    from croupier.analysis.eor_table import default_decks

    wager = get_wager("match-the-dealer")
    assert sorted({d for t in wager.paytables() if t.key == "1" for d in t.decks}) == [6, 8]
    assert default_decks(wager, "1") == 8


def test_the_readme_simulate_example_prints_what_the_readme_shows() -> None:
    # a fresh user ran the README's seeded simulation and got other figures (the kernels' new
    # generator deals seed 42 other rounds): the README's lines must be what the command prints
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("$ croupier simulate perfect"))
    args = lines[at].removeprefix("$ croupier ").split()
    shown = [line for line in lines[at + 1 : at + 6] if "house edge" in line][:2]
    assert len(shown) == 2, shown
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    for line in shown:
        assert line in done.stdout, (line, done.stdout)

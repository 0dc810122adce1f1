"""The Blackjack rules a Rules Submission may state (issue 32): ``blackjack_pays``, ``peek`` and
``double_on`` accepted only as Pennsylvania fixes them — a player Blackjack paying 3 to 2
(§ 633a.13; the copied § 633b.4(i)(1) pays "player Blackjack ... at odds of 3 to 2"), the dealer's
peek with the card reader device (§ 633a.7) and doubling on any first two cards (§ 633a.10) —
each other value refused in one line citing its section (docs/interpretations.md, "Blackjack
rules a Rules Submission may choose"); the rules feed :class:`PlayRules`; the digests of
submissions that do not state them are unchanged."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from cli_support import run_main
from croupier.errors import SubmissionError
from croupier.games.blackjack_rules import DoubleOn, PlayRules
from croupier.table.submission import (
    canonical_submission,
    check_file,
    load_submission,
    submission_digest,
    submission_from_data,
)
from repo_paths import ROOT

SUBMISSIONS = ROOT / "examples" / "submissions"

# SHA-256 of each example submission, computed with submission_digest on main at commit f763dbb
# ("ruff format"), before a submission could state blackjack_pays, peek or double_on: adding the
# keys must not move a digest a progressive was approved under.
DIGESTS_BEFORE_THE_KEYS = {
    "baccarat-8deck": "e7cf4dd736889b5fd5fa625811e0bd593166a39b81475984c52bd619dbc2fa46",
    "blackjack-6deck": "959af53b50e2ff5ae91dcf91b37c3ee5ba216a7875e99968fb08e772cd4f91c9",
    "blackjack-premium-8deck": "767382abe29e64520d34d2b1972a37ff913ee0f0baa9fdd13d256b0e4c243e13",
    "criss-cross-poker": "376426c2f4c1623d39d94fc6a16be59ee66b33b99abd8632493fa89e5c6cb983",
    "four-card-poker-progressive": (
        "22c74011ce8d0a492f10c29b4d56a082d66be2a92d008d59cf19d761630dbc20"
    ),
    "four-card-poker": "b57a0df9b3c1a2a8f2d4294249d04cfe63d47ef654bcf46512a82df97e19bf47",
    "switch-hands-6deck": "6935dc28ee2df234ba0a049ba8eafa799f25587c5b756cb0096c216562a450d9",
}

TABLE = {
    "game": "blackjack",
    "decks": 6,
    "dealer": "S17",
    "wagers": [{"wager": "blackjack", "min": "$10", "max": "$1,000"}],
}

REFUSED = [
    ("blackjack_pays", "6:5", "633a.13"),
    ("blackjack_pays", "1:1", "633a.13"),
    ("blackjack_pays", "6 to 5", "633a.13"),
    ("blackjack_pays", "2:1", "633a.13"),
    ("blackjack_pays", "three to two", "633a.13"),
    ("peek", False, "633a.7"),
    ("double_on", "9-11", "633a.10"),
    ("double_on", "10-11", "633a.10"),
    ("double_on", "soft", "633a.10"),
]
ALLOWED = [
    ("blackjack_pays", "3:2"),
    ("blackjack_pays", "3 to 2"),
    ("blackjack_pays", " 3 TO 2 "),
    ("peek", True),
    ("double_on", "any"),
    ("double_on", "ANY"),
]


def _file(tmp_path: Path, key: str, value: object) -> Path:
    text = json.dumps(value) if isinstance(value, str) else str(value).lower()
    path = tmp_path / "s.toml"
    path.write_text(
        f'game = "blackjack"\ndecks = 6\ndealer = "S17"\n{key} = {text}\n'
        '[[wagers]]\nwager = "blackjack"\nmin = "$10"\nmax = "$1,000"\n',
        encoding="utf-8",
    )
    return path


def test_the_examples_keep_their_digests_from_before_the_keys() -> None:
    found = {p.stem: submission_digest(load_submission(p)) for p in SUBMISSIONS.glob("*.toml")}
    assert found == DIGESTS_BEFORE_THE_KEYS
    for p in SUBMISSIONS.glob("*.toml"):
        assert check_file(p) == ()


@pytest.mark.parametrize(("key", "value", "section"), REFUSED)
def test_a_rule_pa_fixes_stated_otherwise_is_refused_citing_its_section(
    tmp_path: Path, key: str, value: object, section: str
) -> None:
    path = _file(tmp_path, key, value)
    (problem,) = check_file(path)
    assert problem.section == section
    assert problem.message.startswith(f"{key}: ")
    assert str(problem).endswith(f"(58 Pa. Code § {section})") and "\n" not in str(problem)
    with pytest.raises(SubmissionError, match=re.escape(f"§ {section})")):
        load_submission(path)


def test_croupier_check_prints_each_refused_rule_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "all.toml"
    path.write_text(
        'game = "blackjack"\ndecks = 6\ndealer = "H17"\nblackjack_pays = "6:5"\npeek = false\n'
        'double_on = "10-11"\n[[wagers]]\nwager = "blackjack"\nmin = "$10"\nmax = "$1,000"\n',
        encoding="utf-8",
    )
    run = run_main(["check", str(path)])
    assert run.code != 0
    printed = (run.out + run.err).splitlines()
    lines = [line.strip() for line in printed if line.startswith("  ")]
    assert [line.split(":")[0] for line in lines] == ["blackjack_pays", "peek", "double_on"]
    assert [line.rsplit("§ ", 1)[1] for line in lines] == ["633a.13)", "633a.7)", "633a.10)"]


@pytest.mark.parametrize(("key", "value"), ALLOWED)
def test_pa_rule_stated_is_accepted_and_changes_no_digest(
    tmp_path: Path, key: str, value: object
) -> None:
    path = _file(tmp_path, key, value)
    assert check_file(path) == ()
    unstated = submission_digest(submission_from_data(TABLE))
    sub = load_submission(path)
    assert submission_digest(sub) == unstated
    assert key not in canonical_submission(sub)


def test_the_submission_feeds_pa_rules_to_the_player_and_dealer() -> None:
    data = {**TABLE, "blackjack_pays": "3:2", "peek": True, "double_on": "any"}
    rules = submission_from_data(data).play_rules
    assert rules == PlayRules.of(6, hits_soft_17=False)
    assert rules.table.blackjack_pays == Fraction(3, 2) and rules.table.peek
    assert rules.double_on is DoubleOn.ANY


def test_a_rule_set_off_pa_reaches_play_rules_and_the_digest() -> None:
    """A :class:`RulesSubmission` holding other rules (as a reading of § 633a.12's variations
    might one day allow) passes them to :class:`PlayRules`, and its canonical data gains exactly
    the keys that differ — the digest checked against hashing that data by hand."""
    sub = submission_from_data(TABLE)
    other = dataclasses.replace(
        sub, blackjack_pays=Fraction(6, 5), peek=False, double_on=DoubleOn.TEN_OR_ELEVEN
    )
    rules = other.play_rules
    assert (rules.table.blackjack_pays, rules.table.peek) == (Fraction(6, 5), False)
    assert rules.double_on is DoubleOn.TEN_OR_ELEVEN
    assert other.blackjack_rules.peek is False
    expected = {
        **canonical_submission(sub),
        "blackjack_pays": "6:5",
        "peek": False,
        "double_on": "10-11",
    }
    assert canonical_submission(other) == expected
    by_hand = hashlib.sha256(
        json.dumps(expected, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    ).hexdigest()
    assert submission_digest(other) == by_hand != submission_digest(sub)


def test_the_keys_are_blackjack_options_only(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text(
        'game = "baccarat"\ndecks = 8\npeek = true\nblackjack_pays = "3:2"\n[[wagers]]\n'
        'wager = "player"\npaytable = "standard"\nmin = "$5"\nmax = "$500"\n',
        encoding="utf-8",
    )
    (problem,) = check_file(path)
    assert problem.message == "blackjack_pays, peek: Blackjack options only"


@pytest.mark.parametrize(("key", "value"), [("peek", '"no"'), ("blackjack_pays", "1.5")])
def test_a_value_of_the_wrong_type_is_a_schema_error(tmp_path: Path, key: str, value: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(
        f'game = "blackjack"\ndecks = 6\ndealer = "S17"\n{key} = {value}\n'
        '[[wagers]]\nwager = "blackjack"\nmin = "$10"\nmax = "$1,000"\n',
        encoding="utf-8",
    )
    (problem,) = check_file(path)
    assert problem.message.startswith(key) and problem.section is None

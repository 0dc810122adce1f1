"""Configuration digests (SHA-256 of a paytable's and a Rules Submission's canonical data) and the
Rules Submission's bound on progressive hit odds (N.J.A.C. 13:69D-1.52(e)(4))."""

from __future__ import annotations

import copy
import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import croupier.table.submission as submission_module
from cli_support import run_main
from croupier.analysis.hit_odds import NJ_MAX_ONE_IN, AwardOdds, LevelOdds
from croupier.errors import SubmissionError
from croupier.paytables import MeterLevel, builtin_paytables, load_paytable_file, paytable_digest
from croupier.table.submission import (
    check_submission,
    load_submission,
    parse_submission,
    submission_digest,
    submission_from_data,
)
from croupier.wagers import all_wagers
from repo_paths import ROOT

SCHEMAS = ROOT / "docs" / "schemas"
SUBMISSIONS = sorted((ROOT / "examples" / "submissions").glob("*.toml"))

TINY = """# a one-line paytable
section = "633b.1"
title = "T"
citation = "test"

[[paytables]]
id = "Z"
title = "Z"
decks = [8]
lines = [{ outcome = "perfect-pair", label = "Perfect Pair", pays = "25 to 1" }]
"""
# the same data: other comments, spacing, key order, title and citation
TINY_AGAIN = """section="633b.1"
citation = "another citation"   # not what the table pays
title = "another title"
[[paytables]]
lines = [ {pays="25 to 1", label="Perfect Pair", outcome="perfect-pair"} ]
decks = [ 8 ]
title = "Zed"
id = "Z"
"""


def _table(tmp_path: Path, name: str, text: str) -> Any:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    (t,) = load_paytable_file(p)
    return t


def test_paytable_digest_is_of_the_data_not_the_file(tmp_path: Path) -> None:
    a = _table(tmp_path, "a.toml", TINY)
    b = _table(tmp_path, "b.toml", TINY_AGAIN)
    assert paytable_digest(a) == paytable_digest(b)
    c = _table(tmp_path, "c.toml", TINY.replace("25 to 1", "25 for 1"))
    d = _table(tmp_path, "d.toml", TINY.replace("decks = [8]", "decks = [6, 8]"))
    e = _table(tmp_path, "e.toml", TINY.replace('label = "Perfect Pair"', 'label = "Pair"'))
    assert len({paytable_digest(t) for t in (a, c, d, e)}) == 4


def test_paytable_digest_is_sha256_of_the_documented_canonical_form(tmp_path: Path) -> None:
    """The canonical form written out by hand from its documentation (paytables/digest.py)."""
    t = _table(tmp_path, "a.toml", TINY)
    canonical = {
        "format": "croupier-paytable/1",
        "section": "633b.1",
        "id": "Z",
        "option": None,
        "decks": [8],
        "lines": [
            {
                "outcome": "perfect-pair",
                "label": "Perfect Pair",
                "pays": {"to": [25, 1]},
                "envy_cents": None,
                "wager": None,
                "optional": False,
            }
        ],
        "progressive": None,
        "multipliers": [],
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert paytable_digest(t) == hashlib.sha256(text.encode()).hexdigest()


def test_every_shipped_paytable_has_its_own_digest() -> None:
    tables = {id(t): t for w in all_wagers() for t in w.book}
    tables.update({id(t): t for t in builtin_paytables()})
    digests = {paytable_digest(t) for t in tables.values()}
    assert len(digests) == len(tables)


def test_a_seed_or_rate_changes_the_digest() -> None:
    from dataclasses import replace

    t = builtin_paytables().get("633b.3", "1", 6)
    assert t.progressive is not None
    m = t.progressive.meters[0]
    reseeded = replace(
        t, progressive=replace(t.progressive, meters=(replace(m, seed_wager_multiple=999),))
    )
    rerated = replace(
        t,
        progressive=replace(t.progressive, meters=(replace(m, increment_rate=Fraction(1, 7)),)),
    )
    assert len({paytable_digest(x) for x in (t, reseeded, rerated)}) == 3


BASE: dict[str, Any] = {
    "game": "four-card-poker",
    "name": "4CP",
    "decks": 1,
    "adjacent_boxes": 2,
    "wagers": [
        {"wager": "four-card-poker", "paytable": "25-20-2", "min": "$10", "max": "$500"},
        {"wager": "aces-up", "paytable": "pa-casino", "min": "$5", "max": "$100"},
        {
            "wager": "four-card-progressive",
            "paytable": "example-four-card-progressive",
            "amounts": ["$1"],
        },
        {
            "wager": "five-card-progressive",
            "paytable": "example-five-card-progressive",
            "amounts": ["$1"],
        },
    ],
}


def _with(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data.update(changes)
    return data


def test_submission_digest_ignores_name_and_order_and_sees_every_rule() -> None:
    base = submission_digest(submission_from_data(BASE))
    same = _with(name="another name", wagers=list(reversed(BASE["wagers"])))
    assert submission_digest(submission_from_data(same, "elsewhere.toml")) == base
    wagers = copy.deepcopy(BASE["wagers"])
    wagers[0]["max"] = "$400"
    changed = [
        _with(wagers=wagers),
        _with(adjacent_boxes=3),
        _with(seats=6),
        _with(hit_odds_bound=10_000_000),
        _with(wagers=BASE["wagers"][:3]),
    ]
    digests = {submission_digest(submission_from_data(d)) for d in changed}
    assert base not in digests and len(digests) == len(changed)


def test_cli_check_prints_the_digests(monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "examples" / "submissions" / "four-card-poker-progressive.toml"
    sub = load_submission(path)
    run = run_main(["check", str(path)])
    assert run.code == 0
    assert f"submission sha256 {submission_digest(sub)}" in run.out
    for w in sub.wagers:
        assert w.paytable is not None
        assert f"{w.wager}:{w.paytable.key} paytable sha256 {paytable_digest(w.paytable)}" in (
            run.out
        )


def test_cli_check_digests_json_matches_its_schema(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "four-card-poker"\ndecks = 2\n', encoding="utf-8")
    run = run_main(["check", "--json", "--digests", *map(str, SUBMISSIONS), str(bad)])
    assert run.code == 2  # one file has violations
    data = json.loads(run.out)
    schema = json.loads((SCHEMAS / "check-digests.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema)
    assert data[str(bad)]["submission_sha256"] is None and data[str(bad)]["violations"]
    for p in SUBMISSIONS:
        assert data[str(p)]["submission_sha256"] == submission_digest(load_submission(p))
    # without --digests the shape is unchanged
    plain = json.loads(run_main(["check", "--json", str(SUBMISSIONS[0])]).out)
    assert plain == {str(SUBMISSIONS[0]): []}


def test_cli_paytables_and_par_sheet_give_the_same_digest() -> None:
    t = next(t for w in all_wagers() for t in w.book if t.key == "example-five-card-progressive")
    run = run_main(["paytables", "641a.7", "--json"])
    assert run.code == 0
    (shown,) = [p for p in json.loads(run.out)["paytables"] if p["paytable"] == t.key]
    schema = json.loads((SCHEMAS / "paytables.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(run.out), schema)
    sheet = json.loads(run_main(["analyze", "five-card-progressive", "--json"]).out)
    assert shown["sha256"] == sheet["paytable_sha256"] == paytable_digest(t)


# -- the hit-odds bound -----------------------------------------------------------------------


def _violations(data: dict[str, Any]) -> list[Any]:
    return list(check_submission(parse_submission(data, "test")))


def test_default_bound_is_nj_and_the_examples_pass() -> None:
    assert NJ_MAX_ONE_IN == 100_000_000
    assert submission_from_data(BASE).hit_odds_bound == 100_000_000
    assert _violations(BASE) == []


def test_a_level_hit_less_often_than_the_bound_is_refused() -> None:
    # four-card: four-of-a-kind 624 of C(52,5) hands = 1 in 4,165 exactly
    four = "wager four-card-progressive"
    assert [v for v in _violations(_with(hit_odds_bound=4165)) if four in v.message] == []
    (v,) = [v for v in _violations(_with(hit_odds_bound=4164)) if four in v.message]
    assert "1 in 4,165" in v.message and "N.J.A.C. 13:69D-1.52(e)(4)" in v.message
    assert v.section == "601a.2"
    with pytest.raises(SubmissionError):
        submission_from_data(_with(hit_odds_bound=4164))


def test_award_basis_checks_each_award_line() -> None:
    # five-card: the level (royal or straight flush) is 1 in 64,974; the royal alone 1 in 649,740
    assert _violations(_with(hit_odds_bound=100_000)) == []
    (v,) = _violations(_with(hit_odds_bound=100_000, hit_odds_basis="award"))
    assert "Royal flush award" in v.message and "1 in 649,740" in v.message


def test_the_default_bound_at_its_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """A level at exactly 1 in 100,000,000 passes; one in 100,000,001 is refused."""

    def odds(p: Fraction) -> Any:
        award = AwardOdds("royal-flush", "Royal flush", "100% of Progressive", p)
        return lambda *_: (LevelOdds(MeterLevel.PROGRESSIVE, p, (award,)),)

    monkeypatch.setattr(submission_module, "_hit_odds", odds(Fraction(1, 100_000_000)))
    assert _violations(BASE) == []
    monkeypatch.setattr(submission_module, "_hit_odds", odds(Fraction(1, 100_000_001)))
    assert len(_violations(BASE)) == 2  # both progressives


@pytest.mark.parametrize("bad", [{"hit_odds_bound": 0}, {"hit_odds_basis": "jackpot"}])
def test_bad_bound_settings_are_schema_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(SubmissionError) as e:
        submission_from_data(_with(**bad))
    assert "hit_odds_b" in str(e.value)

"""``croupier check --json`` (with and without ``--digests``) and ``verify-parsheets --json``
are instances of their models, given back unchanged, and match the generated schema files."""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter

from croupier.operations.schemas.checks import (
    CheckedDigests,
    ParSheetVerification,
    Violations,
)
from document_support import check_document
from repo_paths import ROOT

SUBMISSIONS = [str(p) for p in sorted((ROOT / "examples" / "submissions").glob("*.toml"))]


def _bad(tmp_path: Path) -> str:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "four-card-poker"\ndecks = 2\n', encoding="utf-8")
    return str(bad)


def test_check_json_is_an_instance_of_its_model(tmp_path: Path) -> None:
    data = check_document("check", ["check", *SUBMISSIONS, _bad(tmp_path)], code=2)
    checked = TypeAdapter(Violations).validate_python(data)
    assert all(checked[p] == [] for p in SUBMISSIONS)
    assert checked[_bad(tmp_path)] and all(v.message for v in checked[_bad(tmp_path)])


def test_check_digests_json_is_an_instance_of_its_model(tmp_path: Path) -> None:
    bad = _bad(tmp_path)
    data = check_document("check-digests", ["check", "--digests", *SUBMISSIONS, bad], code=2)
    checked = TypeAdapter(CheckedDigests).validate_python(data)
    assert checked[bad].submission_sha256 is None and checked[bad].paytables_sha256 == {}
    assert all(checked[p].submission_sha256 for p in SUBMISSIONS)


def test_verify_parsheets_json_is_an_instance_of_its_model() -> None:
    args = ["verify-parsheets", "--wager", "ultimate-pairs", "--target-se", "0.05", "--seed", "4"]
    data = check_document("verify-parsheets", args)
    run = ParSheetVerification.model_validate(data)
    assert len(run.sheets) == 5 and run.flagged == 0 and run.seed_entropy == "4"

"""A test lab's report bundle (croupier.operations.bundle, `croupier bundle`)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from croupier.errors import OutputError, RulesError
from croupier.operations.bundle import BundleRequest, write_bundle
from croupier.wagers import get_wager
from repo_paths import ROOT as REPO

SUBMISSION = REPO / "examples" / "submissions" / "blackjack-6deck.toml"


def _request(**kw: object) -> BundleRequest:
    args: dict[str, object] = {
        "wager": get_wager("perfect-pairs"),
        "paytable": "A",
        "decks": 6,
        "rounds": 20_000,
        "seed": 11,
    }
    args.update(kw)
    return BundleRequest(**args)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle") / "pp-a-6"
    write_bundle(_request(submission=SUBMISSION), folder, command="croupier bundle perfect-pairs")
    return folder


def test_every_file_is_listed_with_its_sha256_as_sha256sum_reads_it(bundle: Path) -> None:
    lines = (bundle / "SHA256SUMS").read_text().splitlines()
    listed = {}
    for line in lines:
        digest, name = line.split("  ", 1)
        listed[name] = digest
    on_disk = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()} - {
        "SHA256SUMS"
    }
    assert set(listed) == on_disk
    for name, digest in listed.items():
        assert hashlib.sha256((bundle / name).read_bytes()).hexdigest() == digest
    if shutil.which("sha256sum"):
        done = subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"], cwd=bundle, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_manifest_ties_the_figures_to_their_inputs_and_software(bundle: Path) -> None:
    m = json.loads((bundle / "manifest.json").read_text())
    assert (m["wager"], m["section"], m["paytable"], m["decks"]) == (
        "perfect-pairs",
        "633b.1",
        "A",
        6,
    )
    assert m["simulation"] == {"rounds": 20_000, "seed_entropy": "11"}
    assert m["command"] == "croupier bundle perfect-pairs"
    assert m["software"]["croupier"] == __import__("croupier").__version__
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    assert m["software"]["commit"] == (head.stdout.strip() if head.returncode == 0 else None)
    # the digests `croupier check` prints for the same file
    check = subprocess.run(
        ["croupier", "check", str(SUBMISSION), "--json", "--digests"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    text = json.dumps(json.loads(check.stdout))
    assert m["rules_submission"]["sha256"] in text
    assert m["paytable_sha256"] in text
    copied = bundle / m["rules_submission"]["file"]
    assert copied.read_bytes() == SUBMISSION.read_bytes()
    for f in m["files"]:
        data = (bundle / f["path"]).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (f["bytes"], f["sha256"])


def test_the_bundle_holds_the_sheet_and_the_simulation_in_three_formats(bundle: Path) -> None:
    names = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    for folder in ("parsheet", "simulation"):
        for ext in ("json", "csv", "html"):
            assert any(n.startswith(folder + "/") and n.endswith("." + ext) for n in names), (
                folder,
                ext,
                names,
            )
    cover = (bundle / "index.html").read_text()
    # Perfect Pairs A at 6 decks: 6 × 6 × 13 … hand counts: perfect pair 13·4·C(6,2) = 780 of C(312,2)
    assert "633b.1" in cover and "SHA256SUMS" in cover and "chi-square" in cover.lower()


def test_a_folder_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(OutputError, match="not empty"):
        write_bundle(_request(rounds=0), tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_a_submission_that_does_not_offer_the_paytable_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "b"
    with pytest.raises(RulesError, match=r"does not offer|offers perfect-pairs with"):
        write_bundle(_request(paytable="B", rounds=0, submission=SUBMISSION), folder)
    assert not folder.exists()


def test_no_simulation_makes_a_bundle_of_the_exact_sheet_only(tmp_path: Path) -> None:
    b = write_bundle(_request(rounds=0), tmp_path / "b")
    assert b.manifest["simulation"] is None
    assert not any(f.startswith("simulation/") for f in b.files)


def test_the_manifest_is_its_model(bundle: Path) -> None:
    from croupier.operations.schemas.bundle import BundleManifest
    from model_support import held

    held(BundleManifest, json.loads((bundle / "manifest.json").read_text()))


def test_a_users_paytable_file_is_copied_into_the_bundle_byte_for_byte(tmp_path: Path) -> None:
    source = REPO / "src" / "croupier" / "paytables" / "examples" / "641a.7-examples.toml"
    folder = tmp_path / "b"
    done = subprocess.run(
        [
            *("croupier", "bundle", "bad-beat-bonus", "-p", "example-bad-beat", "-n", "0"),
            *("--out", str(folder), "-f", str(source)),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    m = json.loads((folder / "manifest.json").read_text())
    assert m["paytable_files"] == ["paytables/641a.7-examples.toml"]
    assert (folder / m["paytable_files"][0]).read_bytes() == source.read_bytes()
    listed = {f["path"]: f["sha256"] for f in m["files"]}
    assert (
        listed["paytables/641a.7-examples.toml"] == hashlib.sha256(source.read_bytes()).hexdigest()
    )


def test_a_folder_under_a_file_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(OutputError, match=r"is under .*a file"):
        write_bundle(_request(rounds=0), tmp_path / "afile" / "sub")

"""A ledger whose folder cannot be made — a file where the folder goes, or a path the system
refuses — is one clear line naming the folder and why, from the library, the CLI and ``croupier
serve`` alike (a fresh user's trial met tracebacks: NotADirectoryError, FileExistsError), and
nothing is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import run_main
from croupier.errors import LedgerError
from croupier.progressive import Ledger
from croupier.progressive.store import LedgerFileError


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    f = tmp_path / "afile"
    f.write_text("not a folder\n", encoding="utf-8")
    return f


def test_a_file_where_the_ledgers_folder_goes_is_a_ledger_error(a_file: Path) -> None:
    with pytest.raises(LedgerFileError) as info:
        Ledger(str(a_file / "sub" / "ledger.sqlite3"))
    assert isinstance(info.value, LedgerError)
    text = str(info.value)
    assert "\n" not in text and str(a_file / "sub") in text and "a file, not a folder" in text
    assert a_file.read_text(encoding="utf-8") == "not a folder\n"  # nothing made or changed


@pytest.mark.parametrize(
    ("variable", "under", "folder"),
    [("XDG_DATA_HOME", "", "croupier"), ("CROUPIER_DB", "x.sqlite3", "")],
    ids=["data-home-is-a-file", "db-under-a-file"],
)
@pytest.mark.parametrize(
    "args",
    [["meters", "bootstrap", "zed"], ["serve", "--port", "0"]],  # serve: before any worker starts
    ids=["bootstrap", "serve"],
)
def test_the_cli_says_it_in_one_line(
    a_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    under: str,
    folder: str,
    args: list[str],
) -> None:
    monkeypatch.setenv(variable, str(a_file / under) if under else str(a_file))
    monkeypatch.delenv("CROUPIER_LEDGER_KEY_FILE", raising=False)
    if variable != "CROUPIER_DB":
        monkeypatch.delenv("CROUPIER_DB", raising=False)
    password = tmp_path / "pw"
    password.write_text("correct horse battery staple\n", encoding="utf-8")
    extra = ["--password-file", str(password)] if args[0] == "meters" else []
    run = run_main([*args, *extra])
    where = str(a_file / folder) if folder else str(a_file)
    assert run.code == 2, run
    assert run.error_lines() == [
        f"error: cannot make the folder {where} for the ledger's database: "
        "a file, not a folder, is on that path"
    ]

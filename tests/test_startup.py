"""``croupier --version`` is answered before the command line is imported (issue 14: start-up)."""

from __future__ import annotations

import subprocess
import sys

import croupier

PROBE = """
import sys
from croupier.__main__ import main
sys.argv = ["croupier", "--version"]
try:
    main()
except SystemExit as exc:
    assert exc.code == 0
heavy = sorted(m for m in ("typer", "rich", "numpy", "pydantic", "sqlalchemy", "croupier.cli")
               if m in sys.modules)
print("imported:", *heavy)
"""


def test_version_imports_nothing_heavy() -> None:
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.splitlines() == [f"croupier {croupier.__version__}", "imported:"]


def test_python_m_croupier_runs_the_command_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "croupier", "wagers", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert '"perfect-pairs"' in run.stdout


SETTLE_PROBE = """
import sys
from croupier.__main__ import main
sys.argv = ["croupier", "settle", {round!r}]
try:
    main()
except SystemExit as exc:
    assert exc.code == 0, exc.code
wagers = sorted(m.split(".")[2] for m in sys.modules if m.startswith("croupier.wagers."))
print("numpy:", "numpy" in sys.modules)
print("wagers:", *wagers)
print("paytables parsed:", *sorted(sys.modules["croupier.paytables.loader"]._parsed_sections()))
"""


def test_settling_a_baccarat_coup_imports_neither_numpy_nor_other_wagers() -> None:
    """Start-up (issue 14): a coup is settled without numpy (the vectorised kernels import it),
    without the modules of wagers it does not hold and without parsing other sections' paytables."""
    from pathlib import Path

    round_file = Path(__file__).parent.parent / "examples" / "rounds" / "baccarat.json"
    run = subprocess.run(
        [sys.executable, "-c", SETTLE_PROBE.format(round=str(round_file))],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = run.stdout.splitlines()
    assert "numpy: False" in lines
    wagers = next(line for line in lines if line.startswith("wagers:")).split()[1:]
    # the coup's wagers (Banker, Player; Fortune 7, Cover All, Golden 8) and the table's own
    assert {"baccarat", "five_treasures"} <= set(wagers)
    assert not {"perfect_pairs", "jackpot_party", "match_the_dealer", "four_card_poker"} & set(
        wagers
    )
    parsed = next(line for line in lines if line.startswith("paytables parsed:")).split()[2:]
    assert set(parsed) == {"631a.8", "631c.3"}


def test_the_wager_index_names_each_module_and_its_wagers() -> None:
    """The registry's index (which module registers which id, so that one wager is imported
    alone), read from the modules' source, agrees with what every module registers once all are
    imported."""
    from croupier.wagers import all_wagers
    from croupier.wagers.registry import wager_index

    registered: dict[str, set[str]] = {}
    for w in all_wagers():
        module = type(w).__module__.split(".")[2]
        registered.setdefault(module, set()).add(w.id)
    assert {m: set(ids) for m, ids in wager_index().items()} == registered


def test_a_wager_missing_from_the_index_is_found_and_an_unknown_one_lists_all() -> None:
    """An id the index does not hold still reaches every module the index does not list, and
    the error for an unknown id lists every wager, imported or not."""
    code = """
import sys
from croupier.errors import UnknownWagerError
from croupier.wagers import get_wager
assert get_wager("Fortune-7 ").id == "fortune-7"
assert "croupier.wagers.perfect_pairs" not in sys.modules
try:
    get_wager("perfect-pair")
except UnknownWagerError as exc:
    print(exc)
"""
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    message = run.stdout.strip()
    assert message.startswith(
        "no wager 'perfect-pair'; did you mean 'perfect-pairs'? (known wagers: aces-up, axman,"
    )
    assert "perfect-pairs" in message and "ultimate-pairs" in message


def test_the_lazily_read_paytables_are_the_whole_files() -> None:
    """Each section read alone (the file found by its ``section`` line, read without building
    the pydantic schema) holds exactly the paytables the whole file holds when validated, and
    every file is found under its own section."""
    from importlib import resources

    from croupier.paytables import Paytable, PaytableBook, parse_section_text
    from croupier.paytables.loader import builtin_section

    data = resources.files("croupier.paytables") / "data"
    whole: list[Paytable] = []
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            tables = parse_section_text(entry.read_text("utf-8"), entry.name, regulation=True)
            assert tables and builtin_section(tables[0].section) == tables
            whole.extend(tables)
    book = PaytableBook(whole)
    for section in book.sections():
        assert builtin_section(section) == book.for_section(section)
    assert builtin_section("999z.9") == ()


def test_settling_a_blackjack_round_imports_no_numpy() -> None:
    """The Blackjack example round (Perfect Pairs, Jackpot Party, Match the Dealer, AxMan) is
    settled without numpy: the wagers import it in their vectorised kernels only."""
    from pathlib import Path

    round_file = Path(__file__).parent.parent / "examples" / "rounds" / "blackjack.json"
    run = subprocess.run(
        [sys.executable, "-c", SETTLE_PROBE.format(round=str(round_file))],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "numpy: False" in run.stdout.splitlines()


LIST_PROBE = """
import sys
from croupier.wagers import all_wagers
for w in all_wagers():
    w.offerings()
print("numpy:", "numpy" in sys.modules)
"""


def test_listing_every_wager_imports_no_numpy() -> None:
    """Start-up (issue 33): ``croupier parsheet`` imports every wager module to list the par
    sheets; numpy (about 0.15 s of CPU) waits until an array is needed (croupier.lazy)."""
    run = subprocess.run(
        [sys.executable, "-c", LIST_PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert run.stdout.splitlines() == ["numpy: False"]

"""The command line imports a command's modules only when the command runs (issue 14: start-up
time): ``croupier --help`` lists every command from ``croupier.commands.COMMANDS``, which must say
exactly what the modules declare, and prints what the fully loaded command line prints."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import pytest

from croupier.cli import app, load_all_commands, main
from croupier.commands import COMMANDS

HEAVY = ("numpy", "pydantic", "sqlalchemy", "croupier.wagers", "croupier.paytables",
         "croupier.table", "croupier.analysis", "croupier.progressive")  # fmt: skip

PROBE = """
import sys
from croupier.__main__ import main
sys.argv = ["croupier", *{args!r}]
try:
    main()
except SystemExit as exc:
    assert exc.code in (0, None), exc.code
print("imported:", *sorted(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
print("commands:", *sorted(m for m in sys.modules if m.startswith("croupier.commands.")),
      file=sys.stderr)
"""


def probe(*args: str) -> tuple[str, list[str]]:
    env = {**os.environ, "COLUMNS": "120", "TERMINAL_WIDTH": "120"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=list(args), heavy=HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout, run.stderr.splitlines()[-2:]


def test_the_command_index_says_what_the_modules_declare() -> None:
    root = load_all_commands()
    assert set(root.commands) == set(COMMANDS)
    # within a module, in the order the module declares them (the order of --help before)
    order = [
        c.name or c.callback.__name__.replace("_", "-")
        for c in app.registered_commands
        if c.callback is not None
    ]
    for module in {m[0] for m, _ in COMMANDS.values()}:
        mine = [n for n, (m, _) in COMMANDS.items() if m[0] == module]
        assert mine == [n for n in order if n in mine] or len(mine) == 1, module
    for name, command in root.commands.items():
        modules, help_text = COMMANDS[name]
        declared = command.callback.__module__ if command.callback else None
        if declared is not None:  # a group (meters) has no callback of its own
            assert declared == f"croupier.commands.{modules[0]}", name
        assert help_text == inspect.cleandoc(command.help or "").split("\n\n")[0], name


def test_help_lists_every_command_without_importing_any() -> None:
    shown, (heavy, commands) = probe("--help")
    assert heavy == "imported:" and commands == "commands: croupier.commands.common"
    for name in COMMANDS:
        assert f" {name} " in shown, name
    # the same listing as the command line with every command module imported
    eager = subprocess.run(
        [
            sys.executable,
            "-c",
            "import croupier.cli as c; c.load_all_commands(); c.main(['--help'])",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "120", "TERMINAL_WIDTH": "120"},
    )
    assert eager.returncode == 0, eager.stderr
    assert shown == eager.stdout


def test_a_command_imports_its_own_modules_only() -> None:
    _, (heavy, commands) = probe("check", "examples/submissions/baccarat-8deck.toml")
    assert commands == "commands: croupier.commands.common croupier.commands.table"
    assert "sqlalchemy" not in heavy.split()  # the ledger only when settling onto it
    _, (_, commands) = probe("meters", "--help")
    loaded = commands.split()[1:]  # common, then meters and the modules it is split into
    assert loaded[:2] == ["croupier.commands.common", "croupier.commands.meters"]
    assert all(m.startswith("croupier.commands.meters") for m in loaded[1:]), loaded


def test_a_misspelt_command_still_gets_a_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["settl", "x.json"])
    assert exc.value.code == 2
    assert "No such command 'settl'. Did you mean 'settle'?" in capsys.readouterr().err


def test_in_process_commands_load_what_each_needs_whatever_ran_before() -> None:
    """Run in one process (the Python API, tests), ``wagers`` imports the module that declares
    ``analyze`` but not the one registering the whole-game analyses; ``analyze switch-hands``
    then answered "no wager 'switch-hands'" (it passed only when other tests ran first). In a
    fresh interpreter, so that nothing this test process imported hides it."""
    script = (
        "from croupier.cli import main\n"
        "for args in (['wagers', '--json'], ['analyze', 'switch-hands', '-d', '6', '--json']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code in (0, None), (args, exc.code)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]

"""The README's progressive walkthrough runs as written, in order, on a fresh ledger."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app

ROOT = Path(__file__).resolve().parent.parent


def walkthrough() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("The progressive table game system")
    block = re.search(r"```console\n(.*?)```", text[start:], re.S)
    assert block is not None
    commands = []
    for line in block.group(1).splitlines():
        if line.startswith("$ croupier "):
            commands.append(shlex.split(line[2:].split("  #")[0])[1:])
    return commands


def test_the_progressive_walkthrough_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_DB", str(tmp_path / "ledger.sqlite3"))  # a bare path works
    monkeypatch.chdir(ROOT)
    commands = walkthrough()
    assert len(commands) >= 6
    runner = CliRunner()
    outputs = []
    for args in commands:
        # each staff member's credential fed from the environment, as automation would
        actor = args[args.index("--as") + 1] if "--as" in args else args[-1]
        env = {"CROUPIER_PASSWORD": f"{actor}'s passphrase"}
        if args[:2] == ["meters", "user"]:
            env["CROUPIER_NEW_PASSWORD"] = f"{args[2]}'s passphrase"
        res = runner.invoke(app, args, env=env)
        assert res.exit_code == 0, (args, res.output)
        outputs.append(res.output)
    # the round's two suited 7♥ against the 7♥ upcard: 10% of the meter, validated and paid
    assert any("award 1 (id 1) validated by flo and paid" in o for o in outputs)
    assert "dana authenticated: dealer" in "".join(outputs)
    assert "every level matches the ledger" in outputs[-1]
    assert "HMAC chain matches the ledger key" in " ".join(outputs[-1].split())
    assert (tmp_path / "ledger.sqlite3.key").exists()

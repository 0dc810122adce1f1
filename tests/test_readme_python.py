"""The README's "From Python" examples run as written (doctest), from the repository's root."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## From Python\n", 1)[1].split("\n## ", 1)[0]


def test_the_from_python_section_has_the_round_example() -> None:
    text = section()
    assert "TableRound.open(" in text and "DealtCards(players={" in text
    assert "settle_file(" in text


def test_the_from_python_examples_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = [
        b.split("```", 1)[0] for b in section().split("```pycon\n")[1:]
    ]  # each ```pycon block, up to its closing fence
    assert len(blocks) >= 3
    monkeypatch.chdir(ROOT)  # the examples name files under examples/
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    report: list[str] = []
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README From Python block {i + 1}", "README.md", 0)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # the blocks run in order, sharing their names
    assert runner.failures == 0, "".join(report)
    assert os.getcwd() == str(ROOT)

"""``croupier serve`` sets its processes' GIL switch interval (:func:`croupier.service.app.switch_interval`):
the default, ``$CROUPIER_SWITCH_INTERVAL`` read as seconds, and a bad value refused in one line
before any worker starts."""

from __future__ import annotations

import pytest

from cli_support import assert_one_error_line, run_main
from croupier.errors import InputError
from croupier.service.app import ENV_SWITCH_INTERVAL, SWITCH_INTERVAL, switch_interval


def test_the_default_is_a_tenth_of_pythons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SWITCH_INTERVAL, raising=False)
    assert switch_interval() == SWITCH_INTERVAL == 0.005 / 10


@pytest.mark.parametrize(("text", "seconds"), [("0.001", 0.001), (" 0 ", 0.0), ("1", 1.0)])
def test_the_environment_sets_it(
    monkeypatch: pytest.MonkeyPatch, text: str, seconds: float
) -> None:
    monkeypatch.setenv(ENV_SWITCH_INTERVAL, text)
    assert switch_interval() == seconds


@pytest.mark.parametrize("text", ["abc", "-0.001", "2", "nan", "inf", "1e400"])
def test_a_bad_value_is_one_error_line(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv(ENV_SWITCH_INTERVAL, text)
    with pytest.raises(InputError, match=r"CROUPIER_SWITCH_INTERVAL is seconds from 0 to 1"):
        switch_interval()
    line = assert_one_error_line(run_main(["serve", "--port", "1"]))
    assert "$CROUPIER_SWITCH_INTERVAL is seconds from 0 to 1" in line

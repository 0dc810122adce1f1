"""``croupier serve``'s process settings from the environment: its GIL switch interval
(:func:`croupier.service.app.switch_interval`; the default, ``$CROUPIER_SWITCH_INTERVAL`` read as
seconds), the body limit and a token's life (:meth:`ServiceConfig.from_env`) — a bad value refused
in one line before any worker starts — and the start-up's objects frozen in a server process."""

from __future__ import annotations

import pytest

from cli_support import assert_one_error_line, run_main
from croupier.errors import InputError
from croupier.service.app import (
    ENV_SWITCH_INTERVAL,
    SWITCH_INTERVAL,
    ServiceConfig,
    app_from_env,
    create_app,
    switch_interval,
)


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


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("CROUPIER_MAX_BODY", "abc"),
        ("CROUPIER_MAX_BODY", "0"),
        ("CROUPIER_MAX_BODY", "1.5"),
        ("CROUPIER_TOKEN_TTL", "-1"),
        ("CROUPIER_TOKEN_TTL", "59"),
        ("CROUPIER_TOKEN_TTL", "9" * 40),
    ],
)
def test_a_bad_size_or_time_is_one_error_line(
    monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> None:
    """Each worker reads them as it starts: a bad one was a traceback in every worker."""
    monkeypatch.delenv(ENV_SWITCH_INTERVAL, raising=False)
    monkeypatch.setenv(name, text)
    with pytest.raises(InputError, match=rf"\${name} is a whole number of"):
        ServiceConfig.from_env()
    line = assert_one_error_line(run_main(["serve", "--port", "1"]))
    assert f"${name} is a whole number of" in line


def test_the_environment_sets_the_body_limit_and_token_life(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CROUPIER_MAX_BODY", "2048")
    monkeypatch.setenv("CROUPIER_TOKEN_TTL", " 3600 ")
    cfg = ServiceConfig.from_env()
    assert (cfg.max_body, cfg.token_ttl, cfg.freeze_startup) == (2048, 3600, False)


def test_a_server_process_freezes_what_it_made_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    """``app_from_env`` (uvicorn's factory, a server process) asks for it; an application a
    test makes does not (the test's own objects stay collectable)."""
    monkeypatch.delenv("CROUPIER_MAX_BODY", raising=False)
    monkeypatch.delenv("CROUPIER_TOKEN_TTL", raising=False)
    monkeypatch.setenv(ENV_SWITCH_INTERVAL, "0")  # Python's own: nothing set in this process
    assert app_from_env().state.config.freeze_startup is True
    assert create_app().state.config.freeze_startup is False

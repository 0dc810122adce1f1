"""The settle path's caches (issue 16: CPU per settled round): each gives what the uncached
lookup gives, and a change behind it is seen."""

from __future__ import annotations

import pytest

from croupier.table import round as table_round
from croupier.wagers import get_wager, registry


def test_a_base_wager_is_not_registered_and_a_miss_is_remembered() -> None:
    assert table_round._registered("blackjack") is None
    assert table_round._UNREGISTERED["blackjack"] == len(registry._REGISTRY)
    assert table_round._registered("blackjack") is None
    assert table_round._registered("perfect-pairs") is get_wager("perfect-pairs")


def test_a_wager_registered_after_a_miss_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    assert table_round._registered("s1-late-wager") is None
    late = get_wager("perfect-pairs")
    monkeypatch.setitem(registry._REGISTRY, "s1-late-wager", late)
    assert table_round._registered("s1-late-wager") is late

"""A wager's settings are one record (issue 28): :class:`~croupier.wagers.spec.WagerSpec`, a
frozen dataclass with a docstring on every field, which every registered wager sets and reads."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Sequence
from dataclasses import FrozenInstanceError, fields

import pytest

from croupier.cards import Card
from croupier.wagers import (
    CardGroup,
    CardSource,
    DealSpec,
    Game,
    OrderedOutcome,
    Wager,
    WagerSpec,
    all_wagers,
    register,
)
from croupier.wagers import spec as spec_module


def test_every_field_of_the_spec_has_its_docstring() -> None:
    tree = ast.parse(inspect.getsource(spec_module))
    (cls,) = (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "WagerSpec")
    documented = {
        stmt.target.id
        for stmt, after in zip(cls.body, cls.body[1:], strict=False)
        if isinstance(stmt, ast.AnnAssign)
        and isinstance(stmt.target, ast.Name)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    }
    assert documented == {f.name for f in fields(WagerSpec)}


def test_every_wager_reads_its_settings_from_its_spec() -> None:
    for w in all_wagers():
        assert isinstance(w.spec, WagerSpec), w
        for f in fields(WagerSpec):
            assert getattr(w, f.name) == getattr(w.spec, f.name), (w.id, f.name)
            assert getattr(type(w), f.name) == getattr(w.spec, f.name), (w.id, f.name)
    assert len({hash(w.spec) for w in all_wagers()}) == len(all_wagers())
    with pytest.raises(FrozenInstanceError):
        all_wagers()[0].spec.id = "x"  # type: ignore[misc]


class _Outcome(OrderedOutcome):
    WIN = "win"


_DEAL = DealSpec((CardGroup("player's two cards", 2, source=CardSource.PLAYER),))


def test_a_setting_outside_the_spec_is_refused() -> None:
    with pytest.raises(TypeError, match="sets id in its class body"):

        class _Stray(Wager):  # the settings as class attributes, as before the spec
            id = "stray"

            def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
                return None

    class _NoSpec(Wager):
        def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
            return None

    with pytest.raises(TypeError, match="has no spec"):
        register(_NoSpec)


def test_a_spec_is_data_with_defaults() -> None:
    class _Bare(Wager):
        spec = WagerSpec(
            id="bare",
            name="Bare",
            game=Game.BLACKJACK,
            section="699z.2",
            settle_rule="699z.2(a)",
            outcomes=_Outcome,
            deal=_DEAL,
        )

        def classify(self, cards: Sequence[Card]) -> OrderedOutcome | None:
            return None

    bare = _Bare()
    assert (bare.id, bare.base_wagers, bare.fallbacks, bare.kernel) == ("bare", (), {}, None)
    assert bare.citation == "58 Pa. Code § 699z.2"

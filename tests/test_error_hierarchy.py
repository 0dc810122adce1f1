"""Issue 28: the errors of who may act sit under one parent, apart from the rules of the games and
the ledger's own refusals — so ``except AccessError`` (or Python's ``PermissionError``) catches
an unknown login and a role below the rule's, and nothing else."""

from __future__ import annotations

import inspect

import pytest

import croupier.errors as errors
from croupier.errors import (
    AccessError,
    AuthenticationError,
    AuthorizationError,
    CroupierError,
    LedgerError,
    LoginLockedError,
    RulesError,
)


@pytest.mark.parametrize("kind", [AuthenticationError, AuthorizationError, LoginLockedError])
def test_the_access_errors_share_one_parent(kind: type[CroupierError]) -> None:
    assert issubclass(kind, AccessError) and issubclass(kind, PermissionError)
    assert not issubclass(kind, RulesError | LedgerError)


def test_nothing_else_is_an_access_error() -> None:
    access = {
        name
        for name, kind in inspect.getmembers(errors, inspect.isclass)
        if issubclass(kind, AccessError)
    }
    assert access == {
        "AccessError",
        "AuthenticationError",
        "AuthorizationError",
        "LoginLockedError",
    }


def test_a_role_refusal_still_cites_the_rule_that_sets_the_role() -> None:
    exc = AuthorizationError("a dealer may not validate an award", "633b.2(h)(3)")
    assert str(exc) == "a dealer may not validate an award (58 Pa. Code § 633b.2(h)(3))"
    assert (exc.section, exc.reason) == ("633b.2(h)(3)", "a dealer may not validate an award")
    assert str(AuthenticationError("unknown name or wrong credential")) == (
        "unknown name or wrong credential"
    )

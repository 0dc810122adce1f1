"""The settle path's caches (issue 16: CPU per settled round): each gives what the uncached
lookup gives, and a change behind it is seen."""

from __future__ import annotations

import json
import time
from typing import cast

import pytest

from croupier.errors import AuthenticationError, CroupierError
from croupier.inputs import parse_json
from croupier.progressive import Ledger, Role, StaffMember
from croupier.service import auth
from croupier.service.app import _plainly_within
from croupier.table import round_queries as table_round
from croupier.wagers import get_wager, registry


def test_a_base_wager_is_not_registered_and_a_miss_is_remembered() -> None:
    assert table_round.registered("blackjack") is None
    assert table_round._UNREGISTERED["blackjack"] == len(registry._REGISTRY)
    assert table_round.registered("blackjack") is None
    assert table_round.registered("perfect-pairs") is get_wager("perfect-pairs")


def test_a_wager_registered_after_a_miss_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    assert table_round.registered("s1-late-wager") is None
    late = get_wager("perfect-pairs")
    monkeypatch.setitem(registry._REGISTRY, "s1-late-wager", late)
    assert table_round.registered("s1-late-wager") is late


def _parse_json_accepts(body: bytes) -> bool:
    try:
        parse_json(body.decode("utf-8"), "body")
    except (CroupierError, UnicodeDecodeError):
        return False
    return True


@pytest.mark.parametrize(
    "body",
    [
        b'{"id": "r1", "steps": [{"action": "bet", "seat": 2, "amount": "$25"}]}',
        b"[" * 32 + b"]" * 32,  # the nesting limit
        b"[" * 33 + b"]" * 33,  # one beyond: parse_json refuses
        b"[" * 5000,
        b'{"seat": 1' + b"0" * 100 + b"}",  # 101 digits
        b'{"seat": ' + b"9" * 40 + b"}",  # 40 digits: within; orjson reads it as a float
        b'{"seat": ' + b"9" * 41 + b"}",
        b'{"seat": 18446744073709551616}',
        b'{"seat": NaN}',
        b'{"seat": 1.5}',
        b'{"amount": 1e400}',
        b'"caf\xc3\xa9"',
        b'"\xff"',
        b"\xef\xbb\xbf{}",  # a byte-order mark
        b"{} {}",
        b"",
    ],
)
def test_the_body_fast_check_never_passes_what_parse_json_refuses(body: bytes) -> None:
    # the fast check passes only what parse_json accepts; it may send more to parse_json
    if _plainly_within(body):
        assert _parse_json_accepts(body)


def test_a_plain_round_file_passes_the_fast_check() -> None:
    body = json.dumps({"id": "r", "submission": {"wagers": [{"min": "$5"}]}, "steps": []})
    assert _plainly_within(body.encode())
    assert _plainly_within(b"[" * 32 + b"]" * 32)
    assert not _plainly_within(b"[" * 33 + b"]" * 33)
    assert not _plainly_within(b'{"seat": ' + b"9" * 25 + b"}")


class _KeyOnly:
    """What reading a token needs of a ledger: its key."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.key_file = "ledger.key"


def _ledger(key: bytes) -> Ledger:
    return cast(Ledger, _KeyOnly(key))


def test_a_token_read_again_names_the_same_member_until_it_expires() -> None:
    ledger = _ledger(b"k" * 32)
    token = auth.issue(ledger, StaffMember("dana", Role.DEALER), 1)
    first = auth.read_token(ledger, token)
    assert (first.name, first.role) == ("dana", Role.DEALER)
    assert auth.read_token(ledger, token) == first  # remembered
    time.sleep(2.05)  # past its expiry (issued at a whole second, valid one second)
    for _ in range(2):
        with pytest.raises(AuthenticationError, match="expired"):
            auth.read_token(ledger, token)


def test_a_remembered_token_is_worth_nothing_under_another_key() -> None:
    ledger = _ledger(b"k" * 32)
    token = auth.issue(ledger, StaffMember("sam", Role.SHIFT_MANAGER), 60)
    assert auth.read_token(ledger, token).name == "sam"
    with pytest.raises(AuthenticationError, match="not a valid token"):
        auth.read_token(_ledger(b"x" * 32), token)
    head, body, sig = token.split(".")
    # Change the signature's first character to a different one: that always
    # changes the signed bytes (the last characters may carry padding bits, and a
    # fixed replacement equals the original about once in a thousand tokens).
    forged = ("B" if sig[0] == "A" else "A") + sig[1:]
    with pytest.raises(AuthenticationError, match="not a valid token"):
        auth.read_token(ledger, f"{head}.{body}.{forged}")

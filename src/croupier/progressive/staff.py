"""Staff credentials: a password or PIN is stored only as an argon2id hash (argon2-cffi).

:func:`hash_credential` makes the hash kept in the ledger's staff store (and in the ``user``
event that added the member, so the hash is covered by the events' chain); :func:`check_credential`
checks a secret against it. The hasher's cost is argon2-cffi's default (RFC 9106 low-memory
profile); :func:`use_hasher` swaps it (tests use a cheap one).
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from croupier.errors import AuthenticationError

MIN_LENGTH = 4
"""The shortest credential accepted: a four-digit PIN."""

_hasher = PasswordHasher()


def use_hasher(hasher: PasswordHasher) -> None:
    """Hash new credentials with ``hasher`` (verification reads the parameters from each hash)."""
    global _hasher
    _hasher = hasher


def hash_credential(secret: str) -> str:
    """The argon2id hash of ``secret``; :class:`~croupier.errors.AuthenticationError` for a
    credential shorter than :data:`MIN_LENGTH` or blank."""
    if not isinstance(secret, str) or len(secret.strip()) < MIN_LENGTH:
        raise AuthenticationError(
            f"a staff credential (password or PIN) needs at least {MIN_LENGTH} characters"
        )
    return _hasher.hash(secret)


def check_credential(stored: str | None, secret: str) -> bool:
    """Whether ``secret`` matches the stored hash (``False`` for no hash or a malformed one)."""
    if not stored:
        return False
    try:
        return _hasher.verify(stored, secret)
    except (VerificationError, InvalidHashError):
        return False

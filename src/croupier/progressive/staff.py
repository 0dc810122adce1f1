"""Staff credentials: a password or PIN is stored only as an argon2id hash (argon2-cffi).

:func:`hash_credential` makes the hash kept in the ledger's staff store (and in the ``user``
event that added the member, so the hash is covered by the events' chain); :func:`check_credential`
checks a secret against it. The hasher's cost is argon2-cffi's default (RFC 9106 low-memory
profile); :func:`use_hasher` swaps it (tests use a cheap one).
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from croupier.errors import AuthenticationError, CroupierError, InputError

MIN_LENGTH = 4
"""The shortest credential accepted: a four-digit PIN."""

MAX_LENGTH = 1024
"""The longest credential accepted, in characters (argon2 takes any length; a bound keeps a
hostile request from making the hash's input arbitrarily large)."""


def _checked(secret: object, error: type[CroupierError] = AuthenticationError) -> str:
    """``secret`` as credential text: a ``str`` of UTF-8-encodable characters (no lone
    surrogates, such as undecodable bytes in an environment variable become), at most
    :data:`MAX_LENGTH` long; else ``error`` (:class:`~croupier.errors.AuthenticationError` for a
    credential offered to log in, :class:`~croupier.errors.InputError` for a new one)."""
    if not isinstance(secret, str):
        raise error("a staff credential (password or PIN) is text")
    if len(secret) > MAX_LENGTH:
        raise error(f"a staff credential (password or PIN) has at most {MAX_LENGTH} characters")
    try:
        secret.encode("utf-8")
    except UnicodeEncodeError:
        raise error(
            "a staff credential (password or PIN) must be UTF-8 text (it holds bytes that are not)"
        ) from None
    return secret


_hasher = PasswordHasher()


def use_hasher(hasher: PasswordHasher) -> None:
    """Hash new credentials with ``hasher`` (verification reads the parameters from each hash)."""
    global _hasher
    _hasher = hasher


def hash_credential(secret: str) -> str:
    """The argon2id hash of ``secret``; :class:`~croupier.errors.InputError` for a credential
    shorter than :data:`MIN_LENGTH` or blank, or not credential text (a new credential is input:
    whoever gives it is authenticated already, or is bootstrapping the ledger)."""
    if not isinstance(secret, str) or len(secret.strip()) < MIN_LENGTH:
        raise InputError(
            f"a staff credential (password or PIN) needs at least {MIN_LENGTH} characters"
        )
    return _hasher.hash(_checked(secret, InputError))


def check_credential(stored: str | None, secret: str) -> bool:
    """Whether ``secret`` matches the stored hash (``False`` for no hash or a malformed one).
    :class:`~croupier.errors.AuthenticationError` for a secret that is not credential text
    (:func:`_checked`)."""
    secret = _checked(secret)
    if not stored:
        return False
    try:
        return _hasher.verify(stored, secret)
    except (VerificationError, InvalidHashError):
        return False

"""The random stream of the compiled kernels: xoshiro256** on four 64-bit words, seeded from a
:class:`numpy.random.SeedSequence`.

numpy's own generators reached from numba code cost ~35 ns a draw (a call through the bit
generator's interface); xoshiro256** inlined in the kernel costs ~3 ns. Each chunk of a simulation
has its own :class:`~numpy.random.SeedSequence` (a child of the run's seed,
:func:`croupier.analysis.kernels.chunks.chunk_seed`), whose :meth:`generate_state` fills the four
words — the streams of different chunks are independent as SeedSequence children are.

Bounded draws use Lemire's multiply-and-reject on the top 32 bits: exactly uniform on ``[0, n)``
(the rejection removes the 2^32 mod n values that would bias it). The round engines draw three
bounded integers from each 32-bit half of an output (:func:`three_below`, the batched form of
Lemire's method: Brackett-Rozinsky & Lemire, "Batched ranged random integer generation", 2024),
with the state held in four local words (:func:`step`) rather than read from and written back to
memory on every draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from croupier.wagers.base import IntArray

U64Array = IntArray  # the state is a uint64 array of four words; typed loosely for mypy

_MASK32 = uint64(0xFFFFFFFF)

TRIPLE_MAX = 1626
"""The largest ``n`` with ``n (n − 1) (n − 2) <= 2**32``: three draws below ``n``, ``n − 1`` and
``n − 2`` fit one 32-bit word (:func:`three_below`)."""


def seed_state(seq: np.random.SeedSequence) -> np.ndarray:
    """The four-word xoshiro256** state a SeedSequence seeds (never all zero)."""
    state = seq.generate_state(4, np.uint64)
    if not state.any():  # the one state xoshiro cannot leave; SeedSequence makes it ~never
        state[0] = 1
    return state


@njit(cache=True, nogil=True, inline="always")
def step(s0, s1, s2, s3):  # type: ignore[no-untyped-def]
    """:func:`next_u64` on a state held in four local words: ``(output, s0, s1, s2, s3)`` with
    the advanced state (the same stream as :func:`next_u64` on ``[s0, s1, s2, s3]``)."""
    x = s1 * uint64(5)
    result = ((x << uint64(7)) | (x >> uint64(57))) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << uint64(45)) | (s3 >> uint64(19))
    return result, s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def next_u64(state: np.ndarray) -> int:
    """The next 64-bit output of xoshiro256** (Blackman & Vigna), advancing ``state``."""
    result, s0, s1, s2, s3 = step(state[0], state[1], state[2], state[3])
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result  # type: ignore[no-any-return]


@njit(cache=True, nogil=True, inline="always")
def below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire's method, unbiased)."""
    bound = uint64(n)
    m = (next_u64(state) >> uint64(32)) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (uint64(4294967296) - bound) % bound  # 2^32 mod n
        while low < threshold:
            m = (next_u64(state) >> uint64(32)) * bound
            low = m & _MASK32
    return int(m >> uint64(32))


@njit(cache=True, nogil=True, inline="always")
def below_half(state: np.ndarray, half: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` from the 32-bit value ``half`` (one half of a 64-bit
    output), by Lemire's method; when ``half`` falls in the rejected zone, :func:`below` draws
    afresh — still exactly uniform, as each half of a xoshiro256** output is uniform."""
    bound = uint64(n)
    m = uint64(half) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (uint64(4294967296) - bound) % bound
        if low < threshold:
            return below(state, n)
    return int(m >> uint64(32))


@njit(cache=True, nogil=True, inline="always")
def one_below(word, n, s0, s1, s2, s3):  # type: ignore[no-untyped-def]
    """A uniform integer in ``[0, n)`` (``1 <= n < 2**32``) from the 32-bit ``word``, drawing fresh
    words from the state only on Lemire's rejection: ``(value, s0, s1, s2, s3)``."""
    bound = uint64(n)
    m = uint64(word) * bound
    low = m & _MASK32
    if low < bound:
        threshold = (uint64(4294967296) - bound) % bound  # 2^32 mod n
        while low < threshold:
            x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
            m = (x >> uint64(32)) * bound
            low = m & _MASK32
    return int(m >> uint64(32)), s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def three_below(word, n, s0, s1, s2, s3):  # type: ignore[no-untyped-def]
    """Three integers uniform on ``[0, n) × [0, n − 1) × [0, n − 2)`` from the 32-bit ``word``
    (``3 <= n <=`` :data:`TRIPLE_MAX`): ``(a, b, c, s0, s1, s2, s3)``.

    ``word · n · (n − 1) · (n − 2) = A · 2^32 + low`` with ``A`` the mixed-radix number of the
    digits ``a, b, c``, which the three multiplications peel off one at a time; rejecting the
    ``2^32 mod p`` smallest values of ``low`` (``p`` the product) is Lemire's method for the single
    bound ``p``, so ``A`` — hence the three digits — is exactly uniform. A rejected word is replaced
    by a fresh one from the state."""
    ua = uint64(n)
    ub = uint64(n - 1)
    uc = uint64(n - 2)
    a, b, c, low = _peel_three(word, ua, ub, uc)
    p = ua * ub * uc
    if low < p:
        threshold = (uint64(4294967296) - p) % p  # 2^32 mod p
        while low < threshold:
            x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
            a, b, c, low = _peel_three(x >> uint64(32), ua, ub, uc)
    return int(a), int(b), int(c), s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def _peel_three(word, ua, ub, uc):  # type: ignore[no-untyped-def]
    """The digits ``a, b, c`` of ``word · ua · ub · uc`` above 2^32 and the 32 bits ``low`` left
    below them (:func:`three_below`): ``(a, b, c, low)``."""
    m = uint64(word) * ua
    a = m >> uint64(32)
    m = (m & _MASK32) * ub
    b = m >> uint64(32)
    m = (m & _MASK32) * uc
    return a, b, m >> uint64(32), m & _MASK32

"""The random stream of the compiled kernels: xoshiro256** on four 64-bit words, seeded from a
:class:`numpy.random.SeedSequence`.

numpy's own generators reached from numba code cost ~35 ns a draw (a call through the bit
generator's interface); xoshiro256** inlined in the kernel costs ~3 ns. Each chunk of a simulation
has its own :class:`~numpy.random.SeedSequence` (a child of the run's seed,
:func:`croupier.analysis.kernels.chunks.chunk_seed`), whose :meth:`generate_state` fills the four
words — the streams of different chunks are independent as SeedSequence children are.

Bounded draws use Lemire's multiply-and-reject on the top 32 bits: exactly uniform on ``[0, n)``
(the rejection removes the 2^32 mod n values that would bias it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from croupier.wagers.base import IntArray

U64Array = IntArray  # the state is a uint64 array of four words; typed loosely for mypy

_MASK32 = uint64(0xFFFFFFFF)


def seed_state(seq: np.random.SeedSequence) -> np.ndarray:
    """The four-word xoshiro256** state a SeedSequence seeds (never all zero)."""
    state = seq.generate_state(4, np.uint64)
    if not state.any():  # the one state xoshiro cannot leave; SeedSequence makes it ~never
        state[0] = 1
    return state


@njit(cache=True, nogil=True, inline="always")
def next_u64(state: np.ndarray) -> int:
    """The next 64-bit output of xoshiro256** (Blackman & Vigna), advancing ``state``."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    x = s1 * uint64(5)
    result = ((x << uint64(7)) | (x >> uint64(57))) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << uint64(45)) | (s3 >> uint64(19))
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

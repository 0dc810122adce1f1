"""Simulations in chunks, each with its own random stream, run here or on a Dask cluster.

A run of ``rounds`` rounds from seed entropy ``E`` is cut into chunks of :data:`CHUNK_ROUNDS`
(the last one shorter). Chunk ``i`` draws from ``SeedSequence(E).spawn(n)[i]`` — built directly as
``SeedSequence(E, spawn_key=(i,))``, the same child whatever ``n`` — and its tallies are Python
ints; the run's tallies are their sum. Which process or machine deals a chunk, and in what order the
chunks finish, changes nothing: the same seed gives the same tallies with one worker or many.

Dask (``dask[distributed]``) is imported only when a run uses it.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

import numpy as np

from croupier.analysis.kernels import count_with, plan_for
from croupier.analysis.kernels.numpy_sim import simulate_counts
from croupier.analysis.kernels.rng import seed_state
from croupier.cards import Shoe
from croupier.errors import InputError
from croupier.wagers.base import Wager

CHUNK_ROUNDS = 1 << 20
"""Rounds per chunk (1,048,576): the unit of work handed to a worker and of the progress bar."""

Tallies = tuple[int, ...]


def chunks_phrase(rounds: int, size: int = CHUNK_ROUNDS) -> str:
    """How ``rounds`` rounds are cut into chunks of ``size``, in words.

    >>> chunks_phrase(2_000_000), chunks_phrase(300_000)
    ('2 chunks of 1,048,576 rounds, the last 951,424', '1 chunk of 300,000 rounds')
    """
    n, last = -(-rounds // size), rounds % size or size
    if n == 1:
        return f"1 chunk of {rounds:,} rounds"
    return f"{n:,} chunks of {size:,} rounds" + (f", the last {last:,}" if last != size else "")


def chunk_seed(entropy: int, index: int) -> np.random.SeedSequence:
    """The stream of chunk ``index``: child ``index`` of ``SeedSequence(entropy)``.

    >>> s = np.random.SeedSequence(7)
    >>> chunk_seed(7, 2).generate_state(2).tolist() == s.spawn(3)[2].generate_state(2).tolist()
    True
    """
    return np.random.SeedSequence(entropy, spawn_key=(index,))


def chunks(rounds: int, start: int = 0, size: int = CHUNK_ROUNDS) -> list[tuple[int, int]]:
    """``(index, rounds)`` of the chunks dealing ``rounds`` rounds, numbered from ``start``.

    >>> chunks(5, size=2)
    [(0, 2), (1, 2), (2, 1)]
    """
    full, rest = divmod(rounds, size)
    out = [(start + i, size) for i in range(full)]
    if rest:
        out.append((start + full, rest))
    return out


def count_chunk(wager: Wager, shoe: Shoe, index: int, rounds: int, entropy: int) -> Tallies:
    """Tallies of chunk ``index`` (``rounds`` rounds): the wager's kernel when it declares one,
    else the numpy simulator seeded from the chunk's stream."""
    seq = chunk_seed(entropy, index)
    plan = plan_for(wager, shoe)
    if plan is not None:
        return count_with([plan], shoe, rounds, seed_state(seq))[0]
    seed = int.from_bytes(seq.generate_state(4, np.uint32).tobytes(), "little")
    return simulate_counts(wager, shoe, rounds, seed)


def _add(a: Tallies | None, b: Tallies) -> Tallies:
    return b if a is None else tuple(x + y for x, y in zip(a, b, strict=True))


def _distributed() -> Any:
    """The ``distributed`` module (imported on first use: start-up stays fast without it)."""
    try:
        return import_module("distributed")
    except ImportError as e:  # pragma: no cover - a dependency
        raise InputError(f"--workers/--scheduler need dask[distributed]: {e}") from None


@contextmanager
def dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: on the cluster at ``scheduler``, else on a local cluster of ``workers``
    single-threaded workers (threads of this process: the kernels release the GIL)."""
    dist = _distributed()
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if scheduler is not None:
        try:
            client = Client(scheduler)  # waits distributed.comm.timeouts.connect
        except (OSError, TimeoutError, ValueError) as e:
            raise InputError(f"no Dask scheduler at {scheduler!r}: {e}") from None
        try:
            yield client
        finally:
            client.close()
        return
    with warnings.catch_warnings():
        # the scheduler's HTTP routes move off a busy port 8787 on their own: no need to say so
        warnings.filterwarnings("ignore", message="Port .* is already in use")
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=False,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    with cluster, Client(cluster) as client:
        yield client


def run_chunks(
    wager: Wager,
    shoe: Shoe,
    rounds: int,
    entropy: int,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
    client: Any = None,
    chunk_rounds: int = CHUNK_ROUNDS,
) -> Tallies:
    """The tallies of ``rounds`` rounds in chunks numbered from ``start``: on ``client`` (a Dask
    client) when given; else here, one chunk after the other, with ``workers=1`` and no
    ``scheduler``; else on a Dask cluster (:func:`dask_client`) for this run. ``progress`` is
    called with the rounds done after each chunk. The tallies depend on ``entropy``, ``rounds``,
    ``start`` and ``chunk_rounds`` only."""
    if workers < 1:
        raise InputError(f"--workers is at least 1, not {workers}")
    if chunk_rounds < 1:
        raise InputError(f"a chunk holds at least one round, not {chunk_rounds}")
    plan = chunks(rounds, start, chunk_rounds)
    if client is None and workers == 1 and scheduler is None:
        total: Tallies | None = None
        done = 0
        for index, n in plan:
            total = _add(total, count_chunk(wager, shoe, index, n, entropy))
            done += n
            if progress is not None:
                progress(done)
    elif client is None:
        with dask_client(workers, scheduler) as own:
            total = _on_dask(own, wager, shoe, plan, entropy, progress)
    else:
        total = _on_dask(client, wager, shoe, plan, entropy, progress)
    if total is None:
        raise InputError("simulate at least one round")
    return total


def _on_dask(
    client: Any,
    wager: Wager,
    shoe: Shoe,
    plan: list[tuple[int, int]],
    entropy: int,
    progress: Callable[[int], None] | None,
) -> Tallies | None:
    as_completed = _distributed().as_completed
    futures = [
        client.submit(count_chunk, wager, shoe, index, n, entropy, pure=False) for index, n in plan
    ]
    sizes = {f.key: n for f, (_, n) in zip(futures, plan, strict=True)}
    total: Tallies | None = None
    done = 0
    for future in as_completed(futures):
        total = _add(total, future.result())
        done += sizes[future.key]
        if progress is not None:
            progress(done)
    return total

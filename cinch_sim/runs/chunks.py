"""How big a run's chunks are by default: the unit saved, where Ctrl-C stops and how
often progress shows. Results never depend on it. A light module: the CLI reads
these for its help without loading the engine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cinch_sim.policies.strategies import Strategy

HANDS_CHUNK = 65536  # hands a chunk by default
PAIRS_CHUNK = 1000  # duplicate pairs (cut-throat: rotations) a chunk by default
# where a seat plays a slow built-in (pimc, dd: milliseconds a hand, not microseconds):
# chunks of seconds, so that progress shows and Ctrl-C keeps most of what was played
SLOW_HANDS_CHUNK = 256
SLOW_PAIRS_CHUNK = 16


def default_chunk(chunk: int | None, fast: int, slow_chunk: int, slow: bool) -> int:
    """``chunk`` as given, else ``fast`` or, where a seat plays slowly, ``slow_chunk``
    (results never depend on the chunk; only progress and Ctrl-C do)."""
    if chunk is not None:
        return chunk
    return slow_chunk if slow else fast


def plays_slowly(strategies: Iterable[Strategy]) -> bool:
    """True when any of ``strategies`` plays with a slow built-in (pimc, dd)."""
    return any(s.policy("play").slow for s in strategies)

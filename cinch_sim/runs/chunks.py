"""How big a run's chunks are by default: the unit saved, where Ctrl-C stops and how
often progress shows. Results never depend on it. A light module: the CLI reads
these for its help without loading the engine."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cinch_sim.policies.strategies import Strategy
    from cinch_sim.rules import Rules

HANDS_CHUNK = 65536  # hands a chunk by default
PAIRS_CHUNK = 1000  # duplicate pairs (cut-throat: rotations) a chunk by default
# where a seat plays a slow built-in (pimc, dd: milliseconds a hand, not microseconds):
# chunks of seconds, so that progress shows and Ctrl-C keeps most of what was played
SLOW_HANDS_CHUNK = 256
SLOW_MATCH_GAMES = 32  # games a match's chunk: 16 pairs, or 5 rotations of six seats
SLOW_PAIRS_CHUNK = SLOW_MATCH_GAMES // 2


def default_chunk(chunk: int | None, fast: int, slow_chunk: int, slow: bool) -> int:
    """``chunk`` as given, else ``fast`` or, where a seat plays slowly, ``slow_chunk``
    (results never depend on the chunk; only progress and Ctrl-C do)."""
    if chunk is not None:
        return chunk
    return slow_chunk if slow else fast


def games_per_unit(rules: Rules) -> int:
    """Games a unit of a match: a pair's two, or a cut-throat rotation's one a seat."""
    return rules.players if rules.teams > 2 else 2


def match_chunk(chunk: int | None, rules: Rules, strategies: Iterable[Strategy]) -> int:
    """A match's units (pairs or rotations) a chunk: ``chunk`` as given, else
    ``PAIRS_CHUNK``, or where a seat plays slowly about ``SLOW_MATCH_GAMES`` games,
    so that a six-seat rotation's chunk (six games) is not three times a pair's."""
    if chunk is not None:
        return chunk
    if not plays_slowly(strategies):
        return PAIRS_CHUNK
    return max(1, round(SLOW_MATCH_GAMES / games_per_unit(rules)))


def plays_slowly(strategies: Iterable[Strategy]) -> bool:
    """True when any of ``strategies`` plays with a slow built-in (pimc, dd)."""
    return any(s.policy("play").slow for s in strategies)

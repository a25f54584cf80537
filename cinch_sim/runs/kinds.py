"""How each run's aggregate starts, merges and is written as arrays (a chunk file).

Hands: ``HandCounts``, whole numbers merged in any order. Matches: a match's
per-pair (per-rotation) lists, joined in chunk order, so ``order_free`` is false
and the driver merges them by key. A ladder: {matchup: its match's stats}.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from cinch_sim.analysis.counts import HandCounts
from cinch_sim.matches.pairs import PairStats, same_stats
from cinch_sim.matches.rotation import RotationStats
from cinch_sim.runs.work import HandsRun, LadderRun, MatchRun


class HandsKind:
    order_free = True

    def __init__(self, run: HandsRun) -> None:
        self.rules = run.rules

    def empty(self) -> HandCounts:
        return HandCounts(self.rules)

    def merge(self, total: HandCounts, part: HandCounts) -> HandCounts:
        total.merge(part)
        return total

    def to_arrays(self, agg: HandCounts) -> dict[str, np.ndarray]:
        return agg.to_arrays()

    def from_arrays(self, arrays: dict[str, np.ndarray]) -> HandCounts:
        return HandCounts.from_arrays(self.rules, arrays)

    def same(self, a: HandCounts, b: HandCounts) -> bool:
        return a.same(b)


class MatchKind:
    order_free = False

    def __init__(self, run: MatchRun) -> None:
        self.run = run

    def empty(self) -> PairStats | RotationStats:
        return self.run.empty()

    def merge(self, total: Any, part: Any) -> Any:
        total.merge(part)
        return total

    def to_arrays(self, agg: Any) -> dict[str, np.ndarray]:
        return agg.to_arrays()

    def from_arrays(self, arrays: dict[str, np.ndarray]) -> PairStats | RotationStats:
        cls = RotationStats if self.run.cutthroat else PairStats
        return cls.from_arrays(arrays)

    def same(self, a: Any, b: Any) -> bool:
        return same_stats(a, b)


class LadderKind:
    order_free = False

    def __init__(self, run: LadderRun) -> None:
        self.run = run
        self.one = MatchKind(run.match(0))

    def empty(self) -> dict[int, Any]:
        return {}

    def merge(self, total: dict[int, Any], part: dict[int, Any]) -> dict[int, Any]:
        for m, stats in sorted(part.items()):
            if m in total:
                total[m].merge(stats)
            else:
                total[m] = self.one.merge(self.one.empty(), stats)
        return total

    def to_arrays(self, agg: dict[int, Any]) -> dict[str, np.ndarray]:
        return {f"{m}/{k}": v for m, stats in agg.items() for k, v in stats.to_arrays().items()}

    def from_arrays(self, arrays: dict[str, np.ndarray]) -> dict[int, Any]:
        parts: dict[int, dict[str, np.ndarray]] = defaultdict(dict)
        for name, value in arrays.items():
            m, _, k = name.partition("/")
            parts[int(m)][k] = value
        return {m: self.one.from_arrays(a) for m, a in sorted(parts.items())}

    def same(self, a: dict[int, Any], b: dict[int, Any]) -> bool:
        return a.keys() == b.keys() and all(self.one.same(a[m], b[m]) for m in a)


def kind_of(run: Any) -> HandsKind | MatchKind | LadderKind:
    if isinstance(run, HandsRun):
        return HandsKind(run)
    if isinstance(run, MatchRun):
        return MatchKind(run)
    return LadderKind(run)

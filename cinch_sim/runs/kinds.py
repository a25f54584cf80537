"""How each run's aggregate starts, merges and is written as arrays (a chunk file).

Hands: ``HandCounts``, whole numbers merged in any order. Matches: a match's
per-pair (per-rotation) lists, joined in chunk order, so ``order_free`` is false
and the driver merges them by key. A ladder: {matchup: its match's stats}.

``read_chunk`` reads a chunk file back and checks it: its arrays must be those
``to_arrays`` writes (every one there, of its shape) and hold the units of its
key (``units``), else it is a ``store.DamagedChunk`` naming the file.
"""

from __future__ import annotations

import os
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from cinch_sim.analysis.counts import HandCounts
from cinch_sim.runs.store import DamagedChunk, failure, unpack
from cinch_sim.runs.work import HandsRun, LadderRun, MatchRun

if TYPE_CHECKING:  # the matches' modules load when a match runs, not for hands
    from cinch_sim.matches.pairs import PairStats
    from cinch_sim.matches.rotation import RotationStats

ROTATION_UNIT_LISTS = ("share", "diff_sum", "diff_n")  # one value a rotation (the rest: a game)


class HandsKind:
    order_free = True
    unit = "hands"

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

    def units(self, agg: HandCounts) -> dict[int, int]:
        """The hands ``agg`` holds, as {matchup 0: hands}."""
        return {0: agg.hands}

    def same(self, a: HandCounts, b: HandCounts) -> bool:
        return a.same(b)


class MatchKind:
    order_free = False

    def __init__(self, run: MatchRun) -> None:
        self.run = run
        self.unit = "rotations" if run.cutthroat else "pairs"

    def empty(self) -> PairStats | RotationStats:
        return self.run.empty()

    def merge(self, total: Any, part: Any) -> Any:
        total.merge(part)
        return total

    def to_arrays(self, agg: Any) -> dict[str, np.ndarray]:
        return agg.to_arrays()

    def from_arrays(self, arrays: dict[str, np.ndarray]) -> PairStats | RotationStats:
        """The stats ``to_arrays`` wrote: a ValueError (a KeyError: an array missing)
        where the arrays are not of their shapes or do not fit one another."""
        from cinch_sim.matches.pairs import PairStats
        from cinch_sim.matches.rotation import RotationStats

        self._check(arrays)
        cls = RotationStats if self.run.cutthroat else PairStats
        return cls.from_arrays(arrays)

    def units(self, agg: Any) -> dict[int, int]:
        """The pairs (rotations) ``agg`` holds, as {matchup 0: pairs}."""
        return {0: agg.rotations if self.run.cutthroat else agg.pairs}

    def _check(self, arrays: dict[str, np.ndarray]) -> None:
        """Every list a 1-D array of numbers cut by its sizes, one value a unit (a pair,
        a rotation) or a game, and the per-side counts a table of two rows."""
        from cinch_sim.matches.pairs import GAME_LISTS, PAIR_LISTS, side_count_names
        from cinch_sim.matches.rotation import ROTATION_LISTS

        rules = self.run.rules
        if self.run.cutthroat:
            names, unit_lists = ROTATION_LISTS, ROTATION_UNIT_LISTS
            players = np.asarray(arrays["players"])
            if players.shape != () or players != rules.players:
                raise ValueError(f"array players is not {rules.players}")
        else:
            names, unit_lists = PAIR_LISTS + GAME_LISTS, PAIR_LISTS
            if "luck" not in arrays:  # a chunk of a run begun before the luck was kept
                names = tuple(n for n in names if n != "luck")
        units: float | None = None  # in a list of one value a game: its games / per_unit
        for name in names:
            values, sizes = np.asarray(arrays[name]), np.asarray(arrays[f"{name}.sizes"])
            if values.ndim != 1 or values.dtype.kind not in "biuf":
                raise ValueError(f"array {name} is not a list of numbers")
            if sizes.ndim != 1 or sizes.dtype.kind not in "iu" or (sizes < 0).any() \
                    or int(sizes.sum()) != values.size:  # fmt: skip
                raise ValueError(f"array {name}.sizes does not fit {name}")
            n = values.size if name in unit_lists else values.size / self.run.per_unit
            if units is None:
                units = n
            if n != units:
                raise ValueError(f"array {name} does not fit the other lists")
        counts = np.asarray(arrays["counts"])
        columns = (len(side_count_names(rules)), 0)  # 0: no hand counted yet
        if counts.ndim != 2 or counts.shape[0] != 2 or counts.shape[1] not in columns \
                or counts.dtype.kind not in "iu":  # fmt: skip
            raise ValueError("array counts is not a table of two sides' counts")

    def same(self, a: Any, b: Any) -> bool:
        from cinch_sim.matches.pairs import same_stats

        return same_stats(a, b)


class LadderKind:
    order_free = False

    def __init__(self, run: LadderRun) -> None:
        self.run = run
        self.one = MatchKind(run.match(0))
        self.unit = self.one.unit

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

    def units(self, agg: dict[int, Any]) -> dict[int, int]:
        """The pairs (rotations) ``agg`` holds, by matchup."""
        return {m: self.one.units(stats)[0] for m, stats in agg.items()}

    def same(self, a: dict[int, Any], b: dict[int, Any]) -> bool:
        return a.keys() == b.keys() and all(self.one.same(a[m], b[m]) for m in a)


def read_chunk(kind: Any, path: str | os.PathLike, units: dict[int, int]) -> Any:
    """The aggregate of the chunk file at ``path``, which must hold ``units`` ({matchup:
    units}: a run's key's span, or a merged part's covers); ``DamagedChunk`` naming the
    file where it cannot be read, an array is missing or of the wrong shape, or it
    holds other units (a damaged file must not pass for part of the run)."""
    arrays = unpack(path)
    try:
        agg = kind.from_arrays(arrays)
        held = {m: n for m, n in kind.units(agg).items() if n}
    except Exception as exc:  # whatever a bad array makes from_arrays raise
        raise DamagedChunk(path, failure(exc)) from None
    want = {m: n for m, n in units.items() if n}
    if held != want:
        unit = kind.unit
        raise DamagedChunk(path, f"it holds {_told(held, unit)}, not {_told(want, unit)}")
    return agg


def _told(units: dict[int, int], unit: str) -> str:
    """{0: 5000} as ``5,000 hands``; a ladder's as ``25 pairs of matchup 0, ...``."""
    if set(units) <= {0}:
        return f"{units.get(0, 0):,} {unit}"
    return ", ".join(f"{n:,} {unit} of matchup {m}" for m, n in sorted(units.items()))


def kind_of(run: Any) -> HandsKind | MatchKind | LadderKind:
    if isinstance(run, HandsRun):
        return HandsKind(run)
    if isinstance(run, MatchRun):
        return MatchKind(run)
    return LadderKind(run)

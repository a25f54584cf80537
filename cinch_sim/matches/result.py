"""What a two-strategy match's result shows, whichever way it was seated: the
settings and summary as JSON, each side's figures and one row a game as tables.
The partnership match (``compare.Comparison``) and the cut-throat one
(``cutthroat.CutThroatComparison``) differ only in their numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from cinch_sim.views import Tables, no_nan

if TYPE_CHECKING:
    from cinch_sim.policies.strategies import Strategy


class MatchTables(Tables):
    """``.table()``: each side's bids and Pedros; ``.table("games")``: one row a game.
    A subclass (a dataclass) gives these fields, ``summary()`` (with ``a_side`` and
    ``b_side``) and ``games_frame()``."""

    a: Strategy
    b: Strategy
    settings: dict[str, Any]
    seconds: float
    interrupted: bool

    def summary(self, level: float | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def games_frame(self) -> pd.DataFrame:
        raise NotImplementedError

    def unit_seeds(self, units: int) -> tuple[np.ndarray, np.ndarray]:
        """Per unit of play (a duplicate pair, a rotation), in the order the games
        table holds them: the seed it was dealt under and its index under that seed,
        the pair of numbers that deals it again. One run's are its seed and 0, 1, ...;
        runs merged (``cinch-sim merge``) are told apart by ``settings["merged"]``."""
        seeds, index = [], []
        for part in self.settings.get("merged") or ():
            covers = next(v for k, v in part.items() if k != "seed")
            for _, lo, hi in covers:
                seeds += [int(part["seed"])] * (hi - lo)
                index += range(lo, hi)
        if len(seeds) != units:  # one run (or an older merged record): its own seed
            seed = self.settings.get("seed", 0)
            return np.full(units, seed, dtype=np.uint64), np.arange(units)
        return np.asarray(seeds, dtype=np.uint64), np.asarray(index)

    def to_dict(self) -> dict[str, Any]:
        """Settings and summary; NaN (nothing to estimate) becomes None, so the JSON is strict."""
        out = dict(self.settings)
        out.update(self.summary())
        out["interrupted"] = self.interrupted
        out["seconds"] = round(self.seconds, 3)
        return no_nan(out)

    def sides_frame(self) -> pd.DataFrame:
        """Per-side figures (bids, Pedros), a row a side: A's, then B's."""
        s = self.summary()
        sides = (("a_side", self.a.name), ("b_side", self.b.name))
        return pd.DataFrame([{"strategy": name, **s[side]} for side, name in sides])

    def table_names(self) -> tuple[str, ...]:
        return ("sides", "games")

    def _table(self, name: str) -> pd.DataFrame:
        return self.sides_frame() if name == "sides" else self.games_frame()

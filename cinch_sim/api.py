"""The plain Python API: the same calls the CLI makes, for scripts and notebooks."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from cinch_sim.analysis.analyse import Analysis, analyse  # noqa: F401 (re-exported: cinch_sim.api.analyse)
from cinch_sim.analysis.counts import HandCounts
from cinch_sim.analysis.tables import bid_summary, pedro_sides
from cinch_sim.engine.run import PolicySpec, iter_chunks, prepare_run  # noqa: F401 (re-exported)
from cinch_sim.rules import Rules, resolve_rules  # noqa: F401 (re-exported)


@dataclass
class Simulation:
    """What a simulation run produced: the counts and every setting that made it."""

    settings: dict[str, Any]
    counts: HandCounts
    seconds: float = 0.0
    interrupted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return self.counts.hands

    def by_bid(self) -> pd.DataFrame:
        return bid_summary(self.counts)

    def pedros(self) -> pd.DataFrame:
        return pedro_sides(self.counts)

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.settings)
        d["hands"] = self.counts.hands
        d["hands_requested"] = self.settings["hands"]
        d["interrupted"] = self.interrupted
        d["seconds"] = round(self.seconds, 3)
        d["thrown_in"] = self.counts.thrown_in
        d["by_bid"] = self.by_bid().to_dict(orient="records")
        d["pedros"] = self.pedros().to_dict(orient="records")
        return d


def simulate(
    hands: int = 100_000,
    seed: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    bid: PolicySpec = "heuristic",
    trump: PolicySpec = "heuristic",
    discard: PolicySpec = "heuristic",
    play: PolicySpec = "heuristic",
    dealer: int = 3,
    threads: int | None = None,
    chunk: int = 65536,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[Any, Any], None] | None = None,
    trace: bool = False,
) -> Simulation:
    """Play ``hands`` independent hands and tally bid success and Pedro capture.

    The same seed gives the same numbers whatever ``threads`` and ``chunk`` are.
    Ctrl-C between chunks stops the run and keeps what was finished
    (``interrupted`` is then true). ``on_chunk(rows, trace)`` sees every chunk,
    e.g. to stream records.
    """
    r, policies, settings = prepare_run(hands, seed, rules, dealer, bid, trump, discard, play)
    counts = HandCounts(r)
    start = time.perf_counter()
    interrupted = False
    try:
        for rows, tr in iter_chunks(
            r, policies, hands, seed, dealer, chunk, threads, trace=trace, progress=progress
        ):
            counts.add(rows)
            if on_chunk is not None:
                on_chunk(rows, tr)
    except KeyboardInterrupt:
        interrupted = True
    return Simulation(settings, counts, time.perf_counter() - start, interrupted)

"""The runs and what one chunk of each computes: pure functions of (run, key).

A run is a frozen dataclass of specs and numbers (rules, policy specs or
strategies, seed, counts, chunk size), so it pickles to another process; the
policies are loaded there once per run object (``_loaded``). Chunk ``i`` of a
run of ``n`` units (hands, pairs, rotations) in chunks of ``chunk`` holds units
``i * chunk`` to ``min((i + 1) * chunk, n) - 1``; what it deals depends only on
(seed, unit index), so the numbers never depend on the chunk size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cinch_sim.analysis.counts import HandCounts
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules
from cinch_sim.runs.chunks import HANDS_CHUNK, PAIRS_CHUNK, games_per_unit, match_chunk

if TYPE_CHECKING:  # the matches' modules load when a match runs, not for hands
    from cinch_sim.matches.pairs import PairStats
    from cinch_sim.matches.rotation import RotationStats
    from cinch_sim.policies.strategies import Strategy

Key = tuple[int, ...]
TRACE_ROWS = 8192  # hands' trace rows played at once (they are large): as matches.compare


def chunk_count(units: int, chunk: int) -> int:
    return -(-units // chunk)


def span(units: int, chunk: int, index: int) -> tuple[int, int]:
    """The units chunk ``index`` holds, as [lo, hi)."""
    lo = index * chunk
    return lo, min(lo + chunk, units)


_LOADED: dict[int, tuple[Any, Any]] = {}


def _loaded(run: Any, build: Callable[[], Any]) -> Any:
    """What ``build`` makes of ``run`` (its loaded policies), once per run object."""
    hit = _LOADED.get(id(run))
    if hit is None or hit[0] is not run:
        if len(_LOADED) > 32:
            _LOADED.clear()
        hit = _LOADED[id(run)] = (run, build())
    return hit[1]


def prime(run: Any, loaded: Any) -> None:
    """Hand the work functions what the caller already loaded for ``run``."""
    _LOADED[id(run)] = (run, loaded)


# ---------------------------------------------------------------- hands
@dataclass(frozen=True)
class HandsRun:
    """Independent hands: ``simulate`` and ``stats``."""

    rules: Rules
    policies: dict[str, list[str]]  # per kind, one spec per seat (PolicySet.describe)
    seed: int
    hands: int
    dealer: int
    chunk: int = HANDS_CHUNK
    trace: bool = False

    units = "hands"

    @property
    def total(self) -> int:
        return self.hands

    def keys(self) -> list[Key]:
        return [(i,) for i in range(chunk_count(self.hands, self.chunk))]

    def span(self, key: Key) -> tuple[int, tuple[int, int]]:
        """(matchup, [lo, hi)) of a key: always matchup 0 here."""
        return 0, span(self.hands, self.chunk, key[0])

    def policy_set(self) -> PolicySet:
        return _loaded(self, lambda: PolicySet.from_specs(self.rules.players, **self.policies))


def count_hands(
    run: HandsRun, key: Key, on_rows: Callable[[Any, Any], None] | None = None
) -> HandCounts:
    """Play one chunk of hands and count them; ``on_rows(rows, trace)`` (local runs
    only: records, per-hand data) sees the rows first."""
    _, (lo, hi) = run.span(key)
    rows, tr = run_chunk(run.rules, run.policy_set(), run.seed, lo, hi - lo, run.dealer,
                         trace=run.trace)  # fmt: skip
    counts = HandCounts(run.rules)
    counts.add(rows)
    if on_rows is not None:
        on_rows(rows, tr)
    return counts


# ---------------------------------------------------------------- matches
@dataclass(frozen=True)
class MatchRun:
    """A duplicate match of A against B (``compare``): pairs, or rotations of one game
    a seat when the rules have more than two sides."""

    rules: Rules
    a: Strategy
    b: Strategy
    seed: int
    games: int
    max_hands: int = 256
    pairing: str = "swap"
    chunk: int = PAIRS_CHUNK  # pairs or rotations a chunk
    trace: bool = False

    units = "pairs"

    @property
    def cutthroat(self) -> bool:
        return self.rules.teams > 2

    @property
    def per_unit(self) -> int:
        """Games a unit: a pair's two, or a rotation's one a seat."""
        return games_per_unit(self.rules)

    @property
    def total(self) -> int:
        return chunk_count(self.games, self.per_unit)

    def keys(self) -> list[Key]:
        return [(i,) for i in range(chunk_count(self.total, self.chunk))]

    def span(self, key: Key) -> tuple[int, tuple[int, int]]:
        return 0, span(self.total, self.chunk, key[-1])

    def policy_sets(self) -> tuple[PolicySet, ...]:
        from cinch_sim.matches.play import team_policies
        from cinch_sim.matches.rotation import seat_policies

        r, a, b = self.rules, self.a, self.b
        if self.cutthroat:
            return _loaded(self, lambda: tuple(seat_policies(r, a, b, k) for k in range(r.players)))
        return _loaded(self, lambda: (team_policies(r, a, b), team_policies(r, b, a)))

    def empty(self) -> PairStats | RotationStats:
        from cinch_sim.matches.pairs import PairStats
        from cinch_sim.matches.rotation import RotationStats

        return RotationStats(self.rules.players) if self.cutthroat else PairStats()


def play_match(
    run: MatchRun, key: Key, on_chunk: Callable[[Any], None] | None = None
) -> PairStats | RotationStats:
    """Play one chunk of a match and add it up; ``on_chunk`` (local runs only: records)
    sees the played chunk first."""
    from cinch_sim.matches.play import play_pairs
    from cinch_sim.matches.rotation import play_rotations

    _, (lo, hi) = run.span(key)
    r, pols = run.rules, run.policy_sets()
    # with the trace (records) the chunk is played in parts of TRACE_ROWS hands' rows,
    # its rows being large; the parts are joined (less the trace) before they are added
    # up, so a chunk's numbers are the same with or without it
    step = max(1, TRACE_ROWS // run.max_hands) if run.trace else hi - lo
    parts = []
    for start in range(lo, hi, step):
        n = min(start + step, hi) - start
        if run.cutthroat:
            ch = play_rotations(r, run.a, run.b, run.seed, start, n, run.max_hands, run.trace,
                                pols)  # fmt: skip
        else:
            ch = play_pairs(r, run.a, run.b, run.seed, start, n, run.max_hands, run.pairing,
                            run.trace, pols)  # fmt: skip
        if on_chunk is not None:
            on_chunk(ch)
        parts.append(ch)
    stats = run.empty()
    stats.add(parts[0] if len(parts) == 1 else _joined(parts))
    return stats


def _joined(parts: list[Any]) -> Any:
    """Consecutive played chunks as one (their games and hands; no trace)."""
    from dataclasses import replace

    import numpy as np

    first = parts[0]
    k = len(first.games)
    games = tuple(np.concatenate([p.games[j] for p in parts]) for j in range(k))
    hands = tuple(np.concatenate([p.hands[j] for p in parts]) for j in range(k))
    empty = tuple(np.zeros((0,) + p.shape[1:], p.dtype) for p in first.trace)
    return replace(first, games=games, hands=hands, trace=empty)


@dataclass(frozen=True)
class LadderRun:
    """Every pair of strategies (every ordered pair, cut-throat) in a match. ``chunk``
    None: each matchup its own default, small only where one of its two strategies
    plays slowly (``runs.chunks``), so a ladder with a PIMC player does not play its
    fast matchups in small chunks too."""

    rules: Rules
    strategies: tuple[Strategy, ...]
    seed: int
    games: int
    max_hands: int = 256
    pairing: str = "swap"
    chunk: int | None = None
    matchups: tuple[tuple[int, int], ...] = field(default=())
    trace: bool = False  # the kernel's hand trace, for records

    units = "pairs"

    def match(self, m: int) -> MatchRun:
        """Matchup ``m``'s match (one object per matchup, so its policies load once)."""
        s = self.strategies
        return _loaded(self, lambda: tuple(
            MatchRun(self.rules, s[i], s[j], self.seed, self.games, self.max_hands,
                     self.pairing, self._chunk(s[i], s[j]), self.trace)
            for i, j in self.matchups
        ))[m]  # fmt: skip

    def _chunk(self, a: Strategy, b: Strategy) -> int:
        return match_chunk(self.chunk, self.rules, (a, b))

    @property
    def total(self) -> int:
        return self.match(0).total * len(self.matchups)

    @property
    def per_unit(self) -> int:
        return self.match(0).per_unit

    def keys(self) -> list[Key]:
        return [(m, i) for m in range(len(self.matchups)) for (i,) in self.match(m).keys()]

    def span(self, key: Key) -> tuple[int, tuple[int, int]]:
        return key[0], self.match(key[0]).span(key[1:])[1]


def play_ladder(
    run: LadderRun, key: Key, on_chunk: Callable[[Any], None] | None = None
) -> dict[int, PairStats | RotationStats]:
    """One chunk of one matchup of a ladder, as {matchup: its stats}; ``on_chunk`` as in
    ``play_match``."""
    return {key[0]: play_match(run.match(key[0]), key[1:], on_chunk)}


# ---------------------------------------------------------------- on other machines
def policy_digests(run: Any, key: Key) -> dict[str, dict[str, str]]:
    """Per kind, the digest of each user policy chunk ``key`` of ``run`` plays
    (``PolicySet.digests``: its file's text and its parameters), as loaded here."""
    if isinstance(run, LadderRun):
        run = run.match(key[0])
    sets = (run.policy_set(),) if isinstance(run, HandsRun) else run.policy_sets()
    out: dict[str, dict[str, str]] = {}
    for ps in sets:
        for kind, found in ps.digests().items():
            out.setdefault(kind, {}).update(found)
    return out


def _group(run: Any, key: Key) -> int:
    """Which of ``run``'s policy groups chunk ``key`` plays: a ladder's matchup, else 0."""
    return key[0] if isinstance(run, LadderRun) else 0


@dataclass(frozen=True)
class CheckedWork:
    """A chunk function sent to other machines: before a worker's first chunk of each
    policy group, the user policies it loaded (from its own files) must be those the
    run was started with, digest for digest, or the chunk raises a PolicyError naming
    the file; a worker with another copy of a policy file would otherwise play other
    numbers under this run's name."""

    work: Callable[[Key], Any]
    run: Any
    expected: dict[int, dict[str, dict[str, str]]]  # group: policy_digests as started
    checked: set[int] = field(default_factory=set, compare=False, repr=False)  # groups here

    @classmethod
    def of(cls, work: Callable[[Key], Any], run: Any) -> Callable[[Key], Any]:
        """``work`` checked so, or ``work`` itself where every policy is a built-in (whose
        code the version names: nothing to load here to find out)."""
        if not any(":" in spec for spec in _specs(run)):
            return work
        groups: dict[int, Key] = {}
        for key in run.keys():
            groups.setdefault(_group(run, key), key)
        return cls(work, run, {g: policy_digests(run, k) for g, k in groups.items()})

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent without ``checked``: each process that unpickles it checks afresh."""
        return (CheckedWork, (self.work, self.run, self.expected))

    @property
    def func(self) -> Any:
        """The chunk function inside (a worker times its first chunk of each apart)."""
        return getattr(self.work, "func", self.work)

    def __call__(self, key: Key) -> Any:
        group = _group(self.run, key)
        if group not in self.checked:
            self.check(key, group)
            self.checked.add(group)
        return self.work(key)

    def check(self, key: Key, group: int) -> None:
        import socket

        from cinch_sim.policies.loading import PolicyError

        want = self.expected.get(group, {})
        got = policy_digests(self.run, key)
        for kind in sorted(set(want) | set(got)):
            for spec in sorted(set(want.get(kind, {})) | set(got.get(kind, {}))):
                a, b = want.get(kind, {}).get(spec), got.get(kind, {}).get(spec)
                if a != b:
                    raise PolicyError(
                        f"{kind} policy {spec!r}: the worker on {socket.gethostname()} "
                        f"loaded another file (digest {b}) than the run was started with "
                        f"({a}); give every worker the same policy files"
                    )


def _specs(run: Any) -> list[str]:
    """Every policy spec ``run`` plays, without loading one (a user policy's spec names
    its file or module and function: ``bot.py:play``; a built-in's has no colon)."""
    if isinstance(run, HandsRun):
        return [spec for specs in run.policies.values() for spec in specs]
    strategies = run.strategies if isinstance(run, LadderRun) else (run.a, run.b)
    return [s.spec(kind) for s in strategies for kind in ("bid", "trump", "discard", "play")]

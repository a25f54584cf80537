"""Playing duplicate pairs of games between two strategies, and their records.

**Games.** The games kernel (``engine.run_games``) plays each game to the
target under docs/rules.md §1.15 (``records.game_end`` states the same rule in
Python, for the referee and the tests).

**Duplicate matches.** Pair ``i`` is game index ``i`` played twice: its deals
depend only on (seed, game index), so both games of a pair see the same
cards. Two ways to seat the strategies (``pairing``):

- ``"swap"`` (default): the same first dealer (the game's own cut), A in seats
  0 and 2 in the first game, B there in the second. Each strategy keeps its
  own random streams wherever it sits (the kernel numbers each seat's stream,
  ``engine.run_games(streams=...)``), so a randomised strategy against itself
  plays two different games on the same cards (independent streams), while
  a deterministic strategy against itself still gives exact 1-1 draws.
- ``"rotate"``: the second game is dealt by the next seat clockwise and the
  strategies keep their seats, so B sits exactly where A sat relative to the
  deal. Costs about 2.5x the kernel time of ``swap``: the kernel takes one
  first dealer per batch, so the second games run once per dealer seat.

Under ``all_pass=redeal_same`` the two games of a pair can fall out of step
(a hand thrown in in one game and not the other moves the deal differently),
so later deals are no longer dealt to the same positions.

The statistics of a match are in ``matches.pairs`` (what each pair adds up)
and ``matches.compare`` (the summary and its intervals); rating many
strategies in ``matches.ladder``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_games
from cinch_sim.policies.strategies import Strategy
from cinch_sim.records.writer import kernel_game_record
from cinch_sim.rules import Rules

PAIRINGS = ("swap", "rotate")


def team_policies(rules: Rules, team0: Strategy, team1: Strategy) -> PolicySet:
    """Seats of team 0 (``Rules.seat_teams``: seats 0, 2) play ``team0``, the others ``team1``."""
    check_two_sides(rules)
    p0, p1 = team0.policies(), team1.policies()
    teams = rules.seat_teams
    return PolicySet(
        **{
            k: [p0[k] if t == 0 else p1[k] for t in teams]
            for k in ("bid", "trump", "discard", "play")
        }
    )


def check_two_sides(rules: Rules) -> None:
    """Raise ValueError unless the rules have exactly two sides (a match needs two)."""
    if rules.teams != 2:
        raise ValueError(
            f"a match of two sides needs two; these rules have {rules.teams} "
            "(a cut-throat match is matches.cutthroat)"
        )


@dataclass
class PairChunk:
    """Both games of a run of pairs: kernel arrays, A's team in each game, the rules, the seed."""

    start: int  # index of the first pair (= its game index)
    games: tuple[np.ndarray, np.ndarray]
    hands: tuple[np.ndarray, np.ndarray]
    trace: tuple[np.ndarray, np.ndarray]
    a_team: tuple[int, int]
    rules: Rules
    seed: int  # the match's: the deals are (seed, game index)'s

    @property
    def n(self) -> int:
        return self.games[0].shape[0]


def play_pairs(
    rules: Rules,
    a: Strategy,
    b: Strategy,
    seed: int,
    start: int,
    n: int,
    max_hands: int = 256,
    pairing: str = "swap",
    trace: bool = False,
    policies: tuple[PolicySet, PolicySet] | None = None,
) -> PairChunk:
    """Play pairs start..start+n-1: each game index twice, the strategies trading places."""
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {pairing!r}")
    ab, ba = policies or (team_policies(rules, a, b), team_policies(rules, b, a))
    # Each strategy keeps its own random streams wherever it sits (A: 1, 3, ...;
    # B: 2, 4, ...), so the replay of a deal is not a mirror of the first game
    # even when both sides play the same randomised strategy: in the second
    # game the k-th seat of a side takes the stream of the other side's k-th.
    teams = rules.seat_teams
    members = [[s for s, t in enumerate(teams) if t == side] for side in (0, 1)]
    first = [1 + s for s in range(rules.players)]
    second = [1 + members[1 - t][members[t].index(s)] for s, t in enumerate(teams)]
    g1, h1, t1 = run_games(rules, ab, seed, start, n, None, max_hands, trace, streams=first)
    if pairing == "swap":
        g2, h2, t2 = run_games(rules, ba, seed, start, n, None, max_hands, trace, streams=second)
        return PairChunk(start, (g1, g2), (h1, h2), (t1, t2), (0, 1), rules, seed)
    want = (g1[:, L.G_FIRST_DEALER] + 1) % rules.players
    g2, h2, t2 = np.empty_like(g1), np.empty_like(h1), np.empty_like(t1)
    for d in range(rules.players):
        sel = np.flatnonzero(want == d)
        if sel.size == 0:
            continue
        lo, hi = int(sel[0]), int(sel[-1]) + 1
        gg, hh, tt = run_games(rules, ab, seed, start + lo, hi - lo, d, max_hands, trace)
        g2[sel], h2[sel] = gg[sel - lo], hh[sel - lo]
        if trace:
            t2[sel] = tt[sel - lo]
    return PairChunk(start, (g1, g2), (h1, h2), (t1, t2), (0, 0), rules, seed)


def game_records(rules: Rules, chunk: PairChunk) -> list[dict[str, Any]]:
    """``cinch-game/1`` records of a chunk (pair by pair: game 1, then game 2), refereed.

    Every record is built from the kernel's hand trace and passed through the
    referee (``records.writer.kernel_game_record``); a winner or reason that
    differs from the kernel's raises ``RuntimeError`` (a kernel bug, never
    silently kept).
    """
    out = []
    for i in range(chunk.n):
        for j in range(2):
            try:
                rec = kernel_game_record(
                    rules, chunk.games[j][i], chunk.hands[j][i], chunk.trace[j][i]
                )
            except RuntimeError as e:
                raise RuntimeError(
                    f"game {chunk.start + i} (game {j + 1} of its pair): {e}"
                ) from None
            out.append(rec)
    return out

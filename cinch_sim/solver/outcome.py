"""What a hand's points are worth (docs/rules.md §1.14): made or set, each side's score
change. One owner for the kernel's settle and for the players that look ahead to
the score (the PIMC player's objective)."""

import numpy as np
from numba import njit

from cinch_sim import layout as L


@njit(inline="always")
def is_made(maker_points, bid):
    """Whether the maker's side made its contract (docs/rules.md §1.14)."""
    return maker_points >= bid


@njit(inline="always")
def score_change(rules, maker_side, made, points, bid):
    """A side's score change for a hand it ended with ``points``: the maker's side
    scores its points when the contract is made and loses the bid when set
    (``scoring=setback``) or scores nothing (``difference``); every other side
    scores its points, and under ``difference`` the bid too when the maker is set."""
    if maker_side:
        if made:
            return points
        return -bid if rules[L.R_SCORING] == 0 else 0
    return points + (bid if (not made and rules[L.R_SCORING] == 1) else 0)


@njit(cache=True)
def rescore(rules, points, maker_team, bid, made, scores):
    """Hands scored again at other contracts: row i's sides took ``points[i, team]``
    with ``maker_team[i]``'s side the maker at ``bid[i]``; writes ``made[i]`` and
    ``scores[i, team]`` as the kernel's settle would (the advisor plays a maker's hand
    once and scores it at every bid that made him the maker)."""
    for i in range(points.shape[0]):
        m = maker_team[i]
        ok = is_made(points[i, m], bid[i])
        made[i] = 1 if ok else 0
        for t in range(rules[L.R_TEAMS]):
            scores[i, t] = score_change(rules, t == m, ok, points[i, t], bid[i])


def rescored(rules_array: np.ndarray, points, maker_team, bid) -> tuple[np.ndarray, np.ndarray]:
    """``rescore`` into new arrays: (made[n], scores[n, teams])."""
    points = np.ascontiguousarray(points, dtype=np.int64)
    made = np.zeros(points.shape[0], np.int64)
    scores = np.zeros(points.shape, np.int64)
    rescore(
        rules_array,
        points,
        np.ascontiguousarray(maker_team, dtype=np.int64),
        np.ascontiguousarray(bid, dtype=np.int64),
        made,
        scores,
    )
    return made, scores

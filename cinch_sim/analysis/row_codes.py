"""What a result row says about a hand, compiled: the one statement used by the counts
and by the per-hand rows.

Counting in numpy cost about 14 ms per 65,536-hand chunk (a dozen masked
copies and bincounts), as much as a third of the kernel's own time on two
threads; one compiled pass over the rows costs well under a millisecond.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.jit.cache import refresh

# the running sums of HandCounts, in the order of its sums array
SUM_NAMES = (
    "points",
    "points_sq",
    "def_points",
    "def_points_sq",
    "score",
    "score_sq",
    "def_score",
    "def_score_sq",
)


def _here() -> None:
    """Locates this folder's numba cache."""


refresh(_here)  # the compiled functions below read layout.py's slots (cache.py says why)


@njit(inline="always")
def side_values_of(row, mteam, teams):
    """(points, defenders' points, score change, defenders' score change) of a played row."""
    pts = np.int64(row[L.H_POINTS + mteam])
    sc = np.int64(row[L.H_SCORE + mteam])
    all_pts = np.int64(0)
    all_sc = np.int64(0)
    for t in range(teams):
        all_pts += row[L.H_POINTS + t]
        all_sc += row[L.H_SCORE + t]
    return pts, all_pts - pts, sc, all_sc - sc


@njit(inline="always")
def pedro_code(row, slot, maker, seat_teams, hand_size):
    """(holder role, fate, trick) of one Pedro: role 0 maker, 1 partner, 2 defender,
    3 nobody; fate 0 saved by the holder's side, 1 lost, 2 out of play; trick
    ``hand_size`` when out of play.

    Written without branches: on random deals every ``if`` here is a coin toss
    the CPU mispredicts, and the branchy form cost 3.3 ms of a 3.8 ms count per
    65,536-hand chunk (0.5 ms now).
    """
    holder = np.int64(row[L.H_SLOT_HOLDER + slot])
    team = np.int64(row[L.H_SLOT_TEAM + slot])
    in_play = (holder >= 0) & (team >= 0)
    seat = max(holder, np.int64(0))
    hteam = np.int64(seat_teams[seat])
    # maker 0 + 0; partner 1 + 0 (the maker's side); defender 1 + 1
    role = np.int64(seat != maker) + np.int64(hteam != seat_teams[maker])
    fate = np.int64(team != hteam)
    trick = min(max(np.int64(row[L.H_SLOT_TRICK + slot]), np.int64(0)), np.int64(hand_size - 1))
    if not in_play:
        role, fate, trick = np.int64(3), np.int64(2), np.int64(hand_size)
    return role, fate, trick


@njit(inline="always")
def side_code(team, mteam):
    """Who took a card: 0 the maker's side, 1 another side, 2 nobody (team < 0)."""
    return np.int64(team != mteam) * (np.int64(1) + np.int64(team < 0))


@njit(inline="always")
def team_count(seat_teams):
    """How many sides: a loop, not ``seat_teams.max()``, whose numba implementation
    lives in ``numba.np.arraymath``; loading it from the cache imports scipy's BLAS
    (about 0.1 s of every warm start)."""
    top = np.int64(0)
    for s in range(seat_teams.shape[0]):
        top = max(top, np.int64(seat_teams[s]))
    return top + 1


@njit(cache=True, nogil=True)
def side_values_rows(rows, seat_teams):
    """Per row: the maker's team, then side_values_of's four, as an [n, 5] array."""
    teams = team_count(seat_teams)
    out = np.empty((rows.shape[0], 5), np.int64)
    for i in range(rows.shape[0]):
        mteam = seat_teams[rows[i, L.H_MAKER]]
        pts, dpts, sc, dsc = side_values_of(rows[i], mteam, teams)
        out[i, 0] = mteam
        out[i, 1] = pts
        out[i, 2] = dpts
        out[i, 3] = sc
        out[i, 4] = dsc
    return out


@njit(cache=True, nogil=True)
def pedro_code_rows(rows, slot, maker, seat_teams, hand_size):
    """pedro_code for every row, as an [n, 3] array (role, fate, trick)."""
    out = np.empty((rows.shape[0], 3), np.int64)
    for i in range(rows.shape[0]):
        role, fate, trick = pedro_code(rows[i], slot, maker[i], seat_teams, hand_size)
        out[i, 0] = role
        out[i, 1] = fate
        out[i, 2] = trick
    return out


@njit(cache=True, nogil=True)
def count_rows(rows, seat_teams, slots, shape, n, made, sums, points_hist, pedro, pedro_side):
    """Add one chunk's rows to the counts in place; return (thrown in, shortages, bad
    bid), bad bid -1 when every bid fits the table."""
    players, n_bids, n_trumps = shape[0], shape[1], shape[2]
    hand_size = pedro.shape[3] - 1
    total = points_hist.shape[2] - 1
    teams = team_count(seat_teams)
    thrown = 0
    short = 0
    for i in range(rows.shape[0]):
        row = rows[i]
        short += row[L.H_SHORTAGE]
        if row[L.H_THROWN_IN] != 0:
            thrown += 1
            continue
        maker = row[L.H_MAKER]
        bid = row[L.H_BID]
        if bid < 0 or bid >= n_bids:
            return thrown, short, bid
        mteam = seat_teams[maker]
        seat = (maker - row[L.H_DEALER] - 1) % players
        trumps = min(max(row[L.H_MAKER_TRUMPS_DEALT], 0), n_trumps - 1)
        ped = row[L.H_MAKER_PEDROS_DEALT] & 3
        hi = row[L.H_MAKER_HONOURS_DEALT] & 31
        key = (((seat * n_bids + bid) * n_trumps + trumps) * 4 + ped) * 32 + hi
        n[key] += 1
        made[key] += row[L.H_MADE] == 1
        pts, dpts, sc, dsc = side_values_of(row, mteam, teams)
        for j, x in enumerate((pts, dpts, sc, dsc)):
            sums[key, 2 * j] += x
            sums[key, 2 * j + 1] += x * x
        points_hist[bid, 0, min(max(pts, 0), total)] += 1
        points_hist[bid, 1, min(max(dpts, 0), total)] += 1
        for k in range(slots.shape[0]):
            role, fate, trick = pedro_code(row, slots[k], maker, seat_teams, hand_size)
            pedro[k, role, fate, trick] += 1
            team = row[L.H_SLOT_TEAM + slots[k]]
            pedro_side[k, side_code(team, mteam)] += 1
    return thrown, short, -1

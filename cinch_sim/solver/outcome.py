"""What a hand's points are worth (docs/rules.md §1.14): made or set, each side's score
change. One owner for the kernel's settle and for the players that look ahead to
the score (the PIMC player's objective)."""

from numba import njit

from cinch_sim import layout as L


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

"""The end of a game (docs/rules.md §1.15, §3.5) and the deal's rotation, in pure Python.

The one Python statement of the rule: the referee (``check_game``), the
writer (``simulate_game_record``) and the matches' tests use it. The games
kernel keeps its own jitted copy (``engine.kernel.play_games``); a test
replays kernel games through :func:`game_end` hand by hand to check the two
agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from cinch_sim.rules import Rules

TARGET = "target"
NEGATIVE_LIMIT = "negative_limit"
UNFINISHED = "unfinished"


def game_end(
    totals: Sequence[int],
    maker_team: int | None,
    made: bool,
    target: int,
    min_score_loss: int | None = None,
) -> tuple[int | None, str | None]:
    """docs/rules.md §1.15 after one hand: ``(winner, reason)``, or ``(None, None)`` to play on.

    ``totals`` are each side's totals after the hand; ``maker_team`` is the
    bidding side, None for a hand without one (thrown in, or a misdeal):
    nothing changed, nothing to check. The bidding side is checked first: if
    it made its bid and reached the target it wins, even when others also
    did. Otherwise the other side at or above the target with the highest
    total wins; between equal totals the first clockwise from the maker
    (§3.5; with two sides there is one other side). Only then the negative
    limit (``min_score_loss``, None for off): a side at or below
    ``-min_score_loss`` loses, and the best of the other sides wins (the
    first clockwise from the maker on a tie; None if every side is below).

    >>> game_end([53, 59], 0, True, 51)
    (0, 'target')
    >>> game_end([-30, 20], 0, False, 51, 30)
    (1, 'negative_limit')
    >>> game_end([50, 50], 1, True, 51)
    (None, None)
    """
    if maker_team is None:
        return None, None
    n = len(totals)
    order = [(maker_team + k) % n for k in range(n)]  # the maker's side, then clockwise
    if made and totals[maker_team] >= target:
        return maker_team, TARGET
    over = [t for t in order[1:] if totals[t] >= target]
    if over:
        return max(over, key=lambda t: totals[t]), TARGET
    if min_score_loss is not None:
        lost = {t for t in order if totals[t] <= -min_score_loss}
        if lost:
            rest = [t for t in order if t not in lost]
            return (max(rest, key=lambda t: totals[t]) if rest else None), NEGATIVE_LIMIT
    return None, None


def hand_ends_game(
    rules: Rules, totals: Sequence[int], maker: int | None, made: bool | None
) -> tuple[int | None, str | None]:
    """:func:`game_end` under ``rules``, the maker given by seat (None: no maker)."""
    maker_team = None if maker is None else rules.team_of(maker)
    return game_end(totals, maker_team, bool(made), rules.target, rules.min_score_loss)


def next_dealer(rules: Rules, dealer: int, thrown_in: bool = False, misdeal: bool = False) -> int:
    """Who deals the next hand: the next seat clockwise (docs/rules.md §1.1), except that
    the same dealer deals again after a misdeal (§1.17) and after a hand thrown in
    under ``all_pass=redeal_same`` (§2).

    >>> next_dealer(Rules(), 3)
    0
    """
    if misdeal or (thrown_in and rules.all_pass == "redeal_same"):
        return dealer
    return (dealer + 1) % rules.players

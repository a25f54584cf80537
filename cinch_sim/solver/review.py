"""A played hand, valued card by card against double-dummy play.

For each card played: the value of the position before it (the best the player
could keep for his side, everyone then playing best) and the value after it.
Their difference is what that card gave away, in points of the maker's side: a
maker's-side card can only lower the value, another side's only raise it. Summed
per team, with the start value they account for the points actually taken:
``taken = start - lost[maker's team] + sum(lost[other teams])``.

``Solver`` is the Python face of the search: one rules object and one workspace,
positions in, values out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim.bits import popcount
from cinch_sim.cards import format_card
from cinch_sim.jit.memory import NO_REFCOUNT
from cinch_sim.jit.two_decks import with_two_decks
from cinch_sim.rules import Rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.limits import table_bits_of
from cinch_sim.solver.moves import legal_mask, play, to_move
from cinch_sim.solver.position import PositionError, check_position
from cinch_sim.solver.search import (
    DEFAULT_TT_BITS,
    MAX_COPIES2,
    card_values,
    card_values2,
    new_workspace,
    solve,
    solve2,
)


@njit(cache=True, nogil=True, **NO_REFCOUNT)  # a hand can take minutes: Ctrl-C's watcher runs
def line_values(pos, rules, ws, cards, after, values):
    """Step ``pos`` (in place) through ``cards`` in play order; ``after[k]`` the value
    once card k is down. Returns the start value, or -1 - k when card k is not
    legal. ``values`` is scratch for 52 card values. A forced card keeps the value;
    every position of the line shares the workspace's table (one deal)."""
    start = solve(pos, rules, ws)
    cur = start
    for k in range(cards.shape[0]):
        c = cards[k]
        legal = legal_mask(pos, rules)
        if c < 0 or c > 51 or not (legal >> np.uint64(c)) & np.uint64(1):
            return -1 - k
        if popcount(legal) > 1:
            card_values(pos, rules, ws, values)
            cur = values[c]
        after[k] = cur
        play(pos, rules, c)
    return start


TWO_DECK_TT_BITS = 20

# the same line for two decks (docs/rules.md §3.4): the two-deck search
line_values2 = with_two_decks(line_values, solve=solve2, card_values=card_values2)


@dataclass
class CardReview:
    """One card of the line: who played it, in which trick, the value before and after."""

    trick: int  # 0 first
    seat: int
    card: int
    before: int  # the best the player could keep (the position's value)
    after: int

    def lost(self, maker_side: bool) -> int:
        """Points this card gave away (never negative)."""
        return self.before - self.after if maker_side else self.after - self.before


@dataclass
class HandReview:
    """A hand's line of play against double-dummy play (points of the maker's side)."""

    rules: Rules
    maker: int
    start: int  # the double-dummy value at the start of the line
    cards: list[CardReview]
    taken: int  # the value after the line's last card: for a whole hand, what was taken

    @property
    def maker_team(self) -> int:
        return self.rules.team_of(self.maker)

    @property
    def lost(self) -> list[int]:
        """Points each team's cards gave away."""
        out = [0] * self.rules.teams
        for c in self.cards:
            team = self.rules.team_of(c.seat)
            out[team] += c.lost(team == self.maker_team)
        return out

    def trick_starts(self) -> list[int]:
        """The double-dummy value at the start of each trick of the line, then the value
        after its last card (for a whole hand, the points taken)."""
        out = []
        for c in self.cards:
            if c.trick == len(out):
                out.append(c.before)
        return out + [self.taken]


class Solver:
    """The solver for one set of rules, with its own workspace (one per thread).

    >>> from cinch_sim.cards import parse_cards
    >>> s = Solver(Rules())
    >>> pos = Q.start_position(s.rules, [parse_cards(h) for h in
    ...     ("KC AH", "2C 5H", "3C 4C", "6C 7C")], trump=3, maker=0)
    >>> s.value(pos)  # lead the ace, the Right Pedro falls under it: 1 + 5 + 1 (Low)
    7
    >>> {format_card(c): v for c, v in s.card_values(pos).items()}
    {'KC': 1, 'AH': 7}
    """

    def __init__(self, rules: Rules, tt_bits: int | None = None) -> None:
        if rules.total_points > 250:  # the table keeps bounds in 8 bits
            raise ValueError(
                f"the solver takes at most 250 points a deal, not {rules.total_points}"
            )
        if rules.decks == 2 and rules.players * rules.hand_size > MAX_COPIES2:
            raise ValueError(
                f"with two decks the solver holds at most {MAX_COPIES2} cards in play, "
                f"not {rules.players * rules.hand_size}"
            )
        self.rules = rules
        self.vector = rules.to_array()
        two = rules.decks == 2
        if tt_bits is None:  # twelve-trick searches (two decks) fill a bigger table: 32 MiB
            held = rules.players * rules.hand_size  # at the start of play
            tt_bits = TWO_DECK_TT_BITS if two else max(DEFAULT_TT_BITS, table_bits_of(held))
        self.ws = new_workspace(tt_bits)
        self._solve = solve2 if two else solve
        self._card_values = card_values2 if two else card_values
        self._line_values = line_values2 if two else line_values

    def value(self, pos: np.ndarray) -> int:
        """The points the maker's side ends the hand with under best play."""
        check_position(self.rules, pos)
        return int(self._solve(pos, self.vector, self.ws))

    def card_values(self, pos: np.ndarray) -> dict[int, int]:
        """Each legal card of the player to move and the value after it."""
        check_position(self.rules, pos)
        out = np.empty(52, np.int64)
        self._card_values(pos, self.vector, self.ws, out)
        return {c: int(out[c]) for c in range(52) if out[c] >= 0}

    def review(self, pos: np.ndarray, plays: Sequence[tuple[int, int]]) -> HandReview:
        """Value the line ``plays`` ((seat, card) in order) from ``pos`` card by card;
        PositionError when a card is not its seat's to play."""
        check_position(self.rules, pos)
        p = pos.copy()
        cards = np.array([c for _, c in plays], dtype=np.int64)
        after = np.zeros(len(cards), np.int64)
        start = int(
            self._line_values(p, self.vector, self.ws, cards, after, np.empty(52, np.int64))
        )
        if start < 0:
            k = -1 - start
            what = format_card(int(cards[k])) if 0 <= cards[k] < 52 else str(cards[k])
            raise PositionError(f"card {k + 1} of the line, {what}, is not legal")
        out = []
        trick = 0
        before = start
        step = pos.copy()
        for k, (seat, c) in enumerate(plays):
            if to_move(step, self.vector) != seat:
                raise PositionError(f"card {k + 1} of the line is seat {seat}'s, not its turn")
            out.append(CardReview(trick, seat, c, before, int(after[k])))
            play(step, self.vector, c)
            if (step[Q.P_TRICK : Q.P_TRICK + L.MAX_PLAYERS] < 0).all():
                trick += 1
            before = int(after[k])
        taken = int(self._solve(step, self.vector, self.ws))
        return HandReview(self.rules, int(pos[Q.P_MAKER]), start, out, taken)

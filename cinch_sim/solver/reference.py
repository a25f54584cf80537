"""Plain minimax, no pruning and no table: the solver's reference.

Pure Python, written from docs/rules.md and the ``Rules`` fields (trump order,
point cards), sharing nothing with the search but the position vector: it
plays every legal card at every turn to the end of the hand and scores the
finished hand as the referee does (each point to the side capturing its card,
Low to its player's side under ``low_to=player``). Exponential: for positions
with a few tricks left (tests), never for a full hand.

Two decks (docs/rules.md §3.4): each copy is its own token (the card, or card + 52
for a second copy), so a hand may hold a card twice; of two identical cards in
a trick the first played wins (a card must be strictly stronger), every copy
of a point card scores, Low is each copy of the lowest trump in play.
"""

from __future__ import annotations

import numpy as np

from cinch_sim.cards import RANKS, card, from_mask, left_card, suit_of
from cinch_sim.rules import Rules
from cinch_sim.solver import position as Q


class _Hand:
    """What scoring a finished hand needs: trumps, their order, the point cards."""

    def __init__(self, rules: Rules, pos: np.ndarray) -> None:
        self.rules = rules
        self.P = rules.players
        self.trump = int(pos[Q.P_TRUMP])
        self.left = left_card(self.trump, RANKS.index(rules.left_rank)) if rules.left_rank else -1
        order = rules.trump_order  # highest first
        self.strength = {}
        for i, r in enumerate(order):
            c = self.left if r == "L" else card(self.trump, RANKS.index(r))
            self.strength[c] = len(order) - i
        self.maker_team = rules.team_of(int(pos[Q.P_MAKER]))
        in_play = Q.cards_in_play(pos, self.P)
        for s in range(self.P):  # the second planes are within the first: faces once
            in_play |= int(pos[Q.P_HANDS2 + s]) | int(pos[Q.P_PLAYED2 + s])
        trumps_in = [c for c in from_mask(in_play) if c in self.strength]
        self.slots: list[tuple[str, int, int]] = []  # (name, card, points)
        if rules.high_rule == "ace_only":
            high = card(self.trump, RANKS.index("A"))
            high = high if in_play >> high & 1 else None
        else:
            high = max(trumps_in, key=self.strength.__getitem__, default=None)
        if rules.low_rule == "deuce_only":
            low = card(self.trump, RANKS.index("2"))
            low = low if in_play >> low & 1 else None
        else:
            low = min(trumps_in, key=self.strength.__getitem__, default=None)
        for name, c, pts in (("high", high, rules.high_points), ("low", low, rules.low_points)):
            if c is not None:
                self.slots.append((name, c, pts))
        for name, rank, pts in rules.point_cards:
            c = card(self.trump, RANKS.index(rank))
            if in_play >> c & 1:
                self.slots.append((name, c, pts))
        if self.left >= 0 and in_play >> self.left & 1:
            self.slots.append((rules.left_name, self.left, rules.left_card_points))

    def suit(self, c: int) -> int:
        c %= 52
        return self.trump if c in self.strength else suit_of(c)

    def legal(self, hand: list[int], led: int | None) -> list[int]:
        if led is None:
            return hand
        same = [c for c in hand if self.suit(c) == led]
        if not same:
            return hand
        if led == self.trump or self.rules.follow_rule == "strict":
            return same
        return same + [c for c in hand if c % 52 in self.strength and c not in same]

    def winner(self, plays: list[tuple[int, int]]) -> int:
        """The seat whose card takes the trick: the highest trump, else the highest
        card of the suit led."""
        led = self.suit(plays[0][1])

        def key(sc: tuple[int, int]) -> int:
            c = sc[1] % 52
            if c in self.strength:
                return 100 + self.strength[c]
            return c % 13 if suit_of(c) == led else -1

        return max(plays, key=key)[0]  # the first of equal cards: the one played first

    def score(self, captured_by: dict[int, int], played_by: dict[int, int]) -> int:
        """The maker's side's points of a finished hand."""
        pts = 0
        for name, c, value in self.slots:
            for x in (c, c + 52):  # each copy (tokens) in play
                if x not in played_by:
                    continue
                if name == "low" and self.rules.low_to == "player":
                    team = self.rules.team_of(played_by[x])
                else:
                    team = captured_by[x]
                if team == self.maker_team:
                    pts += value
        return pts


def _tokens(pos: np.ndarray, P: int, teams: int):
    """Each copy of the position as a token (card, card + 52 for a face's second copy):
    the hands, who played each copy, which side took it, the trick in progress."""
    used: set[int] = set()

    def token(c: int) -> int:
        x = c if c not in used else c + 52
        used.add(x)
        return x

    def copies(at: int, at2: int, i: int) -> list[int]:
        return Q.cards_of(int(pos[at + i]), int(pos[at2 + i]))

    leader = int(pos[Q.P_LEADER])
    played_by: dict[int, int] = {}
    trick: list[tuple[int, int]] = []
    for k in range(P):
        s = (leader + k) % P
        if pos[Q.P_TRICK + s] >= 0:
            x = token(int(pos[Q.P_TRICK + s]))
            trick.append((s, x))
            played_by[x] = s
    hands = [[token(c) for c in copies(Q.P_HANDS, Q.P_HANDS2, s)] for s in range(P)]
    done = set(used)
    for s in range(P):
        for c in copies(Q.P_PLAYED, Q.P_PLAYED2, s):
            played_by[token(c)] = s
    captured_by: dict[int, int] = {}
    used.clear()
    used.update(done)
    for t in range(teams):
        for c in copies(Q.P_TAKEN, Q.P_TAKEN2, t):
            captured_by[token(c)] = t  # paired with the played copies by token, not seat
    return hands, leader, trick, captured_by, played_by


def reference_value(rules: Rules, pos: np.ndarray) -> int:
    """The points the maker's side ends the hand with under best play, by full minimax."""
    h = _Hand(rules, pos)
    hands, leader, trick, captured_by, played_by = _tokens(pos, h.P, rules.teams)
    return _minimax(h, hands, leader, trick, captured_by, played_by)


def legal_cards(rules: Rules, pos: np.ndarray) -> list[int]:
    """The cards the seat to move may play, by the rules text (docs/rules.md §1.11)."""
    h = _Hand(rules, pos)
    seat, led = _turn(h, pos)
    if seat < 0:
        return []
    return sorted(set(h.legal(Q.hand_cards(pos, seat), led)))


def reference_card_values(rules: Rules, pos: np.ndarray) -> dict[int, int]:
    """Each legal card of the player to move, and the value after it (by minimax)."""
    out = {}
    for c in legal_cards(rules, pos):
        nxt = pos.copy()
        reference_play(rules, nxt, c)
        out[c] = reference_value(rules, nxt)
    return out


def _turn(h: _Hand, pos: np.ndarray) -> tuple[int, int | None]:
    """The seat to play and the suit led (None on a lead)."""
    P = h.P
    leader = int(pos[Q.P_LEADER])
    if pos[Q.P_TRICK + leader] < 0:
        for k in range(P):
            if pos[Q.P_HANDS + (leader + k) % P]:
                return (leader + k) % P, None
        return -1, None  # the hand is over
    for k in range(1, P):
        s = (leader + k) % P
        if pos[Q.P_TRICK + s] < 0 and pos[Q.P_HANDS + s]:
            return s, h.suit(int(pos[Q.P_TRICK + leader]))
    raise ValueError("the trick is complete")


def reference_play(rules: Rules, pos: np.ndarray, c: int) -> None:
    """Play card c for the seat to move (in place), closing the trick when it is full:
    its cards to the winner's side, the winner to lead."""
    h = _Hand(rules, pos)
    P = h.P
    seat, led = _turn(h, pos)
    hand = Q.hand_cards(pos, seat)
    if c not in h.legal(hand, led):
        raise ValueError(f"seat {seat} may not play card {c}")
    if led is None:
        pos[Q.P_LEADER] = seat
    if pos[Q.P_HANDS2 + seat] >> c & 1:  # two decks: one copy leaves
        pos[Q.P_HANDS2 + seat] &= ~(1 << c)
    else:
        pos[Q.P_HANDS + seat] &= ~(1 << c)
    pos[Q.P_TRICK + seat] = c
    leader = int(pos[Q.P_LEADER])
    order = [(leader + k) % P for k in range(P)]
    if any(pos[Q.P_TRICK + s] < 0 and pos[Q.P_HANDS + s] for s in order[order.index(seat) :]):
        return
    plays = [(s, int(pos[Q.P_TRICK + s])) for s in order if pos[Q.P_TRICK + s] >= 0]
    w = h.winner(plays)
    team = rules.team_of(w)
    for s, x in plays:
        for at, at2 in ((Q.P_PLAYED + s, Q.P_PLAYED2 + s), (Q.P_TAKEN + team, Q.P_TAKEN2 + team)):
            pos[at2] |= pos[at] & (1 << x)  # a face already there: its second copy
            pos[at] |= 1 << x
        pos[Q.P_TRICK + s] = -1
    pos[Q.P_LEADER] = w


def _minimax(h, hands, leader, trick, captured_by, played_by) -> int:
    P = h.P
    if not trick and not any(hands):
        return h.score(captured_by, played_by)
    if not trick:
        while not hands[leader]:
            leader = (leader + 1) % P
    # the seats still to play in this trick: those after the last one that played
    # (a seat that played its last card is done), all with cards on a lead
    seats = [(leader + k) % P for k in range(P)]
    after = seats.index(trick[-1][0]) + 1 if trick else 0
    to_play = [s for s in seats[after:] if hands[s]]
    seat = to_play[0]
    led = h.suit(trick[0][1]) if trick else None
    maxing = h.rules.team_of(seat) == h.maker_team
    best = None
    for c in sorted(h.legal(hands[seat], led)):
        hands[seat].remove(c)
        played_by[c] = seat
        nt = trick + [(seat, c)]
        if len(to_play) == 1:
            w = h.winner(nt)
            team = h.rules.team_of(w)
            for _, x in nt:
                captured_by[x] = team
            v = _minimax(h, hands, w, [], captured_by, played_by)
            for _, x in nt:
                del captured_by[x]
        else:
            v = _minimax(h, hands, leader, nt, captured_by, played_by)
        del played_by[c]
        hands[seat].append(c)
        hands[seat].sort()
        if best is None or (v > best if maxing else v < best):
            best = v
    assert best is not None
    return best

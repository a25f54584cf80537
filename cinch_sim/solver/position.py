"""A position inside the play of a hand, as one int64 vector the solver reads.

Everything the rest of the hand depends on, and nothing else: who holds which
cards now, the trick in progress, what each side has taken and each seat has
played (the points already decided, and which trump is High and Low: those are
fixed by the cards in play at the start of play), the trump suit and the maker.
A vector and not an object, so a jitted policy can fill one from the kernel's
data (``layout.O_*``) without Python; the builders below are for Python callers,
tests and records. Cards are the package's numbers (``cards.py``); masks are
52-bit card masks stored in int64, as the kernel's observation holds them.

Two decks (docs/rules.md §3.4) hold each mask as two planes, as the kernel does: the
faces held (played, taken) at least once in ``P_HANDS`` (``P_PLAYED``,
``P_TAKEN``), the faces held twice in ``P_HANDS2`` (``P_PLAYED2``, ``P_TAKEN2``),
appended at the end; with one deck the second planes stay 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import RANKS, format_card, from_mask, left_card
from cinch_sim.rules import Rules

P_TRUMP = 0  # trump suit 0..3
P_MAKER = 1  # the maker's seat: his side maximises
P_LEADER = 2  # seat that led the trick in progress, or leads the next one
P_HANDS = 3  # per seat: mask of the cards it holds now
P_TRICK = P_HANDS + L.MAX_PLAYERS  # per seat: its card in the trick in progress, or -1
P_PLAYED = P_TRICK + L.MAX_PLAYERS  # per seat: mask of its cards in completed tricks
P_TAKEN = P_PLAYED + L.MAX_PLAYERS  # per team: mask of the cards of the tricks it won
P_HANDS2 = P_TAKEN + L.MAX_TEAMS  # two decks: per seat, the faces it holds twice
P_PLAYED2 = P_HANDS2 + L.MAX_PLAYERS  # two decks: per seat, the faces it played twice
P_TAKEN2 = P_PLAYED2 + L.MAX_PLAYERS  # two decks: per team, the faces it took twice
P_LEN = P_TAKEN2 + L.MAX_TEAMS


class PositionError(ValueError):
    """A position that no hand of these rules can reach."""


def new_position() -> np.ndarray:
    """An empty position vector: no cards, no trick in progress."""
    pos = np.zeros(P_LEN, dtype=np.int64)
    pos[P_TRICK : P_TRICK + L.MAX_PLAYERS] = -1
    return pos


def start_position(
    rules: Rules, hands: Sequence[Iterable[int]], trump: int, maker: int
) -> np.ndarray:
    """The position at the start of play: each seat's cards after the discard and draw
    (card numbers; with two decks a card may appear twice), the trump suit, the
    maker (who leads the first trick). Under ``follow_rule=trumps_only`` the plain
    cards are dead: only the trumps are in play."""
    if len(hands) != rules.players:
        raise PositionError(f"{rules.players} hands needed, got {len(hands)}")
    pos = new_position()
    pos[P_TRUMP] = trump
    pos[P_MAKER] = maker
    pos[P_LEADER] = maker
    live = rules.trump_cards(trump) if rules.follow_rule == "trumps_only" else (1 << 52) - 1
    for s, h in enumerate(hands):
        once, twice = planes([c for c in h if live >> c & 1])
        if twice and rules.decks == 1:
            c = (twice & -twice).bit_length() - 1
            raise PositionError(f"{format_card(c)} appears twice (seat {s}'s hand)")
        pos[P_HANDS + s] = once
        pos[P_HANDS2 + s] = twice
    check_position(rules, pos)
    return pos


def trace_plays(rules: Rules, trace_row: np.ndarray) -> list[tuple[int, int]]:
    """(seat, card) of every card of a kernel trace row (``layout.T_*``), in play order.

    The kernel writes a trick's card at position k for the seat k places after the
    leader (a seat with no cards left keeps -1 there), so the seat is read off
    the position.
    """
    P = rules.players
    out = []
    for t in range(int(trace_row[L.T_N_TRICKS])):
        leader = int(trace_row[L.T_LEADER + t])
        base = L.T_PLAYS + t * L.MAX_PLAYERS
        for k in range(P):
            c = int(trace_row[base + k])
            if c >= 0:
                out.append(((leader + k) % P, c))
    return out


def from_trace(
    rules: Rules, out_row: np.ndarray, trace_row: np.ndarray
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The start-of-play position of a hand the kernel played with ``trace=True``, and
    its plays as (seat, card) in order. Every card held after the draw is played,
    so each seat's hand is the cards it plays."""
    if out_row[L.H_THROWN_IN] or out_row[L.H_MAKER] < 0:
        raise PositionError("the hand was thrown in: there is no play")
    plays = trace_plays(rules, trace_row)
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    for s, c in plays:
        hands[s].append(c)
    pos = start_position(rules, hands, int(out_row[L.H_TRUMP]), int(out_row[L.H_MAKER]))
    return pos, plays


def planes(cards: Iterable[int]) -> tuple[int, int]:
    """The two face masks of a list of cards: each card at least once, and twice."""
    once = twice = 0
    for c in cards:
        b = 1 << int(c)
        if not 0 <= int(c) < 52:
            raise PositionError(f"card {c} is not a card 0..51")
        if twice & b:
            raise PositionError(f"{format_card(int(c))} appears three times")
        twice |= once & b
        once |= b
    return once, twice


def cards_of(once: int, twice: int) -> list[int]:
    """The cards of two face masks, in order, a card held twice listed twice."""
    return sorted(from_mask(once) + from_mask(twice))


def hand_cards(pos: np.ndarray, s: int) -> list[int]:
    """Seat s's cards now (twice where it holds two copies)."""
    return cards_of(int(pos[P_HANDS + s]), int(pos[P_HANDS2 + s]))


def cards_in_play(pos: np.ndarray, players: int) -> int:
    """Mask of every card held after the draw: held now, in the trick, or played."""
    m = 0
    for s in range(players):
        m |= int(pos[P_HANDS + s]) | int(pos[P_PLAYED + s])
        if pos[P_TRICK + s] >= 0:
            m |= 1 << int(pos[P_TRICK + s])
    return m


def check_position(rules: Rules, pos: np.ndarray) -> None:
    """Raise PositionError unless ``pos`` is a position of a hand under ``rules``: no
    card twice, the trick in progress a prefix of the seats from its leader, the
    completed tricks' cards taken by exactly one side, a seat still to play."""
    P, T = rules.players, rules.teams
    if pos.shape != (P_LEN,):
        raise PositionError(f"a position is a vector of {P_LEN} numbers, got shape {pos.shape}")
    trump, maker, leader = (int(pos[i]) for i in (P_TRUMP, P_MAKER, P_LEADER))
    if not 0 <= trump < 4:
        raise PositionError(f"trump {trump} is not a suit 0..3")
    for name, seat in (("maker", maker), ("leader", leader)):
        if not 0 <= seat < P:
            raise PositionError(f"{name} {seat} is not a seat 0..{P - 1}")
    full = (1 << 52) - 1
    copies = rules.decks
    count = [0] * 52

    def add(mask: int, what: str) -> None:
        if mask & ~full:
            raise PositionError(f"{what} holds bits beyond the 52 cards")
        for c in from_mask(mask):
            count[c] += 1
            if count[c] > copies:
                raise PositionError(
                    f"{format_card(c)} appears {'twice' if copies == 1 else 'three times'} ({what})"
                )

    def add2(once: int, twice: int, what: str) -> None:
        if twice & ~once:
            raise PositionError(f"{what}: its second plane is not within its first")
        if twice and copies == 1:
            raise PositionError(f"{what} holds a card twice with one deck")
        add(once, what)
        add(twice, what)

    for s in range(P):
        add2(int(pos[P_HANDS + s]), int(pos[P_HANDS2 + s]), f"seat {s}'s hand")
        add2(int(pos[P_PLAYED + s]), int(pos[P_PLAYED2 + s]), f"seat {s}'s played cards")
    for s in range(P, L.MAX_PLAYERS):
        if (
            pos[P_HANDS + s]
            or pos[P_PLAYED + s]
            or pos[P_HANDS2 + s]
            or pos[P_PLAYED2 + s]
            or pos[P_TRICK + s] != -1
        ):
            raise PositionError(f"seat {s} is beyond the {P} players")
    played = [0] * 52
    for s in range(P):
        for c in cards_of(int(pos[P_PLAYED + s]), int(pos[P_PLAYED2 + s])):
            played[c] += 1
    taken = [0] * 52
    for t in range(L.MAX_TEAMS):
        once, twice = int(pos[P_TAKEN + t]), int(pos[P_TAKEN2 + t])
        if (once or twice) and t >= T:
            raise PositionError(f"team {t} is beyond the {T} teams")
        if twice & ~once:
            raise PositionError(f"team {t}'s taken cards: the second plane is not within the first")
        for c in cards_of(once, twice):
            taken[c] += 1
    if any(x > copies for x in taken):
        raise PositionError("a card is taken by two sides")
    if taken != played:
        raise PositionError("the cards taken by the sides are not the cards played")
    # the trick in progress: the seats in turn from its leader that play in it (those
    # that played a card or still hold cards), a run of cards then seats to come
    turn = []
    for k in range(P):
        s = (leader + k) % P
        c = int(pos[P_TRICK + s])
        if c >= 0:
            if c > 51:
                raise PositionError(f"seat {s}'s trick card {c} is not a card")
            add(1 << c, "the trick")
            turn.append(c)
        elif pos[P_HANDS + s]:
            turn.append(None)
    cards = [c for c in turn if c is not None]
    if cards:
        if pos[P_TRICK + leader] < 0:
            raise PositionError(f"the trick has cards but its leader, seat {leader}, played none")
        gap = turn.index(None) if None in turn else len(turn)
        if any(c is not None for c in turn[gap:]):
            raise PositionError("the trick's cards are not the seats in turn from its leader")
        if gap == len(turn):
            raise PositionError("the trick in progress is complete: nobody is left to play")


def _left_rank(rules: Rules) -> int:
    return RANKS.index(rules.left_rank) if rules.left_rank else -1


def describe(rules: Rules, pos: np.ndarray) -> str:
    """One line for people: each seat's hand and the trick in progress."""
    parts = []
    for s in range(rules.players):
        h = " ".join(format_card(c) for c in hand_cards(pos, s))
        parts.append(f"{s}: {h or '-'}")
    trick = [
        f"{s}:{format_card(int(pos[P_TRICK + s]))}"
        for s in range(rules.players)
        if pos[P_TRICK + s] >= 0
    ]
    lc = left_card(int(pos[P_TRUMP]), _left_rank(rules)) if rules.left_rank else None
    text = " | ".join(parts) + f" | trump {'CSDH'[int(pos[P_TRUMP])]}"
    if lc is not None:
        text += f" (left {format_card(lc)})"
    if trick:
        text += " | trick " + " ".join(trick)
    return text

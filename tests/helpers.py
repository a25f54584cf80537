"""Shared helpers for the engine tests: hand-built deals and a Python referee.

``run_deal`` plays one hand from a deck built by hand with the scripted
policies of ``scripted_policies.py``; ``Referee`` re-derives a traced hand's
whole course from its trace with nothing but docs/rules.md §1 and the §2 options,
independently of the kernel.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import RANKS, format_card, parse_card, parse_cards
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk
from cinch_sim.policies.loading import load_policy
from cinch_sim.rules import Rules
from cinch_sim.signatures import N_PARAMS

HERE = Path(__file__).resolve().parent
SCRIPTED = HERE / "scripted_policies.py"
KINDS = ("bid", "trump", "discard", "play")
SUIT = {"C": 0, "S": 1, "D": 2, "H": 3}


def cards(text: str | list) -> list[int]:
    if isinstance(text, str):
        return parse_cards(text)
    return [parse_card(c) if isinstance(c, str) else int(c) for c in text]


def mask(text) -> int:
    m = 0
    for c in cards(text):
        m |= 1 << c
    return m


def from_mask(m: int) -> set[str]:
    m = int(m)
    return {format_card(c) for c in range(52) if m >> c & 1}


def build_deck(
    hands: dict[int, str], stock_top: str = "", dealer: int = 3, players: int = 4, dealt: int = 9
) -> list[int]:
    """The 52-card deal order giving each of ``players`` seats its ``dealt`` cards
    (docs/rules.md §1.3: in threes, from the dealer's left); the stock is ``stock_top``
    (top first), then the cards nobody was given, in ascending card number."""
    n = players * dealt
    deck: list[int | None] = [None] * 52
    for j in range(players):
        seat = (dealer + 1 + j) % players
        h = cards(hands[seat])
        assert len(h) == dealt, (seat, h)
        for r in range(dealt // 3):
            for k in range(3):
                deck[r * 3 * players + j * 3 + k] = h[r * 3 + k]
    top = cards(stock_top)
    used = {c for c in deck if c is not None} | set(top)
    assert len(used) == n + len(top), "a card is given twice"
    deck[n:] = top + [c for c in range(52) if c not in used]
    assert sorted(deck) == list(range(52))
    return deck  # type: ignore[return-value]


class ScriptedPolicies(PolicySet):
    """A policy set whose parameter array persists, so the policies' records survive."""

    board: np.ndarray

    def params(self, rules: object = None) -> np.ndarray:
        return self.board


def scripted_policies(players: int = 4) -> ScriptedPolicies:
    loaded = {k: load_policy(k, f"{SCRIPTED}:script_{k}") for k in KINDS}
    ps = ScriptedPolicies(**{k: [loaded[k]] * players for k in KINDS})
    ps.board = np.full((4, L.MAX_PLAYERS, N_PARAMS), -1.0)
    return ps


@dataclass
class Hand:
    """One hand played by ``run_deal``: result row, trace row, policy records."""

    out: np.ndarray
    trace: np.ndarray
    board: np.ndarray
    dealer: int

    def h(self, slot: int) -> int:
        return int(self.out[slot])

    @property
    def points(self) -> tuple[int, int]:
        return int(self.out[L.H_POINTS]), int(self.out[L.H_POINTS + 1])

    @property
    def score(self) -> tuple[int, int]:
        return int(self.out[L.H_SCORE]), int(self.out[L.H_SCORE + 1])

    def slot_team(self, slot: int) -> int:
        return int(self.out[L.H_SLOT_TEAM + slot])

    def slot(self, name: str) -> tuple[int, int, int, int]:
        """(team, trick, holder, player) of a point slot."""
        k = SLOTS[name]
        return tuple(
            int(self.out[base + k])
            for base in (L.H_SLOT_TEAM, L.H_SLOT_TRICK, L.H_SLOT_HOLDER, L.H_SLOT_PLAYER)
        )  # type: ignore[return-value]

    @property
    def n_tricks(self) -> int:
        return int(self.trace[L.T_N_TRICKS])

    def tricks(self) -> list[dict[int, str]]:
        """Per trick: seat -> card played (seats with no cards left are absent)."""
        res = []
        for t in range(self.n_tricks):
            leader = int(self.trace[L.T_LEADER + t])
            d = {}
            for k in range(4):
                c = int(self.trace[L.T_PLAYS + t * L.MAX_PLAYERS + k])
                if c >= 0:
                    d[(leader + k) % 4] = format_card(c)
            res.append(d)
        return res

    def leaders(self) -> list[int]:
        return [int(self.trace[L.T_LEADER + t]) for t in range(self.n_tricks)]

    def winners(self) -> list[int]:
        return [int(self.trace[L.T_WINNER + t]) for t in range(self.n_tricks)]

    def drawn(self, seat: int) -> list[str]:
        """Cards seat took from the stock, in order (top first)."""
        return [
            format_card(int(self.trace[L.T_DECK + i]))
            for i in range(36, 52)
            if self.trace[L.T_DRAW_SEAT + i] == seat
        ]

    def discard(self, seat: int) -> set[str]:
        return from_mask(self.trace[L.T_DISCARD + seat])

    def robber_discard(self) -> set[str]:
        return from_mask(self.trace[L.T_ROBBER_DISCARD])

    def record(self, kind: str, seat: int, slot: int) -> int:
        """A value a scripted policy recorded (-1: it was never asked)."""
        return int(self.board[KINDS.index(kind), seat, slot])

    def play_legal(self, seat: int, trick: int) -> set[str] | None:
        """The legal cards the kernel offered seat in trick (None: not asked)."""
        v = self.record("play", seat, 6 + trick)
        return None if v < 0 else from_mask(v)


SLOTS = {
    "high": L.SLOT_HIGH,
    "low": L.SLOT_LOW,
    "jack": L.SLOT_RANK0,
    "game": L.SLOT_RANK0 + 1,
    "right": L.SLOT_RANK0 + 2,
    "left": L.SLOT_LEFT,
}


def run_deal(
    hands: dict[int, str],
    stock_top: str = "",
    *,
    dealer: int = 3,
    rules: Rules | None = None,
    maker: int = -1,
    trump: str | None = None,
    bid: int = 0,
    bids: dict[int, int] | None = None,
    name_trump: str | None = None,
    keeps: dict[int, str] | None = None,
    rob_keep: dict[int, str] | None = None,
    plays: dict[int, list[str | None]] | None = None,
    seed: int = 1,
) -> Hand:
    """Play one hand-built deal.

    ``maker``/``trump``/``bid`` force the contract (bidding skipped); otherwise
    ``bids`` (seat -> bid, 0 = pass) and ``name_trump`` script the auction.
    ``keeps``/``rob_keep`` script the discard and the robber's keep; ``plays``
    gives each seat its card per trick (None: the lowest legal card).
    """
    rules = rules or Rules()
    deck = build_deck(hands, stock_top, dealer, rules.players, rules.cards_dealt)
    ps = scripted_policies(rules.players)
    b = ps.board
    for s, v in (bids or {}).items():
        b[0, s, 0] = v
    if name_trump is not None:
        b[1, :, 0] = SUIT[name_trump]
    for s, keep in (keeps or {}).items():
        b[2, s, 0] = mask(keep)
    for s, keep in (rob_keep or {}).items():
        b[2, s, 1] = mask(keep)
    for s, seq in (plays or {}).items():
        for t, c in enumerate(seq):
            if c:
                b[3, s, t] = parse_card(c)
    cond = Conditions(
        deck=deck,
        force_maker=maker,
        force_trump=SUIT[trump] if trump is not None else -1,
        force_bid=bid,
    )
    out, tr = run_chunk(rules, ps, seed, 0, 1, dealer, cond, trace=True)
    return Hand(out[0], tr[0], b, dealer)


# --------------------------------------------------------------------------- referee
# An independent Python model of docs/rules.md §1 and §2, fed with a kernel trace.

TRUMP_ORDER = "AKQJT9876" + "5L" + "432"  # docs/rules.md §1.2, highest first


class RefereeError(AssertionError):
    pass


@dataclass
class Referee:
    """Checks one traced hand against the rules; raises RefereeError on any breach."""

    rules: Rules

    def strength(self, c: int, trump: int) -> int:
        """Trumps 100 + rank in §1.2's order; others by rank (suit handled by caller)."""
        left = (trump ^ 1) * 13 + 3
        if c == left:
            return 100 + (14 - TRUMP_ORDER.index("L"))
        if c // 13 == trump:
            return 100 + (14 - TRUMP_ORDER.index("23456789TJQKA"[c % 13]))
        return c % 13

    def check(self, out: np.ndarray, tr: np.ndarray, dealer: int) -> None:
        r = self.rules
        P, HS = 4, r.hand_size

        def fail(msg):
            raise RefereeError(msg)

        deck = [int(x) for x in tr[L.T_DECK : L.T_DECK + 52]]
        if sorted(deck) != list(range(52)):
            fail("the deck does not hold every card once")
        dealt = [set() for _ in range(P)]
        for i in range(36):
            dealt[(dealer + 1 + (i % 12) // 3) % P].add(deck[i])
        stock = deck[36:]
        eldest = (dealer + 1) % P

        # ---- bidding (one round, docs/rules.md §1.4)
        nb = int(tr[L.T_N_BIDS])
        bids = [(int(tr[L.T_BIDS + 2 * i]), int(tr[L.T_BIDS + 2 * i + 1])) for i in range(nb)]
        forced = nb == 0 and int(tr[L.T_DECK]) >= 0 and int(out[L.H_MAKER]) >= 0
        if not forced and [s for s, _ in bids] != [(eldest + j) % P for j in range(P)]:
            fail(f"bidding order {bids}")
        high, high_bidder = 0, -1
        for s, b in bids:
            if b > 0:
                if not (max(r.bid_min, high + 1) <= b <= r.bid_max):
                    if not (r.all_pass == "dealer_forced_min" and s == dealer and b == r.bid_min):
                        fail(f"illegal bid {b} by seat {s} over {high}")
                high, high_bidder = b, s
        if forced:  # a contract forced by the test (Conditions.force_maker)
            high, high_bidder = int(out[L.H_BID]), int(out[L.H_MAKER])
        if high_bidder < 0:
            if r.all_pass == "dealer_forced_any":
                fail("all passed, the dealer too, under all_pass=dealer_forced_any")
            if r.all_pass in ("redeal_next", "redeal_same"):
                if out[L.H_THROWN_IN] != 1 or out[L.H_MAKER] != -1:
                    fail("all passed but the hand was not thrown in")
                return
            maker, bid = dealer, 0
        else:
            maker, bid = high_bidder, high
        if (int(out[L.H_MAKER]), int(out[L.H_BID])) != (maker, bid):
            fail(f"maker/bid {out[L.H_MAKER]}/{out[L.H_BID]}, expected {maker}/{bid}")
        if out[L.H_THROWN_IN] != 0:
            fail("thrown in although someone made a contract")
        trump = int(out[L.H_TRUMP])
        if not 0 <= trump <= 3:
            fail(f"trump {trump}")
        left = (trump ^ 1) * 13 + 3
        tset = {trump * 13 + k for k in range(13)} | {left}

        # ---- discard, draw, rob (§1.6 - §1.9)
        robber = {"maker": maker, "dealer": dealer, "none": -1}[r.robber]
        if int(tr[L.T_ROBBER]) != robber:
            fail(f"robber {tr[L.T_ROBBER]}, expected {robber}")
        # non_point_only: A, 2, the rules' point cards, the Left Pedro (docs/rules.md §3.6)
        protected = {trump * 13 + k for k in (12, 0)} | {left}
        protected |= {trump * 13 + RANKS.index(rank) for _, rank, _ in r.point_cards}

        def point_trump_goes(gone, keep):
            """A point trump set aside while a non-point trump stays (§3.6: with more
            point trumps than the hand size, every non-point trump goes first)."""
            return r.excess_trump_discard == "non_point_only" and bool(
                gone & tset & protected and (keep & tset) - protected
            )

        hands = [set(h) for h in dealt]
        dead = set()
        if r.widow:  # docs/rules.md §3.7: each seat picks up the next widow, keeps as a robber
            short = False
            if int(out[L.H_SHORTAGE]) != 0:
                fail("a shortage flagged in a widow game")
            expect_draw = [(eldest + i // r.widow) % P for i in range(16)]
            got_draw = [int(x) for x in tr[L.T_DRAW_SEAT + 36 : L.T_DRAW_SEAT + 52]]
            if got_draw != expect_draw:
                fail(f"widows {got_draw}, expected {expect_draw}")
            for j in range(P):
                s = (eldest + j) % P
                cand = hands[s] | set(stock[j * r.widow : (j + 1) * r.widow])
                disc = {c for c in range(52) if int(tr[L.T_DISCARD + s]) >> c & 1}
                if not disc <= cand:
                    fail(f"seat {s} set aside cards it did not hold")
                keep = cand - disc
                if len(keep) != HS:
                    fail(f"seat {s} kept {len(keep)} of its cards and widow")
                if len(keep & tset) != min(HS, len(cand & tset)):
                    fail(f"seat {s} did not keep min(6, available) trumps")
                if point_trump_goes(disc, keep):
                    fail(f"seat {s} set aside a point trump and kept a non-point one")
                hands[s] = keep
                dead |= disc
        else:
            need = {}
            requested = 0
            for j in range(P):
                s = (eldest + j) % P
                disc = {c for c in range(52) if int(tr[L.T_DISCARD + s]) >> c & 1}
                if s == robber:
                    if disc:
                        fail("the robber discarded before the draw")
                    continue
                if not disc <= hands[s]:
                    fail(f"seat {s} discarded cards it does not hold")
                keep = hands[s] - disc
                ntr = len(hands[s] & tset)
                kept_tr = len(keep & tset)
                if len(keep) > HS:
                    fail(f"seat {s} kept {len(keep)} cards")
                if ntr <= HS and kept_tr != ntr:
                    fail(f"seat {s} discarded a trump while holding {ntr}")
                if ntr > HS:
                    if kept_tr != HS:
                        fail(f"seat {s} with {ntr} trumps kept {kept_tr}")
                    if point_trump_goes(disc, keep):
                        fail(f"seat {s} discarded a point trump and kept a non-point one")
                min_keep = 0
                if r.shortage == "limit_discards":
                    min_keep = max(0, HS - (len(stock) - requested))
                if len(keep) < min_keep:
                    fail(f"seat {s} kept {len(keep)} < {min_keep}")
                if r.must_discard_nontrumps:
                    allowed = max(0, min_keep - kept_tr) if r.shortage == "limit_discards" else 0
                    if len(keep - tset) > allowed:
                        fail(f"seat {s} kept non-trumps under must_discard_nontrumps")
                dead |= disc
                hands[s] = keep
                need[s] = HS - len(keep)
                requested += need[s]
            short = requested > len(stock)
            if int(out[L.H_SHORTAGE]) != int(short):
                fail(f"shortage flag {out[L.H_SHORTAGE]}, requests {requested}")
            # who should draw each stock card
            expect_draw = [-1] * 16
            top = 0
            left_need = dict(need)
            drawers = [(eldest + j) % P for j in range(P) if (eldest + j) % P != robber]
            if short and r.shortage == "round_robin":
                while top < 16:
                    for s in drawers:
                        if left_need[s] > 0 and top < 16:
                            expect_draw[top] = s
                            left_need[s] -= 1
                            top += 1
            else:
                for s in drawers:
                    while left_need[s] > 0 and top < 16:
                        expect_draw[top] = s
                        left_need[s] -= 1
                        top += 1
            if robber >= 0:
                for i in range(top, 16):
                    expect_draw[i] = robber
            got_draw = [int(x) for x in tr[L.T_DRAW_SEAT + 36 : L.T_DRAW_SEAT + 52]]
            if got_draw != expect_draw:
                fail(f"draws {got_draw}, expected {expect_draw}")
            for i, s in enumerate(expect_draw):
                if s >= 0:
                    hands[s].add(stock[i])
                else:
                    dead.add(stock[i])
            if robber >= 0:
                rdisc = {c for c in range(52) if int(tr[L.T_ROBBER_DISCARD]) >> c & 1}
                cand = hands[robber]
                if not rdisc <= cand:
                    fail("the robber set aside cards he did not have")
                keep = cand - rdisc
                if len(cand) > HS and len(keep) != HS:
                    fail(f"the robber kept {len(keep)}")
                if len(keep & tset) != min(HS, len(cand & tset)):
                    fail("the robber did not keep min(6, available) trumps")
                if len(cand & tset) > HS and point_trump_goes(rdisc, keep):
                    fail("the robber set aside a point trump and kept a non-point one")
                hands[robber] = keep
                dead |= rdisc
        for s in range(P):
            if len(hands[s]) > HS:
                fail(f"seat {s} plays with {len(hands[s])} cards")
            if not short and len(hands[s]) != HS:
                fail(f"seat {s} holds {len(hands[s])} cards without a shortage")
        in_play = set().union(*hands)
        if len(in_play) + len(dead) != 52 or in_play & dead:
            fail("cards in play and dead cards do not partition the deck")

        # ---- tricks (§1.10 - §1.12); under trumps_only plain cards are dead (docs/rules.md)
        if r.follow_rule == "trumps_only":
            hands = [set(h) & tset for h in hands]
            in_play = set().union(*hands)
        held = [set(h) for h in hands]
        leader = maker
        n_tricks = int(tr[L.T_N_TRICKS])
        captured = [set() for _ in range(P)]  # by seat
        played_by = {}
        trick_of = {}
        strict = r.follow_rule == "strict"
        for t in range(n_tricks):
            while not held[leader]:
                leader = (leader + 1) % P
            if int(tr[L.T_LEADER + t]) != leader:
                fail(f"trick {t} led by {tr[L.T_LEADER + t]}, expected {leader}")
            led = None
            best, win = -2, -1
            trick = set()
            for k in range(P):
                s = (leader + k) % P
                c = int(tr[L.T_PLAYS + t * L.MAX_PLAYERS + k])
                if not held[s]:
                    if c != -1:
                        fail(f"seat {s} with no cards played in trick {t}")
                    continue
                if c not in held[s]:
                    fail(f"seat {s} played {c} it does not hold (trick {t})")
                h = held[s]
                if led is None:
                    legal = h
                elif led in tset:
                    legal = (h & tset) or h
                else:
                    suit = {x for x in h if x // 13 == led // 13} - tset
                    if not suit:
                        legal = h
                    elif strict:
                        legal = suit
                    else:
                        legal = suit | (h & tset)
                if c not in legal:
                    fail(f"seat {s} played {format_card(c)} illegally in trick {t}")
                if led is None:
                    led = c
                if c in tset:
                    st = self.strength(c, trump)
                elif c // 13 == led // 13 and led not in tset:
                    st = c % 13
                else:
                    st = -1
                if st > best:
                    best, win = st, s
                held[s].discard(c)
                trick.add(c)
                played_by[c] = s
                trick_of[c] = t
            if int(tr[L.T_WINNER + t]) != win:
                fail(f"trick {t} won by {tr[L.T_WINNER + t]}, expected {win}")
            captured[win] |= trick
            leader = win
        if any(held):
            fail("cards left unplayed")
        if n_tricks != max(len(h) for h in hands):
            fail(f"{n_tricks} tricks for hands of {[len(h) for h in hands]}")
        if int(out[L.H_N_TRICKS]) != n_tricks:
            fail("H_N_TRICKS disagrees with the trace")

        # ---- points and score (§1.13, §1.14)
        def team(s):
            return s % 2

        winner_of = {c: s for s in range(P) for c in captured[s]}
        tin = in_play & tset
        slots = {}
        ace = trump * 13 + 12
        if r.high_rule == "ace_only":
            slots[L.SLOT_HIGH] = ace if ace in tin else None
        else:
            slots[L.SLOT_HIGH] = max(tin, key=lambda c: self.strength(c, trump), default=None)
        if r.low_rule == "deuce_only":
            slots[L.SLOT_LOW] = trump * 13 if trump * 13 in tin else None
        else:
            slots[L.SLOT_LOW] = min(tin, key=lambda c: self.strength(c, trump), default=None)
        for k, rank in enumerate((9, 8, 3)):  # J, T, right pedro
            c = trump * 13 + rank
            slots[L.SLOT_RANK0 + k] = c if c in tin else None
        slots[L.SLOT_LEFT] = left if left in tin else None
        values = {L.SLOT_HIGH: 1, L.SLOT_LOW: 1, L.SLOT_RANK0: 1, L.SLOT_RANK0 + 1: 1}
        values[L.SLOT_RANK0 + 2] = 5
        values[L.SLOT_LEFT] = 5
        points = [0, 0]
        for k, c in slots.items():
            got = tuple(
                int(out[b + k])
                for b in (L.H_SLOT_TEAM, L.H_SLOT_TRICK, L.H_SLOT_HOLDER, L.H_SLOT_PLAYER)
            )
            if c is None:
                if got[0] != -1:
                    fail(f"slot {k} scored although its card is not in play")
                continue
            holder = next(s for s in range(P) if c in hands[s])
            tm = team(winner_of[c])
            if k == L.SLOT_LOW and r.low_to == "player":
                tm = team(played_by[c])
            want = (tm, trick_of[c], holder, played_by[c])
            if got != want:
                fail(f"slot {k} ({format_card(c)}): {got}, expected {want}")
            points[tm] += values[k]
        if [int(out[L.H_POINTS]), int(out[L.H_POINTS + 1])] != points:
            fail(f"points {out[L.H_POINTS : L.H_POINTS + 2]}, expected {points}")
        mt = team(maker)
        made = points[mt] >= bid
        if int(out[L.H_MADE]) != int(made):
            fail("made flag")
        score = list(points)
        if not made:
            if r.scoring == "setback":
                score[mt] = -bid
            else:
                score[mt] = 0
                score[1 - mt] += bid
        if [int(out[L.H_SCORE]), int(out[L.H_SCORE + 1])] != score:
            fail(f"score {out[L.H_SCORE : L.H_SCORE + 2]}, expected {score}")


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """A checkout's ``scripts/NAME.py`` loaded as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_script", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_position(me, leader, trick, played=(), variant="standard", cards_left=3):
    """An observation of ``variant`` in the play, spades trump and seat 0 the maker:
    seat ``me`` to play, ``trick`` the cards already in the trick, led by ``leader``,
    ``played`` the cards of earlier tricks, every seat holding ``cards_left`` cards.
    The sides are the preset's (0, 2 / 1, 3 at four players; each alone in cut-throat)."""
    from cinch_sim.cards import to_mask, trump_mask
    from cinch_sim.policies.common import strength
    from cinch_sim.rules import make_rules

    rules = make_rules(variant)
    n = rules.players
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_RULES : L.O_RULES + L.R_LEN] = rules.to_array()  # as the kernel gives it
    obs[L.O_SEAT] = me
    obs[L.O_PLAYERS] = n
    obs[L.O_MAKER] = 0
    obs[L.O_PHASE] = L.PHASE_PLAY
    obs[L.O_TRUMP] = SUIT["S"]
    tm = trump_mask(SUIT["S"])
    obs[L.O_TRUMP_MASK] = tm
    left = parse_card("5C")  # spades' left card
    obs[L.O_LEFT_CARD] = left
    obs[L.O_SEAT_TEAM : L.O_SEAT_TEAM + n] = rules.seat_teams
    obs[L.O_CARDS_LEFT : L.O_CARDS_LEFT + n] = cards_left
    in_trick = [parse_card(c) for c in trick]
    obs[L.O_LEADER] = leader
    obs[L.O_TRICK_COUNT] = len(in_trick)
    obs[L.O_PLAYED] = to_mask([parse_card(c) for c in played] + in_trick)
    obs[L.O_WIN_SEAT] = obs[L.O_WIN_CARD] = obs[L.O_LED_CARD] = -1
    if in_trick:
        strengths = [strength(c, np.uint64(tm), left) for c in in_trick]
        best = int(np.argmax(strengths))
        obs[L.O_WIN_SEAT] = (leader + best) % n
        obs[L.O_WIN_CARD] = in_trick[best]
        obs[L.O_LED_CARD] = in_trick[0]
        obs[L.O_TRICK_MASK] = to_mask(in_trick)
    return obs

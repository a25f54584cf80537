"""Deals that fit the calls made before the player, drawn from pools of hands.

Rejection (``estimate._Playouts``) deals whole hands and keeps those in which
every earlier seat made the call it made: cheap while such deals are common,
hopeless when they are not (7, 10, 11 before the dealer fits none of 50,000
deals under the heuristic bidders). But a seat's call depends only on its own
cards and the calls before it. So for each earlier seat a pool of hands that
make its call is drawn by rejection, seat by seat (the seats before it made to
call as they did by the ``fixed`` bid policy), and a deal takes one hand from
each pool at random, kept only when no two of them share a card. Rejection's
deals are uniform over the layouts of the unseen cards in which every call
fits; a deal drawn this way is uniform over the layouts whose earlier hands are
pool members, and each pool is a uniform sample of the hands that make that
seat's call: the same law, to the pools' sampling. The kernel deals the later
seats and the stock from the cards left (``LISTED_FIXED``), and still checks
every earlier call, so a deal that did not fit would be rejected, not counted.

This needs bidders whose call is a function of the hand and the calls before it
(built-ins that draw no random number), one deck and one call per earlier seat;
the advisor falls back to rejection otherwise (``pooled_reason``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.advisor.query import AdvisorError, Query
from cinch_sim.jit.cache import refresh
from cinch_sim.rng import below, stream_state

# below this share of dealt hands fitting the earlier bids, the advisor draws its deals
# from pools (where the bidders allow it); above it, rejection is cheap and exact
POOLS_BELOW = 0.01
POOL_STREAM = 0x706F6F6C  # "pool": the stream a deal's pool picks are drawn from
MIN_POOL = 200  # hands a pool needs, else its call is "too rare to sample"
MAX_PROBES = 16_000_000  # hands tried for one seat's pool at most (a few seconds)
NONE_YET = 262_144  # hands tried with none making the call: it is given up
# hands tried before a call's rate so far may say that MAX_PROBES cannot fill MIN_POOL
EARLY_LOOK = 1_048_576
PROBE_CHUNK = 65_536
MAX_TRIES = 2_000_000  # pool picks for one deal before it is given up as unplaceable
PROBE_SEED = 0x5EED_9001  # the probes' own deal streams, apart from the deals'


def _here() -> None:
    """Locates this folder's numba cache."""


refresh(_here)  # a stale cache of this folder is flushed first (cache.py says why)


def pooled_reason(q: Query, policies) -> str | None:
    """Why the pools cannot draw this query's deals (None: they can)."""
    from cinch_sim.engine.run import BLIND_TO_STREAM

    if not q.bids:
        return "no earlier calls"
    if q.rules.decks != 1:
        return "two decks"
    seats = [s for s, _ in q.bids]
    if len(set(seats)) < len(seats) or q.own_calls:
        return "an auction in rounds"
    for s in seats:
        b = policies.bid[s].builtin
        if b is None or b.kernel_id not in BLIND_TO_STREAM:
            return f"seat {s}'s bidder draws random numbers"
    return None


@dataclass
class Pools:
    """Per earlier seat (``seats``, in bidding order) the hands drawn that make its
    call: ``hands[k, :sizes[k]]``; ``tried[k]`` hands were tried for them. A seat
    whose whole hand is known has that one hand (``known[k]``)."""

    seats: list[int]
    hands: np.ndarray  # [seat, member] uint64 masks
    sizes: np.ndarray  # [seat] members
    tried: np.ndarray  # [seat] hands tried
    known: np.ndarray  # [seat] True where the seat's whole hand was given
    fixed: np.ndarray  # [MAX_PLAYERS] the query's fixed cards of every seat
    bids_text: str = ""  # the calls, as the query says them

    def text(self) -> str:
        """``seat 1: 2,311 of 65,536 hands, ...``: how common each call is alone."""
        return ", ".join(
            f"seat {s}: its hand, given" if known else f"seat {s}: {int(n):,} of {int(t):,} hands"
            for s, n, t, known in zip(self.seats, self.sizes, self.tried, self.known, strict=True)
        )

    def counts(self) -> list[dict[str, int | bool]]:
        """Per earlier seat, its pool's hands and the hands tried for them (the JSON)."""
        return [
            {"seat": s, "hands": int(n), "tried": int(t), "known": bool(known)}
            for s, n, t, known in zip(self.seats, self.sizes, self.tried, self.known, strict=True)
        ]

    @property
    def deal_cap(self) -> int:
        """The most deals to draw: half the smallest pool of drawn hands, so that a hand
        serves in about one deal in two at most. Deals sharing a hand are not
        independent; past this the intervals would claim more than the deals hold
        (measured: 2 to 4 times too narrow with pools of a tenth of the deals)."""
        drawn = self.sizes[~self.known]
        return max(1, int(drawn.min()) // 2) if drawn.size else 1 << 62


def rare_hint(q: Query, bid_specs: Sequence[str], call: int = L.BID_PASS) -> str:
    """The way out of a "too rare": the calls are rare for these bidders, not for every
    bidder (Pidro's "all passed to the dealer" fits 4 deals in 50,000 under the
    heuristic); another bidder is named only where another is in use (``bid_specs``:
    each seat's bid policy): for a pass one that passes more, for a bid (``call``)
    one that bids otherwise (in an open auction the heuristic opens at its least)."""
    others = {bid_specs[s].strip() for s, _ in q.bids} - {"simple", "traditional"}
    if not others:
        return "the other seats' bidders seldom make these calls"
    if call != L.BID_PASS:
        return (
            "the other seats' bidders seldom make these calls: another bidder (bid model "
            "simple or traditional) may make them"
        )
    return (
        "the other seats' bidders seldom make these calls: a bidder that passes more "
        "(bid model simple or traditional) matches more deals"
    )


def _probe_cards(q: Query, seed: int) -> tuple[np.ndarray, np.ndarray, np.uint64]:
    """What a probe of the earlier calls deals from: each seat's fixed cards (masks),
    the cards no seat holds, and the key of the probe's random hands."""
    fixed = np.zeros(L.MAX_PLAYERS, np.uint64)
    for s, m in q.fixed().items():
        fixed[s] = np.uint64(m)
    taken = int(np.bitwise_or.reduce(fixed))
    unseen = np.array([c for c in range(52) if not (taken >> c) & 1], np.int64)
    return fixed, unseen, np.uint64((seed ^ PROBE_SEED) % (1 << 64))


def never_called(q: Query, policies, seed: int) -> list[int]:
    """The earlier seats whose bidder made its call on none of ``SEEN_HANDS`` random
    hands (the calls before it imposed; a seat whose whole hand is known is left to
    its own check): calls that bidder never makes, such as a pass first to speak,
    which the heuristic never makes while any bid is open."""
    fixed, unseen, key = _probe_cards(q, seed)
    never: list[int] = []
    for k, (seat, _) in enumerate(q.bids):
        need = q.rules.cards_dealt - int(fixed[seat]).bit_count()
        if need == 0 or seat in never:
            continue
        cand = fixed[seat] | _random_hands(key, np.int64(k * MAX_PROBES), unseen, need, SEEN_HANDS)
        if not _makes_its_call(q, _probe_set(q, policies, k), k, seat, cand, fixed, seed, 0).any():
            never.append(seat)
    return never


def build_pools(
    q: Query, policies, seed: int, size: int, stop: Callable[[], bool] | None = None
) -> Pools | None:
    """For each earlier seat, up to ``size`` random hands (its known cards in them)
    that make its call after the calls before it: AdvisorError when a call is made
    by fewer than ``MIN_POOL`` of ``MAX_PROBES`` hands. None when ``stop`` says so
    between chunks of hands tried (a Ctrl-C)."""
    r = q.rules
    fixed, unseen, key = _probe_cards(q, seed)
    seats = [s for s, _ in q.bids]
    hands = np.zeros((len(seats), size), np.uint64)
    sizes = np.zeros(len(seats), np.int64)
    tried = np.zeros(len(seats), np.int64)
    known = np.zeros(len(seats), bool)
    for k, seat in enumerate(seats):
        probe = _probe_set(q, policies, k)
        need = r.cards_dealt - int(fixed[seat]).bit_count()
        known[k] = need == 0
        if known[k]:  # its whole hand was given: does it make its call?
            ok = _makes_its_call(q, probe, k, seat, fixed[seat : seat + 1], fixed, seed, 0)
            if not ok[0]:
                raise AdvisorError(
                    f"the bids before you ({q.bids_text()}): seat {seat}'s known hand does "
                    f"not make its {_call(q.bids[k][1])} under its bidder"
                )
            hands[k, 0], sizes[k], tried[k] = fixed[seat], 1, 1
            continue
        while sizes[k] < size and tried[k] < MAX_PROBES and (sizes[k] or tried[k] < NONE_YET):
            if stop is not None and stop():
                return None
            if tried[k] >= EARLY_LOOK and sizes[k] * MAX_PROBES < MIN_POOL * tried[k]:
                break  # at this rate the pool cannot fill: say so now, not in seconds
            first = np.int64(k * MAX_PROBES + tried[k])  # each candidate's own stream
            cand = fixed[seat] | _random_hands(key, first, unseen, need, PROBE_CHUNK)
            ok = _makes_its_call(q, probe, k, seat, cand, fixed, seed, int(tried[k]))
            hits = np.flatnonzero(ok)[: size - sizes[k]]
            hands[k, sizes[k] : sizes[k] + len(hits)] = cand[hits]
            sizes[k] += len(hits)
            # tried up to the last hand kept: sizes / tried is how common the call is
            tried[k] += int(hits[-1]) + 1 if sizes[k] == size else PROBE_CHUNK
        if sizes[k] < MIN_POOL:
            seen = _calls_seen(q, probe, k, seat, fixed, key, unseen, need, seed)
            raise AdvisorError(
                f"the bids before you ({q.bids_text()}) are impossible or too rare to "
                f"sample: seat {seat}'s {_call(q.bids[k][1])} came from {int(sizes[k]):,} "
                f"of {int(tried[k]):,} hands under its bidder (its calls there: {seen}); "
                + rare_hint(q, [p.spec for p in policies.bid], q.bids[k][1])
            )
    return Pools(seats, hands, sizes, tried, known, fixed, q.bids_text())


def _call(bid: int) -> str:
    return "pass" if bid == L.BID_PASS else f"bid {bid}"


SEEN_HANDS = 4096  # random hands whose calls a "too rare" error reports


def _calls_seen(q, probe, k, seat, fixed, key, unseen, need, seed) -> str:
    """What the k-th seat's bidder called on ``SEEN_HANDS`` random hands (the calls
    before it imposed), most common first: 'pass 76%, bid 4 24%'. The trace keeps
    the call that a required sequence rejected."""
    from cinch_sim.engine.run import Conditions, run_chunk

    cand = fixed[seat] | _random_hands(key, np.int64(k * MAX_PROBES), unseen, need, SEEN_HANDS)
    masks = np.broadcast_to(fixed, (cand.size, L.MAX_PLAYERS)).copy()
    masks[:, seat] = cand
    cond = Conditions(required_bids=[b for _, b in q.bids[: k + 1]])
    index = np.arange(cand.size, dtype=np.int64)
    _, trace = run_chunk(q.rules, probe, seed ^ PROBE_SEED, 0, 0, q.dealer, cond, indices=index,
                         fixed_per_hand=masks, trace=True)  # fmt: skip
    made = trace[:, L.T_BIDS + 2 * k] == seat
    calls, counts = np.unique(trace[made, L.T_BIDS + 2 * k + 1], return_counts=True)
    order = np.argsort(-counts, kind="stable")[:4]
    total = max(int(counts.sum()), 1)
    return (
        ", ".join(f"{_call(int(calls[i]))} {N.rate_whole(counts[i] / total)}" for i in order)
        or "none"
    )


@njit(cache=True, nogil=True)
def _random_hands(key, first, unseen, k, n):
    """``n`` random ``k``-card hands from ``unseen`` as card masks, hand i by a partial
    Fisher-Yates on stream ``first + i``."""
    out = np.zeros(n, np.uint64)
    cards = unseen.copy()
    state = np.zeros(1, np.uint64)
    m = cards.shape[0]
    for i in range(n):
        state[0] = stream_state(key, first + i, POOL_STREAM)
        mask = np.uint64(0)
        for j in range(k):
            t = j + below(state, m - j)
            c = cards[t]
            cards[t] = cards[j]
            cards[j] = c
            mask |= np.uint64(1) << np.uint64(c)
        out[i] = mask
    return out


def _probe_set(q: Query, policies, k: int):
    """The policies of the probe for the k-th earlier call: the seats before it call
    as they did (``fixed``), the k-th seat bids with its own bidder, play is random."""
    from cinch_sim.engine.run import PolicySet
    from cinch_sim.policies.loading import load_policy

    bid = list(policies.bid)
    for seat, call in q.bids[:k]:
        bid[seat] = load_policy("bid", "fixed", (float(max(call, 0)), 0.0))
    play = [load_policy("play", "random")] * q.rules.players
    return PolicySet(bid, list(policies.trump), list(policies.discard), play)


def _makes_its_call(q, probe, k, seat, cand, fixed, seed, first) -> np.ndarray:
    """Whether each candidate hand of ``seat`` makes the k-th call (the calls before
    it imposed): the kernel's own check of the first k + 1 calls."""
    from cinch_sim.engine.run import Conditions, run_chunk

    masks = np.broadcast_to(fixed, (cand.size, L.MAX_PLAYERS)).copy()
    masks[:, seat] = cand
    cond = Conditions(required_bids=[b for _, b in q.bids[: k + 1]])
    index = np.arange(first, first + cand.size, dtype=np.int64)
    rows, _ = run_chunk(q.rules, probe, seed ^ PROBE_SEED, 0, 0, q.dealer, cond, indices=index,
                        fixed_per_hand=masks)  # fmt: skip
    return rows[:, L.H_REJECTED] == 0


def draw_deals(pools: Pools, seed: int, indices: np.ndarray) -> np.ndarray:
    """Each deal's fixed cards per seat ([deal, MAX_PLAYERS] masks): the query's, and
    for each earlier seat a hand of its pool, the hands picked together at random
    until no two share a card (deal i's picks from its own stream: the same deal in
    any chunk). AdvisorError when a deal finds no such hands in ``MAX_TRIES``."""
    out = np.zeros((len(indices), L.MAX_PLAYERS), np.uint64)
    seats = np.asarray(pools.seats, np.int64)
    ok = _draw(pools.hands, pools.sizes, seats, pools.fixed, np.uint64(seed % (1 << 64)),
               np.asarray(indices, np.int64), out)  # fmt: skip
    if not ok:
        raise AdvisorError(
            f"the bids before you ({pools.bids_text}) are impossible or too rare to sample "
            f"together: the hands that make each call ({pools.text()}) seldom fit in one "
            "deal without sharing a card"
        )
    return out


@njit(cache=True, nogil=True)
def _draw(hands, sizes, seats, fixed, seed, indices, out):
    """``draw_deals``'s loop: False when a deal found no fitting hands."""
    state = np.zeros(1, np.uint64)
    known = np.uint64(0)  # every seat's fixed cards: no pool hand adds one of them
    for s in range(fixed.shape[0]):
        known |= fixed[s]
    for i in range(indices.shape[0]):
        state[0] = stream_state(seed, indices[i], POOL_STREAM)
        placed = False
        for _ in range(MAX_TRIES):
            used = known
            clash = False
            for k in range(seats.shape[0]):
                h = hands[k, below(state, sizes[k])]
                extra = h & ~fixed[seats[k]]  # its known cards are its own
                if extra & used:
                    clash = True
                    break
                used |= extra
                out[i, seats[k]] = h
            if not clash:
                placed = True
                break
        if not placed:
            return False
        for s in range(fixed.shape[0]):
            if out[i, s] == 0:
                out[i, s] = fixed[s]
    return True

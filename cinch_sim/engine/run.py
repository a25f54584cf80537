"""Runs the kernel over chunks of hands: the bridge between Python objects and arrays.

Coerces rules, policies and conditions into the exact dtypes the kernel's
signature names, calls it chunk by chunk (so a caller can aggregate as it goes,
report progress and stop cleanly on Ctrl-C), and turns a policy's illegal
choice into a one-line error naming the policy and the seat.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from cinch_sim import checks
from cinch_sim import layout as L
from cinch_sim.cards import SUIT_NAMES, SUITS, format_card
from cinch_sim.engine.interrupts import chunk_boundaries
from cinch_sim.engine.policy_table import ADDRESSES
from cinch_sim.engine.threads import ranges, run_pieces, run_split, using
from cinch_sim.interrupts import compiling
from cinch_sim.policies import registry as BI
from cinch_sim.policies.hand_models import with_preset_model, with_preset_play
from cinch_sim.policies.loading import (
    KINDS,
    Policy,
    PolicyError,
    SeatSpecs,
    load_named_policy,
    seat_specs,
)
from cinch_sim.rules import Rules, RulesError, resolve_rules, seat_name
from cinch_sim.signatures import N_PARAMS, N_SCRATCH, POLICY_SIG
from cinch_sim.solver.limits import require_dd, require_solvable
from cinch_sim.version import __version__

# Built-ins that never read the call history: with only these at the table the
# kernel skips writing O_CALLS (measured: 50 instructions a W2 hand, of 7,000).
BLIND_TO_CALLS = frozenset(
    (
        BI.RANDOM_CHOICE,
        BI.RANDOM_DISCARD,
        BI.SIMPLE_BID,
        BI.SIMPLE_TRUMP,
        BI.SIMPLE_DISCARD,
        BI.GREEDY_PLAY,
        BI.DD_PLAY,
    )
)
# Built-ins that never draw from their random stream: a seat with only these skips
# the stream's setup (one Threefry block a hand for the table; W3 plays no random
# number at all). A user policy (id 0) always gets its stream.
BLIND_TO_STREAM = frozenset(
    (
        BI.SIMPLE_BID,
        BI.SIMPLE_TRUMP,
        BI.SIMPLE_DISCARD,
        BI.GREEDY_PLAY,
        BI.HEURISTIC_BID,
        BI.HEURISTIC_TRUMP,
        BI.HEURISTIC_DISCARD,
        BI.HEURISTIC_PLAY,
    )
)


@dataclass
class PolicySet:
    """One policy per seat for each plug point."""

    bid: list[Policy]
    trump: list[Policy]
    discard: list[Policy]
    play: list[Policy]

    @classmethod
    def from_specs(
        cls,
        players: int = 4,
        bid: SeatSpecs = "heuristic",
        trump: SeatSpecs = "heuristic",
        discard: SeatSpecs = "heuristic",
        play: SeatSpecs = "heuristic",
        defaults: Mapping[str, str] | None = None,
    ) -> PolicySet:
        """Each kind as ``seat_specs`` reads it (a name, ``{seat: name}``, one per seat,
        ``SEAT=POLICY`` items); seats not named get ``defaults`` (heuristic)."""
        specs = described_specs(players, bid, trump, discard, play, defaults)
        return cls(**{kind: _load_each(kind, seats) for kind, seats in specs.items()})

    def by_kind(self) -> dict[str, list[Policy]]:
        return {"bid": self.bid, "trump": self.trump, "discard": self.discard, "play": self.play}

    @property
    def slow(self) -> bool:
        """A seat plays with a slow built-in (pimc, dd): milliseconds a hand."""
        return any(p.slow for p in self.play)

    def describe(self) -> dict[str, list[str]]:
        return {k: [p.spec for p in v] for k, v in self.by_kind().items()}

    def digests(self) -> dict[str, dict[str, str]]:
        """Per kind, each user policy's spec and the digest of its file and parameters
        (``Policy.digest``): a spec names a file, not what it held when the run was made.
        Empty with only built-ins, whose code the version names."""
        out: dict[str, dict[str, str]] = {}
        for kind, pols in self.by_kind().items():
            for p in pols:
                digest = p.digest()
                if digest is not None:
                    out.setdefault(kind, {})[p.spec] = digest
        return out

    def table(self) -> np.ndarray:
        """The kernel's policy table: per [kind * MAX_PLAYERS + seat], the policy's two
        addresses (policy_table.py); unused seats repeat seat 0."""
        out = np.zeros((4 * L.MAX_PLAYERS, ADDRESSES), np.uint64)
        for k, pols in enumerate(self.by_kind().values()):
            for s in range(L.MAX_PLAYERS):
                out[k * L.MAX_PLAYERS + s] = _addresses(pols[s if s < len(pols) else 0].func)
        return out

    def kernel_arrays(
        self, rules: Rules, direct: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What every batch kernel takes of the policies for a game under ``rules``:
        the address table, the built-in ids and the parameters."""
        return self.table(), self.builtin_ids(direct), self.params(rules)

    def builtin_ids(self, direct: bool = True) -> np.ndarray:
        """Per [kind, seat]: the built-in's id for a direct call, 0 for a pointer call;
        then whether some policy may read the call history (``L.PIDS_READ_CALLS``),
        whether some seat plays dd (``L.PIDS_DD``) and whether some policy draws from
        its random stream (``L.PIDS_STREAMS``)."""
        ids = np.zeros(L.PIDS_LEN, np.int64)
        reads_calls = plays_dd = streams = False
        for k, pols in enumerate(self.by_kind().values()):
            for s, p in enumerate(pols):
                kid = p.builtin.kernel_id if p.builtin else 0
                reads_calls |= kid not in BLIND_TO_CALLS
                streams |= kid not in BLIND_TO_STREAM
                if direct or kid == BI.DD_PLAY:  # dd is handed every hand: the kernel must know
                    ids[k * L.MAX_PLAYERS + s] = kid
                plays_dd |= kid == BI.DD_PLAY
        ids[L.PIDS_READ_CALLS] = reads_calls
        ids[L.PIDS_DD] = plays_dd
        ids[L.PIDS_STREAMS] = streams
        return ids

    def params(self, rules: Rules | None = None) -> np.ndarray:
        """Per [kind, seat] the policy's parameter vector; under ``rules`` each heuristic
        bid model in them (the heuristic's bid and trump vectors, pimc's model of the
        other bidders: ``Builtin.hand_models_at``) carries the preset's own hand model,
        and the heuristic's play the preset's choice of its rules left to it
        (``Builtin.preset_play_at``; policies/hand_models.py)."""
        a = np.zeros((4, L.MAX_PLAYERS, N_PARAMS))
        for k, pols in enumerate(self.by_kind().values()):
            for s, p in enumerate(pols):
                a[k, s] = p.param_vector()
                b = p.builtin
                for at in b.hand_models_at if rules is not None and b is not None else ():
                    a[k, s, at:] = with_preset_model(a[k, s, at:], rules)
                for at in b.preset_play_at if rules is not None and b is not None else ():
                    a[k, s, at:] = with_preset_play(a[k, s, at:], rules)
                if b is not None and b.memo_slot >= 0:  # only the engine lends one
                    a[k, s, b.memo_slot] = 0.0
        return a


_ADDRESSES: dict[object, tuple[int, int]] = {}


def _addresses(func) -> tuple[int, int]:
    """A compiled policy's C-wrapper and own addresses, looked up once per process
    (numba's own lookup, which the kernel no longer makes on every call)."""
    found = _ADDRESSES.get(func)
    if found is None:
        from numba.experimental.function_type import _get_jit_address, _get_wrapper_address

        with compiling():  # the lookup may compile the policy's wrapper
            found = _ADDRESSES[func] = (
                _get_wrapper_address(func, POLICY_SIG),
                _get_jit_address(func, POLICY_SIG),
            )
    return found


@dataclass
class Conditions:
    """Conditions on every hand of a batch (used by the hand advisor)."""

    fixed: dict[int, int] = field(default_factory=dict)  # seat -> card mask
    # two decks: seat -> mask of the faces it is dealt twice (each also in ``fixed``)
    fixed_twice: dict[int, int] = field(default_factory=dict)
    force_maker: int = -1
    force_trump: int = -1
    force_bid: int = 0
    required_bids: list[int] = field(default_factory=list)  # BID_PASS or bid, in order
    # exact deal order (as T_DECK: 52 cards, or with two decks 104, each face twice)
    deck: list[int] | None = None
    # per seat: the stream number of its policies' random draws (default 1 + seat);
    # a duplicate match gives each strategy its own streams wherever it sits
    streams: list[int] | None = None

    def to_setup(self, dealer: int, offset: int = 0) -> np.ndarray:
        s = np.zeros(L.S_LEN, dtype=np.int64)
        s[L.S_DEALER] = dealer
        for seat, mask in self.fixed.items():
            s[L.S_FIXED + seat] = mask
        for seat, mask in self.fixed_twice.items():
            if mask & ~self.fixed.get(seat, 0):
                raise ValueError("a face fixed twice to a seat must be among its fixed cards")
            s[L.S_FIXED2 + seat] = mask
        s[L.S_FORCE_MAKER] = self.force_maker
        s[L.S_FORCE_TRUMP] = self.force_trump
        s[L.S_FORCE_BID] = self.force_bid
        s[L.S_N_REQUIRED] = len(self.required_bids)
        for i, b in enumerate(self.required_bids):
            s[L.S_REQUIRED + i] = b
        s[L.S_HAND_OFFSET] = offset
        streams = self.streams or [1 + seat for seat in range(L.MAX_PLAYERS)]
        if any(k < 1 for k in streams):
            raise ValueError("policy stream numbers must be positive (0 deals the cards)")
        s[L.S_STREAMS : L.S_STREAMS + len(streams)] = streams
        if self.deck is not None:
            copies = len(self.deck) // 52
            if copies not in (1, 2) or sorted(self.deck) != sorted(list(range(52)) * copies):
                raise ValueError(
                    "a given deck must hold each of the 52 cards once (two decks: twice)"
                )
            s[L.S_DECK_GIVEN] = 1
            s[L.S_DECK : L.S_DECK + 52] = self.deck[:52]
            s[L.S_DECK2 : L.S_DECK2 + 52] = self.deck[52:] if copies == 2 else 0
        return s

    def check(self, rules: Rules) -> None:
        """Refuse a given deck of the wrong size for the rules (52 per deck), and cards
        fixed twice with one deck."""
        if rules.decks == 1 and any(self.fixed_twice.values()):
            raise ValueError(f"{rules.preset} has one deck: no card can be dealt twice")
        if self.deck is not None and len(self.deck) != 52 * rules.decks:
            raise ValueError(
                f"a given deck must hold {52 * rules.decks} cards for {rules.preset}, "
                f"not {len(self.deck)}"
            )


_KERNELS: dict[str, Any] = {}


def _compiled(name: str):
    """The batch kernel ``name``, imported lazily (--help and light commands stay
    instant) and loaded or compiled once, where Ctrl-C stops the load at once and is
    never lost inside numba's compiler (cinch_sim/interrupts.py)."""
    kern = _KERNELS.get(name)
    if kern is None:
        with warnings.catch_warnings(), compiling():
            warnings.simplefilter("ignore")
            from cinch_sim.engine.kernel import compiled

            kern = _KERNELS[name] = compiled(name)
    return kern


def _kernel(rules: Rules):
    """The hands kernel for these rules: two decks have their own, compiled only when
    played (kernel.TWO_DECKS says why)."""
    return _compiled("simulate_hands2" if rules.decks == 2 else "simulate_hands")


def check_solver_players(rules: Rules, policies: PolicySet) -> None:
    """Refuse the PIMC player under rules the double-dummy solver cannot hold (two
    decks beyond its cards in play: ``solver.limits``), before any hand is played."""
    for p in policies.by_kind()["play"]:
        if p.builtin is not None and p.builtin.module in ("pimc", "dd"):
            require_solvable(rules, "play", f"the {p.builtin.name} play policy")
        if p.builtin is not None and p.builtin.module == "dd":
            require_dd(rules, "play")


def run_chunk(
    rules: Rules,
    policies: PolicySet,
    seed: int,
    offset: int,
    n: int,
    dealer: int | None = None,
    conditions: Conditions | None = None,
    trace: bool = False,
    direct: bool = True,
    indices: np.ndarray | None = None,
    fixed_per_hand: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play hands offset..offset+n-1, or (``indices``) the hands of those indices, each
    the very hand it is in a range (the same cards and streams); ``offset`` and
    ``n`` are then ignored. Return (result rows, trace rows). ``fixed_per_hand``
    ([hand, MAX_PLAYERS] card masks, with ``indices``): each hand's own fixed cards
    per seat, in place of the conditions' (the advisor's deals drawn from pools).

    ``direct=False`` calls built-in policies through their function pointers
    like user policies (tests check both paths give the same bits).
    """
    job = ChunkJob(policies, offset, n, indices, fixed_per_hand)
    return run_chunks(rules, [job], seed, dealer, conditions, trace, direct)[0]


class ChunkJob(NamedTuple):
    """One ``run_chunk`` call's own arguments, for ``run_chunks``."""

    policies: PolicySet
    offset: int = 0
    n: int = 0
    indices: np.ndarray | None = None
    fixed_per_hand: np.ndarray | None = None


def seat_of_dealer(rules: Rules, dealer: int | None) -> int:
    """The dealer's seat: None is the last seat (every command's default); a seat the
    table lacks is refused (the kernel would deal to it)."""
    if dealer is None:
        return rules.players - 1
    if not 0 <= dealer < rules.players:
        raise ValueError(f"dealer {dealer} is not a seat of {rules.players} players")
    return dealer


def run_chunks(
    rules: Rules,
    jobs: Sequence[ChunkJob],
    seed: int,
    dealer: int | None = None,
    conditions: Conditions | None = None,
    trace: bool = False,
    direct: bool = True,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Several ``run_chunk`` calls at once, under the same rules, seed, dealer and
    conditions: each job's (result rows, trace rows), bit for bit its own call's.

    The jobs' pieces share the threads together (``threads.run_pieces``): the
    advisor plays each candidate bid on the few deals a chunk of a slow player
    holds, and one call at a time left a core idle (a single deal is one piece)."""
    dealer = seat_of_dealer(rules, dealer)
    cond = conditions or Conditions()
    cond.check(rules)
    for job in jobs:
        check_solver_players(rules, job.policies)
    kern = _kernel(rules)
    common = (rules.to_array(), np.uint64(seed % (1 << 64)))  # the rules, the seed
    results, pieces, job_args = [], [], []
    for job in jobs:
        offset, n = job.offset, job.n
        setup = cond.to_setup(dealer, offset)
        if job.indices is not None:  # the kernel reads hand i's index at setup[S_LEN + i]
            n = len(job.indices)
            setup[L.S_LISTED] = L.LISTED_INDICES
            listed = np.asarray(job.indices, dtype=np.int64)
            if job.fixed_per_hand is not None:  # then its masks follow each index
                setup[L.S_LISTED] = L.LISTED_FIXED
                masks = np.asarray(job.fixed_per_hand, dtype=np.uint64).view(np.int64)
                listed = np.column_stack([listed, masks.reshape(n, L.MAX_PLAYERS)]).ravel()
            setup = np.concatenate([setup, listed])
            offset = 0
        elif job.fixed_per_hand is not None:
            raise ValueError("fixed_per_hand goes with indices")
        # empty, not zeros: play_hand writes every field of its rows first thing, so
        # zeroing them (17 MB a chunk) is wasted work (measured: about 1% of W2/W3)
        out = np.empty((n, L.row_len(rules.decks)), dtype=np.int32)
        tr = np.empty((n if trace else 0, L.trace_len(rules.decks)), dtype=np.int64)
        tables = job.policies.kernel_arrays(rules, direct)
        results.append((out, tr))
        job_args.append((kern, common, setup, offset, tables, out, tr, trace))
        pieces += [partial(_play_piece, *job_args[-1], lo, hi) for lo, hi in ranges(n)]
    if len(jobs) > 1 and any(_memo_seats(j.policies) for j in jobs):
        pieces = _deal_pieces(rules, jobs, job_args)
    with warnings.catch_warnings(), _policy_exceptions([j.policies for j in jobs]):
        warnings.simplefilter("ignore")
        run_pieces(pieces)
    for job, (out, _), args in zip(jobs, results, job_args, strict=True):
        check_errors(out, job.policies, rules)
        check_params_kept(job.policies, args[4][2], rules)
    return results


def _memo_seats(policies: PolicySet) -> list[tuple[int, int]]:
    """The (seat, parameter slot) of each play policy the engine may lend a memo of
    solves (``Builtin.memo_slot``: pimc)."""
    return [
        (s, p.builtin.memo_slot)
        for s, p in enumerate(policies.play)
        if p.builtin is not None and p.builtin.memo_slot >= 0
    ]


def _deal_pieces(rules: Rules, jobs: Sequence[ChunkJob], job_args: list[tuple]) -> list:
    """``run_chunks``' pieces when a seat plays pimc: one piece a deal, playing that deal
    for every job that holds it, one job after the other on one thread, with one memo
    of solves lent to them all (policies/pimc_memo.py). PIMC's solves do not read the
    bid, so the hands of a deal at several bids share most of them; each job's rows
    are still bit for bit its own (a hit gives the very values a solve would).
    The deals with the most hands go first, so that the threads finish together."""
    by_deal: dict[int, list[tuple[int, int]]] = {}
    for j, job in enumerate(jobs):
        idx = job.indices if job.indices is not None else range(job.offset, job.offset + job.n)
        for row, h in enumerate(np.asarray(idx, dtype=np.int64).tolist()):
            by_deal.setdefault(h, []).append((j, row))
    seats = [_memo_seats(job.policies) for job in jobs]
    groups = sorted(by_deal.values(), key=len, reverse=True)
    return [partial(_play_deal, rules, job_args, seats, g) for g in groups]


def _play_deal(rules: Rules, job_args: list[tuple], seats: list, group: list[tuple[int, int]]):
    """One deal's hands (each job's row: ``_play_piece`` on the job's arguments), with
    one memo lent to every pimc seat."""
    memo = _new_memo(rules, len(group))
    lent: dict[int, tuple] = {}
    for j, row in group:
        args = lent.get(j)
        if args is None:  # the job's own arguments, its parameters with the memo's address
            kern, common, setup, offset, (table, ids, params), out, tr, trace = job_args[j]
            params = _lending(params, seats[j], memo)
            args = lent[j] = (kern, common, setup, offset, (table, ids, params), out, tr, trace)
        _play_piece(*args, row, row + 1)
    _count_memo(memo)


def _new_memo(rules: Rules, hands: int) -> np.ndarray:
    """A memo for the pimc decisions of ``hands`` hands of one deal."""
    from cinch_sim.policies.pimc_memo import MEMO_SAMPLES, new_memo

    return new_memo(hands * rules.players * rules.hand_size, MEMO_SAMPLES, rules.hand_size)


def _lending(params: np.ndarray, seats: list[tuple[int, int]], memo: np.ndarray) -> np.ndarray:
    """A copy of the kernel's ``params`` with ``memo``'s address in each seat's slot."""
    address = float(memo.ctypes.data)  # a parameter is a float64: exact below 2**53
    if address >= 2**53:
        raise RuntimeError("a memo's address does not fit a parameter slot")
    params = params.copy()
    for s, slot in seats:
        params[L.KIND_PLAY, s, slot] = address
    return params


def _count_memo(memo: np.ndarray) -> None:
    from cinch_sim.policies.pimc_memo import M_HITS, M_MISSES

    with _memo_lock:
        MEMO_COUNTS["hits"] += int(memo[M_HITS])
        MEMO_COUNTS["solved"] += int(memo[M_MISSES])


# PIMC's decisions read from a lent memo and solved, since the process started (tests
# and scripts/bench_advisor.py read them)
MEMO_COUNTS = {"hits": 0, "solved": 0}
_memo_lock = threading.Lock()


def _play_piece(kern, common, setup, offset, tables, out, tr, trace, lo: int, hi: int) -> None:
    """A job's hands lo..hi-1 into its rows lo..hi-1 (one of ``run_chunks``' pieces)."""
    rules_array, seed = common
    part = tr[lo:hi] if trace else tr
    kern(rules_array, setup, seed, np.int64(offset + lo), np.int64(hi - lo), *tables, out[lo:hi],
         part)  # fmt: skip


class Replayer:
    """Single hands, each with its own deck and forced contract, the kernel's arguments
    built once (a card-value experiment replays hundreds of thousands of hands:
    building the policy tables and the rules vector for each cost about 130 us, ten
    times a heuristic hand). Thread-safe: every call has its own setup and row."""

    def __init__(
        self, rules: Rules, policies: PolicySet, seed: int, dealer: int | None = None
    ) -> None:
        dealer = seat_of_dealer(rules, dealer)
        check_solver_players(rules, policies)
        self.rules = rules
        self.policies = policies
        self.dealer = dealer
        self.kern = _kernel(rules)
        self.table, self.ids, self.params = policies.kernel_arrays(rules, True)
        self.rules_array = rules.to_array()
        self.seed = np.uint64(seed % (1 << 64))
        self.base = Conditions().to_setup(dealer, 0)
        self.base[L.S_DECK_GIVEN] = 1
        self.width = L.row_len(rules.decks)
        self.no_trace = np.empty((0, L.trace_len(rules.decks)), dtype=np.int64)
        self.memo_seats = _memo_seats(policies)
        # each hand checks its user policies' params against them as given
        self.given = policies.params(rules) if _user_seats(policies) else None

    def play_deal(
        self, index: int, decks: list[list[int]], maker: int, trump: int, bid: int
    ) -> list[np.ndarray]:
        """``play`` for each of ``decks``, hand ``index`` dealt as each. A seat that plays
        pimc is lent one memo for them all: a card exchanged between two hands leaves
        the other seats' view of the first tricks unchanged (both cards unseen to them),
        so their solves are shared until it shows; every row is bit for bit as alone."""
        if not self.memo_seats:
            return [self.play(index, d, maker, trump, bid) for d in decks]
        memo = _new_memo(self.rules, len(decks))
        params = _lending(self.params, self.memo_seats, memo)
        rows = [self.play(index, d, maker, trump, bid, params) for d in decks]
        _count_memo(memo)
        return rows

    def play(
        self, index: int, deck: list[int], maker: int, trump: int, bid: int, params=None
    ) -> np.ndarray:
        """Hand ``index`` (its random streams) dealt as ``deck`` (52 faces, or 104 with
        two decks), ``maker`` bidding ``bid`` in ``trump``: its result row (``params``:
        the kernel's, a memo lent: ``play_deal``)."""
        if len(deck) != 52 * self.rules.decks:
            raise ValueError(f"a given deck must hold {52 * self.rules.decks} cards")
        setup = self.base.copy()
        setup[L.S_DECK : L.S_DECK + 52] = deck[:52]
        if self.rules.decks == 2:
            setup[L.S_DECK2 : L.S_DECK2 + 52] = deck[52:]
        setup[L.S_FORCE_MAKER] = maker
        setup[L.S_FORCE_TRUMP] = trump
        setup[L.S_FORCE_BID] = bid
        setup[L.S_HAND_OFFSET] = index
        out = np.empty((1, self.width), dtype=np.int32)
        # no warnings filter here: catch_warnings is not thread-safe, and the kernel
        # is compiled already (_kernel, in __init__)
        with _policy_exceptions(self.policies):
            self.kern(self.rules_array, setup, self.seed, np.int64(index), np.int64(1),
                      self.table, self.ids, self.params if params is None else params, out,
                      self.no_trace)  # fmt: skip
        if out[0, L.H_ERROR]:
            check_errors(out, self.policies, self.rules)
        if self.given is not None:
            check_params_kept(self.policies, self.params, self.rules, self.given)
        return out[0]


def _games_kernel(rules: Rules):
    return _compiled("play_games2" if rules.decks == 2 else "play_games")


def run_deals(
    rules: Rules, seed: int, offset: int, n: int, dealer: int | None = None
) -> np.ndarray:
    """Only shuffle and deal hands offset..offset+n-1 (docs/benchmarks.md W1): the same cards
    as ``run_chunk`` deals them, as [hand, seat] card masks (with two decks, of the
    faces each seat holds at least once)."""
    kern = _compiled("deal_hands2" if rules.decks == 2 else "deal_hands")
    out = np.empty((n, rules.players), dtype=np.uint64)  # the kernel fills every seat
    dealer = seat_of_dealer(rules, dealer)
    args = (rules.to_array(), Conditions().to_setup(dealer, offset), np.uint64(seed % (1 << 64)))
    run_split(lambda lo, hi: kern(*args, np.int64(offset + lo), out[lo:hi]), n)
    return out


HAND_STRIDE = checks.MAX_GAME_HANDS + 1  # hand h of game g: hand index g * HAND_STRIDE + h


def game_deals(rules: Rules, seed: int, games: np.ndarray, n_hands: int) -> np.ndarray:
    """The first ``n_hands`` deals of each game index in ``games``, as ``run_games``
    deals them, with dealer 0: [game, hand, seat] card masks. Under dealer d seat s
    holds what seat (s - d) mod players holds here (the deal turns with the dealer).
    One thread, one kernel call a game: the caller has few hands a game to deal."""
    kern = _compiled("deal_hands2" if rules.decks == 2 else "deal_hands")
    out = np.empty((len(games), n_hands, rules.players), dtype=np.uint64)
    ra, setup = rules.to_array(), Conditions().to_setup(0, 0)
    s = np.uint64(seed % (1 << 64))
    for i, g in enumerate(games):
        kern(ra, setup, s, np.int64(int(g) * HAND_STRIDE), out[i])
    return out


def run_games(
    rules: Rules,
    policies: PolicySet,
    seed: int,
    offset: int,
    n: int,
    first_dealer: int | None = None,
    max_hands: int = 256,
    trace: bool = False,
    direct: bool = True,
    streams: list[int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play games offset..offset+n-1 to the target.

    Returns (game rows G_*, hand rows [game, hand, H_*], trace [game, hand, T_*]).
    Game g's deals depend only on (seed, g), so two calls with the same seed and
    offsets deal the same cards whatever the policies: duplicate matches.
    ``first_dealer`` None cuts for the first dealer from the game's own stream.
    ``streams`` numbers each seat's policy random stream (default 1 + seat).
    """
    if not 1 <= max_hands < HAND_STRIDE:
        raise ValueError(f"max_hands must be 1..{HAND_STRIDE - 1}")
    check_solver_players(rules, policies)
    kern = _games_kernel(rules)
    games = np.zeros((n, L.G_LEN), dtype=np.int32)
    hands = np.zeros((n, max_hands, L.row_len(rules.decks)), dtype=np.int32)
    tr = np.zeros((n if trace else 0, max_hands, L.trace_len(rules.decks)), dtype=np.int64)
    cond = Conditions(streams=streams)
    setup = cond.to_setup(-1 if first_dealer is None else first_dealer, offset)
    table, ids, params = policies.kernel_arrays(rules, direct)
    args = (rules.to_array(), setup, np.uint64(seed % (1 << 64)))

    def play(lo: int, hi: int) -> None:
        part = tr[lo:hi] if trace else tr
        kern(*args, np.int64(offset + lo), np.int64(HAND_STRIDE), table, ids, params,
             games[lo:hi], hands[lo:hi], part)  # fmt: skip

    with warnings.catch_warnings(), _policy_exceptions(policies):
        warnings.simplefilter("ignore")
        run_split(play, n)
    played = hands.reshape(-1, hands.shape[2])
    check_errors(played, policies, rules)
    check_params_kept(policies, params, rules)
    return games, hands, tr


@contextmanager
def _policy_exceptions(policies: PolicySet | Sequence[PolicySet]):
    """An exception raised inside a user policy reaches us from the compiled kernel as a
    SystemError with the policy's own exception chained; name the user policies (of
    every set played at once: ``run_chunks``)."""
    try:
        yield
    except (SystemError, ValueError, ZeroDivisionError, IndexError, AssertionError) as exc:
        cause = exc.__cause__ or exc.__context__ or exc
        seats: dict[tuple[str, str], list[int]] = {}  # one entry a policy, its seats listed
        sets = [policies] if isinstance(policies, PolicySet) else policies
        for kind, pols in (kv for ps in sets for kv in ps.by_kind().items()):
            for seat, p in enumerate(pols):
                if p.builtin is None and seat not in seats.get((kind, p.spec), []):
                    seats.setdefault((kind, p.spec), []).append(seat)
        users = [
            f"{kind} policy {spec!r} at seat{'s' if len(at) > 1 else ''} "
            + ", ".join(str(s) for s in at)
            for (kind, spec), at in seats.items()
        ]
        where = "; ".join(users) if users else "a built-in policy"
        why = ""
        if isinstance(cause, IndexError):  # user policies run with their indexes checked
            why = (
                f": past the end of an array it was given, obs {L.OBS_LEN} slots, "
                f"params {N_PARAMS}, scratch {N_SCRATCH}, rng 1"
            )
        raise PolicyError(
            f"a policy raised {type(cause).__name__}: {cause}{why} (user policies in play: {where})"
        ) from None


def error_value(row: np.ndarray) -> int:
    """What the broken policy of a hand row returned, all 64 bits (the kernel's
    ``_fail`` stores it in two int32 halves).

    >>> row = np.zeros(L.H_LEN, np.int32)
    >>> row[L.H_ERROR_VALUE_HIGH], row[L.H_ERROR_VALUE] = 1 << 30, 0
    >>> error_value(row) == 1 << 62
    True
    """
    return _joined(row, L.H_ERROR_VALUE, L.H_ERROR_VALUE_HIGH)


def _joined(row: np.ndarray, low: int, high: int) -> int:
    """An int64 the kernel stored in two int32 slots of a row (low, then high bits)."""
    return (int(row[high]) << 32) | (int(row[low]) & 0xFFFFFFFF)


def _user_seats(policies: PolicySet) -> list[tuple[int, str, int, str]]:
    """(kind's place in the parameter array, kind, seat, spec) of each user policy."""
    return [
        (k, kind, s, p.spec)
        for k, (kind, pols) in enumerate(policies.by_kind().items())
        for s, p in enumerate(pols)
        if p.builtin is None
    ]


def check_params_kept(
    policies: PolicySet, params: np.ndarray, rules: Rules, given: np.ndarray | None = None
) -> None:
    """The user policies' rows of ``params`` as ``given`` (``policies.params``), or a
    PolicyError naming the policy that wrote its own: the vector is the run's, shared
    by every hand a thread plays, so a value written there reaches later hands, which
    then depend on the thread count and the chunks (docs/policies.md). Built-ins are
    not checked: the engine lends pimc a memo there. A policy set that owns a
    persistent array (``params`` returns that array each call) compares it with
    itself: the tests' scripted policies record there on purpose."""
    users = _user_seats(policies)
    if users and given is None:
        given = policies.params(rules)
    for k, kind, s, spec in users:
        if not np.array_equal(params[k, s], given[k, s], equal_nan=True):
            raise PolicyError(
                f"{kind} policy {spec!r} at seat {s} wrote its params: they are read-only "
                "(one vector for every hand, so a write would make the results depend on "
                "the threads and the chunks); keep what a hand needs in scratch"
            )


def check_errors(out: np.ndarray, policies: PolicySet, rules: Rules) -> None:
    """The first hand a policy broke, as one PolicyError naming the policy, the seat,
    what it returned and what the rules allowed there, as far as the row tells."""
    bad = np.flatnonzero(out[:, L.H_ERROR])
    if bad.size == 0:
        return
    row = out[bad[0]]
    dealer = int(row[L.H_DEALER])
    kind = L.KIND_NAMES[row[L.H_ERROR_KIND]]
    seat = int(row[L.H_ERROR_SEAT])
    value = error_value(row)
    spec = policies.by_kind()[kind][seat].spec
    what = {
        "bid": _illegal_bid,
        "trump": _illegal_suit,
        "discard": _illegal_keep,
        "play": _illegal_card,
    }[kind](row, rules, seat, value)
    raise PolicyError(
        f"{kind} policy {spec!r} at seat {seat} ({seat_name(seat, dealer, rules.players)}) "
        f"returned {what}"
    )


def _illegal_bid(row: np.ndarray, rules: Rules, seat: int, value: int) -> str:
    """The bid, and the legal ones then: above the high bid of the calls so far (the
    row's), bid_min..bid_max, and pass unless the dealer is stuck (dealer_forced_any)."""
    bids = [int(b) for b in row[L.H_BIDS : L.H_BIDS + rules.players]]  # -2 not yet, -1 pass
    lo = max(rules.bid_min, max(bids) + 1)
    stuck = (
        rules.all_pass == "dealer_forced_any"
        and seat == int(row[L.H_DEALER])
        and all(b == -1 for s, b in enumerate(bids) if s != seat)
    )
    span = f"{lo}..{rules.bid_max}" if lo < rules.bid_max else f"{lo}"
    if value == 0:  # a bid policy passes by returning 0 (bit 0 of legal)
        return (
            "a pass, which its legal mask did not allow (under all_pass=dealer_forced_any "
            f"the dealer may not pass once all others have: he bids {span})"
        )
    legal = span if stuck else "pass only" if lo > rules.bid_max else f"pass (0) or {span}"
    return f"an illegal bid {value} (legal here: {legal})"


def _illegal_suit(row: np.ndarray, rules: Rules, seat: int, value: int) -> str:
    names = ", ".join(SUIT_NAMES[s] for s in SUITS)
    return f"an illegal suit {value} (a suit is 0..3: {names})"


def _illegal_card(row: np.ndarray, rules: Rules, seat: int, value: int) -> str:
    """The card, and the legal cards the policy was given (the kernel keeps their mask in
    the row); a number past 51 that is one bit is the mask of a card, not its number."""
    legal_mask = _joined(row, L.H_ERROR_LEGAL, L.H_ERROR_LEGAL_HIGH)
    legal = " ".join(format_card(c) for c in range(52) if legal_mask >> c & 1)
    if 0 <= value < 52:
        return f"an illegal card {format_card(value)} (legal here: {legal})"
    mask = value & (2**64 - 1)
    if mask and mask & (mask - 1) == 0 and mask.bit_length() <= 52:
        card = format_card(mask.bit_length() - 1)
        return (
            f"{value}, the mask of {card}, not a card: a play policy returns the card's "
            f"number, 0..51 (lowbit_index(mask); legal here: {legal})"
        )
    return f"an illegal card {value} (a card is a number 0..51; legal here: {legal})"


def _illegal_keep(row: np.ndarray, rules: Rules, seat: int, value: int) -> str:
    """The cards kept, and what the question asked: the keep after a widow, the robber's
    take (the seat that robs under the rules never discards before the draw) or the
    discard before it."""
    mask = value & (2**64 - 1)
    cards = " ".join(format_card(c) for c in range(52) if mask >> c & 1) or "no card"
    extra = ", and bits past card 51" if mask >> 52 else ""
    kept = f"(mask {mask:#x}: {cards}{extra})"
    hs = rules.hand_size
    passes = " over its two passes" if rules.decks == 2 else ""
    robber = {"maker": int(row[L.H_MAKER]), "dealer": int(row[L.H_DEALER])}.get(rules.robber)
    hand = _joined(row, L.H_ERROR_LEGAL, L.H_ERROR_LEGAL_HIGH)  # what it was asked about
    trump = int(row[L.H_TRUMP])
    held = bin(hand & rules.trump_cards(trump)).count("1") if 0 <= trump < 4 else 0
    why = ""
    if 0 <= value < 52 and hand >> value & 1 and bin(mask).count("1") < hs:
        why = (
            f"; {value} looks like the number of {format_card(value)}: a discard returns "
            "the mask of the cards it keeps"
        )
    elif foreign := mask & ~hand & (2**52 - 1):
        names = " ".join(format_card(c) for c in range(52) if foreign >> c & 1)
        why = f"; it keeps {names}, not in the hand it was asked about"
    elif held > hs:
        why = f"; it holds {held} trumps ({SUIT_NAMES[SUITS[trump]]}): exactly {hs} of them stay"
    if rules.widow:
        return (
            f"an illegal set of cards to keep after picking up its widow {kept}: keep exactly "
            f"{hs} cards, as many of them trumps as it holds (up to {hs}){why}"
        )
    if seat == robber:
        return (
            f"an illegal set of cards to keep when robbing the pack {kept}: the robber "
            f"keeps exactly {hs} cards{passes}, as many of them trumps as he holds (up to "
            f"{hs}){why}"
        )
    rule = ", and no non-trump (must_discard_nontrumps)" if rules.must_discard_nontrumps else ""
    if rules.shortage == "limit_discards":
        rule += ", and at least what the stock cannot replace (shortage=limit_discards)"
    return (
        f"an illegal set of cards to keep in the discard before the draw {kept}: keep "
        f"every trump (exactly {hs} when holding more) and at most {hs} cards{passes}{rule}"
        f"{why}"
    )


def iter_chunks(
    rules: Rules,
    policies: PolicySet,
    hands: int,
    seed: int,
    dealer: int | None = None,
    chunk: int = 65536,
    threads: int | None = None,
    conditions: Conditions | None = None,
    trace: bool = False,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (rows, trace) chunk by chunk; results do not depend on chunk or threads."""
    if hands < 0:
        raise ValueError(f"hands must be non-negative, got {hands}")
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    with using(threads), chunk_boundaries() as interrupts:
        done = 0
        while done < hands:
            interrupts.check()  # Ctrl-C stops here, never inside a chunk's processing
            n = min(chunk, hands - done)
            yield run_chunk(rules, policies, seed, start + done, n, dealer, conditions, trace)
            done += n
            if progress is not None:
                progress(n)


PolicySpec = SeatSpecs  # the name the API has always used


def prepare_run(
    hands: int,
    seed: int,
    rules: Rules | dict[str, Any] | None,
    dealer: int,
    bid: PolicySpec,
    trump: PolicySpec,
    discard: PolicySpec,
    play: PolicySpec,
    defaults: Mapping[str, str] | None = None,
) -> tuple[Rules, PolicySet, dict[str, Any]]:
    """Checked rules and policies, and the settings every output records, for a
    run of independent hands (``simulate`` and ``analyse`` share it).

    Every error names the argument (``hands: 0 is not a positive whole
    number``), in the words the command line uses for its option.
    """
    hands = checks.count(hands, "hands")
    seed = checks.seed(seed)
    with checks.named("rules", RulesError):
        r = resolve_rules(rules)
    dealer = checks.seat(dealer, r.players, "dealer")
    policies = checked_policies(r.players, bid, trump, discard, play, defaults)
    settings = {
        "version": __version__,
        "hands": hands,
        "seed": seed,
        "dealer": dealer,
        "rules": r.describe(),
        "policies": policies.describe(),
    }
    digests = policies.digests()
    if digests:  # only then: a run of built-ins records what it always has (and resumes)
        settings["policy_digests"] = digests
    return r, policies, settings


def described_specs(
    players: int = 4,
    bid: SeatSpecs = "heuristic",
    trump: SeatSpecs = "heuristic",
    discard: SeatSpecs = "heuristic",
    play: SeatSpecs = "heuristic",
    defaults: Mapping[str, str] | None = None,
) -> dict[str, list[str]]:
    """What ``PolicySet.from_specs(...).describe()`` gives, with no policy loaded: a
    stored study's question is told without compiling its players (PIMC's take a
    minute or two on a first run)."""
    defaults = defaults or {}
    return {
        kind: [s.strip() for s in seat_specs(kind, spec, players, defaults.get(kind, "heuristic"))]
        for kind, spec in zip(KINDS, (bid, trump, discard, play), strict=True)
    }


def checked_policies(
    players: int,
    bid: PolicySpec,
    trump: PolicySpec,
    discard: PolicySpec,
    play: PolicySpec,
    defaults: Mapping[str, str] | None = None,
) -> PolicySet:
    """``PolicySet.from_specs`` with each error naming its argument (``play: unknown
    play policy 'x' ...``), as the command line names its option."""
    defaults = defaults or {}
    loaded = {}
    for kind, spec in zip(KINDS, (bid, trump, discard, play), strict=True):
        with checks.named(kind, PolicyError):
            specs = seat_specs(kind, spec, players, defaults.get(kind, "heuristic"))
            loaded[kind] = _load_each(kind, specs)
    return PolicySet(**loaded)


def _load_each(kind: str, specs: list[str]) -> list[Policy]:
    """The seats' policies, each distinct spec loaded once."""
    cache: dict[str, Policy] = {}
    for s in specs:
        if s not in cache:
            cache[s] = load_named_policy(kind, s)
    return [cache[s] for s in specs]

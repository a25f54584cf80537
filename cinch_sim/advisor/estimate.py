"""The advisor's estimates: "with these nine cards, in this seat, what should I bid,
in which trump?", answered by conditional simulation, as bridge dealers and poker
equity calculators do:

1. **Conditional dealing.** The player's cards (and any cards known to be in
   another seat's hand) are fixed; the rest of the deck is dealt at random by
   the kernel. Bids already made before the player are imposed by rejection
   sampling: a deal is kept only when each earlier seat's bidding policy,
   holding the cards it was dealt, makes exactly the bid that was made. The
   acceptance rate is reported; constraints that no deal meets (or too few)
   raise ``AdvisorError``.
2. **Estimates.** For each trump suit the player is made the maker at that
   trump and the deal is played out. The same deals (same seed, same hand
   indices) serve every suit and every bid: common random numbers, so the
   differences between suits are sharp. When the discard and play policies
   ignore the contract (every built-in but pimc) one playout per deal and suit
   serves every bid: P(make b) = P(side's points >= b). Otherwise each
   contract is played separately on the same deals.
3. **Advice.** The best trump (the suit whose best legal bid has the highest
   expected score), the recommended bid (the highest legal bid whose make
   probability reaches ``risk``), the bid with the best expected score, and
   pass when nothing is worth it.
4. **Precision on demand.** Rounds of deals until every reported probability's
   95% Wilson half-width is at most ``precision``, or ``max_hands`` deals.

``Advice`` holds the counts and the numbers derived from them; ``present``
turns them into text, JSON, a DataFrame and a chart. Only numpy is imported
here at load time; the kernel is loaded by the first ``advise`` call.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.advisor.query import AdvisorError, Query, make_query
from cinch_sim.analysis.intervals import Z95, wilson
from cinch_sim.cards import SUITS, format_card
from cinch_sim.engine.threads import check as check_threads
from cinch_sim.engine.threads import using
from cinch_sim.rules import Rules
from cinch_sim.views import Tables

SAFE_RISK = 0.7
BID_DEFAULT = {"bid": "traditional"}  # earlier bids are read as people bid
DEFAULT_MAX_HANDS = 200_000
MIN_ACCEPTANCE = 1e-4  # below this the bids before the player are "too rare to sample"
MIN_PROBE = 50_000  # deals tried before a zero acceptance is called impossible
CHUNK = 65_536
REJECT_CHUNK = 131_072  # rejected hands cost little: bigger kernel calls


@dataclass(repr=False)
class Advice(Tables):
    """Counts from the simulated deals and the numbers derived from them (``present``
    shows them as text, JSON, a DataFrame or a chart; ``.table()`` is one row per
    trump and bid, ``.table("suits")`` one per trump)."""

    query: Query
    risk: float
    precision_target: float
    max_hands: int
    seed: int
    policies: dict[str, list[str]]
    contract_aware: bool
    contracts: list[int]  # the contract each playout group was played at
    joint: np.ndarray  # [suit, group, own points, opponents' points] deal counts
    pedro: np.ndarray  # [suit, group, pedro] deals the side saved it (Rules.pedros order)
    hands: int = 0  # accepted deals (each played once per suit and group)
    tried: int = 0  # deals dealt, rejected ones included
    played: int = 0  # kernel hands run in all
    rounds: int = 0
    seconds: float = 0.0
    safe_risk: float = SAFE_RISK

    # ---- views (advisor.present builds them) ----------------------------------
    def table_names(self) -> tuple[str, ...]:
        return ("bids", "suits")

    def _table(self, name: str):
        from cinch_sim.advisor.present import advice_frame, suits_frame

        return advice_frame(self) if name == "bids" else suits_frame(self)

    def headline(self) -> str:
        from cinch_sim.advisor.present import advice_line

        q = self.query
        hand = " ".join(format_card(c) for c in q.hand)
        return f"Hand {hand}, seat {q.seat}, dealer seat {q.dealer}; {self.hands:,} deals\n" + (
            advice_line(self)
        )

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-ready values (what ``cinch-sim advise --format json`` prints)."""
        from cinch_sim.advisor.present import advice_dict

        return advice_dict(self)

    def text(self) -> str:
        """The table ``cinch-sim advise`` prints."""
        from cinch_sim.advisor.present import advice_table

        return advice_table(self)

    # ---- per-estimate arrays -----------------------------------------------
    @property
    def bids(self) -> np.ndarray:
        """Every bid level, the columns of the [suit, bid] arrays."""
        return np.array(self.query.bid_levels)

    def group_of(self, b: int) -> int:
        """The playout group that holds contract ``b`` (0 unless contract-aware)."""
        return self.contracts.index(b) if self.contract_aware else 0

    def own_hist(self) -> np.ndarray:
        """[suit, group, points]: deals in which the side took that many points."""
        return self.joint.sum(axis=3)

    def make_counts(self) -> np.ndarray:
        """[suit, bid]: deals in which the side took at least the bid."""
        h = self.own_hist()
        tail = np.cumsum(h[:, :, ::-1], axis=2)[:, :, ::-1]  # tail[s, g, p] = #(points >= p)
        out = np.zeros((4, len(self.bids)), np.int64)
        for i, b in enumerate(self.bids):
            out[:, i] = tail[:, self.group_of(int(b)), b]
        return out

    def p_make(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, bid] make rates with their 95% Wilson bounds."""
        k = self.make_counts()
        n = max(self.hands, 1)
        lo, hi = wilson(k, self.hands)
        return k / n, lo, hi

    def pedro_rates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, pedro] at the reference contract (the only one unless contract-aware)."""
        k = self.pedro[:, 0, :]
        lo, hi = wilson(k, self.hands)
        return k / max(self.hands, 1), lo, hi

    def score_change(self) -> dict[str, np.ndarray]:
        """Expected score change of the side, and of side minus opponents, per [suit, bid]."""
        r = self.query.rules
        T = self.joint.shape[2]
        own_pts = np.arange(T)[:, None]
        opp_pts = np.arange(self.joint.shape[3])[None, :]
        diff = r.scoring == "difference"
        ev = np.zeros((4, len(self.bids)))
        ev_sd = np.zeros_like(ev)
        margin = np.zeros_like(ev)
        n = max(self.hands, 1)
        for i, b in enumerate(self.bids):
            made = own_pts >= b
            own = np.where(made, own_pts, 0 if diff else -b) + 0 * opp_pts
            opp = opp_pts + np.where(made | (not diff), 0, b)
            for s in range(4):
                w = self.joint[s, self.group_of(int(b))]
                m = (w * own).sum() / n
                ev[s, i] = m
                ev_sd[s, i] = math.sqrt(max((w * own * own).sum() / n - m * m, 0.0))
                margin[s, i] = (w * (own - opp)).sum() / n
        half = Z95 * ev_sd / math.sqrt(n)
        return {"ev": ev, "ev_lo": ev - half, "ev_hi": ev + half, "ev_margin": margin}

    def mean_points(self) -> np.ndarray:
        """[suit]: the side's mean points (at the reference contract)."""
        h = self.own_hist()[:, 0, :]
        return (h * np.arange(h.shape[1])).sum(axis=1) / max(self.hands, 1)

    def precision_reached(self) -> float:
        """The widest 95% half-width among every reported probability."""
        _, lo, hi = self.p_make()
        _, plo, phi = self.pedro_rates()
        widths = [(hi - lo) / 2, (phi - plo) / 2]
        return float(max(np.nanmax(w) if w.size else 0.0 for w in widths))

    # ---- advice ------------------------------------------------------------
    def _highest_at(self, p_row: np.ndarray, level: float) -> int | None:
        """The highest legal bid made at least ``level`` of the time, or None."""
        legal = set(self.query.legal_bids)
        best = None
        for i, b in enumerate(self.bids):
            if int(b) in legal and p_row[i] >= level:
                best = int(b)
        return best

    def per_suit(self) -> list[dict[str, Any]]:
        """Per suit: the bids at ``risk`` and ``safe_risk`` and the best-EV legal bid."""
        p, _, _ = self.p_make()
        sc = self.score_change()
        legal = set(self.query.legal_bids)
        out = []
        for s in range(4):
            ev_bid = None
            for i, b in enumerate(self.bids):
                if int(b) not in legal:
                    continue
                if ev_bid is None or sc["ev_margin"][s, i] > sc["ev_margin"][s, ev_bid[1]] + 1e-12:
                    ev_bid = (int(b), i)
            out.append(
                {
                    "suit": s,
                    "recommended_bid": self._highest_at(p[s], self.risk),
                    "safe_bid": self._highest_at(p[s], self.safe_risk),
                    "max_ev_bid": None if ev_bid is None else ev_bid[0],
                    "max_ev": None if ev_bid is None else float(sc["ev"][s, ev_bid[1]]),
                    "max_ev_margin": None
                    if ev_bid is None
                    else float(sc["ev_margin"][s, ev_bid[1]]),
                }
            )
        return out

    @property
    def best_trump_index(self) -> int:
        """The suit whose best legal bid has the highest expected score (margin over the
        opponents), as a suit number (the rows of the [suit, bid] arrays); with no
        legal bid left, the suit with the most expected points."""
        suits = self.per_suit()
        mean = self.mean_points()
        if all(d["max_ev_margin"] is None for d in suits):
            return int(np.argmax(mean))
        return max(range(4), key=lambda s: (suits[s]["max_ev_margin"], mean[s]))

    @property
    def best_trump(self) -> str:
        """The best trump as its suit letter (``"S"``), as the text, the JSON and the
        table show it; ``best_trump_index`` is its row in the arrays."""
        return SUITS[self.best_trump_index]

    @property
    def recommended_bid(self) -> int | None:
        """In the best trump, the highest legal bid made at least ``risk`` of the time."""
        return self.per_suit()[self.best_trump_index]["recommended_bid"]

    @property
    def safe_bid(self) -> int | None:
        """In the best trump, the highest legal bid made at least ``safe_risk`` of the time."""
        return self.per_suit()[self.best_trump_index]["safe_bid"]

    @property
    def best_ev_bid(self) -> int | None:
        """In the best trump, the bid with the best expected score, if it gains points."""
        d = self.per_suit()[self.best_trump_index]
        if d["max_ev_bid"] is None or d["max_ev"] <= 0:
            return None
        return d["max_ev_bid"]


# ----------------------------------------------------------------- simulation
def advise(
    hand: str | Sequence,
    seat: int,
    dealer: int = 3,
    bids: str | Sequence | None = None,
    known: Iterable[str] | dict | None = None,
    rules: Rules | dict | None = None,
    bid: str | Sequence[str] = "traditional",
    trump: str | Sequence[str] = "heuristic",
    discard: str | Sequence[str] = "heuristic",
    play: str | Sequence[str] = "heuristic",
    risk: float = 0.5,
    precision: float = 0.01,
    max_hands: int = DEFAULT_MAX_HANDS,
    seed: int = 0,
    threads: int | None = None,
    contract_aware: bool | None = None,
    min_acceptance: float = MIN_ACCEPTANCE,
) -> Advice:
    """Simulate a hand's prospects at every trump and bid; return the ``Advice``.

    ``contract_aware=None`` decides from the policies (built-ins ignore the
    contract: one playout per deal and suit); ``True`` plays each contract.
    Raises ``AdvisorError`` (or ``CardError``/``PolicyError``) with a one-line
    message on bad input or constraints too rare to sample.
    """
    start = time.perf_counter()
    if not 0 < risk <= 1:
        raise AdvisorError(f"risk {risk} must be in (0, 1]")
    if not 0 < precision < 0.5:
        raise AdvisorError(f"precision {precision} must be in (0, 0.5)")
    if max_hands < 1:
        raise AdvisorError(f"max_hands {max_hands} must be at least 1")
    q = make_query(hand, seat, dealer, bids, known, rules)

    from cinch_sim.engine.run import checked_policies

    # seats a {seat: policy} leaves out bid as people do, like the default
    policies = checked_policies(q.rules.players, bid, trump, discard, play, BID_DEFAULT)
    aware = (not _contract_blind(policies)) if contract_aware is None else bool(contract_aware)
    contracts = q.bid_levels if aware else [0]
    T = q.rules.total_points + 1
    adv = Advice(
        query=q,
        risk=risk,
        precision_target=precision,
        max_hands=max_hands,
        seed=seed,
        policies=policies.describe(),
        contract_aware=aware,
        contracts=list(contracts),
        joint=np.zeros((4, len(contracts), T, T), np.int64),
        pedro=np.zeros((4, len(contracts), len(q.rules.pedros)), np.int64),
    )
    playouts = _Playouts(adv, policies)
    if threads is not None:
        try:
            check_threads(threads)
        except ValueError as exc:
            raise AdvisorError(str(exc)) from None
    with using(threads):
        _deal_until_precise(playouts, min_acceptance)
    adv.seconds = time.perf_counter() - start
    return adv


def _contract_blind(policies) -> bool:
    """Whether no discard or play policy reads the contract: the built-ins say
    (``Builtin.reads_contract``: pimc plays for it); user ones may read it."""
    return all(
        p.builtin is not None and not p.builtin.reads_contract
        for p in policies.discard + policies.play
    )


class _Playouts:
    """Plays an advice's deals at every suit and contract and adds them to its counts."""

    def __init__(self, adv: Advice, policies) -> None:
        from cinch_sim.engine.run import Conditions

        q = adv.query
        self.adv = adv
        self.policies = policies
        required = [b for _, b in q.bids]
        self.rejecting = bool(required)  # earlier bids to match: most deals are rejected
        fixed = q.fixed()
        self.conditions = [
            [
                Conditions(
                    fixed=fixed,
                    force_maker=q.seat,
                    force_trump=s,
                    force_bid=c,
                    required_bids=required,
                )
                for c in adv.contracts
            ]
            for s in range(4)
        ]

    def run(self, s: int, g: int, offset: int, n: int) -> np.ndarray:
        """Deals offset..offset+n-1 played at suit ``s`` and contract group ``g``."""
        from cinch_sim.engine.run import run_chunk

        adv = self.adv
        q = adv.query
        rows, _ = run_chunk(
            q.rules, self.policies, adv.seed, offset, n, q.dealer, self.conditions[s][g]
        )
        adv.played += n
        return rows

    def add(self, rows: np.ndarray, s: int, g: int) -> None:
        """Count the side's and the opponents' points, and the Pedros the side saved."""
        adv = self.adv
        r = adv.query.rules
        team = adv.query.team
        T = adv.joint.shape[2]
        own = rows[:, L.H_POINTS + team]
        opp = rows[:, L.H_POINTS : L.H_POINTS + r.teams].sum(axis=1) - own
        adv.joint[s, g] += np.bincount(own * T + opp, minlength=T * T).reshape(T, T)
        for j, (_, slot) in enumerate(r.pedros):
            adv.pedro[s, g, j] += int((rows[:, L.H_SLOT_TEAM + slot] == team).sum())

    def play_range(self, offset: int, n: int) -> None:
        """Deal offset..offset+n-1; play the accepted deals at every suit and contract."""
        adv = self.adv
        chunk = REJECT_CHUNK if self.rejecting else CHUNK
        done = 0
        while done < n and adv.hands < adv.max_hands:
            m = min(chunk, n - done)
            start_at = offset + done
            rows0 = self.run(0, 0, start_at, m)
            ok0 = rows0[:, L.H_REJECTED] == 0
            accepted = np.flatnonzero(ok0)
            room = adv.max_hands - adv.hands
            used = int(accepted[room]) if len(accepted) > room else m  # stop at max_hands
            keep = ok0[:used]
            if keep.any():
                self.add(rows0[:used][keep], 0, 0)
                for s in range(4):
                    for g in range(len(adv.contracts)):
                        if s == 0 and g == 0:
                            continue
                        rows = self.run(s, g, start_at, used)
                        if not np.array_equal(rows[:, L.H_REJECTED] == 0, keep):
                            raise RuntimeError("the accepted deals differ between suits")
                        self.add(rows[keep], s, g)
            adv.hands += int(keep.sum())
            adv.tried += used
            done += m


def _deal_until_precise(playouts: _Playouts, min_acceptance: float) -> None:
    """Rounds of deals until the precision target or ``max_hands`` is reached.

    Round 1 assumes the worst case (p = 1/2): P(make b) falls from about 1 to
    about 0 across the bids, so nearly every hand has an estimate near 1/2 and
    needs it all; one round then usually suffices. Later rounds are sized from
    the counts so far.
    """
    adv = playouts.adv
    precision = adv.precision_target
    max_hands = adv.max_hands
    rejecting = playouts.rejecting
    worst = _needed(np.array([0.0]), 0, precision)  # shrunk p = 1/2
    target = min(max_hands, worst)
    while True:
        want = target - adv.hands
        if rejecting:
            rate = (adv.hands + 1) / (adv.tried + 2) if adv.tried else 1.0
            tries = int(math.ceil(want / rate * 1.1)) if adv.tried else max(MIN_PROBE, 4 * want)
            tries = min(max(tries, 10_000), 50_000_000)
        else:
            tries = want
        playouts.play_range(adv.tried, tries)
        adv.rounds += 1
        if rejecting:
            _check_acceptance(adv, min_acceptance)
        if adv.hands >= max_hands or adv.precision_reached() <= precision:
            break
        k_all = np.concatenate([adv.make_counts().ravel(), adv.pedro[:, 0, :].ravel()])
        need = _needed(k_all, adv.hands, precision)
        target = min(max_hands, max(int(need * 1.05), adv.hands + max(200, adv.hands // 10)))


def _needed(k: np.ndarray, n: int, precision: float) -> int:
    """Deals that would bring the widest interval to ``precision`` (normal approximation
    with the proportion shrunk towards 1/2, so a zero count still asks for some deals)."""
    pt = (np.asarray(k, float) + 2) / (n + 4)
    var = float(np.max(pt * (1 - pt)))
    return int(math.ceil(Z95 * Z95 * var / (precision * precision)))


def _check_acceptance(adv: Advice, min_acceptance: float) -> None:
    """Refuse earlier bids that no deal (or too small a share of deals) matches."""
    bids = adv.query.bids_text()
    if adv.hands == 0 and adv.tried >= MIN_PROBE:
        raise AdvisorError(
            f"the bids before you ({bids}) are impossible or too rare to sample: "
            f"0 of {adv.tried:,} deals matched them under the bidding policies"
        )
    rate = adv.hands / max(adv.tried, 1)
    if adv.tried >= MIN_PROBE and rate < min_acceptance:
        raise AdvisorError(
            f"the bids before you ({bids}) are too rare to sample: {adv.hands:,} of "
            f"{adv.tried:,} deals matched ({rate:.4%}, below {min_acceptance:.4%})"
        )


def evaluate_hand(hand: str | Sequence, seat: int, dealer: int = 3, **kwargs: Any):
    """Like ``advise`` (same arguments) but returns the ``bids`` table as a DataFrame, one
    row per trump and bid: P(make) with its 95% interval, expected score change and its
    interval, with the advice in ``df.attrs``."""
    return advise(hand, seat, dealer, **kwargs).table("bids")

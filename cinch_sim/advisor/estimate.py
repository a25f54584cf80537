"""The advisor's estimates: "with these nine cards, in this seat, what should I bid,
in which trump?", answered by conditional simulation of the whole hand, auction
included, as bridge dealers and poker equity calculators do:

1. **Conditional dealing.** The player's cards (and any cards known to be in
   another seat's hand) are fixed; the rest of the deck is dealt at random by
   the kernel. Bids already made before the player are imposed by rejection
   sampling: a deal is kept only when each earlier seat's bidding policy (the
   ``bid_model``, by default the simulator's own bidder), holding the cards it
   was dealt, makes exactly the bid that was made. Passes known of the seats
   after the player keep only the deals where those seats pass too. The
   acceptance rate is reported; constraints that no deal meets (or too few)
   raise ``AdvisorError``.
2. **Every candidate bid, the auction played out.** For each candidate (pass
   and every legal bid) and each trump suit the player's seat gets the
   ``fixed`` bid and trump policies (bid b, name suit s) while every other seat
   keeps its own: the later seats may overbid, and the hand is played in the
   chosen suit only when the player ends as the maker. The same deals (same
   seed, same hand indices) serve every candidate and suit: common random
   numbers, so the differences between bids are sharp. Two savings leave the
   estimates as they are (``_Playouts`` says how, tests/test_advisor.py checks
   both): only the deals that fit the earlier bids are replayed, and where the
   other seats' discard and play policies are auction-blind a maker's hand is
   played once, at the top bid, in each suit, and scored at every bid that made
   him the maker.
3. **Estimates.** Per bid and suit: P(win the auction), P(make | maker) and the
   expected change of both sides' scores over the whole hand (being overbid
   and the defence's points included), and ``ev``, the expected margin (ours
   minus theirs) against passing on the same deals.
4. **Advice.** The best-EV bid (pass when no bid beats passing with 95%
   confidence: the lower end of its ev's interval must be above 0), in the suit
   where it is best, and beside it the safe bid: the highest legal bid whose
   make rate's lower 95% Wilson bound is at least ``risk``
   (``analysis.intervals.highest_safe``). A bid is judged only where the seat won
   the auction with it on at least ``MIN_MAKER_DEALS`` deals: a make rate from ten
   deals is no verdict, so with no bid judged the advice is to pass, and says why.
5. **Precision on demand.** Rounds of deals until every P(win) and P(win and
   make) 95% Wilson half-width is at most ``precision``, or ``max_hands`` deals.

``Advice`` holds the counts and the numbers derived from them; ``present``
turns them into text, JSON, a DataFrame and a chart. Only numpy is imported
here at load time; the kernel is loaded by the first ``advise`` call.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import checks
from cinch_sim import layout as L
from cinch_sim.advisor.query import AdvisorError, Query, make_query
from cinch_sim.analysis.intervals import TIE_POINTS, Z95, highest_safe, mean_interval, wilson
from cinch_sim.cards import SUITS, format_card
from cinch_sim.engine.threads import check as check_threads
from cinch_sim.engine.threads import using
from cinch_sim.rules import Rules
from cinch_sim.views import Tables

DEFAULT_RISK = 0.7
BID_MODEL = "heuristic"  # the simulator's default bidder reads the earlier bids
# and bids for a seat whose call the default never makes (a pass first to speak): how
# people bid, passing weak hands
FALLBACK_BIDDER = "traditional"
DEFAULT_MAX_HANDS = 200_000
MIN_ACCEPTANCE = 1e-4  # below this the bids before the player are "too rare to sample"
MIN_PROBE = 50_000  # deals tried before a zero acceptance is called impossible
CHUNK = 65_536
SLOW_CHUNK = 256  # the most deals a chunk holds when a seat plays slowly (pimc, dd)
SLOW_FIRST = 8  # a slow player's first chunk: later ones are sized to take CHUNK_SECONDS
CHUNK_SECONDS = 5.0  # so a progress line comes, and Ctrl-C stops, within seconds
REJECT_CHUNK = 131_072  # rejected hands cost little: bigger kernel calls
POOL_PROBE = 20_000  # hands dealt to measure that share
RARE_PROBE_AT = 1 << 40  # their indices: apart from the deals' own
POOL_MIN_SIZE = 4_000  # hands a pool holds: twice the deals wanted, at least this
POOL_CHUNK = 1_024  # pooled deals a chunk: drawing them can take a millisecond a deal
PASS = 0  # the candidate "pass" (the fixed bid policy's 0)
# Deals as the maker a bid needs before it is advised, best or safe: at 100 the 95%
# interval of a make rate near 70% is about +-9 points, narrow enough to tell a
# safe bid from a risky one; fewer, and a make rate of "100%" may be 3 deals of 3.
MIN_MAKER_DEALS = 100
# a candidate that fits the later passes on fewer deals than this share is rare: its
# interval is shown as it is, and it is neither chased for precision nor advised
COMMON_SHARE = 0.05


@dataclass(repr=False)
class Advice(Tables):
    """Counts from the simulated deals and the numbers derived from them (``present``
    shows them as text, JSON, a DataFrame or a chart; ``.table()`` is one row per
    trump and candidate bid, ``.table("suits")`` one per trump).

    The [suit, candidate] arrays have a column per ``candidates`` entry: 0 (pass)
    first, then every legal bid, lowest first."""

    query: Query
    risk: float
    precision_target: float
    max_hands: int
    seed: int
    policies: dict[str, list[str]]
    candidates: list[int]
    suits_run: list[int]
    n: np.ndarray  # [cand] deals accepted (earlier bids and later passes matched)
    win: np.ndarray  # [suit, cand] deals the player's seat became the maker
    make: np.ndarray  # [suit, cand] ... and made the contract
    own: np.ndarray  # [suit, cand] sum of the side's score changes
    opp: np.ndarray  # [suit, cand] sum of the opponents' (cut-throat: mean opponent's) changes
    diff: np.ndarray  # [suit, cand] sum over paired deals of margin(cand) - margin(pass)
    diff2: np.ndarray  # [suit, cand] sum of its squares
    paired: np.ndarray  # [suit, cand] deals accepted at both the candidate and pass
    points: np.ndarray  # [suit, points] the side's points as maker at the top bid
    pedro: np.ndarray  # [suit, key card] deals the side ended with it, at the top bid
    # [suit, cand, cand2] for bids 1 <= cand2 < cand, over deals accepted at both: the
    # sum of margin(cand) - margin(cand2), of its squares, and the deals (None: a study
    # stored before they were kept)
    between: np.ndarray | None = None
    between2: np.ndarray | None = None
    between_n: np.ndarray | None = None
    # [suit, cand] sum of the squared margin (own - opp) over the deals counted: the
    # interval of a bid's own margin, where no deal fits passing (None: stored before)
    margin2: np.ndarray | None = None
    hands: int = 0  # deals accepted for the earlier bids
    pools: str | None = None  # deals drawn from pools of hands (pools.Pools.text), or None
    pool_counts: list | None = None  # per earlier seat its pool's hands and hands tried
    pool_cap: int | None = None  # the most deals its pools allow (Pools.deal_cap)
    tried: int = 0  # deals dealt, rejected ones included
    played: int = 0  # kernel hands run in all
    rounds: int = 0
    seconds: float = 0.0
    min_maker: int = MIN_MAKER_DEALS  # deals as maker a bid needs to be judged
    seat_assumed: bool = False  # no seat was given: the eldest hand was assumed
    # earlier seats whose call the default bidder never makes: the bidder they bid with
    read_with: dict[int, str] = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C: the counts are those of the deals finished

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
        """The candidate bids (every legal bid): the columns of the [suit, bid] arrays."""
        return np.array(self.candidates[1:], dtype=np.int64)

    @property
    def top(self) -> int | None:
        """The column of the top bid (no later seat can overbid it), None with no bid."""
        return len(self.candidates) - 1 if len(self.candidates) > 1 else None

    def p_win(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, bid] P(the player's seat wins the auction) with 95% Wilson bounds."""
        k = self.win[:, 1:]
        n = np.broadcast_to(self.n[1:], k.shape)
        lo, hi = wilson(k, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(n > 0, k / np.maximum(n, 1), np.nan), lo, hi

    def p_make(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, bid] P(make | the player's seat is the maker) with 95% Wilson bounds
        (NaN where it never won the auction)."""
        k, n = self.make[:, 1:], self.win[:, 1:]
        lo, hi = wilson(k, n)
        return np.where(n > 0, k / np.maximum(n, 1), np.nan), lo, hi

    def p_win_make(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, bid] P(wins the auction and makes it), over all deals."""
        k = self.make[:, 1:]
        n = np.broadcast_to(self.n[1:], k.shape)
        lo, hi = wilson(k, n)
        return np.where(n > 0, k / np.maximum(n, 1), np.nan), lo, hi

    def score_change(self) -> dict[str, np.ndarray]:
        """Per [suit, candidate] (pass first): ``own`` and ``opp``, both sides' expected
        score change over the hand; ``ev``, the expected margin (own - opp) against
        passing on the same deals, with its 95% interval (``ev_lo``, ``ev_hi``)."""
        n = np.maximum(self.n, 1)[None, :]
        span = self._span()
        ev, lo, hi = mean_interval(self.diff, self.diff2, self.paired, -span, span)
        ev, lo, hi = (np.where(self.paired > 0, x, np.nan) for x in (ev, lo, hi))
        ev[:, 0] = lo[:, 0] = hi[:, 0] = 0.0  # pass against itself
        return {"own": self.own / n, "opp": self.opp / n, "ev": ev, "ev_lo": lo, "ev_hi": hi}

    def margin(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, candidate]: a bid's own expected margin (own - opp), with its 95% t
        interval (NaN where no deal counted, or in a study stored before the squares
        were kept): what the bids are ranked by where no deal fits passing."""
        n = np.broadcast_to(self.n[None, :], self.own.shape)
        mean = np.where(n > 0, (self.own - self.opp) / np.maximum(n, 1), np.nan)
        if self.margin2 is None:
            return mean, np.full_like(mean, np.nan), np.full_like(mean, np.nan)
        half = self._span() / 2  # a margin lies within +-(T + bid_max)
        _, lo, hi = mean_interval(self.own - self.opp, self.margin2, n, -half, half)
        return mean, np.where(n > 0, lo, np.nan), np.where(n > 0, hi, np.nan)

    def _span(self) -> float:
        """A bound on how far apart two margins of a hand can lie (the range
        mean_interval's t interval fits in): a margin (own - opp) lies within
        +-(T + bid_max), T the points in play (a set maker loses his bid)."""
        r = self.query.rules
        return 2 * (r.total_points + r.bid_max)

    def versus(self, trump: str | int, bid: int | str | None, bid2: int | str | None
               ) -> tuple[float, float, float]:  # fmt: skip
        """With ``trump`` (a suit letter, or its row number): how much more ``bid`` is
        worth than ``bid2``, the mean of their margins' difference over the deals both
        fit, with its 95% interval (NaN where no deal fits both, or the pairs were not
        kept: a study stored before they were). A bid is one of ``bids``, or 0,
        ``"pass"`` or None for passing; ``versus("S", 10, 0)`` is bid 10's ev."""
        return self._versus(self._suit_row(trump), self._column(bid), self._column(bid2))

    def _suit_row(self, trump: str | int) -> int:
        """The row of a suit given as a letter (``"S"``) or a number (1)."""
        if isinstance(trump, str) and trump.strip().upper() in SUITS:
            s = SUITS.index(trump.strip().upper())
        elif isinstance(trump, int | np.integer) and not isinstance(trump, bool):
            s = int(trump)
        else:
            raise AdvisorError(f"trump: a suit letter (C, S, D or H) or 0 to 3, not {trump!r}")
        if s not in self.suits_run:
            raise AdvisorError(f"trump: {SUITS[s] if 0 <= s < 4 else s} was not advised on")
        return s

    def _column(self, bid: int | str | None) -> int:
        """The candidate column of a bid (0: pass)."""
        if bid is None or (isinstance(bid, str) and bid.strip().lower() == "pass"):
            return 0
        if isinstance(bid, int | np.integer) and not isinstance(bid, bool):
            if bid == 0:
                return 0
            if int(bid) in self.candidates[1:]:
                return list(self.candidates).index(int(bid))
        b = [int(x) for x in self.bids]
        contiguous = len(b) > 2 and b == list(range(b[0], b[-1] + 1))
        legal = f"{b[0]}..{b[-1]}" if contiguous else ", ".join(map(str, b)) or "none"
        raise AdvisorError(f"bid: pass (0) or a bid this seat could make ({legal}), not {bid!r}")

    def _versus(self, s: int, c: int, c2: int) -> tuple[float, float, float]:
        """``versus`` by row and candidate column (0: pass)."""
        if c == c2:
            return 0.0, 0.0, 0.0
        if c2 == 0 or c == 0:  # against pass: the ev
            sc = self.score_change()
            c, sign = (c, 1) if c2 == 0 else (c2, -1)
            got = (sc["ev"][s, c], sc["ev_lo"][s, c], sc["ev_hi"][s, c])
        elif self.between is None or self.between_n is None or self.between2 is None:
            return math.nan, math.nan, math.nan
        else:
            at, sign = ((s, c, c2), 1) if c > c2 else ((s, c2, c), -1)
            if self.between_n[at] == 0:
                return math.nan, math.nan, math.nan
            span = self._span()
            got = mean_interval(
                self.between[at], self.between2[at], self.between_n[at], -span, span
            )
        m, lo, hi = (float(x) for x in got)
        return (m, lo, hi) if sign > 0 else (-m, -hi, -lo)

    def own_hist(self) -> np.ndarray:
        """[suit, points]: deals in which the side took that many points as maker at the
        top bid (the bid no later seat can overbid)."""
        return self.points

    def mean_points(self) -> np.ndarray:
        """[suit]: the side's mean points as maker at the top bid."""
        return self.mean_points_interval()[0]

    def mean_points_interval(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit]: the side's mean points as maker at the top bid, with its 95% t
        interval (``mean_interval``; NaN where the seat never made it there)."""
        h = self.points
        pts = np.arange(h.shape[1], dtype=np.float64)
        return mean_interval((h * pts).sum(axis=1), (h * pts**2).sum(axis=1), h.sum(axis=1),
                             0, h.shape[1] - 1)  # fmt: skip

    def key_cards(self) -> list[str]:
        """The names of ``pedro``'s columns: the rules' key cards (the Pedros, Sancho,
        the Dom), as many as the counts have (a study stored before Sancho and the Dom
        were counted has the Pedros only)."""
        return [name for name, _ in self.query.rules.key_cards[: self.pedro.shape[1]]]

    def pedro_rates(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """[suit, key card] the side ends with each key card as maker at the top bid."""
        n = np.broadcast_to(self.points.sum(axis=1)[:, None], self.pedro.shape)
        lo, hi = wilson(self.pedro, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.pedro / n, lo, hi

    def precision_reached(self) -> float:
        """The widest 95% half-width among P(win) and P(win and make) of the suits run."""
        # candidates that later passes make rare (under 5% of the deals) would need
        # ever more deals; their intervals are shown as they are
        common = self.n[1:] >= COMMON_SHARE * max(self.hands, 1)
        widths = []
        for f in (self.p_win, self.p_win_make):
            _, lo, hi = f()
            widths.append(((hi - lo) / 2)[self.suits_run][:, common])
        w = np.concatenate([x.ravel() for x in widths])
        w = w[~np.isnan(w)]
        return float(w.max()) if w.size else 0.0

    # ---- advice ------------------------------------------------------------
    def judged(self) -> np.ndarray:
        """[suit, bid] whether the seat won the auction with the bid on at least
        ``min_maker`` deals: only such a bid may be advised, best or safe."""
        return self.win[:, 1:] >= self.min_maker

    def per_suit(self) -> list[dict[str, Any]]:
        """Per suit, among the judged bids (``judged``): the best-EV bid (None: no bid
        beats passing with 95% confidence, the lower end of its ev's interval above 0),
        its ``ev`` against pass, and the safe bid (the highest whose
        make rate's lower bound is >= risk: ``highest_safe``)."""
        sc = self.score_change()
        judged = self.judged()
        # passes known after the player may leave no deal where passing fits them: then
        # the bids are ranked by their own expected margin
        can_pass = self.n[0] > 0
        out = []
        for s in range(4):
            row: dict[str, Any] = {"suit": s, "top_ev_bid": None, "top_ev": None, "top_ev_lo": None}
            row["tied_bids"] = [] if self.between is not None else None
            if s in self.suits_run and self.top is not None:
                evs = sc["ev"][s, 1:] if can_pass else (sc["own"] - sc["opp"])[s, 1:]
                common = self.n[1:] >= COMMON_SHARE * max(self.hands, 1)
                evs = np.where(common & judged[s], evs, np.nan)
                if not np.isnan(evs).all():
                    i = int(np.nanargmax(evs))
                    row["top_ev_bid"], row["top_ev"] = int(self.bids[i]), float(evs[i])
                    row["top_ev_lo"] = float(sc["ev_lo"][s, 1 + i])
                    row["tied_bids"] = self._tied(s, i, evs)
            # a bid is advised over passing only when it beats passing with confidence:
            # the lower end of its ev's 95% interval above 0
            best = row["top_ev_bid"] if (row["top_ev_lo"] or 0) > 0 or not can_pass else None
            row["best_ev_bid"] = best
            if best is None and row["tied_bids"]:  # ties of a bid not advised: none to name
                row["tied_bids"] = []
            row["safe_bid"] = (
                highest_safe(
                    self.bids, self.make[s, 1:], self.win[s, 1:], self.risk, self.min_maker
                )
                if s in self.suits_run
                else None
            )
            out.append(row)
        return out

    def _tied(self, s: int, best: int, evs: np.ndarray) -> list[int] | None:
        """The other bids of suit ``s`` (judged and common: ``evs`` not NaN) as good as
        the bid in column ``best``: the paired difference of their margins from its
        margin has a 95% interval reaching ``-TIE_POINTS`` (the deals cannot tell them
        apart, or only by less than a player could care about). None: the pairs were
        not kept (a stored study)."""
        if self.between is None:
            return None
        others = [j for j in range(len(self.bids)) if j != best and not np.isnan(evs[j])]
        near = -TIE_POINTS
        return [int(self.bids[j]) for j in others if self._versus(s, 1 + j, 1 + best)[2] >= near]

    @property
    def tied_bids(self) -> list[int] | None:
        """In the best trump, the bids that do as well as the best-EV bid within the
        noise (``_tied``); [] when it is pass or stands alone, None when not known (a
        study stored before the pairs were kept)."""
        return self.per_suit()[self.best_trump_index]["tied_bids"]

    @property
    def call(self) -> int | str:
        """The advised call: the best-EV bid in the best trump, or ``"pass"``."""
        best = self.best_ev_bid
        return "pass" if best is None else best

    @property
    def pass_reason(self) -> str | None:
        """Why the advice is to pass (None when it is a bid)."""
        if self.call != "pass":
            return None
        q = self.query
        if not q.legal_bids:
            return f"no legal bid is left above {q.high_bid}"
        if not self.judged()[self.suits_run].any():
            if self.hands < self.min_maker:  # no verdict was possible: not a weak hand
                return (
                    f"too few deals to judge any bid yet ({self.hands:,} played; a bid "
                    f"needs {self.min_maker:,} as the maker)"
                )
            return (
                "no bid wins the auction often enough to judge (on at least "
                f"{self.min_maker:,} deals as the maker)"
            )
        return "no bid beats passing on expected score with 95% confidence"

    @property
    def best_trump_index(self) -> int:
        """The suit whose best bid has the highest ``ev`` against pass, as a suit number
        (the rows of the [suit, bid] arrays); with no legal bid, the first suit run."""
        if self.query.names_trump_on_pass and self.n[0] > 0:
            # a pass names the trump, at contract 0, and no bid beats it (a contract
            # can only be set): the trump whose pass is worth the most
            sc = self.score_change()
            margin = sc["own"][:, 0] - sc["opp"][:, 0]
            return max(self.suits_run, key=lambda s: margin[s])
        suits = self.per_suit()
        run = [s for s in self.suits_run if suits[s]["top_ev"] is not None]
        if not run:
            return self.suits_run[0]
        return max(run, key=lambda s: suits[s]["top_ev"])

    @property
    def best_trump(self) -> str:
        """The best trump as its suit letter (``"S"``), as the text, the JSON and the
        table show it; ``best_trump_index`` is its row in the arrays."""
        return SUITS[self.best_trump_index]

    @property
    def best_ev_bid(self) -> int | None:
        """In the best trump, the bid with the best expected margin, None (pass) when no
        bid beats passing."""
        return self.per_suit()[self.best_trump_index]["best_ev_bid"]

    @property
    def safe_bid(self) -> int | None:
        """In the best trump, the highest bid made (as maker) at least ``risk`` of the
        time with 95% confidence; None: no bid is that safe."""
        return self.per_suit()[self.best_trump_index]["safe_bid"]


# ----------------------------------------------------------------- simulation
def advise(
    hand: str | Sequence,
    seat: int | None = None,
    dealer: int = 3,
    bids: str | Sequence | None = None,
    known: Iterable[str] | dict | None = None,
    rules: Rules | dict | None = None,
    bid: str | Sequence[str] = BID_MODEL,
    trump: str | Sequence[str] = "heuristic",
    discard: str | Sequence[str] = "heuristic",
    play: str | Sequence[str] = "heuristic",
    risk: float = DEFAULT_RISK,
    precision: float = 0.01,
    max_hands: int = DEFAULT_MAX_HANDS,
    seed: int = 0,
    threads: int | None = None,
    min_acceptance: float = MIN_ACCEPTANCE,
    candidates: Sequence[int] | None = None,
    suits: Sequence[int] | None = None,
    min_maker: int = MIN_MAKER_DEALS,
    progress: Callable[[int], None] | None = None,
    fallback_bidder: str | None = None,
) -> Advice:
    """Simulate a hand's prospects for every candidate bid and trump; return the
    ``Advice``.

    ``fallback_bidder`` (``api.advise`` gives ``FALLBACK_BIDDER`` when the bid model is
    left at its default): an earlier seat whose call its bidder never makes (a pass
    first to speak, under the heuristic) bids with this one instead, and
    ``Advice.read_with`` says so, rather than no deal fitting the bids.

    ``bid`` is the other seats' bidding policy (the advised seat's own is replaced
    by each candidate in turn). ``seat`` None: the eldest hand (the seat after the
    dealer), and ``Advice.seat_assumed`` says so. ``min_maker``: the deals as maker a
    bid needs to be advised (``MIN_MAKER_DEALS``). ``progress`` is called with the
    deals done as they are (and, if it has ``set_total``, told the deals aimed at).
    ``candidates`` (a subset of the legal bids) and
    ``suits`` (suit numbers) narrow the estimate to what a study needs; pass is
    always played. Raises ``AdvisorError`` (or ``CardError``/``PolicyError``) with a
    one-line message on bad input or constraints too rare to sample.
    """
    start = time.perf_counter()
    risk = checks.share(risk, "risk", "(0, 1]", lambda x: 0 < x <= 1)
    precision = checks.share(precision, "precision", "(0, 0.5)", lambda x: 0 < x < 0.5)
    if max_hands < 1:
        raise AdvisorError(f"max_hands {max_hands} must be at least 1")
    if isinstance(min_maker, bool) or not isinstance(min_maker, int) or min_maker < 1:
        raise AdvisorError(f"min_maker {min_maker!r} must be a whole number of deals, at least 1")
    q = make_query(hand, seat, dealer, bids, known, rules)
    legal = q.legal_bids
    if candidates is not None:
        wrong = [b for b in candidates if b not in legal]
        if wrong:
            raise AdvisorError(f"candidate bid {wrong[0]} is not a legal bid here ({legal})")
        legal = sorted(set(int(b) for b in candidates))
    run = sorted(set(int(s) for s in suits)) if suits is not None else [0, 1, 2, 3]
    if not run or not all(0 <= s < 4 for s in run):
        raise AdvisorError(f"suits {suits} must be suit numbers 0..3")

    from cinch_sim.engine.run import checked_policies

    policies = checked_policies(q.rules.players, bid, trump, discard, play)
    read_with: dict[int, str] = {}
    if fallback_bidder is not None and q.bids:
        from cinch_sim.advisor.pools import never_called
        from cinch_sim.policies.loading import load_policy

        for s in never_called(q, policies, seed):
            policies.bid[s] = load_policy("bid", fallback_bidder)
            read_with[s] = fallback_bidder
    T = q.rules.total_points + 1
    C = 1 + len(legal)
    J = len(q.rules.key_cards)
    adv = Advice(
        query=q,
        risk=risk,
        precision_target=precision,
        max_hands=max_hands,
        seed=seed,
        policies=policies.describe(),
        candidates=[PASS, *legal],
        suits_run=run,
        n=np.zeros(C, np.int64),
        win=np.zeros((4, C), np.int64),
        make=np.zeros((4, C), np.int64),
        own=np.zeros((4, C)),
        opp=np.zeros((4, C)),
        diff=np.zeros((4, C)),
        diff2=np.zeros((4, C)),
        paired=np.zeros((4, C), np.int64),
        points=np.zeros((4, T), np.int64),
        pedro=np.zeros((4, J), np.int64),
        between=np.zeros((4, C, C)),
        between2=np.zeros((4, C, C)),
        between_n=np.zeros((4, C, C), np.int64),
        margin2=np.zeros((4, C)),
        min_maker=min_maker,
        seat_assumed=seat is None,
        read_with=read_with,
    )
    if not legal and q.may_pass:  # an earlier seat bid the top: nothing to choose, no deal
        adv.seconds = time.perf_counter() - start
        return adv
    playouts = _Playouts(adv, policies, progress)
    if threads is not None:
        try:
            check_threads(threads)
        except ValueError as exc:
            raise AdvisorError(str(exc)) from None
    from cinch_sim.engine.interrupts import chunk_boundaries

    with using(threads), chunk_boundaries() as ctrl_c:
        playouts.ctrl_c = ctrl_c
        _deal_until_precise(playouts, min_acceptance)
        if adv.interrupted and adv.hands == 0:
            ctrl_c.check()  # nothing finished to show: an interrupt like any other
    adv.seconds = time.perf_counter() - start
    return adv


class _Playouts:
    """Plays an advice's deals for every candidate bid and suit and adds up the counts.

    Three savings, none changing what is estimated:

    - **Only the kept deals are replayed.** The reference candidate's run finds the
      deals that fit the earlier bids; every other candidate replays those deals by
      their indices (``run_chunk(indices=...)``), not the rejected ones around them.
    - **A maker's hand is played once for every bid** (``shared``), when every seat's
      discard and play policies are auction-blind (``Builtin.auction_blind``: they
      read neither the contract nor the bids, so a hand plays alike whatever the
      maker bid) and the top candidate is the top bid, which no seat can overbid:
      each candidate's auction is played in the first suit, and wherever it makes the
      player the maker, the hand as played at the top bid in each suit stands in,
      scored at the candidate's bid (``solver.outcome.rescored``). Per deal that is
      one run per candidate and three more, not one per candidate and suit.
    - **Otherwise only the maker's deals are played in every suit** (a policy that
      reads the contract, as pimc does): a candidate's deal that does not make the
      player the maker in the first suit never asks his trump, so it stands for
      every suit as played.

    And the candidates are played together (``run_many``): a slow player's chunk holds
    a few deals, and one candidate at a time left a core idle; results do not change.
    """

    def __init__(self, adv: Advice, policies, progress: Callable[[int], None] | None) -> None:
        from cinch_sim.engine.run import Conditions, PolicySet
        from cinch_sim.policies.loading import load_policy

        q = adv.query
        r = q.rules
        self.adv = adv
        self.conditions = Conditions(
            fixed=q.fixed(), fixed_twice=q.fixed_twice(), required_bids=[b for _, b in q.bids]
        )
        self.rejecting = bool(q.bids)  # earlier bids to match: most deals are rejected
        from cinch_sim.advisor.pools import pooled_reason  # numba's: loaded when advising

        self.pool_reason = pooled_reason(q, policies)
        self.pools = None  # pools.Pools once the deals are drawn from them (use_pools)
        self._drawn = (0, np.zeros((0, L.MAX_PLAYERS), np.uint64))  # (first index, masks)
        self.policies = policies
        self.sets: dict[Any, Any] = {}  # (candidate, suit), and "probe"
        for c, b in enumerate(adv.candidates):
            for s in adv.suits_run:
                ps = PolicySet(list(policies.bid), list(policies.trump), policies.discard,
                               policies.play)  # fmt: skip
                own = [float(x) for x in q.own_calls]  # an auction's earlier rounds
                ps.bid[q.seat] = load_policy("bid", "fixed", (float(b), len(own), *own))
                ps.trump[q.seat] = load_policy("trump", "fixed", (float(s),))
                self.sets[c, s] = ps
        # team of each maker seat; a maker of -1 (thrown in) reads the last entry
        self.team_of = np.array([r.team_of(t) for t in range(r.players)] + [-1])
        self.top = len(adv.candidates) - 1
        self.ref = (self.top, adv.suits_run[0])
        blind = all(
            p.builtin is not None and p.builtin.auction_blind
            for p in (*policies.discard, *policies.play)
        )
        self.shared = blind and self.top > 0 and adv.candidates[-1] == r.bid_max
        self.rules_array = r.to_array()
        self.progress = progress
        self.slow = policies.slow
        self.kept_per_chunk = SLOW_FIRST if self.slow else REJECT_CHUNK
        self.ctrl_c = None  # advise() sets it: a Ctrl-C stops at the next chunk
        # the rejection probe: the reference candidate's auction, a cheap play
        self.sets["probe"] = PolicySet(
            self.sets[self.ref].bid,
            self.sets[self.ref].trump,
            self.sets[self.ref].discard,
            [load_policy("play", "random")] * r.players,
        )
        self.probe = "probe"

    def run(self, key: Any, offset: int, n: int, indices=None) -> np.ndarray:
        """The rows of ``key``'s policies on deals offset..offset+n-1, or on the deals
        ``indices``."""
        return self.run_many([(key, offset, n, indices)])[0]

    def run_many(self, asked: list[tuple[Any, int, int, Any]]) -> list[np.ndarray]:
        """``run`` for each (key, offset, n, indices) asked, played together: a slow
        player's chunk holds a few deals, so one candidate at a time left a core idle."""
        from cinch_sim.engine.run import ChunkJob, run_chunks

        adv = self.adv
        q = adv.query
        jobs = []
        for key, offset, n, indices in asked:
            masks = None
            if self.pools is not None:  # each deal's hands as drawn (draw_chunk)
                if indices is None:
                    indices = np.arange(offset, offset + n, dtype=np.int64)
                first, drawn = self._drawn
                at = np.asarray(indices) - first
                if at.size and not (0 <= at.min() and at.max() < len(drawn)):
                    raise RuntimeError("a deal outside the chunk drawn from the pools")
                masks = drawn[at]
            jobs.append(ChunkJob(self.sets[key], offset, n, indices, masks))
        played = run_chunks(q.rules, jobs, adv.seed, q.dealer, self.conditions)
        rows = [r for r, _ in played]
        adv.played += sum(len(r) for r in rows)
        return rows

    def use_pools(self, size: int) -> None:
        """Draw the deals from pools of hands that make each earlier call (pools.py):
        nearly every deal then fits, so nothing is rejected. A Ctrl-C while the pools
        fill marks the advice interrupted."""
        adv = self.adv

        def stop() -> bool:
            return self.ctrl_c is not None and self.ctrl_c.requested

        from cinch_sim.advisor.pools import build_pools

        pools = build_pools(adv.query, self.policies, adv.seed, size, stop)
        if pools is None:
            adv.interrupted = True
            return
        self.pools = pools
        adv.pools, adv.pool_counts, adv.pool_cap = pools.text(), pools.counts(), pools.deal_cap
        self.rejecting = False

    def draw_chunk(self, first: int, n: int) -> None:
        """The fixed cards of deals first..first+n-1, drawn from the pools."""
        from cinch_sim.advisor.pools import draw_deals

        index = np.arange(first, first + n, dtype=np.int64)
        self._drawn = (first, draw_deals(self.pools, self.adv.seed, index))

    def add(self, rows: np.ndarray, c: int, suits: list[int], base: dict, first: bool) -> None:
        """Count one candidate's accepted deals (in ``suits``: pass may serve all); its
        deals are counted once, at its ``first`` suit."""
        adv = self.adv
        q = adv.query
        r = q.rules
        team = q.team
        # a stuck dealer may not pass: the fixed policy's "pass" is then his lowest
        # bid, no baseline, so the pass candidate counts no deal (as when later passes
        # fit none) and the bids are ranked by their own margins
        ok = np.full(len(rows), c > 0 or q.may_pass)
        for t in q.later_passes:
            ok &= rows[:, L.H_BIDS + t] == -1
        maker = rows[:, L.H_MAKER]
        we = ok & (maker == q.seat)
        made = we & (rows[:, L.H_MADE] == 1)
        own = rows[:, L.H_SCORE + team].astype(np.float64)
        # the other sides' score change: the opponents' in partnership, in cut-throat the
        # average opponent's (as compare's margin: A against the mean B seat), never all
        # of them at once against one player
        opp = (rows[:, L.H_SCORE : L.H_SCORE + r.teams].sum(axis=1) - own) / (r.teams - 1)
        margin = own - opp
        if first:
            adv.n[c] += int(ok.sum())
        for s in suits:
            adv.win[s, c] += int(we.sum())
            adv.make[s, c] += int(made.sum())
            adv.own[s, c] += float(own[ok].sum())
            adv.opp[s, c] += float(opp[ok].sum())
            if adv.margin2 is not None:
                adv.margin2[s, c] += float((margin[ok] ** 2).sum())
            if c == 0:  # pass, the baseline: against itself, its deals and ev 0
                base[s] = ((ok, margin), [])
            ok0, m0 = base[s][0]
            both = ok & ok0
            d = (margin - m0)[both]
            adv.diff[s, c] += float(d.sum())
            adv.diff2[s, c] += float((d * d).sum())
            adv.paired[s, c] += int(both.sum())
            if c > 0:  # each pair of bids: _add_pairs, once the chunk's bids are in
                base[s][1].append((c, ok, margin))
        if c == len(adv.candidates) - 1 and c > 0:
            pts = rows[we, L.H_POINTS + team]
            T = adv.points.shape[1]
            adv.points[suits[0]] += np.bincount(pts, minlength=T)[:T]
            for j, (_, slot) in enumerate(r.key_cards):
                adv.pedro[suits[0], j] += int((rows[we, L.H_SLOT_TEAM + slot] == team).sum())

    def _as_maker(self, rows: np.ndarray, top: np.ndarray, maker: np.ndarray) -> np.ndarray:
        """``rows`` with each deal that made the player the maker replaced by ``top``'s
        (the same deal played at the top bid in the suit wanted), kept at ``rows``'
        contract and bids and scored at that contract."""
        out = rows.copy()
        m = np.flatnonzero(maker)
        if not m.size:
            return out
        out[m] = top[m]
        out[m, L.H_BID] = rows[m, L.H_BID]
        out[m, L.H_BIDS : L.H_BIDS + L.MAX_PLAYERS] = rows[m, L.H_BIDS : L.H_BIDS + L.MAX_PLAYERS]
        from cinch_sim.solver.outcome import rescored

        teams = self.adv.query.rules.teams
        made, scores = rescored(
            self.rules_array,
            top[m, L.H_POINTS : L.H_POINTS + teams],
            self.team_of[rows[m, L.H_MAKER]],
            rows[m, L.H_BID],
        )
        out[m, L.H_MADE] = made
        out[m, L.H_SCORE : L.H_SCORE + teams] = scores
        return out

    def play_range(self, offset: int, n: int, want: int) -> None:
        """Deal offset..offset+n-1 until ``want`` deals are kept in all; play the kept
        deals at every candidate and suit.

        With earlier bids to match, a cheap probe finds the kept deals first: the
        auction up to the player is the same under any play policy, so the probe
        plays with ``random`` (a rejected deal is not played at all), and only the
        kept deals are then played out, by their indices. A slow player's kept deals go
        in chunks sized to take about ``CHUNK_SECONDS``, each reported to ``progress``;
        a Ctrl-C stops before the next chunk (``interrupted``).

        The counts do not depend on the chunks: the kept deals are always the first
        accepted ones, and a round stops dealing just after its last kept deal."""
        adv = self.adv
        done = 0
        while done < n and adv.hands < min(adv.max_hands, want):
            if self.ctrl_c is not None and self.ctrl_c.requested:
                adv.interrupted = True
                return
            began = time.perf_counter()
            step = REJECT_CHUNK if self.rejecting else self.kept_per_chunk if self.slow else CHUNK
            if self.pools is not None:
                step = min(step, POOL_CHUNK)  # progress and a Ctrl-C between draws
            m = min(step, n - done)
            start_at = offset + done
            if self.pools is not None:
                self.draw_chunk(start_at, m)
            if self.rejecting:
                ok0 = self.run(self.probe, start_at, m)[:, L.H_REJECTED] == 0
            else:
                ref_rows = self.run(self.ref, start_at, m)
                ok0 = ref_rows[:, L.H_REJECTED] == 0
            accepted = np.flatnonzero(ok0)
            cap = min(min(adv.max_hands, want) - adv.hands, self.kept_per_chunk)
            # cap kept: deal on just after the last of them (the rest is dealt again)
            used = int(accepted[cap - 1]) + 1 if len(accepted) >= cap else m
            keep = ok0[:used]
            if keep.any():
                if self.rejecting:
                    ref = self.run(self.ref, 0, 0, indices=start_at + np.flatnonzero(keep))
                else:
                    ref = ref_rows[:used][keep]
                self._play_kept(start_at, used, keep, ref)
            kept = int(keep.sum())
            adv.hands += kept
            adv.tried += used
            done += used
            if self.slow and kept:
                took = max(time.perf_counter() - began, 1e-3)
                self.kept_per_chunk = int(min(SLOW_CHUNK, max(1, kept * CHUNK_SECONDS / took)))
            if self.progress is not None:
                self.progress(kept)

    def _play_kept(self, start_at: int, used: int, keep: np.ndarray, ref: np.ndarray) -> None:
        """Every candidate and suit on the kept deals of start_at..start_at+used-1: each
        candidate in the first suit (and, when shared, the top bid in every suit) played
        together, then together every candidate's maker deals in the other suits; then
        counted in candidate order."""
        adv = self.adv
        index = start_at + np.flatnonzero(keep)
        seat = adv.query.seat
        s0 = adv.suits_run[0]
        cands = range(len(adv.candidates))
        keys = [(c, s0) for c in cands]
        if self.shared:  # the top bid in every suit stands in for each maker's deals
            keys += [(self.top, s) for s in adv.suits_run[1:]]
        rows = dict(zip(keys, self._rows_of(keys, start_at, used, keep, ref), strict=True))
        maker = {c: rows[c, s0][:, L.H_MAKER] == seat for c in cands}
        replay = {c: self._replayed(maker[c]) for c in cands}
        again = [] if self.shared else [(c, s) for c in cands if maker[c].any()
                                         for s in adv.suits_run[1:]]  # fmt: skip
        replays = self.run_many([(k, 0, 0, index[replay[k[0]]]) for k in again])
        for (c, s), part in zip(again, replays, strict=True):
            rows[c, s] = rows[c, s0].copy()
            rows[c, s][replay[c]] = part
        base: dict = {}
        for c in cands:  # pass (candidate 0) first: the baseline
            first = rows[c, s0]
            if not maker[c].any():
                self.add(first, c, adv.suits_run, base, True)
                continue
            for s in adv.suits_run:
                if self.shared:
                    played = self._as_maker(first, rows[self.top, s], maker[c])
                else:
                    played = rows[c, s]
                self.add(played, c, [s], base, s == s0)
        self._add_pairs(base)

    def _replayed(self, maker: np.ndarray) -> np.ndarray:
        """Which of a candidate's kept deals are played again in the other suits: those
        that made the player the maker. The others stand: his trump was never asked
        there, so every suit plays them alike. Only the maker's deals cost a slow
        player's hand (pimc, which reads the contract)."""
        return maker

    def _rows_of(
        self, keys: list, start_at: int, used: int, keep: np.ndarray, ref: np.ndarray
    ) -> list[np.ndarray]:
        """Each key's rows on the kept deals (the reference's are ``ref``), the others
        played together: with earlier bids to match, the kept deals by their indices;
        else the whole range, whose accepted deals must be the reference's."""
        todo = [k for k in keys if k != self.ref]
        if self.rejecting:
            index = start_at + np.flatnonzero(keep)
            played = self.run_many([(k, 0, 0, index) for k in todo])
        else:
            played = self.run_many([(k, start_at, used, None) for k in todo])
            for rows in played:
                if not np.array_equal(rows[:, L.H_REJECTED] == 0, keep):
                    raise RuntimeError("the accepted deals differ between candidates")
            played = [rows[keep] for rows in played]
        got = dict(zip(todo, played, strict=True))
        return [ref if k == self.ref else got[k] for k in keys]

    def _add_pairs(self, base: dict) -> None:
        """For every pair of bids c > c2 in each suit, over the deals both fit: the sums
        of margin(c) - margin(c2), of its squares and the deals (``Advice.between``).
        Products of the chunk's [bid, deal] matrices give them all at once: with F the
        deals each bid fits (0 or 1) and M its margins there (0 elsewhere), S = M F'
        and Q = (M * M) F', the pair's sum is S[c, c2] - S[c2, c] and its squares'
        Q[c, c2] + Q[c2, c] - 2 (M M')[c, c2]; exact for whole-point margins."""
        adv = self.adv
        for s, (_, bids) in base.items():
            if len(bids) < 2:
                continue
            cand = np.array([c for c, _, _ in bids])
            fits = np.array([ok for _, ok, _ in bids], dtype=np.float64)
            m = np.array([margin for _, _, margin in bids]) * fits
            on = m @ fits.T  # [c, c2]: the sum of margin(c) over the deals both fit
            squares = (m * m) @ fits.T
            lower = np.tril_indices(len(cand), -1)  # c later (higher) than c2
            at = (s, cand[lower[0]], cand[lower[1]])
            adv.between[at] += (on - on.T)[lower]
            adv.between2[at] += (squares + squares.T - 2 * (m @ m.T))[lower]
            adv.between_n[at] += np.rint(fits @ fits.T)[lower].astype(np.int64)


def _deal_until_precise(playouts: _Playouts, min_acceptance: float) -> None:
    """Rounds of deals until the precision target or ``max_hands`` is reached.

    Round 1 assumes the worst case (p = 1/2): P(win) falls from about 0 to 1 across
    the bids, so some bid has an estimate near 1/2 and needs it all; one round
    then usually suffices. Later rounds are sized from the counts so far.
    """
    adv = playouts.adv
    precision = adv.precision_target
    max_hands = adv.max_hands
    worst = _needed(np.array([0.0]), 0, precision)  # shrunk p = 1/2
    target = min(max_hands, worst)
    if playouts.rejecting and playouts.pool_reason is None and _rare(playouts):
        playouts.use_pools(max(2 * target, POOL_MIN_SIZE))
        if adv.interrupted:
            return
        if adv.pool_cap is not None:  # no more deals than the pools' hands allow
            max_hands = min(max_hands, adv.pool_cap)
            target = min(target, max_hands)
    rejecting = playouts.rejecting
    while True:
        if hasattr(playouts.progress, "set_total"):
            playouts.progress.set_total(target)
        want = target - adv.hands
        if rejecting:
            rate = (adv.hands + 1) / (adv.tried + 2) if adv.tried else 1.0
            tries = int(math.ceil(want / rate * 1.1)) if adv.tried else max(MIN_PROBE, 4 * want)
            tries = min(max(tries, 10_000), 50_000_000)
        else:
            tries = want
        playouts.play_range(adv.tried, tries, target)
        adv.rounds += 1
        if adv.interrupted:
            break
        if rejecting:
            _check_acceptance(adv, min_acceptance, playouts.pool_reason)
        judgeable = _judgeable(adv)
        if adv.hands >= max_hands or (adv.precision_reached() <= precision and judgeable):
            break
        run = adv.suits_run
        k_all = np.concatenate([adv.win[run, 1:].ravel(), adv.make[run, 1:].ravel()])
        need = _needed(k_all, adv.hands, precision)
        if not judgeable:  # enough deals for the most-won bid to reach min_maker as maker
            won = adv.win[run, 1:].max() / max(adv.hands, 1)
            need = max(need, int(math.ceil(adv.min_maker / max(won, COMMON_SHARE))))
        target = min(max_hands, max(int(need * 1.05), adv.hands + max(200, adv.hands // 10)))


def _judgeable(adv: Advice) -> bool:
    """Whether the deals so far can give a verdict: some bid was won on ``min_maker``
    deals, or enough deals were played that a bid won on fewer is won under
    ``COMMON_SHARE`` of the time. A coarse precision (0.1 is met by about 100 deals)
    must not stop the query before any bid could be judged: it would advise a pass
    on any hand."""
    if adv.judged()[adv.suits_run].any():
        return True
    return adv.hands * COMMON_SHARE >= adv.min_maker


def _rare(playouts: _Playouts) -> bool:
    """Whether fewer than ``POOLS_BELOW`` of ``POOL_PROBE`` dealt hands fit the earlier
    bids: rejection would then deal over a hundred hands for each one kept."""
    from cinch_sim.advisor import pools

    rows = playouts.run(playouts.probe, RARE_PROBE_AT, POOL_PROBE)
    return float((rows[:, L.H_REJECTED] == 0).mean()) < pools.POOLS_BELOW


def _needed(k: np.ndarray, n: int, precision: float) -> int:
    """Deals that would bring the widest interval to ``precision`` (normal approximation
    with the proportion shrunk towards 1/2, so a zero count still asks for some deals)."""
    pt = (np.asarray(k, float) + 2) / (n + 4)
    var = float(np.max(pt * (1 - pt))) if pt.size else 0.25
    return int(math.ceil(Z95 * Z95 * var / (precision * precision)))


def _check_acceptance(adv: Advice, min_acceptance: float, pool_reason: str | None) -> None:
    """Refuse earlier bids that no deal (or too small a share of deals) matches, saying
    why deals drawn from pools of hands could not serve instead (``pool_reason``)."""
    bids = adv.query.bids_text()
    from cinch_sim.advisor.pools import rare_hint

    hint = "; " + rare_hint(adv.query, adv.policies["bid"])
    if pool_reason is not None:  # e.g. "two decks": say why no pools were drawn
        hint += f" (hands drawn call by call cannot serve here: {pool_reason})"
    if adv.hands == 0 and adv.tried >= MIN_PROBE:
        raise AdvisorError(
            f"the bids before you ({bids}) are impossible or too rare to sample: "
            f"0 of {adv.tried:,} deals matched them under the bidding policies" + hint
        )
    rate = adv.hands / max(adv.tried, 1)
    if adv.tried >= MIN_PROBE and rate < min_acceptance:
        raise AdvisorError(
            f"the bids before you ({bids}) are too rare to sample: {adv.hands:,} of "
            f"{adv.tried:,} deals matched ({rate:.4%}, below {min_acceptance:.4%})" + hint
        )


def evaluate_hand(hand: str | Sequence, seat: int, dealer: int = 3, **kwargs: Any):
    """Like ``advise`` (same arguments) but returns the ``bids`` table as a DataFrame, one
    row per trump and candidate bid: P(win the auction), P(make | maker) with their 95%
    intervals, both sides' expected score change and ``ev`` against pass, with the
    advice in ``df.attrs``."""
    return advise(hand, seat, dealer, **kwargs).table("bids")

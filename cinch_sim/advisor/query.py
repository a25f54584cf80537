"""The hand advisor: "with these nine cards, in this seat, what should I bid, in which trump?"

Answered by conditional simulation, as bridge dealers and poker equity
calculators do:

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
   ignore the contract (every built-in does) one playout per deal and suit
   serves every bid: P(make b) = P(side's points >= b). Otherwise each
   contract is played separately on the same deals.
3. **Advice.** The best trump (the suit whose best legal bid has the highest
   expected score), the recommended bid (the highest legal bid whose make
   probability reaches ``risk``), the bid with the best expected score, and
   pass when nothing is worth it.
4. **Precision on demand.** Rounds of deals until every reported probability's
   95% Wilson half-width is at most ``precision``, or ``max_hands`` deals.

Only numpy and the kernel are imported here; pandas (``to_frame``,
``evaluate_hand``) and matplotlib (``plot``) are imported when asked for, so
the command line stays quick.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.analysis.intervals import Z95, wilson
from cinch_sim.cards import (
    SUIT_NAMES,
    SUITS,
    CardError,
    format_card,
    parse_cards,
    parse_hand,
    pretty_card,
    to_mask,
)
from cinch_sim.engine.threads import check as check_threads
from cinch_sim.engine.threads import using
from cinch_sim.rules import Rules, make_rules

SAFE_RISK = 0.7
DEFAULT_MAX_HANDS = 200_000
MIN_ACCEPTANCE = 1e-4  # below this the bids before the player are "too rare to sample"
MIN_PROBE = 50_000  # deals tried before a zero acceptance is called impossible
CHUNK = 65_536
REJECT_CHUNK = 131_072  # rejected hands cost little: bigger kernel calls


class AdvisorError(ValueError):
    """A query the advisor cannot answer (bad input, impossible constraints)."""


# ----------------------------------------------------------------- input parsing
def _check_seat(seat: int, players: int, what: str = "seat") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise AdvisorError(f"{what} {seat!r} must be a seat number 0..{players - 1}")
    if not 0 <= seat < players:
        raise AdvisorError(f"{what} {seat} is out of range 0..{players - 1}")
    return int(seat)


def _seat_token(token: str, players: int, what: str) -> int:
    try:
        seat = int(token.strip())
    except ValueError:
        raise AdvisorError(f"{what}: seat {token.strip()!r} is not a number") from None
    return _check_seat(seat, players, f"{what}: seat")


def parse_bids(text: str | Sequence | None, players: int = 4) -> list[tuple[int, int]]:
    """``"0:pass,1:9"`` (or ``[(0, None), (1, 9)]``) -> ``[(0, -1), (1, 9)]``; -1 is a pass."""
    if text is None:
        return []
    items: list[tuple[str, str]] = []
    if isinstance(text, str):
        for tok in text.replace(";", ",").replace(" ", ",").split(","):
            tok = tok.strip()
            if not tok:
                continue
            if ":" not in tok and "=" not in tok:
                raise AdvisorError(f"bid {tok!r} must be SEAT:BID, e.g. 1:9 or 0:pass")
            seat, bid = tok.replace("=", ":").split(":", 1)
            items.append((seat, bid))
    else:
        items = [(str(s), "pass" if b is None else str(b)) for s, b in text]
    out: list[tuple[int, int]] = []
    for seat_t, bid_t in items:
        seat = _seat_token(seat_t, players, "bids")
        b = bid_t.strip().lower()
        if b in ("pass", "p", "-", "-1", "0", "none"):
            bid = L.BID_PASS
        else:
            try:
                bid = int(b)
            except ValueError:
                raise AdvisorError(
                    f"bids: seat {seat}'s bid {bid_t.strip()!r} is not a number or 'pass'"
                ) from None
        out.append((seat, bid))
    return out


def parse_known(items: Iterable[str] | dict | None, players: int = 4) -> dict[int, list[int]]:
    """``["1:AH KH", "3:2C"]`` (or ``{1: "AH KH"}``) -> seat -> cards."""
    if not items:
        return {}
    pairs: list[tuple[Any, Any]] = []
    if isinstance(items, dict):
        pairs = list(items.items())
    else:
        for item in items:
            if ":" not in item:
                raise AdvisorError(f"--known {item!r} must be SEAT:CARDS, e.g. 1:AH,KH")
            pairs.append(tuple(item.split(":", 1)))
    out: dict[int, list[int]] = {}
    for seat_t, cards_t in pairs:
        seat = _seat_token(str(seat_t), players, "known")
        try:
            cards = parse_cards(cards_t) if isinstance(cards_t, str) else parse_cards(cards_t)
        except CardError as e:
            raise AdvisorError(f"known: seat {seat}: {e}") from None
        out.setdefault(seat, []).extend(cards)
    return out


# ------------------------------------------------------------------ the query
@dataclass
class Query:
    """A validated advisor query: everything that defines the simulated deals."""

    hand: list[int]
    seat: int
    dealer: int
    rules: Rules
    bids: list[tuple[int, int]] = field(default_factory=list)  # (seat, bid or BID_PASS)
    known: dict[int, list[int]] = field(default_factory=dict)

    @property
    def team(self) -> int:
        return self.seat % self.rules.teams if self.rules.partnerships else self.seat

    @property
    def high_bid(self) -> int:
        return max([b for _, b in self.bids if b > 0], default=0)

    @property
    def bid_levels(self) -> list[int]:
        return list(range(self.rules.bid_min, self.rules.bid_max + 1))

    @property
    def legal_bids(self) -> list[int]:
        return [b for b in self.bid_levels if b > self.high_bid]

    def fixed(self) -> dict[int, int]:
        f = {self.seat: to_mask(self.hand)}
        for s, cards in self.known.items():
            f[s] = to_mask(cards)
        return f


def make_query(
    hand: str | Sequence,
    seat: int,
    dealer: int = 3,
    bids: str | Sequence | None = None,
    known: Iterable[str] | dict | None = None,
    rules: Rules | dict | None = None,
) -> Query:
    """Parse and check a query; every problem is a one-line ``AdvisorError``/``CardError``."""
    if rules is None:
        r = make_rules()
    elif isinstance(rules, Rules):
        r = rules
    else:
        r = make_rules(options=dict(rules))
    P = r.players
    cards = (
        parse_hand(hand, size=r.cards_dealt)
        if isinstance(hand, str) or any(isinstance(c, str) for c in hand)
        else _int_hand(hand, r.cards_dealt)
    )
    seat = _check_seat(seat, P, "seat")
    dealer = _check_seat(dealer, P, "dealer")
    bid_list = parse_bids(bids, P)
    known_map = parse_known(known, P)
    _check_bids(bid_list, seat, dealer, r)
    _check_known(known_map, cards, seat, r)
    return Query(cards, seat, dealer, r, bid_list, known_map)


def _int_hand(hand: Sequence, size: int) -> list[int]:
    cards = [int(c) for c in hand]
    for c in cards:
        if not 0 <= c < 52:
            raise CardError(f"card number {c} is out of range 0..51")
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise CardError(f"duplicate card {format_card(dup)}")
    if len(cards) != size:
        raise CardError(f"a hand needs {size} cards, got {len(cards)}")
    return cards


def _check_bids(bids: list[tuple[int, int]], seat: int, dealer: int, r: Rules) -> None:
    """The bids must be those before the player, in bidding order from eldest, and legal."""
    if not bids:
        return
    if r.bid_rounds != 1:
        raise AdvisorError("bids before you are supported for one-round bidding only")
    P = r.players
    order = [(dealer + 1 + j) % P for j in range(P)]
    before = order[: order.index(seat)]
    seen = [s for s, _ in bids]
    if len(set(seen)) != len(seen):
        dup = next(s for s in seen if seen.count(s) > 1)
        raise AdvisorError(f"bids: seat {dup} is given twice")
    for s in seen:
        if s == seat:
            raise AdvisorError(f"bids: seat {s} is your own seat; give only earlier bids")
        if s not in before:
            raise AdvisorError(
                f"bids: seat {s} bids after you (seat {seat}, dealer {dealer}); "
                "give only the bids made before you"
            )
    by_seat = dict(bids)
    high = 0
    for s in before[: len(bids)]:
        if s not in by_seat:
            raise AdvisorError(
                f"bids: seat {s}'s bid is missing (bids run from the eldest hand, "
                f"seat {order[0]}, in order)"
            )
        b = by_seat[s]
        if b == L.BID_PASS:
            continue
        if not r.bid_min <= b <= r.bid_max:
            raise AdvisorError(
                f"bids: seat {s}'s bid {b} is impossible (bids are {r.bid_min}..{r.bid_max})"
            )
        if b <= high:
            raise AdvisorError(
                f"bids: seat {s}'s bid {b} is impossible: it does not beat the earlier bid {high}"
            )
        high = b
    bids.sort(key=lambda sb: order.index(sb[0]))


def _check_known(known: dict[int, list[int]], hand: list[int], seat: int, r: Rules) -> None:
    placed = {c: "your hand" for c in hand}
    for s, cards in known.items():
        if s == seat:
            raise AdvisorError(f"known: seat {s} is your own seat (its cards are your hand)")
        if len(cards) > r.cards_dealt:
            raise AdvisorError(
                f"known: seat {s} is dealt {r.cards_dealt} cards, {len(cards)} given"
            )
        for c in cards:
            if c in placed:
                raise AdvisorError(f"known: {format_card(c)} is already in {placed[c]}")
            placed[c] = f"seat {s}'s known cards"


# ------------------------------------------------------------------- estimates
def _pedro_slots(r: Rules) -> list[tuple[str, int]]:
    """The Pedro-like point slots to report: the Right Pedro and the left card."""
    slots = [
        (name, L.SLOT_RANK0 + i)
        for i, (name, _, _) in enumerate(r.point_cards)
        if name == "right_pedro"
    ]
    if r.left_rank:
        slots.append((r.left_name, L.SLOT_LEFT))
    return slots


@dataclass
class Advice:
    """Counts from the simulated deals and everything derived from them (plain data)."""

    query: Query
    risk: float
    precision_target: float
    max_hands: int
    seed: int
    policies: dict[str, list[str]]
    contract_aware: bool
    contracts: list[int]  # the contract each playout group was played at
    joint: np.ndarray  # [suit, group, own points, opponents' points] deal counts
    pedro: np.ndarray  # [suit, group, pedro] deals where the side captured it
    hands: int = 0  # accepted deals (each played once per suit and group)
    tried: int = 0  # deals dealt, rejected ones included
    played: int = 0  # kernel hands run in all
    rounds: int = 0
    seconds: float = 0.0
    safe_risk: float = SAFE_RISK

    # ---- per-estimate arrays -----------------------------------------------
    @property
    def bids(self) -> np.ndarray:
        return np.array(self.query.bid_levels)

    def _group(self, b: int) -> int:
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
            out[:, i] = tail[:, self._group(int(b)), b]
        return out

    def p_make(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
                w = self.joint[s, self._group(int(b))]
                m = (w * own).sum() / n
                ev[s, i] = m
                ev_sd[s, i] = math.sqrt(max((w * own * own).sum() / n - m * m, 0.0))
                margin[s, i] = (w * (own - opp)).sum() / n
        half = Z95 * ev_sd / math.sqrt(n)
        return {"ev": ev, "ev_lo": ev - half, "ev_hi": ev + half, "ev_margin": margin}

    def mean_points(self) -> np.ndarray:
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
        legal = set(self.query.legal_bids)
        best = None
        for i, b in enumerate(self.bids):
            if int(b) in legal and p_row[i] >= level:
                best = int(b)
        return best

    def per_suit(self) -> list[dict[str, Any]]:
        p, lo, hi = self.p_make()
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
    def best_trump(self) -> int:
        """The suit whose best legal bid has the highest expected score (margin over the
        opponents); with no legal bid left, the suit with the most expected points."""
        suits = self.per_suit()
        mean = self.mean_points()
        if all(d["max_ev_margin"] is None for d in suits):
            return int(np.argmax(mean))
        return max(range(4), key=lambda s: (suits[s]["max_ev_margin"], mean[s]))

    @property
    def recommended_bid(self) -> int | None:
        return self.per_suit()[self.best_trump]["recommended_bid"]

    @property
    def safe_bid(self) -> int | None:
        return self.per_suit()[self.best_trump]["safe_bid"]

    @property
    def best_ev_bid(self) -> int | None:
        d = self.per_suit()[self.best_trump]
        if d["max_ev_bid"] is None or d["max_ev"] <= 0:
            return None
        return d["max_ev_bid"]

    def reason(self) -> str:
        """One line: why this bid, in this trump."""
        s = self.best_trump
        name = SUIT_NAMES[SUITS[s]]
        p, lo, hi = self.p_make()
        legal = self.query.legal_bids
        idx = {int(b): i for i, b in enumerate(self.bids)}
        if not legal:
            return (
                f"no legal bid is left above {self.query.high_bid}: pass "
                f"({name} would be your best trump)"
            )
        rec = self.recommended_bid
        ev_bid = self.best_ev_bid
        sc = self.score_change()
        # With one playout serving every bid, EV(b) - EV(b + 1) = (2b + 1) P(points = b)
        # + P(points < b) >= 0: as the maker a lower bid never scores less; a higher bid
        # only keeps the later seats from overbidding, which this estimate does not model.
        lowest = (
            ""
            if self.contract_aware
            else ", the lowest legal bid: as maker a lower bid never scores less"
        )
        ev_part = (
            f"bid {ev_bid} has the best expected score change "
            f"({sc['ev'][s, idx[ev_bid]]:+.2f}{lowest if ev_bid == legal[0] else ''})"
            if ev_bid is not None
            else "no bid has a positive expected score change"
        )
        if rec is None:
            b0 = legal[0]
            text = (
                f"pass: no legal bid reaches P(make) {self.risk:.2f} even in {name}, "
                f"the best trump (P(make {b0}) = {p[s, idx[b0]]:.3f}); {ev_part}"
            )
            return text + self._dealer_note()
        nxt = rec + 1
        nxt_part = f", P(make {nxt}) = {p[s, idx[nxt]]:.3f}" if nxt in idx and nxt in legal else ""
        return (
            f"{name}: P(make {rec}) = {p[s, idx[rec]]:.3f} "
            f"[{lo[s, idx[rec]]:.3f}, {hi[s, idx[rec]]:.3f}] >= risk {self.risk:.2f}"
            f"{nxt_part}; {ev_part}"
        )

    def _dealer_note(self) -> str:
        q = self.query
        P = q.rules.players
        order = [(q.dealer + 1 + j) % P for j in range(P)]
        everyone_before = len(q.bids) == P - 1 and q.seat == q.dealer
        if (
            everyone_before
            and q.high_bid == 0
            and q.rules.all_pass == "dealer_no_contract"
            and order[-1] == q.seat
        ):
            return " (all passed: as dealer you still name trump, at contract 0)"
        return ""

    # ---- output ------------------------------------------------------------
    def playout_note(self) -> str:
        if self.contract_aware:
            return "each contract played separately on the same deals (policies may use it)"
        return (
            "one playout per deal and suit serves every bid "
            "(the discard and play policies ignore the contract)"
        )

    def to_dict(self) -> dict[str, Any]:
        q = self.query
        p, lo, hi = self.p_make()
        sc = self.score_change()
        pp, plo, phi = self.pedro_rates()
        hist = self.own_hist()
        suits = self.per_suit()
        mean = self.mean_points()
        pedro_names = [n for n, _ in _pedro_slots(q.rules)]
        by_trump: dict[str, Any] = {}
        for s in range(4):
            bids = {}
            for i, b in enumerate(self.bids):
                g = self._group(int(b))
                entry = {
                    "p_make": float(p[s, i]),
                    "lo": float(lo[s, i]),
                    "hi": float(hi[s, i]),
                    "ev": float(sc["ev"][s, i]),
                    "ev_lo": float(sc["ev_lo"][s, i]),
                    "ev_hi": float(sc["ev_hi"][s, i]),
                    "ev_margin": float(sc["ev_margin"][s, i]),
                    "legal": int(b) in q.legal_bids,
                }
                if self.contract_aware:
                    entry["points_dist"] = (hist[s, g] / max(self.hands, 1)).tolist()
                bids[str(int(b))] = entry
            d = suits[s]
            by_trump[SUITS[s]] = {
                "name": SUIT_NAMES[SUITS[s]],
                "mean_points": float(mean[s]),
                "points_dist": (hist[s, 0] / max(self.hands, 1)).tolist(),
                "pedros": {
                    name: {"p": float(pp[s, j]), "lo": float(plo[s, j]), "hi": float(phi[s, j])}
                    for j, name in enumerate(pedro_names)
                },
                "recommended_bid": d["recommended_bid"],
                "safe_bid": d["safe_bid"],
                "best_ev_bid": d["max_ev_bid"] if (d["max_ev"] or 0) > 0 else None,
                "bids": bids,
            }
        return {
            "hand": [format_card(c) for c in q.hand],
            "seat": q.seat,
            "dealer": q.dealer,
            "bids_before": [{"seat": s, "bid": None if b == L.BID_PASS else b} for s, b in q.bids],
            "known": {str(s): [format_card(c) for c in cs] for s, cs in q.known.items()},
            "legal_bids": q.legal_bids,
            "best_trump": SUITS[self.best_trump],
            "recommended_bid": self.recommended_bid,
            "safe_bid": self.safe_bid,
            "best_ev_bid": self.best_ev_bid,
            "risk": self.risk,
            "safe_risk": self.safe_risk,
            "reason": self.reason(),
            "precision": self.precision_reached(),
            "precision_target": self.precision_target,
            "hands": self.hands,
            "max_hands": self.max_hands,
            "deals_tried": self.tried,
            "acceptance_rate": self.hands / self.tried if self.tried else None,
            "kernel_hands": self.played,
            "rounds": self.rounds,
            "contract_aware": self.contract_aware,
            "playouts": self.playout_note(),
            "score_change": (
                "ev: expected change of your side's score; ev_margin: your side's change "
                "minus the opponents'; a pass counts as 0"
            ),
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "rules": q.rules.describe(),
            "policies": self.policies,
            "by_trump": by_trump,
        }

    def to_frame(self):
        """Long table: one row per trump and bid (pandas imported here)."""
        import pandas as pd

        q = self.query
        p, lo, hi = self.p_make()
        sc = self.score_change()
        rows = []
        for s in range(4):
            for i, b in enumerate(self.bids):
                rows.append(
                    {
                        "trump": SUITS[s],
                        "bid": int(b),
                        "p_make": p[s, i],
                        "p_make_lo": lo[s, i],
                        "p_make_hi": hi[s, i],
                        "ev": sc["ev"][s, i],
                        "ev_lo": sc["ev_lo"][s, i],
                        "ev_hi": sc["ev_hi"][s, i],
                        "ev_margin": sc["ev_margin"][s, i],
                        "legal": int(b) in q.legal_bids,
                        "hands": self.hands,
                    }
                )
        df = pd.DataFrame(rows)
        d = self.to_dict()
        df.attrs["advice"] = {k: v for k, v in d.items() if k != "by_trump"}
        df.attrs["by_trump"] = d["by_trump"]
        return df

    def table(self) -> str:
        """The advice and its estimates for people (no pandas)."""
        q = self.query
        P = q.rules.players
        from cinch_sim.rules import seat_name

        p, lo, hi = self.p_make()
        sc = self.score_change()
        pp, _, _ = self.pedro_rates()
        suits = self.per_suit()
        mean = self.mean_points()
        best = self.best_trump
        lines = [
            f"Hand {' '.join(pretty_card(c) for c in sorted(q.hand, key=_display_key))}: "
            f"seat {q.seat} ({seat_name(q.seat, q.dealer, P)}), dealer seat {q.dealer}"
        ]
        if q.bids:
            bids = ", ".join(f"seat {s} {'pass' if b == L.BID_PASS else b}" for s, b in q.bids)
            lines.append(
                f"Bids before you: {bids}; {self.hands:,} of {self.tried:,} deals matched "
                f"(acceptance {self.hands / max(self.tried, 1):.2%})"
            )
        for s, cs in q.known.items():
            lines.append(f"Known: seat {s} holds {' '.join(pretty_card(c) for c in cs)}")
        lines.append(
            f"{self.hands:,} deals per suit, the same deals for every suit and bid; "
            f"95% half-width reached {self.precision_reached():.4f} "
            f"(target {self.precision_target:g}); {self.seconds:.2f} s"
        )
        lines.append(f"Playouts: {self.playout_note()}.")
        lines.append("")
        lines.append("P(make bid) by trump, with 95% Wilson intervals (* = legal bid)")
        head = f"{'bid':>4} " + " ".join(
            f"{SUIT_NAMES[SUITS[s]] + (' (best)' if s == best else ''):^19}" for s in range(4)
        )
        lines.append(head)
        legal = set(q.legal_bids)
        for i, b in enumerate(self.bids):
            cells = [
                f"{p[s, i]:.3f} [{lo[s, i]:.3f},{hi[s, i]:.3f}]".replace("0.", ".").replace(
                    "1.000", "1.00"
                )
                for s in range(4)
            ]
            mark = "*" if int(b) in legal else " "
            lines.append(f"{int(b):>3}{mark} " + " ".join(f"{c:^19}" for c in cells))
        lines.append("")
        lines.append("Expected score change of your side by bid (set: -bid under setback)")
        lines.append(f"{'bid':>4} " + " ".join(f"{SUIT_NAMES[SUITS[s]]:>9}" for s in range(4)))
        for i, b in enumerate(self.bids):
            mark = "*" if int(b) in legal else " "
            lines.append(
                f"{int(b):>3}{mark} " + " ".join(f"{sc['ev'][s, i]:>+9.2f}" for s in range(4))
            )
        lines.append("")
        names = [n for n, _ in _pedro_slots(q.rules)]
        pedro_head = " ".join(f"{n.replace('_pedro', ' P') + ' saved':>13}" for n in names)
        lines.append(
            f"{'trump':<9} {'mean pts':>8} {pedro_head} "
            f"{'bid@' + format(self.risk, '.2f'):>9} {'safe@' + format(self.safe_risk, '.2f'):>10}"
            f" {'best EV':>12}"
        )
        for s in range(4):
            d = suits[s]
            ev = "-"
            if d["max_ev_bid"] is not None:
                shown = d["max_ev_bid"] if d["max_ev"] > 0 else "pass"
                ev = f"{shown} ({d['max_ev']:+.2f})"
            ped = " ".join(f"{pp[s, j]:>13.3f}" for j in range(len(names)))
            lines.append(
                f"{SUIT_NAMES[SUITS[s]]:<9} {mean[s]:>8.2f} {ped} "
                f"{_bid_text(d['recommended_bid']):>9} {_bid_text(d['safe_bid']):>10} {ev:>12}"
            )
        lines.append("")
        lines.append(
            f"Advice: trump {SUIT_NAMES[SUITS[best]]}; bid {_bid_text(self.recommended_bid)} "
            f"(risk {self.risk:.2f}); safe ({self.safe_risk:.2f}): "
            f"{_bid_text(self.safe_bid)}; best expected score: {_bid_text(self.best_ev_bid)}."
        )
        lines.append(f"Why: {self.reason()}.")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """P(make) against bid, one line per suit with its interval band."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        p, lo, hi = self.p_make()
        fig, ax = plt.subplots(figsize=(7, 4.5))
        colours = {"C": "tab:green", "S": "black", "D": "tab:orange", "H": "tab:red"}
        for s in range(4):
            name = SUIT_NAMES[SUITS[s]]
            ax.plot(self.bids, p[s], marker="o", ms=3, color=colours[SUITS[s]], label=name)
            ax.fill_between(self.bids, lo[s], hi[s], color=colours[SUITS[s]], alpha=0.2)
        ax.axhline(self.risk, ls="--", lw=0.8, color="grey", label=f"risk {self.risk:.2f}")
        ax.axhline(self.safe_risk, ls=":", lw=0.8, color="grey", label=f"safe {self.safe_risk}")
        if self.query.high_bid:
            ax.axvspan(self.bids[0] - 0.5, self.query.high_bid + 0.5, color="grey", alpha=0.1)
        ax.set_xlabel("bid")
        ax.set_ylabel("P(side takes at least the bid)")
        ax.set_xticks(self.bids)
        ax.set_ylim(0, 1.02)
        ax.set_title(
            f"{' '.join(format_card(c) for c in self.query.hand)} - seat {self.query.seat}, "
            f"dealer {self.query.dealer}; {self.hands:,} deals"
        )
        ax.legend(fontsize=8, loc="upper right")
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)


def _bid_text(b: int | None) -> str:
    return "pass" if b is None else str(b)


def _display_key(c: int) -> tuple[int, int]:
    return (c // 13, -(c % 13))


# ----------------------------------------------------------------- simulation
def _contract_blind(policies) -> bool:
    """Every built-in discard and play policy ignores the contract; user ones may not."""
    return all(p.builtin is not None for p in policies.discard + policies.play)


def _needed(k: np.ndarray, n: int, precision: float) -> int:
    """Deals that would bring the widest interval to ``precision`` (normal approximation
    with the proportion shrunk towards 1/2, so a zero count still asks for some deals)."""
    pt = (np.asarray(k, float) + 2) / (n + 4)
    var = float(np.max(pt * (1 - pt)))
    return int(math.ceil(Z95 * Z95 * var / (precision * precision)))


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

    from cinch_sim.engine.run import Conditions, PolicySet, run_chunk

    r = q.rules
    policies = PolicySet.from_specs(r.players, bid, trump, discard, play)
    aware = (not _contract_blind(policies)) if contract_aware is None else bool(contract_aware)
    contracts = q.bid_levels if aware else [0]
    T = r.total_points + 1
    pedros = _pedro_slots(r)
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
        pedro=np.zeros((4, len(contracts), len(pedros)), np.int64),
    )
    required = [b for _, b in q.bids]
    fixed = q.fixed()
    conds = [
        [
            Conditions(
                fixed=fixed,
                force_maker=q.seat,
                force_trump=s,
                force_bid=c,
                required_bids=required,
            )
            for c in contracts
        ]
        for s in range(4)
    ]
    team = q.team
    teams = r.teams
    rejecting = bool(required)

    if threads is not None:
        try:
            check_threads(threads)
        except ValueError as exc:
            raise AdvisorError(str(exc)) from None

    def run(s: int, g: int, offset: int, n: int) -> np.ndarray:
        rows, _ = run_chunk(r, policies, seed, offset, n, q.dealer, conds[s][g])
        adv.played += n
        return rows

    def add(rows: np.ndarray, s: int, g: int) -> None:
        own = rows[:, L.H_POINTS + team]
        opp = rows[:, L.H_POINTS : L.H_POINTS + teams].sum(axis=1) - own
        adv.joint[s, g] += np.bincount(own * T + opp, minlength=T * T).reshape(T, T)
        for j, (_, slot) in enumerate(pedros):
            adv.pedro[s, g, j] += int((rows[:, L.H_SLOT_TEAM + slot] == team).sum())

    def play_range(offset: int, n: int) -> None:
        """Deal offset..offset+n-1; play the accepted deals at every suit and contract."""
        chunk = REJECT_CHUNK if rejecting else CHUNK
        done = 0
        while done < n and adv.hands < max_hands:
            m = min(chunk, n - done)
            start_at = offset + done
            rows0 = run(0, 0, start_at, m)
            ok0 = rows0[:, L.H_REJECTED] == 0
            accepted = np.flatnonzero(ok0)
            room = max_hands - adv.hands
            used = int(accepted[room]) if len(accepted) > room else m  # stop at max_hands
            keep = ok0[:used]
            if keep.any():
                add(rows0[:used][keep], 0, 0)
                for s in range(4):
                    for g in range(len(contracts)):
                        if s == 0 and g == 0:
                            continue
                        rows = run(s, g, start_at, used)
                        if not np.array_equal(rows[:, L.H_REJECTED] == 0, keep):
                            raise RuntimeError("the accepted deals differ between suits")
                        add(rows[keep], s, g)
            adv.hands += int(keep.sum())
            adv.tried += used
            done += m

    with using(threads):
        # Round 1: the worst case (p = 1/2). P(make b) falls from about 1 to about 0
        # across the bids, so nearly every hand has an estimate near 1/2 and needs it
        # all; one round then usually suffices. Later rounds are sized from the counts.
        worst = _needed(np.array([0.0]), 0, precision)  # shrunk p = 1/2
        target = min(max_hands, worst)
        rate = 1.0
        while True:
            want = target - adv.hands
            if rejecting:
                rate = (adv.hands + 1) / (adv.tried + 2) if adv.tried else 1.0
                tries = int(math.ceil(want / rate * 1.1)) if adv.tried else max(MIN_PROBE, 4 * want)
                tries = min(max(tries, 10_000), 50_000_000)
            else:
                tries = want
            play_range(adv.tried, tries)
            adv.rounds += 1
            if rejecting:
                _check_acceptance(adv, min_acceptance, q)
            if adv.hands >= max_hands or adv.precision_reached() <= precision:
                break
            k_all = np.concatenate([adv.make_counts().ravel(), adv.pedro[:, 0, :].ravel()])
            need = _needed(k_all, adv.hands, precision)
            target = min(max_hands, max(int(need * 1.05), adv.hands + max(200, adv.hands // 10)))
    adv.seconds = time.perf_counter() - start
    return adv


def _check_acceptance(adv: Advice, min_acceptance: float, q: Query) -> None:
    bids = ", ".join(f"seat {s} {'pass' if b == L.BID_PASS else b}" for s, b in q.bids)
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


def evaluate_hand(
    hand: str | Sequence,
    seat: int,
    dealer: int = 3,
    **kwargs: Any,
):
    """Like ``advise`` but returns a pandas DataFrame, one row per trump and bid:
    P(make) with its 95% interval, expected score change and its interval.
    ``df.attrs["advice"]`` holds the advice (best trump, recommended bid, ...),
    ``df.attrs["by_trump"]`` the per-suit detail (points distribution, Pedros)."""
    return advise(hand, seat, dealer, **kwargs).to_frame()

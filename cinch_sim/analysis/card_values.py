"""What a card is worth to its maker, measured by a controlled experiment.

Comparing hands dealt a card with hands not dealt it mixes the card with
everything that comes with it (a hand holding the ace is a hand that bid), so
the Left Pedro came out worth almost nothing. Here each deal is played twice
with the contract fixed (the original maker, trump and bid): once as dealt,
once with the card swapped against a named replacement, wherever that lies
in the deck, so the same seat holds everything else and the policies draw
from the same streams (same hand index). The paired differences (points,
made at the contract, made at each bid, score change) have paired Student's
t intervals over deals.

One Python call per replay (run on the engine's threads): about 0.1 ms a
deal's replays for the heuristic, so 100,000 hands take some tens of
seconds; the PIMC player (about 35 ms a hand) is meant for a few hundred.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.analysis.intervals import bounded_mean
from cinch_sim.analysis.words import makers
from cinch_sim.cards import RANKS, card, left_card
from cinch_sim.engine.run import PolicySet, Replayer, iter_chunks
from cinch_sim.engine.threads import run_split, using
from cinch_sim.rules import Rules
from cinch_sim.views import Tables

REPLACEMENTS = ("trump", "plain")
"""``trump``: the lowest trumps the maker was not dealt that score nothing of
themselves (not a point card, not the left card); ``plain``: the lowest
non-trump cards he was not dealt."""
RANK_WORDS = dict(zip("AKQJT98765432", "Ace King Queen Jack Ten Nine Eight Seven Six Five Four "
                     "Three Two".split(), strict=True))  # fmt: skip
# point cards named for the point they win, not by a name of their own (as the Pedros
# and the Sancho are): a table calls them by their rank, "Ten of trumps (Game)"
WON_POINTS = ("jack", "game")
CHUNK = 256  # hands a chunk (Ctrl-C waits for one: about 10 s of the PIMC player's)
MIN_DEALS = 30  # fewer paired deals than this: the t interval is not to be trusted


@dataclass(frozen=True)
class TestedCard:
    """A card (or pair) whose value is measured: its label and its places in the trump
    order (a rank letter, or "L" for the left card)."""

    label: str
    letters: tuple[str, ...]

    @property
    def code(self) -> str:
        """``"5"``, ``"L"``, ``"5+L"``: the trump-order letters, for tables."""
        return "+".join(self.letters)


def trump_card(rules: Rules, trump: int, letter: str) -> int:
    """The card a trump-order letter names when ``trump`` is trumps."""
    if letter == "L":
        return left_card(trump, RANKS.index(rules.left_rank))
    return card(trump, RANKS.index(letter))


def tested_cards(rules: Rules) -> list[TestedCard]:
    """Every card the experiment values under ``rules``: the A, K and Q of trumps,
    each point card, the left card and the pair of same-rank point cards (the
    Pedros), highest first."""
    points = {rank: name for name, rank, _ in rules.point_cards}
    if rules.left_name == "left_bower":  # all_hands: the Jack point is the Right Bower's
        points = {r: "right_bower" if n == "jack" else n for r, n in points.items()}
    out = [TestedCard(f"{RANK_WORDS[r]} of trumps", (r,)) for r in "AKQ" if r not in points]
    order = [c for c in rules.trump_order if c in points]
    out += [TestedCard(_point_card_label(points[r], r), (r,)) for r in order]
    if rules.left_rank:
        out.append(TestedCard(N.label(rules.left_name), ("L",)))
        if rules.left_rank in points:
            pair = N.label(points[rules.left_rank]), N.label(rules.left_name)
            right, left = pair  # the Right and Left Pedro (Bower): both Pedros (Bowers)
            same = right.removeprefix("Right ") == left.removeprefix("Left ") != right
            both = f"both {right.removeprefix('Right ')}s" if same else " and ".join(pair)
            out.append(TestedCard(both, (rules.left_rank, "L")))
    return out


def _point_card_label(name: str, rank: str) -> str:
    """``"Right Pedro"``, ``"Jack of trumps"``, ``"Ten of trumps (Game)"``: a point card
    by its own name, or by its rank where it is named for the point it wins."""
    if name not in WON_POINTS:
        return N.label(name)
    card = f"{RANK_WORDS[rank]} of trumps"
    return card if N.label(name) == RANK_WORDS[rank] else f"{card} ({N.label(name)})"


def maker_positions(rules: Rules, dealer: int, maker: int) -> list[int]:
    """The deck positions the maker is dealt from (packets of three from eldest), as
    the kernel deals a deck without fixed cards."""
    P, D = rules.players, rules.cards_dealt
    j = (maker - dealer - 1) % P
    return [r * 3 * P + j * 3 + k for r in range(D // 3) for k in range(3)]


def stand_in_ranks(rules: Rules) -> list[str]:
    """The trumps that may stand in for a tested card, lowest first: the trump order's
    ranks that score nothing of themselves under ``rules`` (nor the left card, nor the
    2 where Low is the 2 and no other card: ``low_rule=deuce_only``)."""
    scoring = {r for _, r, _ in rules.point_cards} | {"L"}
    if rules.low_rule == "deuce_only":
        scoring.add("2")
    return [c for c in reversed(rules.trump_order) if c not in scoring]


def replacements(
    rules: Rules, trump: int, dealt: set[int], k: int, kind: str = "trump"
) -> list[int] | None:
    """The ``k`` cards that stand in for the tested cards (``REPLACEMENTS``), lowest
    first; None when there are not enough."""
    if kind == "trump":
        pool = [trump_card(rules, trump, c) for c in stand_in_ranks(rules)]
    else:
        trumps = {trump_card(rules, trump, c) for c in rules.trump_order}
        pool = sorted((c for c in range(52) if c not in trumps), key=lambda c: (c % 13, c // 13))
    found = [c for c in pool if c not in dealt][:k]
    return found if len(found) == k else None


def swapped(
    deck: list[int], cards: list[int], stand_ins: list[int], maker_at: list[int] | None = None
) -> list[int]:
    """The deck with each of ``cards`` and its stand-in trading places. With two decks
    a face lies twice: the copy swapped out is the first the maker was dealt (his
    positions ``maker_at``), and the stand-in, which he was not dealt, its first copy."""
    out = list(deck)
    mine = set(range(len(deck)) if maker_at is None else maker_at)
    for a, b in zip(cards, stand_ins, strict=True):
        i = next(p for p, c in enumerate(deck) if c == a and p in mine)
        j = deck.index(b)
        out[i], out[j] = b, a
    return out


def dealt_deck(rules: Rules, tr: np.ndarray) -> list[int]:
    """A trace row's deal order: 52 faces, or with two decks 104 (each face twice)."""
    deck = [int(c) for c in tr[L.T_DECK : L.T_DECK + 52]]
    if rules.decks == 2:
        deck += [int(c) for c in tr[L.T_DECK2 : L.T_DECK2 + 52]]
    return deck


@dataclass
class Replay:
    """What one replay gave the maker's side: points, score change, made (1/0)."""

    points: int
    score: int
    made: int

    @classmethod
    def of(cls, row: np.ndarray, rules: Rules) -> Replay:
        team = rules.team_of(int(row[L.H_MAKER]))
        return cls(int(row[L.H_POINTS + team]), int(row[L.H_SCORE + team]), int(row[L.H_MADE]))


def replay(
    rules: Rules, policies: PolicySet, seed: int, index: int, dealer: int, deck: list[int],
    maker: int, trump: int, bid: int,
) -> Replay:  # fmt: skip
    """Deal ``deck`` as hand ``index`` (its streams) with the contract forced (one hand;
    an experiment keeps one ``Replayer`` for all of them)."""
    return Replay.of(Replayer(rules, policies, seed, dealer).play(index, deck, maker, trump, bid),
                     rules)  # fmt: skip


@dataclass
class Pairs:
    """One tested card's paired results: per deal, as dealt and with the swap."""

    bids: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)  # each pair's hand number
    with_card: list[Replay] = field(default_factory=list)
    without: list[Replay] = field(default_factory=list)
    skipped: int = 0  # deals with the card but no stand-in

    def extend(self, other: Pairs) -> None:
        """Append ``other``'s pairs (a later run of deals of the same study)."""
        self.bids += other.bids
        self.deals += other.deals
        self.with_card += other.with_card
        self.without += other.without
        self.skipped += other.skipped

    def arrays(self, what: str) -> tuple[np.ndarray, np.ndarray]:
        a = np.array([getattr(r, what) for r in self.with_card], dtype=float)
        b = np.array([getattr(r, what) for r in self.without], dtype=float)
        return a, b


def run_experiment(
    hands: int,
    seed: int,
    rules: Rules,
    policies: PolicySet,
    dealer: int = 3,
    replacement: str = "trump",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK,
    start: int = 0,
) -> tuple[dict[str, Pairs], int, bool]:
    """Play ``hands`` hands (hand numbers from ``start``); replay each with a maker as
    dealt and with each tested card he was dealt swapped out. Returns (pairs by card
    label, hands played, interrupted). A chunk's replays run on ``threads`` threads
    (the kernel releases the GIL); each is keyed by its own hand number, so the split
    changes no bit, and hands 0..n then n..m are hands 0..m."""
    cards = tested_cards(rules)
    pairs = {c.label: Pairs() for c in cards}
    replayer = Replayer(rules, policies, seed, dealer)
    done = 0
    interrupted = False
    try:
        with using(threads):
            for rows, tr in iter_chunks(
                rules, policies, hands, seed, dealer, chunk, threads, trace=True,
                start=start, progress=progress,
            ):  # fmt: skip
                plans = [
                    _plan(
                        rules, dealer, start + done + i, rows[i], tr[i], cards, pairs, replacement
                    )
                    for i in range(len(rows))
                ]
                kept = [plan for plan in plans if plan]
                for plan, results in zip(kept, _replay_all(replayer, kept), strict=True):
                    plan.record(pairs, results)
                done += len(rows)
    except KeyboardInterrupt:
        interrupted = True
    return pairs, done, interrupted


@dataclass
class _Plan:
    """One deal's replays: the deck as dealt, then one swapped deck per tested card."""

    index: int
    maker: int
    trump: int
    bid: int
    deck: list[int]
    swaps: list[tuple[str, list[int]]]  # (card label, swapped deck)

    def __bool__(self) -> bool:
        return bool(self.swaps)

    def decks(self) -> list[list[int]]:
        return [self.deck] + [d for _, d in self.swaps]

    def record(self, pairs: dict[str, Pairs], results: list[Replay]) -> None:
        base, *alts = results
        for (label, _), alt in zip(self.swaps, alts, strict=True):
            p = pairs[label]
            p.bids.append(self.bid)
            p.deals.append(self.index)
            p.with_card.append(base)
            p.without.append(alt)


def _replay_all(replayer: Replayer, plans: list[_Plan]) -> list[list[Replay]]:
    """Each plan's replays, in order, on the engine's threads (``threads.run_split``):
    runs of consecutive deals, several a thread, each thread taking the next as it
    finishes one, so a few slow replays (PIMC's) do not hold a fixed share. A deal's
    replays go together (``Replayer.play_deal``): PIMC shares its solves between them."""
    out: list[list[Replay]] = [[] for _ in plans]

    def replay(lo: int, hi: int) -> None:
        for i in range(lo, hi):
            p = plans[i]
            rows = replayer.play_deal(p.index, p.decks(), p.maker, p.trump, p.bid)
            out[i] = [Replay.of(row, replayer.rules) for row in rows]

    run_split(replay, len(plans))
    return out


def _plan(
    rules: Rules, dealer: int, index: int, row: np.ndarray, tr: np.ndarray,
    cards: list[TestedCard], pairs: dict[str, Pairs], replacement: str,
) -> _Plan | None:  # fmt: skip
    """The replays one deal needs for the tested cards its maker was dealt (counting
    in ``pairs`` the cards with no stand-in); None when the deal had no maker."""
    maker, trump, bid = int(row[L.H_MAKER]), int(row[L.H_TRUMP]), int(row[L.H_BID])
    if maker < 0 or row[L.H_THROWN_IN] or row[L.H_ERROR] or trump < 0:
        return None
    deck = dealt_deck(rules, tr)
    at = maker_positions(rules, dealer, maker)
    dealt = {deck[p] for p in at}
    swaps = []
    for tc in cards:
        held = [trump_card(rules, trump, x) for x in tc.letters]
        if not all(c in dealt for c in held):
            continue
        stand_ins = replacements(rules, trump, dealt, len(held), replacement)
        if stand_ins is None:
            pairs[tc.label].skipped += 1
            continue
        swaps.append((tc.label, swapped(deck, held, stand_ins, at)))
    return _Plan(index, maker, trump, bid, deck, swaps)


def _paired(a: np.ndarray, b: np.ndarray, bound: float) -> dict[str, float]:
    """Mean of a, of b, and of a - b with its 95% interval by ``bounded_mean`` over
    [-bound, bound], the range such a difference has. Why not a plain paired t: seven
    deals that all came out alike gave [0.0, 0.0], certain where little is known."""
    nan = float("nan")
    diff, lo, hi = bounded_mean(a - b, -bound, bound) if a.size else (nan, nan, nan)
    return {
        "with": float(a.mean()) if a.size else nan,
        "without": float(b.mean()) if b.size else nan,
        "diff": diff,
        "lo": lo,
        "hi": hi,
    }


@dataclass(repr=False)
class CardValues(Tables):
    """Each tested card's value to the maker's side by paired replays (``.table()``:
    one row per card; ``.table("card_values_by_bid")``: make rate at each bid)."""

    settings: dict[str, Any]
    rules: Rules
    pairs: dict[str, Pairs]
    hands_played: int
    seconds: float = 0.0
    interrupted: bool = False

    def extend(self, later: CardValues) -> None:
        """Append a later run of the same study (its hand numbers following these)."""
        for label, p in later.pairs.items():
            self.pairs[label].extend(p)
        self.hands_played += later.hands_played
        self.seconds += later.seconds
        self.interrupted = later.interrupted

    @property
    def deals(self) -> int:
        """Replayed deals over all cards (a deal counts once per card its maker held)."""
        return sum(len(p.bids) for p in self.pairs.values())

    def table_names(self) -> tuple[str, ...]:
        return ("card_values", "card_values_by_bid")

    def _table(self, name: str) -> pd.DataFrame:
        return self.values() if name == "card_values" else self.by_bid()

    def headline(self) -> str:
        return (
            f"Card values: {self.hands_played:,} hands, {N.seeds(self.settings)}, play "
            f"{self.settings['policies']['play'][0]}; {self.deals:,} paired replays"
        )

    def method(self) -> str:
        """The method in one sentence, from the settings (the replacement named)."""
        stand_in = {
            "trump": "the lowest trump he was not dealt that is not itself a point card",
            "plain": "the lowest non-trump card he was not dealt",
        }[self.settings["replacement"]]
        return (
            "Each deal whose maker was dealt the card is played twice with the same contract, "
            f"seats and random streams: as dealt, and with the card swapped for {stand_in} "
            "(two of them for a pair), wherever that lay; the value is the mean paired "
            f"difference in {self._side}'s points, with a paired 95% t interval (one "
            "pseudo-difference added at each end of the possible range)."
            + (
                " With two decks one copy is swapped (the maker may hold the other), "
                "for a stand-in of which he was dealt no copy."
                if self.rules.decks == 2
                else ""
            )
        )

    @property
    def _side(self) -> str:
        return makers(self.rules.partnerships)

    def method_for_players(self) -> str:
        """The method again, in a player's words, with what the stand-in card is."""
        low = [r.replace("T", "10") for r in stand_in_ranks(self.rules)[:2]]
        stand_in = {
            "trump": "a low trump that is no point card by its rank (the lowest such "
            f"trump the maker was not dealt: usually the {low[0]} of trumps, else the "
            f"{low[1]})",
            "plain": "a low card of another suit (the lowest one the maker was not dealt)",
        }[self.settings["replacement"]]
        # a trump stand-in below every point card by rank can still be Low by play
        scores_low = (
            self.settings["replacement"] == "trump"
            and self.rules.low_rule == "lowest_in_play"
            and self.rules.low_points > 0
        )
        low_too = (
            f" The stand-in is no point card, but it may still score Low (the lowest "
            f"trump in play), as the {low[0]} of trumps usually does: each value is what "
            "the card adds beyond a low trump that is itself often worth that point."
            if scores_low
            else ""
        )
        draw = self.rules.draw
        luck = f", every player's luck in {self.rules.draw_name}" if draw else ""
        strong = self._side.replace("the ", "a strong ", 1)
        where = (
            f"still in play, and {strong} often takes it there anyway"
            if draw
            else f"in another hand, where {strong} often takes it anyway, "
            "or among the cards nobody was dealt, out of play"
        )
        return (
            "Put simply: take real deals in which the maker was dealt, say, the Right "
            f"Pedro, and play each one again with that card exchanged for {stand_in}, "
            f"the stand-in card, wherever the stand-in lay.{low_too} Everything else "
            f"stays: the other hands, the contract, the trump suit{luck}. "
            f"So the difference in the points {self._side} ends with is what the card "
            "itself is worth, not the company it keeps (a hand dealt the Right Pedro is "
            f"usually a strong hand anyway). A value of +2 means {self._side} takes 2 "
            "points more, on average, holding the card than holding the stand-in. For a "
            "Pedro that is far less than its 5 points: swapped out, it lies where the "
            f"stand-in lay, {where}. Each "
            "column plays the same kind of deals with other players: the heuristic and "
            "PIMC see only their own cards; perfect play (double-dummy) has every seat "
            "see every card, the bound of what the cards can give."
        )

    def values(self) -> pd.DataFrame:
        """Per tested card: deals, mean points with and without it, the difference (the
        value) with its interval, and the same for making the contract and the score."""
        rows = []
        points = self.rules.total_points
        for tc in tested_cards(self.rules):
            p = self.pairs[tc.label]
            pts = _paired(*p.arrays("points"), bound=points)
            made = _paired(*p.arrays("made"), bound=1.0)
            # a score change runs from minus the bid (set) to the points taken
            score = _paired(*p.arrays("score"), bound=points + self.rules.bid_max)
            rows.append(
                {
                    "card": tc.label,
                    "cards": tc.code,
                    "deals": len(p.bids),
                    "skipped": p.skipped,
                    "points_with": pts["with"],
                    "points_without": pts["without"],
                    "value": pts["diff"],
                    "lo": pts["lo"],
                    "hi": pts["hi"],
                    "made_with": made["with"],
                    "made_without": made["without"],
                    "made_diff": made["diff"],
                    "made_lo": made["lo"],
                    "made_hi": made["hi"],
                    "score_diff": score["diff"],
                    "score_lo": score["lo"],
                    "score_hi": score["hi"],
                }
            )
        return pd.DataFrame(rows)

    def by_bid(self) -> pd.DataFrame:
        """Per tested card and bid b: P(points >= b) with and without it, the paired
        difference and its interval (every deal counts at every b)."""
        rows = []
        for tc in tested_cards(self.rules):
            a, b = self.pairs[tc.label].arrays("points")
            for bid in range(self.rules.bid_min, self.rules.bid_max + 1):
                d = _paired((a >= bid).astype(float), (b >= bid).astype(float), 1.0)
                rows.append(
                    {
                        "card": tc.label,
                        "bid": bid,
                        "deals": int(a.size),
                        # named as the main table's make-rate columns
                        "made_with": d["with"],
                        "made_without": d["without"],
                        "made_diff": d["diff"],
                        "made_lo": d["lo"],
                        "made_hi": d["hi"],
                    }
                )
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """Settings, the method and both tables as JSON-ready records (NaN -> None)."""
        import json

        d = dict(self.settings)
        d.update(
            hands_played=self.hands_played,
            interrupted=self.interrupted,
            seconds=round(self.seconds, 3),
            method=self.method(),
        )
        d["card_values"] = json.loads(self.values().to_json(orient="records"))
        d["card_values_by_bid"] = json.loads(self.by_bid().to_json(orient="records"))
        return d


def card_values(
    hands: int,
    seed: int,
    rules: Rules,
    policies: PolicySet,
    settings: dict[str, Any],
    dealer: int = 3,
    replacement: str = "trump",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK,
    start: int = 0,
) -> CardValues:
    """Run the experiment (``run_experiment``, ``chunk`` deals at a time, hand numbers
    from ``start``) and hold its result."""
    if replacement not in REPLACEMENTS:
        raise ValueError(f"replacement must be one of {', '.join(REPLACEMENTS)}")
    began = time.perf_counter()
    pairs, done, interrupted = run_experiment(
        hands, seed, rules, policies, dealer, replacement, threads, progress, chunk, start
    )
    settings = {**settings, "replacement": replacement}
    return CardValues(settings, rules, pairs, done, time.perf_counter() - began, interrupted)


def display(values: pd.DataFrame) -> pd.DataFrame:
    """The card table as people read it (notation): the value and the make-rate and
    score differences, each with its paired interval."""
    v = values
    return pd.DataFrame(
        {
            "card": v["card"],
            "deals": v["deals"].map(N.count),
            "points with": v["points_with"].map(N.number),
            "points without": v["points_without"].map(N.number),
            "value (points)": [
                N.number_with_interval(x, lo, hi, signed=True)
                for x, lo, hi in zip(v["value"], v["lo"], v["hi"], strict=True)
            ],
            "made at the contract": [
                f"{N.rate(a)} vs {N.rate(b)}"
                for a, b in zip(v["made_with"], v["made_without"], strict=True)
            ],
            "make rate difference": [
                _signed_rate(x, lo, hi)
                for x, lo, hi in zip(v["made_diff"], v["made_lo"], v["made_hi"], strict=True)
            ],
            "score change": [
                N.number_with_interval(x, lo, hi, signed=True)
                for x, lo, hi in zip(v["score_diff"], v["score_lo"], v["score_hi"], strict=True)
            ],
        }
    )


def _signed_rate(x: float, lo: float, hi: float) -> str:
    """A difference of rates in percentage points with its interval: ``+10.4 [9.3, 11.5]``."""
    return N.number_with_interval(100 * x, 100 * lo, 100 * hi, digits=1, signed=True)


def display_by_bid(by_bid: pd.DataFrame) -> pd.DataFrame:
    """The make-rate-by-bid table as people read it: rates, and the difference in
    percentage points with its paired interval."""
    b = by_bid
    return pd.DataFrame(
        {
            "card": b["card"],
            "bid": b["bid"],
            "deals": b["deals"].map(N.count),
            "made with": b["made_with"].map(N.rate),
            "made without": b["made_without"].map(N.rate),
            "difference (pct points)": [
                _signed_rate(x, lo, hi)
                for x, lo, hi in zip(b["made_diff"], b["made_lo"], b["made_hi"], strict=True)
            ],
        }
    )

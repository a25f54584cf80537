"""An independent referee of hand and game records (docs/rules.md, docs/records.md).

Pure Python, written from the rules text and never calling the kernel: its
point is to check the kernel (and real tables). It replays a record step by
step, deal, bids, discards, draws, robbing, every play, and recomputes each
trick's winner, the captured points, made or set and the score; it stops at
the first step that disagrees and says where (field, seat, trick).

Its outcome for one record is a :class:`HandCheck` or a :class:`GameCheck`;
problems are raised as :class:`~cinch_sim.records.parse.RecordError`
(``kind="invalid"``) or noted as a misdeal (docs/rules.md §1.17).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cinch_sim.cards import (
    RANKS,
    SUIT_NAMES,
    SUITS,
    card,
    format_card,
    left_card,
    rank_of,
    suit_of,
)
from cinch_sim.records.game_end import UNFINISHED, hand_ends_game, next_dealer
from cinch_sim.records.parse import (
    GAME_FORMAT,
    HAND_FORMAT,
    RecordError,
    get_card,
    get_cards,
    get_dict,
    get_int,
    get_list,
    parse_rules,
    require,
    short,
    type_name,
)
from cinch_sim.rules import Rules

HAND_KEYS = (
    "format",
    "rules",
    "dealer",
    "hands",
    "stock",
    "exposed",
    "bids",
    "maker",
    "bid",
    "trump",
    "discards",
    "draws",
    "robber_discards",
    "tricks",
    "result",
)
GAME_KEYS = ("format", "rules", "target", "first_dealer", "hands", "totals", "winner", "reason")
PLAY_KEYS = ("discards", "draws", "robber_discards", "tricks")


def cards_text(cards) -> str:
    return " ".join(format_card(c) for c in cards) or "nothing"


def without(cards: list[int], gone: list[int]) -> list[int]:
    """``cards`` in order, one occurrence less of each card of ``gone`` (a multiset
    difference: with two decks, docs/rules.md §3.4, a hand may hold a card twice)."""
    left = Counter(gone)
    out = []
    for c in cards:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


def _missing_from(cards: list[int], wanted: list[int]) -> tuple[int, int] | None:
    """(index in ``wanted``, card) of the first card ``cards`` does not hold that many
    times, or None when ``wanted`` is a sub-multiset of ``cards``."""
    have = Counter(cards)
    for i, c in enumerate(wanted):
        if not have[c]:
            return i, c
        have[c] -= 1
    return None


# ---------------------------------------------------------------- names for people
def side_name(rules: Rules, team: int) -> str:
    """``team 1`` with partners; ``seat 3`` in cut-throat, where each player is a side of
    his own and the side's number is his seat's (``Rules.seat_teams``)."""
    return f"team {team}" if rules.teams < rules.players else f"seat {team}"


def left_title(rules: Rules) -> str:
    """The left card as people name it, from the rules' own name for it: ``Left Pedro``,
    ``Left Bower`` (all_hands); '' when the rules have no left card."""
    return rules.left_name.replace("_", " ").title() if rules.left_rank else ""


# ---------------------------------------------------------------- the trump suit
@functools.lru_cache(maxsize=256)
def trump_suit(rules: Rules, trump: int) -> TrumpSuit:
    return TrumpSuit(rules, trump)


class TrumpSuit:
    """Which cards are trumps and how they rank, for one hand (docs/rules.md §1.2)."""

    def __init__(self, rules: Rules, trump: int) -> None:
        self.trump = trump
        self.left = left_card(trump, RANKS.index(rules.left_rank)) if rules.left_rank else -1
        self.left_title = left_title(rules)
        order = rules.trump_order  # highest first, "L" the left card
        self.strength: dict[int, int] = {}
        for i, r in enumerate(order):
            c = self.left if r == "L" else card(trump, RANKS.index(r))
            self.strength[c] = len(order) - i
        self.cards = frozenset(self.strength)
        protected = {card(trump, RANKS.index("A")), card(trump, RANKS.index("2"))}
        protected |= {card(trump, RANKS.index(r)) for _, r, _ in rules.point_cards}
        if self.left >= 0:
            protected.add(self.left)
        self.point_trumps = frozenset(protected)

    def is_trump(self, c: int) -> bool:
        return c in self.cards

    def suit(self, c: int) -> int:
        """The suit a card plays as: trump for the left card (§1.11)."""
        return self.trump if c in self.cards else suit_of(c)

    def name(self, c: int) -> str:
        if c == self.left:
            return f"{format_card(c)} (the {self.left_title})"
        return format_card(c)


# ---------------------------------------------------------------- outcomes
@dataclass
class Trick:
    leader: int
    cards: list[int]
    seats: list[int]
    winner: int


@dataclass
class HandCheck:
    """The referee's reading of one hand record, with everything it computed."""

    rules: Rules
    dealer: int
    hands: list[list[int]]
    stock: list[int]
    exposed: list[int] = field(default_factory=list)
    misdeal: str | None = None
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    thrown_in: bool = False
    maker: int | None = None
    bid: int | None = None
    trump: int | None = None
    discards: list[list[int]] = field(default_factory=list)
    draws: list[list[int]] = field(default_factory=list)
    robber: int | None = None
    robber_discards: list[int] = field(default_factory=list)
    after_draw: list[list[int]] = field(default_factory=list)
    shortage: bool = False
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    # per point: the capturing team (None: not in play); with two decks the sorted
    # list of the teams of each copy in play (docs/records.md "Variants")
    captured: dict[str, Any] = field(default_factory=dict)
    point_cards: dict[str, int | None] = field(default_factory=dict)
    made: bool | None = None
    score: list[int] = field(default_factory=list)
    renege: dict[str, int] | None = None
    renege_text: str | None = None

    @property
    def status(self) -> str:
        if self.misdeal:
            return "misdeal"
        return "renege" if self.renege else "valid"

    def team(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def result(self) -> dict[str, Any] | None:
        """The ``result`` object docs/records.md describes (None for a misdeal)."""
        if self.misdeal:
            return None
        if self.thrown_in:
            return {"thrown_in": True, "points": self.points, "score": self.score, "made": None}
        return {
            "points": list(self.points),
            "captured": dict(self.captured),
            "made": self.made,
            "score": list(self.score),
            "renege": dict(self.renege) if self.renege else None,
        }

    def to_record(self, *, with_header: bool = True) -> dict[str, Any]:
        """The hand in the writer's exact form, computed fields filled in."""
        rec: dict[str, Any] = {}
        if with_header:
            rec["format"] = HAND_FORMAT
            rec["rules"] = self.rules.to_record()
        rec["dealer"] = self.dealer
        rec["hands"] = [[format_card(c) for c in h] for h in self.hands]
        rec["stock"] = [format_card(c) for c in self.stock]
        if self.exposed:
            rec["exposed"] = (
                format_card(self.exposed[0])
                if len(self.exposed) == 1
                else [format_card(c) for c in self.exposed]
            )
        if self.misdeal:
            return rec
        rec["bids"] = [[s, b] for s, b in self.bids]
        rec["maker"] = self.maker
        rec["bid"] = self.bid
        rec["trump"] = None if self.trump is None else SUITS[self.trump]
        if not self.thrown_in and self.rules.draw:
            rec["discards"] = [[format_card(c) for c in d] for d in self.discards]
            rec["draws"] = [[format_card(c) for c in d] for d in self.draws]
            rec["robber_discards"] = [format_card(c) for c in self.robber_discards]
        if not self.thrown_in:
            rec["tricks"] = [
                {"leader": t.leader, "cards": [format_card(c) for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ]
        rec["result"] = self.result()
        return rec


@dataclass
class GameCheck:
    """The referee's reading of one game record."""

    rules: Rules
    target: int
    first_dealer: int
    hands: list[HandCheck]
    totals: list[list[int]]
    winner: int | None
    reason: str

    @property
    def status(self) -> str:
        if any(h.renege for h in self.hands):
            return "renege"
        if any(h.misdeal for h in self.hands):
            return "misdeal"
        return "valid"

    def notes(self) -> list[str]:
        out = []
        for i, h in enumerate(self.hands):
            if h.misdeal:
                out.append(f"hands[{i}]: misdeal: {h.misdeal}")
            elif h.renege:
                r = h.renege
                out.append(f"hands[{i}], seat {r['seat']}, trick {r['trick'] + 1}: {h.renege_text}")
        return out

    def to_record(self) -> dict[str, Any]:
        return {
            "format": GAME_FORMAT,
            "rules": self.rules.to_record(),
            "target": self.target,
            "first_dealer": self.first_dealer,
            "hands": [h.to_record() for h in self.hands],
            "totals": [list(t) for t in self.totals],
            "winner": self.winner,
            "reason": self.reason,
        }


# ---------------------------------------------------------------- one hand
def check_hand(obj: Any, game_rules: Rules | None = None) -> HandCheck:
    """Referee one ``cinch-hand/1`` object; raise RecordError at the first problem.

    A misdeal is not raised: it comes back as a HandCheck with ``misdeal`` set.
    Inside a game (``game_rules`` given) ``format`` and ``rules`` may be left out.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"a hand must be a JSON object, got {type_name(obj)}")
    for k in obj:
        if k not in HAND_KEYS:
            raise RecordError(f"unknown field {short(k)}", field=str(k))
    if game_rules is None or "format" in obj:
        fmt = require(obj, "format")
        if fmt != HAND_FORMAT:
            raise RecordError(f"{short(fmt)} is not {short(HAND_FORMAT)}", field="format")
    if game_rules is None:
        rules = parse_rules(require(obj, "rules"))
    else:
        rules = game_rules
        if "rules" in obj and parse_rules(obj["rules"]) != game_rules:
            raise RecordError("the hand's rules differ from the game's rules", field="rules")
    P = rules.players
    dealer = get_int(require(obj, "dealer"), "dealer", 0, P - 1)
    hc = HandCheck(rules=rules, dealer=dealer, hands=[], stock=[])
    _check_deal(obj, hc)
    if hc.misdeal:
        return hc
    _check_bids(obj, hc)
    if hc.thrown_in:
        _check_result(obj, hc)
        return hc
    _check_draw(obj, hc)
    _check_tricks(obj, hc)
    _score(hc)
    _check_result(obj, hc)
    return hc


def _check_deal(obj: dict, hc: HandCheck) -> None:
    rules = hc.rules
    P = rules.players
    copies = rules.decks  # two decks: each of the 52 cards exactly twice (§3.4)
    hands_v = get_list(require(obj, "hands"), "hands", P)
    where: dict[int, list[str]] = {}

    def place(c: int, here: str, f: str, seat: int | None = None) -> None:
        seen = where.setdefault(c, [])
        if len(seen) >= copies:
            what = "duplicate card" if copies == 1 else "a third copy of"
            raise RecordError(f"{what} {format_card(c)} (also in {', '.join(seen)})", f, seat)
        seen.append(here)

    for s, h in enumerate(hands_v):
        cards = get_cards(h, f"hands[{s}]", copies, seat=s)
        for i, c in enumerate(cards):
            place(c, f"hands[{s}]", f"hands[{s}][{i}]", s)
        hc.hands.append(cards)
    stock = get_cards(require(obj, "stock"), "stock", copies)
    for i, c in enumerate(stock):
        place(c, "stock", f"stock[{i}]")
    hc.stock = stock
    if copies == 1 and len(where) != 52:
        missing = [c for c in range(52) if c not in where]
        raise RecordError(
            f"hands and stock must hold the 52 cards once each; missing {cards_text(missing)}",
            "hands",
        )
    short_of = [c for c in range(52) if len(where.get(c, ())) != copies]
    if short_of:
        raise RecordError(
            f"hands and stock must hold each of the 52 cards exactly twice (two decks); "
            f"short of {cards_text(short_of)}",
            "hands",
        )
    if "exposed" in obj:  # one card, never null or a list: present means a misdeal
        exposed = obj["exposed"]
        if not isinstance(exposed, str):
            raise RecordError(
                f"must be a card (the one exposed during the deal), got {type_name(exposed)}",
                "exposed",
            )
        hc.exposed = [get_card(exposed, "exposed")]
        hc.misdeal = f"{cards_text(hc.exposed)} exposed during the deal; the same dealer redeals"
        return
    for s, h in enumerate(hc.hands):
        if len(h) != rules.cards_dealt:
            hc.misdeal = (
                f"seat {s} was dealt {len(h)} cards, not {rules.cards_dealt}; "
                "the same dealer redeals"
            )
            return


def _check_bids(obj: dict, hc: HandCheck) -> None:
    rules = hc.rules
    P = rules.players
    bids_v = get_list(require(obj, "bids"), "bids")
    entries: list[tuple[int, int | None]] = []
    for i, e in enumerate(bids_v):
        f = f"bids[{i}]"
        e = get_list(e, f, 2)
        seat = get_int(e[0], f"{f}[0]", 0, P - 1, what="a seat number")
        b = e[1]
        if b is not None:
            b = get_int(b, f"{f}[1]", what="a bid or null (pass)", seat=seat)
        entries.append((seat, b))
    eldest = (hc.dealer + 1) % P
    rounds = rules.bid_rounds
    active = [True] * P
    n_active = P
    high, high_bidder = 0, -1
    turn = i = 0
    while True:
        if rounds > 0 and turn >= rounds * P:
            break
        s = (eldest + turn) % P
        turn += 1
        if not active[s]:
            continue
        if s == high_bidder:
            if n_active == 1:
                break
            continue
        if rounds != 1 and high_bidder >= 0 and high >= rules.bid_max:
            break
        if i >= len(entries):
            raise RecordError(f"the bidding is not over: seat {s} has not bid", "bids", s)
        seat, b = entries[i]
        f = f"bids[{i}]"
        if seat != s:
            raise RecordError(f"seat {seat} bid out of turn; it is seat {s}'s turn", f, seat)
        stuck = s == hc.dealer and high_bidder < 0 and n_active == 1  # all others passed
        forced = stuck and rules.all_pass == "dealer_forced_min"
        lo = max(rules.bid_min, high + 1)
        if stuck and b is None and rules.all_pass == "dealer_forced_any":
            raise RecordError(
                "all others passed: the dealer may not pass (all_pass=dealer_forced_any)", f, s
            )
        if forced:
            if b != rules.bid_min:
                raise RecordError(
                    f"all others passed: the dealer must bid {rules.bid_min} "
                    f"(all_pass=dealer_forced_min), record has {'pass' if b is None else b}",
                    f,
                    s,
                )
        elif b is not None:
            if lo > rules.bid_max:
                raise RecordError(f"bid {b}: nothing beats {high}, seat {s} must pass", f, s)
            if not lo <= b <= rules.bid_max:
                if high_bidder >= 0 and b <= high:
                    raise RecordError(f"bid {b} does not beat the current bid {high}", f, s)
                raise RecordError(f"bid {b} is out of range {rules.bid_min}..{rules.bid_max}", f, s)
        hc.bids.append((s, b))
        i += 1
        if b is not None:
            high, high_bidder = b, s
        else:
            active[s] = False
            n_active -= 1
            if n_active == 0:
                break
    if i < len(entries):
        raise RecordError("the bidding was already over", f"bids[{i}]", entries[i][0])
    if high_bidder >= 0:
        maker, bid = high_bidder, high
    elif rules.all_pass == "dealer_no_contract":
        maker, bid = hc.dealer, 0
    else:  # redeal_next / redeal_same: thrown in
        maker = bid = None
        hc.thrown_in = True
    given_maker = require(obj, "maker")
    given_bid = require(obj, "bid")
    given_trump = require(obj, "trump")
    if hc.thrown_in:
        for k, v in (("maker", given_maker), ("bid", given_bid), ("trump", given_trump)):
            if v is not None:
                raise RecordError(f"all passed and the hand is thrown in: {k} must be null", k)
        for k in PLAY_KEYS:
            if k in obj:
                raise RecordError(f"a thrown-in hand has no {short(k)}", k)
        hc.points = [0] * rules.teams
        hc.score = [0] * rules.teams
        return
    if given_maker is None or get_int(given_maker, "maker", 0, P - 1) != maker:
        why = "the highest bidder" if bid else "the dealer names trumps when all pass"
        raise RecordError(
            f"record says {short(given_maker)}, the maker is seat {maker} ({why})", "maker", maker
        )
    if given_bid is None or get_int(given_bid, "bid") != bid:
        raise RecordError(f"record says {short(given_bid)}, the contract is {bid}", "bid", maker)
    if not isinstance(given_trump, str):
        raise RecordError(f"must be a suit letter (S H D C), got {type_name(given_trump)}", "trump")
    if given_trump not in tuple(SUITS):  # the letter itself: not a name, symbol or lower case
        raise RecordError(f"unknown suit {short(given_trump)} (S H D C)", "trump")
    trump = SUITS.index(given_trump)
    hc.maker, hc.bid, hc.trump = maker, bid, trump


def _check_draw(obj: dict, hc: HandCheck) -> None:
    """Discards, draws and robbing (docs/rules.md §1.6-1.9): read them, check each step in turn.

    Fills ``hc.discards``, ``hc.draws``, ``hc.robber``, ``hc.robber_discards``,
    ``hc.shortage`` and the hands after the draw, ``hc.after_draw``.
    """
    rules = hc.rules
    P = rules.players
    robber = None
    if rules.draw:
        robber = {"maker": hc.maker, "dealer": hc.dealer, "none": None}[rules.robber]
    hc.robber = robber
    if not rules.draw:  # docs/records.md "Variants": no draw, no draw's keys
        for k in ("discards", "draws", "robber_discards"):
            if k in obj:
                raise RecordError(f"{rules.preset} has no draw: the record has no {short(k)}", k)
        hc.discards = [[] for _ in range(P)]
        hc.draws = [[] for _ in range(P)]
        hc.robber_discards = []
        hc.after_draw = [list(h) for h in hc.hands]
        return
    discards_v = get_list(require(obj, "discards"), "discards", P)
    draws_v = get_list(require(obj, "draws"), "draws", P)
    copies = rules.decks
    rdisc = get_cards(require(obj, "robber_discards"), "robber_discards", copies, seat=robber)
    discards = [get_cards(d, f"discards[{s}]", copies, seat=s) for s, d in enumerate(discards_v)]
    draws = [get_cards(d, f"draws[{s}]", copies, seat=s) for s, d in enumerate(draws_v)]
    hc.discards, hc.draws, hc.robber_discards = discards, draws, rdisc
    if not rules.draw:
        for s in range(P):
            if discards[s] or draws[s]:
                raise RecordError("these rules have no draw", f"discards[{s}]", s)
        if rdisc:
            raise RecordError("these rules have no draw", "robber_discards")
        hc.after_draw = [list(h) for h in hc.hands]
        return
    if rules.widow:
        if rdisc:
            raise RecordError("nobody robs the pack in a widow game", "robber_discards")
        hc.after_draw = _check_widows(hc)
        return
    kept = _check_discards(hc)
    need = [rules.hand_size - len(k) if s != robber else 0 for s, k in enumerate(kept)]
    expected = _replenish(hc, need)
    _check_draws(hc, kept, expected)
    after = [kept[s] + draws[s] for s in range(P)]
    if robber is None:
        if rdisc:
            raise RecordError("nobody robs the pack under robber=none", "robber_discards")
    else:
        after[robber] = _check_robbing(hc)
    hc.after_draw = after


def _check_discards(hc: HandCheck) -> list[list[int]]:
    """Each drawer's discard, clockwise from eldest (§1.6; §2: ``must_discard_nontrumps``,
    ``excess_trump_discard``, ``shortage``).

    Only dealt cards, no trump but the excess over the hand size (and under
    ``excess_trump_discard=non_point_only`` a point trump only when every
    non-point trump goes: ``_point_trump_set_aside``), at most
    the hand size kept, and what ``must_discard_nontrumps`` and
    ``shortage=limit_discards`` ask. Returns the cards each seat keeps (none
    for the robber, who does not discard before robbing).
    """
    rules = hc.rules
    P, HS = rules.players, rules.hand_size
    ts = trump_suit(rules, hc.trump)
    n_stock = len(hc.stock)
    limit = rules.shortage == "limit_discards"
    kept: list[list[int]] = [[] for _ in range(P)]
    requested = 0
    for j in range(P):
        s = (hc.dealer + 1 + j) % P
        f = f"discards[{s}]"
        discards = hc.discards[s]
        if s == hc.robber:
            if discards:
                raise RecordError(
                    f"seat {s} robs the pack and does not discard before robbing "
                    "(his set-aside cards go in robber_discards)",
                    f,
                    s,
                )
            continue
        lost = _missing_from(hc.hands[s], discards)
        if lost is not None:
            i, c = lost
            times = "" if rules.decks == 1 or c not in hc.hands[s] else " that many times"
            raise RecordError(f"{format_card(c)} was not dealt to seat {s}{times}", f"{f}[{i}]", s)
        keep = without(hc.hands[s], discards)
        _check_trump_discards(hc, s, keep)
        if len(keep) > HS:
            raise RecordError(
                f"seat {s} keeps {len(keep)} cards; at most {HS} (discards {len(discards)})",
                f,
                s,
            )
        min_keep = max(0, HS - (n_stock - requested)) if limit else 0
        if len(keep) < min_keep:
            raise RecordError(
                f"seat {s} discards {len(discards)}, more than the {n_stock - requested} "
                f"cards left in the stock can replace (shortage=limit_discards: keep at least "
                f"{min_keep})",
                f,
                s,
            )
        if rules.must_discard_nontrumps:
            kept_tr = sum(1 for c in keep if ts.is_trump(c))
            allowed = max(0, min_keep - kept_tr) if limit else 0
            plain = [c for c in keep if not ts.is_trump(c)]
            if len(plain) > allowed:
                raise RecordError(
                    f"seat {s} keeps the non-trump {format_card(plain[0])} "
                    "(must_discard_nontrumps: every non-trump goes)",
                    f,
                    s,
                )
        kept[s] = keep
        requested += HS - len(keep)
    return kept


def _check_trump_discards(hc: HandCheck, s: int, keep: list[int]) -> None:
    """Trumps may not be discarded, except the excess over the hand size (§1.6; §2,
    ``excess_trump_discard``)."""
    rules = hc.rules
    HS = rules.hand_size
    ts = trump_suit(rules, hc.trump)
    f = f"discards[{s}]"
    ntr = sum(1 for c in hc.hands[s] if ts.is_trump(c))
    kept_tr = sum(1 for c in keep if ts.is_trump(c))
    disc_tr = [c for c in hc.discards[s] if ts.is_trump(c)]
    if ntr > HS:
        if kept_tr != HS:
            raise RecordError(
                f"seat {s} holds {ntr} trumps and must keep exactly {HS} of them, "
                f"discarding {ntr - HS} face up; keeps {kept_tr}",
                f,
                s,
            )
        if rules.excess_trump_discard == "non_point_only":
            why = _point_trump_set_aside(ts, keep, disc_tr)
            if why:
                raise RecordError(f"seat {s} discards {why}", f, s)
    elif disc_tr:
        raise RecordError(
            f"seat {s} discards the trump {ts.name(disc_tr[0])}; trumps may not be "
            f"discarded (only the excess over {HS})",
            f,
            s,
        )


def _replenish(hc: HandCheck, need: list[int]) -> list[list[int]]:
    """The cards each seat must receive from the top of the stock (§1.7-1.9).

    Clockwise from eldest each drawer gets what he asked for; when the stock
    runs short, ``shortage=round_robin`` deals it one card at a time among
    those still short, otherwise each is served in turn until it is empty.
    The robber then takes the rest. Sets ``hc.shortage``.
    """
    P = hc.rules.players
    eldest = (hc.dealer + 1) % P
    robber = hc.robber
    n_stock = len(hc.stock)
    expected: list[list[int]] = [[] for _ in range(P)]
    pos = 0
    hc.shortage = sum(need) > n_stock
    if hc.shortage and hc.rules.shortage == "round_robin":
        left = list(need)
        while pos < n_stock and any(left[s] for s in range(P) if s != robber):
            for j in range(P):
                s = (eldest + j) % P
                if s == robber or left[s] == 0 or pos >= n_stock:
                    continue
                expected[s].append(hc.stock[pos])
                left[s] -= 1
                pos += 1
    else:
        for j in range(P):
            s = (eldest + j) % P
            if s == robber:
                continue
            take = min(need[s], n_stock - pos)
            expected[s] = hc.stock[pos : pos + take]
            pos += take
    if robber is not None:
        expected[robber] = hc.stock[pos:]
    return expected


def _check_draws(hc: HandCheck, kept: list[list[int]], expected: list[list[int]]) -> None:
    """Every seat's ``draws`` entry must be the cards :func:`_replenish` gives it, in order."""
    P = hc.rules.players
    for j in range(P):
        s = (hc.dealer + 1 + j) % P
        got, want = hc.draws[s], expected[s]
        if got == want:
            continue
        f = f"draws[{s}]"
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            if g != w:
                what = "the rest of the stock, in order" if s == hc.robber else "the stock's order"
                raise RecordError(
                    f"seat {s} should receive {format_card(w)} here ({what}), "
                    f"record has {format_card(g)}",
                    f"{f}[{i}]",
                    s,
                )
        if s == hc.robber:
            raise RecordError(
                f"the robber (seat {s}) takes the whole rest of the stock, {len(want)} cards "
                f"({cards_text(want)}); record has {len(got)}",
                f,
                s,
            )
        raise RecordError(
            f"seat {s} keeps {len(kept[s])} and must draw {len(want)} "
            f"({cards_text(want)}); record has {len(got)}",
            f,
            s,
        )


def _check_widows(hc: HandCheck) -> list[list[int]]:
    """Each seat's widow and its discard (docs/rules.md §3.7): clockwise from
    eldest each picks up the next ``widow`` cards of the stock, in order, then keeps
    the hand size of his dealt hand and widow as a robber does (``_check_keep``).
    Returns the cards each seat keeps."""
    rules = hc.rules
    P, k = rules.players, rules.widow
    after: list[list[int]] = [[] for _ in range(P)]
    for j in range(P):
        s = (hc.dealer + 1 + j) % P
        want, got = hc.stock[j * k : (j + 1) * k], hc.draws[s]
        f = f"draws[{s}]"
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            if g != w:
                raise RecordError(
                    f"seat {s}'s widow holds {format_card(w)} here (the stock's cards "
                    f"{j * k + 1}-{(j + 1) * k}, in order), record has {format_card(g)}",
                    f"{f}[{i}]",
                    s,
                )
        if len(got) != len(want):
            raise RecordError(
                f"seat {s} picks up a widow of {k} cards ({cards_text(want)}); "
                f"record has {len(got)}",
                f,
                s,
            )
        after[s] = _check_keep(
            hc, s, hc.hands[s] + got, hc.discards[s], f"discards[{s}]", f"seat {s}",
            "his dealt hand and his widow",
        )  # fmt: skip
    return after


def _check_robbing(hc: HandCheck) -> list[int]:
    """The robber's set-aside cards (§1.8): he keeps the hand size of his dealt hand and
    the rest of the stock (``_check_keep``). Returns the cards he keeps."""
    robber = hc.robber
    assert robber is not None
    return _check_keep(
        hc, robber, hc.hands[robber] + hc.draws[robber], hc.robber_discards,
        "robber_discards", f"the robber (seat {robber})",
        "his dealt hand and the rest of the stock",
    )  # fmt: skip


def _check_keep(
    hc: HandCheck, seat: int, cand: list[int], gone: list[int], f: str, who: str, where: str
) -> list[int]:
    """A robber's keep (§1.8), and a widow player's: of ``cand`` he keeps the hand size,
    with as many trumps as he can (under ``excess_trump_discard=non_point_only`` a
    point trump goes only when every non-point trump does: ``_point_trump_set_aside``),
    setting ``gone`` aside (field ``f``). Returns the cards he keeps."""
    rules = hc.rules
    HS = rules.hand_size
    ts = trump_suit(rules, hc.trump)
    lost = _missing_from(cand, gone)
    if lost is not None:
        i, c = lost
        raise RecordError(
            f"{format_card(c)} is not among {who}'s cards ({where})"
            + (" that many times" if c in cand else ""),
            f"{f}[{i}]",
            seat,
        )
    keep = without(cand, gone)
    must_keep = min(HS, len(cand))
    if len(keep) != must_keep:
        raise RecordError(f"{who} must keep {must_keep} cards, keeps {len(keep)}", f, seat)
    ntr = sum(1 for c in cand if ts.is_trump(c))
    kept_tr = sum(1 for c in keep if ts.is_trump(c))
    if kept_tr != min(HS, ntr):
        lost_tr = [c for c in gone if ts.is_trump(c)]
        raise RecordError(
            f"{who} must keep {min(HS, ntr)} trumps, keeps {kept_tr}"
            + (f" (sets aside {ts.name(lost_tr[0])})" if lost_tr else ""),
            f,
            seat,
        )
    if ntr > HS and rules.excess_trump_discard == "non_point_only":
        why = _point_trump_set_aside(ts, keep, gone)
        if why:
            raise RecordError(f"{who} sets aside {why}", f, seat)
    return keep


def _point_trump_set_aside(ts: TrumpSuit, keep: list[int], gone: list[int]) -> str:
    """Under ``excess_trump_discard=non_point_only`` a point trump may go only when no
    non-point trump stays (docs/rules.md §3.6: with more point trumps than the hand
    size, every non-point trump goes first). Says what broke that, else ""."""
    point = [c for c in gone if c in ts.point_trumps]
    plain = [c for c in keep if ts.is_trump(c) and c not in ts.point_trumps]
    if not point or not plain:
        return ""
    return (
        f"the point trump {ts.name(point[0])} and keeps the non-point trump "
        f"{ts.name(plain[0])}; a point trump may go only when every non-point trump "
        "has (excess_trump_discard=non_point_only)"
    )


def _check_tricks(obj: dict, hc: HandCheck) -> None:
    rules = hc.rules
    P = rules.players
    ts = trump_suit(rules, hc.trump)
    strict = rules.follow_rule == "strict"
    # lists, not sets: with two decks a hand may hold a card twice (one copy leaves
    # per play); the first played of two identical cards wins (``_winner``)
    holding = [list(h) for h in hc.after_draw]
    trumps_only = rules.follow_rule == "trumps_only"

    def live(s: int) -> bool:
        """Whether seat s is still in the hand: it holds a card (under trumps_only, a
        trump: a seat with none sits out, its plain cards dead)."""
        return any(ts.is_trump(c) for c in holding[s]) if trumps_only else bool(holding[s])

    played_in: dict[int, list[int]] = {}  # card -> the tricks its copies were played in
    tricks_v = get_list(require(obj, "tricks"), "tricks")
    leader = hc.maker
    for t, tv in enumerate(tricks_v):
        f = f"tricks[{t}]"
        if not any(live(s) for s in range(P)):
            raise RecordError("every card has been played; there is no further trick", f, trick=t)
        tv = get_dict(tv, f)
        for k in tv:
            if k not in ("leader", "cards", "winner"):
                raise RecordError(f"unknown field {short(k)}", f, trick=t)
        lead = leader
        while not live(lead):
            lead = (lead + 1) % P
        given = get_int(require(tv, "leader", f + "."), f + ".leader", 0, P - 1, trick=t)
        if given != lead:
            why = "the maker leads the first trick" if t == 0 else f"seat {leader} won trick {t}"
            if lead != leader:
                what = "trumps" if trumps_only else "cards"
                why += f"; seat {leader} has no {what}, the next seat clockwise leads"
            raise RecordError(
                f"record says seat {given}, seat {lead} leads ({why})", f + ".leader", lead, t
            )
        seats = [(lead + k) % P for k in range(P) if live((lead + k) % P)]
        cards_v = get_list(require(tv, "cards", f + "."), f + ".cards", trick=t)
        if len(cards_v) != len(seats):
            what = "trumps" if trumps_only else "cards"
            raise RecordError(
                f"{len(seats)} seats hold {what} ({', '.join(map(str, seats))}) and each plays "
                f"one; record has {len(cards_v)} cards",
                f + ".cards",
                trick=t,
            )
        cards: list[int] = []
        led_suit = -1
        for k, s in enumerate(seats):
            fk = f"{f}.cards[{k}]"
            c = get_card(cards_v[k], fk, seat=s, trick=t)
            if c not in holding[s]:
                if len(played_in.get(c, ())) >= rules.decks:
                    again = "both copies " if rules.decks > 1 else ""
                    msg = (
                        f"seat {s} plays {format_card(c)}, {again}already played in trick "
                        f"{' and '.join(str(x + 1) for x in played_in[c])}"
                    )
                elif c in cards and rules.decks == 1:
                    msg = f"duplicate card {format_card(c)} in this trick"
                else:
                    owner = [x for x in range(P) if c in holding[x]]
                    where = f"seat {owner[0]} holds it" if owner else _nobody_holds(rules)
                    msg = f"seat {s} plays {format_card(c)}, which it does not hold ({where})"
                raise RecordError(msg, fk, s, t)
            if trumps_only and not ts.is_trump(c) and hc.renege is None:
                why = f"plays {format_card(c)} while holding a trump (follow_rule=trumps_only)"
                hc.renege = {"seat": s, "trick": t}
                hc.renege_text = f"seat {s} {why}"
            if k == 0:
                led_suit = ts.suit(c)
            elif hc.renege is None:
                why = _renege(ts, holding[s], c, led_suit, strict)
                if why:
                    hc.renege = {"seat": s, "trick": t}
                    hc.renege_text = f"seat {s} {why}"
            holding[s].remove(c)
            played_in.setdefault(c, []).append(t)
            cards.append(c)
        win_k = _winner(ts, cards, led_suit)
        winner = seats[win_k]
        if "winner" in tv:  # may be left out, not given as null
            gw = get_int(tv["winner"], f + ".winner", 0, P - 1, what="a seat number", trick=t)
            if gw != winner:
                raise RecordError(
                    f"record says seat {gw}, seat {winner} wins with {ts.name(cards[win_k])}",
                    f + ".winner",
                    winner,
                    t,
                )
        hc.tricks.append(Trick(lead, cards, seats, winner))
        leader = winner
    if any(live(s) for s in range(P)):
        left = "; ".join(
            f"seat {s} holds {cards_text(sorted(holding[s]))}" for s in range(P) if live(s)
        )
        raise RecordError(f"the hand is not finished: {left}", "tricks", trick=len(tricks_v))


def _nobody_holds(rules: Rules) -> str:
    """Why a played card is no seat's: not in the hands the play starts from."""
    return f"no seat holds it after {rules.draw_name}" if rules.draw else "no seat was dealt it"


def _renege(ts: TrumpSuit, hand: list[int], c: int, led_suit: int, strict: bool) -> str | None:
    """Why playing ``c`` is a renege (docs/rules.md §1.11, §1.16), or None when legal."""
    same = [x for x in hand if ts.suit(x) == led_suit]
    if not same or ts.suit(c) == led_suit:
        return None
    if led_suit == ts.trump:
        return (
            f"plays {format_card(c)} on a trump lead while holding the trump "
            f"{ts.name(min(same, key=lambda x: ts.strength[x]))}"
        )
    if ts.is_trump(c) and not strict:
        return None
    return (
        f"plays {ts.name(c)} on a {SUIT_NAMES[SUITS[led_suit]][:-1]} lead while holding "
        f"{format_card(max(same, key=rank_of))}"
        + (" (follow_rule=strict)" if ts.is_trump(c) else "")
    )


def _winner(ts: TrumpSuit, cards: list[int], led_suit: int) -> int:
    """The winning position: the highest trump, else the highest of the suit led; a
    card must be strictly higher to take the lead, so of two identical cards (two
    decks, docs/rules.md §3.4) the one played first wins."""
    best_k, best = 0, -1
    for k, c in enumerate(cards):
        if ts.is_trump(c):
            v = 100 + ts.strength[c]
        elif suit_of(c) == led_suit:
            v = rank_of(c)
        else:
            v = -1
        if v > best:
            best, best_k = v, k
    return best_k


def _score(hc: HandCheck) -> None:
    """Points to the capturing side, made or set, the score change (§1.13, §1.14, §1.16)."""
    rules = hc.rules
    ts = trump_suit(rules, hc.trump)
    T = rules.teams
    in_play = Counter(c for h in hc.after_draw for c in h)  # card -> copies in play
    trumps_in = [c for c in in_play if ts.is_trump(c)]
    # card -> (winner of its trick, player), one entry per copy in play order
    took: dict[int, list[tuple[int, int]]] = {}
    for tr in hc.tricks:
        for c, s in zip(tr.cards, tr.seats, strict=True):
            took.setdefault(c, []).append((tr.winner, s))
    slots: list[tuple[str, int | None, int]] = []
    ace = card(hc.trump, RANKS.index("A"))
    if rules.high_rule == "ace_only":
        high = ace if ace in in_play else None
    else:
        high = max(trumps_in, key=lambda c: ts.strength[c]) if trumps_in else None
    slots.append(("high", high, rules.high_points))
    deuce = card(hc.trump, RANKS.index("2"))
    if rules.low_rule == "deuce_only":
        low = deuce if deuce in in_play else None
    else:
        low = min(trumps_in, key=lambda c: ts.strength[c]) if trumps_in else None
    slots.append(("low", low, rules.low_points))
    for name, rank, pts in rules.point_cards:
        c = card(hc.trump, RANKS.index(rank))
        slots.append((name, c if c in in_play else None, pts))
    if rules.left_rank:
        slots.append(
            (rules.left_name, ts.left if ts.left in in_play else None, rules.left_card_points)
        )
    points = [0] * T
    for name, c, value in slots:
        hc.point_cards[name] = c
        teams = []
        for winner, player in took.get(c, []) if c is not None else []:  # each copy scores
            team = rules.team_of(player if name == "low" and rules.low_to == "player" else winner)
            teams.append(team)
            points[team] += value
        if rules.decks > 1:  # the sorted list of the sides credited, one entry per copy
            hc.captured[name] = sorted(teams)
        else:
            hc.captured[name] = teams[0] if teams else None
    hc.points = points
    mteam = rules.team_of(hc.maker)
    bid = hc.bid
    if hc.renege:
        off = rules.team_of(hc.renege["seat"])
        hc.made = off != mteam
        hc.score = renege_score(T, mteam, off, bid, rules.total_points)
        return
    made = points[mteam] >= bid
    hc.made = made
    score = []
    for t in range(T):
        if t == mteam:
            score.append(points[t] if made else (-bid if rules.scoring == "setback" else 0))
        else:
            extra = bid if (not made and rules.scoring == "difference") else 0
            score.append(points[t] + extra)
    hc.score = score


def renege_score(sides: int, maker: int, offender: int, bid: int, total: int) -> list[int]:
    """Each side's score for a hand with a renege by side ``offender`` (docs/rules.md §1.16,
    §3.5): the offender scores 0, or minus the bid when it is the maker's side. With
    two sides the other scores the points total; with more, only the maker does (as
    made) when another side reneged, and every other side scores 0.

    >>> renege_score(2, 0, 1, 7, 14), renege_score(2, 0, 0, 7, 14)
    ([14, 0], [-7, 14])
    >>> renege_score(3, 1, 0, 7, 14), renege_score(3, 1, 1, 7, 14)
    ([0, 14, 0], [0, -7, 0])
    """
    score = [0] * sides
    score[offender] = -bid if offender == maker else 0
    for t in range(sides):
        if t != offender and (sides == 2 or t == maker):
            score[t] = total
    return score


# A given result's keys, in the order docs/records.md lists them.
RESULT_KEYS = ("points", "captured", "made", "score", "renege")
THROWN_IN_KEYS = ("thrown_in", "points", "score", "made")
# The order the values are compared in: the format's, but made and score follow
# from the renege, so a renege left unreported is named where it is, at
# result.renege, not at the made or score it changes.
RESULT_CHECK_ORDER = ("thrown_in", "points", "captured", "renege", "made", "score")


def _check_result(obj: dict, hc: HandCheck) -> None:
    """A record may leave ``result`` out; one it gives is whole (every key the format
    lists, none else) and agrees with the referee's own, field by field."""
    if "result" not in obj:
        return
    given = get_dict(obj["result"], "result")
    mine = hc.result()
    assert mine is not None
    keys = THROWN_IN_KEYS if hc.thrown_in else RESULT_KEYS
    for k in given:
        if k in keys:
            continue
        if k == "thrown_in":
            raise RecordError(
                'the hand was played, not thrown in: its result has no "thrown_in"',
                "result.thrown_in",
            )
        if k in RESULT_KEYS and hc.thrown_in:
            raise RecordError(f"a thrown-in hand's result has no {short(k)}", f"result.{k}")
        raise RecordError(f"unknown field {short(k)}", "result")
    for k in keys:
        require(given, k, "result.")
    for k in RESULT_CHECK_ORDER:
        if k not in keys:
            continue
        got, want = given[k], mine[k]
        if k == "captured":
            _check_captured(get_dict(got, "result.captured"), want, hc)
            continue
        if _same(got, want):
            continue
        extra = ""
        where: dict[str, Any] = {}
        if k == "score" and hc.renege:
            extra = f" (renege penalty, docs/rules.md §1.16: {hc.renege_text})"
        elif k == "renege" and hc.renege:
            where = {"seat": hc.renege["seat"], "trick": hc.renege["trick"]}
            # in words first: the record's own form counts tricks from 0, the message's
            # "trick N:" from 1, and a reader must not take the two for two tricks
            raise RecordError(
                f"record says {short(got, 60)}, referee finds a renege: {hc.renege_text} "
                f"(written {short(want, 60)}, tricks counted from 0)",
                f"result.{k}",
                **where,
            )
        raise RecordError(
            f"record says {short(got, 60)}, referee computes {short(want, 60)}{extra}",
            f"result.{k}",
            **where,
        )


def _check_captured(got: dict, want: dict[str, Any], hc: HandCheck) -> None:
    """``result.captured``: exactly the rules' points, each credited to the right team."""
    for name in got:
        if name not in want:
            raise RecordError(
                f"unknown point {short(name)} (points: {', '.join(want)})",
                "result.captured",
            )
    for name in want:
        require(got, name, "result.captured.")
    for name, w in want.items():
        g = got[name]
        if not _same(g, w):
            c = hc.point_cards.get(name)
            card_txt = f" ({format_card(c)})" if c is not None else " (not in play)"
            raise RecordError(
                f"record says {short(g)}, referee computes {short(w)}{card_txt}",
                f"result.captured.{name}",
            )


def _same(a: Any, b: Any) -> bool:
    """JSON equality that keeps true/false apart from 1/0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) or isinstance(b, float):
        return False
    return a == b


# ---------------------------------------------------------------- a game
def check_game(obj: Any) -> GameCheck:
    """Referee one ``cinch-game/1`` object (docs/rules.md §1.1, §1.4, §1.15, §1.17).

    The end of the game is ``records.game_end``'s rule.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"a game must be a JSON object, got {type_name(obj)}")
    for k in obj:
        if k not in GAME_KEYS:
            raise RecordError(f"unknown field {short(k)}", field=str(k))
    fmt = require(obj, "format")
    if fmt != GAME_FORMAT:
        raise RecordError(f"{short(fmt)} is not {short(GAME_FORMAT)}", field="format")
    rules = parse_rules(require(obj, "rules"))
    target = get_int(require(obj, "target"), "target")
    if target != rules.target:
        raise RecordError(
            f"target {target} differs from the rules' target {rules.target}", "target"
        )
    P, T = rules.players, rules.teams
    first = get_int(require(obj, "first_dealer"), "first_dealer", 0, P - 1)
    hands_v = get_list(require(obj, "hands"), "hands")
    dealer, why = first, "the first dealer"
    totals = [0] * T
    running: list[list[int]] = []
    checks: list[HandCheck] = []
    winner: int | None = None
    reason = UNFINISHED
    ended = None
    for i, h in enumerate(hands_v):
        if ended is not None:
            won = side_name(rules, winner)
            raise RecordError(
                f"the game was over after hands[{ended}] ({won} won, {reason})", f"hands[{i}]"
            )
        # The rotation first: a wrong dealer would otherwise surface as a later step
        # (a bid out of turn) of a hand replayed from the wrong seat. A dealer that is
        # missing or not a seat is check_hand's to report.
        said = h.get("dealer") if isinstance(h, dict) else None
        if type(said) is int and 0 <= said < P and said != dealer:
            raise RecordError(
                f"record says seat {said}, seat {dealer} deals ({why})",
                f"hands[{i}].dealer",
                dealer,
            )
        try:
            hc = check_hand(h, game_rules=rules)
        except RecordError as e:
            e.field = f"hands[{i}]" + ("." + e.field if e.field else "")
            raise
        checks.append(hc)
        if not hc.misdeal:
            totals = [a + b for a, b in zip(totals, hc.score, strict=True)]
        running.append(list(totals))
        following = next_dealer(rules, dealer, hc.thrown_in, bool(hc.misdeal))
        if hc.misdeal:
            why = f"a misdeal in hands[{i}]: the same dealer deals again"
        elif following == dealer:
            why = f"hands[{i}] was thrown in under all_pass=redeal_same: the same dealer deals"
        else:
            why = f"the deal moves clockwise after hands[{i}]"
        dealer = following
        maker = None if hc.misdeal or hc.thrown_in else hc.maker
        won, why_end = hand_ends_game(rules, totals, maker, hc.made)
        if why_end is not None:
            winner, reason, ended = won, why_end, i
    gc = GameCheck(rules, target, first, checks, running, winner, reason)
    _check_game_end(obj, gc)
    return gc


# What a game record may leave out for the referee to compute: all three or none.
GAME_END_KEYS = ("totals", "winner", "reason")


def _check_game_end(obj: dict, gc: GameCheck) -> None:
    """``totals``, ``winner`` and ``reason``: left out together, or given together and
    each agreeing with the referee's (``winner`` is null only for an unfinished game)."""
    if not any(k in obj for k in GAME_END_KEYS):
        return
    for k in GAME_END_KEYS:
        if k not in obj:
            raise RecordError(
                f"missing field {short(k)} (a game gives totals, winner and reason "
                "together, or leaves all three out)",
                k,
            )
    tv = get_list(obj["totals"], "totals")
    if len(tv) != len(gc.totals):
        raise RecordError(f"{len(tv)} running totals for {len(gc.totals)} hands", "totals")
    for i, (g, w) in enumerate(zip(tv, gc.totals, strict=True)):
        if not _same(g, w):
            raise RecordError(
                f"record says {short(g)}, referee computes {short(w)}", f"totals[{i}]"
            )
    if not _same(obj["winner"], gc.winner):
        raise RecordError(
            f"record says {short(obj['winner'])}, referee computes {short(gc.winner)}", "winner"
        )
    if not _same(obj["reason"], gc.reason):
        raise RecordError(
            f"record says {short(obj['reason'])}, referee computes {short(gc.reason)}", "reason"
        )

"""The advisor's question: the hand, the seat, the dealer, the bids made before
the player (and passes known of the seats after), and any cards known to be in
another hand, parsed and checked.

``make_query`` turns what a player types (or Python values) into a ``Query``;
every problem is a one-line ``AdvisorError`` (or ``CardError`` for the cards).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import (
    CardError,
    check_copies,
    format_card,
    parse_cards,
    parse_hand,
    to_mask,
)
from cinch_sim.checks import from_text
from cinch_sim.rules import Rules, resolve_rules

_DECIMAL = re.compile(r"[+-]?[0-9]+")  # ASCII digits: "٩" is not a bid


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
    """A seat as typed in ``--bids`` or ``--known``: plain ASCII digits (``from_text``)."""
    seat = from_text(token.strip())
    if not isinstance(seat, int):
        raise AdvisorError(f"{what}: seat {token.strip()!r} is not a number")
    return _check_seat(seat, players, f"{what}: seat")


PASS_WORDS = ("pass", "p", "-", "none")
MAX_OWN_CALLS = 30  # an auction's calls of the player's own before his turn (fixed_bid's slots)


def parse_bids(
    text: str | Sequence | Mapping | None, players: int = 4, rules: Rules | None = None
) -> list[tuple[int, int]]:
    """``"0:pass,1:9"`` (or ``{0: "pass", 1: 9}``, ``[(0, None), (1, 9)]``, ``["0:pass",
    "1:9"]``) -> ``[(0, -1), (1, 9)]``; -1 is a pass.

    A pass is a word (``pass``, ``p``, ``-``) or None; every number is a bid, so
    ``0:0`` is refused (no bid of 0 exists), not read as a pass. A dict holds one call
    a seat: an auction's history, where a seat calls again, is a list.

    >>> try:
    ...     parse_bids("1:0")
    ... except AdvisorError as e:
    ...     print(e)
    bids: seat 1's bid 0 is impossible (bids are 1..14, or pass)
    """
    r = rules or Rules()
    if text is None:
        return []
    if isinstance(text, str):
        items = _bid_tokens(text)
    elif isinstance(text, Mapping):
        items = [_bid_item((s, b)) for s, b in text.items()]
    elif isinstance(text, Iterable):
        items = []
        for x in text:  # "SEAT:BID" texts or (seat, bid) pairs
            items += _bid_tokens(x) if isinstance(x, str) else [_bid_item(x)]
    else:
        raise AdvisorError(
            f"bids: {text!r} must be text like '0:8,1:9', a dict {{seat: bid}} or (seat, bid) pairs"
        )
    out: list[tuple[int, int]] = []
    for seat_t, bid_t in items:
        seat = _seat_token(seat_t, players, "bids")
        b = bid_t.strip().lower()
        if b in PASS_WORDS:
            out.append((seat, L.BID_PASS))
            continue
        if not _DECIMAL.fullmatch(b):
            raise AdvisorError(
                f"bids: seat {seat}'s bid {bid_t.strip()!r} is not a number or 'pass'"
            )
        bid = int(b)
        if not r.bid_min <= bid <= r.bid_max:
            raise AdvisorError(
                f"bids: seat {seat}'s bid {bid} is impossible "
                f"(bids are {r.bid_min}..{r.bid_max}, or pass)"
            )
        out.append((seat, bid))
    return out


def _bid_tokens(text: str) -> list[tuple[str, str]]:
    """``"0:pass,1:9"`` as (seat, bid) texts."""
    items = []
    for tok in text.replace(";", ",").replace(" ", ",").split(","):
        tok = tok.strip()
        if not tok:
            continue
        if ":" not in tok and "=" not in tok:
            raise AdvisorError(f"bids: bid {tok!r} must be SEAT:BID, e.g. 1:9 or 0:pass")
        seat, bid = tok.replace("=", ":").split(":", 1)
        items.append((seat, bid))
    return items


def _bid_item(item: object) -> tuple[str, str]:
    """A (seat, bid) pair as texts; a bid of None is a pass."""
    if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
        raise AdvisorError(f"bids: {item!r} is not a (seat, bid) pair, e.g. (1, 9) or (0, 'pass')")
    seat, bid = item
    return str(seat), "pass" if bid is None else str(bid)


def parse_known(
    items: Iterable[str] | str | Mapping | None, players: int = 4
) -> dict[int, list[int]]:
    """``["1:AH KH", "3:2C"]`` (or ``{1: "AH KH"}``, or one ``"1:AH KH"``) -> seat -> cards."""
    if not items:
        return {}
    if isinstance(items, str):
        items = [items]
    pairs: list[tuple[Any, Any]] = []
    if isinstance(items, Mapping):
        pairs = list(items.items())
    elif not isinstance(items, Iterable):
        raise AdvisorError(f"known: {items!r} must be SEAT:CARDS texts, e.g. ['1:AH,KH']")
    else:
        for item in items:
            if not isinstance(item, str) or ":" not in item:
                raise AdvisorError(f"known: {item!r} must be SEAT:CARDS, e.g. 1:AH,KH")
            pairs.append(tuple(item.split(":", 1)))
    out: dict[int, list[int]] = {}
    for seat_t, cards_t in pairs:
        seat = _seat_token(str(seat_t), players, "known")
        try:
            cards = parse_cards(cards_t)
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
    later_passes: list[int] = field(default_factory=list)  # seats after the player that pass

    @property
    def team(self) -> int:
        """The player's side."""
        return self.rules.team_of(self.seat)

    @property
    def high_bid(self) -> int:
        """The highest bid made before the player (0 if none)."""
        return max([b for _, b in self.bids if b > 0], default=0)

    @property
    def may_pass(self) -> bool:
        """False for the dealer once every other seat has passed under
        ``all_pass=dealer_forced_any``: he must bid (what he likes)."""
        if self.rules.all_pass != "dealer_forced_any" or self.seat != self.dealer:
            return True
        passed = {s for s, b in self.bids if b == L.BID_PASS}
        others = set(range(self.rules.players)) - {self.seat}
        return self.high_bid > 0 or not others <= passed

    @property
    def names_trump_on_pass(self) -> bool:
        """The dealer after every other seat passed, under
        ``all_pass=dealer_no_contract``: his pass makes him the maker at contract 0, in
        the trump he names (so a pass is a choice of trump too)."""
        everyone_before = len(self.bids) == self.rules.players - 1 and self.seat == self.dealer
        return (
            everyone_before and self.high_bid == 0 and self.rules.all_pass == "dealer_no_contract"
        )

    @property
    def bid_levels(self) -> list[int]:
        """Every bid the rules allow, lowest first."""
        return list(range(self.rules.bid_min, self.rules.bid_max + 1))

    @property
    def legal_bids(self) -> list[int]:
        """The bids still open to the player (above the highest earlier bid)."""
        return [b for b in self.bid_levels if b > self.high_bid]

    @property
    def own_calls(self) -> list[int]:
        """The player's own calls before this turn (in an auction's later rounds)."""
        return [b for s, b in self.bids if s == self.seat]

    def bids_text(self) -> str:
        """The bids before the player as a phrase: ``seat 0 pass, seat 1 9``; in one
        round, the earlier seats whose calls were not given (their bidders make them on
        each deal) are named too: ``seat 0 8, seat 1 not given``."""
        given = [f"seat {s} {'pass' if b == L.BID_PASS else b}" for s, b in self.bids]
        if self.rules.bid_rounds == 1:
            order = self.rules.turn_order(self.dealer)
            called = {s for s, _ in self.bids}
            given += [f"seat {s} not given" for s in order[: order.index(self.seat)]
                      if s not in called]  # fmt: skip
        return ", ".join(given)

    def later_text(self) -> str:
        """The later seats' passes as a phrase: ``seat 3 pass``."""
        return ", ".join(f"seat {s} pass" for s in self.later_passes)

    def fixed(self) -> dict[int, int]:
        """Seat -> card mask of the cards that are not dealt at random."""
        f = {self.seat: to_mask(self.hand)}
        for s, cards in self.known.items():
            f[s] = to_mask(cards)
        return f

    def fixed_twice(self) -> dict[int, int]:
        """Seat -> mask of the faces it is dealt twice (two decks; else empty)."""
        f = {}
        for s, cards in [(self.seat, self.hand), *self.known.items()]:
            twice = [c for c in set(cards) if cards.count(c) > 1]
            if twice:
                f[s] = to_mask(twice)
        return f


def make_query(
    hand: str | Sequence,
    seat: int | None,
    dealer: int = 3,
    bids: str | Sequence | None = None,
    known: Iterable[str] | dict | None = None,
    rules: Rules | dict | None = None,
) -> Query:
    """Parse and check a query; every problem is a one-line ``AdvisorError``/``CardError``,
    the hand's own first. ``seat`` None: the eldest hand, the seat after the dealer."""
    r = resolve_rules(rules)
    P = r.players
    cards = hand_cards(hand, r)
    dealer = _check_seat(dealer, P, "dealer")
    seat = r.turn_order(dealer)[0] if seat is None else _check_seat(seat, P, "seat")
    bid_list = parse_bids(bids, P, r)
    known_map = parse_known(known, P)
    if r.bid_rounds == 1:
        later = _split_later(bid_list, seat, dealer, r)
        _check_bids(bid_list, seat, dealer, r)
    else:
        later = []
        _check_auction(bid_list, seat, dealer, r)
    _check_known(known_map, cards, seat, r)
    return Query(cards, seat, dealer, r, bid_list, known_map, later)


def hand_cards(hand: object, r: Rules) -> list[int]:
    """The hand's cards, from text (``"AS KS ..."``), card names or card numbers, checked
    against the rules (a one-line CardError; anything else is no hand at all)."""
    if isinstance(hand, str):
        return parse_hand(hand, size=r.cards_dealt, copies=r.decks)
    if isinstance(hand, Mapping) or not isinstance(hand, Iterable):
        raise CardError(f"{hand!r} is not a hand: give its cards as text, e.g. 'AS KS 5S ...'")
    cards = list(hand)
    if any(isinstance(c, str) for c in cards):  # names, or a mix the names' parser refuses
        return parse_hand(cards, size=r.cards_dealt, copies=r.decks)
    return _int_hand(cards, r.cards_dealt, r.decks)


def _int_hand(hand: Sequence, size: int, copies: int = 1) -> list[int]:
    """A hand given as card numbers 0..51, checked like a typed one."""
    for c in hand:
        if isinstance(c, bool) or not isinstance(c, numbers.Integral):
            raise CardError(f"card {c!r} is neither a card name nor a card number 0..51")
    cards = [int(c) for c in hand]
    for c in cards:
        if not 0 <= c < 52:
            raise CardError(f"card number {c} is out of range 0..51")
    check_copies(cards, copies)
    if len(cards) != size:
        raise CardError(f"a hand needs {size} cards, got {len(cards)}")
    return cards


def _split_later(bids: list[tuple[int, int]], seat: int, dealer: int, r: Rules) -> list[int]:
    """Take the passes of seats after the player out of ``bids`` (in place): a later
    seat's pass is known after the fact and conditions the deals; a later bid would
    be an answer to the player's own bid, which the advisor varies, so it is refused."""
    order = r.turn_order(dealer)
    if seat not in order:
        return []
    after = order[order.index(seat) + 1 :]
    later = [(s, b) for s, b in bids if s in after]
    for s, b in later:
        if b != L.BID_PASS:
            raise AdvisorError(
                f"bids: seat {s} bids after you (seat {seat}, dealer {dealer}); "
                "give only the bids made before you, and passes of the seats after you"
            )
    if len({s for s, _ in later}) != len(later):
        dup = next(s for s, _ in later if [t for t, _ in later].count(s) > 1)
        raise AdvisorError(f"bids: seat {dup} is given twice")
    bids[:] = [sb for sb in bids if sb[0] not in after]
    return sorted((s for s, _ in later), key=order.index)


def _check_bids(bids: list[tuple[int, int]], seat: int, dealer: int, r: Rules) -> None:
    """One round: the bids must be those before the player, in order from eldest, and legal."""
    if not bids:
        return
    order = r.turn_order(dealer)
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
                f"bids: seat {s}'s bid {b} is impossible "
                f"(bids are {r.bid_min}..{r.bid_max}, or pass)"
            )
        if b <= high:
            raise AdvisorError(
                f"bids: seat {s}'s bid {b} is impossible: it does not beat the earlier bid {high}"
            )
        high = b
    bids.sort(key=lambda sb: order.index(sb[0]))


def _check_auction(bids: list[tuple[int, int]], seat: int, dealer: int, r: Rules) -> None:
    """An auction's calls before the player's turn (docs/rules.md §3.2), in the order made:
    clockwise from eldest over the players still in it, the high bidder skipped,
    each bid above the last; and then it must be the player's turn. None given: the
    earlier seats' calls are left to their policies, as in one round."""
    if not bids:
        return
    order = r.turn_order(dealer)
    out: set[int] = set()
    high, high_bidder = 0, -1
    at = len(order) - 1  # the seat before eldest

    def next_turn() -> int:
        """The next seat to call after ``at``, or -1 when the bidding is over."""
        if high >= r.bid_max and high_bidder >= 0:
            return -1
        for k in range(1, len(order) + 1):
            s = order[(at + k) % len(order)]
            if s not in out and s != high_bidder:
                return s
        return -1

    for k, (s, b) in enumerate(bids):
        turn = next_turn()
        if turn < 0:
            raise AdvisorError(
                f"bids: the bidding is over before call {k + 1} (seat {s} {_call(b)})"
            )
        if s != turn:
            raise AdvisorError(
                f"bids: call {k + 1} is seat {s}'s, but it is seat {turn}'s turn (the "
                f"auction goes clockwise from eldest, seat {order[0]}, past those who passed)"
            )
        if b == L.BID_PASS:
            out.add(s)
        elif b <= high:
            raise AdvisorError(
                f"bids: seat {s}'s bid {b} is impossible: it does not beat the earlier bid {high}"
            )
        else:
            high, high_bidder = b, s
        at = order.index(s)
    own = [b for s, b in bids if s == seat]
    if len(own) > MAX_OWN_CALLS:
        raise AdvisorError(f"bids: at most {MAX_OWN_CALLS} calls of your own before your turn")
    turn = next_turn()
    if turn != seat:
        if seat in out:
            raise AdvisorError(f"bids: you (seat {seat}) passed: you are out of the bidding")
        if turn < 0:
            raise AdvisorError("bids: the bidding is over: there is no call left to advise")
        raise AdvisorError(f"bids: after these calls it is seat {turn}'s turn, not yours ({seat})")


def _placed_text(where: list[str], decks: int) -> str:
    """Why a known card is one too many: ``is already in your hand``; with two decks
    ``is in the pack twice, and both are already placed: your hand and seat 1's known
    cards`` (each place once, with how many copies it holds)."""
    if decks == 1:
        return f"is already in {where[0]}"
    places = {w: where.count(w) for w in dict.fromkeys(where)}
    named = " and ".join(w + (" (both copies)" if n == 2 else "") for w, n in places.items())
    return f"is in the pack twice, and both copies are already placed: {named}"


def _call(b: int) -> str:
    return "pass" if b == L.BID_PASS else str(b)


def _check_known(known: dict[int, list[int]], hand: list[int], seat: int, r: Rules) -> None:
    """Known cards belong to other seats, fit their hands and are placed only as often
    as the decks hold them (once; twice with two decks)."""
    placed = {c: ["your hand"] * hand.count(c) for c in hand}
    for s, cards in known.items():
        if s == seat:
            raise AdvisorError(f"known: seat {s} is your own seat (its cards are your hand)")
        if len(cards) > r.cards_dealt:
            raise AdvisorError(
                f"known: seat {s} is dealt {r.cards_dealt} cards, {len(cards)} given"
            )
        for c in cards:
            where = placed.setdefault(c, [])
            if len(where) >= r.decks:
                raise AdvisorError(f"known: {format_card(c)} {_placed_text(where, r.decks)}")
            where.append(f"seat {s}'s known cards")

"""The rules of a Cinch game as data: one frozen object the kernel reads.

Every option of docs/rules.md §2 is a field with §1's default. Structural fields
(players, cards dealt, point table, trump order, ...) let the §3 variants be
written as data; ``Rules.to_array`` packs everything into the int vector the
kernel indexes, so the kernel never branches on a variant's name.
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import RANKS, left_card, suit_mask

# Enumerated options: the first value of each tuple is the default, and the
# position of a value is its code in the kernel's rules vector.
CHOICES: dict[str, tuple[str, ...]] = {
    "all_pass": (
        "dealer_no_contract",
        "dealer_forced_min",
        "redeal_next",
        "redeal_same",
        "dealer_forced_any",
    ),
    "excess_trump_discard": ("any", "non_point_only"),
    "robber": ("maker", "dealer", "none"),
    "shortage": ("round_robin", "in_order", "limit_discards"),
    "follow_rule": ("may_trump", "strict", "trumps_only"),
    "low_rule": ("lowest_in_play", "deuce_only"),
    "low_to": ("capturer", "player"),
    "scoring": ("setback", "difference"),
    "high_rule": ("ace_only", "highest_in_play"),
}

# The options a record's "rules.options" and the CLI's --rule may set (docs/rules.md §2).
OPTION_NAMES: tuple[str, ...] = (
    "bid_min",
    "bid_max",
    "all_pass",
    "must_discard_nontrumps",
    "discards_face_up",
    "excess_trump_discard",
    "robber",
    "shortage",
    "follow_rule",
    "low_rule",
    "low_to",
    "scoring",
    "target",
    "min_score_loss",
    "high_rule",
    "left_bower_points",
    "bid_rounds",
)
# bid_rounds as an option (docs/rules.md §3.2): its words and the Rules field's values.
BID_ROUNDS: dict[str, int] = {"one": 1, "auction": 0}

# The whole-number options and their hard ranges, so a value the kernel's int64
# vector cannot hold (or no game could use) is a one-line error, never an
# OverflowError. bid_min and bid_max are further bound by each other and by the
# points in a deal; MAX_BID is the kernel's own limit (bids are bits of an int64).
# A target above MAX_TARGET could not be reached in the 65,535 hands a game may
# last at most (256 by default).
MAX_BID = 62
MAX_TARGET = 10_000
MAX_LEFT_BOWER_POINTS = 50
RANGES: dict[str, tuple[int, int]] = {
    "bid_min": (1, MAX_BID),
    "bid_max": (1, MAX_BID),
    "target": (1, MAX_TARGET),
    "min_score_loss": (1, MAX_TARGET),
    "left_bower_points": (0, MAX_LEFT_BOWER_POINTS),
}
# Options that mean something only in some games, and what the others lack.
_NO_MEANING = {"left_bower_points": "without bowers (the left card is not a jack)"}
# The draw's options a widow game has no use for: nobody discards before picking up
# his widow, nobody draws from a stock or robs it.
WIDOW_MEANINGLESS = ("must_discard_nontrumps", "robber", "shortage")
# Options about the discard, the draw and the robber: no meaning without a draw (§3.6).
DRAW_OPTIONS = (
    "must_discard_nontrumps",
    "discards_face_up",
    "excess_trump_discard",
    "robber",
    "shortage",
)
# A whole number as typed on a command line: ASCII digits, an optional sign (no
# "٥", "５", "4_2" or "0x2a", which int() would read or half-read).
_DECIMAL = re.compile(r"[+-]?[0-9]+")

CINCH_TRUMP_ORDER = "AKQJT9876" + "5L" + "432"
DEFAULT_POINT_CARDS: tuple[tuple[str, str, int], ...] = (
    ("jack", "J", 1),
    ("game", "T", 1),
    ("right_pedro", "5", 5),
)


class RulesError(ValueError):
    """An impossible rule value or combination."""


CUSTOM = "custom"
"""The name of a game whose structure no preset has (docs/rules.md §3.1): it plays
and is analysed, but no record can name it."""
# Each playable preset's structure (``Rules.structure``), filled once the presets are
# built: what ``Rules`` names its game by, whatever name it was given.
_PRESET_STRUCTURES: dict[str, tuple[Any, ...]] = {}


@dataclass(frozen=True)
class Rules:
    """One game's rules: every option and every structural fact the kernel reads.

    Frozen, so one object can be shared by threads, records and reports. Build a
    variant with ``with_options`` (checked CLI-style values) or
    ``dataclasses.replace``; ``__post_init__`` refuses impossible combinations.
    Section numbers (§) are docs/rules.md's (§1 the standard game, §2 the rule
    options, §3 the variants). Each option's default is the standard game's;
    where the original text is silent or contradicts itself, §2 says which
    default was chosen and why.

    >>> r = Rules().with_options({"robber": "dealer", "target": "42"})
    >>> (r.robber, r.target, r.total_points)
    ('dealer', 42, 14)
    >>> Rules(robber="thief")
    Traceback (most recent call last):
    ...
    cinch_sim.rules.RulesError: robber='thief' is not one of maker, dealer, none
    """

    # --- §2 options: what a table agrees on before play (defaults reproduce §1) ---
    bid_min: int = 1
    """Lowest bid (§2; §1.4: 1). Pedro tables use 6 or 7."""
    bid_max: int = 14
    """Highest bid (§2; §1.4: 14, every point of the deal). At most total_points."""
    all_pass: str = "dealer_no_contract"
    """When everyone passes (§2): ``dealer_no_contract`` the dealer names trumps
    with contract 0 and cannot be set (the default, a choice of this project);
    ``dealer_forced_min`` the dealer must bid exactly ``bid_min``;
    ``dealer_forced_any`` the dealer may not pass and bids what he likes, from
    ``bid_min`` up (Finnish Pidro); ``redeal_next`` the hand is thrown in and the next
    dealer deals; ``redeal_same`` the same dealer deals again."""
    must_discard_nontrumps: bool = False
    """Whether a drawer must discard every non-trump (§2; the original: may keep
    them). Binds the drawers, not the robber."""
    discards_face_up: bool = False
    """Whether discards are shown (§2; the original: face down, excess trumps up).
    Changes only what the policies see."""
    excess_trump_discard: str = "any"
    """Which trumps a player with more than ``hand_size`` may set aside (§2):
    ``any`` (the default), or ``non_point_only`` (A, J, 10, both Pedros and the 2 stay)."""
    robber: str = "maker"
    """Who takes the rest of the stock after the others drew and keeps the best
    ``hand_size`` (§1.8, §2): ``maker`` (the original), ``dealer`` (the classic
    "robbing the pack"), or ``none``."""
    shortage: str = "round_robin"
    """When the drawers ask for more than the stock holds (§1.9, §2):
    ``round_robin`` one card at a time clockwise from eldest; ``in_order`` each drawer
    served in turn; ``limit_discards`` a player discards only what can be replaced."""
    follow_rule: str = "may_trump"
    """When a plain suit is led (§1.11, §2): ``may_trump`` follow suit or play
    any trump (the All Fours rule, the default where the original contradicts
    itself); ``strict`` follow suit when able, trump only when void;
    ``trumps_only`` only trumps are played (Finnish Pidro): plain cards are dead
    once the draw is over, a seat without a trump sits the hand out, a trick has
    a card from each seat still holding one, and the hand may end early."""
    low_rule: str = "lowest_in_play"
    """Which card scores Low (§1.13, §2): ``lowest_in_play`` the lowest trump
    held after the draw (the original); ``deuce_only`` only the 2 of trumps."""
    low_to: str = "capturer"
    """Who scores Low (§2): ``capturer`` the side taking it (the original), or
    ``player`` the side of whoever played it."""
    scoring: str = "setback"
    """How a set bid scores (§1.14, §2): ``setback`` the bidding side loses its
    bid and the others score what they took (the original); ``difference`` the
    bidding side scores 0 and the others what they took plus the bid."""
    target: int = 51
    """Points that win the game (§1.15, §2: 51, or 42 at some tables)."""
    min_score_loss: int | None = None
    """The negative limit (§1.15, §2): None (off, the default) or N > 0, so a
    side at or below -N after a hand loses unless someone reached the target."""
    high_rule: str = "ace_only"
    """Which card scores High (§1.13, §2): ``ace_only`` the A of trumps (the
    original); ``highest_in_play`` the highest trump held after the draw (Pitch)."""
    left_bower_points: int = 5
    """What the Left Bower scores in a game with bowers (§3.3; the left card is a
    jack). It means nothing elsewhere: ``with_options`` refuses it given at all there
    (an option with no meaning in its rules is an error, §3.6, not a value carried
    along into records), and a value other than 5 is refused however it is set."""

    # --- structure: what a variant (a §3 preset) fixes ---
    preset: str = "standard"
    """The preset's name, as records and ``run.json`` store it (§3.1). The structure
    decides it: fields set by hand to a preset's structure name that preset (``Rules(
    widow=4, robber="none")`` is ``widow``), and to none, ``custom``."""
    players: int = 4
    """Seats at the table, 2..6 (§1.1: 4)."""
    partnerships: bool = True
    """True: two sides of alternate seats (0+2 against 1+3, §1.1); False: each player
    is a side of his own (cut-throat, §3.5). ``seat_teams`` is the table it gives."""
    decks: int = 1
    """Copies of the 52-card deck: 1, or 2 (§3.4 ``two_deck``: every card twice, each
    copy of a point card scoring, the first played of two identical cards winning)."""
    cards_dealt: int = 9
    """Cards each player is dealt, in threes (§1.3: 9)."""
    hand_size: int = 6
    """Cards each keeps after the discard and draw, and so the tricks played (§1.6: 6)."""
    draw: bool = True
    """Whether players discard and draw at all (§1.6-1.7; §3.1 ``no_draw``: no)."""
    widow: int = 0
    """Cards of the stock each player picks up after the trump is named (§3.1
    ``widow``: 4, the whole stock dealt out from eldest on), 0 for none. Each then
    keeps ``hand_size`` of his cards as the robber does (§1.8: as many trumps as he
    can, the excess shown): nobody discards before, draws otherwise or robs."""
    bid_rounds: int = 1
    """Bidding rounds (§1.4: 1); 0 is an auction, rounds until all others pass (§3.2)."""
    high_points: int = 1
    """What High scores (§1.13: 1)."""
    low_points: int = 1
    """What Low scores (§1.13: 1)."""
    point_cards: tuple[tuple[str, str, int], ...] = field(default=DEFAULT_POINT_CARDS)
    """The trump suit's point cards besides High, Low and the left card: (name, rank,
    points), e.g. ("jack", "J", 1), ("game", "T", 1), ("right_pedro", "5", 5) (§1.13)."""
    left_rank: str = "5"
    """Rank of the same-colour card that joins trump: "5" (the Left Pedro, §1.2), "J"
    (the Left Bower, §3.3), or "" for none."""
    left_name: str = "left_pedro"
    """The left card's name in records and tables."""
    left_points: int = 5
    """What the left card scores when it is not a bower (§1.13: the Left Pedro, 5)."""
    trump_order: str = CINCH_TRUMP_ORDER
    """The trumps from highest to lowest, one letter a rank and "L" for the left card
    (§1.2: A K Q J 10 9 8 7 6, Right Pedro, Left Pedro, 4 3 2)."""

    def __post_init__(self) -> None:
        self._name_the_game()
        for name, values in CHOICES.items():
            v = getattr(self, name)
            if v not in values:
                raise RulesError(f"{name}={v!r} is not one of {', '.join(values)}")
        if not 2 <= self.players <= L.MAX_PLAYERS:
            raise RulesError(f"players={self.players} must be 2..{L.MAX_PLAYERS}")
        if self.partnerships and self.players % 2:
            raise RulesError(
                f"players={self.players} cannot sit as two sides of alternate seats: "
                "use partnerships=False (cut-throat, each player a side)"
            )
        if self.decks not in (1, 2):
            raise RulesError(f"decks={self.decks!r} must be 1 or 2")
        if self.cards_dealt % 3 or not 3 <= self.cards_dealt <= 18:
            raise RulesError(f"cards_dealt={self.cards_dealt} must be a multiple of 3, 3..18")
        if self.players * self.cards_dealt > 52 * self.decks:
            raise RulesError("more cards dealt than the deck holds")
        if not 1 <= self.hand_size <= self.cards_dealt:
            raise RulesError(f"hand_size={self.hand_size} must be 1..cards_dealt")
        if not self.draw and self.hand_size != self.cards_dealt:
            raise RulesError("without a draw the hand size is the number of cards dealt")
        if not self.draw and self.robber != "none":
            raise RulesError("without a draw nobody robs: use robber=none")
        if self.bid_rounds < 0:
            raise RulesError("bid_rounds must be 0 (auction) or a positive number of rounds")
        if self.widow:
            self._check_widow()
        self._check_whole_options()
        order = self.trump_order
        expected = set(RANKS) | ({"L"} if self.left_rank else set())
        if sorted(order) != sorted(expected):
            raise RulesError(f"trump_order {order!r} must list each rank once (and L)")
        if self.left_rank and self.left_rank not in RANKS:
            raise RulesError(f"left_rank {self.left_rank!r} is not a rank")
        if len(self.point_cards) > L.MAX_RANK_POINTS:
            raise RulesError(f"at most {L.MAX_RANK_POINTS} point ranks")
        for name, rank, pts in self.point_cards:
            if rank not in RANKS or pts < 0:
                raise RulesError(f"bad point card {name}: {rank} worth {pts}")

    def structure(self) -> tuple[Any, ...]:
        """What a preset fixes and no option changes (players, decks, the point table,
        ...): two rules with the same structure play the same game of §3.1."""
        return tuple(getattr(self, n) for n in STRUCTURE_NAMES)

    def _name_the_game(self) -> None:
        """Name the preset these rules play, whatever name they were given:
        ``Rules(widow=4, robber="none")`` is the widow game, whose records, hand model
        and stored studies follow; a structure no preset has is ``custom``."""
        if not _PRESET_STRUCTURES:  # the presets themselves, being built
            return
        mine = self.structure()
        name = self.preset
        if _PRESET_STRUCTURES.get(name) != mine:
            name = next((n for n, s in _PRESET_STRUCTURES.items() if s == mine), CUSTOM)
            object.__setattr__(self, "preset", name)
        if name != CUSTOM:  # what with_options refuses, refused however it is set
            for option in self.options():
                if not self.meaningful(option):
                    raise self._meaningless(option, getattr(self, option))

    def _meaningless(self, name: str, value: Any) -> RulesError:
        """The error for option ``name`` set in rules where it means nothing, its value
        as a record or a --rule writes it (true, not Python's True)."""
        shown = value if isinstance(value, str) else json.dumps(value, default=repr)
        return RulesError(f"{name}={shown} has no meaning {self.no_meaning(name)}: leave it out")

    def _check_widow(self) -> None:
        """A widow is the whole stock shared out: one deck, a draw, nobody robbing."""
        stock = 52 * self.decks - self.players * self.cards_dealt
        if not isinstance(self.widow, int) or isinstance(self.widow, bool) or self.widow < 0:
            raise RulesError(f"widow={self.widow!r} must be a whole number of cards, 0 or more")
        if self.decks != 1 or not self.draw:
            raise RulesError("a widow needs one deck and a draw")
        if self.widow * self.players != stock:
            raise RulesError(
                f"widow={self.widow} must share out the stock: {stock} cards "
                f"among {self.players} players"
            )
        if self.cards_dealt + self.widow < self.hand_size:
            raise RulesError("the dealt cards and the widow are fewer than the hand size")
        if self.robber != "none":
            raise RulesError("with a widow nobody robs: the robber field must be none")

    def _check_whole_options(self) -> None:
        """Each whole-number option: a whole number (no bool, float or text) in its
        range, or None for min_score_loss off. Every message starts with the option's
        name, so the referee can point at the record's field."""
        if self.left_bower_points != 5 and not self.meaningful("left_bower_points"):
            raise RulesError(
                f"left_bower_points={self.left_bower_points!r} has no meaning "
                f"{_NO_MEANING['left_bower_points']}: leave it out"
            )
        for name in RANGES:
            v = getattr(self, name)
            if v is None and name == "min_score_loss":
                continue
            if not isinstance(v, numbers.Integral) or isinstance(v, bool):
                raise RulesError(f"{name}={v!r} must be a whole number")
        for name in ("target", "min_score_loss", "left_bower_points"):
            v, (lo, hi) = getattr(self, name), RANGES[name]
            if v is not None and not lo <= v <= hi:
                off = "null (off) or " if name == "min_score_loss" else ""
                raise RulesError(f"{name}={v} must be {off}a whole number from {lo} to {hi:,}")
        total = self.total_points
        top = min(total, MAX_BID)
        if not 1 <= self.bid_max <= top:
            what = f", the points in a deal of {self.preset}" if top == total else ""
            raise RulesError(
                f"bid_max={self.bid_max} must be from bid_min ({self.bid_min}) to {top}{what}"
            )
        if not 1 <= self.bid_min <= self.bid_max:
            raise RulesError(f"bid_min={self.bid_min} must be from 1 to bid_max ({self.bid_max})")

    # --- derived facts ---
    @property
    def total_points(self) -> int:
        """Points in a deal: every point card's value, once per copy (§3.4: with two
        decks each copy scores, Low each copy of the lowest trump rank in play)."""
        one = (
            self.high_points
            + self.low_points
            + sum(p for _, _, p in self.point_cards)
            + self.left_card_points
        )
        return one * self.decks

    def trump_cards(self, trump: int) -> int:
        """The mask of the trump suit's cards: its own and the left card, if any."""
        left = 1 << left_card(trump, RANKS.index(self.left_rank)) if self.left_rank else 0
        return suit_mask(trump) | left

    @property
    def left_card_points(self) -> int:
        """What the left card scores: ``left_bower_points`` when it is a bower (a jack),
        else ``left_points``; 0 when the game has no left card.

        >>> Rules().left_card_points
        5
        """
        if not self.left_rank:
            return 0
        return self.left_bower_points if self.left_rank == "J" else self.left_points

    @property
    def split_card(self) -> tuple[str, str] | None:
        """(name, rank) of the preset's own big point card, the one hands are grouped by
        besides the Pedros where a safe bid is read off a table: the trump worth the
        most of those worth 3 points or more other than the Right Pedro (the Sancho in
        the Sancho and Dom Pedro games); None where there is none.

        >>> Rules().split_card, VARIANTS["dom_pedro"].split_card
        (None, ('sancho', '9'))
        """
        big = [(p, n, r) for n, r, p in self.point_cards if p >= 3 and r != "5"]
        if not big:
            return None
        _, name, rank = max(big)
        return name, rank

    @property
    def draw_name(self) -> str:
        """What changes the hands after the bidding, as the tables say it: "the draw",
        "the widows" (each player's four, picked up), or "" where the cards dealt are
        the cards played.

        >>> Rules().draw_name, Rules(robber="none", widow=4).draw_name
        ('the draw', 'the widows')
        """
        if not self.draw:
            return ""
        return "the widows" if self.widow else "the draw"

    @property
    def teams(self) -> int:
        """How many sides score: 2 in a partnership game, else one per player."""
        return 2 if self.partnerships else self.players

    @property
    def seat_teams(self) -> tuple[int, ...]:
        """Each seat's side: the one seat -> team table (the kernel reads it too).

        >>> Rules().seat_teams
        (0, 1, 0, 1)
        >>> Rules(players=3, partnerships=False, robber="none").seat_teams
        (0, 1, 2)
        """
        if not self.partnerships:
            return tuple(range(self.players))
        return tuple(seat % self.teams for seat in range(self.players))

    def team_of(self, seat: int) -> int:
        """The side seat ``seat`` plays for.

        >>> [Rules().team_of(s) for s in range(4)]
        [0, 1, 0, 1]
        """
        return self.seat_teams[seat]

    def turn_order(self, dealer: int) -> tuple[int, ...]:
        """The seats in turn, eldest hand (the dealer's left) first: the order of the
        deal, the bidding and the discards (§1.3-1.6).

        >>> Rules().turn_order(3)
        (0, 1, 2, 3)
        >>> Rules().turn_order(1)
        (2, 3, 0, 1)
        """
        return tuple((dealer + 1 + j) % self.players for j in range(self.players))

    @property
    def point_slots(self) -> dict[str, int]:
        """Each point's result slot (``layout.SLOT_*``), by name: the one lookup.

        >>> Rules().point_slots
        {'high': 0, 'low': 1, 'jack': 2, 'game': 3, 'right_pedro': 4, 'left_pedro': 7}
        """
        slots = {"high": L.SLOT_HIGH, "low": L.SLOT_LOW}
        for j, (name, _, _) in enumerate(self.point_cards):
            slots[name] = L.SLOT_RANK0 + j
        if self.left_rank:
            slots[self.left_name] = L.SLOT_LEFT
        return slots

    @property
    def pedros(self) -> tuple[tuple[str, int], ...]:
        """(name, result slot) of the Pedros: the rank-5 point card and the left card.

        >>> Rules().pedros
        (('right_pedro', 4), ('left_pedro', 7))
        """
        slots = self.point_slots
        named = [n for n, rank, _ in self.point_cards if rank == "5"]
        if self.left_rank:
            named.append(self.left_name)
        return tuple((n, slots[n]) for n in named)

    @property
    def key_cards(self) -> tuple[tuple[str, int], ...]:
        """(name, result slot) of the cards a side fights to keep or win: the Pedros,
        then every other point card worth more than a point (Sancho, the Dom).

        >>> make_rules("dom_pedro").key_cards
        (('right_pedro', 4), ('left_pedro', 7), ('sancho', 5), ('dom', 6))
        """
        slots = self.point_slots
        pedros = {n for n, _ in self.pedros}
        more = [n for n, _, pts in self.point_cards if pts > 1 and n not in pedros]
        return self.pedros + tuple((n, slots[n]) for n in more)

    def options(self) -> dict[str, Any]:
        """The §2 options that differ from the preset's defaults (docs/records.md)."""
        base = VARIANTS.get(self.preset) or VARIANTS["standard"]  # custom: the standard's
        out = {n: getattr(self, n) for n in OPTION_NAMES if getattr(self, n) != getattr(base, n)}
        if "bid_rounds" in out:
            out["bid_rounds"] = "auction" if self.bid_rounds == 0 else "one"
        return out

    def to_record(self) -> dict[str, Any]:
        """The record's ``rules`` (docs/records.md): a preset and its options, so a
        game no preset has cannot be recorded."""
        if self.preset == CUSTOM:
            raise RulesError(
                "these rules are no preset's game (a structure field such as players or "
                "hand_size set by hand), and a record names its preset: build them with "
                "make_rules(preset, options)"
            )
        return {"preset": self.preset, "options": self.options()}

    def meaningful(self, name: str) -> bool:
        """Whether option ``name`` means something in these rules (left_bower_points
        only where there are bowers, the draw's options only where there is a draw,
        and of those ``WIDOW_MEANINGLESS`` not with widows).

        >>> Rules().meaningful("target"), Rules().meaningful("left_bower_points")
        (True, False)
        """
        if name == "left_bower_points":
            return self.left_rank == "J"
        if name in DRAW_OPTIONS:
            return self.draw and not (self.widow and name in WIDOW_MEANINGLESS)
        return True

    def no_meaning(self, name: str) -> str:
        """Why option ``name`` means nothing here, in words naming the preset."""
        if name == "left_bower_points":
            return f"{_NO_MEANING[name]} in {self.preset}"
        if self.widow and name in WIDOW_MEANINGLESS:
            return f"with a widow picked up instead of a stock drawn from, in {self.preset}"
        return f"without a discard and draw, in {self.preset}"

    def describe(self) -> dict[str, Any]:
        """Every option that means something here, with its value, for run.json and
        reports."""
        d = {n: getattr(self, n) for n in OPTION_NAMES if self.meaningful(n)}
        d["bid_rounds"] = "auction" if self.bid_rounds == 0 else "one"
        d["preset"] = self.preset
        d["options"] = self.options()  # what a record's rules hold (docs/records.md)
        return d

    def with_options(self, options: dict[str, Any]) -> Rules:
        """A copy with options set from Python values or CLI strings."""
        changes = {}
        for name, value in options.items():
            if name not in OPTION_NAMES:
                raise RulesError(f"unknown rule option {name!r} (known: {', '.join(OPTION_NAMES)})")
            if not self.meaningful(name):  # whatever its value, even the default
                raise self._meaningless(name, value)
            changes[name] = _coerce(name, value)
        if "left_bower_points" in changes and "bid_max" not in changes:
            # a top bid of all the points follows them, up or down; a lower one stays
            # unless the points fall below it
            points = self.total_points - self.left_card_points + changes["left_bower_points"]
            top = points if self.bid_max >= self.total_points else min(self.bid_max, points)
            changes["bid_max"] = min(max(top, self.bid_min), MAX_BID)
        return dataclasses.replace(self, **changes) if changes else self  # frozen: shareable

    def to_array(self) -> np.ndarray:
        """Pack the rules into the int64 vector the kernel reads (slots in layout.py)."""
        a = np.zeros(L.R_LEN, dtype=np.int64)
        a[L.R_PLAYERS] = self.players
        a[L.R_TEAMS] = self.teams
        a[L.R_PARTNERSHIPS] = int(self.partnerships)
        a[L.R_CARDS_DEALT] = self.cards_dealt
        a[L.R_HAND_SIZE] = self.hand_size
        a[L.R_DRAW] = L.DRAW_WIDOW if self.widow else int(self.draw)
        a[L.R_BID_ROUNDS] = self.bid_rounds
        a[L.R_BID_MIN] = self.bid_min
        a[L.R_BID_MAX] = self.bid_max
        a[L.R_MUST_DISCARD] = int(self.must_discard_nontrumps)
        a[L.R_FACE_UP] = int(self.discards_face_up)
        a[L.R_TARGET] = self.target
        a[L.R_MIN_SCORE_LOSS] = 0 if self.min_score_loss is None else self.min_score_loss
        for name, values in CHOICES.items():
            a[L.RULE_CHOICE_SLOT[name]] = values.index(getattr(self, name))
        a[L.R_HIGH_POINTS] = self.high_points
        a[L.R_LOW_POINTS] = self.low_points
        a[L.R_N_RANK_POINTS] = len(self.point_cards)
        for i, (_, rank, pts) in enumerate(self.point_cards):
            a[L.R_RANK_POINTS + 2 * i] = RANKS.index(rank)
            a[L.R_RANK_POINTS + 2 * i + 1] = pts
        a[L.R_LEFT_RANK] = RANKS.index(self.left_rank) if self.left_rank else -1
        a[L.R_LEFT_POINTS] = self.left_card_points
        # Trump strength: 1 (lowest) .. 14 (highest); slot 13 is the left card.
        order = self.trump_order[::-1]
        for i, r in enumerate(order):
            slot = 13 if r == "L" else RANKS.index(r)
            a[L.R_TRUMP_STRENGTH + slot] = i + 1
        a[L.R_TOTAL_POINTS] = self.total_points
        a[L.R_SEAT_TEAM : L.R_SEAT_TEAM + self.players] = self.seat_teams
        a[L.R_DECKS] = self.decks
        a[L.R_BID_SLOT : L.R_BID_SLOT + 14] = self.bid_slots()
        a[L.R_SPLIT_RANK] = RANKS.index(self.split_card[1]) if self.split_card else -1
        return a

    def bid_slots(self) -> list[int]:
        """Per trump slot (ranks 2..A as 0..12, then 13 for the left card), where a
        hand model counts that trump: 0-4 for the five strongest in the trump order,
        then the point cards outside them by points, then strength (5, 6, ...; Low's
        deuce left out, as which trump is Low is not known when bidding), -1 for the
        rest. The standard game: A K Q J 10, then the Right and the Left Pedro.

        >>> r = Rules()
        >>> [RANKS[s] if s < 13 else "L" for s in sorted(range(14), key=r.bid_slots().__getitem__)
        ...  if r.bid_slots()[s] >= 0]
        ['A', 'K', 'Q', 'J', 'T', '5', 'L']
        """
        strongest = [13 if r == "L" else RANKS.index(r) for r in self.trump_order]
        points = [0] * 14
        for _, rank, pts in self.point_cards:
            points[RANKS.index(rank)] += pts
        points[RANKS.index("A")] += self.high_points
        if self.left_rank:
            points[13] += self.left_card_points
        slots = [-1] * 14
        for k, slot in enumerate(strongest[: L.BID_TOP_SLOTS]):
            slots[slot] = k
        rest = [s for s in strongest[L.BID_TOP_SLOTS :] if s != 0 and points[s] > 0]
        rest.sort(key=lambda s: -points[s])  # stable: the stronger first among equals
        for j, slot in enumerate(rest):
            slots[slot] = L.BID_POINT_SLOT + min(j, L.BID_POINT_SLOTS)
        return slots


def _coerce(name: str, value: Any) -> Any:
    """Turn a CLI string (or a Python value) into the field's type, with a clear error."""
    if name == "bid_rounds":
        v = str(value).strip().lower()
        if v not in BID_ROUNDS:
            raise RulesError(f"bid_rounds={value!r} is not one of {', '.join(BID_ROUNDS)}")
        return BID_ROUNDS[v]
    if name in CHOICES:
        v = str(value).strip().lower()
        if v not in CHOICES[name]:
            raise RulesError(f"{name}={value!r} is not one of {', '.join(CHOICES[name])}")
        return v
    if name in ("must_discard_nontrumps", "discards_face_up"):
        if isinstance(value, bool):
            return value
        v = str(value).strip().lower()
        if v in ("true", "1", "yes", "on"):
            return True
        if v in ("false", "0", "no", "off"):
            return False
        raise RulesError(f"{name}={value!r} must be true or false")
    if name == "min_score_loss":
        if value is None or str(value).strip().lower() in ("null", "none", "off", ""):
            return None
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)  # its range is checked with the others (__post_init__)
    text = value.strip() if isinstance(value, str) else None
    if text is None or not _DECIMAL.fullmatch(text):
        raise RulesError(f"{name}={value!r} must be a whole number")
    try:
        return int(text)
    except ValueError:  # more digits than int() reads: far out of every range
        lo, hi = RANGES[name]
        problem = f"must be a whole number from {lo} to {hi:,}"
        raise RulesError(f"{name}={text[:20]}... {problem}") from None


def parse_rule_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``["robber=dealer", ...]`` -> dict, rejecting malformed items."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise RulesError(f"rule {item!r} must be NAME=VALUE")
        name, value = item.split("=", 1)
        name = name.strip()
        if name not in OPTION_NAMES:
            raise RulesError(f"unknown rule option {name!r} (known: {', '.join(OPTION_NAMES)})")
        if name in out:  # the last would silently win
            raise RulesError(f"rule {name} is given twice ({out[name]}, then {value.strip()})")
        out[name] = value.strip()
    return out


SEAT_NAMES = ("eldest", "second", "third", "dealer")  # the four-player table's
_ORDINALS = ("eldest", "second", "third", "fourth", "fifth")  # clockwise from the dealer's left


def seat_name(seat: int, dealer: int, players: int = 4) -> str:
    """Seat relative to the dealer, as tables name it: eldest (the dealer's left), then
    second, third, ... clockwise, and the dealer last, at any table of 2 to 6.

    >>> [seat_name(s, 3) for s in range(4)]
    ['eldest', 'second', 'third', 'dealer']
    >>> [seat_name(s, 1, 2) for s in range(2)], [seat_name(s, 5, 6) for s in range(6)]
    (['eldest', 'dealer'], ['eldest', 'second', 'third', 'fourth', 'fifth', 'dealer'])
    """
    rel = (seat - dealer - 1) % players
    return "dealer" if rel == players - 1 else _ORDINALS[rel]


# The fields a preset fixes: every field but the options and the preset's name.
STRUCTURE_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in (*OPTION_NAMES, "preset")
)

STANDARD = Rules()

SANCHO_CARDS = (*DEFAULT_POINT_CARDS, ("sancho", "9", 9))
DOM_CARDS = (*SANCHO_CARDS, ("dom", "3", 3))
# §3.3: Right Bower, Left Bower, A, K, Q, 10 ... 2 (the same-colour 5 is a plain card).
BOWER_TRUMP_ORDER = "JLAKQT98765432"
PLAIN_TRUMP_ORDER = "AKQJT98765432"  # no left card: 13 trumps in their natural order


@dataclass(frozen=True)
class Preset:
    """One row of the preset table (docs/rules.md §3.1): its name, a line for users, and
    the rules as data; ``missing`` says what the kernel lacks when it cannot play it."""

    name: str
    description: str
    fields: dict[str, Any]
    missing: str = ""
    points: int = 0
    """Points in play, for a preset not yet playable (else the rules' total)."""
    bids: str = ""
    """The bid range shown for a preset not yet playable."""

    @property
    def playable(self) -> bool:
        return not self.missing

    def rules(self) -> Rules:
        """The preset's rules; RulesError with ``missing`` for a preset not yet played."""
        if self.missing:
            raise RulesError(f"variant {self.name} is not playable yet: {self.missing}")
        return Rules(preset=self.name, **self.fields)


_CUT_SMALL = {"partnerships": False, "robber": "none"}
_CUT_BIG = {
    "partnerships": False,
    "cards_dealt": 6,
    "robber": "dealer",
    "shortage": "limit_discards",
}
_CLASSIC = {
    "left_rank": "",
    "trump_order": PLAIN_TRUMP_ORDER,
    "cards_dealt": 6,
    "draw": False,
    "robber": "none",
    "bid_rounds": 0,
    "target": 50,
}

# The preset table: every variant as data, in docs/rules.md §3.1's order. A new preset
# is one row here (and one row in the conformance test's expectations).
PRESETS: tuple[Preset, ...] = (
    Preset("standard", "the canonical 4-player partnership game", {}),
    Preset("auction", "standard, with bidding in rounds until all others pass", {"bid_rounds": 0}),
    Preset(
        "sancho",
        "standard plus the 9 of trumps (Sancho) worth 9",
        {"point_cards": SANCHO_CARDS, "bid_max": 23},
    ),
    Preset(
        "dom_pedro",
        "sancho plus the 3 of trumps (Dom) worth 3",
        {"point_cards": DOM_CARDS, "bid_max": 26},
    ),
    Preset(
        "all_hands",
        "the jacks are bowers: Right and Left Bower rank highest, Left Bower worth 5",
        {"left_rank": "J", "left_name": "left_bower", "trump_order": BOWER_TRUMP_ORDER},
    ),
    Preset(
        "no_draw",
        "no discard or draw: nine tricks with the cards dealt",
        {"draw": False, "hand_size": 9, "robber": "none"},
    ),
    Preset(
        "two_deck",
        "two decks shuffled together, 18 dealt, twelve tricks",
        {"decks": 2, "cards_dealt": 18, "hand_size": 12, "bid_max": 28, "target": 102},
    ),
    Preset("cutthroat2", "two players, each alone", {"players": 2, **_CUT_SMALL}),
    Preset("cutthroat3", "three players, each alone", {"players": 3, **_CUT_SMALL}),
    Preset(
        "cutthroat5", "five players, each alone, six dealt, one for one", {"players": 5, **_CUT_BIG}
    ),
    Preset(
        "cutthroat6", "six players, each alone, six dealt, one for one", {"players": 6, **_CUT_BIG}
    ),
    Preset("heasly", "cutthroat6 played to 62", {"players": 6, **_CUT_BIG, "target": 62}),
    Preset(
        "sancho_classic",
        "Pedro Sancho of Foster and Parlett: no Left Pedro, six dealt, no draw, auction",
        {**_CLASSIC, "point_cards": SANCHO_CARDS, "bid_max": 18},
    ),
    Preset(
        "dom_pedro_classic",
        "sancho_classic plus the 3 of trumps (Dom) worth 3",
        {**_CLASSIC, "point_cards": DOM_CARDS, "bid_max": 21},
    ),
    Preset(
        "pidro",
        "Finnish Pidro: bids 6-14, the dealer may not pass, only trumps are played",
        {
            "bid_min": 6,
            "all_pass": "dealer_forced_any",
            "must_discard_nontrumps": True,
            "excess_trump_discard": "non_point_only",
            "robber": "dealer",
            "shortage": "in_order",
            "low_rule": "deuce_only",
            "low_to": "player",
            "follow_rule": "trumps_only",
            "target": 62,
        },
    ),
    Preset(
        "widow",
        "a 4-card widow each, picked up after the bidding: keep 6 of 13",
        {"widow": 4, "robber": "none"},
    ),
)
PRESET_BY_NAME: dict[str, Preset] = {p.name: p for p in PRESETS}

# The presets the kernel plays, by name: what --variant, variant= and records accept.
VARIANTS: dict[str, Rules] = {p.name: p.rules() for p in PRESETS if p.playable}
STANDARD = VARIANTS["standard"]
_PRESET_STRUCTURES.update((name, r.structure()) for name, r in VARIANTS.items())


def resolve_rules(rules: Rules | dict[str, Any] | None) -> Rules:
    """Rules object, an options dict (``{"robber": "dealer"}``) or None for the default;
    or a dict with a ``preset`` (and ``options``), as a record's rules and run.json's
    ``rules`` (``Rules.describe``) hold them, whose other fields must agree."""
    if rules is None:
        return make_rules()
    if isinstance(rules, Rules):
        return rules
    rules = dict(rules)
    if "preset" not in rules:
        return make_rules(options=rules)
    made = make_rules(str(rules.pop("preset")), dict(rules.pop("options", None) or {}))
    shown = made.describe()
    for name, value in rules.items():
        if name not in shown:
            raise RulesError(f"{name}={value!r} is no option of {made.preset} as given")
        if shown[name] != value:
            raise RulesError(
                f"{name} is {value!r} here but {shown[name]!r} in {made.preset} with its "
                "options: give the preset and its options alone"
            )
    return made


def make_rules(preset: str = "standard", options: dict[str, Any] | None = None) -> Rules:
    """A preset with options applied; the one entry point for CLI, API and records."""
    if preset not in VARIANTS:
        if preset == CUSTOM:
            raise RulesError(
                "a custom game (rules built field by field to no preset's structure) "
                "cannot be made from its name: pass the Rules object itself"
            )
        if preset in PRESET_BY_NAME:
            PRESET_BY_NAME[preset].rules()  # raises: what the kernel still lacks
        raise RulesError(f"unknown variant {preset!r} (known: {', '.join(VARIANTS)})")
    return VARIANTS[preset].with_options(options or {})


def preset_rows() -> list[dict[str, Any]]:
    """One row per preset for ``cinch-sim variants``: players, sides, deck, cards dealt
    and kept, tricks, points, bids, target and what it is (or what it still lacks)."""
    rows = []
    for p in PRESETS:
        r = p.rules() if p.playable else STANDARD
        f = {**dataclasses.asdict(r), **p.fields}  # unplayable: its fields, unchecked
        players = f["players"]
        sides = "two pairs" if f["partnerships"] else "each alone"
        rows.append(
            {
                "variant": p.name,
                "players": players,
                "sides": sides,
                "deck": 52 * f["decks"],
                "dealt": f["cards_dealt"],
                "kept": f["hand_size"],
                "tricks": f["hand_size"],
                "points": r.total_points if p.playable else p.points,
                "bids": f"{f['bid_min']}-{f['bid_max']}" if p.playable else p.bids,
                "target": f["target"],
                "playable": p.playable,
                "description": p.description
                if p.playable
                else f"{p.description} (not playable yet: {p.missing})",
            }
        )
    return rows

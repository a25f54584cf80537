"""The strategy report: the analyses a Cinch player asks for, as one readable page.

``build_report`` runs every study (bid success, what a hand is worth, what
each card is worth by paired replays for the heuristic and the PIMC player,
the right to rob, Pedro capture, the strategy ladder, advice for example hands)
and lays each out with ``sections``; the result is a ``render.Report``, which
``render.write_report`` writes as HTML, Markdown, PNG charts and CSV tables.
Text is written for players.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from cinch_sim import interrupts
from cinch_sim import notation as N
from cinch_sim.advisor.estimate import BID_MODEL, Advice, advise
from cinch_sim.analysis.analyse import Analysis
from cinch_sim.analysis.card_values import CardValues, card_values
from cinch_sim.analysis.hand_worth import HandValue, hand_values
from cinch_sim.cards import RANKS
from cinch_sim.engine.run import PolicySet, described_specs
from cinch_sim.report import sections, stored_studies
from cinch_sim.report.render import Report
from cinch_sim.rules import Rules, RulesError
from cinch_sim.runs.hands import count_run, plan_hands
from cinch_sim.version import __version__

DEFAULT_STRATEGIES = ("heuristic", "greedy", "simple", "random")
# ``report --quick``: a smaller report, its intervals about three times as wide
# (PIMC's card values: the stored study, or hands / 5000 = 20 where none answers)
QUICK = {"hands": 100_000, "games": 400}
# The example hands (nine cards; a preset that deals fewer takes the first ones),
# each with the suit its label describes as the preset scores it (None: fixed text).
EXAMPLE_HANDS = (
    ("AS KS 5S 5C 2S 9H 3D 7C JD", "S", ""),
    ("5H JH 8H 4H AD 9C 6S 3S 2C", "H", ""),
    ("AC KD QD 7H 6H 9S 8C 4D 3H", None, "No five: the king and queen of diamonds, an ace"),
    ("9S 8C 6D 4D 3S 7H 6H 2C 8S", None, "Nothing at all: no five, no ace, no face card"),
)
ROBBER_RULES = ("maker", "dealer", "none")
# work units for the progress bar
# the strategies whose card values are shown: two players and the bound of perfect play
CARD_PLAYERS = ("heuristic", "pimc", "dd")
HEURISTIC_CARD_HANDS = 50_000  # at most: about 20 s of paired replays (measured, loaded)
PIMC_CARD_HANDS = 200  # at most: about 0.135 s a hand with its replays, half a minute
DD_CARD_HANDS = 8_000  # at most: about 2.3 ms a deal with its replays on two cores
# the players whose safe bids by hand type are shown beside the heuristic's
VALUE_PLAYERS = ("pimc", "dd")
DD_VALUE_HANDS = 25_000  # at most: the safe bids under perfect play, about 0.3 ms a hand
# deals a chunk of the card-value experiment (a progress report and a Ctrl-C point each)
CARD_CHUNK = {"pimc": 4, "dd": 256}
# PIMC's double-dummy searches grow fast with the cards in play: one hand with its
# replays took 0.1 s at cutthroat3, 4 s at cutthroat5 and 180 s at heasly (6 players,
# measured on two busy cores), so at 6 players it plays only when asked for
PIMC_MAX_PLAYERS = 5
# What a unit of each study costs, in seconds on two cores (each run_* study timed on
# a quiet two-core AMD EPYC host, 2026-12-02): the progress weights, so that the time
# left, worked out from the share of the work done, stays steady from study to study.
SECONDS_PER = {
    "bids": 3.2e-6,  # a hand (the first study: the compiled cache's load too)
    "values": 2.4e-6,  # a hand under one robbing rule
    "cards:heuristic": 2.1e-4,  # a deal with its replays (and the stored studies' load)
    "cards:pimc": 0.135,
    "cards:dd": 2.3e-3,
    "values:dd": 4.9e-4,  # a hand played with dd at every seat
    "ladder": 4.6e-5,  # a game
    "advice": 0.55,  # an example hand
    "advice:dd": 3.6,  # an example hand under perfect play (385 deals)
}
PERFECT_ADVICE_HANDS = 500_000  # a report this large advises its example hands under dd too
# A whole hand under double-dummy play at every seat, one thread (2,000 hands; 100 for
# the last two; 2026-12-05, Intel Xeon host): standard (24 cards in play) 0.71 ms,
# sancho 1.07, cutthroat3 (18 cards) 0.24, cutthroat5 (30, five seats) 12, no_draw (36)
# 58; PIMC's searches grow alike (a card-value deal 0.135 s standard, about 4 s at
# cutthroat5). The strong studies' sizes above are the standard game's: a costlier game
# plays fewer hands (``search_cost``), so that its report takes about as long.
STANDARD_CARDS_IN_PLAY = 24
PIMC_MIN_CARD_HANDS = 20  # fewer deals than the quick report's say nothing: left out
# PIMC's advice on the example hands (its stored study): about 200 deals a hand, as a
# PIMC deal with every candidate bid played costs about a second on two cores
PIMC_ADVICE_PRECISION = 0.07
STORED = " (stored with cinch_sim)"  # a study played once and shipped (stored_studies)


def _who(player: str) -> str:
    """A player as the settings table names it: heuristic, PIMC, perfect play."""
    return sections.PLAYER_WORDS.get(player, player).removeprefix("the ")


UNIT = 1e-3  # progress units are milliseconds of estimated work


def _rules_rows(rules: Rules) -> list[tuple[str, str]]:
    """The game in a reader's words: the preset and what it is, its bids and target, and
    any option changed from it (a reader met sixteen rows of option codes such as
    ``dealer_no_contract``; every option's value is in run.json's ``rules``)."""
    from cinch_sim.rules import PRESET_BY_NAME

    d = rules.describe()
    preset = PRESET_BY_NAME.get(d["preset"])
    changed = ", ".join(f"{k}={_setting_text(v)}" for k, v in d.get("options", {}).items())
    return [
        ("game", f"{d['preset']}: {preset.description}" if preset else d["preset"]),
        ("bids", f"{d['bid_min']} to {d['bid_max']}"),
        ("game won at", f"{d['target']} points"),
        ("rule options changed", changed or "none: the game as its preset plays it"),
    ]


def _setting_text(value: Any) -> str:
    """A rule's value as a reader reads it: yes/no, a dash for "not set", else as is."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return N.DASH
    return str(value)


def search_cost(rules: Rules) -> float:
    """What a whole hand under strong play costs against the standard game's: doubling
    with every two cards in play past 24, and more with more seats (a rough fit of the
    figures at ``STANDARD_CARDS_IN_PLAY``: 16 for cutthroat5 and 64 for no_draw, measured
    17 and 80); never below 1, so that a cheaper game keeps the standard sizes."""
    held = rules.players * rules.hand_size
    return max(1.0, 2.0 ** ((held - STANDARD_CARDS_IN_PLAY) / 2) * (rules.players / 4) ** 3)


def robbing_rules(rules: Rules) -> tuple[str, ...]:
    """The robbing rules the report plays the hands under: all three with a draw
    (those the rules accept), the preset's own first rule only without one or with
    widows (nobody robs where there is no stock to rob, docs/rules.md §3.6)."""
    if not rules.draw or rules.widow:
        return (rules.robber,)
    out = []
    for robber in ROBBER_RULES:
        try:
            dataclasses.replace(rules, robber=robber)
        except RulesError:
            continue
        out.append(robber)
    return tuple(out)


def example_hands(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The example hands as the preset deals them: the first ``cards_dealt`` cards of
    each (six at five or six players and in the classic presets; with two decks its
    nine cards twice), labelled by the cards that count in the suit named, as the
    preset ranks and scores them."""
    out = []
    for text, suit, label in EXAMPLE_HANDS:
        cards = (text.split() * rules.decks)[: rules.cards_dealt]  # two decks: each twice
        words = label or _describe(list(dict.fromkeys(cards)), suit, rules)
        out.append((" ".join(cards), words + (", each twice" if rules.decks > 1 else "")))
    return tuple(out)


def example_label(text: str, rules: Rules, suit: str) -> str:
    """An example hand's label once the advisor has chosen its trump ``suit``: the fixed
    words of ``EXAMPLE_HANDS`` where the preset leaves them true (no card worth 3 or
    more in any suit: no Pedro, Sancho, Dom or Left Bower), else its A, K and point
    cards in that suit (``_describe``)."""
    from cinch_sim.cards import SUITS, left_card, parse_card

    first = text.split()[:6]  # every preset deals at least the first six
    fixed = next(label for hand, _, label in EXAMPLE_HANDS if hand.split()[:6] == first)
    cards = list(dict.fromkeys(text.split()))
    big = {rank for _, rank, points in rules.point_cards if points >= 3}
    lefts = set()
    if rules.left_rank:
        lefts = {left_card(t, RANKS.index(rules.left_rank)) for t in range(len(SUITS))}
    held_big = any(c[0] in big for c in cards) or any(parse_card(c) in lefts for c in cards)
    twice = ", each twice" if rules.decks > 1 else ""
    if fixed and not held_big:
        return fixed + twice
    return _describe(cards, suit, rules) + twice


def _describe(cards: list[str], suit: str, rules: Rules) -> str:
    """``The A, K, Right Pedro and Left Pedro of spades``: the hand's honours (A, K, Q,
    J) and point cards if ``suit`` were trump, highest first (the left card by the
    preset's name for it), then its aces of other suits (``, an ace``), which take
    tricks too."""
    from cinch_sim.cards import SUITS, left_card, parse_card
    from cinch_sim.notation import label

    trump = SUITS.index(suit)
    points = {rank: name for name, rank, _ in rules.point_cards}
    left = left_card(trump, RANKS.index(rules.left_rank)) if rules.left_rank else -1
    named = []  # (place in the trump order, words), highest first
    order = rules.trump_order
    for text in cards:
        c = parse_card(text)
        if c == left:
            named.append((order.index("L"), label(rules.left_name)))
        elif c // 13 == trump and text[0] in points:
            named.append((order.index(text[0]), label(points[text[0]])))
        elif c // 13 == trump and text[0] in "AKQJ":
            named.append((order.index(text[0]), text[0]))
    named = [words for _, words in sorted(named)]
    words = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)
    aces = sum(text[0] == "A" and parse_card(text) // 13 != trump for text in cards)
    more = f", {ACES_WORDS[aces]}" if aces else ""
    if named:
        return f"The {words} of {SUIT_WORDS[suit]}{more}"
    return f"No point card in {SUIT_WORDS[suit]}{more}"


ACES_WORDS = {1: "an ace", 2: "two aces", 3: "three aces"}


SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclasses.dataclass
class ReportSettings:
    """What the report simulates: sizes, seed, rules, the ladder's strategies."""

    hands: int = 1_000_000
    games: int = 4000
    seed: int = 0
    rules: Rules = dataclasses.field(default_factory=Rules)
    strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    dealer: int | None = None  # None: the last seat, as every command deals by default
    threads: int | None = None
    advice_precision: float = 0.01
    card_values_hands: int | None = None  # the PIMC player's; None: card_hands's default
    # the example hands under perfect play: a coarser answer (385 deals at 0.05), as a dd
    # deal costs about 6 ms; None leaves it out (the quick report)
    perfect_advice_precision: float | None = 0.05

    def __post_init__(self) -> None:
        if self.dealer is None:
            self.dealer = self.rules.players - 1

    def work(self) -> dict[str, int]:
        """Each study's estimated work in progress units (``SECONDS_PER``)."""
        pairs = len(self.strategies) * (len(self.strategies) - 1) // 2
        out = {
            "bids": self.hands * SECONDS_PER["bids"],
            "values": self.hands * len(robbing_rules(self.rules)) * SECONDS_PER["values"],
            "ladder": self.games * pairs * SECONDS_PER["ladder"],
            "advice": len(EXAMPLE_HANDS) * SECONDS_PER["advice"],
        }
        cost = search_cost(self.rules)  # the strong studies' weights are the standard game's
        if self.perfect_advice():
            out["advice:dd"] = len(EXAMPLE_HANDS) * SECONDS_PER["advice:dd"] * cost
        stored_hands, stored_cards = self.stored_value_hands(), self.stored_card_values()
        for name, n in self.strong_value_hands().items():
            if name not in stored_hands:  # a stored study costs nothing
                out[f"values:{name}"] = n * SECONDS_PER[f"values:{name}"] * cost
        for name, n in self.card_hands().items():
            if name in stored_cards:
                continue
            per = SECONDS_PER[f"cards:{name}"]
            out[f"cards:{name}"] = n * per * (cost if name != "heuristic" else 1.0)
        return {k: max(1, round(v / UNIT)) for k, v in out.items()}

    def card_hands(self) -> dict[str, int]:
        """Hands played for each player's card values: the heuristic's hands / 20, up to
        ``HEURISTIC_CARD_HANDS``; for PIMC and perfect play, the stored study's where
        one answers (``stored_card_values``), else PIMC's ``card_values_hands`` or
        hands / 5000, up to ``PIMC_CARD_HANDS``, and perfect play's hands / 50, up to
        ``DD_CARD_HANDS``."""
        stored = self.stored_card_values()
        out = {"heuristic": min(self.hands // 20, HEURISTIC_CARD_HANDS)}
        if self.card_values_hands is not None:
            out["pimc"] = self.card_values_hands  # asked for: played whatever it costs
        elif not self._pimc_too_slow():
            out["pimc"] = self._pimc_card_hands()
        if self._dd_plays():
            out["dd"] = self._scaled(min(self.hands // 50, DD_CARD_HANDS))
        found = {k: n for k, n in out.items() if n > 0} | stored
        return {p: found[p] for p in CARD_PLAYERS if p in found}  # the columns' order

    def _pimc_card_hands(self) -> int:
        """PIMC's card-value deals where no study is stored: hands / 5000, up to
        ``PIMC_CARD_HANDS``, fewer in a costlier game (``search_cost``); none (left out)
        when that is below ``PIMC_MIN_CARD_HANDS``."""
        n = self._scaled(max(1, min(PIMC_CARD_HANDS, self.hands // 5000)))
        return n if n >= PIMC_MIN_CARD_HANDS else 0

    def _scaled(self, hands: int) -> int:
        """A strong study's hands for the standard game, divided by what a hand costs
        here against it (``search_cost``)."""
        return int(hands / search_cost(self.rules))

    def stored_card_values(self) -> dict[str, int]:
        """The players whose card values come from a study stored with the package
        (``report.stored_studies``), with its hands: PIMC unless ``card_values_hands``
        asks for it to be played here, and perfect play, where the rules, dealer and
        players are those the study was made under."""
        names = [p for p in CARD_PLAYERS if p != "heuristic"]
        if self.card_values_hands is not None:
            names.remove("pimc")
        out = {}
        for name in names:
            found = stored_studies.match("card_values", name, self.rules, card_question(self, name))
            if found is not None:
                out[name] = found["hands"]
        return out

    def perfect_advice(self) -> bool:
        """Whether the example hands are advised under perfect play too: not in a small
        report (``--quick``, or fewer than ``PERFECT_ADVICE_HANDS`` hands), where its
        10 s would be most of the time, nor in a game whose hands cost more than the
        standard game's (``search_cost``: its deals are set by the precision asked)."""
        return (
            self.perfect_advice_precision is not None
            and self.hands >= PERFECT_ADVICE_HANDS
            and self._dd_plays()
            and search_cost(self.rules) <= 1.0  # its deals are fixed by the precision
        )

    def _why_not_stored(self, kind: str) -> str:
        """Why no stored PIMC study of ``kind`` answers this report: none for its preset,
        or the preset's was played under other settings."""
        kept = stored_studies.stored_presets(kind, "pimc")
        preset = self.rules.preset
        if preset in kept:
            return (
                f"the one stored for {preset} was played with the report's default dealer "
                "and policies and no rule options, and this report's differ"
            )
        return f"one is stored for {N.joined(kept) if kept else 'no preset'}, not for {preset}"

    def advice_players(self) -> list[str]:
        """The players the example hands are advised under, as the settings table
        names them (PIMC's advice is a stored study)."""
        question = advice_question(self, "pimc")
        pimc = stored_studies.match("advice", "pimc", self.rules, question) is not None
        return ["heuristic"] + [_who("pimc") + STORED] * pimc + [_who("dd")] * self.perfect_advice()

    def advice_players_left_out(self) -> str | None:
        """Why the example hands are not advised under PIMC (its advice is only ever a
        stored study) or perfect play (``perfect_advice``), or None when both are in."""
        out = []
        if (
            stored_studies.match("advice", "pimc", self.rules, advice_question(self, "pimc"))
            is None
        ):
            out.append(
                "PIMC's advice on these hands is left out: it comes only from a study played "
                f"once and stored with cinch_sim; {self._why_not_stored('advice')}."
            )
        if not self.perfect_advice():
            if not self._dd_plays():
                why = "the solver's search is too slow here to play whole hands"
            elif search_cost(self.rules) > 1.0:
                why = (
                    f"a hand costs about {search_cost(self.rules):.0f} times the standard "
                    "game's here"
                )
            elif self.perfect_advice_precision is None:
                why = "it was not asked for"
            else:
                why = (
                    f"this report plays {self.hands:,} hands a study, and only a report of "
                    f"{PERFECT_ADVICE_HANDS:,} or more (the default) spends the minute or so "
                    "it takes"
                )
            out.append(f"Perfect play's advice on these hands is left out: {why}.")
        return " ".join(out) or None

    def strong_value_hands(self) -> dict[str, int]:
        """Hands played under strong play at every seat for the safe bids: each stored
        study that answers (``stored_value_hands``), and perfect play's hands / 25, up
        to ``DD_VALUE_HANDS`` (fewer in a costlier game: ``search_cost``), where it has
        none and can play here."""
        n = self._scaled(min(self.hands // 25, DD_VALUE_HANDS)) if self._dd_plays() else 0
        return ({"dd": n} if n > 0 else {}) | self.stored_value_hands()

    def stored_value_hands(self) -> dict[str, int]:
        """The players whose hand values (safe bids) come from a stored study, with its
        hands."""
        out = {}
        for name in VALUE_PLAYERS:
            found = stored_studies.match(
                "hand_values", name, self.rules, value_question(self, name)
            )
            if found is not None:
                out[name] = found["hands"]
        return out

    def _dd_plays(self) -> bool:
        """Whether double-dummy play can play whole hands under these rules."""
        from cinch_sim.checks import InputError
        from cinch_sim.solver.limits import require_dd

        try:
            require_dd(self.rules, "play")
        except InputError:
            return False
        return True

    def _pimc_too_slow(self) -> bool:
        """Whether PIMC's searches are too slow for the default report: at a table of
        six, and with two decks (twelve tricks, 48 cards in play)."""
        return self.rules.players > PIMC_MAX_PLAYERS or self.rules.decks > 1

    def card_players_left_out(self) -> str | None:
        """Why a card player is not measured (PIMC at a table of 6 or with two decks,
        double-dummy play with two decks; either where a hand costs so much more than
        the standard game's that this report's share of hands is too few), or None."""
        r, hands = self.rules, self.card_hands()
        cost = search_cost(r)
        if r.decks > 1:
            where = "with two decks (twelve tricks)"
        elif r.players > PIMC_MAX_PLAYERS:
            where = f"at a table of {r.players}"
        elif cost > 1:
            where = f"with {r.players * r.hand_size} cards in play"
        else:
            where = f"from a report of {self.hands:,} hands"
        out = []
        if "pimc" not in hands:
            few = f"would be fewer than {PIMC_MIN_CARD_HANDS} hands"
            why = (
                "its double-dummy searches grow fast with the cards in play, and one hand "
                "with its replays takes minutes here"
                if self._pimc_too_slow()
                else f"a hand costs about {cost:.0f} times the standard game's here, so "
                f"this report's share (--hands / 5000, divided by that) {few}"
                if cost > 1
                else f"its share (--hands / 5000) {few}"
            )
            out.append(
                f"The PIMC player is left out {where}: {why} (--card-values-hands N plays N hands)."
            )
        if "dd" not in hands:
            why = (
                "the solver's search is too slow there to play whole hands"
                if not self._dd_plays()
                else f"a hand costs about {cost:.0f} times the standard game's here, too "
                f"costly for a report of {self.hands:,} hands"
            )
            out.append(f"Perfect play (double-dummy) is left out {where}: {why}.")
        return " ".join(out) or None

    def value_players_left_out(self) -> str | None:
        """Why a strong player has no safe-bid column: PIMC's safe bids are only ever a
        study stored with the package (``stored_studies``), played under the default
        report's settings for some presets; perfect play where the solver cannot play
        whole hands here. None when both are in."""
        strong = self.strong_value_hands()
        out = []
        if "pimc" not in strong:
            out.append(
                "The PIMC player's safe bids are left out: they come only from a study "
                "played once and stored with cinch_sim (20,000 hands with PIMC at every "
                f"seat, about 12 minutes of two cores), and {self._why_not_stored('hand_values')}."
            )
        if "dd" not in strong and not self._dd_plays():
            out.append(
                "Perfect play's safe bids are left out: the solver's search is too slow "
                "here to play whole hands."
            )
        return " ".join(out) or None

    def describe(self) -> dict[str, Any]:
        """The settings for run.json."""
        return {
            "command": "report",
            "version": __version__,
            "hands": self.hands,
            "games_per_pair": self.games,
            "seed": self.seed,
            "dealer": self.dealer,
            "rules": self.rules.describe(),
            "strategies": list(self.strategies),
            "advice_precision": self.advice_precision,
            "card_values_hands": self.card_hands(),
            "strong_play_value_hands": self.strong_value_hands(),
            "stored_studies": {
                "card_values": sorted(self.stored_card_values()),
                "hand_values": sorted(self.stored_value_hands()),
            },
            "policies_for_hand_studies": "heuristic at every seat and plug point, but the "
            "play of the strong-play studies (pimc or dd at every seat)",
        }

    def rows(self) -> list[tuple[str, str]]:
        """The settings and every rule as (setting, value) text, for the report's first table."""
        from cinch_sim.matches.ladder import games_per_matchup

        cards, values = self.stored_card_values(), self.stored_value_hands()
        return (
            [
                ("cinch_sim version", __version__),
                ("hands simulated per study", f"{self.hands:,}"),
                ("games per strategy pair", f"{games_per_matchup(self.rules, self.games):,}"),
                ("seed", str(self.seed)),
                ("dealer", f"seat {self.dealer}"),
                ("strategies", ", ".join(self.strategies)),
            ]
            + [
                (f"hands played for card values, {_who(name)}", f"{n:,}" + STORED * (name in cards))
                for name, n in self.card_hands().items()
            ]
            + [
                (
                    f"hands played for the safe bids, {_who(name)}",
                    f"{n:,}" + STORED * (name in values),
                )
                for name, n in self.strong_value_hands().items()
            ]
            + [("example hands advised under", N.joined(self.advice_players()))]
            + _rules_rows(self.rules)
        )


@dataclasses.dataclass
class Studies:
    """What the studies gave: each one finished, or as far as Ctrl-C let it go."""

    bids: Analysis | None = None  # kept if cut: it counts its own hands
    values: dict[str, HandValue] = dataclasses.field(default_factory=dict)  # finished rules
    strong: dict[str, HandValue] = dataclasses.field(default_factory=dict)  # dd, pimc
    cards: dict[str, CardValues] = dataclasses.field(default_factory=dict)  # by player
    ladder: Any = None  # a Ladder; kept if cut: an unplayed strategy is shown as such
    examples: list[tuple[str, str, Advice]] = dataclasses.field(default_factory=list)
    # under strong play: by player (pimc, stored; dd, played here), then by hand
    strong_examples: dict[str, dict[str, Advice]] = dataclasses.field(default_factory=dict)
    interrupted: bool = False
    card_players: int = len(CARD_PLAYERS)  # the players whose card values are measured

    def done(self) -> dict[str, Any]:
        """The work each study really did, for run.json and the settings table."""
        return {
            "bid_success_hands": self.bids.counts.hands if self.bids is not None else 0,
            "hand_value_hands": {r: v.hands for r, v in self.values.items()},
            "strong_play_hand_value_hands": {p: v.hands for p, v in self.strong.items()},
            "card_value_hands": {p: v.hands_played for p, v in self.cards.items()},
            "ladder_games": {
                f"{c.a.name} vs {c.b.name}": c.games
                for c in (self.ladder.matches if self.ladder is not None else ())
            },
            "example_hands_advised": len(self.examples),
            "example_hands_advised_under_strong_play": {
                p: len(v) for p, v in self.strong_examples.items()
            },
        }

    def not_run(self, robbers: tuple[str, ...] = ROBBER_RULES) -> list[str]:
        """The studies an interruption left out of the report, as a player names them
        (``robbers``: the robbing rules the report plays, ``robbing_rules``)."""
        missing = []
        if self.bids is None or self.bids.counts.hands == 0:
            missing.append("bid success and Pedro capture")
        if len(self.values) < len(robbers):
            missing.append("what a hand is worth and the right to rob")
        if len(self.cards) < self.card_players:
            missing.append("what each card is worth")
        if self.ladder is None or not self.ladder.matches:
            missing.append("the strategy ladder")
        if len(self.examples) < len(EXAMPLE_HANDS):
            missing.append("advice for example hands")
        return missing


def build_report(settings: ReportSettings, progress: Callable[[int], None] | None = None) -> Report:
    """Run every study and lay out its section; ``progress`` is told the work done
    (``total_work(settings)`` units in all, each study's hands or games weighted by
    what they cost).

    Ctrl-C stops the whole report, not only the study in hand: the report then
    holds what was finished (the bid study and the ladder as far as they got),
    says so in its title and first section, and ``report.interrupted`` is true.
    """
    with interrupts.installed():  # one Ctrl-C request, standing for every study
        studies = run_studies(settings, progress or (lambda n: None))
    return lay_out(settings, studies)


class Meter:
    """Turns each study's own count (hands, deals, games) into the report's progress
    units: ``part(name, items)`` gives the study a callback that adds its share of
    ``work[name]`` per item done; ``close(name)`` tops the study up to its whole
    share (a study that did fewer items than planned, or none)."""

    def __init__(self, work: dict[str, int], step: Callable[[int], None]) -> None:
        self.work = work
        self.step = step
        self.given: dict[str, int] = {}

    def part(self, name: str, items: int) -> Callable[[int], None]:
        total = self.work.get(name, 0)
        done = [0]

        def advance(n: int) -> None:
            done[0] += n
            self._give(name, min(total, total * done[0] // max(1, items)))

        return advance

    def close(self, name: str) -> None:
        self._give(name, self.work.get(name, 0))

    def _give(self, name: str, upto: int) -> None:
        had = self.given.get(name, 0)
        if upto > had:
            self.given[name] = upto
            self.step(upto - had)


def run_studies(s: ReportSettings, step: Callable[[int], None]) -> Studies:
    """Every study in turn, until the end or the first Ctrl-C."""
    out = Studies(card_players=len(s.card_hands()))
    meter = Meter(s.work(), step)
    try:
        out.bids = run_bid_study(s, meter.part("bids", s.hands))  # Ctrl-C: what finished
        meter.close("bids")
        if out.bids.interrupted:
            raise KeyboardInterrupt
        run_hand_values(s, meter, out.values)  # fills in each robbing rule as it finishes
        run_strong_values(s, meter, out.strong)
        run_card_values(s, meter, out.cards)  # fills in each player as it finishes
        out.ladder = run_ladder(s, meter.part("ladder", s.games * _pairs(s)))
        meter.close("ladder")
        if out.ladder.interrupted:
            raise KeyboardInterrupt
        run_example_advice(s, out.examples, meter.part("advice", len(EXAMPLE_HANDS)))
        meter.close("advice")
        stored = stored_studies.stored_advice("pimc", s.rules, advice_question(s, "pimc"))
        if stored is not None:
            out.strong_examples["pimc"] = stored
        if s.perfect_advice():
            part = meter.part("advice:dd", len(EXAMPLE_HANDS))
            run_example_advice(s, out.strong_examples.setdefault("dd", {}), part, play="dd")
            meter.close("advice:dd")
    except KeyboardInterrupt:
        out.interrupted = True
    return out


def _pairs(s: ReportSettings) -> int:
    return len(s.strategies) * (len(s.strategies) - 1) // 2


def lay_out(s: ReportSettings, studies: Studies) -> Report:
    """The sections of every study that ran; an interrupted report says what is left out."""
    bids, values, lad = studies.bids, studies.values, studies.ladder
    title = "Cinch strategy report" + (" (interrupted)" if studies.interrupted else "")
    report = Report(title, interrupted=studies.interrupted, done=studies.done())
    notice = None
    if studies.interrupted:
        notice = (
            "This report was interrupted (Ctrl-C) before it was finished: it holds only the "
            "studies that ran, each on the hands or games the table below counts. Left out: "
            + "; ".join(studies.not_run(robbing_rules(s.rules)) or ["nothing"])
            + "."
        )
    sections.add_introduction(report, settings_rows(s, studies), notice)
    has_bids = bids is not None and bids.counts.hands > 0
    if has_bids:
        sections.add_bid_success(report, bids)
    base = values.get(s.rules.robber)
    if base is not None:
        sections.add_safe_bids(
            report, base, studies.examples, studies.strong, s.value_players_left_out(),
            bids if has_bids else None,
        )  # fmt: skip
        sections.add_hand_features(report, base, s.dealer)
    if studies.cards:
        sections.add_card_values(report, studies.cards, s.card_players_left_out())
    robbers = robbing_rules(s.rules)
    if len(robbers) > 1 and len(values) == len(robbers):
        sections.add_robbing(report, values, s.rules.robber)
    elif len(robbers) == 1:
        sections.add_left_out(
            report,
            "The right to rob the pack",
            f"Left out: {s.rules.preset} has "
            + ("its stock shared out as widows" if s.rules.widow else "no discard and draw")
            + ", so there is no stock to rob and no robbing rule to compare.",
        )
    if has_bids:
        sections.add_pedro_capture(report, bids)
    if lad is not None and lad.matches:
        sections.add_ladder(report, lad, s.rules.target)
    if studies.examples:
        sections.add_example_advice(
            report, studies.examples, s.dealer, s.rules, studies.strong_examples,
            None if studies.interrupted else s.advice_players_left_out(),
        )  # fmt: skip
    sections.add_method_notes(report, used_strategies(s, studies), s.rules.teams > 2)
    return report


def settings_rows(s: ReportSettings, studies: Studies) -> list[tuple[str, str]]:
    """The settings table; for an interrupted report, the hands and games each study
    really ran instead of the ones asked for."""
    rows = s.rows()
    if not studies.interrupted:
        return rows
    done = studies.done()
    asked = {"hands simulated per study", "games per strategy pair"}
    asked |= {f"hands played for card values, {_who(p)}" for p in CARD_PLAYERS}
    real = [
        ("interrupted", "yes: Ctrl-C stopped the report before it was finished"),
        ("hands asked per study", f"{s.hands:,}"),
        ("games asked per strategy pair", f"{s.games:,}"),
        ("hands simulated, bid success", f"{done['bid_success_hands']:,}"),
    ]
    real += [
        (f"hands simulated, hand value with robber={r}", f"{done['hand_value_hands'].get(r, 0):,}")
        for r in robbing_rules(s.rules)
    ]
    real += [
        (f"hands played for card values, {_who(p)}", f"{done['card_value_hands'].get(p, 0):,}")
        for p in CARD_PLAYERS
    ]
    games = done["ladder_games"] or {"strategy ladder": 0}
    real += [(f"games played, {pair}", f"{n:,}") for pair, n in games.items()]
    real.append(
        ("example hands advised", f"{done['example_hands_advised']} of {len(EXAMPLE_HANDS)}")
    )
    first = [r for r in rows if r[0] not in asked]
    return first[:1] + real + first[1:]


def used_strategies(s: ReportSettings, studies: Studies) -> list[Any]:
    """The strategies the report's numbers come from: the ladder's and the card players'."""
    from cinch_sim.policies.strategies import resolve_strategy

    names = list(s.strategies) + [p for p in studies.cards if p not in s.strategies]
    return [resolve_strategy(n) for n in names]


def total_work(settings: ReportSettings) -> int:
    """The progress units ``build_report`` reports in all for ``settings``."""
    return sum(settings.work().values())


# ------------------------------------------------------------------ the studies
def run_bid_study(s: ReportSettings, progress: Callable[[int], None] | None = None) -> Analysis:
    """Hands bid and played by the heuristic at every seat, tallied by bid."""
    start = time.perf_counter()
    run, settings = plan_hands(s.hands, s.seed, s.rules, s.dealer, ("heuristic",) * 4)
    counts, interrupted, _ = count_run(run, threads=s.threads, progress=progress)
    return Analysis(settings, counts, ("bid",), seconds=time.perf_counter() - start,
                    interrupted=interrupted)  # fmt: skip


def run_hand_values(
    s: ReportSettings, meter: Meter | None = None, values: dict[str, HandValue] | None = None
) -> dict[str, HandValue]:
    """Every hand played with its holder as the maker, once under each robbing rule
    (into ``values``, rule by rule: a Ctrl-C keeps the rules finished)."""
    meter = meter or Meter({}, lambda n: None)
    policies = PolicySet.from_specs(s.rules.players)
    values = {} if values is None else values
    robbers = robbing_rules(s.rules)
    advance = meter.part("values", s.hands * len(robbers))
    for robber in robbers:
        r = dataclasses.replace(s.rules, robber=robber)
        values[robber] = hand_values(
            s.hands, s.seed, r, policies, s.dealer, threads=s.threads, progress=advance
        )
    meter.close("values")
    return values


def run_strong_values(
    s: ReportSettings, meter: Meter | None = None, values: dict[str, HandValue] | None = None
) -> dict[str, HandValue]:
    """The hand-value study again under strong play at every seat, for the safe bids
    (into ``values``, player by player): PIMC's from its stored study only (tens of
    thousands of PIMC hands take minutes), perfect play's stored or played here."""
    meter = meter or Meter({}, lambda k: None)
    values = {} if values is None else values
    stored = s.stored_value_hands()
    for name, n in s.strong_value_hands().items():
        if name in stored:
            found = stored_studies.stored_hand_values(name, s.rules, value_question(s, name))
            values[name] = found[0]  # type: ignore[index]  # stored_value_hands found it
        else:
            values[name] = value_study(s, name, n, meter.part(f"values:{name}", n))
        meter.close(f"values:{name}")
    return values


def value_policies(s: ReportSettings, name: str) -> PolicySet:
    """The policies of the hand-value study under ``name``'s play (the heuristic's
    bidding, trump and discards, as in every hand study)."""
    return PolicySet.from_specs(s.rules.players, play=name)


def value_question(s: ReportSettings, name: str) -> dict[str, Any]:
    """What the hand-value study under ``name``'s play is played under: what a stored
    study must match."""
    return {"seed": s.seed, "dealer": s.dealer, "rules": s.rules.describe(),
            "policies": described_specs(s.rules.players, play=name)}  # fmt: skip


def value_study(
    s: ReportSettings, name: str, hands: int, progress: Callable[[int], None] | None = None
) -> HandValue:
    """Every hand played with its holder as the maker under ``name``'s play at every
    seat (``scripts/store_studies.py`` stores the same call's result)."""
    return hand_values(hands, s.seed, s.rules, value_policies(s, name), s.dealer,
                       threads=s.threads, progress=progress)  # fmt: skip


def run_card_values(
    s: ReportSettings, meter: Meter | None = None, cards: dict[str, CardValues] | None = None
) -> dict[str, CardValues]:
    """Each card's value by paired replays for each of ``CARD_PLAYERS`` (into ``cards``,
    player by player): the stored study where one answers (``stored_card_values``),
    else played here; an interrupted player is kept (it counts its own hands) and
    stops the report."""
    meter = meter or Meter({}, lambda n: None)
    cards = {} if cards is None else cards
    stored = s.stored_card_values()
    for name, hands in s.card_hands().items():
        if name in stored:
            cards[name] = stored_studies.card_values(name, s.rules, card_question(s, name))
            meter.close(f"cards:{name}")
            continue
        cv = card_study(s, name, hands, meter.part(f"cards:{name}", hands))
        meter.close(f"cards:{name}")
        cards[name] = cv
        if cv.interrupted:
            raise KeyboardInterrupt
    return cards


def card_policies(s: ReportSettings, name: str) -> PolicySet:
    """The policies of ``name``'s card-value study: the strategy at every seat."""
    return PolicySet.from_specs(s.rules.players, **card_specs(s, name))


def card_specs(s: ReportSettings, name: str) -> dict[str, list[str]]:
    """``card_policies``' specs, seat by seat, with nothing loaded or compiled."""
    from cinch_sim.policies.strategies import resolve_strategy

    st = resolve_strategy(name)
    return described_specs(s.rules.players, st.bid, st.trump, st.discard, st.play)


def card_question(s: ReportSettings, name: str) -> dict[str, Any]:
    """What ``name``'s card-value study is played under: the settings its result keeps
    (less the hands), and what a stored study must match."""
    return {"seed": s.seed, "dealer": s.dealer, "rules": s.rules.describe(),
            "policies": card_specs(s, name), "replacement": "trump"}  # fmt: skip


def card_study(
    s: ReportSettings,
    name: str,
    hands: int,
    progress: Callable[[int], None] | None = None,
    start: int = 0,
) -> CardValues:
    """``name``'s card values played here on ``hands`` deals (hand numbers from
    ``start``), as the report plays them (``scripts/store_studies.py`` stores the same
    call's result)."""
    q = card_question(s, name)
    settings = {"hands": hands, **{k: v for k, v in q.items() if k != "replacement"}}
    return card_values(
        hands, s.seed, s.rules, card_policies(s, name), settings, s.dealer, q["replacement"],
        threads=s.threads, progress=progress, chunk=CARD_CHUNK.get(name, 256), start=start,
    )  # fmt: skip


def run_ladder(s: ReportSettings, progress: Callable[[int], None] | None = None):
    """Every pair of the strategies in a duplicate match: a ``Ladder``."""
    from cinch_sim.matches.ladder import ladder

    return ladder(
        list(s.strategies), games=s.games, seed=s.seed, rules=s.rules, threads=s.threads,
        progress=progress,
    )  # fmt: skip


def run_example_advice(
    s: ReportSettings,
    examples: list[tuple[str, str, Advice]] | dict[str, Advice] | None = None,
    progress: Callable[[int], None] | None = None,
    play: str = "heuristic",
) -> list[tuple[str, str, Advice]] | dict[str, Advice]:
    """The advisor on each example hand, held by the eldest hand with no bid before it
    (into ``examples``, hand by hand: a Ctrl-C keeps the hands finished). ``play="dd"``
    or ``"pimc"``: under that play at every seat, at ``advice_precision``, into a dict
    by hand."""
    eldest = (s.dealer + 1) % s.rules.players
    examples = ([] if play == "heuristic" else {}) if examples is None else examples
    precision = advice_precision(s, play)
    for text, _ in example_hands(s.rules):
        adv = advise(
            text,
            seat=eldest,
            dealer=s.dealer,
            rules=s.rules,
            precision=precision,
            seed=s.seed,
            threads=s.threads,
            play=play,
        )
        if isinstance(examples, dict):
            examples[text] = adv
        else:
            examples.append((text, example_label(text, s.rules, adv.best_trump), adv))
        if progress is not None:
            progress(1)
    return examples


def advice_precision(s: ReportSettings, play: str) -> float:
    """The precision the example hands are advised to under ``play``: the report's own
    for the heuristic, ``perfect_advice_precision`` for perfect play, and
    ``PIMC_ADVICE_PRECISION`` for PIMC (its stored study)."""
    if play == "heuristic":
        return s.advice_precision
    return PIMC_ADVICE_PRECISION if play == "pimc" else s.perfect_advice_precision  # type: ignore[return-value]


def advice_question(s: ReportSettings, play: str) -> dict[str, Any]:
    """What the example hands' advice under ``play`` at every seat answers: what a
    stored advice study must match."""
    return {
        "rules": s.rules.describe(),
        "dealer": s.dealer,
        "seat": (s.dealer + 1) % s.rules.players,
        "policies": described_specs(s.rules.players, BID_MODEL, "heuristic", "heuristic", play),
        "hands": [text for text, _ in example_hands(s.rules)],
        "precision": advice_precision(s, play),
        "seed": s.seed,
    }

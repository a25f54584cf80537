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
from collections.abc import Callable
from typing import Any

from cinch_sim import interrupts
from cinch_sim.advisor.estimate import Advice, advise
from cinch_sim.analysis.analyse import Analysis, analyse
from cinch_sim.analysis.card_values import CardValues, card_values
from cinch_sim.analysis.hand_worth import HandValue, hand_values
from cinch_sim.cards import RANKS
from cinch_sim.engine.run import PolicySet
from cinch_sim.report import sections
from cinch_sim.report.render import Report
from cinch_sim.rules import Rules, RulesError
from cinch_sim.version import __version__

DEFAULT_STRATEGIES = ("heuristic", "greedy", "simple", "random")
# The example hands (nine cards; a preset that deals fewer takes the first ones),
# each with the suit its label describes as the preset scores it (None: fixed text).
EXAMPLE_HANDS = (
    ("AS KS 5S 5C 2S 9H 3D 7C JD", "S", ""),
    ("5H JH 8H 4H AD 9C 6S 3S 2C", "H", ""),
    ("AC KD QD 7H 6H 9S 8C 4D 3H", None, "No five at all: a weak hand"),
)
ROBBER_RULES = ("maker", "dealer", "none")
# work units for the progress bar
CARD_PLAYERS = ("heuristic", "pimc")  # the strategies whose card values are shown
HEURISTIC_CARD_HANDS = 50_000  # at most: about 20 s of paired replays (measured, loaded)
PIMC_CARD_HANDS = 200  # at most: about 0.3 s a hand with its replays, about a minute
# PIMC's double-dummy searches grow fast with the cards in play: one hand with its
# replays took 0.1 s at cutthroat3, 4 s at cutthroat5 and 180 s at heasly (6 players,
# measured on two busy cores), so at 6 players it plays only when asked for
PIMC_MAX_PLAYERS = 5
STEPS = {"bids": 1, "values": len(ROBBER_RULES), "cards": 2, "ladder": 4, "advice": 2}


def robbing_rules(rules: Rules) -> tuple[str, ...]:
    """The robbing rules the report plays the hands under: all three with a draw
    (those the rules accept), the preset's own first rule only without one (nobody
    robs where there is no stock to rob, docs/rules.md §3.6)."""
    if not rules.draw:
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


def _describe(cards: list[str], suit: str, rules: Rules) -> str:
    """``The A, K, Right Pedro and Left Pedro of spades``: the hand's A, K and point
    cards if ``suit`` were trump (the left card by the preset's name for it)."""
    from cinch_sim.cards import SUITS, left_card, parse_card
    from cinch_sim.notation import label

    trump = SUITS.index(suit)
    points = {rank: name for name, rank, _ in rules.point_cards}
    left = left_card(trump, RANKS.index(rules.left_rank)) if rules.left_rank else -1
    named = []
    for text in cards:
        c = parse_card(text)
        if c == left:
            named.append(label(rules.left_name))
        elif c // 13 == trump and text[0] in "AK":
            named.append(text[0])
        elif c // 13 == trump and text[0] in points:
            named.append(label(points[text[0]]))
    words = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)
    return f"The {words} of {SUIT_WORDS[suit]}" if named else f"No point card in {SUIT_WORDS[suit]}"


SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclasses.dataclass
class ReportSettings:
    """What the report simulates: sizes, seed, rules, the ladder's strategies."""

    hands: int = 1_000_000
    games: int = 4000
    seed: int = 0
    rules: Rules = dataclasses.field(default_factory=Rules)
    strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    dealer: int = 3
    threads: int | None = None
    advice_precision: float = 0.01
    card_values_hands: int | None = None  # the PIMC player's; None: card_hands's default

    def card_hands(self) -> dict[str, int]:
        """Hands played for each player's card values: the heuristic's up to
        ``HEURISTIC_CARD_HANDS``; PIMC's ``card_values_hands`` or hands / 400, up to
        ``PIMC_CARD_HANDS`` (the default report spends about a minute and a half on both)."""
        pimc = self.card_values_hands or max(1, min(PIMC_CARD_HANDS, self.hands // 400))
        out = {"heuristic": min(self.hands, HEURISTIC_CARD_HANDS), "pimc": pimc}
        if self.card_values_hands is None and self._pimc_too_slow():
            del out["pimc"]  # see PIMC_MAX_PLAYERS; card_values_hands plays it anyway
        return out

    def _pimc_too_slow(self) -> bool:
        """Whether PIMC's searches are too slow for the default report: at a table of
        six, and with two decks (twelve tricks, 48 cards in play)."""
        return self.rules.players > PIMC_MAX_PLAYERS or self.rules.decks > 1

    def card_players_left_out(self) -> str | None:
        """Why a card player is not measured (PIMC at a table of 6), or None."""
        if "pimc" in self.card_hands():
            return None
        where = (
            "with two decks (twelve tricks)"
            if self.rules.decks > 1
            else f"at a table of {self.rules.players}"
        )
        return (
            f"The PIMC player is left out {where}: its double-dummy searches grow fast "
            "with the cards in play, and one hand with its replays takes minutes here "
            "(--card-values-hands N plays N hands)."
        )

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
            "policies_for_hand_studies": "heuristic at every seat and plug point",
        }

    def rows(self) -> list[tuple[str, str]]:
        """The settings and every rule as (setting, value) text, for the report's first table."""
        return (
            [
                ("cinch_sim version", __version__),
                ("hands simulated per study", f"{self.hands:,}"),
                ("games per strategy pair", f"{self.games:,}"),
                ("seed", str(self.seed)),
                ("dealer", f"seat {self.dealer}"),
                ("strategies", ", ".join(self.strategies)),
            ]
            + [
                (f"hands played for card values, {name}", f"{n:,}")
                for name, n in self.card_hands().items()
            ]
            + [(f"rule: {k}", str(v)) for k, v in self.rules.describe().items() if k != "options"]
        )


@dataclasses.dataclass
class Studies:
    """What the studies gave: each one finished, or as far as Ctrl-C let it go."""

    bids: Analysis | None = None  # kept if cut: it counts its own hands
    values: dict[str, HandValue] = dataclasses.field(default_factory=dict)  # finished rules
    cards: dict[str, CardValues] = dataclasses.field(default_factory=dict)  # by player
    ladder: Any = None  # a Ladder; kept if cut: an unplayed strategy is shown as such
    examples: list[tuple[str, str, Advice]] = dataclasses.field(default_factory=list)
    interrupted: bool = False
    card_players: int = len(CARD_PLAYERS)  # the players whose card values are measured

    def done(self) -> dict[str, Any]:
        """The work each study really did, for run.json and the settings table."""
        return {
            "bid_success_hands": self.bids.counts.hands if self.bids is not None else 0,
            "hand_value_hands": {r: v.hands for r, v in self.values.items()},
            "card_value_hands": {p: v.hands_played for p, v in self.cards.items()},
            "ladder_games": {
                f"{c.a.name} vs {c.b.name}": c.games
                for c in (self.ladder.matches if self.ladder is not None else ())
            },
            "example_hands_advised": len(self.examples),
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
    (``total_steps`` units in all).

    Ctrl-C stops the whole report, not only the study in hand: the report then
    holds what was finished (the bid study and the ladder as far as they got),
    says so in its title and first section, and ``report.interrupted`` is true.
    """
    with interrupts.installed():  # one Ctrl-C request, standing for every study
        studies = run_studies(settings, progress or (lambda n: None))
    return lay_out(settings, studies)


def run_studies(s: ReportSettings, step: Callable[[int], None]) -> Studies:
    """Every study in turn, until the end or the first Ctrl-C."""
    out = Studies(card_players=len(s.card_hands()))
    try:
        out.bids = run_bid_study(s)  # on Ctrl-C: the finished hands, ``interrupted``
        step(STEPS["bids"])
        if out.bids.interrupted:
            raise KeyboardInterrupt
        run_hand_values(s, step, out.values)  # fills in each robbing rule as it finishes
        run_card_values(s, step, out.cards)  # fills in each player as it finishes
        out.ladder = run_ladder(s)
        step(STEPS["ladder"])
        if out.ladder.interrupted:
            raise KeyboardInterrupt
        run_example_advice(s, out.examples)
        step(STEPS["advice"])
    except KeyboardInterrupt:
        out.interrupted = True
    return out


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
        sections.add_safe_bids(report, base, studies.examples)
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
            f"Left out: {s.rules.preset} has no discard and draw, so there is no stock to rob "
            "and no robbing rule to compare.",
        )
    if has_bids:
        sections.add_pedro_capture(report, bids)
    if lad is not None and lad.matches:
        sections.add_ladder(report, lad, s.games, s.rules.target)
    if studies.examples:
        sections.add_example_advice(report, studies.examples, s.dealer, s.rules)
    sections.add_method_notes(report, used_strategies(s, studies))
    return report


def settings_rows(s: ReportSettings, studies: Studies) -> list[tuple[str, str]]:
    """The settings table; for an interrupted report, the hands and games each study
    really ran instead of the ones asked for."""
    rows = s.rows()
    if not studies.interrupted:
        return rows
    done = studies.done()
    asked = {"hands simulated per study", "games per strategy pair"}
    asked |= {f"hands played for card values, {p}" for p in CARD_PLAYERS}
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
        (f"hands played for card values, {p}", f"{done['card_value_hands'].get(p, 0):,}")
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


def total_steps() -> int:
    """The progress units ``build_report`` reports in all."""
    return sum(STEPS.values())


# ------------------------------------------------------------------ the studies
def run_bid_study(s: ReportSettings) -> Analysis:
    """Hands bid and played by the heuristic at every seat, tallied by bid."""
    return analyse(
        hands=s.hands, seed=s.seed, rules=s.rules, dealer=s.dealer, threads=s.threads, by=("bid",)
    )


def run_hand_values(
    s: ReportSettings, step: Callable[[int], None], values: dict[str, HandValue] | None = None
) -> dict[str, HandValue]:
    """Every hand played with its holder as the maker, once under each robbing rule
    (into ``values``, rule by rule: a Ctrl-C keeps the rules finished)."""
    policies = PolicySet.from_specs(s.rules.players)
    values = {} if values is None else values
    robbers = robbing_rules(s.rules)
    for robber in robbers:
        r = dataclasses.replace(s.rules, robber=robber)
        values[robber] = hand_values(s.hands, s.seed, r, policies, s.dealer, threads=s.threads)
        step(1)
    step(len(ROBBER_RULES) - len(robbers))  # the rules without meaning here: nothing to do
    return values


def run_card_values(
    s: ReportSettings, step: Callable[[int], None], cards: dict[str, CardValues] | None = None
) -> dict[str, CardValues]:
    """Each card's value by paired replays for each of ``CARD_PLAYERS`` (into ``cards``,
    player by player); an interrupted player is kept (it counts its own hands) and
    stops the report."""
    from cinch_sim.policies.strategies import resolve_strategy

    cards = {} if cards is None else cards
    for name, hands in s.card_hands().items():
        st = resolve_strategy(name)
        policies = PolicySet.from_specs(s.rules.players, st.bid, st.trump, st.discard, st.play)
        settings = {"hands": hands, "seed": s.seed, "dealer": s.dealer,
                    "rules": s.rules.describe(), "policies": policies.describe()}  # fmt: skip
        cv = card_values(hands, s.seed, s.rules, policies, settings, s.dealer, threads=s.threads)
        cards[name] = cv
        step(1)
        if cv.interrupted:
            raise KeyboardInterrupt
    step(len(CARD_PLAYERS) - len(s.card_hands()))  # a player left out: nothing to do
    return cards


def run_ladder(s: ReportSettings):
    """Every pair of the strategies in a duplicate match: a ``Ladder``."""
    from cinch_sim.matches.ladder import ladder

    return ladder(list(s.strategies), games=s.games, seed=s.seed, rules=s.rules, threads=s.threads)


def run_example_advice(
    s: ReportSettings, examples: list[tuple[str, str, Advice]] | None = None
) -> list[tuple[str, str, Advice]]:
    """The advisor on each example hand, held by the eldest hand with no bid before it
    (into ``examples``, hand by hand: a Ctrl-C keeps the hands finished)."""
    eldest = (s.dealer + 1) % s.rules.players
    examples = [] if examples is None else examples
    for text, label in example_hands(s.rules):
        adv = advise(
            text,
            seat=eldest,
            dealer=s.dealer,
            rules=s.rules,
            precision=s.advice_precision,
            seed=s.seed,
            threads=s.threads,
        )
        examples.append((text, label, adv))
    return examples

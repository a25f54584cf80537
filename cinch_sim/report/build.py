"""The strategy report: the analyses a Cinch player asks for, as one readable page.

``build_report`` runs every study (bid success, what a hand is worth, the
right to rob, Pedro capture, the strategy ladder, advice for example hands)
and lays each out with ``sections``; the result is a ``render.Report``, which
``render.write_report`` writes as HTML, Markdown, PNG charts and CSV tables.
Text is written for players.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from cinch_sim import __version__
from cinch_sim.advisor.estimate import Advice, advise
from cinch_sim.analysis.analyse import Analysis, analyse
from cinch_sim.analysis.hand_worth import HandValue, hand_values
from cinch_sim.engine.run import PolicySet
from cinch_sim.report import sections
from cinch_sim.report.render import Report
from cinch_sim.rules import Rules

DEFAULT_STRATEGIES = ("heuristic", "greedy", "simple", "random")
EXAMPLE_HANDS = (
    ("AS KS 5S 5C 2S 9H 3D 7C JD", "Both Pedros with the A and K of spades"),
    ("5H JH 8H 4H AD 9C 6S 3S 2C", "The Right Pedro of hearts with the Jack"),
    ("AC KD QD 7H 6H 9S 8C 4D 3H", "No five at all: a weak hand"),
)
ROBBER_RULES = ("maker", "dealer", "none")
# work units for the progress bar
STEPS = {"bids": 1, "values": len(ROBBER_RULES), "ladder": 4, "advice": 2}


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
            "policies_for_hand_studies": "heuristic at every seat and plug point",
        }

    def rows(self) -> list[tuple[str, str]]:
        """The settings and every rule as (setting, value) text, for the report's first table."""
        return [
            ("cinch_sim version", __version__),
            ("hands simulated per study", f"{self.hands:,}"),
            ("games per strategy pair", f"{self.games:,}"),
            ("seed", str(self.seed)),
            ("dealer", f"seat {self.dealer}"),
            ("strategies", ", ".join(self.strategies)),
        ] + [(f"rule: {k}", str(v)) for k, v in self.rules.describe().items()]


def build_report(settings: ReportSettings, progress: Callable[[int], None] | None = None) -> Report:
    """Run every study and lay out its section; ``progress`` is told the work done
    (``total_steps`` units in all)."""
    step = progress or (lambda n: None)
    s = settings
    report = Report("Cinch strategy report")
    sections.add_introduction(report, s.rows())
    bids = run_bid_study(s)
    step(STEPS["bids"])
    sections.add_bid_success(report, bids)
    values = run_hand_values(s, step)
    base = values[s.rules.robber]
    sections.add_safe_bids(report, base)
    sections.add_hand_features(report, base, s.dealer)
    sections.add_robbing(report, values)
    sections.add_pedro_capture(report, bids)
    lad = run_ladder(s)
    step(STEPS["ladder"])
    sections.add_ladder(report, lad, s.games, s.rules.target)
    examples = run_example_advice(s)
    step(STEPS["advice"])
    sections.add_example_advice(report, examples)
    sections.add_method_notes(report)
    return report


def total_steps() -> int:
    """The progress units ``build_report`` reports in all."""
    return sum(STEPS.values())


# ------------------------------------------------------------------ the studies
def run_bid_study(s: ReportSettings) -> Analysis:
    """Hands bid and played by the heuristic at every seat, tallied by bid."""
    return analyse(
        hands=s.hands, seed=s.seed, rules=s.rules, dealer=s.dealer, threads=s.threads, by=("bid",)
    )


def run_hand_values(s: ReportSettings, step: Callable[[int], None]) -> dict[str, HandValue]:
    """Every hand played with its holder as the maker, once under each robbing rule."""
    policies = PolicySet.from_specs(s.rules.players)
    values = {}
    for robber in ROBBER_RULES:
        r = dataclasses.replace(s.rules, robber=robber)
        values[robber] = hand_values(s.hands, s.seed, r, policies, s.dealer, threads=s.threads)
        step(1)
    return values


def run_ladder(s: ReportSettings):
    """Every pair of the strategies in a duplicate match: a ``Ladder``."""
    from cinch_sim.matches.ladder import ladder

    return ladder(list(s.strategies), games=s.games, seed=s.seed, rules=s.rules, threads=s.threads)


def run_example_advice(s: ReportSettings) -> list[tuple[str, str, Advice]]:
    """The advisor on each example hand, held by the eldest hand with no bid before it."""
    eldest = (s.dealer + 1) % s.rules.players
    return [
        (
            text,
            label,
            advise(
                text,
                seat=eldest,
                dealer=s.dealer,
                rules=s.rules,
                precision=s.advice_precision,
                seed=s.seed,
                threads=s.threads,
            ),
        )
        for text, label in EXAMPLE_HANDS
    ]

"""The end of a game (docs/rules.md §1.15, §3.5): records.game_end, by hand and against the
kernel."""

from __future__ import annotations

import doctest

import pytest

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_games
from cinch_sim.matches.play import team_policies
from cinch_sim.policies.strategies import BUILTIN, Strategy
from cinch_sim.records import game_end as game_end_module
from cinch_sim.records.game_end import game_end, hand_ends_game, next_dealer
from cinch_sim.rules import Rules, make_rules

# ------------------------------------------------------------------ the rule, by hand


@pytest.mark.parametrize(
    "scores, maker, made, target, neg, expect",
    [
        # both sides past 51: the bidders made their bid, they win though behind
        ([53, 59], 0, True, 51, None, (0, "target")),
        ([60, 52], 1, True, 51, None, (1, "target")),
        # bidders set: the opponents at the target win
        ([40, 55], 0, False, 51, None, (1, "target")),
        # bidders made but short of the target, opponents past it
        ([45, 52], 0, True, 51, None, (1, "target")),
        # exactly the target counts
        ([51, 10], 0, True, 51, None, (0, "target")),
        ([50, 50], 1, True, 51, None, (None, None)),
        # target 42
        ([42, 0], 0, True, 42, None, (0, "target")),
        ([41, 41], 0, True, 42, None, (None, None)),
        # negative limit: at or below -N loses
        ([-30, 20], 0, False, 51, 30, (1, "negative_limit")),
        ([-29, 20], 0, False, 51, 30, (None, None)),
        ([5, -31], 1, False, 51, 30, (0, "negative_limit")),
        # ... but a side at the target on that hand wins first
        ([-31, 55], 0, False, 51, 30, (1, "target")),
        # the limit off: any negative total plays on
        ([-300, 20], 0, False, 51, None, (None, None)),
        # a thrown-in hand decides nothing
        ([60, 60], None, False, 51, None, (None, None)),
        # three sides (§3.5): the highest of the others; equal totals, the first
        # clockwise from the maker
        ([10, 55, 60], 0, False, 51, None, (2, "target")),
        ([55, 10, 55], 1, False, 51, None, (2, "target")),
        ([55, 55, 10], 2, True, 51, None, (0, "target")),
        ([30, -30, 30], 1, False, 51, 30, (2, "negative_limit")),
    ],
)
def test_game_end_by_hand(scores, maker, made, target, neg, expect):
    assert game_end(scores, maker, made, target, neg) == expect


def test_rules_give_the_maker_side_target_and_limit():
    r = make_rules(options={"target": "42", "min_score_loss": "20"})
    assert hand_ends_game(r, [42, 44], 2, True) == (0, "target")  # seat 2 is team 0
    assert hand_ends_game(r, [42, 44], 3, True) == (1, "target")
    assert hand_ends_game(r, [-20, 5], 0, False) == (1, "negative_limit")
    assert hand_ends_game(r, [60, 60], None, None) == (None, None)


def test_next_dealer():
    same = make_rules(options={"all_pass": "redeal_same"})
    nxt = make_rules(options={"all_pass": "redeal_next"})
    assert [next_dealer(nxt, d) for d in range(4)] == [1, 2, 3, 0]
    assert next_dealer(nxt, 3, thrown_in=True) == 0
    assert next_dealer(same, 3, thrown_in=True) == 3
    assert next_dealer(same, 3) == 0
    assert next_dealer(nxt, 1, misdeal=True) == 1
    assert next_dealer(Rules(players=3, partnerships=False, robber="none"), 2) == 0


def test_doctests():
    assert doctest.testmod(game_end_module).failed == 0


# ------------------------------------------------------------------ against the kernel


def _mixed_policies(rules):
    """Random bidders (many sets, negative totals) against heuristic ones; heuristic mirrors
    (close games where both sides pass the target on the last hand)."""
    # heuristic_v1: these seeds' games reach every ending counted below with it (the
    # rule under test is the game end, not the players)
    rnd, heu, simple = BUILTIN["random"], BUILTIN["heuristic_v1"], BUILTIN["simple"]
    bold = Strategy("bold", bid="random", play="heuristic_v1")
    return [
        (team_policies(rules, bold, heu), 150),
        (team_policies(rules, heu, rnd), 100),
        (team_policies(rules, heu, heu), 400),
        # everyone passes in about 1 hand of 150 (a dozen redeals in these games), which
        # neither random bidders (1 in 50,000) nor the heuristic's ever do
        (team_policies(rules, simple, simple), 300),
    ]


RULE_SETS = [
    {},
    {"target": "42"},
    {"scoring": "difference"},
    {"min_score_loss": "30"},
    {"all_pass": "redeal_same"},
    {"all_pass": "redeal_next", "min_score_loss": "20"},
]


@pytest.mark.parametrize(
    "opts", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_kernel_games_end_where_the_python_rule_says(opts):
    """Hand by hand, every kernel game goes on while game_end says so and ends where it
    says, with its winner and reason; the dealers follow next_dealer."""
    rules = make_rules(options=opts)
    seen = {"made_behind": 0, "negative": 0, "redealt": 0, "set_then_opp": 0, "tied": 0}
    for k, (pol, n_games) in enumerate(_mixed_policies(rules)):
        _replay(rules, pol, 11 + k, n_games, seen)
    assert seen["set_then_opp"] > 0
    if not opts:
        assert seen["made_behind"] > 0  # both past the target: the bidders won from behind
    if "min_score_loss" in opts:
        assert seen["negative"] > 0
    if opts.get("all_pass") == "redeal_same":
        assert seen["redealt"] > 0


@pytest.mark.parametrize("opts", [{"target": "15"}, {"target": "31", "min_score_loss": "6"}])
def test_cutthroat_kernel_games_end_where_the_python_rule_says(opts):
    """Three sides (§3.5): among others past the target the highest wins, and a tie goes
    to the first clockwise from the maker; at the negative limit the best side left wins."""
    rules = Rules(players=3, partnerships=False, robber="none").with_options(opts)
    seen = {"made_behind": 0, "negative": 0, "redealt": 0, "set_then_opp": 0, "tied": 0}
    for k, bid in enumerate(("random", "heuristic")):
        pol = PolicySet.from_specs(3, bid, "heuristic", "heuristic", "heuristic")
        _replay(rules, pol, 21 + k, 600, seen)
    assert seen["tied"] > 0  # ties among the others decided the winner in some games
    if "min_score_loss" in opts:
        assert seen["negative"] > 0


def _replay(rules, pol, seed, n_games, seen, max_hands=256):
    """Replay kernel games hand by hand through hand_ends_game, counting what was seen."""
    games, hands, _ = run_games(rules, pol, seed, 0, n_games, max_hands=max_hands)
    for g in range(n_games):
        row, rows = games[g], hands[g]
        n = int(row[L.G_N_HANDS])
        assert not rows[n:].any()  # rows past the end stay zero
        totals = [0] * rules.teams
        dealer = int(row[L.G_FIRST_DEALER])
        for h in range(n):
            hand = rows[h]
            assert hand[L.H_ERROR] == 0
            assert hand[L.H_DEALER] == dealer, (g, h)
            thrown = bool(hand[L.H_THROWN_IN])
            totals = [totals[t] + int(hand[L.H_SCORE + t]) for t in range(rules.teams)]
            maker = None if thrown else int(hand[L.H_MAKER])
            winner, reason = hand_ends_game(rules, totals, maker, hand[L.H_MADE] == 1)
            if h < n - 1:
                assert reason is None, (g, h, totals)
            if thrown and rules.all_pass == "redeal_same":
                seen["redealt"] += h < n - 1
            dealer = next_dealer(rules, dealer, thrown)
        if reason is None:
            assert n == max_hands and row[L.G_REASON] == L.REASON_UNFINISHED
        assert L.REASON_NAMES[row[L.G_REASON]] == (reason or "unfinished"), g
        assert row[L.G_WINNER] == (-1 if winner is None else winner), g
        assert totals == list(row[L.G_SCORE : L.G_SCORE + rules.teams])
        if reason == "target" and min(totals) >= rules.target and rules.teams == 2:
            seen["made_behind"] += totals[winner] < totals[1 - winner]
        if winner is not None:
            others = [t for t in range(rules.teams) if t != winner]
            seen["tied"] += any(totals[t] == totals[winner] for t in others)
        seen["set_then_opp"] += reason == "target" and rows[n - 1, L.H_MADE] == 0
        seen["negative"] += reason == "negative_limit"

"""The double-dummy solver against a plain minimax, the kernel, and hands worked by hand.

The search (cinch_sim/solver/search.py) prunes, keeps a table and collapses cards;
the reference (solver/reference.py) tries every legal card at every turn and
scores the finished hand from the rules text. They must agree exactly, on every
position and on every card's value, under every play option. The kernel's own
hands tie both to the game the simulator plays: a finished hand's value is the
kernel's points, and the stepper's trick winners are the kernel's.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from solver_cases import advance, end_position, kernel_hands

from cinch_sim import layout as L
from cinch_sim.cards import format_card, parse_card, parse_cards, to_mask
from cinch_sim.rules import Rules, make_rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.moves import legal_mask, play, to_move, trick_winner
from cinch_sim.solver.reference import legal_cards, reference_card_values, reference_value
from cinch_sim.solver.search import (
    W_NODES,
    at_least,
    card_values,
    card_values2,
    card_values_of,
    new_workspace,
    solve,
    solve2,
)

# every play option of docs/rules.md §2 that changes the play or the points, alone and
# together; the default first
OPTIONS = [
    {},
    {"follow_rule": "strict"},
    {"low_to": "player"},
    {"high_rule": "highest_in_play"},
    {"low_rule": "deuce_only"},
    {"follow_rule": "strict", "low_to": "player", "high_rule": "highest_in_play"},
    {"low_to": "player", "low_rule": "deuce_only", "high_rule": "highest_in_play"},
]


def _id(opts: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in opts.items()) or "default"


def values_of(rules: Rules, pos: np.ndarray, ws: np.ndarray) -> dict[int, int]:
    out = np.zeros(52, np.int64)
    card_values(pos, rules.to_array(), ws, out)
    return {c: int(out[c]) for c in range(52) if out[c] >= 0}


def check_random(rules: Rules, seed: int, n: int, cards_every: int = 1) -> int:
    """Solver == minimax on n random end positions (1-3 tricks left, a third with short
    hands); every ``cards_every``-th also card by card. Returns the positions checked."""
    rng = np.random.default_rng(seed)
    rv = rules.to_array()
    ws = new_workspace()
    for i in range(n):
        pos = end_position(rules, rng, 1 + i % 3, short=i % 3 == 0)
        want = reference_value(rules, pos)
        got = solve(pos, rv, ws)
        assert got == want, (i, Q.describe(rules, pos), got, want)
        if i % cards_every == 0:
            assert values_of(rules, pos, ws) == reference_card_values(rules, pos), (
                i,
                Q.describe(rules, pos),
            )
    return n


@pytest.mark.parametrize("opts", OPTIONS, ids=_id)
def test_the_search_agrees_with_minimax_on_random_end_positions(opts):
    check_random(Rules().with_options(opts), seed=len(_id(opts)), n=90)


@pytest.mark.slow
@pytest.mark.parametrize("opts", OPTIONS, ids=_id)
def test_the_search_agrees_with_minimax_on_thousands_of_end_positions(opts):
    check_random(Rules().with_options(opts), seed=1000 + len(_id(opts)), n=2000, cards_every=2)


@pytest.mark.parametrize("opts", [{}, {"follow_rule": "strict", "low_to": "player"}], ids=_id)
def test_the_search_agrees_with_minimax_inside_the_kernels_hands(opts):
    """The kernel's hands, 1 to 3 tricks before the end, the trick in progress cut at
    every point: the solver, the minimax and each card's value agree."""
    rules = Rules().with_options(opts)
    rv = rules.to_array()
    ws = new_workspace()
    for i, (pos, plays, _) in enumerate(kernel_hands(rules, 80, seed=3)):
        left = 4 * (1 + i % 3) - (i // 3) % 4  # cards still to play
        p = advance(rules, pos, plays, max(len(plays) - left, 0))
        assert solve(p, rv, ws) == reference_value(rules, p), Q.describe(rules, p)
        assert values_of(rules, p, ws) == reference_card_values(rules, p)


@pytest.mark.parametrize("opts", OPTIONS, ids=_id)
def test_a_played_out_hand_is_worth_the_kernels_points(opts):
    """After the last card the value is what the maker's side took (the kernel's
    result row), and each trick's winner, stepped by moves.play, is the kernel's."""
    rules = Rules().with_options(opts)
    rv = rules.to_array()
    ws = new_workspace()
    for pos, plays, out in kernel_hands(rules, 150, seed=5, play_policy="random"):
        p = pos.copy()
        for seat, c in plays:
            assert to_move(p, rv) == seat
            assert play(p, rv, c)
        assert to_move(p, rv) == -1
        mteam = rules.team_of(int(out[L.H_MAKER]))
        assert solve(p, rv, ws) == out[L.H_POINTS + mteam]
        assert reference_value(rules, p) == out[L.H_POINTS + mteam]


def test_the_stepper_names_the_kernels_trick_winners():
    rules = Rules()
    rv = rules.to_array()
    from cinch_sim.engine.run import PolicySet, run_chunk

    out, tr = run_chunk(rules, PolicySet.from_specs(4, play="random"), 9, 0, 100, trace=True)
    for i in range(100):
        if out[i, L.H_THROWN_IN]:
            continue
        p, plays = Q.from_trace(rules, out[i], tr[i])
        trick = 0
        for _, c in plays:
            assert play(p, rv, c)
            if (p[Q.P_TRICK : Q.P_TRICK + 4] < 0).all():  # the card closed a trick
                assert p[Q.P_LEADER] == tr[i, L.T_WINNER + trick]
                trick += 1
        assert trick == tr[i, L.T_N_TRICKS]


def test_legal_cards_agree_with_the_rules_text():
    for opts in ({}, {"follow_rule": "strict"}):
        rules = Rules().with_options(opts)
        rv = rules.to_array()
        rng = np.random.default_rng(4)
        for i in range(300):
            pos = end_position(rules, rng, 1 + i % 5, short=i % 4 == 0)
            assert int(legal_mask(pos, rv)) == to_mask(legal_cards(rules, pos))


# ------------------------------------------------------------ hands worked by hand
def position(rules, hands, trump, maker, leader=None, trick=(), taken=None, played=None):
    """A position from card text: hands by seat, the trick as (seat, card) in order,
    taken {team: cards}, played {seat: cards} (completed tricks)."""
    pos = Q.new_position()
    pos[Q.P_TRUMP] = "CSDH".index(trump)
    pos[Q.P_MAKER] = maker
    pos[Q.P_LEADER] = maker if leader is None else leader
    for s, h in enumerate(hands):
        pos[Q.P_HANDS + s] = to_mask(parse_cards(h))
    for s, c in trick:
        pos[Q.P_TRICK + s] = parse_card(c)
    for t, cs in (taken or {}).items():
        pos[Q.P_TAKEN + t] = to_mask(parse_cards(cs))
    for s, cs in (played or {}).items():
        pos[Q.P_PLAYED + s] = to_mask(parse_cards(cs))
    Q.check_position(rules, pos)
    return pos


def both(rules, pos) -> tuple[int, dict[int, int]]:
    """The solver's value and card values, checked against the minimax."""
    ws = new_workspace()
    v = solve(pos, rules.to_array(), ws)
    cv = values_of(rules, pos, ws)
    assert v == reference_value(rules, pos)
    assert cv == reference_card_values(rules, pos)
    return v, cv


def test_the_left_pedro_falls_to_a_higher_trump_in_the_last_trick():
    """Hearts trump, so the 5 of diamonds is the Left Pedro. Team 0 (seats 0 and 2)
    took a first trick of AH 2H 4C 7C: High (the ace) and Low (the 2, the lowest trump
    in play) = 2 points. Last trick: the maker (seat 0) must lead his Left Pedro,
    and seat 1's 6 of hearts ranks above it (A K Q J 10 9 8 7 6, Right Pedro, Left
    Pedro, 4 3 2): team 1 takes its 5 points. The maker's side ends with 1 + 1 = 2.
    Without the 6 (seat 1 holding a club) the Pedro would come home: 2 + 5 = 7.
    """
    rules = Rules()
    played = {0: "AH", 1: "4C", 2: "2H", 3: "7C"}
    lost = position(
        rules, ["5D", "6H", "2C", "3C"], "H", 0, taken={0: "AH 2H 4C 7C"}, played=played
    )
    assert both(rules, lost) == (2, {parse_card("5D"): 2})
    saved = position(
        rules, ["5D", "8C", "2C", "3C"], "H", 0, taken={0: "AH 2H 4C 7C"}, played=played
    )
    assert both(rules, saved) == (7, {parse_card("5D"): 7})


def test_saving_the_right_pedro_under_the_partners_winning_ace():
    """Hearts trump. In play: AH (High, 1), KH, 5H (the Right Pedro, 5), 4H, 3H (Low:
    the lowest trump in play, 1) = 7 points. Seat 0 (maker) led the AH, which no
    card beats, and seat 1 followed with the 3H. Seat 2, the partner, holds 5H 4H:
    - 5H under the ace: team 0 takes AH 3H 5H = 1 + 1 + 5 = 7 now; the last trick
      (2C led; KH wins it for team 1) holds nothing. 7.
    - 4H: team 0 takes AH 3H = 2; in the last trick seat 0 leads 2C, seat 1's KH
      beats the 5H: the Pedro goes to team 1. 2.
    """
    rules = Rules()
    pos = position(
        rules,
        ["2C", "KH", "5H 4H", "7C 8C"],
        "H",
        0,
        trick=[(0, "AH"), (1, "3H")],
    )
    value, cards = both(rules, pos)
    assert cards == {parse_card("5H"): 7, parse_card("4H"): 2}
    assert value == 7


def test_under_strict_follow_trumping_in_is_illegal():
    """Hearts trump. In play: AH (High, 1) and 5H (the Right Pedro, 5, and Low, the
    lowest trump in play, 1: 6 on one card) = 7. The maker (seat 0) leads KC;
    seat 1 holds 2C and 5H.
    - may_trump: seat 1 ruffs with the 5H and team 1 takes its 6 points; in the
      last trick seat 0 (no club left) wins with the AH: 1 for the maker's side.
    - strict: seat 1 holds a club, so must play the 2C; the KC wins, and in the last
      trick the maker leads the AH and seat 1 must drop the 5H under it: 7.
    Before the lead the maker can have 7 under either rule: he leads the AH first,
    and seat 1 must follow with its only trump, the 5H.
    """
    for opts, value, cards in (
        ({}, 1, {"2C": 7, "5H": 1}),
        ({"follow_rule": "strict"}, 7, {"2C": 7}),
    ):
        rules = Rules().with_options(opts)
        start = position(rules, ["KC AH", "2C 5H", "3C 4C", "6C 7C"], "H", 0)
        assert both(rules, start) == (7, {parse_card("AH"): 7, parse_card("KC"): value})
        pos = position(rules, ["AH", "2C 5H", "3C 4C", "6C 7C"], "H", 0, trick=[(0, "KC")])
        assert both(rules, pos) == (value, {parse_card(c): v for c, v in cards.items()})


# ------------------------------------------------------------ rules as data
def test_the_trump_order_and_points_come_from_the_rules():
    """A made-up variant: the Left Pedro above the Right, a 9 of trumps worth 9 and a
    3 worth 3 (as the planned sancho/dom_pedro): the search reads both from the
    rules vector, so it still agrees with the minimax, which reads the Rules."""
    rules = dataclasses.replace(
        Rules(),
        trump_order="AKQJT9876L5432",
        point_cards=(
            ("jack", "J", 1),
            ("game", "T", 1),
            ("right_pedro", "5", 5),
            ("sancho", "9", 9),
        ),
    )
    assert rules.total_points == 23
    check_random(rules, seed=11, n=150)
    dom = dataclasses.replace(rules, point_cards=rules.point_cards[:3] + (("dom", "3", 3),))
    check_random(dom.with_options({"high_rule": "highest_in_play"}), seed=12, n=100)
    # no left card (a 13-card trump suit), and bowers: the two jacks of the colour on top
    plain = dataclasses.replace(Rules(), left_rank="", trump_order="AKQJT98765432", bid_max=9)
    check_random(plain, seed=13, n=100)
    bowers = dataclasses.replace(
        Rules(), left_rank="J", left_name="left_bower", trump_order="JLAKQT98765432", bid_max=13
    )
    check_random(bowers.with_options({"low_to": "player"}), seed=14, n=100)


@pytest.mark.parametrize(
    "structure",
    [
        {"players": 3, "partnerships": False, "robber": "none"},
        {"players": 5, "partnerships": False, "robber": "none", "cards_dealt": 9},
        {"players": 6, "partnerships": True, "robber": "none", "cards_dealt": 6},
    ],
    ids=["cutthroat3", "cutthroat5", "six_partners"],
)
def test_other_tables_the_maker_against_everyone(structure):
    """Each player his own side (the maker's side maximises, every other minimises),
    and six in two partnerships (the search's plain key, not its ordered one)."""
    rules = Rules(**structure)
    check_random(rules, seed=structure["players"], n=60)


# ------------------------------------------------------------ the workspace
def test_a_workspace_is_reused_across_positions_and_deals():
    """Successive positions of one hand keep the table; another deal gets a fresh
    stamp: interleaving hands in one workspace gives each position's own value."""
    rules = Rules()
    rv = rules.to_array()
    hands = kernel_hands(rules, 12, seed=8)
    shared = new_workspace()
    for k in range(0, 24, 3):
        for pos, plays, _ in hands:
            p = advance(rules, pos, plays, min(k, len(plays)))
            assert solve(p, rv, shared) == solve(p, rv, new_workspace())


def _redealt(rules: Rules, pos: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same cards in play, held by other seats (each keeps its number of cards):
    what a PIMC player's deals of the unseen cards look like to the search."""
    P = rules.players
    held = [c for s in range(P) for c in Q.hand_cards(pos, s)]
    rng.shuffle(held)
    out = pos.copy()
    at = 0
    for s in range(P):
        k = len(Q.hand_cards(pos, s))
        out[Q.P_HANDS + s] = sum(1 << c for c in held[at : at + k])
        at += k
    return out


@pytest.mark.parametrize("opts", OPTIONS[:4], ids=_id)
def test_deals_of_the_same_cards_share_one_table(opts):
    """Deals that differ only in who holds which card keep the table (its keys name
    every holder): each deal's value and card values, solved one after another on
    one workspace, are those of a fresh workspace."""
    rules = Rules(**opts)
    rv = rules.to_array()
    rng = np.random.default_rng(21)
    shared = new_workspace(10)  # small: entries of other deals are overwritten too
    for pos, plays, _ in kernel_hands(rules, 10, seed=9):
        for k in (0, 5, 13):
            p = advance(rules, pos, plays, k)
            for _ in range(4):
                q = _redealt(rules, p, rng)
                assert solve(q, rv, shared) == solve(q, rv, new_workspace())
                a, b = np.empty(52, np.int64), np.empty(52, np.int64)
                card_values(q, rv, shared, a)
                card_values(q, rv, new_workspace(), b)
                assert (a == b).all()


def test_at_least_is_one_probe_of_the_value():
    """``at_least(pos, t)`` says whether the value reaches t: true at the value, false
    one above, on positions of the kernel's hands and random end positions."""
    rules = Rules()
    rv = rules.to_array()
    ws = new_workspace()
    rng = np.random.default_rng(4)
    hands = kernel_hands(rules, 20, seed=12)
    positions = [advance(rules, pos, plays, k) for pos, plays, _ in hands for k in (0, 3, 9)]
    positions += [end_position(rules, rng, 1 + i % 3) for i in range(60)]
    for p in positions:
        v = solve(p, rv, new_workspace())
        assert at_least(p, rv, ws, v) and not at_least(p, rv, ws, v + 1)
        assert at_least(p, rv, ws, 0)


def test_card_values_of_values_only_the_cards_asked_for():
    """A PIMC player that has ruled cards out asks for the others: those get the values
    of ``card_values``, every other card -1."""
    rules = Rules()
    rv = rules.to_array()
    rng = np.random.default_rng(6)
    asked = 0
    for pos, plays, _ in kernel_hands(rules, 20, seed=13):
        for k in (0, 2, 7):
            p = advance(rules, pos, plays, k)
            full = np.empty(52, np.int64)
            card_values(p, rv, new_workspace(), full)
            legal = np.flatnonzero(full >= 0)
            want = [int(c) for c in legal if rng.random() < 0.5]
            mask = np.uint64(sum(1 << c for c in want))
            got = np.empty(52, np.int64)
            card_values_of(p, rv, new_workspace(), got, mask)
            for c in range(52):
                assert got[c] == (full[c] if c in want else -1), (c, want)
            asked += len(want)
    assert asked > 40


def test_the_search_counts_its_nodes_and_prunes():
    rules = Rules()
    rv = rules.to_array()
    ws = new_workspace()
    pos, _, _ = kernel_hands(rules, 1, seed=2)[0]
    solve(pos, rv, ws)
    assert 0 < ws[W_NODES] < 10**7


def test_position_checks():
    rules = Rules()
    good = position(rules, ["AH 2C", "KH 3C", "QH 4C", "JH 5C"], "H", 0)
    for change, message in (
        (lambda p: p.__setitem__(Q.P_HANDS + 1, p[Q.P_HANDS] | 1 << parse_card("3C")), "twice"),
        (lambda p: p.__setitem__(Q.P_TRICK + 1, parse_card("9D")), "leader"),
        (lambda p: p.__setitem__(Q.P_TAKEN, 1 << parse_card("9D")), "taken"),
        (lambda p: p.__setitem__(Q.P_TRUMP, 7), "suit"),
    ):
        bad = good.copy()
        change(bad)
        with pytest.raises(Q.PositionError, match=message):
            Q.check_position(rules, bad)


def test_a_finished_hand_has_no_move():
    rules = Rules()
    pos = position(
        rules,
        ["", "", "", ""],
        "H",
        0,
        taken={0: "AH 2H 4C 7C"},
        played={0: "AH", 1: "4C", 2: "2H", 3: "7C"},
    )
    out = np.zeros(52, np.int64)
    assert card_values(pos, rules.to_array(), new_workspace(), out) == -1
    assert (out == -1).all()
    assert solve(pos, rules.to_array(), new_workspace()) == 2
    assert trick_winner(pos, rules.to_array()) == -1


def test_a_policy_solves_inside_the_kernels_play():
    """A play policy builds its position from the observation (moves.from_observation),
    agrees with the kernel on whose turn it is and which cards are legal, and solves
    a deal of the unseen cards at every decision, in the compiled kernel's play."""
    from cinch_sim.engine.run import PolicySet, run_chunk

    spec = "tests/solver_policy.py:dd_play"
    ps = PolicySet.from_specs(4, play={0: spec, 2: spec})
    out, _ = run_chunk(Rules(), ps, 13, 0, 40)  # a check failing would raise PolicyError
    assert (out[:, L.H_ERROR] == 0).all()


# ------------------------------------------------------------ two decks (docs/rules.md §3.4)
TWO = make_rules("two_deck")
TWO_OPTIONS = [
    {},
    {"follow_rule": "strict", "low_to": "player", "high_rule": "highest_in_play"},
    {"low_rule": "deuce_only", "low_to": "player"},
]


def values2(rules: Rules, pos: np.ndarray, ws: np.ndarray) -> dict[int, int]:
    out = np.zeros(52, np.int64)
    card_values2(pos, rules.to_array(), ws, out)
    return {c: int(out[c]) for c in range(52) if out[c] >= 0}


def both2(rules, hands, trump, maker):
    """The two-deck solver's value and card values from the start of play (hands as
    card text, a card twice for both copies), checked against the minimax."""
    pos = Q.start_position(rules, [parse_cards(h) for h in hands], "CSDH".index(trump), maker)
    ws = new_workspace()
    v = solve2(pos, rules.to_array(), ws)
    cv = values2(rules, pos, ws)
    assert v == reference_value(rules, pos)
    assert cv == reference_card_values(rules, pos)
    return v, {format_card(c): x for c, x in cv.items()}


def test_two_decks_of_two_identical_cards_the_first_played_wins():
    """Hearts trump; the AH twice (High, 1 each) and the 5H (the Right Pedro and Low,
    the lowest trump in play: 6). Seat 0 leads his AH and seat 1 must follow with his,
    the only trump he holds: seat 0's, played first, takes both aces (2); then his 5H
    wins the last trick (6): 8. Leading the 5H instead, seat 1's ace takes it (7 to
    team 1) and seat 0's ace wins the last trick alone: 1."""
    v, cv = both2(TWO, ["AH 5H", "AH 2C", "3C 4C", "6C 7C"], "H", 0)
    assert (v, cv) == (8, {"AH": 8, "5H": 1})


def test_two_decks_both_copies_of_the_right_pedro_score():
    """Hearts trump. Seat 1 holds both Right Pedros (5 each, and both Low: the lowest
    trump in play, 1 each) and must follow trumps under the maker's AH and KH: the
    maker takes 1 (High) + 2 x 6 = 13, whichever he leads first."""
    assert both2(TWO, ["AH KH", "5H 5H", "2C 3C", "4C 6C"], "H", 0) == (
        13,
        {"AH": 13, "KH": 13},
    )


def test_two_decks_low_twice_and_a_trump_played_second():
    """Hearts trump; only the two 2H are trumps in play: both are Low (1 each), no
    ace so no High. Seat 0 leads his 2H, seat 1 must follow with the other: the first
    played wins, 2 to team 0. Leading the 7C, seat 1 trumps it with his 2H (Low to
    team 1) and seat 0's 2H wins the last trick: 1."""
    assert both2(TWO, ["2H 7C", "2H 8C", "9C TC", "3C 4C"], "H", 0) == (
        2,
        {"2H": 2, "7C": 1},
    )


@pytest.mark.parametrize("opts", TWO_OPTIONS, ids=_id)
def test_two_decks_the_search_agrees_with_minimax_on_random_end_positions(opts):
    """Random two-deck end positions (1-3 tricks left, a card twice in a hand, two
    copies in a trick): value and every card's value agree with the minimax."""
    rules = TWO.with_options(opts)
    rv = rules.to_array()
    rng = np.random.default_rng(len(_id(opts)))
    ws = new_workspace()
    for i in range(60):
        pos = end_position(rules, rng, 1 + i % 3, short=i % 3 == 0)
        assert solve2(pos, rv, ws) == reference_value(rules, pos), Q.describe(rules, pos)
        assert values2(rules, pos, ws) == reference_card_values(rules, pos)


def test_two_decks_the_search_agrees_with_minimax_inside_the_kernels_hands():
    """The kernel's two-deck hands, 1 to 3 tricks before the end (2 to 9 cards to
    play), the trick in progress cut at every point: solver and minimax agree,
    value and card values."""
    rv = TWO.to_array()
    ws = new_workspace()
    hands = kernel_hands(TWO, 24, seed=3)
    for i, (pos, plays, _) in enumerate(hands):
        left = 2 + i % 8  # cards still to play
        p = advance(TWO, pos, plays, max(len(plays) - left, 0))
        assert solve2(p, rv, ws) == reference_value(TWO, p), Q.describe(TWO, p)
        assert values2(TWO, p, ws) == reference_card_values(TWO, p)


def test_two_decks_a_played_out_hand_is_worth_the_kernels_points():
    """After the last card of a kernel's two-deck hand the value is the kernel's
    points for the maker's side, and each trick's winner stepped by moves.play (the
    first of two identical cards winning) is the kernel's."""
    from cinch_sim.engine.run import PolicySet, run_chunk

    rv = TWO.to_array()
    ws = new_workspace()
    out, tr = run_chunk(TWO, PolicySet.from_specs(4, play="random"), 9, 0, 60, trace=True)
    checked = 0
    for i in range(60):
        if out[i, L.H_THROWN_IN]:
            continue
        p, plays = Q.from_trace(TWO, out[i], tr[i])
        trick = 0
        for seat, c in plays:
            assert to_move(p, rv) == seat
            assert play(p, rv, c)
            if (p[Q.P_TRICK : Q.P_TRICK + 4] < 0).all():
                assert p[Q.P_LEADER] == tr[i, L.T_WINNER + trick]
                trick += 1
        assert trick == tr[i, L.T_N_TRICKS] == 12
        mteam = TWO.team_of(int(out[i, L.H_MAKER]))
        assert solve2(p, rv, ws) == out[i, L.H_POINTS + mteam]
        assert reference_value(TWO, p) == out[i, L.H_POINTS + mteam]
        checked += 1
    assert checked > 40


def test_one_deck_positions_leave_the_second_planes_empty():
    """A one-deck position with a card in a second plane is no position of the game."""
    pos = Q.start_position(Rules(), [parse_cards(h) for h in ("AH", "2C", "3C", "4C")], 3, 0)
    pos[Q.P_HANDS2] = pos[Q.P_HANDS]
    with pytest.raises(Q.PositionError, match="twice with one deck"):
        Q.check_position(Rules(), pos)
    with pytest.raises(Q.PositionError, match="appears twice"):
        Q.start_position(Rules(), [parse_cards(h) for h in ("AH AH", "2C", "3C", "4C")], 3, 0)


def test_two_decks_a_review_of_the_last_tricks_accounts_for_the_points():
    """Solver.review (line_values2) over the last three tricks of the kernel's two-deck
    hands: the value after the last card is the kernel's points, and the points taken
    are the start value less what the maker's side gave away plus what the others
    did."""
    from cinch_sim.solver.review import Solver

    solver = Solver(TWO)
    for pos, plays, out in kernel_hands(TWO, 12, seed=4)[:8]:
        k = len(plays) - 12
        r = solver.review(advance(TWO, pos, plays, k), plays[k:])
        mteam = TWO.team_of(int(out[L.H_MAKER]))
        assert r.taken == out[L.H_POINTS + mteam]
        lost = r.lost
        assert r.taken == r.start - lost[mteam] + sum(lost) - lost[mteam]
        assert all(c.lost(TWO.team_of(c.seat) == mteam) >= 0 for c in r.cards)


def test_two_decks_solve_values_a_recorded_hand(tmp_path):
    """api.solve (cinch-sim solve) on a simulated two-deck record: the hand is solved,
    not refused, and its accounting holds. Line 2 of seed 5 is one of the cheap
    full hands (docs/solver.md: most from the start of play take minutes); a change to
    the heuristic that deals another hand there may need another seed."""
    from cinch_sim import api

    path = tmp_path / "two.jsonl"
    api.simulate(hands=2, seed=5, variant="two_deck", records=path)
    (h,) = api.solve(path, line=2).hands
    assert h["status"] == "valid" and len(h["tricks"]) == 12
    m = h["maker_team"]
    assert h["points"] == h["dd_start"] - h["lost"][m] + sum(h["lost"]) - h["lost"][m]
    assert all(p["lost"] >= 0 for t in h["tricks"] for p in t["plays"])


def test_the_solvers_table_grows_with_the_deal():
    """Solver sizes its table by the cards held at the start of play: 2**16 entries
    for the standard game's 24, 2**18 for no_draw's 36 and cutthroat5's 30, 2**20
    with two decks; one asked for is kept. A bigger table gives the same values."""
    from cinch_sim.solver.review import Solver
    from cinch_sim.solver.search import W_TT_BITS

    bits = {
        v: int(Solver(make_rules(v)).ws[W_TT_BITS])
        for v in ("standard", "no_draw", "cutthroat5", "two_deck")
    }
    assert bits == {"standard": 16, "no_draw": 18, "cutthroat5": 18, "two_deck": 20}
    assert int(Solver(make_rules("no_draw"), tt_bits=12).ws[W_TT_BITS]) == 12
    rules = make_rules("no_draw")
    small, large = Solver(rules, tt_bits=10), Solver(rules)
    for pos, _, _ in kernel_hands(rules, 3, seed=4):
        assert small.card_values(pos) == large.card_values(pos)

"""Policies read each seat's side from the observation's seat -> team table, which the
kernel copies from the rules: "my partner" means my side, not "two seats on"."""

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.cards import SUITS, parse_card, to_mask, trump_mask
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.policies.greedy import greedy_play
from cinch_sim.rules import Rules

SPADES = SUITS.index("S")


def _trick_obs(seat_teams):
    """Seat 0 to play third: spades trump, seat 1 led the 7C, seat 2 wins with the KC."""
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_RULES : L.O_RULES + L.R_LEN] = Rules().to_array()  # as the kernel gives it
    obs[L.O_SEAT] = 0
    obs[L.O_PLAYERS] = 4
    obs[L.O_TRUMP] = SPADES
    obs[L.O_TRUMP_MASK] = trump_mask(SPADES)
    obs[L.O_LEFT_CARD] = parse_card("5C")  # spades' left card is the 5 of clubs
    obs[L.O_WIN_SEAT] = 2
    obs[L.O_WIN_CARD] = parse_card("KC")
    obs[L.O_LED_CARD] = parse_card("7C")
    obs[L.O_TRICK_MASK] = to_mask([parse_card("7C"), parse_card("KC")])
    obs[L.O_SEAT_TEAM : L.O_SEAT_TEAM + 4] = seat_teams
    return obs


@pytest.mark.parametrize(
    "seat_teams, expected",
    [
        # partners: seat 2 wins the trick for my side, so greedy throws its weakest card
        ((0, 1, 0, 1), "3C"),
        # cut-throat: seat 2 is an opponent, so greedy takes the trick with its weakest winner
        ((0, 1, 2, 3), "AC"),
    ],
)
def test_greedy_partner_is_a_teammate(seat_teams, expected):
    hand = to_mask([parse_card(c) for c in ("AC", "3C", "9H")])
    legal = to_mask([parse_card(c) for c in ("AC", "3C", "9H")])
    obs = _trick_obs(seat_teams)
    args = (np.zeros(8), np.zeros(16, np.int64), np.zeros(4, np.uint64))
    card = greedy_play(obs, np.uint64(hand), np.uint64(legal), *args)
    assert card == parse_card(expected)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3, partnerships=False, robber="none")],
    ids=["partners", "cutthroat3"],
)
def test_direct_greedy_matches_greedy_through_its_pointer(rules):
    # the kernel's fast path for greedy reads the same table as greedy_play
    ps = PolicySet.from_specs(rules.players, "simple", "simple", "simple", "greedy")
    direct, _ = run_chunk(rules, ps, 8, 0, 2_000, dealer=0, direct=True)
    pointer, _ = run_chunk(rules, ps, 8, 0, 2_000, dealer=0, direct=False)
    assert np.array_equal(direct, pointer)

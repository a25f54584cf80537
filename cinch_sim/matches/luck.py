"""The luck of a duplicate pair's deals: the control variate of ``compare``.

In a duplicate pair each strategy holds each side's cards once, so the luck of
the deals both games play cancels. What is left is the luck of the hands one
game plays after the other has ended, or dealt to other seats when the games
fall out of step. It is measured by a function of the cards dealt alone:

- a seat's *strength* is the heuristic bidder's estimate of its best suit as
  trumps (the canonical game's fitted hand model, ``policies.heuristic``:
  the Pedros, A K Q J 10 of trumps, each trump held), whatever the rules;
- a side's strength is its strongest seat's; a hand's *luck* for A is A's
  side's strength less B's;
- a pair's luck is the sum over every hand either game dealt.

Its mean is zero: the shuffle treats every seat alike, so each hand's luck
averages zero, and whether a hand is dealt depends only on the hands before
it (Wald's identity). That is what lets ``compare`` subtract it from the pair
score (``analysis.intervals.control_variate_interval``).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import RANK_FIVE, card, left_card
from cinch_sim.engine.run import game_deals
from cinch_sim.matches.play import PairChunk

_BLOCK = 13  # a mask is read thirteen bits (one suit) at a time


def suit_weights() -> np.ndarray:
    """[trump suit, card]: what holding the card adds to the hand model's estimate."""
    from cinch_sim.policies import heuristic as H  # jitted: loaded when a match first needs it

    p = H.DEFAULT_PARAMS["heuristic_trump"]
    honours = {12: p[H.B_ACE], 11: p[H.B_KING], 10: p[H.B_QUEEN], 9: p[H.B_JACK], 8: p[H.B_TEN]}
    w = np.zeros((4, 52))
    for s in range(4):
        w[s, s * 13 : s * 13 + 13] += p[H.B_LENGTH]
        w[s, left_card(s)] += p[H.B_LENGTH]
        w[s, card(s, RANK_FIVE)] += p[H.B_RIGHT]
        w[s, left_card(s)] += p[H.B_LEFT]
        for rank, weight in honours.items():
            w[s, card(s, rank)] += weight
    return w


@cache
def _block_tables() -> np.ndarray:
    """[trump suit, block, 13-bit value]: the summed weights of the block's cards held,
    in whole hundredths (the fitted weights have two decimals), so every sum is exact
    and a pair's luck never depends on how many hands a chunk happened to hold."""
    w = np.rint(suit_weights() * 100).astype(np.int64)
    values = np.arange(1 << _BLOCK)
    bits = (values[:, None] >> np.arange(_BLOCK)[None, :]) & 1  # [value, bit]
    return np.stack([bits @ w[:, b * _BLOCK : (b + 1) * _BLOCK].T for b in range(4)], axis=1).T


def seat_strength(masks: np.ndarray) -> np.ndarray:
    """Each card mask's strength: its best suit's estimate (same shape, float)."""
    return _hundredths(masks) / 100


def _hundredths(masks: np.ndarray) -> np.ndarray:
    m = np.asarray(masks, np.uint64)
    tables = _block_tables()  # [suit, block, value], hundredths
    best = np.zeros(m.shape, np.int64)  # no estimate is below zero
    for s in range(4):
        est = np.zeros(m.shape, np.int64)
        for b in range(4):
            est += tables[s, b][((m >> np.uint64(_BLOCK * b)) & np.uint64(8191)).astype(np.intp)]
        best = np.maximum(best, est)
    return best


def pair_luck(chunk: PairChunk) -> np.ndarray:
    """Per pair of the chunk: the sum over both games' dealt hands of A's side's
    strength less B's (a number of mean zero; see the module's docstring)."""
    rules = chunk.rules
    lengths = [g[:, L.G_N_HANDS].astype(np.intp) for g in chunk.games]
    n_hands = int(max((x.max() for x in lengths if x.size), default=0))
    games = np.arange(chunk.start, chunk.start + chunk.n)
    base = _hundredths(game_deals(rules, chunk.seed, games, n_hands))  # [pair, hand, seat]
    players = rules.players
    teams = np.asarray(rules.seat_teams)
    total = np.zeros(chunk.n, np.int64)
    for j in range(2):
        dealer = chunk.hands[j][:, :n_hands, L.H_DEALER].astype(np.intp)
        # under dealer d, seat s holds what seat (s - d) holds under dealer 0
        turned = (np.arange(players)[None, None, :] - dealer[:, :, None]) % players
        s = np.take_along_axis(base, turned, axis=2)
        mine = teams == chunk.a_team[j]
        luck = s[:, :, mine].max(axis=2) - s[:, :, ~mine].max(axis=2)
        dealt = np.arange(n_hands)[None, :] < lengths[j][:, None]
        total += np.where(dealt, luck, 0).sum(axis=1)
    return total / 100

"""Whole games between strategies: duplicate matches, their statistics, the ladder.

One job per module:

- ``play``: seating two strategies and playing duplicate pairs of games
  (``team_policies``, ``play_pairs``, ``PairChunk``), and their refereed
  ``cinch-game/1`` records (``game_records``);
- ``luck``: the luck of a pair's unshared deals, the win rate's control
  variate (``pair_luck``);
- ``pairs``: what each pair adds to a match's statistics (``PairStats``);
- ``compare``: a match and its summary with intervals (``compare``,
  ``Comparison``);
- ``rotation``: cut-throat games (more than two sides), one strategy rotated
  through every seat over the same deals, and what each rotation adds up
  (``play_rotations``, ``RotationStats``);
- ``cutthroat``: a cut-throat match and its summary (``cutthroat_compare``,
  ``CutThroatComparison``; ``compare`` plays one for rules of 3+ sides);
- ``ladder``: every pair of strategies, Bradley-Terry ratings (Luce's at a
  cut-throat table) (``ladder``, ``Ladder``, ``bradley_terry``, ``luce``);
- ``plots``: figures of a match or a ladder.
"""

"""Whole games between strategies: duplicate matches, their statistics, the ladder.

One job per module:

- ``play``: seating two strategies and playing duplicate pairs of games
  (``team_policies``, ``play_pairs``, ``PairChunk``), and their refereed
  ``cinch-game/1`` records (``game_records``);
- ``pairs``: what each pair adds to a match's statistics (``PairStats``);
- ``compare``: a match and its summary with intervals (``compare``,
  ``Comparison``);
- ``ladder``: every pair of strategies, Bradley-Terry ratings (``ladder``,
  ``Ladder``, ``bradley_terry``);
- ``plots``: figures of a match or a ladder.
"""

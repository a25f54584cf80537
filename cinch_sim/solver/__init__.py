"""The double-dummy solver: exact best-play values of Cinch positions (docs/solver.md).

``position`` builds the position vector, ``search`` solves it (numba, alpha-beta
with a transposition table), ``moves`` steps through a position, ``reference``
is the plain minimax the search is tested against, ``review`` values a played
hand card by card.
"""

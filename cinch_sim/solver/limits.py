"""What the double-dummy solver and the players built on it cannot hold.

Two decks (docs/rules.md §3.4) are solved (the search numbers each copy in play),
within ``search.MAX_COPIES2`` cards in play; rules with more are refused with
one line that says why, raised as :class:`OneDeckOnly` (an ``InputError``: the
CLI's usage error, exit 2), rather than giving wrong values.
"""

from __future__ import annotations

from typing import Any

from cinch_sim.checks import InputError

MAX_COPIES2 = 61  # as search.MAX_COPIES2: the two-deck numbering's cards in play


class OneDeckOnly(InputError):
    """Rules with two decks given to something that holds one deck only."""


def require_solvable(rules: Any, name: str, what: str) -> None:
    """Raise :class:`OneDeckOnly` when the solver cannot hold ``rules``' deals: two decks
    with more than ``MAX_COPIES2`` cards in play (the numbering's bits)."""
    if rules.decks != 1 and rules.players * rules.hand_size > MAX_COPIES2:
        raise OneDeckOnly(
            name,
            f"{what} cannot play {rules.preset} with {rules.players * rules.hand_size} "
            f"cards in play: the two-deck solver holds at most {MAX_COPIES2}",
        )


# dd solves every hand whole from its first card: measured about 1 ms a hand with four
# seats of six cards, 50-150 ms with 30-36 cards among four or five seats, and minutes
# a hand with six seats or two decks, which is no analysis anyone waits for.
DD_MAX_PLAYERS = 5


def require_dd(rules: Any, name: str) -> None:
    """Raise an ``InputError`` for rules whose whole-hand search dd cannot afford."""
    if rules.decks != 1 or rules.players > DD_MAX_PLAYERS:
        where = "two decks" if rules.decks != 1 else f"{rules.players} players"
        raise InputError(
            name,
            f"dd cannot play {rules.preset}: a double-dummy search of a whole hand with "
            f"{where} takes minutes (dd plays one deck and at most {DD_MAX_PLAYERS} players)",
        )

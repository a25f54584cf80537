"""What the double-dummy solver cannot hold: two decks (RULES.md §3.4).

The solver numbers the 52 cards in one 64-bit mask per hand, so a position
with every card twice does not fit. Everything built on it (``solve``, the
PIMC player, card values) refuses such rules with one line that says why,
raised as :class:`OneDeckOnly` (an ``InputError``: the CLI's usage error,
exit 2), rather than giving wrong values.
"""

from __future__ import annotations

from typing import Any

from cinch_sim.checks import InputError

WHY = "the double-dummy solver numbers the 52 cards in one 64-bit mask and cannot hold two decks"


class OneDeckOnly(InputError):
    """Rules with two decks given to something built on the double-dummy solver."""


def require_one_deck(rules: Any, name: str, what: str) -> None:
    """Raise :class:`OneDeckOnly` naming ``what`` (e.g. "solve") when ``rules`` have two
    decks; ``name`` is the argument the message is about (``variant``, ``play``).

    >>> from cinch_sim.rules import make_rules
    >>> require_one_deck(make_rules("two_deck"), "variant", "solve")
    Traceback (most recent call last):
    ...
    cinch_sim.solver.limits.OneDeckOnly: variant: solve cannot play two_deck: the double-dummy \
solver numbers the 52 cards in one 64-bit mask and cannot hold two decks
    """
    if rules.decks != 1:
        raise OneDeckOnly(name, f"{what} cannot play {rules.preset}: {WHY}")

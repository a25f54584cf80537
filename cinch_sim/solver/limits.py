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


# dd solves every hand whole from its first card: measured under 1 ms a hand with four
# seats of six cards, 12-60 ms with 30-36 cards among four or five seats (one thread,
# the table sized by table_bits_of), and minutes a hand with six seats or two decks,
# which is no analysis anyone waits for.
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


# A position whose hands hold at most this many cards between them is solved within
# about a second (card_values over 30 dealt hands each: two decks at 8 cards a hand
# 2 ms median and 66 ms worst; six seats at 5 cards 3 ms and 132 ms; five seats at 6
# cards 20 ms and 1.1 s), and so is any one-deck hand of four seats or fewer (9
# cards a hand, no_draw: 5 ms and 2.7 s); one more card a hand of six seats or of
# two decks can cost minutes.
QUICK_CARDS_IN_PLAY = 32


def first_quick_trick(rules: Any) -> int:
    """The first trick (1 first) from whose start the solver answers quickly: the first,
    or (two decks, five or six seats) the first at which the hands hold at most
    ``QUICK_CARDS_IN_PLAY`` cards between them."""
    return quick_trick_of(rules.decks, rules.players, rules.hand_size)


def quick_trick_of(decks: int, players: int, hand_size: int) -> int:
    """``first_quick_trick`` from the three numbers it reads: plain integer code, so that
    a jitted player compiles this very function (``pimc`` solves from there on)."""
    if decks == 1 and players <= 4:
        return 1
    trick = 1
    while players * (hand_size - trick + 1) > QUICK_CARDS_IN_PLAY:
        trick += 1
    return trick


# The solver's table for one search or one decision's searches: 2**14 entries hold a
# search over the standard game's 24 cards held; over more, a table that small loses
# what it found and searches again (card_values at no_draw's first lead, 20 positions:
# 232 million nodes with 2**14 entries, 70 million with 2**18), so 2**18 there (8 MiB).
# A larger table only costs time where the search is small. It never changes a value.
TT_BITS_SMALL = 14
TT_BITS_LARGE = 18
SMALL_SEARCH_CARDS = 24


def table_bits_of(held: int) -> int:
    """The table's size in bits (2**bits entries) for a search from a position whose
    hands hold ``held`` cards between them: plain integer code, compiled by the jitted
    players that size their own table (``pimc``, ``dd``)."""
    return TT_BITS_LARGE if held > SMALL_SEARCH_CARDS else TT_BITS_SMALL

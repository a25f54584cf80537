"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with rank 0 = 2 ... 12 = A. Suits are numbered
clubs 0, spades 1, diamonds 2, hearts 3, so that the same-colour suit of ``s``
is ``s ^ 1`` (the Left Pedro's suit is one XOR away from trump). Tokens follow
RECORD_FORMAT.md: writers emit ``"TS"``; readers also take ``10``, lower case
and the suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CSDH"
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "D": "\u2666", "H": "\u2665"}
SUIT_NAMES = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
_SYMBOL_TO_LETTER = {v: k for k, v in SUIT_SYMBOLS.items()}
# BENCHMARK.md breaks ties clubs < diamonds < hearts < spades.
TIE_ORDER = (0, 3, 1, 2)  # indexed by our suit number

N_CARDS = 52
RANK_FIVE = RANKS.index("5")


class CardError(ValueError):
    """A card token, or a list of them, that cannot be read."""


def card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def format_card(c: int) -> str:
    """The writer's form: rank letter then suit letter (``"TS"``)."""
    if not 0 <= c < N_CARDS:
        raise CardError(f"card number {c} is out of range 0..51")
    return RANKS[c % 13] + SUITS[c // 13]


def pretty_card(c: int) -> str:
    """For people: ``10♠`` rather than ``TS``."""
    r = RANKS[c % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[SUITS[c // 13]]


def parse_card(token: str) -> int:
    """Read one card in any notation RECORD_FORMAT.md accepts."""
    if not isinstance(token, str):
        raise CardError(f"card {token!r} is not a string")
    t = token.strip().replace("\ufe0f", "")
    if len(t) < 2:
        raise CardError(f"unknown card {token!r}")
    rank_part, suit_part = t[:-1].upper(), t[-1]
    suit_letter = _SYMBOL_TO_LETTER.get(suit_part, suit_part.upper())
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) != 1 or rank_part not in RANKS or suit_letter not in SUITS:
        raise CardError(f"unknown card {token!r}")
    return card(SUITS.index(suit_letter), RANKS.index(rank_part))


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read cards from a space/comma separated string or a list of tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def parse_hand(text: str | Iterable[str], size: int | None = 9) -> list[int]:
    """Read a hand and check its size and that no card repeats."""
    cards = parse_cards(text)
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"duplicate card {format_card(c)}")
        seen.add(c)
    if size is not None and len(cards) != size:
        raise CardError(f"a hand needs {size} cards, got {len(cards)}")
    return cards


def parse_suit(text: str) -> int:
    t = text.strip().replace("\ufe0f", "")
    letter = _SYMBOL_TO_LETTER.get(t, t.upper()[:1])
    if t.lower() in {"clubs", "spades", "diamonds", "hearts"}:
        letter = t[0].upper()
    if len(t) != 1 and t.lower() not in {"clubs", "spades", "diamonds", "hearts"}:
        raise CardError(f"unknown suit {text!r}")
    if letter not in SUITS:
        raise CardError(f"unknown suit {text!r}")
    return SUITS.index(letter)


def to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def from_mask(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def suit_mask(suit: int) -> int:
    return ((1 << 13) - 1) << (13 * suit)


def left_card(trump: int, left_rank: int = RANK_FIVE) -> int:
    """The same-colour card that joins trump (the Left Pedro by default)."""
    return card(trump ^ 1, left_rank)


def trump_mask(trump: int, left_rank: int = RANK_FIVE) -> int:
    return suit_mask(trump) | (1 << left_card(trump, left_rank))

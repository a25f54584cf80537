"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` with rank 0 = 2 ... 12 = A. Suits are numbered
clubs 0, spades 1, diamonds 2, hearts 3, so that the same-colour suit of ``s``
is ``s ^ 1`` (the Left Pedro's suit is one XOR away from trump). Tokens follow
docs/records.md: writers emit ``"TS"``; readers also take ``10``, lower case
and the suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CSDH"
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "D": "\u2666", "H": "\u2665"}
SUIT_NAMES = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
_SYMBOL_TO_LETTER = {v: k for k, v in SUIT_SYMBOLS.items()}
# docs/benchmarks.md breaks ties clubs < diamonds < hearts < spades.
TIE_ORDER = (0, 3, 1, 2)  # indexed by our suit number

_SELECTOR = "\ufe0f"  # emoji presentation of the symbol before it (♠️)
# What a reader takes, spelled out: str.upper() would also turn "ſ" into "S".
_RANK_OF = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_OF["10"] = RANKS.index("T")
_SUIT_OF = {s: i for i, s in enumerate(SUITS)} | {s.lower(): i for i, s in enumerate(SUITS)}
_SUIT_OF |= {sym: SUITS.index(letter) for letter, sym in SUIT_SYMBOLS.items()}

N_CARDS = 52
RANK_FIVE = RANKS.index("5")


class CardError(ValueError):
    """A card token, or a list of them, that cannot be read."""


def card(suit: int, rank: int) -> int:
    """The card number of a suit and a rank.

    >>> card(SUITS.index("S"), RANKS.index("A"))  # the ace of spades
    25
    """
    return suit * 13 + rank


def suit_of(c: int) -> int:
    """The suit number of a card.

    >>> SUITS[suit_of(parse_card("TS"))]
    'S'
    """
    return c // 13


def rank_of(c: int) -> int:
    """The rank number of a card (0 is the 2, 12 the ace).

    >>> RANKS[rank_of(parse_card("TS"))]
    'T'
    """
    return c % 13


def format_card(c: int) -> str:
    """The writer's form: rank letter then suit letter.

    >>> format_card(parse_card("10♠"))
    'TS'
    """
    if not 0 <= c < N_CARDS:
        raise CardError(f"card number {c} is out of range 0..51")
    return RANKS[c % 13] + SUITS[c // 13]


def pretty_card(c: int) -> str:
    """For people: ``10♠`` rather than ``TS``.

    >>> pretty_card(parse_card("TS"))
    '10♠'
    """
    r = RANKS[c % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[SUITS[c // 13]]


def parse_card(token: str) -> int:
    """Read one card in any notation a record may use: ``TS``, ``10s``, ``10♠``.

    Exactly what the record format allows: a rank (``A K Q J T 9 ... 2``, or
    ``10``; either case) then a suit (``S H D C``, either case, or a suit
    symbol, which may carry the emoji variation selector U+FE0F right after
    it). Nothing else: no spaces around it, no selector after a letter or
    inside the token, no look-alike characters.

    >>> parse_card("10s") == parse_card("TS") == parse_card("10♠") == parse_card("10♠\ufe0f")
    True
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    cinch_sim.cards.CardError: unknown card '1S'
    >>> parse_card("AS ")
    Traceback (most recent call last):
    ...
    cinch_sim.cards.CardError: unknown card 'AS '
    """
    if not isinstance(token, str):
        raise CardError(f"card {token!r} is not a string")
    selector = token.endswith(_SELECTOR)
    body = token[:-1] if selector else token
    if len(body) < 2:
        raise CardError(f"unknown card {token!r}")
    rank_part, suit_part = body[:-1], body[-1]
    if selector and suit_part not in _SYMBOL_TO_LETTER:
        raise CardError(f"unknown card {token!r}")  # a selector follows only a symbol
    rank = _RANK_OF.get(rank_part)
    suit = _SUIT_OF.get(suit_part)
    if rank is None or suit is None:
        raise CardError(f"unknown card {token!r}")
    return card(suit, rank)


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read cards from a space/comma separated string or a list of tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def parse_hand(text: str | Iterable[str], size: int | None = 9, copies: int = 1) -> list[int]:
    """Read a hand and check its size and that no card repeats more often than the
    decks in play hold it (``copies``: 2 with two decks).

    >>> parse_hand("AS KS", size=3)
    Traceback (most recent call last):
    ...
    cinch_sim.cards.CardError: a hand needs 3 cards, got 2
    >>> parse_hand("AS AS AS", size=3, copies=2)
    Traceback (most recent call last):
    ...
    cinch_sim.cards.CardError: AS is given 3 times; 2 decks hold it 2 times
    """
    cards = parse_cards(text)
    check_copies(cards, copies)
    if size is not None and len(cards) != size:
        raise CardError(f"a hand needs {size} cards, got {len(cards)}")
    return cards


def check_copies(cards: Iterable[int], copies: int = 1) -> None:
    """Refuse a card given more often than ``copies`` decks hold it."""
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > copies:
            if copies == 1:
                raise CardError(f"duplicate card {format_card(c)}")
            raise CardError(
                f"{format_card(c)} is given {seen[c]} times; {copies} decks hold it {copies} times"
            )


def parse_suit(text: str) -> int:
    """A suit from its letter, symbol or name.

    >>> parse_suit("h") == parse_suit("♥") == parse_suit("hearts") == SUITS.index("H")
    True
    """
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
    """Cards as a 52-bit mask (bit c set for card c), the kernel's form of a hand.

    >>> from_mask(to_mask(parse_cards("2C AH"))) == sorted(parse_cards("2C AH"))
    True
    """
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def from_mask(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def suit_mask(suit: int) -> int:
    """The mask of one suit's 13 cards (bits.suit_mask is its jitted twin).

    >>> bin(suit_mask(0)).count("1")
    13
    """
    return ((1 << 13) - 1) << (13 * suit)


def left_card(trump: int, left_rank: int = RANK_FIVE) -> int:
    """The same-colour card that joins trump (the Left Pedro by default).

    >>> format_card(left_card(SUITS.index("H")))  # hearts trump: the 5 of diamonds
    '5D'
    """
    return card(trump ^ 1, left_rank)


def trump_mask(trump: int, left_rank: int = RANK_FIVE) -> int:
    """The trump suit's cards: its 13 and the left card, 14 in all.

    >>> bin(trump_mask(SUITS.index("S"))).count("1")
    14
    """
    return suit_mask(trump) | (1 << left_card(trump, left_rank))

"""Reading the pieces of a record: typed fields, card tokens and rules.

Every failure is a :class:`RecordError` carrying the field path (``hands[2][4]``,
``tricks[3].cards[1]``), and where known the seat and the trick, so a reader can
print one clear line and go on to the next record.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from cinch_sim.cards import CardError, format_card, parse_card
from cinch_sim.rules import (
    BID_ROUNDS,
    CHOICES,
    OPTION_NAMES,
    VARIANTS,
    Rules,
    RulesError,
    make_rules,
)

HAND_FORMAT = "cinch-hand/1"
GAME_FORMAT = "cinch-game/1"


def place(field: str | None, seat: int | None, trick: int | None) -> str:
    """``field, seat S, trick T``: the parts that are known (``trick`` is an index into
    ``tricks``, 0 first, and T counts from 1 as people do); '' when none is."""
    parts = [field] if field else []
    if seat is not None:
        parts.append(f"seat {seat}")
    if trick is not None:
        parts.append(f"trick {trick + 1}")
    return ", ".join(parts)


class RecordError(ValueError):
    """A record that cannot be trusted: the first step that disagrees.

    ``kind`` is ``"invalid"`` (a broken or inconsistent record) or ``"misdeal"``
    (a deal with the wrong number of cards, or an exposed card).
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        seat: int | None = None,
        trick: int | None = None,
        kind: str = "invalid",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.seat = seat
        self.trick = trick
        self.kind = kind

    def where(self) -> str:
        return place(self.field, self.seat, self.trick)

    def __str__(self) -> str:
        w = self.where()
        return f"{w}: {self.message}" if w else self.message


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "a number"
    if isinstance(v, float):
        return "a decimal number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def what_it_is(v: Any) -> str:
    """``a string '3'``, ``a list [1, 2]``; plain ``null`` (no value to quote)."""
    return "null" if v is None else f"{type_name(v)} {short(v)}"


def short(v: Any, limit: int = 40) -> str:
    """A value quoted for a message as JSON (``null``, ``false``, ``"5X"``,
    ``{"seat": 1}``), as the person editing the record typed it; cut to a readable
    length."""
    try:
        text = _visible(json.dumps(v, ensure_ascii=False))
    except (TypeError, ValueError):  # not a JSON value (a caller's own object)
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _visible(text: str) -> str:
    """``text`` with the characters a terminal shows as nothing escaped as JSON does
    (``"AS\ufe0f"``: an emoji selector after a letter), so a bad token never looks
    like a good one; symbols such as ``♠`` stay as typed."""
    import unicodedata

    def shown(ch: str) -> str:
        cat = unicodedata.category(ch)
        hidden = cat in ("Cf", "Cc", "Mn", "Me", "Zl", "Zp") or (cat == "Zs" and ch != " ")
        return f"\\u{ord(ch):04x}" if hidden else ch

    return "".join(shown(ch) for ch in text)


def require(obj: dict, key: str, path: str = "") -> Any:
    if key not in obj:
        raise RecordError(f"missing field {short(key)}", field=f"{path}{key}")
    return obj[key]


def get_int(
    v: Any,
    field: str,
    lo: int | None = None,
    hi: int | None = None,
    what: str = "a whole number",
    **where: Any,
) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"must be {what}, got {what_it_is(v)}", field=field, **where)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise RecordError(f"{v} is out of range {lo}..{hi}", field=field, **where)
    return v


def get_list(v: Any, field: str, length: int | None = None, **where: Any) -> list:
    if not isinstance(v, list):
        raise RecordError(f"must be a list, got {what_it_is(v)}", field=field, **where)
    if length is not None and len(v) != length:
        raise RecordError(f"must have {length} entries, got {len(v)}", field=field, **where)
    return v


def get_dict(v: Any, field: str) -> dict:
    if not isinstance(v, dict):
        raise RecordError(f"must be an object, got {what_it_is(v)}", field=field)
    return v


_FAST = {format_card(c): c for c in range(52)}


def get_card(v: Any, field: str, **where: Any) -> int:
    try:
        return _FAST[v]
    except (KeyError, TypeError):
        pass
    try:
        return parse_card(v)
    except CardError:
        raise RecordError(
            f'unknown card {short(v)} (cards are rank then suit, e.g. "TS", "5C", "10♠")',
            field=field,
            **where,
        ) from None


def get_cards(v: Any, field: str, copies: int = 1, **where: Any) -> list[int]:
    """A list of cards, each at most ``copies`` times (distinct with one deck; two
    decks, docs/rules.md §3.4, hold every card twice)."""
    lst = get_list(v, field, **where)
    cards = [get_card(t, f"{field}[{i}]", **where) for i, t in enumerate(lst)]
    seen: dict[int, int] = {}
    for i, c in enumerate(cards):
        n = seen.get(c, 0)
        if n >= copies:
            what = "duplicate card" if copies == 1 else "a third copy of"
            raise RecordError(f"{what} {format_card(c)}", field=f"{field}[{i}]", **where)
        seen[c] = n + 1
    return cards


_RULES_CACHE: dict[Any, Rules] = {}


def parse_rules(v: Any, field: str = "rules") -> Rules:
    """A record's ``{"preset": ..., "options": {...}}`` as a Rules object."""
    try:
        key = (tuple(v), v["preset"], tuple((k, type(x), x) for k, x in v["options"].items()))
        hash(key)
    except Exception:  # not the usual shape: read it carefully, every time
        key = None
    if key in _RULES_CACHE:
        return _RULES_CACHE[key]
    rules = _parse_rules(v, field)
    if key is not None and len(_RULES_CACHE) < 1024:
        _RULES_CACHE[key] = rules
    return rules


def _parse_rules(v: Any, field: str) -> Rules:
    d = get_dict(v, field)
    for k in d:
        if k not in ("preset", "options"):
            raise RecordError(f"unknown field {short(k)} (rules hold preset and options)", field)
    preset = require(d, "preset", f"{field}.")
    if not isinstance(preset, str):
        raise RecordError(f"must be a string, got {type_name(preset)}", f"{field}.preset")
    if preset not in VARIANTS:
        raise RecordError(
            f"unknown rules preset {short(preset)} (known: {', '.join(VARIANTS)})",
            f"{field}.preset",
        )
    options = get_dict(d.get("options", {}), f"{field}.options")
    for name, value in options.items():
        if name not in OPTION_NAMES:
            raise RecordError(
                f"unknown rule option {short(name)} (known: {', '.join(OPTION_NAMES)})",
                f"{field}.options",
            )
        why = option_value_problem(name, value)
        if why:
            raise RecordError(f"{name}={short(value)}: {why}", f"{field}.options.{name}")
    try:
        return make_rules(preset, options)
    except RulesError as e:
        raise RecordError(str(e), _options_field(str(e), options, field)) from None
    except (TypeError, ValueError, OverflowError) as e:  # defensive: odd values
        raise RecordError(f"bad rule options: {e}", f"{field}.options") from None


# Each option's JSON type, from the Rules field's annotation ("bool", "int", "int | None").
_OPTION_TYPES = {f.name: str(f.type) for f in dataclasses.fields(Rules) if f.name in OPTION_NAMES}


def option_value_problem(name: str, value: Any) -> str | None:
    """Why ``value`` is not a JSON value of option ``name``, or None when it is one.

    A record holds JSON values, not the CLI's text: a whole number, true or
    false, null for ``min_score_loss`` off, or one of the option's words exactly
    as docs/rules.md spells them. ``"7"``, ``"DEALER"`` or ``"yes"`` would be
    read one way here and another by other programs, so none is read at all.
    Ranges and combinations are the rules' to check.
    """
    kind = _OPTION_TYPES.get(name, "")
    if name == "bid_rounds":  # a word in records (docs/records.md), a number in Rules
        if isinstance(value, str) and value in BID_ROUNDS:
            return None
        return f"must be one of {', '.join(BID_ROUNDS)}"
    if name in CHOICES:
        if isinstance(value, str) and value in CHOICES[name]:
            return None
        return f"must be one of {', '.join(CHOICES[name])}"
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind.startswith("int"):
        if isinstance(value, int) and not isinstance(value, bool):
            return None
        if kind == "int | None":
            return None if value is None else "must be null (off) or a whole number"
        return "must be a whole number"
    return None  # a type this reader does not know: the rules judge the value


def _options_field(message: str, options: dict, field: str) -> str:
    """The option a rules error is about when it names one the record sets
    (``bid_min=9 must be ...``), else the options as a whole."""
    head = message.split("=", 1)[0].split(" ", 1)[0]
    return f"{field}.options.{head}" if head in options else f"{field}.options"

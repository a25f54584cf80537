"""Writing records: hand records from the kernel's trace rows, streamed to disk.

``hand_record`` turns one result row and one trace row (layout.py ``H_*`` and
``T_*``) into a ``cinch-hand/1`` dict in docs/records.md's exact form and key
order. ``RecordWriter`` streams chunks of them through ``outputs.Output``: a
regular file is written under a temporary name and renamed into place only when
the run finishes, so it is never left half written; memory does not grow with
the number of hands.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim.cards import SUITS, format_card
from cinch_sim.outputs import Output
from cinch_sim.records.parse import GAME_FORMAT, HAND_FORMAT
from cinch_sim.rules import Rules

CARD = [format_card(c) for c in range(52)]
QCARD = [f'"{t}"' for t in CARD]  # as JSON strings
SUB = 2048  # rows converted to Python lists at a time


class _Ctx:
    """What every hand of one rules object shares."""

    def __init__(self, rules: Rules) -> None:
        self.rules_rec = rules.to_record()
        self.P = rules.players
        self.D = rules.cards_dealt
        self.T = rules.teams
        self.draw = rules.draw  # without a draw: no discards, draws or robber_discards
        self.widow = rules.widow > 0  # a seat's discard may hold its widow's cards
        self.double = rules.decks == 2  # every card twice: the trace's second-deck blocks
        self.n_deck = 52 * rules.decks
        self.slots = list(rules.point_slots.items())  # (point name, result slot)
        rules_json = json.dumps(self.rules_rec)
        self.head = f'{{"format": "{HAND_FORMAT}", "rules": {rules_json}, "dealer": '

        self.qslots = [(json.dumps(n) + ": ", L.H_SLOT_TEAM + slot) for n, slot in self.slots]
        # deck positions of each seat's cards, per dealer (docs/records.md: in the order dealt)
        self.deal_idx = []
        for dealer in range(self.P):
            idx: list[list[int]] = [[] for _ in range(self.P)]
            for r in range(self.D // 3):
                for j in range(self.P):
                    base = r * 3 * self.P + j * 3
                    idx[(dealer + 1 + j) % self.P].extend(range(base, base + 3))
            self.deal_idx.append(idx)


def _deck(ctx: _Ctx, tr: list[int]) -> list[int]:
    """The cards in the order dealt (two decks: the second deck's block follows)."""
    deck = tr[L.T_DECK : L.T_DECK + 52]
    return deck + tr[L.T_DECK2 : L.T_DECK2 + 52] if ctx.double else deck


def _drawers(ctx: _Ctx, tr: list[int], nd: int) -> list[int]:
    """The seat that drew each stock card (deck positions nd on), -1 for none."""
    if ctx.double:  # positions 0..51, then the second deck's 52..103
        return (tr[L.T_DRAW_SEAT : L.T_DRAW_SEAT + 52] + tr[L.T_DRAW_SEAT2 : L.T_DRAW_SEAT2 + 52])[
            nd:
        ]
    return tr[L.T_DRAW_SEAT + nd : L.T_DRAW_SEAT + 52]


def _picked(cards: list[int], once: int, twice: int) -> list[int]:
    """The cards of ``cards`` (in order) a discard mask names: each face of ``once``
    one time, and a second time where ``twice`` holds it too (two decks)."""
    out = []
    for c in cards:
        if once >> c & 1:
            out.append(c)
            once &= ~(1 << c)
        elif twice >> c & 1:
            out.append(c)
            twice &= ~(1 << c)
    return out


def _captured(ctx: _Ctx, out: list[int], slot: int) -> Any:
    """A point's ``captured`` value: the team (None: not in play), or with two decks the
    sorted list of the teams of each copy in play (docs/records.md "Variants")."""
    team = out[L.H_SLOT_TEAM + slot]
    if not ctx.double:
        return team if team >= 0 else None
    return sorted(t for t in (team, out[L.H2_SLOT_TEAM + slot]) if t >= 0)


def hand_record(rules: Rules, out_row: np.ndarray, trace_row: np.ndarray) -> dict[str, Any]:
    """One ``cinch-hand/1`` record from a kernel result row and its trace row."""
    return _record(_Ctx(rules), np.asarray(out_row).tolist(), np.asarray(trace_row).tolist())


def dealt_cards(rules: Rules, trace_row: np.ndarray, dealer: int) -> list[list[str]]:
    """Each seat's cards as dealt, in the order dealt, from a trace row: known from the
    deal on, so also in a hand still being played (the web table's)."""
    ctx = _Ctx(rules)
    deck = _deck(ctx, np.asarray(trace_row).tolist())
    return [[CARD[deck[i]] for i in ix] for ix in ctx.deal_idx[dealer]]


def _record(ctx: _Ctx, out: list[int], tr: list[int]) -> dict[str, Any]:
    P, T = ctx.P, ctx.T
    dealer = out[L.H_DEALER]
    deck = _deck(ctx, tr)
    dealt = [[deck[i] for i in ix] for ix in ctx.deal_idx[dealer]]
    nd = P * ctx.D
    rec: dict[str, Any] = {
        "format": HAND_FORMAT,
        "rules": ctx.rules_rec,
        "dealer": dealer,
        "hands": [[CARD[c] for c in h] for h in dealt],
        "stock": [CARD[c] for c in deck[nd:]],
    }
    nb = tr[L.T_N_BIDS]
    b = tr[L.T_BIDS : L.T_BIDS + 2 * nb]
    rec["bids"] = [[b[2 * i], b[2 * i + 1] if b[2 * i + 1] > 0 else None] for i in range(nb)]
    if out[L.H_THROWN_IN]:
        rec["maker"] = None
        rec["bid"] = None
        rec["trump"] = None
        rec["result"] = {"thrown_in": True, "points": [0] * T, "score": [0] * T, "made": None}
        return rec
    rec["maker"] = out[L.H_MAKER]
    rec["bid"] = out[L.H_BID]
    rec["trump"] = SUITS[out[L.H_TRUMP]]
    if ctx.draw:
        _draw_fields(rec, ctx, out, tr, dealt, deck, nd)
    _tricks(rec, ctx, out, tr)
    return rec


def _draw_fields(rec: dict, ctx: _Ctx, out: list, tr: list, dealt: list, deck: list, nd: int):
    """A record's discards, draws and robber_discards (a preset with a draw)."""
    P = ctx.P
    ds = _drawers(ctx, tr, nd)
    drawn: list[list[int]] = [[] for _ in range(P)]
    for i, s in enumerate(ds):
        if s >= 0:
            drawn[s].append(deck[nd + i])
    discards = []
    for s in range(P):
        m = tr[L.T_DISCARD + s]
        m2 = tr[L.T_DISCARD2 + s] if ctx.double else 0
        cand = dealt[s] + drawn[s] if ctx.widow else dealt[s]
        discards.append([CARD[c] for c in _picked(cand, m, m2)] if m else [])
    rec["discards"] = discards
    rec["draws"] = [[CARD[c] for c in d] for d in drawn]
    robber = tr[L.T_ROBBER]
    rm = tr[L.T_ROBBER_DISCARD]
    rm2 = tr[L.T_ROBBER_DISCARD2] if ctx.double else 0
    if robber >= 0 and rm:
        cand = dealt[robber] + [deck[nd + i] for i, s in enumerate(ds) if s == robber]
        rec["robber_discards"] = [CARD[c] for c in _picked(cand, rm, rm2)]
    else:
        rec["robber_discards"] = []


def _tricks(rec: dict, ctx: _Ctx, out: list, tr: list) -> None:
    """A record's tricks and result."""
    P, T = ctx.P, ctx.T
    nt = tr[L.T_N_TRICKS]
    tricks = []
    for t in range(nt):
        base = L.T_PLAYS + t * L.MAX_PLAYERS
        tricks.append(
            {
                "leader": tr[L.T_LEADER + t],
                "cards": [CARD[c] for c in tr[base : base + P] if c >= 0],
                "winner": tr[L.T_WINNER + t],
            }
        )
    rec["tricks"] = tricks
    captured = {name: _captured(ctx, out, slot) for name, slot in ctx.slots}
    rec["result"] = {
        "points": out[L.H_POINTS : L.H_POINTS + T],
        "captured": captured,
        "made": bool(out[L.H_MADE]),
        "score": out[L.H_SCORE : L.H_SCORE + T],
        "renege": None,
    }


def _line(ctx: _Ctx, out: list[int], tr: list[int]) -> str:
    """The JSON text of ``_record(ctx, out, tr)``, built directly (several times faster)."""
    P, T = ctx.P, ctx.T
    Q = QCARD
    dealer = out[L.H_DEALER]
    deck = _deck(ctx, tr)
    idx = ctx.deal_idx[dealer]
    nd = P * ctx.D
    parts = [
        ctx.head,
        str(dealer),
        ', "hands": [',
        ", ".join("[" + ", ".join([Q[deck[i]] for i in ix]) + "]" for ix in idx),
        '], "stock": [',
        ", ".join([Q[c] for c in deck[nd:]]),
        '], "bids": [',
    ]
    nb = tr[L.T_N_BIDS]
    b = tr[L.T_BIDS : L.T_BIDS + 2 * nb]
    parts.append(
        ", ".join(
            [
                f"[{b[i]}, {b[i + 1]}]" if b[i + 1] > 0 else f"[{b[i]}, null]"
                for i in range(0, 2 * nb, 2)
            ]
        )
    )
    if out[L.H_THROWN_IN]:
        zeros = "[" + ", ".join(["0"] * T) + "]"
        parts.append(
            '], "maker": null, "bid": null, "trump": null, "result": {"thrown_in": true, '
            f'"points": {zeros}, "score": {zeros}, "made": null}}}}'
        )
        return "".join(parts)
    parts.append(
        f'], "maker": {out[L.H_MAKER]}, "bid": {out[L.H_BID]}, "trump": "{SUITS[out[L.H_TRUMP]]}"'
    )
    if ctx.draw:
        _draw_text(parts, ctx, tr, deck, idx, nd)
    _tricks_text(parts, ctx, out, tr)
    return "".join(parts)


def _draw_text(parts: list[str], ctx: _Ctx, tr: list, deck: list, idx: list, nd: int) -> None:
    """The JSON text of the discards, draws and robber_discards."""
    P, Q = ctx.P, QCARD
    parts.append(', "discards": [')
    ds = _drawers(ctx, tr, nd)
    drawn: list[list[int]] = [[] for _ in range(P)]
    for i, s in enumerate(ds):
        if s >= 0:
            drawn[s].append(deck[nd + i])
    disc = []
    for s in range(P):
        m = tr[L.T_DISCARD + s]
        cand = [deck[i] for i in idx[s]] + (drawn[s] if ctx.widow else [])
        if m and ctx.double:
            gone = _picked(cand, m, tr[L.T_DISCARD2 + s])
            disc.append("[" + ", ".join([Q[c] for c in gone]) + "]")
        elif m:
            disc.append("[" + ", ".join([Q[c] for c in cand if m >> c & 1]) + "]")
        else:
            disc.append("[]")
    parts.append(", ".join(disc))
    parts.append('], "draws": [')
    parts.append(", ".join(["[" + ", ".join([Q[c] for c in d]) + "]" for d in drawn]))
    parts.append('], "robber_discards": [')
    robber = tr[L.T_ROBBER]
    rm = tr[L.T_ROBBER_DISCARD]
    if robber >= 0 and rm:
        cand = [deck[i] for i in idx[robber]] + [
            deck[nd + i] for i, s in enumerate(ds) if s == robber
        ]
        rm2 = tr[L.T_ROBBER_DISCARD2] if ctx.double else 0
        parts.append(", ".join([Q[c] for c in _picked(cand, rm, rm2)]))
    parts.append("]")


def _tricks_text(parts: list[str], ctx: _Ctx, out: list, tr: list) -> None:
    """The JSON text of the tricks and the result."""
    P, T, Q = ctx.P, ctx.T, QCARD
    parts.append(', "tricks": [')
    tricks = []
    MP = L.MAX_PLAYERS
    for t in range(tr[L.T_N_TRICKS]):
        base = L.T_PLAYS + t * MP
        cards = ", ".join([Q[c] for c in tr[base : base + P] if c >= 0])
        tricks.append(
            f'{{"leader": {tr[L.T_LEADER + t]}, "cards": [{cards}], '
            f'"winner": {tr[L.T_WINNER + t]}}}'
        )
    parts.append(", ".join(tricks))
    if ctx.double:
        cap = ", ".join(
            [qn + json.dumps(_captured(ctx, out, k - L.H_SLOT_TEAM)) for qn, k in ctx.qslots]
        )
    else:
        cap = ", ".join([qn + (str(out[k]) if out[k] >= 0 else "null") for qn, k in ctx.qslots])
    pts = ", ".join([str(x) for x in out[L.H_POINTS : L.H_POINTS + T]])
    score = ", ".join([str(x) for x in out[L.H_SCORE : L.H_SCORE + T]])
    made = "true" if out[L.H_MADE] else "false"
    parts.append(
        f'], "result": {{"points": [{pts}], "captured": {{{cap}}}, "made": {made}, '
        f'"score": [{score}], "renege": null}}}}'
    )


def iter_hand_records(rules: Rules, out: np.ndarray, trace: np.ndarray) -> Iterable[dict[str, Any]]:
    """Records of a chunk of hands, converted a few thousand rows at a time."""
    if trace.shape[0] != out.shape[0]:
        raise ValueError(
            f"{out.shape[0]} result rows but {trace.shape[0]} trace rows "
            "(run the kernel with trace=True to write records)"
        )
    ctx = _Ctx(rules)
    for lo in range(0, out.shape[0], SUB):
        o = out[lo : lo + SUB].tolist()
        t = trace[lo : lo + SUB].tolist()
        for a, b in zip(o, t, strict=True):
            yield _record(ctx, a, b)


def dumps(record: dict[str, Any]) -> str:
    """One JSON Lines line (no newline), in the writer's form."""
    return json.dumps(record, ensure_ascii=False)


class RecordWriter:
    """Stream simulated hands to a ``cinch-hand/1`` JSON Lines file, atomically.

    The kernel must run with ``trace=True``. Either as a context manager::

        with RecordWriter("hands.jsonl", rules) as w:
            for out, trace in iter_chunks(rules, policies, hands, seed, dealer, trace=True):
                w.write_chunk(out, trace)

    or open-ended: ``w = RecordWriter(path, rules, dealer)``, ``w.write_chunk(out,
    trace)`` per chunk (e.g. as ``api.simulate(on_chunk=w.write_chunk, trace=True)``),
    then ``w.close()`` to put the file in place (or ``w.abort()`` to drop it).

    The file is opened as the writer is made, so a path that cannot be written
    fails before any work. Records go through :class:`cinch_sim.outputs.Output`:
    to a temporary file beside a regular ``path``, renamed into place only by
    ``close()`` (or the end of a ``with`` block without an exception); straight
    through to a FIFO, a device or ``-`` (stdout). Memory does not grow with the
    number of hands.
    """

    def __init__(self, path: str | os.PathLike, rules: Rules, dealer: int | None = None) -> None:
        self.path = Path(path)
        self.rules = rules
        self.dealer = dealer  # informational: every result row carries its own dealer
        self.count = 0
        self._out = Output(path)
        self._done = False
        self._ctx = _Ctx(rules)

    def open(self) -> RecordWriter:
        if self._done:
            raise RuntimeError(f"RecordWriter for {self.path} is already closed")
        return self

    def close(self) -> None:
        """Finish the file and rename it into place (an empty file if nothing was written)."""
        if not self._done:
            self._done = True
            self._out.commit()

    def abort(self) -> None:
        """Drop the temporary file; nothing is written at ``path``."""
        self._done = True
        self._out.discard()

    def __enter__(self) -> RecordWriter:
        return self.open()

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()

    def write_chunk(self, out: np.ndarray, trace: np.ndarray, dealer: int | None = None) -> int:
        """Write one chunk of hands (the rows of ``run_chunk``); return how many.

        ``dealer`` is accepted for symmetry with the engine; each row carries its own.
        """
        if trace.shape[0] != out.shape[0]:
            raise ValueError(
                f"{out.shape[0]} result rows but {trace.shape[0]} trace rows "
                "(run the kernel with trace=True to write records)"
            )
        sink = self.open()._out
        ctx = self._ctx
        for lo in range(0, out.shape[0], SUB):
            o = out[lo : lo + SUB].tolist()
            t = trace[lo : lo + SUB].tolist()
            sink.write("".join([_line(ctx, a, b) + "\n" for a, b in zip(o, t, strict=True)]))
        self.count += out.shape[0]
        return out.shape[0]

    def write(self, record: dict[str, Any]) -> None:
        """Write one record dict (a hand or a game) as a line."""
        self.open()._out.write(dumps(record) + "\n")
        self.count += 1


def write_records(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> int:
    """Write record dicts as JSON Lines, atomically; return how many were written."""
    n = 0
    with Output(path) as out:
        for rec in records:
            out.write(dumps(rec) + "\n")
            n += 1
    return n


def game_record(rules: Rules, hands: list[dict[str, Any]], first_dealer: int) -> dict[str, Any]:
    """A ``cinch-game/1`` record from hand records: totals, winner and reason computed.

    The hands are refereed (docs/rules.md §1.15 decides the end); a hand that is
    not clean raises :class:`~cinch_sim.records.parse.RecordError`.
    """
    from cinch_sim.records.referee import check_game

    rec = {
        "format": GAME_FORMAT,
        "rules": rules.to_record(),
        "target": rules.target,
        "first_dealer": first_dealer,
        "hands": hands,
    }
    return check_game(rec).to_record()


def kernel_game_record(
    rules: Rules, game_row: np.ndarray, hand_rows: np.ndarray, trace_rows: np.ndarray
) -> dict[str, Any]:
    """The refereed ``cinch-game/1`` record of one game of ``engine.run_games``.

    ``game_row`` is the game's result row (layout.py ``G_*``), ``hand_rows``
    and ``trace_rows`` its hands' rows (the kernel's trace). The record is
    built by :func:`game_record`, so the referee recomputes every hand and
    the end (``records.game_end``); a winner or reason that differs from the
    kernel's raises ``RuntimeError`` (a kernel bug, never silently kept).
    """
    n = int(game_row[L.G_N_HANDS])
    hands = list(iter_hand_records(rules, hand_rows[:n], trace_rows[:n]))
    rec = game_record(rules, hands, int(game_row[L.G_FIRST_DEALER]))
    kw = int(game_row[L.G_WINNER])
    kr = L.REASON_NAMES[int(game_row[L.G_REASON])]
    if (rec["winner"] if rec["winner"] is not None else -1) != kw or rec["reason"] != kr:
        raise RuntimeError(
            f"the kernel says winner {kw} ({kr}), the referee says {rec['winner']} "
            f"({rec['reason']})"
        )
    return rec


def simulate_game_record(
    rules: Rules,
    policies,
    seed: int = 0,
    first_dealer: int = 0,
    max_hands: int = 500,
) -> dict[str, Any]:
    """Play one game through the games kernel; return its refereed ``cinch-game/1`` record.

    The game is game index 0 of ``seed`` in ``engine.run_games``: the deal
    moves clockwise (docs/rules.md §1.1) except after a hand thrown in under
    ``all_pass=redeal_same`` (§1.4), policies see the running game score, and
    the game ends as §1.15 says, or is ``unfinished`` after ``max_hands``
    (:func:`kernel_game_record` checks the kernel's end against the referee's).
    """
    from cinch_sim.engine.run import run_games

    games, hands, trace = run_games(rules, policies, seed, 0, 1, first_dealer, max_hands, True)
    return kernel_game_record(rules, games[0], hands[0], trace[0])

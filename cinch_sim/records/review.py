"""Recorded hands against double-dummy play (``cinch-sim solve``, ``api.solve``).

The referee reads each record (so only a hand it accepts is solved); its hands
after the draw and its tricks give the solver's start position and the line of
play; ``solver.review`` values every card. One summary dict per hand: the JSON
object the command prints (docs/records.md's cards and seats, tricks from 1).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cinch_sim import notation as N
from cinch_sim.cards import SUIT_NAMES, SUITS, format_card
from cinch_sim.records.io import Line, read_records, referee_record
from cinch_sim.records.referee import GameCheck, HandCheck, side_name
from cinch_sim.rules import Rules
from cinch_sim.solver import position as Q
from cinch_sim.solver.limits import first_quick_trick
from cinch_sim.solver.moves import play
from cinch_sim.solver.review import HandReview, Solver
from cinch_sim.views import Tables


def hand_line(hc: HandCheck) -> tuple[Any, list[tuple[int, int]]]:
    """The start-of-play position of a refereed hand and its plays, (seat, card) in order."""
    pos = Q.start_position(hc.rules, hc.after_draw, hc.trump, hc.maker)
    plays = [(s, c) for t in hc.tricks for s, c in zip(t.seats, t.cards, strict=True)]
    return pos, plays


class Summary(dict):
    """One hand's summary: a plain dict, the JSON object ``solve --format json`` prints,
    that also keeps what its text needs and the JSON leaves out: the rules (to name the
    sides: teams, or seats in cut-throat) and whether the contract was made."""

    rules: Rules | None = None
    made: bool | None = None


class TrickOutOfRange(ValueError):
    """A first trick to value past the last trick of a hand's rules."""


class Reviewer:
    """Solvers by rules (a file may mix rule options), reused across its records.

    ``from_trick`` (1 first) values only the cards from that trick on; the tricks
    before it are listed without values. ``"quick"``: from the first trick the solver
    answers quickly for the record's rules (``limits.first_quick_trick``: the first,
    unless two decks or six seats make the early tricks cost minutes)."""

    def __init__(self, from_trick: int | str = 1) -> None:
        self._solvers: dict[Rules, Solver] = {}
        self.from_trick = from_trick

    def solver(self, rules: Rules) -> Solver:
        if rules not in self._solvers:
            self._solvers[rules] = Solver(rules)
        return self._solvers[rules]

    def first_trick(self, rules: Rules) -> int:
        """The first trick (1 first) this reviewer values under ``rules``."""
        if self.from_trick == "quick":
            return first_quick_trick(rules)
        return int(self.from_trick)

    def review(self, hc: HandCheck) -> tuple[HandReview, int]:
        """The review of the cards from ``first_trick`` on (clipped to the tricks
        played), and that first trick (1 first). A first trick past the rules' last is
        another question, not one to clip: ``TrickOutOfRange``."""
        if self.from_trick != "quick" and int(self.from_trick) > hc.rules.hand_size:
            n = hc.rules.hand_size
            raise TrickOutOfRange(
                f"{self.from_trick} is out of range 1..{n} (a hand of {n} tricks), or 'quick'"
            )
        pos, plays = hand_line(hc)
        first = min(self.first_trick(hc.rules), max(1, len(hc.tricks)))
        skip = sum(len(t.cards) for t in hc.tricks[: first - 1])
        vector = hc.rules.to_array()
        for _, c in plays[:skip]:
            play(pos, vector, c)
        return self.solver(hc.rules).review(pos, plays[skip:]), first

    def summary(self, hc: HandCheck, line: int | None, hand: int | None = None) -> dict[str, Any]:
        """The JSON object of one hand (``status`` says why a hand is not solved)."""
        out = Summary(line=line)
        out.rules, out.made = hc.rules, hc.made
        if hand is not None:
            out["hand"] = hand
        status = hc.status
        if status == "valid" and hc.thrown_in:
            status = "thrown_in"
        out["status"] = status
        if status != "valid":
            # a renege breaks the line (the solver plays by the rules); a misdeal or a
            # thrown-in hand has no play
            out.update({"dd_start": None, "points": None, "lost": None})
            if hc.renege_text:
                out["message"] = hc.renege_text
            return out
        r, first = self.review(hc)
        out.update(
            {
                "maker": hc.maker,
                "maker_team": r.maker_team,
                "bid": hc.bid,
                "trump": SUITS[hc.trump],
                "dd_start": r.start,
                "points": r.taken,
                "lost": r.lost,
                "tricks": _tricks(hc, r, first),
            }
        )
        if first > 1:
            out["from_trick"] = first
        return out


def _tricks(hc: HandCheck, r: HandReview, first: int = 1) -> list[dict[str, Any]]:
    """Each trick with each card's value before and after it; the tricks before
    ``first`` (1 first), which the review did not value, with None for them."""
    rules = hc.rules
    out = []
    cards = iter(r.cards)
    for t, trick in enumerate(hc.tricks):
        if t + 1 < first:
            plays = [
                {"seat": s, "card": format_card(c), "before": None, "after": None, "lost": None}
                for s, c in zip(trick.seats, trick.cards, strict=True)
            ]
            out.append({"trick": t + 1, "leader": trick.leader, "winner": trick.winner,
                        "dd_start": None, "lost": None, "plays": plays})  # fmt: skip
            continue
        lost = [0] * rules.teams
        plays = []
        for _ in trick.cards:
            c = next(cards)
            team = rules.team_of(c.seat)
            drop = c.lost(team == r.maker_team)
            lost[team] += drop
            plays.append(
                {
                    "seat": c.seat,
                    "card": format_card(c.card),
                    "before": c.before,
                    "after": c.after,
                    "lost": drop,
                }
            )
        out.append(
            {
                "trick": t + 1,
                "leader": trick.leader,
                "winner": trick.winner,
                "dd_start": plays[0]["before"],
                "lost": lost,
                "plays": plays,
            }
        )
    return out


def line_summaries(reviewer: Reviewer, ln: Line) -> list[dict[str, Any]]:
    """The summaries of one line of a record file: one, or one per hand of a game."""
    if ln.error:
        return [_unsolved(ln.number, "invalid", ln.error)]
    v = referee_record(ln.data, ln.number)
    if v.check is None:
        # where, as the referee says, and its parts apart: a page words them for people
        where = {k: v.problem()[k] for k in ("field", "seat", "trick")}
        return [{**_unsolved(ln.number, v.status, v.detail()), **where, "problem": v.message}]
    if isinstance(v.check, GameCheck):
        return [reviewer.summary(h, ln.number, i + 1) for i, h in enumerate(v.check.hands)]
    return [reviewer.summary(v.check, ln.number)]


def _unsolved(line: int, status: str, message: str) -> dict[str, Any]:
    return {
        "line": line,
        "status": status,
        "dd_start": None,
        "points": None,
        "lost": None,
        "message": message,
    }


def iter_summaries(
    source: str | os.PathLike | Iterable[Any], line: int | None = None, from_trick: int | str = 1
) -> Iterator[dict[str, Any]]:
    """The summaries of a record file's hands (or of record dicts, numbered from 1 like
    lines, or of ``Line``s read elsewhere, a bad one an invalid entry), streamed;
    only line ``line`` when given; values from ``from_trick`` on (``Reviewer``).

    Raises ``RecordFileError`` when the file cannot be read, and ``LookupError``
    when ``line`` holds no record.
    """
    reviewer = Reviewer(from_trick)
    if isinstance(source, str | os.PathLike):
        lines: Iterable[Line] = read_records(source)  # raises now if it cannot be opened
        name = os.fspath(source)
    else:  # record dicts, or lines already read (``records.io.iter_lines``)
        lines = (
            r if isinstance(r, Line) else Line(i, b"", data=r) for i, r in enumerate(source, 1)
        )
        name = "the records"

    def gen() -> Iterator[dict[str, Any]]:
        found = False
        for ln in lines:
            if line is not None and ln.number != line:
                if ln.number > line:
                    break
                continue
            found = True
            yield from line_summaries(reviewer, ln)
        if line is not None and not found:
            raise LookupError(f"line {line} of {name} holds no record")

    return gen()


# ---------------------------------------------------------------- for people
def header_text(teams: int) -> str:
    """The column heads of ``row_text``."""
    lost = "".join(f"  lost {t}" for t in range(teams))
    return f"{'line':>6} {'hand':>4}  maker  trump  bid  dd start  by trick{'':12}  took{lost}"


LEGEND = (
    "maker: his seat (his side); dd start: the points the maker's side ends with if every "
    "card from the start of play is perfect (double-dummy); by trick: that value at the "
    "start of trick 2, 3 and on, as the hand was played; took: the points it took; "
    "lost N: the points "
    "side N gave away against perfect play (dd start, less what the maker's side lost, "
    "plus what the others lost, is what it took)"
)


def row_text(s: dict[str, Any], teams: int) -> str:
    """One hand in a line: who made what, its double-dummy value at the start of play
    and at each later trick as played, what the maker's side took, what each team
    gave away. A hand not solved says why."""
    hand = "-" if s.get("hand") is None else str(s["hand"])
    head = f"{s['line']:>6} {hand:>4}  "
    if s["status"] != "valid":
        why = {"thrown_in": "thrown in: no play"}.get(s["status"], s["status"])
        if s.get("message"):
            why += f": {s['message']}"
        return head + why
    by_trick = " ".join(_shown(t["dd_start"]) for t in s["tricks"][1:])
    lost = "".join(f"  {x:>6}" for x in s["lost"])
    maker = f"{s['maker']} ({s['maker_team']})"
    return (
        f"{head}{maker:<5}  {s['trump']:<5}  {s['bid']:>3}  {s['dd_start']:>8}  "
        f"{by_trick:<20}  {s['points']:>4}{lost}"
    )


def _shown(x: int | None) -> str:
    """A value, or a dash for a trick before the first solved one."""
    return "-" if x is None else str(x)


def _side(s: dict[str, Any], team: int) -> str:
    """A side as the hand's rules name it (``team 1``; ``seat 3`` in cut-throat); a
    summary without its rules (a dict read back from JSON) says ``team``."""
    rules = getattr(s, "rules", None)
    return f"team {team}" if rules is None else side_name(rules, team)


def _contract(s: dict[str, Any]) -> str:
    """``seat 2 (team 0) named spades at 9 and was set``: who named which trump at
    what bid, and how it ended (made: the maker's side took at least the bid)."""
    maker = f"seat {s['maker']}"
    if _side(s, s["maker_team"]) != maker:
        maker += f" ({_side(s, s['maker_team'])})"
    suit = SUIT_NAMES[s["trump"]]
    if not s["bid"]:  # all passed and the dealer named trumps at no bid
        return f"{maker} named {suit} with no contract"
    made = getattr(s, "made", None)
    if made is None:
        made = s["points"] >= s["bid"]
    return f"{maker} named {suit} at {s['bid']} and " + ("made it" if made else "was set")


def hand_text(s: dict[str, Any]) -> str:
    """One hand in full: each trick's cards as played (a card that gave points away
    followed by how many), its double-dummy value at the start, what each team lost."""
    where = f"Line {s['line']}" + (f", hand {s['hand']}" if s.get("hand") is not None else "")
    if s["status"] != "valid":
        return row_text(s, 0).replace(f"{s['line']:>6}", where + ":", 1)
    teams = len(s["lost"])
    start = "play" if "from_trick" not in s else f"trick {s['from_trick']} (the first solved)"
    lines = [
        f"{where}: {_contract(s)}; it took {s['points']}. Double-dummy {s['dd_start']} "
        f"for the maker's side at the start of {start}.",
        "",
        f"{'trick':>5}  {'leader':>6}  {'dd start':>8}  {'cards as played':<34}"
        + "".join(f"  lost {t}" for t in range(teams)),
    ]
    for t in s["tricks"]:
        cards = " ".join(p["card"] + (f"(-{p['lost']})" if p["lost"] else "") for p in t["plays"])
        lines.append(
            f"{t['trick']:>5}  {t['leader']:>6}  {_shown(t['dd_start']):>8}  {cards:<34}"
            + "".join(f"  {_shown(x):>6}" for x in t["lost"] or ["-"] * teams)
        )
    lost = ", ".join(f"{_side(s, t)} {x}" for t, x in enumerate(s["lost"]))
    lines += [
        "",
        "dd start: the maker's side's points under best play from the trick's start; "
        "a card (-N) gave N points away.",
        f"Given away against double-dummy play: {lost}.",
    ]
    return "\n".join(lines)


# each table's columns, there even when no hand was solved (the play's own: see hand_text)
SOLVE_COLUMNS = {
    "hands": ("line", "hand", "status", "maker", "maker_team", "bid", "trump", "dd_start",
              "points"),
    "tricks": ("line", "hand", "trick", "leader", "winner", "dd_start"),
    "cards": ("line", "hand", "trick", "seat", "card", "before", "after", "lost"),
}  # fmt: skip


@dataclass(repr=False)
class SolveReport(Tables):
    """Recorded hands against double-dummy play: one summary per hand (``.hands``, the
    objects ``cinch-sim solve --format json`` prints) and their tables: ``hands``,
    ``tricks`` and ``cards``."""

    hands: list[dict[str, Any]]

    def table_names(self) -> tuple[str, ...]:
        return ("hands", "tricks", "cards")

    def solved(self) -> list[dict[str, Any]]:
        return [h for h in self.hands if h["status"] == "valid"]

    def _table(self, name: str):
        from cinch_sim.records.io import typed_frame

        rows = []
        for h in self.hands:
            where = {"line": h["line"], "hand": h.get("hand")}
            if name == "hands":
                row = {**where, "status": h["status"]}
                for k in ("maker", "maker_team", "bid", "trump", "dd_start", "points"):
                    row[k] = h.get(k)
                lost = h["lost"] or []
                for t, x in enumerate(lost):
                    row[f"lost_team{t}"] = x
                rows.append(row)
                continue
            for t in h.get("tricks", []):
                if name == "tricks":
                    row = {**where, "trick": t["trick"], "leader": t["leader"]}
                    row.update({"winner": t["winner"], "dd_start": t["dd_start"]})
                    row.update({f"lost_team{i}": x for i, x in enumerate(t["lost"])})
                    rows.append(row)
                else:
                    rows.extend({**where, "trick": t["trick"], **p} for p in t["plays"])
        types = {c: "string" if c in ("status", "trump", "card") else "Int64"
                 for c in SOLVE_COLUMNS[name] if c != "line"}  # fmt: skip
        return typed_frame(rows, types, SOLVE_COLUMNS[name] if not rows else ())

    def to_dict(self) -> dict[str, Any]:
        """Every hand's summary (each the object ``cinch-sim solve --format json``
        prints on its line) and the means over the solved hands."""
        return {"hands": list(self.hands), "means": self.means()}

    def means(self) -> dict[str, float | None]:
        """Per solved hand: the maker's side's double-dummy value at the start of play,
        its points, and what the maker's side and the other sides gave away, these two
        with their 95% intervals (Student's t over the hands; None for one hand)."""
        from cinch_sim.student import t_interval

        keys = ("dd_start", "points", "lost_maker", "lost_defenders")
        done = self.solved()
        if not done:  # no mean of nothing: empty, not 0
            return {
                k: None for k in (*keys, *(f"{k}_{e}" for k in keys[2:] for e in "lo hi".split()))
            }
        n = len(done)
        out: dict[str, float | None] = {
            "dd_start": sum(h["dd_start"] for h in done) / n,
            "points": sum(h["points"] for h in done) / n,
        }
        lost = {
            "lost_maker": [h["lost"][h["maker_team"]] for h in done],
            "lost_defenders": [sum(h["lost"]) - h["lost"][h["maker_team"]] for h in done],
        }
        for key, values in lost.items():
            mean, lo, hi, _ = t_interval(values, 0.0)
            out[key] = mean
            # no card gives away fewer than 0 points: the interval stops there
            out[f"{key}_lo"], out[f"{key}_hi"] = (None, None) if n < 2 else (max(lo, 0.0), hi)
        return out

    def headline(self) -> str:
        done = self.solved()
        n = len(self.hands)
        if n == 0:
            return "Solve: no records to solve (the input holds no lines but blank ones)"
        if not done:  # say what the lines were: not hands at all, or hands not played
            kinds = Counter(h["status"].replace("_", " ") for h in self.hands)
            why = N.joined([f"{k:,} {status}" for status, k in sorted(kinds.items())])
            return f"Solve: {n:,} line{'' if n == 1 else 's'}, none solved ({why})"
        m = self.means()
        hands = f"{len(done):,} hand{'' if len(done) == 1 else 's'}"

        def lost(key: str) -> str:
            if m[f"{key}_lo"] is None:
                return N.number(m[key])
            return N.number_with_interval(m[key], m[f"{key}_lo"], m[f"{key}_hi"], 2)

        return (
            f"Solve: {hands}: the maker's side {N.number(m['dd_start'])} points "
            f"a hand double-dummy, {N.number(m['points'])} taken; given away a hand: "
            f"maker's side {lost('lost_maker')}, defenders {lost('lost_defenders')}"
        )

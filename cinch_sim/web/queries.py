"""What the pages ask, checked as the command line checks it, and the answers as JSON.

Every request body is a JSON object; a field of the wrong type or value is a
``BadRequest`` with a one-line message (the page shows it, the server answers
400). The checks are the command line's: ``checks``, the advisor's
``make_query`` and the rules' presets, so a query the page accepts is one the
CLI accepts, and ``cli_command`` writes that command out.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import Any

from cinch_sim import checks
from cinch_sim.rules import VARIANTS, Rules

PLAYS = ("heuristic", "pimc", "dd")
MAX_RECORD_BYTES = 2_000_000  # a pasted or uploaded records file
MAX_RECORDS = 200  # hands reviewed in one request
# The advisor's stages per play: a quick answer first, then the command line's
# precision (0.01). PIMC costs about a second a deal, so it stops at a few deals.
ADVISE_STAGES: dict[str, tuple[dict[str, Any], ...]] = {
    "heuristic": ({"precision": 0.05}, {"precision": 0.02}, {"precision": 0.01}),
    "dd": ({"max_hands": 150}, {"precision": 0.03}, {"precision": 0.02}, {"precision": 0.01}),
    "pimc": ({"max_hands": 4}, {"max_hands": 20}, {"max_hands": 100}),
}


class BadRequest(ValueError):
    """A request the server cannot answer: its message is shown on the page."""


def _field(body: dict[str, Any], name: str, kinds: tuple[type, ...], default: Any = None) -> Any:
    value = body.get(name, default)
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise BadRequest(f"{name} must be {' or '.join(k.__name__ for k in kinds)}")
    return value


def body_of(raw: bytes, limit: int = MAX_RECORD_BYTES + 10_000) -> dict[str, Any]:
    """A request's JSON object, or a BadRequest saying what is wrong with it."""
    if len(raw) > limit:
        raise BadRequest(f"the request is too large ({len(raw):,} bytes, at most {limit:,})")
    try:
        body = json.loads(raw.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the request is not a JSON object") from None
    if not isinstance(body, dict):
        raise BadRequest("the request is not a JSON object")
    return body


def rules_of(body: dict[str, Any]) -> tuple[str, Rules]:
    variant = _field(body, "variant", (str,), "standard")
    if variant not in VARIANTS:
        raise BadRequest(f"variant {variant!r} is not one of {', '.join(VARIANTS)}")
    return variant, VARIANTS[variant]


def advise_query(body: dict[str, Any]) -> dict[str, Any]:
    """The advisor's keyword arguments from a request (checked: the hand, the seats,
    the bids, the variant and the play), and ``variant`` for the CLI command."""
    from cinch_sim.advisor import AdvisorError
    from cinch_sim.advisor.query import make_query
    from cinch_sim.cards import CardError

    variant, rules = rules_of(body)
    hand = _field(body, "hand", (str,), "")
    if not hand.strip():
        raise BadRequest("pick the cards of your hand")
    seat = _field(body, "seat", (int,))
    dealer = _field(body, "dealer", (int,), rules.players - 1)
    bids = _field(body, "bids", (str,), "")
    play = _field(body, "play", (str,), "heuristic")
    if play not in PLAYS:
        raise BadRequest(f"play {play!r} is not one of {', '.join(PLAYS)}")
    risk = _field(body, "risk", (int, float), 0.7)
    if not 0 < risk <= 1:
        raise BadRequest(f"risk {risk} must be above 0 and at most 1")
    precision = _field(body, "precision", (int, float), 0.01)
    if not 0.005 <= precision < 0.5:
        raise BadRequest(f"precision {precision} must be at least 0.005 and below 0.5")
    try:
        checks.seat(dealer, rules.players, "dealer")
        if seat is not None:
            checks.seat(seat, rules.players, "seat")
        make_query(hand, seat, dealer, bids or None, rules=rules)
    except (AdvisorError, CardError, checks.InputError) as exc:
        raise BadRequest(str(exc)) from None
    return {
        "hand": hand,
        "seat": seat,
        "dealer": dealer,
        "bids": bids or None,
        "play": play,
        "risk": float(risk),
        "precision": float(precision),
        "variant": variant,
    }


def cli_command(q: dict[str, Any]) -> str:
    """The same query as a command line."""
    parts = ["cinch-sim", "advise", q["hand"]]
    if q["seat"] is not None:
        parts += ["--seat", str(q["seat"])]
    parts += ["--dealer", str(q["dealer"])]
    if q["bids"]:
        parts += ["--bids", q["bids"]]
    if q["variant"] != "standard":
        parts += ["--variant", q["variant"]]
    if q["play"] != "heuristic":
        parts += ["--play", q["play"]]
    if q["risk"] != 0.7:
        parts += ["--risk", f"{q['risk']:g}"]
    if q["precision"] != 0.01:
        parts += ["--precision", f"{q['precision']:g}"]
    return " ".join(shlex.quote(p) for p in parts)


def advise_stages(q: dict[str, Any]) -> list[Callable[[Callable[..., None]], dict[str, Any]]]:
    """The advisor's stages for ``jobs.JobBoard``: each a whole query at its precision,
    cancelled between chunks of deals (its progress callback calls ``check``)."""
    from cinch_sim.advisor.present import advice_dict
    from cinch_sim.api import advise

    def stage(settings: dict[str, Any]):
        def run(check: Callable[..., None]) -> dict[str, Any]:
            adv = advise(
                q["hand"], q["seat"], q["dealer"], bids=q["bids"], variant=q["variant"],
                play=q["play"], risk=q["risk"], progress=check, **settings,
            )  # fmt: skip
            out = advice_dict(adv)
            out["cli"] = cli_command(q)
            out["rows"] = advice_rows(adv)
            return out

        return run

    want = q["precision"]  # the last stage's: the command line's 0.01 unless asked
    stages = [s for s in ADVISE_STAGES[q["play"]] if s.get("precision", 1.0) > want]
    if q["play"] != "pimc":
        stages.append({"precision": want})
    return [stage(s) for s in stages]


def advice_rows(adv: Any) -> dict[str, list[dict[str, Any]]]:
    """Per trump run, one row a bid as the page shows it (the notation's strings:
    intervals rounded outwards), with ``judged`` (enough deals as maker)."""
    from cinch_sim import notation as N
    from cinch_sim.cards import SUITS

    pw, _, _ = adv.p_win()
    pm, lo, hi = adv.p_make()
    sc = adv.score_change()
    judged = adv.judged()
    out: dict[str, list[dict[str, Any]]] = {}
    for s in adv.suits_run:
        rows = []
        for i, b in enumerate(adv.bids):
            c = i + 1
            rows.append(
                {
                    "bid": int(b),
                    "p_win": N.rate(pw[s, i], 0),
                    "p_make": N.rate(pm[s, i], 1),
                    "interval": N.rate_interval(lo[s, i], hi[s, i]),
                    "as_maker": int(adv.win[s, c]),
                    "judged": bool(judged[s, i]),
                    "ev": N.number(sc["ev"][s, c], 2, signed=True),
                    "ev_interval": N.interval(sc["ev_lo"][s, c], sc["ev_hi"][s, c], 2, True),
                }
            )
        out[SUITS[s]] = rows
    return out


def records_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The records pasted or uploaded (JSON Lines text), each a JSON object."""
    text = _field(body, "records", (str,), "")
    if not text.strip():
        raise BadRequest("paste or upload cinch-hand/1 records (JSON Lines)")
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise BadRequest(f"the records are too large (at most {MAX_RECORD_BYTES:,} bytes)")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            raise BadRequest(f"line {n} is not JSON: paste JSON Lines, one record a line") from None
        if not isinstance(obj, dict):
            raise BadRequest(f"line {n} is not a JSON object (a record)")
        out.append(obj)
        if len(out) > MAX_RECORDS:
            raise BadRequest(f"at most {MAX_RECORDS} records at once")
    return out


def review(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every record solved double-dummy (``cinch-sim solve``'s JSON), for the page."""
    from cinch_sim.api import solve

    rep = solve(records, from_trick="quick")  # two decks, six seats: the early tricks take minutes
    return {"hands": rep.hands}


def sample_records(body: dict[str, Any]) -> list[dict[str, Any]]:
    """One hand (or a few) from a run, as records: a seed and a play policy."""
    import os
    import tempfile

    from cinch_sim.api import simulate
    from cinch_sim.records.io import load_records

    seed = _field(body, "seed", (int,), 1)
    play = _field(body, "play", (str,), "heuristic")
    if play not in PLAYS:
        raise BadRequest(f"play {play!r} is not one of {', '.join(PLAYS)}")
    try:
        seed = checks.seed(seed)
    except checks.InputError as exc:
        raise BadRequest(str(exc)) from None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "hand.jsonl")
        simulate(hands=1, seed=seed, play=play, records=path, threads=1)
        return load_records(path)

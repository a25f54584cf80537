"""What the pages ask, checked as the command line checks it, and the answers as JSON.

Every request body is a JSON object; a field of the wrong type or value is a
``BadRequest`` with a one-line message (the page shows it, the server answers
400). The checks are the command line's: ``checks``, the advisor's
``make_query`` and the rules' presets, so a query the page accepts is one the
CLI accepts, and ``cli_command`` writes that command out.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cinch_sim import checks
from cinch_sim.rules import VARIANTS, Rules

PLAYS = ("heuristic", "pimc", "dd")
# how the other seats bid: the simulator's bidder, or one that passes more (a pass by the
# eldest hand, which the heuristic never makes when any bid from 1 is open, fits those)
BID_MODELS = ("heuristic", "traditional", "simple")
MAX_RECORD_BYTES = 2_000_000  # a pasted or uploaded records file
MAX_RECORDS = 200  # hands reviewed in one request
PIMC_DEALS = 200  # the most deals the page's PIMC plays (about 0.4 s each in the standard game)
# The advisor's stages per play: a quick answer first, then the command line's
# precision (0.01). PIMC stops at a few hundred deals, so few deals judge only the bids
# won at least half the time, and the page says so (``verdict``), as the command line
# marks a bid not judged with "*". A deal's cost under PIMC ranges from a third of a
# second (standard) to about 20 s (no_draw: nine tricks to solve), so a PIMC stage with
# ``seconds`` plays only as many deals (up to ``max_hands``) as the pace of the stage
# before it says fit in that time, so the last answer comes within the job's time limit
# (heasly, about 4 s a deal: 4, 7 and 29 deals, the final answer in 177 s; the pace of
# a few deals is rough, hence the margin).
PRECISION = 0.01  # the last stage's 95% half-width: the command line's own
ADVISE_STAGES: dict[str, tuple[dict[str, Any], ...]] = {
    "heuristic": ({"precision": 0.05}, {"precision": 0.02}, {"precision": 0.01}),
    "dd": ({"max_hands": 150}, {"precision": 0.03}, {"precision": 0.02}, {"precision": 0.01}),
    "pimc": (
        {"max_hands": 4},
        {"max_hands": 20, "seconds": 40},
        {"max_hands": PIMC_DEALS, "seconds": 120},
    ),
}
# A bid not judged (won as the maker on fewer than the advisor's 100 deals) though won
# at least this share of the auctions was cut short by the deals played, not by its
# rarity: while one is left, the answer is no verdict yet.
OPEN_SHARE = 0.1


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


def advise_query(body: dict[str, Any], precision: float = PRECISION) -> dict[str, Any]:
    """The advisor's keyword arguments from a request (checked: the hand, the seats,
    the bids, the variant and the play), and ``variant`` for the CLI command;
    ``precision``, the last stage's half-width where the request names none (the
    server's: ``serve --precision``)."""
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
    bid_model = _field(body, "bid_model", (str,), "heuristic")
    if bid_model not in BID_MODELS:
        raise BadRequest(f"bid model {bid_model!r} is not one of {', '.join(BID_MODELS)}")
    risk = _field(body, "risk", (int, float), 0.7)
    if not 0 < risk <= 1:
        raise BadRequest(f"risk {risk} must be above 0 and at most 1")
    precision = _field(body, "precision", (int, float), precision)
    if not 0.005 <= precision < 0.5:
        raise BadRequest(f"precision {precision} must be at least 0.005 and below 0.5")
    try:
        checks.seat(dealer, rules.players, "dealer")
        if seat is not None:
            checks.seat(seat, rules.players, "seat")
        make_query(hand, seat, dealer, None, rules=rules)  # the hand's own errors first
    except (AdvisorError, CardError, checks.InputError) as exc:
        raise BadRequest(str(exc)) from None
    try:
        make_query(hand, seat, dealer, bids or None, rules=rules)
    except AdvisorError as exc:
        raise BadRequest(_bids_error(hand, seat, dealer, bids, rules, str(exc))) from None
    return {
        "hand": hand,
        "seat": seat,
        "dealer": dealer,
        "bids": bids or None,
        "play": play,
        "bid_model": bid_model,
        "risk": float(risk),
        "precision": float(precision),
        "variant": variant,
    }


def _bids_error(
    hand: str, seat: int | None, dealer: int, bids: str, rules: Rules, message: str
) -> str:
    """A bids error; with no seat chosen, and bids that fit another seat, it says that the
    eldest hand was assumed (the bids were read as those before it): choose your seat."""
    from cinch_sim.advisor import AdvisorError
    from cinch_sim.advisor.query import make_query

    if seat is not None:
        return message
    for other in range(rules.players):
        try:
            make_query(hand, other, dealer, bids, rules=rules)
        except AdvisorError:
            continue
        eldest = rules.turn_order(dealer)[0]
        return (
            f"{message}. No seat was chosen, so the eldest hand (seat {eldest}) was assumed: "
            "choose your seat"
        )
    return message


def cli_command(q: dict[str, Any], max_hands: int | None = None) -> str:
    """The same query as a command line (PIMC's: on the deals its last stage plays,
    ``max_hands``, at most ``PIMC_DEALS``)."""
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
    if q["bid_model"] != "heuristic":
        parts += ["--bid-model", q["bid_model"]]
    if q["play"] == "pimc":  # the page's last PIMC stage: so many deals, no more
        parts += ["--max-hands", str(max_hands or PIMC_DEALS)]
    if q["risk"] != 0.7:
        parts += ["--risk", f"{q['risk']:g}"]
    if q["precision"] != PRECISION:
        parts += ["--precision", f"{q['precision']:g}"]
    return " ".join(shlex.quote(p) for p in parts)


def advise_stages(q: dict[str, Any]) -> list[Callable[[Callable[..., None]], dict[str, Any]]]:
    """The advisor's stages for ``jobs.JobBoard``: each a whole query at its precision,
    cancelled between chunks of deals (its progress callback calls ``check``)."""
    from cinch_sim.advisor.present import advice_dict
    from cinch_sim.api import advise

    last: dict[str, Any] = {}  # the stage before: its answer, deals and seconds a deal

    def stage(settings: dict[str, Any]):
        def run(check: Callable[..., None]) -> dict[str, Any]:
            wanted = dict(settings)
            seconds = wanted.pop("seconds", None)
            if seconds is not None and last:
                fit = int(seconds / max(last["pace"], 1e-9))
                wanted["max_hands"] = min(wanted["max_hands"], fit)
                if wanted["max_hands"] <= last["hands"]:
                    return last["out"]  # no more deals fit: the last answer stands
            began = time.perf_counter()
            adv = advise(
                q["hand"], q["seat"], q["dealer"], bids=q["bids"], variant=q["variant"],
                play=q["play"], risk=q["risk"], progress=check,
                bid_model=None if q["bid_model"] == "heuristic" else q["bid_model"], **wanted,
            )  # fmt: skip
            out = advice_dict(adv)
            out["cli"] = cli_command(q, wanted.get("max_hands"))  # this answer's deals
            out.update(verdict_of(adv))
            out["rows"] = advice_rows(adv)
            out.update(table_notes(adv))
            pace = (time.perf_counter() - began) / max(adv.hands, 1)
            last.update(out=out, hands=adv.hands, pace=pace)
            return out

        return run

    no_bid = _no_bid_left(q)
    if no_bid is not None:  # nothing to deal: the earlier bids took the top one
        return [lambda check: no_bid]
    want = q["precision"]  # the last stage's: the command line's 0.01 unless asked
    stages = [s for s in ADVISE_STAGES[q["play"]] if s.get("precision", 1.0) > want]
    if q["play"] != "pimc":
        stages.append({"precision": want})
    return [stage(s) for s in stages]


def _no_bid_left(q: dict[str, Any]) -> dict[str, Any] | None:
    """The answer when an earlier seat made the highest bid there is: pass, with no deal
    played (the advisor would deal to match a bid the bots rarely make, and refuse it
    as too rare to sample); None while a bid is left."""
    from cinch_sim.advisor.query import make_query

    rules = VARIANTS[q["variant"]]
    query = make_query(q["hand"], q["seat"], q["dealer"], q["bids"], rules=rules)
    if query.legal_bids or not query.may_pass:
        return None
    advice = f"Pass: {query.high_bid} is the highest bid there is, so no bid is left for you."
    return {
        "advice": f"Advice: {advice[0].lower()}{advice[1:]}",
        "summary": advice,
        "verdict": True,
        "call": "pass",
        "seat": query.seat,
        "legal_bids": [],
        "best_trump": None,
        "risk": q["risk"],
        "hands": 0,
        "precision": None,
        "by_trump": {},
        "rows": {},
        "table_trump": None,
        "cli": cli_command(q),
    }


def verdict_of(adv: Any) -> dict[str, Any]:
    """What the page says beside the advisor's sentence: ``summary``, the advice as
    the page shows it; ``verdict``, False while a bid won often enough to matter is not
    yet judged (too few deals: PIMC's, a first stage's), when the advisor's "pass" only
    means "no bid judged yet"; ``table_trump``, the suit the table shows (the best, or
    with no bid judged, the one taking the most points as the maker)."""
    from cinch_sim.cards import SUITS

    judged = adv.judged()
    s = adv.best_trump_index
    if not judged[adv.suits_run].any():
        mean = np.nan_to_num(adv.mean_points(), nan=-1.0)
        s = max(adv.suits_run, key=lambda x: mean[x])
    pw, _, _ = adv.p_win()
    bids = [int(b) for b in adv.bids]
    open_bids = [b for i, b in enumerate(bids) if not judged[s, i] and pw[s, i] >= OPEN_SHARE]
    line = adv.to_dict()["advice"].removeprefix("Advice: ")
    out = {"verdict": not open_bids, "table_trump": SUITS[s], "open_bids": open_bids}
    if not open_bids:
        return {**out, "summary": line}
    need = _deals_needed(pw[s], judged[s], adv.min_maker)
    out["deals_needed"] = need
    one = len(open_bids) == 1
    them, they = ("it", "it was") if one else ("them", "they were")
    # the command below is this answer's: under PIMC it names the deals it played
    below = f"the command below with --max-hands {need}"
    if "pimc" in adv.policies.get("play", []):
        below += f" in place of {adv.max_hands}"
    more = f"about {need:,} deals would judge {them} ({below})"
    if "pimc" in adv.policies.get("play", []) and need > PIMC_DEALS:  # the page stops there
        more = (
            f"about {need:,} deals would judge {them}, more than this page plays under PIMC "
            f"({_pace(adv)}): {_dd_instead(adv)}{below} plays them"
        )
    if not judged[s].any():
        head = (
            f"No verdict yet: after {adv.hands:,} deals no bid has been won as the maker on the "
            f"{adv.min_maker} deals the advisor needs to judge it; {more}."
        )
    else:  # the advice on the bids judged first, then what is still open
        head = (
            f"{line} Not judged yet: bid{'' if one else 's'} {_span(open_bids)}, in "
            f"{adv.hands:,} deals {they} won as the maker fewer than the {adv.min_maker} "
            f"times a verdict needs; {more}."
        )
    return {**out, "summary": head}


def _dd_instead(adv: Any) -> str:
    """The page's other way to more deals, where perfect play can play the game (not
    with two decks or six seats: ``solver.limits.require_dd``)."""
    from cinch_sim.checks import InputError
    from cinch_sim.solver.limits import require_dd

    try:
        require_dd(adv.query.rules, "play")
    except InputError:
        return ""
    return (
        "play 'double-dummy (perfect play)' answers on far more deals here (in the "
        "standard game a first answer in seconds, the final one in about a minute), or "
    )


def _pace(adv: Any) -> str:
    """PIMC's cost a deal in this query, as measured: it ranges from a third of a second
    (standard) to about 20 s (no_draw), and with the host's speed."""
    per = adv.seconds / max(adv.hands, 1)
    return f"about {per:.1f} s a deal here" if per >= 0.1 else "under 0.1 s a deal here"


def _deals_needed(p_win: Any, judged: Any, min_maker: int) -> int:
    """Deals that would judge every bid won at least ``OPEN_SHARE`` of the time: the
    least often won of them needs ``min_maker`` wins, rounded up to a hundred."""
    shares = [p for p, j in zip(p_win, judged, strict=True) if not j and p >= OPEN_SHARE]
    return int(math.ceil(min_maker / min(shares) / 100) * 100)


def _span(bids: list[int]) -> str:
    """``[7, 8, 9]`` -> ``7 to 9``; one bid alone; gaps listed."""
    if len(bids) > 1 and bids == list(range(bids[0], bids[-1] + 1)):
        return f"{bids[0]} to {bids[-1]}"
    return ", ".join(map(str, bids))


def ranked_by_margin(adv: Any) -> bool:
    """Whether no deal fits passing (the dealer stuck after all others passed, under
    ``all_pass=dealer_forced_any``): there is no ev against pass, and the advisor ranks
    the bids by their own expected margins (own - opp), as the page's table then does."""
    return int(adv.n[0]) == 0


def table_notes(adv: Any) -> dict[str, Any]:
    """What the page says under the table, as the command line does under its own:
    ``margins`` (the table's ev column holds each bid's own margin, no pass to compare
    with), ``stuck_note`` (why: the dealer may not pass; None otherwise) and
    ``score_change`` (what ev, own and opp mean at this table: cut-throat, "your score
    change minus the average opponent's"), the advisor's own words."""
    from cinch_sim.advisor.present import STUCK_NOTE, dealer_pass_note, ev_note

    margins = ranked_by_margin(adv)
    note = None
    if not adv.query.may_pass:
        note = f"({STUCK_NOTE})"
    elif margins:
        note = "(no deal fits passing: the bids are ranked by their own margins)"
    elif dealer := dealer_pass_note(adv):
        note = f"({dealer})"
    # the page's table has no own and opp columns: the note names only what it shows
    return {"margins": margins, "stuck_note": note,
            "score_change": ev_note(adv, sides=False, margins=margins)}  # fmt: skip


def advice_rows(adv: Any) -> dict[str, list[dict[str, Any]]]:
    """Per trump run, one row a bid as the page shows it (the notation's strings:
    intervals rounded outwards), with ``judged`` (enough deals as maker); a bid not
    judged shows its estimates without intervals, which so few deals make meaningless
    (four deals: an ev interval of +-37 points). A bid never won as the maker has no
    ev (its deals are passing's: "0.00" read as a judgement); where no deal fits
    passing (``ranked_by_margin``) ``ev`` is the bid's own expected margin, own - opp,
    with its interval, as the advisor ranks the bids then."""
    from cinch_sim import notation as N
    from cinch_sim.cards import SUITS

    pw, _, _ = adv.p_win()
    pm, lo, hi = adv.p_make()
    sc = adv.score_change()
    judged = adv.judged()
    margins = ranked_by_margin(adv)
    own_margin, margin_lo, margin_hi = adv.margin()
    ev, ev_lo, ev_hi = (
        (own_margin, margin_lo, margin_hi) if margins else (sc["ev"], sc["ev_lo"], sc["ev_hi"])
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for s in adv.suits_run:
        rows = []
        for i, b in enumerate(adv.bids):
            c = i + 1
            won = adv.win[s, c] > 0
            rows.append(
                {
                    "bid": int(b),
                    "p_win": N.rate_whole(pw[s, i]),
                    "p_make": N.rate(pm[s, i], 1),
                    "interval": N.rate_interval(lo[s, i], hi[s, i]) if judged[s, i] else N.DASH,
                    "as_maker": int(adv.win[s, c]),
                    "judged": bool(judged[s, i]),
                    "ev": N.number(ev[s, c], 2, signed=True) if won else N.DASH,
                    "ev_interval": (
                        N.interval(ev_lo[s, c], ev_hi[s, c], 2, True) if judged[s, i] else N.DASH
                    ),
                }
            )
        out[SUITS[s]] = rows
    return out


def records_of(body: dict[str, Any]) -> list[Any]:
    """The pasted records' lines, each parsed or carrying its error (``records.io.Line``):
    a line that is not a record is reviewed as an invalid entry beside the good ones
    (with no record at all, the first line's fault is the answer)."""
    from cinch_sim.records.io import iter_lines

    text = _field(body, "records", (str,), "")
    if not text.strip():
        raise BadRequest("paste or upload cinch-hand/1 records (JSON Lines)")
    if len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise BadRequest(f"the records are too large (at most {MAX_RECORD_BYTES:,} bytes)")
    out = list(iter_lines(text.encode("utf-8").splitlines(keepends=True)))
    if len(out) > MAX_RECORDS:
        raise BadRequest(f"at most {MAX_RECORDS} records at once")
    if not any(isinstance(ln.data, dict) for ln in out):  # no record at all: say why
        first = out[0]
        if first.error is not None:
            raise BadRequest(
                f"line {first.number} is not JSON: paste JSON Lines, one record a line"
            )
        raise BadRequest(f"line {first.number} is not a JSON object (a record)")
    return out


def review(records: list[Any]) -> dict[str, Any]:
    """Every record solved double-dummy (``cinch-sim solve``'s JSON), for the page."""
    from cinch_sim.api import solve

    rep = solve(records, from_trick="quick")  # two decks, six seats: the early tricks take minutes
    return {"hands": [with_sides(h) for h in rep.hands]}


def with_sides(hand: dict[str, Any]) -> dict[str, Any]:
    """A solved hand with ``partnerships`` (from its rules, where it was solved): the page
    names the sides "side 0" and "the maker's side", or in cut-throat "seat 0" and "the
    maker"."""
    rules = getattr(hand, "rules", None)
    if rules is not None:
        hand["partnerships"] = bool(rules.partnerships)
    return hand


def variants() -> dict[str, dict[str, Any]]:
    """The presets the pages offer: players, cards, decks, partnerships, ``dd``, why
    double-dummy play cannot advise under it, the server's refusal (None where it
    can: ``solver.limits.require_dd``), and the preset's description for its menu."""
    from cinch_sim.rules import PRESETS
    from cinch_sim.solver.limits import require_dd

    words = {p.name: p.description for p in PRESETS}
    out = {}
    for name, r in VARIANTS.items():
        try:
            require_dd(r, "play")
            dd = None
        except checks.InputError as exc:
            dd = exc.problem
        out[name] = {"players": r.players, "cards": r.cards_dealt, "decks": r.decks,
                     "partnerships": bool(r.partnerships), "dd": dd,
                     "description": words.get(name, "")}  # fmt: skip
    return out


def page_seed(value: object) -> int:
    """A seed as a page sends it: digits (a browser's numbers lose digits past 2**53, so
    2**53 and 2**53 + 1 would deal one hand) or a whole number, 0 .. 2**64 - 1; the
    sample's and a game's (``table.Table``) alike."""
    if isinstance(value, str):
        if not re.fullmatch(r"[0-9]+", value.strip()):
            raise BadRequest(f"seed {value!r} must be a whole number, 0 or more")
        value = int(value.strip())
    try:
        return checks.seed(value)
    except checks.InputError as exc:
        raise BadRequest(str(exc)) from None


def sample_records(body: dict[str, Any]) -> list[dict[str, Any]]:
    """One hand from a run, as records: a seed, a variant and a play policy."""
    import os
    import tempfile

    from cinch_sim.api import simulate
    from cinch_sim.records.io import load_records

    seed = page_seed(_field(body, "seed", (int, str), 1))
    variant, rules = rules_of(body)
    play = _field(body, "play", (str,), "heuristic")
    if play not in PLAYS:
        raise BadRequest(f"play {play!r} is not one of {', '.join(PLAYS)}")
    try:
        if play == "dd":
            from cinch_sim.solver.limits import require_dd

            require_dd(rules, "play")
    except checks.InputError as exc:
        raise BadRequest(str(exc)) from None
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "hand.jsonl")
        simulate(hands=1, seed=seed, play=play, variant=variant, records=path, threads=1)
        return load_records(path)

"""An ``Advice`` for people and programs: the one advice line, the reason, the text
table the command line prints, the JSON dict, a pandas DataFrame and the chart.

Only numbers an ``Advice`` computed are shown here (``evaluate_hand`` is
``advise`` followed by ``advice_frame``). pandas (``advice_frame``) and
matplotlib (``plot_advice``) are imported when asked for, so the command line
stays quick.
"""

from __future__ import annotations

from typing import Any

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.analysis.intervals import SAFE_MEANING, TIE_POINTS
from cinch_sim.cards import SUIT_NAMES, SUITS, format_card, pretty_card
from cinch_sim.rules import seat_name
from cinch_sim.version import __version__

# an advisor.estimate.Advice: estimate imports this module for the views, not the
# other way round, so the type is named here and not imported
Advice = Any

RISK_NOTE = (
    "risk: the make rate you insist on; the safe bid is the highest bid that is safe at "
    "the risk: " + SAFE_MEANING
)


def ev_text(alone: bool, sides: bool = True, margins: bool = False) -> str:
    """What the table's ev means: the expected score margin against passing, or
    (``margins``: a dealer who may not pass) each bid's own margin; ``alone``: in
    cut-throat, against the average opponent; ``sides``: also the own and opp columns
    the command line shows (the web page's table has none)."""
    whose = (
        "your score change minus the average opponent's, being overbid and the other "
        "players' points included"
        if alone
        else "your side's score change minus the opponents', being overbid and the "
        "defence's points included"
    )
    text = (
        f"{'margin' if margins else 'ev'}: the expected score margin over the whole hand ({whose})"
    )
    text += " of each bid on its own" if margins else " against passing on the same deals"
    if sides:
        text += (
            "; own: yours, opp: the average opponent's"
            if alone
            else "; own, opp: each side's expected score change"
        )
    return text


EV_NOTE = ev_text(alone=False)
EV_NOTE_ALONE = ev_text(alone=True)  # cut-throat: every player a side of his own


def ev_note(adv: Advice, sides: bool = True, margins: bool | None = None) -> str:
    """What ``ev`` (``own`` and ``opp`` with ``sides``) means at this table; ``margins``
    (by default: when no deal fits passing, a stuck dealer's) each bid's own margin."""
    if margins is None:
        margins = bool(adv.n[0] == 0)
    return ev_text(not adv.query.rules.partnerships, sides, margins)


ASSUMED_SEAT = " (no seat given: the eldest hand assumed; --seat to change)"
# the decimals of an expected margin, in the sentence as in the tables beside it (a
# reader compared "+0.1 [-0.1, +0.3]" with the table's "+0.08 [-0.04, +0.21]")
EV_DIGITS = 2


# ------------------------------------------------------------------ sentences
def _col(adv: Advice, b: int) -> int:
    """The column of bid ``b`` in the [suit, bid] arrays."""
    return list(adv.bids).index(b)


def _bid_phrase(adv: Advice, b: int, s: int) -> str:
    """``bid 9 in spades: wins the auction 74% of the time and makes it 81%``."""
    i = _col(adv, b)
    pw, _, _ = adv.p_win()
    pm, _, _ = adv.p_make()
    return (
        f"bid {b} in {SUIT_NAMES[SUITS[s]]}: wins the auction {N.rate_whole(pw[s, i])} of the "
        f"time and makes it {N.rate(pm[s, i], 0)}"
    )


def advice_line(adv: Advice) -> str:
    """The advice in one line a player can act on: the best-EV bid (or pass) with its
    chances and its expected gain over passing, and the safe bid beside it."""
    q = adv.query
    s = adv.best_trump_index
    sc = adv.score_change()
    if not q.legal_bids:
        return f"Advice: pass ({adv.pass_reason})."
    best = adv.best_ev_bid
    if best is None:
        d = adv.per_suit()[s]
        main = f"pass: {adv.pass_reason}"
        if q.names_trump_on_pass:
            main = (
                f"pass and name {SUIT_NAMES[SUITS[s]]} trump (all passed: as dealer you are "
                f"then the maker at contract 0): {adv.pass_reason}"
            )
        if d["top_ev_bid"] is not None:
            c = 1 + _col(adv, d["top_ev_bid"])
            ev = N.number_with_interval(
                sc["ev"][s, c], sc["ev_lo"][s, c], sc["ev_hi"][s, c], EV_DIGITS, True
            )
            main += (  # the best of the bids judged: a bid won on few deals is not one
                f" (the best of the bids won on {adv.min_maker:,} deals or more, "
                f"{_bid_phrase(adv, d['top_ev_bid'], s)}, expected {ev} against pass)"
            )
    elif adv.n[0] == 0:  # no deal fits passing and the later passes given
        c = 1 + _col(adv, best)
        m, m_lo, m_hi = (x[s, c] for x in adv.margin())
        margin = N.number_with_interval(m, m_lo, m_hi, EV_DIGITS, True)
        main = f"{_bid_phrase(adv, best, s)}; expected margin {margin}"
        main += _tied_note(adv)
    else:
        c = 1 + _col(adv, best)
        ev = N.number_with_interval(
            sc["ev"][s, c], sc["ev_lo"][s, c], sc["ev_hi"][s, c], EV_DIGITS, True
        )
        main = f"{_bid_phrase(adv, best, s)}; expected {ev} against pass" + _tied_note(adv)
    safe = adv.safe_bid
    _, lo, _ = adv.p_make()
    if safe is None:
        safe_part = (
            f"no bid is made at least {N.rate(adv.risk, 0)} of the time with 95% confidence"
            + _unproven_note(adv, s)
        )
    else:
        low = N.rate_floor(lo[s, _col(adv, safe)], 0)
        safe_part = (
            f"bid {safe} in {SUIT_NAMES[SUITS[s]]} (makes it at least {low}, 95% lower bound)"
            + _above_best_note(adv, s, best, safe)
        )
    return f"Advice: {main}. Highest safe bid at {N.rate(adv.risk, 0)}: {safe_part}."


def _above_best_note(adv: Advice, s: int, best: int | None, safe: int) -> str:
    """Where the highest safe bid is above the advised one and not named as good as it:
    made as often, it expects less (a higher contract loses more when set). Said, or a
    player reads "bid 10 ... highest safe bid 11" as a contradiction."""
    if best is None or safe <= best or safe in (adv.tied_bids or ()):
        return ""  # below the advised bid, or named as good as it already
    value = adv.margin()[0] if adv.n[0] == 0 else adv.score_change()["ev"]
    gap = value[s, 1 + _col(adv, best)] - value[s, 1 + _col(adv, safe)]
    if not gap >= 0.5 * 10**-EV_DIGITS:  # a tie to the shown digits (or unknown)
        return f"; it expects about as much as bid {best}"
    return (
        f"; safe too, but it expects {N.number(gap, EV_DIGITS)} points a hand less than bid "
        f"{best}: a higher contract loses more when set"
    )


STORED_NO_TIES = " (stored before the advisor compared bids with each other: which bids are "
STORED_NO_TIES += "as good is not known)"
TIES_WITHIN = f"the noise of these deals or {TIE_POINTS:g} points"


def _tied_note(adv: Advice) -> str:
    """`` (bids 10 and 12 in spades are as good within the noise ...)``: the bids whose
    expected margin the deals cannot tell from the advised one's; nothing when none,
    and that it is not known for advice stored before the pairs were kept."""
    tied = adv.tied_bids
    if tied is None:
        return STORED_NO_TIES
    if not tied:
        return ""
    words = N.joined([str(b) for b in tied])
    subject = f"bid {words}" if len(tied) == 1 else f"bids {words}"
    verb = "is" if len(tied) == 1 else "are"
    suit = SUIT_NAMES[SUITS[adv.best_trump_index]]
    return f" ({subject} in {suit} {verb} as good, within {TIES_WITHIN})"


def _unproven_note(adv: Advice, s: int) -> str:
    """When no bid is safe only for want of deals (a judged bid's make rate is at the
    risk or above, its interval's lower end under it), say so: else a strong hand
    advised on a few hundred deals reads as a hand with no safe bid at all."""
    pm, lo, hi = adv.p_make()
    judged = adv.judged()[s]
    near = [i for i, b in enumerate(adv.bids) if judged[i] and pm[s, i] >= adv.risk > lo[s, i]]
    if not near:
        return ""
    i = max(near, key=lambda j: adv.bids[j])
    return (
        f" on these {adv.hands:,} deals (bid {adv.bids[i]} makes it "
        f"{N.rate_with_interval(pm[s, i], lo[s, i], hi[s, i], 0)}: more deals may show it safe)"
    )


def advice_reason(adv: Advice) -> str:
    """One line: why this bid, in this trump (the advice line without its label)."""
    return advice_line(adv).removeprefix("Advice: ").removesuffix(".") + _dealer_note(adv)


STUCK_DEALER = "all others passed: as dealer you may not pass (this game's rule)"
# what the table shows instead of ev when passing is not open to the dealer
STUCK_NOTE = f"{STUCK_DEALER}: the bids are ranked by their own margins"


def dealer_pass_note(adv: Advice) -> str | None:
    """Why a dealer's low bids show an ev near 0 (a review read 0.00 beside bids made
    100% as a fault): under the default all-pass rule, on the deals where every other
    seat passes, his own pass names trump at contract 0 and scores what a made bid
    would. None where that cannot happen (another seat, a bid before him, another
    rule, or every other seat known to have passed: the advice says so itself)."""
    q = adv.query
    if q.seat != q.dealer or q.rules.all_pass != "dealer_no_contract" or q.high_bid > 0:
        return None
    if q.names_trump_on_pass or not q.may_pass:
        return None
    return (
        "as dealer, on the deals where every other seat passes, your pass names trump at "
        "contract 0 and scores what a made bid would: there a low bid gains nothing"
    )


def _dealer_note(adv: Advice) -> str:
    """The dealer after all others passed: still names trump if he passes (the default
    all-pass rule), or may not pass (``dealer_forced_any``)."""
    q = adv.query
    if q.names_trump_on_pass and adv.call != "pass":  # (the line names the trump of a pass)
        return " (all passed: as dealer you still name trump, at contract 0, if you pass)"
    if not q.may_pass:
        return f" ({STUCK_DEALER})"
    return ""


def playout_note(adv: Advice) -> str:
    """How the deals were played."""
    return (
        "for each candidate bid and suit you bid it and the other seats bid, play and "
        "defend with their own policies, on the same deals"
    )


# ----------------------------------------------------------------- JSON, pandas
def _f(x: Any) -> float | None:
    """A float for JSON; NaN (a rate with no trials) as None."""
    x = float(x)
    return None if x != x else x


def advice_dict(adv: Advice) -> dict[str, Any]:
    """Everything as plain JSON-ready values (what ``--format json`` prints)."""
    q = adv.query
    return {
        "version": __version__,  # as every other command's JSON: which code answered
        "hand": [format_card(c) for c in q.hand],
        "seat": q.seat,
        "dealer": q.dealer,
        "bids_before": [{"seat": s, "bid": None if b == L.BID_PASS else b} for s, b in q.bids],
        "later_passes": list(q.later_passes),
        "known": {str(s): [format_card(c) for c in cs] for s, cs in q.known.items()},
        "seat_assumed": adv.seat_assumed,
        "legal_bids": q.legal_bids,
        # the calls before the player as a phrase, those not given named: seat 1 not given
        "bids_text": q.bids_text(),
        "call": adv.call,
        "pass_reason": adv.pass_reason,
        "min_maker_deals": adv.min_maker,
        "best_trump": adv.best_trump,
        "best_ev_bid": adv.best_ev_bid,
        "tied_bids": adv.tied_bids,
        "safe_bid": adv.safe_bid,
        "risk": adv.risk,
        "advice": advice_line(adv),
        "reason": advice_reason(adv),
        "risk_note": RISK_NOTE,
        "score_change": ev_note(adv),
        "precision": adv.precision_reached(),
        "precision_target": adv.precision_target,
        "hands": adv.hands,
        "max_hands": adv.max_hands,
        "deals_tried": adv.tried,
        # with pools nearly every deal fits: no acceptance to speak of
        "acceptance_rate": adv.hands / adv.tried if adv.tried and adv.pools is None else None,
        "pools": adv.pools,
        "read_with": {str(k): v for k, v in adv.read_with.items()},
        "read_with_note": read_with_note(adv),
        "pool_counts": adv.pool_counts,
        "pool_deal_cap": adv.pool_cap,
        "kernel_hands": adv.played,
        "rounds": adv.rounds,
        "interrupted": adv.interrupted,
        "playouts": playout_note(adv),
        "seed": adv.seed,
        "seconds": round(adv.seconds, 3),
        "rules": q.rules.describe(),
        "policies": adv.policies,
        "by_trump": _by_trump(adv),
    }


def _by_trump(adv: Advice) -> dict[str, Any]:
    """Suit letter -> pass and each candidate bid's P(win), P(make | maker), both sides'
    expected score change and ev against pass; the points and key cards at the top bid."""
    pw, wlo, whi = adv.p_win()
    pm, lo, hi = adv.p_make()
    sc = adv.score_change()
    pp, plo, phi = adv.pedro_rates()
    hist = adv.own_hist()
    suits = adv.per_suit()
    mean, mean_lo, mean_hi = adv.mean_points_interval()
    margin, margin_lo, margin_hi = adv.margin()
    judged = adv.judged()  # [suit, bid]: won on enough deals to be advised
    by_trump: dict[str, Any] = {}
    for s in adv.suits_run:
        bids = {}
        best = _advised_column(adv, suits[s])
        for c, b in enumerate(adv.candidates):
            i = c - 1
            entry = {
                "p_win_auction": _f(pw[s, i]) if c else None,
                "p_win_lo": _f(wlo[s, i]) if c else None,
                "p_win_hi": _f(whi[s, i]) if c else None,
                "p_make": _f(pm[s, i]) if c else None,
                "p_make_lo": _f(lo[s, i]) if c else None,
                "p_make_hi": _f(hi[s, i]) if c else None,
                "ev": _f(sc["ev"][s, c]),
                "ev_lo": _f(sc["ev_lo"][s, c]),
                "ev_hi": _f(sc["ev_hi"][s, c]),
                **_vs_best(adv, s, c, best),
                "own": _f(sc["own"][s, c]),
                "opp": _f(sc["opp"][s, c]),
                # the bid's own margin (own - opp): its rank where no deal fits passing
                "margin": _f(margin[s, c]),
                "margin_lo": _f(margin_lo[s, c]),
                "margin_hi": _f(margin_hi[s, c]),
                "deals": int(adv.n[c]),
                "as_maker": int(adv.win[s, c]),
                "judged": bool(judged[s, i]) if c else None,
            }
            bids["pass" if c == 0 else str(int(b))] = entry
        d = suits[s]
        n_top = int(hist[s].sum())
        by_trump[SUITS[s]] = {
            "name": SUIT_NAMES[SUITS[s]],
            "mean_points": _f(mean[s]),
            "mean_points_lo": _f(mean_lo[s]),
            "mean_points_hi": _f(mean_hi[s]),
            "points_dist": (hist[s] / max(n_top, 1)).tolist(),
            "pedros": {
                name: {"p": _f(pp[s, j]), "lo": _f(plo[s, j]), "hi": _f(phi[s, j])}
                for j, name in enumerate(adv.key_cards())
            },
            "best_ev_bid": d["best_ev_bid"],
            "tied_bids": d["tied_bids"],
            "safe_bid": d["safe_bid"],
            "bids": bids,
        }
    return by_trump


def _advised_column(adv: Advice, d: dict[str, Any]) -> int | None:
    """The candidate column of a suit's advice (``per_suit``'s row ``d``): its best-EV
    bid, or pass where no bid beats passing; where no deal fits passing, the bid with
    the best own margin (None: no bid was judged)."""
    if d["best_ev_bid"] is not None:
        return 1 + _col(adv, d["best_ev_bid"])
    if adv.n[0] > 0:
        return 0
    return None if d["top_ev_bid"] is None else 1 + _col(adv, d["top_ev_bid"])


def _vs_best(adv: Advice, s: int, c: int, best: int | None) -> dict[str, float | None]:
    """``vs_best`` with its interval: candidate ``c``'s margin less that of the suit's
    advice (column ``best``: ``_advised_column``) on the same deals (None where there
    is none or no pair kept)."""
    nan = float("nan")
    m, lo, hi = adv._versus(s, c, best) if best is not None else (nan, nan, nan)
    return {"vs_best": _f(m), "vs_best_lo": _f(lo), "vs_best_hi": _f(hi)}


def advice_frame(adv: Advice):
    """Long table: one row per trump and candidate (pass as bid 0, then each legal bid,
    whole numbers to sort and compare; pandas imported here). ``df.attrs["advice"]``
    holds the advice (best trump, best-EV bid, safe bid, ...), ``df.attrs["by_trump"]``
    the per-suit detail."""
    import pandas as pd

    pw, wlo, whi = adv.p_win()
    pm, lo, hi = adv.p_make()
    sc = adv.score_change()
    suits = adv.per_suit()
    judged = adv.judged()  # [suit, bid]: won on enough deals to be advised
    nan = float("nan")
    rows = []
    for s in adv.suits_run:
        best = _advised_column(adv, suits[s])
        for c, b in enumerate(adv.candidates):
            i = c - 1
            vs = {k: nan if v is None else v for k, v in _vs_best(adv, s, c, best).items()}
            rows.append(
                {
                    "trump": SUITS[s],
                    "bid": 0 if c == 0 else int(b),  # 0: pass, as the kernel numbers it
                    "p_win_auction": pw[s, i] if c else nan,
                    "p_win_lo": wlo[s, i] if c else nan,
                    "p_win_hi": whi[s, i] if c else nan,
                    "p_make": pm[s, i] if c else nan,
                    "p_make_lo": lo[s, i] if c else nan,
                    "p_make_hi": hi[s, i] if c else nan,
                    # the deals the seat won the auction with it, and whether that is
                    # enough to advise it (min_maker_deals): an unjudged bid's rates
                    # rest on few deals
                    "as_maker": int(adv.win[s, c]) if c else 0,
                    "judged": bool(judged[s, i]) if c else False,
                    "ev": sc["ev"][s, c],
                    "ev_lo": sc["ev_lo"][s, c],
                    "ev_hi": sc["ev_hi"][s, c],
                    "own": sc["own"][s, c],
                    "opp": sc["opp"][s, c],
                    **vs,  # against the suit's advice, on the same deals: 0 and near it ties
                    "hands": int(adv.n[c]),
                }
            )
    df = pd.DataFrame(rows)
    d = advice_dict(adv)
    df.attrs["advice"] = {k: v for k, v in d.items() if k != "by_trump"}
    df.attrs["by_trump"] = d["by_trump"]
    return df


def suits_frame(adv: Advice):
    """One row per trump: mean points and each Pedro saved as maker at the top bid, the
    best-EV bid (None: pass) with its ev against pass, and the safe bid."""
    import pandas as pd

    pp, plo, phi = adv.pedro_rates()
    mean, mean_lo, mean_hi = adv.mean_points_interval()
    suits = adv.per_suit()
    rows = []
    for s in adv.suits_run:
        d = suits[s]
        row: dict[str, Any] = {
            "trump": SUITS[s],
            "mean_points": mean[s],
            "mean_points_lo": mean_lo[s],
            "mean_points_hi": mean_hi[s],
        }
        for j, name in enumerate(adv.key_cards()):
            row[f"{name}_saved"] = pp[s, j]
            row[f"{name}_saved_lo"] = plo[s, j]
            row[f"{name}_saved_hi"] = phi[s, j]
        row.update(
            best_ev_bid=d["best_ev_bid"],
            # the bids as good within the noise, as text ("10 12"): one cell a suit
            tied_bids=None if d["tied_bids"] is None else " ".join(map(str, d["tied_bids"])),
            ev=d["top_ev"] if d["best_ev_bid"] is not None else 0.0,
            safe_bid=d["safe_bid"],
            best=SUITS[s] == adv.best_trump,
            hands=adv.hands,
        )
        rows.append(row)
    frame = pd.DataFrame(rows)
    for col in ("best_ev_bid", "safe_bid"):  # whole bids, or <NA>: not floats
        frame[col] = frame[col].astype("Int64")
    return frame


# ---------------------------------------------------------------------- text
def advice_table(adv: Advice) -> str:
    """The advice and its estimates for people (what the command line prints)."""
    q = adv.query
    if not q.legal_bids and adv.hands == 0:  # nothing to choose: no deal was played
        return "\n".join([_hand_line(adv), f"Bids before you: {q.bids_text()}", advice_line(adv)])
    lines = _query_lines(adv)
    lines.append("")
    lines += _bid_lines(adv)
    lines.append("")
    lines += _suit_summary_lines(adv)
    lines.append("")
    lines.append(advice_line(adv))
    if not adv.query.may_pass:
        lines.append(f"({STUCK_NOTE})")
    elif note := dealer_pass_note(adv):
        lines.append(f"({note})")
    lines.append(f"({RISK_NOTE}; {ev_note(adv, sides=False)}{_pass_row_note(adv)}.)")
    return "\n".join(lines)


def _pass_row_note(adv: Advice) -> str:
    """What the text table's pass row shows (only ``own``: the csv and JSON outputs
    have ``opp`` too), where passing is allowed."""
    if not adv.query.may_pass:
        return ""
    whose = "your" if not adv.query.rules.partnerships else "your side's"
    return f"; own (the pass row): {whose} expected score change when you pass"


def _hand_line(adv: Advice) -> str:
    """``Hand 7♣ 5♣ A♠ …: seat 2 (third), dealer seat 3``."""
    q = adv.query
    return (
        f"Hand {' '.join(pretty_card(c) for c in sorted(q.hand, key=_display_key))}: "
        f"seat {q.seat} ({seat_name(q.seat, q.dealer, q.rules.players)}), dealer seat {q.dealer}"
        + (ASSUMED_SEAT if adv.seat_assumed else "")
    )


def _query_lines(adv: Advice) -> list[str]:
    """The hand, seat, earlier bids and known cards, and how many deals were played."""
    q = adv.query
    lines = [_hand_line(adv)]
    if q.bids and adv.pools is not None:
        from cinch_sim.advisor.pools import POOLS_BELOW  # loaded: it drew the deals

        lines.append(
            f"Bids before you: {q.bids_text()}; too rare to deal whole (under 1 deal in "
            f"{round(1 / POOLS_BELOW):,} fits them), so each deal joins hands drawn to make "
            f"each call (of the hands "
            f"tried, those that made it: {adv.pools})"
        )
        capped = adv.pool_cap is not None and adv.hands >= adv.pool_cap
        if capped and adv.precision_reached() > adv.precision_target:
            lines.append(
                f"Stopped at {adv.hands:,} deals, half the rarest call's hands: a hand "
                "serving in more deals would make the intervals claim more than they hold"
            )
    elif q.bids:
        lines.append(
            f"Bids before you: {q.bids_text()}; {adv.hands:,} of {adv.tried:,} deals matched "
            f"(acceptance {N.rate(adv.hands / max(adv.tried, 1), 2)})"
        )
    note = read_with_note(adv)
    if note:
        lines.append(note)
    if q.later_passes:
        lines.append(f"Known passes after you: {q.later_text()}")
    for s, cs in q.known.items():
        lines.append(f"Known: seat {s} holds {' '.join(pretty_card(c) for c in cs)}")
    width = adv.precision_reached()
    if width <= adv.precision_target:
        reached = f"95% half-width reached {width:.4f} (target {adv.precision_target:g})"
    else:  # stopped before the target: by the deals allowed, or by Ctrl-C
        if adv.interrupted:
            why = "interrupted (Ctrl-C)"
        elif adv.hands >= adv.max_hands:
            why = f"stopped at the limit of {adv.max_hands:,} deals"
        else:  # the pools' cap, said on its own line above
            why = "stopped"
        reached = f"95% half-width {width:.4f}, {why} before the target {adv.precision_target:g}"
    lines.append(
        f"{adv.hands:,} deals, the same deals for every suit and bid; {reached}; "
        f"{adv.seconds:.2f} s"
    )
    lines.append(f"Playouts: {playout_note(adv)}; other seats bid with {_bidders(adv)}.")
    others = {k: v for k, v in adv.policies.items() if k != "bid"}  # (the bids: above)
    lines.append(
        f"Rules: {N.rules_words(q.rules.describe())}; policies: {N.policies_words(others)}; "
        f"seed {adv.seed}"
    )
    return lines


def read_with_note(adv: Advice) -> str | None:
    """Where an earlier seat made a call the default bidder never makes there (a pass
    first to speak): which bidder it bids with instead, in one sentence (None: none)."""
    if not adv.read_with:
        return None
    calls = dict(adv.query.bids)
    seats = N.joined([f"seat {s}'s {'pass' if calls[s] < 0 else f'bid {calls[s]}'}"
                      for s in sorted(adv.read_with)])  # fmt: skip
    who = N.joined([f"seat {s}" for s in sorted(adv.read_with)])
    bidders = N.joined(sorted(set(adv.read_with.values())))
    one = len(adv.read_with) == 1
    return (
        f"{N.capital(seats)}: {'a call' if one else 'calls'} the simulator's bidder never "
        f"makes there, so {who} {'bids' if one else 'bid'} as the {bidders} bidder does "
        "(how people bid, passing weak hands; a bid model you choose bids for every seat)"
    )


def _bidders(adv: Advice) -> str:
    q = adv.query
    others = sorted({p for i, p in enumerate(adv.policies["bid"]) if i != q.seat})
    return ", ".join(others)


def _bid_lines(adv: Advice) -> list[str]:
    """Per candidate (rows) and suit (columns): P(win auction), P(make | maker), ev."""
    pw, _, _ = adv.p_win()
    pm, lo, _ = adv.p_make()
    sc = adv.score_change()
    best = adv.best_trump_index
    run = adv.suits_run
    judged = adv.judged()
    # no deal fits passing (a stuck dealer): each bid's own expected margin instead
    ranked = adv.n[0] == 0
    ev = adv.margin()[0] if ranked else sc["ev"]
    lines = [
        "Per bid and trump: P(you win the auction) / P(make | you are the maker) "
        "[its 95% lower bound] / "
        + ("expected margin (own - opp; no pass to compare with)" if ranked else "ev against pass")
    ]
    lines.append(
        f"{'bid':>4}  "
        + " ".join(f"{SUIT_NAMES[SUITS[s]] + (' (best)' if s == best else ''):^27}" for s in run)
    )
    for c, b in enumerate(adv.candidates):
        if c == 0:
            own = [f"own {N.number(sc['own'][s, 0], 2, signed=True)}" for s in run]
            cells = [f"{t if adv.query.may_pass else 'not allowed':^27}" for t in own]
            lines.append(f"{'pass':>4}  " + " ".join(cells))
            continue
        i = c - 1
        cells = [
            f"{N.rate_whole(pw[s, i]):>4} / {N.rate(pm[s, i], 0):>4} "
            f"[{N.rate_floor(lo[s, i], 0):>4}]"
            f" / {N.number(ev[s, c], 2, signed=True):>6}" + (" " if judged[s, i] else "*")
            for s in run
        ]
        lines.append(f"{int(b):>4}  " + " ".join(f"{x:^27}" for x in cells))
    if not judged[run].all():
        lines.append(
            f"* won the auction on fewer than {adv.min_maker} deals: shown, but not judged "
            "(never advised, best or safe)"
        )
    return lines


def _suit_summary_lines(adv: Advice) -> list[str]:
    """Per suit: mean points and Pedros saved at the top bid, the best-EV and safe bids."""
    pp, plo, phi = adv.pedro_rates()
    suits = adv.per_suit()
    mean, mean_lo, mean_hi = adv.mean_points_interval()
    names = adv.key_cards()
    alone = not adv.query.rules.partnerships  # cut-throat: the player is his own side
    pedro_head = " ".join(f"{N.label(n) + (' mine' if alone else ' ours'):>20}" for n in names)
    pedros = {n for n, _ in adv.query.rules.pedros}
    cards = N.joined(["each Pedro", *(N.label(n) for n in names if n not in pedros)])
    whose, ends = ("your", "you end") if alone else ("your side's", "it ends")
    lines = [
        f"{'trump':<9} {'mean points':>20} {pedro_head} {'best EV':>14} "
        f"{'safe at ' + N.rate(adv.risk, 0):>12}   ({_top_bid_words(adv)}: {whose} "
        f"points, and how often {ends} with {cards}, yours kept or another's won)"
    ]
    for s in adv.suits_run:
        d = suits[s]
        ev = "-"
        if d["best_ev_bid"] is not None:
            ev = f"{d['best_ev_bid']} ({N.number(d['top_ev'], 2, signed=True)})"
        elif d["top_ev_bid"] is not None or adv.top is not None:
            ev = "pass"
        ped = " ".join(
            f"{N.rate_with_interval(pp[s, j], plo[s, j], phi[s, j]):>20}" for j in range(len(names))
        )
        points = N.number_with_interval(mean[s], mean_lo[s], mean_hi[s], 2)
        lines.append(
            f"{SUIT_NAMES[SUITS[s]]:<9} {points:>20} {ped} {ev:>14} "
            f"{_bid_text(d['safe_bid']) if adv.query.may_pass else d['safe_bid'] or '-':>12}"
        )
    return lines


def _top_bid_words(adv: Advice) -> str:
    """Which hands the suit summary counts: every deal, as maker at the top bid, which no
    later seat can overbid, so no deal is lost to the auction."""
    if adv.top is None:
        return "as maker"
    return (f"bidding {adv.candidates[adv.top]}, which no later seat can overbid, so you name "
            "trump on every deal")  # fmt: skip


def _bid_text(b: int | None) -> str:
    return "pass" if b is None else str(b)


def _display_key(c: int) -> tuple[int, int]:
    """Cards by suit, highest rank first."""
    return (c // 13, -(c % 13))


# --------------------------------------------------------------------- chart
def plot_format(path: str) -> str:
    """The image format a chart written to ``path`` takes, from its extension (PNG
    when it has none, or for ``-``, stdout); an extension matplotlib cannot write is a
    ``ValueError`` saying which it can, raised before any deal is simulated."""
    from pathlib import Path

    from matplotlib.backend_bases import FigureCanvasBase

    ext = Path(path).suffix.lower().removeprefix(".") if path != "-" else ""
    if not ext:
        return "png"
    known = FigureCanvasBase.get_supported_filetypes()
    if ext not in known:
        raise ValueError(
            f"{path}: matplotlib cannot write .{ext} images; name a file ending in "
            + ", ".join(f".{k}" for k in sorted(known))
        )
    return ext


def first_bid_won(adv: Advice) -> int:
    """The index in ``adv.bids`` of the lowest bid won as the maker in some suit on these
    deals (0 when none was)."""
    won = adv.win[list(adv.suits_run), 1:].sum(axis=0) > 0
    return int(won.argmax()) if won.any() else 0


def never_won_words(adv: Advice) -> str:
    """``bids 1–5: never won the auction on these deals`` (the bids below
    ``first_bid_won``, which the tables and charts leave out), or "" when there are none."""
    low = [int(b) for b in adv.bids[: first_bid_won(adv)]]
    if not low:
        return ""
    which = f"bid {low[0]}" if len(low) == 1 else f"bids {low[0]}–{low[-1]}"
    return f"{which}: never won the auction on these deals"


def _plot_question(adv: Advice) -> str:
    """The chart's second title line: the game, the bids before, the play, the seed
    (a chart of sancho or of perfect play looked like one of the standard game)."""
    q = adv.query
    plays = sorted(set(adv.policies.get("play", [])))
    return (
        f"{N.rules_words(q.rules.describe())}; bids before: {q.bids_text() or 'none'}; "
        f"play: {' | '.join(plays)}; seed {adv.seed}"
    )


def _plot_metadata(adv: Advice, fmt: str) -> dict[str, Any]:
    """The question in full in the image file itself (the line the table prints: every
    rule and policy), and no time of writing, so that the same query gives the same
    bytes."""
    q = adv.query
    text = (
        f"cinch-sim advise {' '.join(format_card(c) for c in q.hand)}; seat {q.seat}, "
        f"dealer {q.dealer}; bids before: {q.bids_text() or 'none'}; "
        f"{N.settings_words({'rules': q.rules.describe(), 'policies': adv.policies})}; "
        f"seed {adv.seed}; {adv.hands:,} deals"
    )
    return {
        "png": {"Description": text},
        "svg": {"Description": text, "Date": None},
        "pdf": {"Subject": text, "CreationDate": None},
    }.get(fmt, {})


def plot_advice(adv: Advice, path: str) -> None:
    """P(make) against bid, one line per suit with its interval band, to an image file
    (written as every output is: ``cinch_sim.outputs``)."""
    import io

    import matplotlib

    from cinch_sim.outputs import write_output

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    p, lo, hi = adv.p_make()
    pw, _, _ = adv.p_win()
    # a bid won as the maker on too few deals is not judged (the table's *): not drawn,
    # as the web page's chart draws only the judged ones
    judged = adv.judged()
    p, lo, hi = (np.where(judged, a, np.nan) for a in (p, lo, hi))
    # the lowest bids, never won on these deals (the later seats always bid more), take
    # no room on the axis, as the web page's chart and table leave them out
    first = first_bid_won(adv)
    bids = list(adv.bids)[first:]
    p, lo, hi, pw = (a[:, first:] for a in (p, lo, hi, pw))
    fig, ax = plt.subplots(figsize=(7, 5.3))
    colours = {"C": "tab:green", "S": "black", "D": "tab:blue", "H": "tab:red"}
    for s in adv.suits_run:
        name = SUIT_NAMES[SUITS[s]]
        ax.plot(bids, p[s], marker="o", ms=3, color=colours[SUITS[s]],
                label=f"P(make) as the maker, {name}")  # fmt: skip
        ax.fill_between(bids, lo[s], hi[s], color=colours[SUITS[s]], alpha=0.2)
    s0 = adv.suits_run[0]
    ax.plot(bids, pw[s0], ls="--", color="tab:blue", label="P(win the auction)")
    ax.axhline(adv.risk, ls=":", lw=0.8, color="grey", label=f"safe: made at least {adv.risk:.0%}")
    never = f"\n{never_won_words(adv)}" if first else ""
    ax.set_xlabel(
        f"bid (drawn where won as the maker on {adv.min_maker}+ deals; bands: 95%){never}"
    )
    ax.set_ylabel("probability")
    ax.set_xticks(bids)
    ax.set_ylim(0, 1.02)
    q = adv.query
    ax.set_title(
        f"{' '.join(format_card(c) for c in q.hand)} - seat {q.seat}, "
        f"dealer {q.dealer}; {adv.hands:,} deals\n{_plot_question(adv)}",
        fontsize=10,
    )
    # below the axes: inside, it covered the curves it names
    below = -0.22 if first else -0.16  # under the x label's one or two lines
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, below), ncol=2)
    fig.tight_layout()
    buf = io.BytesIO()
    fmt = plot_format(path)
    fig.savefig(buf, format=fmt, dpi=120, metadata=_plot_metadata(adv, fmt))
    plt.close(fig)
    write_output(path, buf.getvalue())

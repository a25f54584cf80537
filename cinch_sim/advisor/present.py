"""An ``Advice`` for people and programs: the one-line reason, the text table the
command line prints, the JSON dict, a pandas DataFrame and the P(make) chart.

Only numbers an ``Advice`` computed are shown here (``evaluate_hand`` is
``advise`` followed by ``advice_frame``). pandas (``advice_frame``) and
matplotlib (``plot_advice``) are imported when asked for, so the command line
stays quick.
"""

from __future__ import annotations

from typing import Any

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.cards import SUIT_NAMES, SUITS, format_card, pretty_card
from cinch_sim.rules import seat_name

# an advisor.estimate.Advice: estimate imports this module for the views, not the
# other way round, so the type is named here and not imported
Advice = Any


# ------------------------------------------------------------------ sentences
def advice_reason(adv: Advice) -> str:
    """One line: why this bid, in this trump."""
    s = adv.best_trump_index
    name = SUIT_NAMES[adv.best_trump]
    p, lo, hi = adv.p_make()
    legal = adv.query.legal_bids
    idx = {int(b): i for i, b in enumerate(adv.bids)}
    if not legal:
        return (
            f"no legal bid is left above {adv.query.high_bid}: pass "
            f"({name} would be your best trump)"
        )
    rec = adv.recommended_bid
    ev_bid = adv.best_ev_bid
    sc = adv.score_change()
    # With one playout serving every bid, EV(b) - EV(b + 1) = (2b + 1) P(points = b)
    # + P(points < b) >= 0: as the maker a lower bid never scores less; a higher bid
    # only keeps the later seats from overbidding, which this estimate does not model.
    lowest = ""
    if not adv.contract_aware:
        lowest = ", the lowest legal bid: as maker a lower bid never scores less"
    ev_part = (
        f"bid {ev_bid} has the best expected score change "
        f"({sc['ev'][s, idx[ev_bid]]:+.2f}{lowest if ev_bid == legal[0] else ''})"
        if ev_bid is not None
        else "no bid has a positive expected score change"
    )
    if rec is None:
        b0 = legal[0]
        text = (
            f"pass: no legal bid reaches P(make) {N.rate(adv.risk, 0)} even in {name}, "
            f"the best trump (P(make {b0}) = {N.rate(p[s, idx[b0]])}); {ev_part}"
        )
        return text + _dealer_note(adv)
    nxt = rec + 1
    nxt_part = f", P(make {nxt}) = {N.rate(p[s, idx[nxt]])}" if nxt in idx and nxt in legal else ""
    return (
        f"{name}: P(make {rec}) = "
        f"{N.rate_with_interval(p[s, idx[rec]], lo[s, idx[rec]], hi[s, idx[rec]])}, "
        f"at least the {N.rate(adv.risk, 0)} asked for"
        f"{nxt_part}; {ev_part}"
    )


def _dealer_note(adv: Advice) -> str:
    """The dealer after three passes still names trump (under the default all-pass rule)."""
    q = adv.query
    everyone_before = len(q.bids) == q.rules.players - 1 and q.seat == q.dealer
    if everyone_before and q.high_bid == 0 and q.rules.all_pass == "dealer_no_contract":
        return " (all passed: as dealer you still name trump, at contract 0)"
    return ""


def playout_note(adv: Advice) -> str:
    """How the deals were played: one playout for every bid, or each contract apart."""
    if adv.contract_aware:
        return "each contract played separately on the same deals (policies may use it)"
    return (
        "one playout per deal and suit serves every bid "
        "(the discard and play policies ignore the contract)"
    )


# ----------------------------------------------------------------- JSON, pandas
def advice_dict(adv: Advice) -> dict[str, Any]:
    """Everything as plain JSON-ready values (what ``--format json`` prints)."""
    q = adv.query
    return {
        "hand": [format_card(c) for c in q.hand],
        "seat": q.seat,
        "dealer": q.dealer,
        "bids_before": [{"seat": s, "bid": None if b == L.BID_PASS else b} for s, b in q.bids],
        "known": {str(s): [format_card(c) for c in cs] for s, cs in q.known.items()},
        "legal_bids": q.legal_bids,
        "best_trump": adv.best_trump,
        "recommended_bid": adv.recommended_bid,
        "safe_bid": adv.safe_bid,
        "best_ev_bid": adv.best_ev_bid,
        "risk": adv.risk,
        "safe_risk": adv.safe_risk,
        "reason": advice_reason(adv),
        "precision": adv.precision_reached(),
        "precision_target": adv.precision_target,
        "hands": adv.hands,
        "max_hands": adv.max_hands,
        "deals_tried": adv.tried,
        "acceptance_rate": adv.hands / adv.tried if adv.tried else None,
        "kernel_hands": adv.played,
        "rounds": adv.rounds,
        "contract_aware": adv.contract_aware,
        "playouts": playout_note(adv),
        "score_change": (
            "ev: expected change of your side's score; ev_margin: your side's change "
            "minus the opponents'; a pass counts as 0"
        ),
        "seed": adv.seed,
        "seconds": round(adv.seconds, 3),
        "rules": q.rules.describe(),
        "policies": adv.policies,
        "by_trump": _by_trump(adv),
    }


def _by_trump(adv: Advice) -> dict[str, Any]:
    """Suit letter -> mean points, points distribution, Pedros saved, bids, and each bid's
    make rate and expected score change."""
    q = adv.query
    p, lo, hi = adv.p_make()
    sc = adv.score_change()
    pp, plo, phi = adv.pedro_rates()
    hist = adv.own_hist()
    suits = adv.per_suit()
    mean = adv.mean_points()
    n = max(adv.hands, 1)
    by_trump: dict[str, Any] = {}
    for s in range(4):
        bids = {}
        for i, b in enumerate(adv.bids):
            entry = {
                "p_make": float(p[s, i]),
                "lo": float(lo[s, i]),
                "hi": float(hi[s, i]),
                "ev": float(sc["ev"][s, i]),
                "ev_lo": float(sc["ev_lo"][s, i]),
                "ev_hi": float(sc["ev_hi"][s, i]),
                "ev_margin": float(sc["ev_margin"][s, i]),
                "legal": int(b) in q.legal_bids,
            }
            if adv.contract_aware:
                entry["points_dist"] = (hist[s, adv.group_of(int(b))] / n).tolist()
            bids[str(int(b))] = entry
        d = suits[s]
        by_trump[SUITS[s]] = {
            "name": SUIT_NAMES[SUITS[s]],
            "mean_points": float(mean[s]),
            "points_dist": (hist[s, 0] / n).tolist(),
            "pedros": {
                name: {"p": float(pp[s, j]), "lo": float(plo[s, j]), "hi": float(phi[s, j])}
                for j, (name, _) in enumerate(q.rules.pedros)
            },
            "recommended_bid": d["recommended_bid"],
            "safe_bid": d["safe_bid"],
            "best_ev_bid": d["max_ev_bid"] if (d["max_ev"] or 0) > 0 else None,
            "bids": bids,
        }
    return by_trump


def advice_frame(adv: Advice):
    """Long table: one row per trump and bid (pandas imported here). ``df.attrs["advice"]``
    holds the advice (best trump, recommended bid, ...), ``df.attrs["by_trump"]`` the
    per-suit detail (points distribution, Pedros)."""
    import pandas as pd

    q = adv.query
    p, lo, hi = adv.p_make()
    sc = adv.score_change()
    rows = []
    for s in range(4):
        for i, b in enumerate(adv.bids):
            rows.append(
                {
                    "trump": SUITS[s],
                    "bid": int(b),
                    "p_make": p[s, i],
                    "p_make_lo": lo[s, i],
                    "p_make_hi": hi[s, i],
                    "ev": sc["ev"][s, i],
                    "ev_lo": sc["ev_lo"][s, i],
                    "ev_hi": sc["ev_hi"][s, i],
                    "ev_margin": sc["ev_margin"][s, i],
                    "legal": int(b) in q.legal_bids,
                    "hands": adv.hands,
                }
            )
    df = pd.DataFrame(rows)
    d = advice_dict(adv)
    df.attrs["advice"] = {k: v for k, v in d.items() if k != "by_trump"}
    df.attrs["by_trump"] = d["by_trump"]
    return df


def suits_frame(adv: Advice):
    """One row per trump: mean points, each Pedro saved, the bids at ``risk`` and at
    ``safe_risk``, the best-EV bid (None: pass) and its expected score change."""
    import pandas as pd

    pp, plo, phi = adv.pedro_rates()
    mean = adv.mean_points()
    rows = []
    for s, d in enumerate(adv.per_suit()):
        row: dict[str, Any] = {"trump": SUITS[s], "mean_points": mean[s]}
        for j, (name, _) in enumerate(adv.query.rules.pedros):
            row[f"{name}_saved"] = pp[s, j]
            row[f"{name}_saved_lo"] = plo[s, j]
            row[f"{name}_saved_hi"] = phi[s, j]
        best_ev = d["max_ev_bid"] if (d["max_ev"] or 0) > 0 else None
        row.update(
            recommended_bid=d["recommended_bid"],
            safe_bid=d["safe_bid"],
            best_ev_bid=best_ev,
            max_ev=d["max_ev"],
            best=SUITS[s] == adv.best_trump,
            hands=adv.hands,
        )
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------- text
def advice_table(adv: Advice) -> str:
    """The advice and its estimates for people (what the command line prints)."""
    lines = _query_lines(adv)
    lines.append("")
    lines += _p_make_lines(adv)
    lines.append("")
    lines += _score_lines(adv)
    lines.append("")
    lines += _suit_summary_lines(adv)
    lines.append("")
    lines.append(advice_line(adv))
    lines.append(f"Why: {advice_reason(adv)}.")
    return "\n".join(lines)


def advice_line(adv: Advice) -> str:
    """The advice in one line: the trump, the bid at risk, the safe bid, the best-EV bid."""
    return (
        f"Advice: trump {SUIT_NAMES[adv.best_trump]}; bid {_bid_text(adv.recommended_bid)} "
        f"(made {N.rate(adv.risk, 0)} of the time or more); safe bid (made "
        f"{N.rate(adv.safe_risk, 0)} or more): "
        f"{_bid_text(adv.safe_bid)}; best expected score: {_bid_text(adv.best_ev_bid)}."
    )


def _query_lines(adv: Advice) -> list[str]:
    """The hand, seat, earlier bids and known cards, and how many deals were played."""
    q = adv.query
    lines = [
        f"Hand {' '.join(pretty_card(c) for c in sorted(q.hand, key=_display_key))}: "
        f"seat {q.seat} ({seat_name(q.seat, q.dealer, q.rules.players)}), dealer seat {q.dealer}"
    ]
    if q.bids:
        lines.append(
            f"Bids before you: {q.bids_text()}; {adv.hands:,} of {adv.tried:,} deals matched "
            f"(acceptance {N.rate(adv.hands / max(adv.tried, 1), 2)})"
        )
    for s, cs in q.known.items():
        lines.append(f"Known: seat {s} holds {' '.join(pretty_card(c) for c in cs)}")
    lines.append(
        f"{adv.hands:,} deals per suit, the same deals for every suit and bid; "
        f"95% half-width reached {adv.precision_reached():.4f} "
        f"(target {adv.precision_target:g}); {adv.seconds:.2f} s"
    )
    lines.append(f"Playouts: {playout_note(adv)}.")
    return lines


def _p_make_lines(adv: Advice) -> list[str]:
    """P(make) with its interval for every bid (rows) and suit (columns)."""
    p, lo, hi = adv.p_make()
    best = adv.best_trump_index
    legal = set(adv.query.legal_bids)
    lines = ["P(make bid) by trump, with 95% Wilson intervals (* = legal bid)"]
    lines.append(
        f"{'bid':>4} "
        + " ".join(
            f"{SUIT_NAMES[SUITS[s]] + (' (best)' if s == best else ''):^21}" for s in range(4)
        )
    )
    for i, b in enumerate(adv.bids):
        cells = [N.rate_with_interval(p[s, i], lo[s, i], hi[s, i]) for s in range(4)]
        mark = "*" if int(b) in legal else " "
        lines.append(f"{int(b):>3}{mark} " + " ".join(f"{c:^21}" for c in cells))
    return lines


def _score_lines(adv: Advice) -> list[str]:
    """The side's expected score change for every bid (rows) and suit (columns)."""
    sc = adv.score_change()
    legal = set(adv.query.legal_bids)
    lines = ["Expected score change of your side by bid (set: -bid under setback)"]
    lines.append(f"{'bid':>4} " + " ".join(f"{SUIT_NAMES[SUITS[s]]:>9}" for s in range(4)))
    for i, b in enumerate(adv.bids):
        mark = "*" if int(b) in legal else " "
        lines.append(f"{int(b):>3}{mark} " + " ".join(f"{sc['ev'][s, i]:>+9.2f}" for s in range(4)))
    return lines


def _suit_summary_lines(adv: Advice) -> list[str]:
    """Per suit: mean points, Pedros saved, the bids at risk and safe, the best-EV bid."""
    pp, _, _ = adv.pedro_rates()
    suits = adv.per_suit()
    mean = adv.mean_points()
    names = [n for n, _ in adv.query.rules.pedros]
    pedro_head = " ".join(f"{N.label(n) + ' saved':>17}" for n in names)
    lines = [
        f"{'trump':<9} {'mean points':>11} {pedro_head} "
        f"{'bid at ' + N.rate(adv.risk, 0):>11} {'safe at ' + N.rate(adv.safe_risk, 0):>12}"
        f" {'best EV':>12}"
    ]
    for s in range(4):
        d = suits[s]
        ev = "-"
        if d["max_ev_bid"] is not None:
            shown = d["max_ev_bid"] if d["max_ev"] > 0 else "pass"
            ev = f"{shown} ({d['max_ev']:+.2f})"
        ped = " ".join(f"{N.rate(pp[s, j]):>17}" for j in range(len(names)))
        lines.append(
            f"{SUIT_NAMES[SUITS[s]]:<9} {mean[s]:>11.2f} {ped} "
            f"{_bid_text(d['recommended_bid']):>11} {_bid_text(d['safe_bid']):>12} {ev:>12}"
        )
    return lines


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


def plot_advice(adv: Advice, path: str) -> None:
    """P(make) against bid, one line per suit with its interval band, to an image file
    (written as every output is: ``cinch_sim.outputs``)."""
    import io

    import matplotlib

    from cinch_sim.outputs import write_output

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p, lo, hi = adv.p_make()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    colours = {"C": "tab:green", "S": "black", "D": "tab:orange", "H": "tab:red"}
    for s in range(4):
        name = SUIT_NAMES[SUITS[s]]
        ax.plot(adv.bids, p[s], marker="o", ms=3, color=colours[SUITS[s]], label=name)
        ax.fill_between(adv.bids, lo[s], hi[s], color=colours[SUITS[s]], alpha=0.2)
    ax.axhline(adv.risk, ls="--", lw=0.8, color="grey", label=f"risk {adv.risk:.2f}")
    ax.axhline(adv.safe_risk, ls=":", lw=0.8, color="grey", label=f"safe {adv.safe_risk}")
    if adv.query.high_bid:
        ax.axvspan(adv.bids[0] - 0.5, adv.query.high_bid + 0.5, color="grey", alpha=0.1)
    ax.set_xlabel("bid")
    ax.set_ylabel("P(side takes at least the bid)")
    ax.set_xticks(adv.bids)
    ax.set_ylim(0, 1.02)
    ax.set_title(
        f"{' '.join(format_card(c) for c in adv.query.hand)} - seat {adv.query.seat}, "
        f"dealer {adv.query.dealer}; {adv.hands:,} deals"
    )
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=plot_format(path), dpi=120)
    plt.close(fig)
    write_output(path, buf.getvalue())

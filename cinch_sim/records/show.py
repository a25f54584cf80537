"""One refereed hand as text for people: hands by suit, bids, draw, tricks, points.

People count from 1: tricks and a game's hands are numbered 1, 2, ... here (the
records themselves index from 0, docs/records.md).
"""

from __future__ import annotations

from cinch_sim.cards import (
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    format_card,
    pretty_card,
    rank_of,
    suit_of,
)
from cinch_sim.records.referee import GameCheck, HandCheck, trump_suit
from cinch_sim.rules import seat_name

DISPLAY_SUITS = (1, 3, 2, 0)  # spades, hearts, diamonds, clubs


def seat_label(hc: HandCheck, s: int) -> str:
    """``seat 2 (third, team 0)``: the seat, its place from the dealer and its side."""
    role = seat_name(s, hc.dealer, hc.rules.players)
    team = f", team {hc.team(s)}" if hc.rules.partnerships else ""
    return f"seat {s} ({role}{team})"


def by_suit(cards: list[int], trump: int | None = None, left: int = -1) -> str:
    """``♠ A K 5  ♥ 9  ♦ —  ♣ Q 10 3``: highest first within each suit.

    Once trump is named, the Left Pedro is shown with the trumps it belongs to
    (``♦ K 5 2 +5♥``), not under its natural suit.
    """
    parts = []
    for s in DISPLAY_SUITS:
        ranks = sorted((rank_of(c) for c in cards if suit_of(c) == s and c != left), reverse=True)
        text = " ".join("10" if RANKS[r] == "T" else RANKS[r] for r in ranks)
        if s == trump and left in cards:
            text = f"{text} +{pretty_card(left)}".strip()
        parts.append(f"{SUIT_SYMBOLS[SUITS[s]]} {text or '—'}")
    return "  ".join(parts)


def pretty(cards: list[int]) -> str:
    return " ".join(pretty_card(c) for c in cards) or "—"


def face_up(gone: list[int], ts, r) -> str:
    """`` (face up: 9♥ 3♥)``: the set-aside cards everyone sees (docs/rules.md §1.6,
    §1.8): the trumps, whether he chose them or excess_trump_discard=non_point_only
    sent them (§3.6), and every card under ``discards_face_up``."""
    shown = gone if r.discards_face_up else [c for c in gone if ts.is_trump(c)]
    return f" (face up: {pretty(shown)})" if shown else ""


def point_values(r) -> dict[str, int]:
    """What each point (high, low, jack, game, the Pedros...) is worth under the rules."""
    values = {"high": r.high_points, "low": r.low_points}
    values.update({n: p for n, _, p in r.point_cards})
    if r.left_rank:
        values[r.left_name] = r.left_card_points
    return values


def show_hand(hc: HandCheck, title: str = "") -> str:
    r = hc.rules
    P = r.players
    lines = []
    opts = ", ".join(f"{k}={v}" for k, v in r.options().items()) or "defaults"
    lines.append(f"{title}{r.preset} rules ({opts})")
    lines.append(f"Dealer: seat {hc.dealer}.  Eldest: seat {(hc.dealer + 1) % P}.")
    lines.append("")
    lines.append("Dealt:")
    width = max(len(seat_label(hc, s)) for s in range(P))
    for s in range(P):
        lines.append(f"  {seat_label(hc, s):<{width}}  {by_suit(hc.hands[s])}")
    lines.append(f"  {'stock':<{width}}  {pretty(hc.stock)}")
    if hc.exposed:
        lines.append(f"  exposed: {pretty(hc.exposed)}")
    if hc.misdeal:
        lines.append("")
        lines.append(f"MISDEAL: {hc.misdeal}")
        return "\n".join(lines)
    lines.append("")
    bids = ", ".join(f"seat {s} {'pass' if b is None else b}" for s, b in hc.bids)
    lines.append(f"Bids: {bids}")
    if hc.thrown_in:
        lines.append(f"All passed: the hand is thrown in (all_pass={r.all_pass}).")
        return "\n".join(lines)
    sym = SUIT_SYMBOLS[SUITS[hc.trump]]
    contract = f"bids {hc.bid}" if hc.bid else "names trumps with no contract (all passed)"
    lines.append(f"Maker: seat {hc.maker} {contract}.  Trump: {sym} ({SUITS[hc.trump]})")
    lines.append("")
    lines.append("Discard and draw:")
    ts = trump_suit(r, hc.trump)
    for s in range(P):
        if s == hc.robber:
            lines.append(
                f"  {seat_label(hc, s):<{width}}  robs: takes {pretty(hc.draws[s])}; "
                f"sets aside {pretty(hc.robber_discards)}{face_up(hc.robber_discards, ts, r)}"
            )
        else:
            lines.append(
                f"  {seat_label(hc, s):<{width}}  discards {pretty(hc.discards[s])}"
                f"{face_up(hc.discards[s], ts, r)}; draws {pretty(hc.draws[s])}"
            )
    if hc.shortage:
        lines.append(f"  (the stock ran short: shortage={r.shortage})")
    lines.append("After the draw (the Left Pedro shown with the trumps):")
    left = trump_suit(r, hc.trump).left
    for s in range(P):
        lines.append(f"  {seat_label(hc, s):<{width}}  {by_suit(hc.after_draw[s], hc.trump, left)}")
    lines.append("")
    lines.append("Tricks:")
    for t, tr in enumerate(hc.tricks):
        plays = "  ".join(
            f"{s}:{pretty_card(c):>3}" for s, c in zip(tr.seats, tr.cards, strict=True)
        )
        mark = ""
        if hc.renege and hc.renege["trick"] == t:
            mark = f"   <- renege by seat {hc.renege['seat']}"
        team = f" (team {hc.team(tr.winner)})" if r.partnerships else ""
        lines.append(f"  {t + 1}. {plays}   won by seat {tr.winner}{team}{mark}")
    lines.append("")
    lines.append("Points:")
    values = point_values(r)
    for name, team in hc.captured.items():
        c = hc.point_cards.get(name)
        label = name.replace("_", " ")
        if c is None:
            lines.append(f"  {label:<12} not in play")
        elif isinstance(team, list):  # two decks: one side per copy in play
            who = " and ".join(f"team {t}" for t in team)
            each = f"{values[name]} each to" if len(team) > 1 else f"{values[name]} to"
            copies = "both copies" if len(team) > 1 else "one copy in play"
            lines.append(f"  {label:<12} {pretty_card(c):>3}  {each} {who} ({copies})")
        else:
            lines.append(f"  {label:<12} {pretty_card(c):>3}  {values[name]} to team {team}")
    pts = ", ".join(f"team {t} {p}" for t, p in enumerate(hc.points))
    lines.append(f"  taken: {pts}")
    verdict = "made" if hc.made else "set"
    if hc.renege:
        lines.append(
            f"Renege: {hc.renege_text} (trick {hc.renege['trick'] + 1}); "
            "penalty as docs/rules.md §1.16 says"
        )
    lines.append(
        f"Bid {hc.bid}: {verdict}.  Score: "
        + ", ".join(f"team {t} {s:+d}" for t, s in enumerate(hc.score))
    )
    return "\n".join(lines)


def show_game(gc: GameCheck, hand: int | None = None) -> str:
    """The game's hands (numbered from 1) and running totals; ``hand`` (counted from 1,
    as listed) is shown in full below them."""
    lines = [f"Game to {gc.target}, first dealer seat {gc.first_dealer}: {len(gc.hands)} hands"]
    for i, (h, tot) in enumerate(zip(gc.hands, gc.totals, strict=True)):
        if h.misdeal:
            what = "misdeal"
        elif h.thrown_in:
            what = "thrown in"
        else:
            what = f"seat {h.maker} bid {h.bid} {SUIT_SYMBOLS[SUITS[h.trump]]} " + (
                "made" if h.made else "set"
            )
            if h.renege:
                what += f" (renege by seat {h.renege['seat']})"
        sc = " ".join(f"{s:+d}" for s in h.score) if not h.misdeal else ""
        lines.append(f"  {i + 1:>3}. dealer {h.dealer}  {what:<28} {sc:>9}   totals {tot}")
    if gc.winner is not None:
        lines.append(f"Winner: team {gc.winner} ({gc.reason})")
    else:
        lines.append(f"No winner ({gc.reason})")
    if hand is not None:
        lines.append("")
        lines.append(show_hand(gc.hands[hand - 1], title=f"Hand {hand}: "))
    return "\n".join(lines)


def trick_columns(players: int) -> list[str]:
    return ["trick", "leader", *[f"seat_{s}" for s in range(players)], "winner"] + [
        "points",
        "point_cards",
    ]


def trick_rows(hc: HandCheck) -> list[dict]:
    """One row per trick (1 first): the leader, the card each seat played (the writer's
    form, e.g. ``5H``), the winner, and the point cards the trick holds and their worth."""
    values = point_values(hc.rules)
    rows = []
    for t, tr in enumerate(hc.tricks):
        row: dict = {"trick": t + 1, "leader": tr.leader}
        played = dict(zip(tr.seats, tr.cards, strict=True))
        for s in range(hc.rules.players):
            row[f"seat_{s}"] = format_card(played[s]) if s in played else ""
        row["winner"] = tr.winner
        # one entry per copy: with two decks a trick may hold both copies of a point card
        names = [n for n, c in hc.point_cards.items() for x in tr.cards if c is not None and x == c]
        row["points"] = sum(values[n] for n in names)
        row["point_cards"] = " ".join(names)
        rows.append(row)
    return rows


def game_columns(teams: int) -> list[str]:
    return (
        ["hand", "dealer", "status", "maker", "bid", "trump", "made"]
        + [f"score_{t}" for t in range(teams)]
        + [f"total_{t}" for t in range(teams)]
    )


def game_rows(gc: GameCheck) -> list[dict]:
    """One row per hand of a game (1 first): dealer, what happened, the score and totals."""
    rows = []
    teams = gc.rules.teams
    for i, (h, tot) in enumerate(zip(gc.hands, gc.totals, strict=True)):
        status = "misdeal" if h.misdeal else "thrown_in" if h.thrown_in else h.status
        row: dict = {
            "hand": i + 1,
            "dealer": h.dealer,
            "status": status,
            "maker": h.maker,
            "bid": h.bid,
            "trump": None if h.trump is None else SUITS[h.trump],
            "made": h.made,
        }
        for t in range(teams):
            row[f"score_{t}"] = h.score[t] if h.score else None
        for t in range(teams):
            row[f"total_{t}"] = tot[t]
        rows.append(row)
    return rows

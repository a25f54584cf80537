"""One refereed hand as text for people: hands by suit, bids, draw, tricks, points.

People count from 1: tricks and a game's hands are numbered 1, 2, ... here (the
records themselves index from 0, docs/records.md).
"""

from __future__ import annotations

import json

from cinch_sim.cards import (
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    format_card,
    pretty_card,
    rank_of,
    suit_of,
)
from cinch_sim.records.referee import GameCheck, HandCheck, left_title, side_name, trump_suit
from cinch_sim.rules import seat_name

DISPLAY_SUITS = (1, 3, 2, 0)  # spades, hearts, diamonds, clubs


def seat_label(hc: HandCheck, s: int) -> str:
    """``seat 2 (third, team 0)``: the seat, its place from the dealer and its side (none
    in cut-throat, where the seat is the side)."""
    role = seat_name(s, hc.dealer, hc.rules.players)
    team = f", team {hc.team(s)}" if hc.rules.teams < hc.rules.players else ""
    return f"seat {s} ({role}{team})"


def by_suit(cards: list[int], trump: int | None = None, left: int = -1) -> str:
    """``♠ A K 5  ♥ 9  ♦ —  ♣ Q 10 3``: highest first within each suit.

    Once trump is named, the left card (the Left Pedro, or the Left Bower) is shown
    with the trumps it belongs to (``♦ K 5 2 +5♥``), not under its natural suit.
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
    """The hand for people, in the order it was played; only the steps its rules have
    (no discard and draw without a draw), named as its rules name them."""
    r = hc.rules
    width = max(len(seat_label(hc, s)) for s in range(r.players))
    lines = [*_deal_lines(hc, title, width), ""]
    if hc.misdeal:
        return "\n".join([*lines, f"MISDEAL: {hc.misdeal}"])
    bids = ", ".join(f"seat {s} {'pass' if b is None else b}" for s, b in hc.bids)
    lines.append(f"Bids: {bids}")
    if hc.thrown_in:
        lines.append(f"All passed: the hand is thrown in (all_pass={r.all_pass}).")
        return "\n".join(lines)
    sym = SUIT_SYMBOLS[SUITS[hc.trump]]
    contract = f"bids {hc.bid}" if hc.bid else "names trumps with no contract (all passed)"
    lines.append(f"Maker: seat {hc.maker} {contract}.  Trump: {sym} ({SUITS[hc.trump]})")
    before_play = _draw_lines(hc, width) + _in_play_lines(hc, width)
    if before_play:
        lines += ["", *before_play]
    lines += ["", "Tricks:", *_trick_lines(hc), "", "Points:", *_point_lines(hc)]
    verdict = "made" if hc.made else "set"
    if hc.renege:
        lines.append(
            f"Renege: {hc.renege_text} (trick {hc.renege['trick'] + 1}); "
            "penalty as docs/rules.md §1.16 says"
        )
    lines.append(
        f"Bid {hc.bid}: {verdict}.  Score: "
        + ", ".join(f"{side_name(r, t)} {s:+d}" for t, s in enumerate(hc.score))
    )
    return "\n".join(lines)


def _deal_lines(hc: HandCheck, title: str, width: int) -> list[str]:
    """The rules, the dealer and each seat's cards as dealt, suit by suit."""
    r = hc.rules
    # the options as the record holds them (JSON: true, not Python's True)
    opts = ", ".join(
        f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in r.options().items()
    )
    opts = opts or "defaults"
    lines = [
        f"{title}{r.preset} rules ({opts})",
        f"Dealer: seat {hc.dealer}.  Eldest: seat {(hc.dealer + 1) % r.players}.",
        "",
        "Dealt:",
    ]
    for s in range(r.players):
        lines.append(f"  {seat_label(hc, s):<{width}}  {by_suit(hc.hands[s])}")
    # without a draw nobody draws from it; with widows it is theirs, eldest's first
    rest = ("widows" if r.widow else "stock") if r.draw else "undealt"
    lines.append(f"  {rest:<{width}}  {pretty(hc.stock)}")
    if hc.exposed:
        lines.append(f"  exposed: {pretty(hc.exposed)}")
    return lines


def _draw_lines(hc: HandCheck, width: int) -> list[str]:
    """Each seat's discard and draw, and the robber's; nothing when the rules have no draw
    (a line of dashes for every seat would say nothing)."""
    r = hc.rules
    if not r.draw:
        return []
    ts = trump_suit(r, hc.trump)
    if r.widow:
        lines = ["Widow and discard:"]
        for s in r.turn_order(hc.dealer):
            lines.append(
                f"  {seat_label(hc, s):<{width}}  picks up {pretty(hc.draws[s])}; "
                f"discards {pretty(hc.discards[s])}{face_up(hc.discards[s], ts, r)}"
            )
        return lines
    lines = ["Discard and draw:"]
    for s in range(r.players):
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
    return lines


def _in_play_lines(hc: HandCheck, width: int) -> list[str]:
    """The hands play starts from, the left card with the trumps: after the draw; without
    a draw only when the rules have a left card (else they are the hands dealt)."""
    r = hc.rules
    left = left_title(r)
    if not r.draw and not left:
        return []
    head = f"After {r.draw_name}" if r.draw else "At the start of play"
    if left:
        head += f" (the {left} shown with the trumps)"
    lines = [f"{head}:"]
    card = trump_suit(r, hc.trump).left
    for s in range(r.players):
        lines.append(f"  {seat_label(hc, s):<{width}}  {by_suit(hc.after_draw[s], hc.trump, card)}")
    return lines


def _trick_lines(hc: HandCheck) -> list[str]:
    """A line a trick, numbered from 1, each card under the last: the numbers padded to
    the widest (trick 10 of a two-deck hand), every card to the widest (``10♠``) and
    the plays to a full table's, so that ``won by`` lines up when seats sit a trick out
    (follow_rule=trumps_only)."""
    r = hc.rules
    num = len(str(len(hc.tricks)))
    full = r.players * len("0: 10♠") + (r.players - 1) * 2
    lines = []
    for t, tr in enumerate(hc.tricks):
        plays = "  ".join(
            f"{s}: {pretty_card(c):<3}" for s, c in zip(tr.seats, tr.cards, strict=True)
        ).ljust(full)
        mark = ""
        if hc.renege and hc.renege["trick"] == t:
            mark = f"   <- renege by seat {hc.renege['seat']}"
        team = f" (team {hc.team(tr.winner)})" if r.teams < r.players else ""
        lines.append(f"  {t + 1:>{num}}. {plays}   won by seat {tr.winner}{team}{mark}")
    return lines


def _point_lines(hc: HandCheck) -> list[str]:
    """Each point: its card, its worth and the side that took it; then each side's total."""
    r = hc.rules
    values = point_values(r)
    lines = []
    for name, team in hc.captured.items():
        c = hc.point_cards.get(name)
        label = name.replace("_", " ")
        if c is None:
            lines.append(f"  {label:<12} not in play")
            continue
        if isinstance(team, list):  # two decks: one side per copy in play
            took = _copies_taken(r, values[name], team)
        else:
            took = f"{values[name]} to {side_name(r, team)}"
        lines.append(f"  {label:<12} {pretty_card(c):>3}  {took}")
    pts = ", ".join(f"{side_name(r, t)} {p}" for t, p in enumerate(hc.points))
    lines.append(f"  taken: {pts}")
    return lines


def _copies_taken(r, value: int, teams: list[int]) -> str:
    """Two decks (§3.4): who took each copy of a point card in play, one side named once
    (``2 to team 1 (both copies)``, not ``1 each to team 1 and team 1``)."""
    if not teams:
        return "taken by nobody"
    if len(teams) == 1:
        return f"{value} to {side_name(r, teams[0])} (one copy in play)"
    if len(set(teams)) == 1:
        return f"{value * len(teams)} to {side_name(r, teams[0])} (both copies)"
    who = " and ".join(side_name(r, t) for t in teams)
    return f"{value} each to {who} (a copy each)"


def show_game(gc: GameCheck, hand: int | None = None) -> str:
    """The game's hands (numbered from 1) and running totals; ``hand`` (counted from 1,
    as listed) is shown in full below them."""
    from cinch_sim.text_tables import text_table

    lines = [f"Game to {gc.target}, first dealer seat {gc.first_dealer}: {len(gc.hands)} hands"]
    sides = [side_name(gc.rules, t) for t in range(gc.rules.teams)]
    rows = []
    for i, (h, tot) in enumerate(zip(gc.hands, gc.totals, strict=True)):
        if h.misdeal or h.thrown_in:
            contract = ["", "", "", "misdeal" if h.misdeal else "thrown in"]
        else:
            result = "made" if h.made else "set"
            if h.renege:
                result += f" (renege by seat {h.renege['seat']})"
            contract = [f"seat {h.maker}", str(h.bid), SUIT_SYMBOLS[SUITS[h.trump]], result]
        scores = [f"{s:+d}" for s in h.score] if not h.misdeal else [""] * len(sides)
        rows.append([str(i + 1), f"seat {h.dealer}", *contract, *scores, ", ".join(map(str, tot))])
    # each side's score change in the hand under its name, then the running totals
    heads = ["hand", "dealer", "maker", "bid", "trump", "result", *sides, "totals"]
    align = "rllrll" + "r" * len(sides) + "l"
    lines.append(text_table(rows, heads, align))
    if gc.winner is not None:
        lines.append(f"Winner: {side_name(gc.rules, gc.winner)} ({gc.reason})")
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

"""Hand-built records of real-table situations, worked out by hand (shared by tests).

The base hand (dealer 3, so seat 0 is eldest; trump hearts, so the Left Pedro
is the 5 of diamonds; team 0 = seats 0 and 2, team 1 = seats 1 and 3):

- Bids: seat 0 pass, seat 1 6, seat 2 7, seat 3 pass. Seat 2 is the maker (bid 7)
  and, by default (robber=maker), robs the pack.
- Discards, draws: seat 0 keeps QH 9H 7S 8S and draws 8H 4C; seat 1 keeps
  TH 3H 5D 2D KS and draws 7H; seat 3 keeps 6H 5H 4H AD KD and draws 3C; the
  robber takes the other 12 stock cards and keeps AH KH JH 2H AC 6D.
- Tricks (leader first):
  0. S2 AH, S3 4H, S0 8H, S1 3H -> seat 2
  1. S2 KH, S3 6H, S0 9H, S1 7H -> seat 2
  2. S2 6D, S3 KD, S0 4C, S1 5D -> seat 1 (the Left Pedro played on a diamond
     lead although seat 1 holds the 2D: legal under follow_rule=may_trump)
  3. S1 TH, S2 2H, S3 5H, S0 QH -> seat 0
  4. S0 7S, S1 KS, S2 JH, S3 3C -> seat 2
  5. S2 AC, S3 AD, S0 8S, S1 2D -> seat 2
- Points: High AH (trick 0) team 0; Low 2H, Game TH, Right Pedro 5H (trick 3)
  team 0; Jack JH (trick 4) team 0; Left Pedro 5D (trick 2) team 1.
  Team 0 takes 1+1+1+1+5 = 9, team 1 takes 5. Bid 7 made: score [9, 5].
"""

from __future__ import annotations

import copy

HANDS = [
    ["QH", "9H", "7S", "8S", "2S", "3S", "4S", "5S", "6S"],
    ["TH", "3H", "5D", "2D", "KS", "9S", "TS", "JS", "QS"],
    ["AH", "KH", "AC", "8D", "9D", "TD", "JD", "QD", "2C"],
    ["6H", "5H", "4H", "AD", "KD", "AS", "3D", "4D", "7D"],
]
STOCK = ["8H", "4C", "7H", "3C", "JH", "5C", "2H", "6C", "7C", "6D",
         "8C", "9C", "TC", "JC", "QC", "KC"]  # fmt: skip
TRICKS = [
    (2, ["AH", "4H", "8H", "3H"], 2),
    (2, ["KH", "6H", "9H", "7H"], 2),
    (2, ["6D", "KD", "4C", "5D"], 1),
    (1, ["TH", "2H", "5H", "QH"], 0),
    (0, ["7S", "KS", "JH", "3C"], 2),
    (2, ["AC", "AD", "8S", "2D"], 2),
]
RESULT = {
    "points": [9, 5],
    "captured": {"high": 0, "low": 0, "jack": 0, "game": 0, "right_pedro": 0, "left_pedro": 1},
    "made": True,
    "score": [9, 5],
    "renege": None,
}


def base_hand(options: dict | None = None, *, result: bool = True, winners: bool = True) -> dict:
    """The base hand as a record (a table may leave winners and result out)."""
    rec = {
        "format": "cinch-hand/1",
        "rules": {"preset": "standard", "options": dict(options or {})},
        "dealer": 3,
        "hands": copy.deepcopy(HANDS),
        "stock": list(STOCK),
        "bids": [[0, None], [1, 6], [2, 7], [3, None]],
        "maker": 2,
        "bid": 7,
        "trump": "H",
        "discards": [
            ["2S", "3S", "4S", "5S", "6S"],
            ["9S", "TS", "JS", "QS"],
            [],
            ["AS", "3D", "4D", "7D"],
        ],
        "draws": [
            ["8H", "4C"],
            ["7H"],
            ["JH", "5C", "2H", "6C", "7C", "6D", "8C", "9C", "TC", "JC", "QC", "KC"],
            ["3C"],
        ],
        "robber_discards": [
            "8D",
            "9D",
            "TD",
            "JD",
            "QD",
            "2C",
            "5C",
            "6C",
            "7C",
            "8C",
            "9C",
            "TC",
            "JC",
            "QC",
            "KC",
        ],  # fmt: skip
        "tricks": [
            {"leader": ld, "cards": list(cards), **({"winner": w} if winners else {})}
            for ld, cards, w in TRICKS
        ],
    }
    if result:
        rec["result"] = copy.deepcopy(RESULT)
    return rec


def set_play(rec: dict, trick: int, pos: int, token: str) -> None:
    rec["tricks"][trick]["cards"][pos] = token


def defenders_renege() -> dict:
    """Seat 3 (a defender) plays 3C on the diamond lead of trick 2 holding AD KD;
    he plays KD in trick 4 instead. Tricks are won as before (points 9/5), but
    docs/rules.md §1.16: the innocent bidders score 14, the offenders 0, made true."""
    rec = base_hand(result=False)
    set_play(rec, 2, 1, "3C")
    set_play(rec, 4, 3, "KD")
    return rec


def bidders_renege() -> dict:
    """Seat 2 (the maker) plays AC on the trump lead of trick 3 holding JH 2H, and
    leads 2H in trick 5 instead. Points are still 9/5 (trick 3 goes to seat 0,
    trick 5 to seat 2), but the bidders are set by their bid: score [-7, 14]."""
    rec = base_hand(result=False)
    set_play(rec, 3, 1, "AC")
    set_play(rec, 5, 0, "2H")
    return rec


def rotate(rec: dict, k: int) -> dict:
    """The same hand with every seat moved k places clockwise (team numbers swap
    when k is odd)."""
    rec = copy.deepcopy(rec)
    P = 4

    def m(s):
        return (s + k) % P

    rec["dealer"] = m(rec["dealer"])
    for key in ("hands", "discards", "draws"):
        if key in rec:
            old = rec[key]
            rec[key] = [old[(s - k) % P] for s in range(P)]
    rec["bids"] = [[m(s), b] for s, b in rec["bids"]]
    if rec.get("maker") is not None:
        rec["maker"] = m(rec["maker"])
    for t in rec.get("tricks", []):
        t["leader"] = m(t["leader"])
        if "winner" in t:
            t["winner"] = m(t["winner"])
    rec.pop("result", None)
    return rec


def thrown_in(dealer: int = 3, all_pass: str = "redeal_next") -> dict:
    rec = {
        "format": "cinch-hand/1",
        "rules": {"preset": "standard", "options": {"all_pass": all_pass}},
        "dealer": 3,
        "hands": copy.deepcopy(HANDS),
        "stock": list(STOCK),
        "bids": [[0, None], [1, None], [2, None], [3, None]],
        "maker": None,
        "bid": None,
        "trump": None,
    }
    rec = rotate(rec, (dealer - 3) % 4) if dealer != 3 else rec
    return rec


def dealer_robs() -> dict:
    """The base hand with seat 2 the dealer (so seat 3 is eldest) under
    robber=dealer: seat 2 is maker and dealer, and robs as before. The bidding
    and the draw start from seat 3, so the stock order moves 3C to the top."""
    rec = base_hand({"robber": "dealer"}, result=False)
    rec["dealer"] = 2
    rec["bids"] = [[3, None], [0, None], [1, 6], [2, 7]]
    rec["stock"] = ["3C", "8H", "4C", "7H"] + STOCK[4:]
    return rec

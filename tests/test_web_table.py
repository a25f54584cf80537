"""A game against the bots (issue 30, the play page): one seat's decisions come from a
person, a hand is replayed to each of them, and every hand ends as a clean record
with its review and the game's totals."""

from __future__ import annotations

import pytest

from cinch_sim.web.table import Table, TableError


def _answer(q: dict) -> object:
    """A legal answer to a question: the highest bid, the first suit, the cards that
    must be kept topped up from the hand's start, the first legal card."""
    if q["kind"] == "bid":
        return q["legal"][-1]
    if q["kind"] == "trump":
        return q["legal"][0]
    if q["kind"] == "discard":
        keep = [c for c in q["hand"] if c not in q["legal"]]
        keep += [c for c in q["trumps"] if c not in keep][: q["keep"][1] - len(keep)]
        for c in q["hand"]:
            if len(keep) >= q["keep"][1]:
                break
            if c not in keep:
                keep.append(c)
        return " ".join(keep)
    return q["legal"][0]


def _play_hand(t: Table) -> dict:
    s = t.state()
    for _ in range(60):
        if s["status"] == "hand over":
            return s
        s = t.choose(_answer(s["question"]))
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("variant, seat", [("standard", 0), ("standard", 2), ("cutthroat3", 1),
                                           ("auction", 3), ("no_draw", 1), ("two_deck", 1),
                                           ("heasly", 4)])  # fmt: skip
def test_a_hand_played_through_the_page_is_a_clean_record(variant, seat):
    from cinch_sim.api import referee
    from cinch_sim.solver.limits import first_quick_trick

    t = Table(variant, seat, seed=7)
    s = _play_hand(t)
    rep = referee([s["record"]])
    assert rep.ok and rep.summary().startswith("1 valid")
    assert s["review"]["status"] == "valid" and len(s["tricks"]) == len(s["review"]["tricks"])
    # two decks and six seats: reviewed from the first trick the solver answers quickly
    first = first_quick_trick(t.rules)
    late = variant in ("two_deck", "heasly")
    assert s["review"].get("from_trick", 1) == first and (first > 1) == late
    unsolved = [tr["dd_start"] is None for tr in s["review"]["tricks"]]
    assert unsolved[:first] == [True] * (first - 1) + [False]
    assert sum(s["game"]["totals"]) == sum(s["record"]["result"]["score"])  # type: ignore[index]


def test_the_bots_decide_as_before_and_the_game_goes_on():
    t = Table("standard", 0, seed=3)
    first = t.state()
    assert first["question"]["kind"] == "bid" and len(first["question"]["hand"]) == 9
    again = Table("standard", 0, seed=3).state()
    assert again["question"] == first["question"] and again["bids"] == first["bids"]
    done = _play_hand(t)
    nxt = t.next_hand()
    assert nxt["hand_number"] == 2 and nxt["dealer"] == (done["dealer"] + 1) % 4
    assert nxt["game"]["totals"] == done["game"]["totals"]


def test_a_move_that_is_not_allowed_is_refused_in_one_line():
    t = Table("standard", 0, seed=3)
    q = t.state()["question"]
    with pytest.raises(TableError, match="is not one of"):
        t.choose(99)
    with pytest.raises(TableError, match="finish this hand first"):
        t.next_hand()
    s = t.choose(q["legal"][-1])  # the top bid: the maker names trump
    s = t.choose(s["question"]["legal"][0])
    q = s["question"]
    assert q["kind"] == "discard"
    with pytest.raises(TableError, match="keep"):
        t.choose(" ".join(q["hand"]))  # keeps everything
    with pytest.raises(TableError):
        t.choose("ZZ")
    with pytest.raises(TableError, match="variant"):
        Table("bridge")
    with pytest.raises(TableError, match="seat"):
        Table("standard", 4)


def test_hints_say_what_the_advisor_and_the_bots_would_do():
    t = Table("standard", 0, seed=5)
    h = t.hint()
    assert h["kind"] == "bid" and h["advice"].startswith("Advice: ")
    s = t.state()
    while s["question"]["kind"] != "play":
        s = t.choose(_answer(s["question"]))
    h = t.hint()
    assert h["kind"] == "play" and {"heuristic", "pimc"} <= set(h)
    assert h["heuristic"] in s["question"]["legal"] and h["pimc"] in s["question"]["legal"]
    # why PIMC plays its card: each legal card's mean over its deals, its card the best
    # (or tied for best: the heuristic breaks ties)
    why = h["pimc_why"]
    assert set(why) == set(s["question"]["legal"]) and why[h["pimc"]] == max(why.values())
    # the solver values every legal card: the best for the person's side is the value
    # of the position itself (the maker's side maximises, the others minimise)
    assert set(h["solver"]) == set(s["question"]["legal"])
    assert all(0 <= v <= t.rules.total_points for v in h["solver"].values())
    assert t.state()["question"] == s["question"]  # asking for a hint changes nothing
    # the solver's values are the review's: the card played keeps its value, and the
    # value before it is the best the person's side could keep
    card = s["question"]["legal"][0]
    t.choose(card)
    done = _play_hand(t)
    review = done["review"]
    mine = next(p for tr in review["tricks"] for p in tr["plays"] if p["seat"] == 0)
    ours = t.rules.team_of(0) == t.rules.team_of(review["maker"])
    best = (max if ours else min)(h["solver"].values())
    assert mine["card"] == card and mine["after"] == h["solver"][card] and mine["before"] == best


def test_pimc_plays_the_heuristic_s_card_in_a_six_seat_first_trick_then_solves():
    """Six seats: a first-trick solve can take minutes (a hand of PIMC at every seat took
    212 s), so PIMC plays the heuristic's card in trick 1 and solves from trick 2, the
    solver's first quick trick."""
    t = Table("cutthroat6", 2, seed=11)
    s = t.state()
    hints = []
    while s["status"] != "hand over" and len(hints) < 2:
        q = s["question"]
        if q["kind"] == "play":
            hints.append((t.hint(), q["legal"]))
        s = t.choose(_answer(q))
    (first, legal1), (second, legal2) = hints
    assert first["pimc_why"] is None and first["pimc"] == first["heuristic"]
    assert "from trick 2 on" in first["solver_note"]
    assert set(second["pimc_why"]) == set(legal2) and set(second["solver"]) == set(legal2)
    assert len(legal1) > 1  # a real choice: a forced card would prove nothing


def test_two_decks_discard_in_two_passes_and_the_solver_waits_for_trick_five():
    """Under two_deck the person keeps one copy of each card, then second copies; the
    hint gives the solver's values only once each hand holds 8 cards (trick 5)."""
    t = Table("two_deck", 1, seed=8)
    s = t.state()
    passes, second, hints = [], [], []
    for _ in range(40):
        if s["status"] == "hand over":
            break
        q = s["question"]
        if q["kind"] == "discard":
            passes.append(q["pass"])
            if q["pass"] == 0:
                assert len(set(q["hand"])) == len(q["hand"])  # each face once
                second = q["second_copies"]
            else:
                assert q["kept"] and set(q["hand"]) <= set(second)
        if q["kind"] == "play":
            hints.append((t.hint(), q["legal"]))
        s = t.choose(_answer(q))
    assert passes == [0, 1] and len(hints) == 11  # the last card plays itself
    first, legal = hints[0]
    assert "solver" not in first and "from trick 5 on" in first["solver_note"]
    assert first["heuristic"] in legal and first["pimc"] in legal
    assert first["pimc_why"] is None  # two decks: PIMC plays the heuristic's card so early
    fifth, legal = hints[4]
    assert set(fifth["solver"]) == set(legal) and "solver_note" not in fifth
    assert set(fifth["pimc_why"]) == set(legal)

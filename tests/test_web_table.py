"""A game against the bots (issue 30, the play page): one seat's decisions come from a
person, a hand is replayed to each of them, and every hand ends as a clean record
with its review and the game's totals."""

from __future__ import annotations

import pytest

from cinch_sim.cards import format_card
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
            if c not in keep and c not in q["must_throw"]:
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


def test_a_seed_deals_a_game_again_and_a_bad_one_is_refused():
    """The page sends a seed as digits (a browser's numbers lose digits past 2**53); the
    state gives it back as digits, and the same seed deals the same hands."""
    first = Table("pidro", 1, seed="12").state()
    assert first["seed"] == "12"
    assert Table("pidro", 1, seed=12).state()["question"] == first["question"]
    assert Table("pidro", 1, seed=13).state()["question"]["hand"] != first["question"]["hand"]
    assert Table("pidro", 1, seed=str(2**64 - 1)).state()["seed"] == str(2**64 - 1)
    for bad, said in (("1e3", "seed '1e3' must be a whole number"), (-1, "out of range"),
                      (2**64, "out of range"), (True, "not a whole number"),
                      (2.5, "not a whole number")):  # fmt: skip
        with pytest.raises(TableError, match=said):
            Table("pidro", 0, seed=bad)


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
    assert h["kind"] == "bid" and h["advice"].startswith(("bid ", "pass"))  # no "Advice: "
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


def _until(t: Table, stop, limit: int = 60) -> dict:
    """The table's state once ``stop(state)`` holds (the person answering by ``_answer``)."""
    s = t.state()
    for _ in range(limit):
        if stop(s):
            return s
        s = t.choose(_answer(s["question"]))
    raise AssertionError("never reached")


def test_two_decks_hint_while_bidding_reads_both_copies():
    """The advisor gets the 18 cards dealt, a face held twice listed twice (it was
    refused, "a hand needs 18 cards, got 16", and the page said "CardError")."""
    t = Table("two_deck", 1, seed=8)
    q = t.state()["question"]
    assert len(q["hand"]) == 18 and len(set(q["hand"])) < 18  # some face held twice
    assert sorted(t._dealt()) == sorted(q["hand"])
    h = t.hint()
    assert h["kind"] == "bid" and not h["advice"].startswith("no advice")
    assert h["call"] == "pass" or h["call"] in q["legal"]


def test_a_short_trick_is_finished_and_shows_its_winner():
    """pidro (follow_rule=trumps_only): a seat without trumps sits out, so a trick may
    hold fewer cards than seats; once played it has a winner, during the hand and
    after it (it stayed "current", winner None, while the next trick was asked)."""
    t = Table("pidro", 0, seed=6)
    s = _until(t, lambda s: s["status"] == "your turn" and len(s["tricks"]) == 4)
    short = s["tricks"][2]
    assert len(short["cards"]) == 2 and short["winner"] is not None
    assert all(tr["winner"] is not None for tr in s["tricks"][:-1])
    done = _play_hand(t)
    assert any(len(tr["cards"]) < 4 for tr in done["tricks"])
    assert [tr["winner"] for tr in done["tricks"]] == [
        tr["winner"] for tr in done["record"]["tricks"]
    ]


def test_each_card_of_a_trick_names_its_seat():
    """The trick list labels each card with who played it: the review's seats."""
    t = Table("pidro", 0, seed=12)
    done = _play_hand(t)
    for mine, solved in zip(done["tricks"], done["review"]["tricks"], strict=True):
        assert [(p["seat"], p["card"]) for p in mine["plays"]] == [
            (p["seat"], p["card"]) for p in solved["plays"]
        ]
        assert mine["plays"][0]["seat"] == mine["leader"]


@pytest.mark.parametrize(
    "value, message",
    [(None, "not null"), (True, "not true"), (5, "not 5"), ({"a": 1}, 'not {"a": 1}'),
     ([1, 2], "not [1, 2]"), ("ZZ", "is not a list of cards")],
)  # fmt: skip
def test_a_discard_of_the_wrong_type_is_refused_in_plain_words(value, message):
    """null, true, a number: a one-line message naming what is expected, not Python's
    "'NoneType' object is not iterable"."""
    t = Table("standard", 0, seed=3)
    _until(t, lambda s: s["question"]["kind"] == "discard")
    with pytest.raises(TableError, match="discard is the cards you keep|not a list") as exc:
        t.choose(value)
    assert message in str(exc.value) and "object" not in str(exc.value)


def test_wrong_types_for_a_bid_a_trump_and_a_card_are_refused_in_plain_words():
    t = Table("standard", 0, seed=3)
    with pytest.raises(TableError, match=r"^a bid is a whole number \(0: pass\), not \[0\]$"):
        t.choose([0])
    with pytest.raises(TableError, match="not true"):
        t.choose(True)
    s = _until(t, lambda s: s["question"]["kind"] == "trump")
    with pytest.raises(TableError, match=r"^trump is a suit letter \(.*\), not 1$"):
        t.choose(1)
    s = _until(t, lambda s: s["question"]["kind"] == "play")
    with pytest.raises(TableError, match=r"^a play is one card, one of .*, not null$"):
        t.choose(None)
    with pytest.raises(TableError, match="a play is one card"):
        t.choose(" ".join(s["question"]["legal"][:2]) or "AS KS")


def test_an_answer_to_an_earlier_question_is_refused():
    """A double click sends its second answer with the move it was given for: the
    table has moved on, so it is refused, and the question shown stands."""
    t = Table("standard", 0, seed=3)
    s = t.state()
    after = t.choose(s["question"]["legal"][0], s["move"])  # pass (or the lowest)
    assert after["move"] == s["move"] + 1
    with pytest.raises(TableError, match="earlier question"):
        t.choose(s["question"]["legal"][0], s["move"])
    assert t.state()["question"] == after["question"]
    t.choose(_answer(after["question"]), after["move"])  # the right move is taken


def test_pidro_discard_offers_only_trumps_and_says_non_trumps_go():
    """must_discard_nontrumps: every non-trump must go (the page offered them, and the
    kernel refused the discard); the robber is not bound by it."""
    t = Table("pidro", 0, seed=1)
    q = _until(t, lambda s: s["question"]["kind"] == "discard")["question"]
    assert q["phase"] == "discard"
    assert set(q["must_throw"]) == set(q["hand"]) - set(q["trumps"]) and q["must_throw"]
    plain = q["must_throw"][0]
    with pytest.raises(TableError, match=f"every non-trump goes under these rules: {plain}"):
        t.choose(" ".join(q["trumps"] + [plain]))
    s = t.choose(" ".join(q["trumps"]))
    assert s["status"] == "hand over" or s["question"]["kind"] != "discard"
    robber = Table("pidro", 3, seed=1)  # the dealer robs
    q = _until(robber, lambda s: s["question"]["kind"] == "discard")["question"]
    assert q["phase"] == "rob" and q["must_throw"] == []
    # only trumps are played in pidro: the page is told, to say so to a robber short
    # of trumps (the non-trumps he must keep are never played)
    assert q["trumps_only"] is True and q["phase"] == "rob"
    plain = _until(Table("standard", 3, seed=1), lambda s: s["question"]["kind"] == "discard")
    assert plain["question"]["trumps_only"] is False


def test_robbing_says_exactly_how_many_cards_to_keep():
    t = Table("standard", 3, seed=1)
    q = _until(t, lambda s: s["question"]["kind"] == "discard")["question"]
    assert q["phase"] == "rob" and q["keep"] == [6, 6]
    # the cards the stock brought: the hand less the nine dealt, named for the page
    dealt = set(t._dealt())
    assert q["from_stock"] == [c for c in q["hand"] if c not in dealt]
    assert q["from_stock"] and len(q["hand"]) - len(q["from_stock"]) <= 9
    with pytest.raises(TableError, match="^keep exactly 6 cards, not 2$"):
        t.choose(" ".join(q["trumps"]))


def test_the_trump_hint_is_one_sentence_naming_the_suit():
    """After winning the bid: which suit to name, in words, with each suit's make rate
    at the contract; no "pass" (no longer possible) and no "Advice:" mid-sentence."""
    t = Table("standard", 0, seed=5)
    s = _until(t, lambda s: s["question"]["kind"] == "trump")
    contract = max(b["bid"] or 0 for b in s["bids"] if b["seat"] == 0)
    h = t.hint()
    text = h["advice"]
    assert h["kind"] == "trump" and h["best_trump"] in s["question"]["legal"]
    names = {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}
    assert text.startswith(f"name {names[h['best_trump']]}: ")
    assert f"your bid of {contract} is made" in text
    assert "Advice" not in text and "pass" not in text and text.count(". ") == 0
    assert all(n in text for n in names.values())


def test_a_bid_hint_with_only_pass_left_says_so_without_dealing():
    t = Table("standard", 2, seed=3)
    t.last = None
    t.state()
    t.last["question"]["legal"] = [0]  # as after an earlier seat's 14
    h = t.hint()
    assert h["call"] == "pass" and "highest bid there is" in h["advice"]


@pytest.mark.parametrize(
    "variant, seat, sides",
    [("standard", 1, ["the opponents", "you and your partner"]),
     ("cutthroat3", 1, ["seat 0", "you", "seat 2"])],
)  # fmt: skip
def test_the_sides_and_the_hand_s_end_are_told_from_the_person_s_seat(variant, seat, sides):
    """Totals name "you and your partner" and "the opponents" (cut-throat: "you"),
    and the hand's end says who bid what, made or set, and each side's change."""
    t = Table(variant, seat, seed=7)
    s = t.state()
    assert s["sides"] == sides and s["my_side"] == t.rules.team_of(seat)
    done = _play_hand(t)
    rec = done["record"]
    made = "made it" if rec["result"]["made"] else "set"
    assert made in done["summary"] and f"bid {rec['bid']} in " in done["summary"]
    mine = t.rules.team_of(seat)  # the person's own side first, whatever his seat
    order = [mine] + [i for i in range(t.rules.teams) if i != mine]
    change = ", ".join(f"{sides[i]} {rec['result']['score'][i]:+d}" for i in order)
    assert done["summary"].endswith(f"This hand: {change}.")
    # who took each point, in words: every point named once, to its taker's side
    points = done["summary"].split(" points. ", 1)[1].split(" This hand:")[0]
    parts = dict(p.rsplit(" to ", 1)[::-1] for p in points.rstrip(".").split("; ") if " to " in p)
    for name, team in rec["result"]["captured"].items():
        words = name.replace("_", " ").title()
        assert points.count(words) == 1, (words, points)
        if team is not None:
            assert words in parts[sides[team]], (words, points)
    assert t._winner_text(t.rules.team_of(seat)).startswith("You ")  # "and your partner"
    other = next(i for i in range(t.rules.teams) if i != t.rules.team_of(seat))
    assert t._winner_text(other) in ("The opponents win the game", f"Seat {other} wins the game")


def test_the_game_s_end_names_the_winner_from_the_person_s_seat():
    """cutthroat3 played to its end: the winner as the person reads it."""
    t = Table("cutthroat3", 1, seed=7)
    for _ in range(30):
        done = _play_hand(t)
        if done["game"]["winner"] is not None:
            break
        t.next_hand()
    game = done["game"]
    w = game["winner"]  # the person sits at seat 1
    assert w is not None
    assert game["winner_text"] == ("You win the game" if w == 1 else f"Seat {w} wins the game")
    assert game["totals"][w] >= game["target"]
    with pytest.raises(TableError, match="game is over"):
        t.next_hand()


def test_widow_keep_is_asked_with_the_widow_in_hand():
    """widow: the keep after picking up the widow is a robber's question (exactly six
    of thirteen, every trump kept), flagged so the page says "With your widow"; the
    play then starts with six cards."""
    t = Table("widow", 0, seed=2)
    q = _until(t, lambda s: s["question"]["kind"] == "discard")["question"]
    assert q["phase"] == "rob" and q["widow"] is True
    assert len(q["hand"]) == 13 and q["keep"] == [6, 6]
    # the four the widow brought: the stock's first four (seat 0 is eldest), as dealt
    from cinch_sim import layout as L
    from cinch_sim.cards import format_card

    _, tr, _ = t._run()
    stock = [format_card(int(c)) for c in tr[L.T_DECK + 36 : L.T_DECK + 52]]
    assert sorted(q["picked_up"]) == sorted(stock[:4]) and set(stock[:4]) <= set(q["hand"])
    trumps = q["trumps"][:6]
    rest = [c for c in q["hand"] if c not in trumps][: 6 - len(trumps)]
    s = t.choose(" ".join(trumps + rest))
    s = _until(t, lambda s: s["status"] == "hand over" or s["question"]["kind"] == "play")
    if s["status"] != "hand over":
        assert len(s["question"]["hand"]) == 6


def test_widow_picked_up_when_never_asked_to_bid():
    """A seat never asked to bid (eldest bid the top, here 7 under bid_max=7) still
    sees just the four its widow brought: its dealt cards come from the deal itself,
    not from a bid question it never had."""
    from cinch_sim.rules import VARIANTS

    t = Table("widow", 1, seed=0)
    t.rules = VARIANTS["widow"].with_options({"bid_max": 7})
    q = _until(t, lambda s: s["question"]["kind"] == "discard")["question"]
    assert len(t._dealt()) == 9 and len(q["picked_up"]) == 4
    assert set(q["picked_up"]) | set(t._dealt()) == set(q["hand"])


def test_a_card_played_for_the_person_is_marked_forced():
    """The kernel plays a seat's only legal card without asking: the page marked
    nothing, and the card appeared as played. Every play of the person's is either
    one they chose (in order) or marked ``forced``, and the last trick's always is."""
    t = Table("standard", 0, seed=2)
    s = _until(t, lambda s: s.get("question") is None)
    mine = [p for tr in s["tricks"] for p in tr["plays"] if p["seat"] == 0]
    chosen = [p["card"] for p in mine if not p.get("forced")]
    assert chosen == [format_card(c) for c in t.choices["play"]]
    assert len(mine) == 6 and 0 < len(mine) - len(chosen) < 6
    assert mine[-1].get("forced") is True


def test_the_points_taken_are_told_copy_by_copy_with_two_decks():
    """Two decks: a point whose two copies went one to each side is "a copy of" it on
    each side; both to one side, "both copies of"; a point not in play is said so."""
    t = Table("two_deck", 1, seed=7)  # seat 1: team 1 is "you and your partner"
    captured = {"high": [0, 1], "low": [1, 1], "jack": [0], "game": None,
                "right_pedro": [0, 0], "left_pedro": [0, 1]}  # fmt: skip
    assert t._points_taken(captured) == (
        "A copy of High (the Ace of trumps), both copies of Low and a copy of the Left "
        "Pedro to you and your partner; a copy of High (the Ace of trumps), Jack, both "
        "copies of the Right Pedro and a copy of the Left Pedro to the opponents; Game "
        "(the 10 of trumps) not in play."
    )


def _heuristic_hand(variant: str, seat: int, seed: int) -> dict:
    """The table's first hand with a heuristic bot in the person's seat too."""
    from cinch_sim.engine.run import PolicySet
    from cinch_sim.records.writer import hand_record

    t = Table(variant, seat, seed=seed)
    t._policies = lambda delegate=None: PolicySet.from_specs(t.rules.players, play=t.bots)
    out, tr, _ = t._run()
    return hand_record(t.rules, out, tr)


@pytest.mark.parametrize("variant, seat, seed", [("pidro", 1, 2), ("standard", 0, 4)])
def test_following_every_heuristic_hint_plays_as_a_heuristic_seat(variant, seat, seed):
    """The heuristic's hint decides as a heuristic seat of this game does, the preset's
    own play choices in (pidro's partners keep the cut-throat play rules off): a person
    who bids and names trump as that seat did, then keeps and plays each card the hint
    names, plays the very same hand."""
    from cinch_sim.policies import replay as R
    from cinch_sim.policies.heuristic import DEFAULT_PARAMS

    # the heuristic's vectors fit in the replay vector's room for them
    assert max(len(DEFAULT_PARAMS[f"heuristic_{k}"]) for k in ("discard", "play")) <= R.BOT_SLOTS
    ref = _heuristic_hand(variant, seat, seed)
    bids = [b for s, b in ref["bids"] if s == seat]
    t = Table(variant, seat, seed=seed)
    s = t.state()
    while s["status"] != "hand over":
        q = s["question"]
        if q["kind"] == "bid":
            s = t.choose(bids.pop(0) or 0)
        elif q["kind"] == "trump":
            s = t.choose(ref["trump"])
        else:
            s = t.choose(t.hint()["heuristic"])
    assert s["record"] == ref

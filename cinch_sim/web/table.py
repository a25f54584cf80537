"""A game at a table: one seat played by a person through the page, bots at the others.

Each request replays the current hand from its deal (same seed, same hand
number) with the person's seat on the ``replay`` policies
(``policies/replay.py``): the bots decide exactly as before, the person's
choices so far are replayed, and the hand stops at the person's next decision,
which ``state`` describes. ``choose`` adds an answer (checked against what was
asked) and plays on. At the end of a hand: its record, its review against
double-dummy play (``api.solve``) and the game's totals to the target
(``records.writer.game_record``, the referee's end rule). Any preset; the bots
play the heuristic or PIMC.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

import numpy as np

from cinch_sim import layout as L
from cinch_sim import notation as N
from cinch_sim.cards import SUITS, format_card
from cinch_sim.rules import VARIANTS, Rules

KINDS = ("bid", "trump", "discard", "play")
PHASES = {L.PHASE_BID: "bid", L.PHASE_TRUMP: "trump", L.PHASE_DISCARD: "discard",
          L.PHASE_ROB: "rob", L.PHASE_PLAY: "play"}  # fmt: skip
BOTS = ("heuristic", "pimc")


class TableError(ValueError):
    """A move the table cannot take (not the person's to make, or not allowed)."""


def _cards(mask: int, twice: int = 0) -> list[str]:
    """The cards of a face mask, in card order; with two decks each face of ``twice``
    (the faces held twice) listed a second time beside the first."""
    return [format_card(c) for c in range(52) for m in (mask, twice) if m >> c & 1]


def _shown(value: Any) -> str:
    """A wrong answer as the page sent it (JSON), cut short: ``null``, ``true``, ``5``."""
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _parsed(text: str) -> list[int] | None:
    """The cards of a text, or None when it is not cards."""
    from cinch_sim.cards import CardError, parse_cards

    try:
        return parse_cards(text)
    except CardError:
        return None


def _seed_of(value: object) -> int:
    """A game's seed as the page sends it (``queries.page_seed``), so a game can be
    dealt again; a bad one is the game's own one-line error."""
    from cinch_sim.web.queries import BadRequest, page_seed

    try:
        return page_seed(value)
    except BadRequest as exc:
        raise TableError(str(exc)) from None


class Table:
    """One game: the rules, the person's seat, the bots, the hands played so far."""

    def __init__(self, variant: str = "standard", seat: int = 0, bots: str = "heuristic",
                 seed: int | None = None) -> None:  # fmt: skip
        if variant not in VARIANTS:
            raise TableError(f"variant {variant!r} is not one of {', '.join(VARIANTS)}")
        if bots not in BOTS:
            raise TableError(f"bots {bots!r} is not one of {', '.join(BOTS)}")
        self.rules: Rules = VARIANTS[variant]
        self.variant = variant
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < self.rules.players
        ):
            raise TableError(f"seat {seat!r} must be a seat 0..{self.rules.players - 1}")
        self.seat = seat
        self.bots = bots
        self.seed = secrets.randbelow(1 << 31) if seed is None else _seed_of(seed)
        self.first_dealer = self.rules.players - 1
        self.records: list[dict[str, Any]] = []  # the hands finished
        self.choices: dict[str, list[int]] = {k: [] for k in KINDS}
        self.last: dict[str, Any] | None = None
        self.moves = 0  # answers taken and hands dealt: an answer naming an older count is stale
        self.lock = threading.Lock()  # one request at a time changes a game

    # ---- the kernel ----------------------------------------------------------
    @property
    def dealer(self) -> int:
        return (self.first_dealer + len(self.records)) % self.rules.players

    def _policies(self, delegate: str | None = None):
        """The bots at every other seat; the person's seat replays its choices, and
        (``delegate``, ``"play:pimc"``) hands its next decision of a kind to a bot."""
        from cinch_sim.engine.run import PolicySet
        from cinch_sim.policies import replay as R
        from cinch_sim.policies.loading import load_policy
        from cinch_sim.signatures import N_PARAMS

        ps = PolicySet.from_specs(self.rules.players, play=self.bots)
        # a heuristic hint decides with the heuristic's vectors as a heuristic seat here
        # holds them: the preset's own play choices put in (PolicySet.params)
        heuristic = PolicySet.from_specs(self.rules.players).params(self.rules)[:, self.seat]
        for k, kind in enumerate(KINDS):
            ch = self.choices[kind]
            if len(ch) > R.MAX_CHOICES:
                raise TableError(f"more than {R.MAX_CHOICES} {kind} decisions in one hand")
            params = [0.0] * N_PARAMS
            params[R.R_GIVEN] = float(len(ch))
            params[R.R_CHOICES : R.R_CHOICES + len(ch)] = [float(c) for c in ch]
            if delegate is not None and delegate.split(":")[0] == kind:
                params[R.R_DELEGATE] = float(R.DELEGATES[delegate.split(":")[1]])
            if kind in ("discard", "play"):
                params[R.R_BOT :] = [float(x) for x in heuristic[k, : R.BOT_SLOTS]]
            spec = f"cinch_sim.policies.replay:replay_{kind}"
            getattr(ps, kind)[self.seat] = load_policy(kind, spec, tuple(params))
        return ps

    def _run(self, delegate: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from cinch_sim.engine.run import Conditions, _kernel

        ps = self._policies(delegate)
        table, ids, params = ps.kernel_arrays(self.rules, True)
        out = np.empty((1, L.row_len(self.rules.decks)), np.int32)
        tr = np.empty((1, L.trace_len(self.rules.decks)), np.int64)
        setup = Conditions().to_setup(self.dealer, 0)
        _kernel(self.rules)(
            self.rules.to_array(), setup, np.uint64(self.seed), np.int64(len(self.records)),
            np.int64(1), table, ids, params, out, tr,
        )  # fmt: skip
        return out[0], tr[0], params

    # ---- what the page shows ---------------------------------------------------
    def _partners(self) -> list[int]:
        """The seats on the person's side but his own: the trick rows name them."""
        mine = self.rules.team_of(self.seat)
        return [s for s in range(self.rules.players)
                if s != self.seat and self.rules.team_of(s) == mine]  # fmt: skip

    def state(self) -> dict[str, Any]:
        """Where the hand stands: the person's question, or the hand's end."""
        from cinch_sim.policies import replay as R

        out, tr, params = self._run()
        base = {"seat": self.seat, "dealer": self.dealer, "hand_number": len(self.records) + 1,
                "variant": self.variant, "bots": self.bots, "move": self.moves,
                "seed": str(self.seed), "sides": self._side_names(),
                "my_side": self.rules.team_of(self.seat),
                "partnerships": bool(self.rules.partnerships), "game": self._game(),
                "partners": self._partners()}  # fmt: skip
        if out[L.H_ERROR]:
            kind = L.KIND_NAMES[int(out[L.H_ERROR_KIND])]
            p = params[L.KIND_NAMES.index(kind), self.seat]
            if int(out[L.H_ERROR_SEAT]) == self.seat and p[R.R_ASKED] != 1:
                raise TableError(f"the rules do not allow that {kind}")  # the last answer
            if int(out[L.H_ERROR_SEAT]) != self.seat:
                raise RuntimeError(f"the hand stopped at seat {int(out[L.H_ERROR_SEAT])}'s {kind}")
            question = self._question(kind, p, tr)
            self.last = {
                "kind": kind,
                "legal": int(p[R.R_LEGAL]),
                "hand": int(p[R.R_HAND]),
                "held": bin(int(p[R.R_HAND])).count("1") + bin(int(p[R.R_HAND2])).count("1"),
                "question": question,
                "min_keep": int(p[R.R_MIN_KEEP]),
                "max_keep": int(p[R.R_MAX_KEEP]),
            }
            return {**base, "status": "your turn", "question": question, **self._so_far(tr)}
        from cinch_sim.api import solve
        from cinch_sim.records.writer import hand_record

        record = hand_record(self.rules, out, tr)
        self.last = {"kind": None, "record": record}
        review = solve([record], from_trick="quick").hands[0]
        review["partnerships"] = bool(self.rules.partnerships)  # "the maker's side", "the maker"
        game = self._game(extra=record)
        return {**base, "status": "hand over", "record": record, "review": review,
                "summary": self._hand_summary(record), "game": game,
                **self._so_far(tr)}  # fmt: skip

    def _question(self, kind: str, p: np.ndarray, tr: np.ndarray) -> dict[str, Any]:
        """The person's question from the replay vector of its kind: what is asked,
        the hand, the trump, and what may be answered."""
        from cinch_sim.policies import replay as R

        legal, hand = int(p[R.R_LEGAL]), int(p[R.R_HAND])
        question: dict[str, Any] = {
            "kind": kind,
            "phase": PHASES[int(p[R.R_PHASE])],
            # a discard pass asks about the faces once (or the second copies) only
            "hand": _cards(hand, 0 if kind == "discard" else int(p[R.R_HAND2])),
            "trump": SUITS[int(p[R.R_TRUMP])] if p[R.R_TRUMP] >= 0 else None,
        }
        if kind == "bid":
            question["legal"] = [b for b in range(63) if legal >> b & 1]  # 0: pass
        elif kind == "trump":
            question["legal"] = [SUITS[s] for s in range(4) if legal >> s & 1]
        elif kind == "discard":
            question.update(self._discard_question(question["phase"], p, tr))
        else:
            question["legal"] = _cards(legal)
        return question

    def _discard_question(self, phase: str, p: np.ndarray, tr: np.ndarray) -> dict[str, Any]:
        """A discard's (or a rob's) choices: what may go, how many cards are kept, the
        trumps (kept first), and under must_discard_nontrumps the cards that must go,
        so the page never offers a keep the rules refuse."""
        from cinch_sim.policies import replay as R

        legal, hand = int(p[R.R_LEGAL]), int(p[R.R_HAND])
        trumps = hand & self._trump_mask(int(p[R.R_TRUMP]))
        out: dict[str, Any] = {
            "legal": _cards(legal),  # may be thrown
            "keep": [int(p[R.R_MIN_KEEP]), int(p[R.R_MAX_KEEP])],
            # trumps are kept first: as many as the cards kept allow (docs/rules.md)
            "trumps": _cards(trumps),
            "must_throw": _cards(self._must_throw(phase, hand, trumps)),
            "widow": self.rules.widow > 0,  # the keep after picking up a widow (a rob's)
            # pidro: a non-trump kept (a robber short of trumps) is never played
            "trumps_only": self.rules.follow_rule == "trumps_only",
        }
        if self.rules.widow:  # which four of the thirteen the widow brought
            dealt = set(self._dealt(tr))
            out["picked_up"] = [c for c in _cards(hand) if c not in dealt]
        elif phase == "rob" and self.rules.decks == 1:  # the cards the stock brought
            dealt = set(self._dealt(tr))
            out["from_stock"] = [c for c in _cards(hand) if c not in dealt]
        if self.rules.decks == 2:  # docs/policies.md: a discard in two passes
            second = int(p[R.R_PASS])
            out["pass"] = second
            out["kept"] = _cards(int(p[R.R_KEPT])) if second else []
            out["second_copies"] = [] if second else _cards(int(p[R.R_HAND2]))
        return out

    def _must_throw(self, phase: str, hand: int, trumps: int) -> int:
        """The cards a drawer must discard: every non-trump under must_discard_nontrumps
        (it binds the drawers, not the robber), unless a short stock lets some stay
        (shortage=limit_discards: the kernel then judges how many)."""
        r = self.rules
        if phase != "discard" or not r.must_discard_nontrumps or r.shortage == "limit_discards":
            return 0
        return hand & ~trumps

    def _side_names(self) -> list[str]:
        """Each side as the person reads it: "you and your partner", "the opponents";
        cut-throat, "you" and "seat 2"."""
        mine = self.rules.team_of(self.seat)
        names = []
        for t in range(self.rules.teams):
            seats = [s for s in range(self.rules.players) if self.rules.team_of(s) == t]
            if t == mine:
                names.append("you" if len(seats) == 1 else "you and your partner")
            elif len(seats) > 1 and self.rules.teams == 2:
                names.append("the opponents")
            else:
                names.append(" and ".join(f"seat {s}" for s in seats))
        return names

    def _who(self, seat: int) -> str:
        """A seat as the person reads it: "you", "your partner (seat 2)", "seat 1"."""
        if seat == self.seat:
            return "you"
        if self.rules.team_of(seat) == self.rules.team_of(self.seat):
            return f"your partner (seat {seat})"
        if self.rules.teams == 2 and self.rules.players > 2:
            return f"seat {seat} (the opponents)"
        return f"seat {seat}"

    def _hand_summary(self, record: dict[str, Any]) -> str:
        """The hand's end in a sentence: who bid what, made or set, the points taken
        and each side's score change."""
        from cinch_sim.cards import SUIT_NAMES

        result, maker = record["result"], record.get("maker")
        sides = self._side_names()
        order = self._my_side_first()
        change = ", ".join(f"{sides[t]} {result['score'][t]:+d}" for t in order)
        if maker is None or maker < 0:
            return f"The hand was thrown in: nobody bid. This hand: {change}."
        who, bid = self._who(maker), record["bid"]
        suit = SUIT_NAMES[record["trump"]]
        took = result["points"][self.rules.team_of(maker)]
        of = self.rules.total_points
        if not bid:
            head = f"Everyone passed: {who}, the dealer, named {suit} at no contract"
            text = f"{head} and took {took} of {of} points"
        else:
            outcome = "made it" if result["made"] else "were set" if who == "you" else "was set"
            text = f"{who} bid {bid} in {suit} and {outcome}: took {took} of {of} points"
        points = self._points_taken(result["captured"])
        parts = (f"{text[0].upper()}{text[1:]}.", points, f"This hand: {change}.")
        return " ".join(p for p in parts if p)

    def _my_side_first(self) -> list[int]:
        """The sides in the order the person reads them: his own first."""
        mine = self.rules.team_of(self.seat)
        return [mine] + [t for t in range(self.rules.teams) if t != mine]

    def _points_taken(self, captured: dict[str, Any]) -> str:
        """Who took each point, his side first: "High, Game (the 10 of trumps) and the
        Right Pedro to you and your partner; Low and Jack to the opponents; the Left
        Pedro not in play." (two decks: a copy each where both copies were taken)."""
        by_side: dict[int, list[str]] = {t: [] for t in range(self.rules.teams)}
        out = []
        for name, taken in captured.items():
            words = N.label(name)
            if name == "game":
                words += " (the 10 of trumps)"
            elif name == "high" and self.rules.high_rule == "ace_only":
                words += " (the Ace of trumps)"
            elif "pedro" in name:
                words = f"the {words}"
            teams = taken if isinstance(taken, list) else [] if taken is None else [taken]
            for t in sorted(set(teams)):
                n = teams.count(t)  # two decks: the copies this side took
                copies = "" if len(teams) == 1 else "a copy of " if n == 1 else "both copies of "
                by_side[t].append(f"{copies}{words}")
            if not teams:
                out.append(words)
        sides = self._side_names()
        order = [t for t in self._my_side_first() if by_side[t]]
        parts = [f"{N.joined(by_side[t])} to {sides[t]}" for t in order]
        if out:
            parts.append(f"{N.joined(out)} not in play")
        text = "; ".join(parts)
        return f"{text[0].upper()}{text[1:]}." if text else ""

    def _trump_mask(self, trump: int) -> int:
        return self.rules.trump_cards(trump) if trump >= 0 else 0

    def _so_far(self, tr: np.ndarray) -> dict[str, Any]:
        """The bids and the tricks played so far, from the hand's trace."""
        bids = []
        for i in range(L.MAX_BIDS):
            s = int(tr[L.T_BIDS + 2 * i])
            if s < 0:
                break
            b = int(tr[L.T_BIDS + 2 * i + 1])
            bids.append({"seat": s, "bid": None if b < 0 else b})
        tricks = []
        players = self.rules.players
        # the person's chosen cards, in order: a play of theirs that is not the next of
        # them was their only legal card, played without asking (the kernel's way)
        chosen = [format_card(c) for c in self.choices["play"]]
        for t in range(L.MAX_TRICKS):
            row = tr[L.T_PLAYS + t * L.MAX_PLAYERS : L.T_PLAYS + t * L.MAX_PLAYERS + players]
            leader = int(tr[L.T_LEADER + t])
            # the card at position k is the seat k places after the leader's; a seat out
            # of cards (or, under trumps_only, of trumps) keeps -1 there and sits it out
            plays = [
                {"seat": (leader + k) % players, "card": format_card(int(c))}
                for k, c in enumerate(row)
                if c >= 0
            ]
            if not plays:
                break
            for p in plays:
                if p["seat"] == self.seat:
                    if chosen and chosen[0] == p["card"]:
                        chosen.pop(0)
                    else:
                        p["forced"] = True
            # the kernel writes a trick's winner once every seat still holding a card has
            # played to it: a short trick (trumps_only) is finished too
            winner = int(tr[L.T_WINNER + t])
            tricks.append(
                {
                    "leader": leader,
                    "cards": [p["card"] for p in plays],
                    "plays": plays,
                    "winner": winner if winner >= 0 else None,
                }
            )
        return {"bids": bids, "tricks": tricks}

    def _game(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game's totals to the target, and its winner once it is over."""
        from cinch_sim.records.writer import game_record

        hands = self.records + ([extra] if extra is not None else [])
        if not hands:
            return {"totals": [0] * self.rules.teams, "target": self.rules.target, "winner": None}
        rec = game_record(self.rules, hands, self.first_dealer)
        winner = rec["winner"]
        return {
            "totals": rec["totals"][-1],  # each side's total after the last hand
            "target": self.rules.target,
            "winner": winner,
            "reason": rec["reason"],
            "winner_text": None if winner is None else self._winner_text(winner),
        }

    def _winner_text(self, side: int) -> str:
        """The game's end as the person reads it: "You win the game", "Seat 2 wins"."""
        name = self._side_names()[side]
        verb = "wins" if name.startswith("seat ") and " and " not in name else "win"
        return f"{name[0].upper()}{name[1:]} {verb} the game"

    # ---- the person's moves ------------------------------------------------------
    def _asked(self, when_over: str) -> dict[str, Any]:
        """The question standing now (``state`` read first if need be); ``when_over``
        is the refusal once the hand is over."""
        if self.last is None:
            self.state()
        if self.last["kind"] is None:
            raise TableError(when_over)
        return self.last

    def choose(self, value: Any, move: Any = None) -> dict[str, Any]:
        """Answer the question ``state`` asked: a bid (0: pass), a suit letter, the
        cards to keep (discard), or a card to play. ``move``, when given, is the
        ``move`` of the state the answer was given to: an answer to an older question
        (a double click, a second tab) is refused rather than taken for this one."""
        ask = self._asked("the hand is over: deal the next one")
        if move is not None and (isinstance(move, bool) or move != self.moves):
            raise TableError(
                "that answer was for an earlier question: the table has moved on, "
                "answer the question shown now"
            )
        kind = ask["kind"]
        if kind == "bid":
            choice = self._bid_choice(ask, value)
        elif kind == "trump":
            choice = self._trump_choice(ask, value)
        elif kind == "play":
            choice = self._play_choice(ask, value)
        else:
            choice = self._keep_choice(ask, value)
        self.choices[kind].append(int(choice))
        try:
            state = self.state()
        except TableError:
            self.choices[kind].pop()  # the rules refused it: the question stands
            raise
        self.moves += 1
        return {**state, "move": self.moves}

    @staticmethod
    def _bid_choice(ask: dict[str, Any], value: Any) -> int:
        """A bid: a whole number among the legal ones (0: pass)."""
        legal = ask["question"]["legal"]
        if isinstance(value, bool) or not isinstance(value, int):
            raise TableError(f"a bid is a whole number (0: pass), not {_shown(value)}")
        if value not in legal:
            raise TableError(f"bid {value} is not one of {', '.join(map(str, legal))} (0: pass)")
        return value

    @staticmethod
    def _trump_choice(ask: dict[str, Any], value: Any) -> int:
        """A trump: one of the legal suit letters."""
        legal = ask["question"]["legal"]
        if not isinstance(value, str):
            raise TableError(f"trump is a suit letter ({', '.join(legal)}), not {_shown(value)}")
        if value not in legal:
            raise TableError(f"trump {_shown(value)} is not one of {', '.join(legal)}")
        return SUITS.index(value)

    @staticmethod
    def _play_choice(ask: dict[str, Any], value: Any) -> int:
        """A play: one legal card, as text ("AS")."""
        legal = ", ".join(ask["question"]["legal"])
        cards = _parsed(value) if isinstance(value, str) else None
        if cards is None or len(cards) != 1 or not ask["legal"] >> cards[0] & 1:
            raise TableError(f"a play is one card, one of {legal}, not {_shown(value)}")
        return cards[0]

    def _keep_choice(self, ask: dict[str, Any], value: Any) -> int:
        """A discard: the cards kept, as text ("AS KS") or a list of cards, checked as
        the rules check it (the kernel judges two decks' passes)."""
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = " ".join(value)
        if not isinstance(value, str):
            raise TableError(
                "a discard is the cards you keep, as text like 'AS KS' or a list of cards, "
                f"not {_shown(value)}"
            )
        cards = _parsed(value)
        if cards is None:
            raise TableError(f"{_shown(value)} is not a list of cards (like 'AS KS 5S')")
        mask = sum(1 << c for c in set(cards))
        must = ask["hand"] & ~ask["legal"]
        if mask & ~ask["hand"] or must & ~mask:
            raise TableError("keep cards of your hand, and every card you may not throw")
        thrown = [c for c in ask["question"]["must_throw"] if c in _cards(mask)]
        if thrown:
            raise TableError(
                f"every non-trump goes under these rules: {' '.join(thrown)} cannot be kept"
            )
        n, lo, hi = bin(mask).count("1"), ask["min_keep"], ask["max_keep"]
        if not lo <= n <= hi:
            span = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise TableError(f"keep {span} cards, not {n}")
        trumps = ask["hand"] & self._trump_mask(SUITS.index(ask["question"]["trump"]))
        # (two decks: the kernel judges, its two passes have their own exceptions)
        if self.rules.decks == 1 and bin(mask & trumps).count("1") != min(
            n, bin(trumps).count("1")
        ):
            raise TableError("keep your trumps first: as many as the cards you keep")
        return mask

    def next_hand(self) -> dict[str, Any]:
        """Deal the next hand (the dealer moves on), after a finished one."""
        if self.last is None or self.last.get("kind") is not None:
            raise TableError("finish this hand first")
        game = self._game(extra=self.last["record"])
        if game["winner"] is not None:
            raise TableError("the game is over: start a new one")
        self.records.append(self.last["record"])
        self.choices = {k: [] for k in KINDS}
        self.last = None
        self.moves += 1
        return self.state()

    def hint(self) -> dict[str, Any]:
        """What the advisor (bidding, trump) or PIMC and the heuristic (play, discard)
        would do here, and why."""
        ask = self._asked("the hand is over: nothing to hint")
        kind = ask["kind"]
        if kind in ("bid", "trump") and ask["question"]["phase"] != "rob":
            return self._advice_hint(kind)
        out: dict[str, Any] = {"kind": kind}
        for name in ("heuristic", "pimc") if kind == "play" else ("heuristic",):
            out[name], vector = self._bot_choice(kind, name)
            if name == "pimc":
                out["pimc_why"] = self._pimc_why(vector, ask["legal"])
                out["pimc_means"] = self._pimc_means()
        if kind == "play":
            from cinch_sim.solver.limits import first_quick_trick

            first = first_quick_trick(self.rules)
            if self.rules.hand_size - ask["held"] + 1 >= first:
                out["solver"] = self._solver_values()
            else:
                out["solver_note"] = (
                    f"the solver values cards from trick {first} on: under these rules "
                    "a solve earlier in the hand can take minutes"
                )
        return out

    def _solver_values(self) -> dict[str, int]:
        """Each legal card's double-dummy value (every card seen): the points the
        maker's side ends the hand with if it is played and everyone then plays best.
        The hand is played out by the heuristic to learn every seat's cards, then
        set back to this decision."""
        from cinch_sim.solver.moves import play
        from cinch_sim.solver.position import from_trace
        from cinch_sim.solver.review import Solver

        out, tr, _ = self._run(delegate="play:rest")
        pos, plays = from_trace(self.rules, out, tr)
        _, now, _ = self._run()
        done = sum(len(t["cards"]) for t in self._so_far(now)["tricks"])
        vector = self.rules.to_array()
        for _, c in plays[:done]:
            play(pos, vector, c)
        values = Solver(self.rules).card_values(pos)
        return {format_card(c): v for c, v in values.items()}

    def _advice_hint(self, kind: str) -> dict[str, Any]:
        """The advisor on the hand as dealt, with the bids made before the person (in
        one round of bidding; in an auction, every call so far); for the trump, each
        suit's make rate at the person's contract."""
        from cinch_sim.advisor import AdvisorError, advise

        _, tr, _ = self._run()
        bids = self._so_far(tr)["bids"]
        if kind == "bid" and self.last["question"]["legal"] == [0]:
            high = max((b["bid"] or 0 for b in bids), default=0)
            text = f"pass: {high} is the highest bid there is, so no bid is left for you"
            return {"kind": kind, "call": "pass", "advice": text}
        calls = [(b["seat"], b["bid"]) for b in bids]
        contract = max((b["bid"] or 0 for b in bids if b["seat"] == self.seat), default=0)
        if kind == "bid" and self.rules.bid_rounds == 1:
            calls = [c for c in calls if c[0] != self.seat]
        elif kind == "trump":
            calls = []  # the auction is over: the hand's worth in each trump
        bid_levels = range(self.rules.bid_min, self.rules.bid_max + 1)
        # the trump: as the maker at the contract (all passed: at the top bid, its points)
        at = contract if contract in bid_levels else self.rules.bid_max
        try:
            adv = advise(self._dealt(), self.seat, self.dealer, bids=calls or None,
                         rules=self.rules, precision=0.03, seed=self.seed,
                         candidates=[at] if kind == "trump" else None)  # fmt: skip
        except AdvisorError as exc:
            return {"kind": kind, "advice": f"no advice here: {exc}"}
        if kind == "trump":
            return {"kind": kind, **_trump_advice(adv, contract)}
        from cinch_sim.advisor.present import STUCK_NOTE, ev_note

        text = adv.to_dict()["advice"].removeprefix("Advice: ")
        stuck = not adv.query.may_pass
        out = {"kind": kind, "advice": text, "call": adv.call, "best_trump": adv.best_trump,
               "score_change": ev_note(adv, sides=False, margins=stuck)}  # fmt: skip
        if stuck:  # the dealer after all others passed (dealer_forced_any)
            out["note"] = STUCK_NOTE
        return out

    def _dealt(self, tr: np.ndarray | None = None) -> list[str]:
        """The person's cards as dealt (two decks: a card dealt twice listed twice), from
        the hand's trace (``tr``, else the hand played again for it): known whether or
        not they were ever asked to bid."""
        from cinch_sim.records.writer import dealt_cards

        if tr is None:
            _, tr, _ = self._run()
        return dealt_cards(self.rules, tr, self.dealer)[self.seat]

    def _bot_choice(self, kind: str, name: str) -> tuple[str, np.ndarray]:
        """The card (or the cards kept) a bot's policy picks in the person's place, and
        the person's parameter vector of that kind after it (``_pimc_why`` reads it)."""
        from cinch_sim.policies import replay as R

        _, _, params = self._run(delegate=f"{kind}:{name}")
        vector = params[KINDS.index(kind), self.seat]
        answer = int(vector[R.R_ANSWER])
        if kind == "play":
            return format_card(answer), vector
        return " ".join(_cards(answer)), vector

    def _pimc_why(self, vector: np.ndarray, legal: int) -> dict[str, float] | None:
        """Each legal card's mean over PIMC's deals, two decimals (what it is:
        ``_pimc_means``); None where it solved nothing (before the solver's first quick
        trick: two decks before each hand holds 8 cards, six seats in the first trick)."""
        from cinch_sim.policies import replay as R

        at = R.R_CHOICES + len(self.choices["play"])
        cards = [c for c in range(52) if legal >> c & 1]
        means = vector[at : at + len(cards)]
        if np.isnan(means).all():
            return None
        return {format_card(c): round(float(v), 2) for c, v in zip(cards, means, strict=True)}

    def _pimc_means(self) -> str:
        """What PIMC's means are at this table (``policies.pimc._utility``, the score
        margin objective): with two sides (partners, or cut-throat for two),
        ``"margin"``, the person's side's score change less the other's; with more,
        each player maximises his own: the maker's own score change (``"score"``: his
        points made, the bid lost when set), a defender's own points at the hand's end
        (``"points"``)."""
        if self.rules.teams == 2:
            return "margin"
        out, _, _ = self._run()
        return "score" if int(out[L.H_MAKER]) == self.seat else "points"


def _trump_advice(adv: Any, contract: int) -> dict[str, Any]:
    """Which trump to name, in one sentence: the suit the maker makes the contract in
    most often (judged on enough deals as the maker), else, at no contract or too few
    deals, the one taking the most points; the other suits' figures beside it."""
    from cinch_sim.cards import SUIT_NAMES

    pm, _, _ = adv.p_make()
    judged = adv.judged()
    mean = adv.mean_points()
    run = list(adv.suits_run)
    by_make = contract > 0 and all(judged[s, 0] for s in run)
    if by_make:
        order = sorted(run, key=lambda s: -pm[s, 0])
        figure = {s: N.rate(pm[s, 0], 0) for s in run}
        what = f"your bid of {contract} is made in it {figure[order[0]]} of the time"
    else:
        order = sorted(run, key=lambda s: -np.nan_to_num(mean[s], nan=-1.0))
        figure = {s: N.number(mean[s], 1) for s in run}
        what = f"as the maker you take {figure[order[0]]} points in it on average"
    best = SUITS[order[0]]
    others = ", ".join(f"{SUIT_NAMES[SUITS[s]]} {figure[s]}" for s in order[1:])
    text = (
        f"name {SUIT_NAMES[best]}: {what} ({others}), on {adv.hands:,} deals of your hand as dealt"
    )
    return {"advice": text, "best_trump": best}

"""Studies of the strong players played once and shipped with the package.

PIMC's card values need 16,000 deals before every interval (the Pedro pair's
too) is a quarter of a point either side: over half an hour on two cores;
perfect play's 50,000 deals minutes more, PIMC's safe bids by hand type 20,000
hands and PIMC's advice on the example hands about 0.4 s a deal. A report
cannot wait that long. So they are played once by ``scripts/store_studies.py``,
through the same calls the report makes, and kept beside this module
(``stored/*.npz``) with the settings that made them: for card values every
paired replay with its hand number, for hand values the counts, for advice the
advisor's counts. A study is used only where its rules, dealer and players (and
stand-in, seat, hands, precision) are exactly those asked for.
``tests/test_stored_studies.py`` replays the first deals of each card study and
the hand study's probe bit for bit, so a change to a player's play fails there
until the studies are made again.
"""

from __future__ import annotations

import functools
import json
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from cinch_sim.advisor.estimate import Advice
from cinch_sim.advisor.query import make_query
from cinch_sim.analysis.card_values import CardValues, Pairs, Replay, tested_cards
from cinch_sim.analysis.hand_worth import HandValue, hand_values
from cinch_sim.engine.run import PolicySet
from cinch_sim.rules import Rules

STORED = Path(__file__).with_name("stored")
KINDS = ("card_values", "hand_values", "advice")
FIELDS = ("points", "score", "made")  # a Replay's fields, in the stored columns' order
# what must equal the question for a study to answer it
MATCHED = {
    "card_values": ("rules", "dealer", "policies", "replacement"),
    "hand_values": ("rules", "dealer", "policies"),
    "advice": ("rules", "dealer", "policies", "seat", "hands", "precision"),
}
# an Advice's counts and its scalars (advisor.estimate.Advice), as stored
ADVICE_ARRAYS = ("n", "win", "make", "own", "opp", "diff", "diff2", "paired", "points", "pedro")
# absent from studies stored before them
ADVICE_PAIRS = ("between", "between2", "between_n", "margin2")
ADVICE_SCALARS = ("risk", "precision_target", "max_hands", "seed", "candidates", "suits_run")
ADVICE_SCALARS += ("hands", "tried", "played", "rounds", "seconds", "min_maker")
PROBE_HANDS = 16  # hand values: the first seat's first hands, kept apart to be replayed


def study_path(kind: str, player: str, rules: Rules) -> Path:
    """Where the stored ``kind`` study of ``player`` under ``rules``'s preset lives."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    return STORED / f"{kind}_{player}_{rules.preset}.npz"


def stored_presets(kind: str, player: str) -> list[str]:
    """The presets with a stored ``kind`` study of ``player``, in the preset table's order."""
    from cinch_sim.rules import VARIANTS

    return [p for p, rules in VARIANTS.items() if study_path(kind, player, rules).exists()]


def match(kind: str, player: str, rules: Rules, question: dict[str, Any]) -> dict | None:
    """The settings of the stored study that answers ``question`` (the settings the
    report's study is played under), or None where none does; reads the settings only."""
    path = study_path(kind, player, rules)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            settings = json.loads(str(data["settings"]))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:  # a damaged file
        warnings.warn(f"stored study {path.name} cannot be read ({exc}): left out", stacklevel=2)
        return None
    if any(settings.get(k) != _plain(question.get(k)) for k in MATCHED[kind]):
        return None
    return settings


# ------------------------------------------------------------------ card values
def save_card_values(cv: CardValues, path: Path, made_by: str) -> None:
    """Write ``cv`` (a finished ``card_values`` run) to ``path`` with the command that
    made it: every pair's hand number, bid and both replays."""
    if cv.interrupted:
        raise ValueError("an interrupted study is not stored: run it to the end")
    arrays: dict[str, np.ndarray] = {}
    labels = [tc.label for tc in tested_cards(cv.rules)]
    for i, label in enumerate(labels):
        p = cv.pairs[label]
        # hand numbers as steps from the last (they rise): small numbers pack well
        arrays[f"deals_{i}"] = np.diff(np.array(p.deals, np.int64), prepend=0).astype(np.int32)
        arrays[f"bids_{i}"] = np.array(p.bids, np.int8)
        for side, replays in (("with", p.with_card), ("without", p.without)):
            rows = [[getattr(r, f) for f in FIELDS] for r in replays]
            arrays[f"{side}_{i}"] = np.array(rows, np.int8).reshape(-1, len(FIELDS))
    arrays["labels"] = np.array(labels)
    settings = {
        **cv.settings,
        "hands_played": cv.hands_played,
        "seconds": round(cv.seconds, 1),
        "made_by": made_by,
        "skipped": [cv.pairs[label].skipped for label in labels],
    }
    _write(path, arrays, settings)


def card_values(player: str, rules: Rules, question: dict[str, Any]) -> CardValues | None:
    """The stored card values that answer ``question`` (``match``), or None; the
    settings say ``stored`` with the command that made them."""
    if match("card_values", player, rules, question) is None:
        return None
    path = study_path("card_values", player, rules)
    settings, stored = _card_pairs(str(path), path.stat().st_mtime_ns)
    settings = json.loads(json.dumps(settings))  # the caller's own copy
    pairs = {label: Pairs(*(list(x) for x in lists), skipped=k) for label, (lists, k) in stored}
    hands = settings.pop("hands_played")
    seconds = settings.pop("seconds")
    settings["stored"] = {"made_by": settings.pop("made_by"), "seconds": seconds}
    return CardValues(settings, rules, pairs, hands, seconds)


@functools.lru_cache(maxsize=4)
def _card_pairs(path: str, mtime_ns: int) -> tuple[dict[str, Any], tuple]:
    """A card study's settings and pairs as read from ``path`` (``mtime_ns`` keys the
    cache: 145,000 pairs take a second to build, and a process may build many
    reports); ``card_values`` hands out fresh lists of the same Replays."""
    with np.load(path) as data:
        settings = json.loads(str(data["settings"]))
        labels = [str(x) for x in data["labels"]]
        stored = tuple(
            (
                label,
                (
                    (
                        tuple(data[f"bids_{i}"].tolist()),
                        tuple(np.cumsum(data[f"deals_{i}"], dtype=np.int64).tolist()),
                        tuple(Replay(*row) for row in data[f"with_{i}"].tolist()),
                        tuple(Replay(*row) for row in data[f"without_{i}"].tolist()),
                    ),
                    settings["skipped"][i],
                ),
            )
            for i, label in enumerate(labels)
        )
    del settings["skipped"]
    return settings, stored


# ------------------------------------------------------------------ hand values
def probe(rules: Rules, policies: PolicySet, seed: int, dealer: int) -> HandValue:
    """The first ``PROBE_HANDS`` hands of a hand-value study's first seat: what the
    test replays (``hand_values`` gives each seat a share starting at its hand
    number, the first seat's at 0)."""
    return hand_values(PROBE_HANDS, seed, rules, policies, dealer, seats=(0,))


def save_hand_values(
    hv: HandValue, first: HandValue, settings: dict[str, Any], path: Path, made_by: str
) -> None:
    """Write a ``hand_values`` study's counts, its ``probe``'s and its settings."""
    settings = {**settings, "made_by": made_by}
    _write(path, {"counts": hv.counts, "probe": first.counts}, settings)


def stored_hand_values(
    player: str, rules: Rules, question: dict[str, Any]
) -> tuple[HandValue, dict[str, Any]] | None:
    """The stored hand values that answer ``question`` (``match``) with their
    settings, or None."""
    settings = match("hand_values", player, rules, question)
    if settings is None:
        return None
    with np.load(study_path("hand_values", player, rules)) as data:
        return HandValue(rules, data["counts"].astype(np.int64)), settings


def stored_probe(player: str, rules: Rules) -> HandValue:
    """The probe kept with a stored hand-value study (for the test)."""
    with np.load(study_path("hand_values", player, rules)) as data:
        return HandValue(rules, data["probe"].astype(np.int64))


# ------------------------------------------------------------------ advice
def save_advice(
    advice: dict[str, Advice], settings: dict[str, Any], path: Path, made_by: str
) -> None:
    """Write the advice on each hand (by its text) with the settings they answer."""
    arrays = {}
    each = []
    for i, (text, adv) in enumerate(advice.items()):
        arrays |= {f"{name}_{i}": getattr(adv, name) for name in ADVICE_ARRAYS}
        arrays |= {f"{name}_{i}": getattr(adv, name) for name in ADVICE_PAIRS
                   if getattr(adv, name) is not None}  # fmt: skip
        each.append({"hand": text, **{k: _plain(getattr(adv, k)) for k in ADVICE_SCALARS}})
    _write(path, arrays, {**settings, "advice": each, "made_by": made_by})


def stored_advice(player: str, rules: Rules, question: dict[str, Any]) -> dict[str, Advice] | None:
    """The stored advice that answers ``question`` (``match``: the same hands, seat,
    dealer, rules, players and precision), by hand, or None."""
    settings = match("advice", player, rules, question)
    if settings is None:
        return None
    out = {}
    with np.load(study_path("advice", player, rules)) as data:
        for i, each in enumerate(settings["advice"]):
            scalars = {k: each[k] for k in ADVICE_SCALARS}
            out[each["hand"]] = Advice(
                query=make_query(each["hand"], settings["seat"], settings["dealer"], rules=rules),
                policies=settings["policies"],
                **scalars,
                **{name: data[f"{name}_{i}"] for name in ADVICE_ARRAYS},
                **{name: data[f"{name}_{i}"] for name in ADVICE_PAIRS if f"{name}_{i}" in data},
            )
    return out


# ------------------------------------------------------------------ files
def _write(path: Path, arrays: dict[str, np.ndarray], settings: dict[str, Any]) -> None:
    """``arrays`` and ``settings`` (as JSON) to ``path``, through a temporary name, so
    a stored study is never half written."""
    arrays = {**arrays, "settings": np.array(json.dumps(settings))}
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as f:
        np.savez_compressed(f, **arrays)
    part.replace(path)


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))

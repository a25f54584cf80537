"""Each preset's own hand model for the heuristic bidder and trump chooser (issue 32).

The heuristic bids from a linear model of the hand (``heuristic.suit_estimate``).
Its default weights were fitted to the standard game and tuned there by
duplicate matches. Every other preset has weights fitted to its own game, unless
the defaults beat them there (``no_draw``: docs/policies.md), by
``scripts/fit_hand_model.py --variant NAME --write``, stored in
``hand_models.json`` beside this file with the command and the fit's figures.
``PolicySet.params`` puts a preset's model into each heuristic vector whose
``preset_model`` slot is 1 (the built-in ``heuristic``'s bid and trump), so a
strategy that sets ``preset_model = 0`` keeps the weights it names. The fit
also tunes the bidder's margin for the preset (``margin_shift``, added to the
vector's own margin, so a strategy's bolder or warier margin stays so). A preset
played with options keeps its preset's model, with one correction: where an
option changes what the left card scores (``left_bower_points``), the fit's
second regression, of the copies of the left card the maker's side takes on the
same hands (``left_capture``), moves every weight by the change in points times
its own weight. Least squares is linear in what it fits, so that is the model a
fit of the new points would give on the same hands, up to how the players'
choices change with the points. A preset without an entry (the
standard game, ``auction``, ``no_draw``) bids with the default weights (their
intercept scaled to its game), or with the standard game's model where one is asked
for and it has none of its own.

A second model per preset may be fitted to outcomes under strong play (issue 31):
``fit_hand_model.py --play pimc --write`` stores it as ``PRESET@pimc``, and a vector
whose ``preset_model`` slot is 2 takes it (where the preset has none, it takes what
1 takes). Strong players make more of the hands the heuristic misplays, so that
model values the top trumps more and the partner's help less.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from cinch_sim.rules import Rules

MODELS_FILE = Path(__file__).with_name("hand_models.json")
# the model's slots by name (the heuristic's B_ constants, lower-cased), in the
# order the fit prints them
MODEL_SLOTS = (
    "intercept",
    "right",
    "left",
    "point3",
    "point4",
    "ace",
    "king",
    "queen",
    "jack",
    "ten",
    "length",
    "low",
    "other_points",
    "pair",
)
# slots added after some stored models were fitted: such a model lacks them, and reads
# 0 there (it was fitted without that column)
LATER_SLOTS = ("pair",)


def _slot(name: str) -> int:
    from cinch_sim.policies import heuristic

    return int(getattr(heuristic, f"B_{name.upper()}"))


def _models() -> dict[str, Any]:
    """Every stored model by name, from ``MODELS_FILE`` as it is now (a test may point
    it at a copy)."""
    return _read_models(str(MODELS_FILE))


@lru_cache(maxsize=2)
def _read_models(path: str) -> dict[str, Any]:
    if not Path(path).exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)["presets"]


STANDARD = "standard"  # the game the default weights were fitted to
# what the ``preset_model`` slot asks for: the key's suffix in hand_models.json
PLAYS = {1: "", 2: "@pimc"}  # 1: fitted under heuristic play; 2: under PIMC play


def preset_model(preset: str, play: str = "") -> dict[str, float] | None:
    """The fitted weights of ``preset`` by slot name (``play`` "@pimc": those fitted
    under PIMC play), or None (the defaults hold)."""
    entry = _models().get(preset + play)
    return None if entry is None else _with_later_slots(entry["weights"])


def _with_later_slots(weights: dict[str, float]) -> dict[str, float]:
    """``weights`` with 0 in each of ``LATER_SLOTS`` it was fitted without."""
    return {**dict.fromkeys(LATER_SLOTS, 0.0), **weights}


def stored_model(name: str) -> dict[str, Any] | None:
    """``name``'s stored entry (``PRESET`` or ``PRESET@pimc``): its weights and how they
    were fitted; None without one."""
    return _models().get(name)


def _entry_of(preset: str, play: str) -> str:
    """The stored model ``preset`` bids from under ``play``: its own, else its
    heuristic-play one; a preset with neither deals the standard game's hands
    (``auction``), so it takes the standard game's (an entry that may be absent:
    under heuristic play the defaults hold)."""
    if preset_model(preset) is None and preset_model(preset, play) is None:
        preset = STANDARD
    return preset + play if preset_model(preset, play) is not None else preset


def left_capture(name: str) -> dict[str, float] | None:
    """The left-card capture regression of stored model ``name`` (``PRESET`` or
    ``PRESET@pimc``), else of its preset's heuristic-play model (a fit under PIMC
    play takes hours; who takes a card its holder keeps changes little with the
    play); None without one."""
    for key in (name, name.split("@")[0]):
        entry = _models().get(key)
        if entry is not None and "left_capture" in entry:
            return _with_later_slots(entry["left_capture"])
    return None


@cache
def _fitted_left_points(preset: str) -> int:
    """What the left card scores in ``preset`` without options: what its model was
    fitted to."""
    from cinch_sim.rules import make_rules

    return make_rules(preset).left_card_points


def with_preset_model(vector: np.ndarray, rules: Rules) -> np.ndarray:
    """``vector`` (a heuristic bid or trump vector) with the fitted model of the
    rules' preset in its model slots and ``game_fitted`` set, when it asks for it
    (``preset_model`` 1, or 2 for the model fitted under PIMC play) and the preset
    has one; else ``vector`` itself. Where the rules score the left card otherwise
    than the preset does, the model moves by its ``left_capture`` regression."""
    play = PLAYS.get(int(vector[_slot("preset_model")]))
    if play is None:
        return vector
    name = _entry_of(rules.preset, play)
    model = preset_model(name)
    if model is None:
        return vector
    out = vector.copy()
    for slot in MODEL_SLOTS:
        out[_slot(slot)] = model[slot]
    capture = left_capture(name)  # None for a model without one (the standard game's)
    if capture is not None:  # the model's own preset scored the left card so
        change = rules.left_card_points - _fitted_left_points(name.split("@")[0])
        for slot in MODEL_SLOTS:
            out[_slot(slot)] += change * capture[slot]
    out[_slot("game_fitted")] = 1.0
    out[_slot("margin")] += model["margin_shift"]  # a strategy's own margin moves with it
    out[_slot("min_bid")] += opening_shift(name)  # and its own opening floor
    if out[_slot("raise")] == 0:  # the preset's way in an open auction, unless set
        out[_slot("raise")] = auction_raise(name)
    return out


def auction_raise(name: str) -> float:
    """How stored model ``name``'s preset bids in an open auction (the ``raise`` slot:
    1 by the least, -1 its own bid at once), kept with its heuristic-play model; -1
    where none is stored. Measured: raising won 51.9% and 52.9% of the games in the
    classic presets, bidding at once 50.8% in ``auction`` (results/BENCHMARKS.md)."""
    entry = _models().get(name.split("@")[0]) or {}
    return float(entry.get("raise", -1.0))


def opening_shift(name: str) -> float:
    """How far stored model ``name``'s preset moves the bidder's opening floor (the
    ``min_bid`` slot), kept with its heuristic-play model; 0 where none is stored.
    ``no_draw`` moves it by 1 (a floor of 4.2 points for 3.5): with the 16 undealt
    cards dead, an opening 4 played only when every other seat passed, and then made
    16% of the time (results/BENCHMARKS.md has the measure)."""
    entry = _models().get(name.split("@")[0]) or {}
    return float(entry.get("min_bid_shift", 0.0))


def partner_rules(preset: str) -> float | None:
    """The setting ``preset`` plays the heuristic's rules from cut-throat at (the play
    slots ``lead_top_trump``, ``no_empty_ruff``: 1 for a player without a partner only),
    kept with its heuristic-play model as ``partner_rules``; None where none is stored,
    and a slot left to the preset then reads 2 (every player). Measured: with a partner
    the rules won 52.8% to 65.4% of the games in the partnership presets, and 48.5% in
    pidro, which stores 1 (results/BENCHMARKS.md)."""
    entry = _models().get(preset) or {}
    value = entry.get("partner_rules")
    return None if value is None else float(value)


def with_preset_play(vector: np.ndarray, rules: Rules) -> np.ndarray:
    """``vector`` (a heuristic play vector) with each rule slot that reads
    ``PRESET_WAY`` set to the rules' preset's stored ``partner_rules``, where it has
    one; else ``vector`` itself."""
    from cinch_sim.policies import heuristic as H

    setting = partner_rules(rules.preset)
    slots = [s for s in H.PRESET_RULES if vector[s] == H.PRESET_WAY]
    if setting is None or not slots:
        return vector
    out = vector.copy()
    out[slots] = setting
    return out


def write_model(
    preset: str,
    weights: dict[str, float],
    fitted: dict[str, Any],
    capture: dict[str, float] | None = None,
) -> None:
    """Store ``preset``'s weights and how they were fitted (the fit script's --write)
    and, for a game with a left card, the regression of its capture (``capture``,
    stored as ``left_capture``)."""
    missing = {*MODEL_SLOTS, "margin_shift"} - set(weights) - set(LATER_SLOTS)
    if missing:
        raise ValueError(f"model for {preset} lacks {', '.join(sorted(missing))}")
    data = json.loads(MODELS_FILE.read_text(encoding="utf-8")) if MODELS_FILE.exists() else {}
    presets = data.setdefault("presets", {})
    keys = [k for k in (*MODEL_SLOTS, "margin_shift") if k in weights]  # as fitted
    old = presets.get(preset, {})
    kept = {k: old[k] for k in ("raise", "min_bid_shift", "partner_rules") if k in old}
    presets[preset] = {"weights": {k: round(weights[k], 4) for k in keys}, "fitted": fitted,
                       **kept}  # fmt: skip
    if capture is not None:
        presets[preset]["left_capture"] = {k: round(capture[k], 5) for k in MODEL_SLOTS}
    data["presets"] = dict(sorted(presets.items()))
    tmp = MODELS_FILE.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(MODELS_FILE)
    _read_models.cache_clear()

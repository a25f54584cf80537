"""Each preset's own hand model (issue 32): stored, put into the heuristic's vectors
for its preset only, and reading the same hand features as the kernel counts."""

import json
import math

import numpy as np
import pytest
from helpers import load_script

from cinch_sim import layout as L
from cinch_sim.engine.run import Conditions, PolicySet, run_chunk, run_deals
from cinch_sim.policies import hand_models as M
from cinch_sim.policies import heuristic as H
from cinch_sim.rules import VARIANTS, make_rules

KIND_BID, KIND_TRUMP, KIND_PLAY = 0, 1, 3


@pytest.fixture(scope="module")
def fit_script():
    """The fitting script, loaded once by path."""
    return load_script("fit_hand_model")


def test_the_stored_models_are_whole_and_name_their_fit():
    """Every playable preset whose hands differ from the standard game's has weights,
    every slot finite, with the command that fitted them; standard and auction (the
    standard game bid in rounds) keep the tuned defaults under heuristic play, and so
    does no_draw, where they beat its fitted models (docs/policies.md); every game has
    its model fitted under PIMC play."""
    stored = json.loads(M.MODELS_FILE.read_text())["presets"]
    under_heuristic = {k for k in stored if "@" not in k}
    assert under_heuristic == set(VARIANTS) - {"standard", "auction", "no_draw"}
    # and one fitted under PIMC play for each game (auction deals the standard game's)
    under_pimc = {k.removesuffix("@pimc") for k in stored if k.endswith("@pimc")}
    assert under_pimc == set(VARIANTS) - {"auction"}
    for key, entry in stored.items():
        name, _, play = key.partition("@")
        slots = {*M.MODEL_SLOTS, "margin_shift"}  # a model fitted before a later slot lacks it
        assert slots - set(M.LATER_SLOTS) <= set(entry["weights"]) <= slots, name
        assert all(math.isfinite(v) for v in entry["weights"].values()), name
        assert name in VARIANTS and play in ("", "pimc"), key
        command = entry["fitted"]["command"]
        assert f"--variant {name}" in command or (name == "standard" and "--variant" not in command)
        assert ("--play pimc" in command) == (play == "pimc"), key
        # the strongest trump (its first top slot, "ace") cannot be captured: it
        # brings its holder's side a point or more in every preset
        assert entry["weights"]["ace"] > 0.5, name


def test_the_preset_model_goes_into_the_heuristic_bid_and_trump_only():
    """Under sancho the heuristic's bid and trump vectors carry sancho's weights and
    game_fitted 1, the margin moved by its shift; its play vector, heuristic_v2's
    (preset_model 0) and every vector under the standard rules are the policies' own."""
    ps = PolicySet.from_specs(4, bid={1: "heuristic_v2"})
    plain = ps.params()
    sancho = ps.params(make_rules("sancho"))
    model = M.preset_model("sancho")
    for kind in (KIND_BID, KIND_TRUMP):
        v = sancho[kind, 0]
        assert v[H.B_GAME_FITTED] == 1
        assert v[H.B_ACE] == model["ace"] and v[H.B_RIGHT] == model["right"]
        # the margin moves by the preset's shift; the other slots are the bidder's own
        assert v[H.B_MARGIN] == plain[kind, 0, H.B_MARGIN] + model["margin_shift"]
        assert v[H.B_MIN_BID] == plain[kind, 0, H.B_MIN_BID]
    assert np.array_equal(sancho[KIND_BID, 1], plain[KIND_BID, 1])  # heuristic_v2
    assert np.array_equal(sancho[KIND_PLAY], plain[KIND_PLAY])
    assert np.array_equal(ps.params(make_rules("standard")), plain)
    assert np.array_equal(ps.params(make_rules("auction")), plain)


def test_a_stored_opening_floor_shift_moves_the_floor(monkeypatch):
    """A preset's ``min_bid_shift`` moves the bidder's opening floor under either of
    its models, and only there. No preset stores one now: no_draw's (1: an opening 4,
    played only when every other seat passed, made 16% of its contracts) went with its
    model, which the standard weights beat under today's play. Put back, it moves the
    floor of both bidders by 1 in no_draw and nowhere else."""
    assert all(M.opening_shift(v) == 0.0 for v in VARIANTS)
    models = dict(M._models())
    models["no_draw"] = {**models["standard@pimc"], "min_bid_shift": 1.0}
    monkeypatch.setattr(M, "_models", lambda: models)
    assert M.opening_shift("no_draw") == M.opening_shift("no_draw@pimc") == 1.0
    assert all(M.opening_shift(v) == 0.0 for v in VARIANTS if v != "no_draw")
    for spec in ("heuristic", "pimc_fitted"):
        ps = PolicySet.from_specs(4, bid=spec)
        moved = ps.params(make_rules("no_draw"))[KIND_BID, 0, H.B_MIN_BID]
        assert moved == ps.params()[KIND_BID, 0, H.B_MIN_BID] + 1.0
        same = ps.params(make_rules("sancho"))[KIND_BID, 0, H.B_MIN_BID]
        assert same == ps.params()[KIND_BID, 0, H.B_MIN_BID]


def test_pimc_fitted_takes_the_model_fitted_under_pimc_play():
    """preset_model 2 (the ``pimc_fitted`` bidder): the standard game's model fitted
    under PIMC play, which values the ace of trumps more than the heuristic's own
    (under strong play the ace's trick is safer); a preset with its own such model
    takes it (sancho), and one with no model at all (auction) the standard game's."""
    strong = M.preset_model("standard", "@pimc")
    assert strong is not None and strong["ace"] > H.DEFAULT_PARAMS["heuristic_trump"][H.B_ACE]
    ps = PolicySet.from_specs(4, bid="pimc_fitted", trump="pimc_fitted")
    for kind in (KIND_BID, KIND_TRUMP):
        v = ps.params(make_rules("standard"))[kind, 0]
        assert v[H.B_ACE] == strong["ace"] and v[H.B_GAME_FITTED] == 1
        sancho = ps.params(make_rules("sancho"))[kind, 0, H.B_ACE]
        assert sancho == M.preset_model("sancho", "@pimc")["ace"] != M.preset_model("sancho")["ace"]
        # auction deals the standard game's hands and has no model of its own: it
        # bids from the standard game's, as it does under heuristic play
        auction = ps.params(make_rules("auction"))[kind, 0]
        assert np.array_equal(auction, ps.params(make_rules("standard"))[kind, 0])


def test_a_preset_without_a_pimc_play_model_takes_its_heuristic_play_one(monkeypatch):
    """preset_model 2 where the preset has a model fitted under heuristic play only:
    that one (two_deck's, with its PIMC-play model taken out of the table)."""
    models = {k: v for k, v in M._models().items() if k != "two_deck@pimc"}
    monkeypatch.setattr(M, "_models", lambda: models)
    assert M.preset_model("two_deck", "@pimc") is None
    ps = PolicySet.from_specs(4, bid="pimc_fitted", trump="pimc_fitted")
    for kind in (KIND_BID, KIND_TRUMP):
        v = ps.params(make_rules("two_deck"))[kind, 0]
        assert v[H.B_ACE] == M.preset_model("two_deck")["ace"] and v[H.B_GAME_FITTED] == 1
        assert v[H.B_ACE] != M.preset_model("standard", "@pimc")["ace"]


def test_a_strategy_may_keep_its_own_weights():
    """preset_model 0 in a vector: the preset's model is not put in."""
    v = np.zeros(32)
    v[H.B_ACE] = 7.0
    sancho = make_rules("sancho")
    assert M.with_preset_model(v, sancho) is v
    v[H.B_PRESET_MODEL] = 1.0
    assert M.with_preset_model(v, sancho)[H.B_ACE] == M.preset_model("sancho")["ace"]


@pytest.mark.parametrize("variant", ["standard", "two_deck"])
def test_hand_features_agree_with_the_kernels_counts(variant):
    """On 2,000 dealt hands, what the bid model reads of the maker's cards (the
    columns the fit script regresses on) agrees with what the kernel counted of them: the number of
    trumps, the Pedros and A K Q J 10 of the trump suit (standard game's slots)."""
    rules = make_rules(variant)
    n, trump = 2000, 2
    dealt = run_deals(rules, 11, 0, n, 3)[:, 0].copy()
    cond = Conditions(force_maker=0, force_trump=trump, force_bid=0)
    rows, _ = run_chunk(rules, PolicySet.from_specs(4), 11, 0, n, 3, cond)
    x = H.model_columns(rules.to_array(), dealt, trump)
    assert x.shape == (n, len(M.MODEL_SLOTS))
    ped, hon = rows[:, L.H_MAKER_PEDROS_DEALT], rows[:, L.H_MAKER_HONOURS_DEALT]
    assert np.array_equal(x[:, 1], ped & 1) and np.array_equal(x[:, 2], ped >> 1 & 1)
    assert np.array_equal(x[:, M.MODEL_SLOTS.index("pair")], ped == 3)  # both Pedros
    for k, bit in enumerate((4, 3, 2, 1, 0)):  # A K Q J T
        assert np.array_equal(x[:, 5 + k], hon >> bit & 1)
    if variant == "standard":  # with two decks the features see each face once
        assert np.array_equal(x[:, 10], rows[:, L.H_MAKER_TRUMPS_DEALT])


def test_a_fit_in_chunks_and_resumed_equals_one_run(fit_script, tmp_path):
    """The fit's hands are the very hands in any chunking: 90 deals in one chunk,
    in chunks of 20 kept in a directory, and again after two chunk files are lost
    (played again, the others read) give the same weights to the last bit."""
    one = fit_script.fit("standard", {}, 90, 13, "heuristic")
    store = tmp_path / "fit"
    settings = fit_script.store_settings("standard", {}, 13, "heuristic", 20)
    fit_script.open_store(store, settings)
    chunked = fit_script.fit("standard", {}, 90, 13, "heuristic", 20, store)
    files = sorted(store.glob("t*.npy"))
    assert len(files) == 4 * 5  # four trump suits, chunks 0-20 ... 80-90
    files[3].unlink()
    files[-1].unlink()
    resumed = fit_script.fit("standard", {}, 90, 13, "heuristic", 20, store)
    assert one == chunked == resumed
    assert len(list(store.glob("t*.npy"))) == 20 and not list(store.glob("*.part*"))
    # a kept chunk is read, not played again: one altered on disk changes the fit
    kept = np.load(files[0])
    kept[:, 1] += 1
    np.save(files[0], kept)
    assert fit_script.fit("standard", {}, 90, 13, "heuristic", 20, store) != one
    # a store of this fit refuses another seed, and a file is no store
    with pytest.raises(ValueError, match="seed 13"):
        fit_script.open_store(store, settings | {"seed": 14})
    with pytest.raises(ValueError, match="not a directory"):
        fit_script.open_store(files[0], settings)
    with pytest.raises(ValueError, match=r"another game \(standard with rules \{\}\)"):
        fit_script.open_store(store, fit_script.store_settings("auction", {}, 13, "heuristic", 20))


def test_presets_that_differ_in_their_target_alone_share_a_store(fit_script, tmp_path):
    """heasly is cutthroat6 played to 62: a fit plays lone hands, so its hands are
    cutthroat6's, and a heasly fit reads a cutthroat6 store whole (it plays no chunk)
    to the weights of its own run."""
    store = tmp_path / "fit"
    fit_script.open_store(store, fit_script.store_settings("cutthroat6", {}, 3, "heuristic", 40))
    fit_script.fit("cutthroat6", {}, 120, 3, "heuristic", 40, store)
    files = {f: f.stat().st_mtime_ns for f in store.glob("t*.npy")}
    assert len(files) == 4 * 3
    fit_script.open_store(store, fit_script.store_settings("heasly", {}, 3, "heuristic", 40))
    shared = fit_script.fit("heasly", {}, 120, 3, "heuristic", 40, store)
    assert shared == fit_script.fit("heasly", {}, 120, 3, "heuristic")
    assert {f: f.stat().st_mtime_ns for f in store.glob("t*.npy")} == files  # none played


def test_a_pimc_fit_may_borrow_the_heuristic_play_margin(fit_script, tmp_path, monkeypatch):
    """``--borrow-margin`` stores the preset's heuristic-play shift with the PIMC-play
    weights and records where it came from; it is refused with a scan, without a
    model to borrow from, or for a heuristic-play fit (exit 2, the store untouched)."""
    models = tmp_path / "hand_models.json"
    data = json.loads(M.MODELS_FILE.read_text())
    data["presets"]["cutthroat2"]["weights"]["margin_shift"] = -0.5  # a shift to lend
    data["presets"]["cutthroat5"]["weights"]["margin_shift"] = -1.0  # and another one
    models.write_text(json.dumps(data))
    monkeypatch.setattr(M, "MODELS_FILE", models)
    lent = M.preset_model("cutthroat2")["margin_shift"]
    assert lent != 0.0  # else an unscanned fit's stored 0 would pass for a borrowed one
    argv = ["fit", "--variant", "cutthroat2", "--play", "pimc", "--hands", "3", "--seed", "9"]
    monkeypatch.setattr("sys.argv", [*argv, "--write", "--borrow-margin"])
    fit_script.main()
    entry = json.loads(models.read_text())["presets"]["cutthroat2@pimc"]
    assert entry["weights"]["margin_shift"] == lent
    assert entry["fitted"]["margin_shift_from"] == f"cutthroat2's heuristic-play scan ({lent:+.1f})"
    assert entry["fitted"]["command"].endswith("--seed 9 --write --borrow-margin")
    assert entry["fitted"]["hands_per_suit"] == 3
    before = models.read_text()
    for bad in (["--games", "10"], ["--variant", "standard"]):
        monkeypatch.setattr("sys.argv", [*argv, "--write", "--borrow-margin", *bad])
        with pytest.raises(SystemExit) as stop:
            fit_script.main()
        assert stop.value.code == 2
    monkeypatch.setattr("sys.argv", [*argv[:3], "--write", "--borrow-margin"])
    with pytest.raises(SystemExit) as stop:
        fit_script.main()
    assert stop.value.code == 2
    assert models.read_text() == before
    # another preset's shift, named: one that deals the same hands lends it
    other = M.preset_model("cutthroat5")["margin_shift"]
    assert other not in (lent, 0.0)
    monkeypatch.setattr("sys.argv", [*argv, "--write", "--borrow-margin", "cutthroat5"])
    fit_script.main()
    entry = json.loads(models.read_text())["presets"]["cutthroat2@pimc"]
    assert entry["weights"]["margin_shift"] == other
    said = entry["fitted"]["margin_shift_from"]
    assert said == f"cutthroat5's heuristic-play scan ({other:+.1f})"
    assert entry["fitted"]["command"].endswith("--write --borrow-margin cutthroat5")
    before = models.read_text()
    monkeypatch.setattr("sys.argv", [*argv, "--write", "--borrow-margin", "nosuch"])
    with pytest.raises(SystemExit) as stop:
        fit_script.main()
    assert stop.value.code == 2 and models.read_text() == before


def test_a_rescan_scans_the_stored_models_margin_and_keeps_its_weights(
    fit_script, tmp_path, monkeypatch
):
    """``--rescan`` plays the margin scan alone and stores the rule's pick with the
    weights and fit record the model had; with ``--save`` the same command reads each
    shift's match and plays none again."""
    models = tmp_path / "hand_models.json"
    data = json.loads(M.MODELS_FILE.read_text())
    data["presets"]["cutthroat2"]["weights"]["margin_shift"] = -0.5  # none the scan tries
    models.write_text(json.dumps(data))
    monkeypatch.setattr(M, "MODELS_FILE", models)
    before = M.stored_model("cutthroat2")
    stored = before["weights"]["margin_shift"]
    assert stored not in (0.0, 1.0, -1.0)  # else a pick of the scan's could keep it
    scans = tmp_path / "scans"
    argv = ["fit", "--variant", "cutthroat2", "--rescan", "--games", "40", "--shifts", "-1,1"]
    monkeypatch.setattr("sys.argv", [*argv, "--save", str(scans)])
    fit_script.main()
    after = M.stored_model("cutthroat2")
    tried = after["fitted"]["margin_scan"]
    assert [t["shift"] for t in tried] == [-1.0, 1.0]  # "-1,1" read as a value
    winners = [t for t in tried if t["lo"] > 0.5]
    pick = max(winners, key=lambda t: t["rate"])["shift"] if winners else 0.0
    assert after["weights"] == before["weights"] | {"margin_shift": pick}
    assert after["fitted"]["margin_games"] == 40
    assert after["fitted"]["margin_command"].endswith("--rescan --games 40 --shifts -1,1")
    assert after["fitted"]["command"] == before["fitted"]["command"]  # the fit's, kept
    assert {p.name for p in scans.iterdir()} == {"margin+1.0", "margin-1.0"}
    # the same command again: every chunk read, none played, the same scan stored
    chunks = {p: p.stat().st_mtime_ns for p in scans.rglob("*.npz")}
    assert chunks
    fit_script.main()
    assert M.stored_model("cutthroat2")["fitted"]["margin_scan"] == tried
    assert {p: p.stat().st_mtime_ns for p in scans.rglob("*.npz")} == chunks
    # usage errors: exit 2, the store untouched
    text = models.read_text()
    for bad in (argv[:4], [*argv, "--write"], [*argv[:2], "nosuch", *argv[3:]],
                [*argv[:2], "standard", *argv[3:]], [*argv[:-1], "1,0"]):  # fmt: skip
        monkeypatch.setattr("sys.argv", bad)
        with pytest.raises(SystemExit) as stop:
            fit_script.main()
        assert stop.value.code == 2
    assert models.read_text() == text


@pytest.mark.parametrize(("preset", "strategy"), [("cutthroat2", "heuristic"),
                                                  ("two_deck", "pimc_fitted")])  # fmt: skip
def test_a_scans_spelled_out_model_bids_as_the_stored_one(fit_script, preset, strategy):
    """The scan's players carry the model's weights in their own vectors (so a resumed
    scan does not depend on the models file): at the stored shift they bid and name
    trump from the very vectors the preset's model gives the strategy."""
    from cinch_sim.matches.play import team_policies
    from cinch_sim.policies.strategies import resolve_strategy

    rules = make_rules(preset)
    base = resolve_strategy(strategy)
    name = preset + ("@pimc" if strategy == "pimc_fitted" else "")
    weights = M.stored_model(name)["weights"]
    margin = base.policy("bid").params[H.B_MARGIN] + weights["margin_shift"]
    spelled = fit_script.at_shift(base, weights, margin)
    stored = team_policies(rules, base, base).params(rules)
    own = team_policies(rules, spelled, spelled).params(rules)
    slots = [M._slot(n) for n in (*M.MODEL_SLOTS, "game_fitted")]
    for kind in (KIND_BID, KIND_TRUMP):
        np.testing.assert_array_equal(own[kind][:, slots], stored[kind][:, slots])
    np.testing.assert_array_equal(own[KIND_BID][:, H.B_MARGIN], stored[KIND_BID][:, H.B_MARGIN])
    assert (own[KIND_BID][:, H.B_PRESET_MODEL] == 0).all()  # nothing left to fill in


def test_a_left_card_worth_other_points_moves_the_model_by_its_capture():
    """all_hands with ``left_bower_points=0``: every model slot moves by -5 times the
    stored regression of the Left Bower's capture (least squares is linear in what
    it fits); at the preset's own 5 points the stored weights go in unchanged."""
    capture = M.left_capture("all_hands")
    assert capture is not None and capture["king"] > 0.4  # top1: the Left Bower, held
    v = np.zeros(32)
    v[H.B_PRESET_MODEL] = 1.0
    stored = M.preset_model("all_hands")
    plain = M.with_preset_model(v, make_rules("all_hands"))
    zero = M.with_preset_model(v, make_rules("all_hands", {"left_bower_points": 0}))
    two = M.with_preset_model(v, make_rules("all_hands", {"left_bower_points": 2}))
    for name in M.MODEL_SLOTS:
        at = getattr(H, f"B_{name.upper()}")
        assert plain[at] == stored[name]
        assert zero[at] == pytest.approx(stored[name] - 5 * capture[name])
        assert two[at] == pytest.approx(stored[name] - 3 * capture[name])
    # PIMC play's model borrows the heuristic-play capture (no PIMC fit of it stored)
    v[H.B_PRESET_MODEL] = 2.0
    strong = M.with_preset_model(v, make_rules("all_hands", {"left_bower_points": 0}))
    pimc = M.preset_model("all_hands", "@pimc")
    assert strong[H.B_KING] == pytest.approx(pimc["king"] - 5 * capture["king"])


def test_a_left_bower_worth_nothing_is_bid_as_such():
    """Before the capture correction the heuristic bid all_hands with a pointless
    Left Bower as if it scored 5 and made 24.5% of 40,000 contracts (seed 5). Now
    the bidder's contracts are made about as often as in the preset itself."""
    from cinch_sim import api

    for points in (0, 2):
        rules = make_rules("all_hands", {"left_bower_points": points})
        sim = api.simulate(hands=6000, seed=21, rules=rules)
        assert sim.counts.make_rate > 0.62, (points, sim.counts.contracts_line())


def test_the_fit_regresses_the_left_cards_capture(fit_script, tmp_path, monkeypatch):
    """The fit's second regression: the side holding the Left Bower takes it nearly
    always. ``--left-capture`` stores it beside the model and leaves the weights and
    their record; it refuses another fit's hands or a preset without a left card."""
    weights, _, _, capture = fit_script.fit("all_hands", {}, 400, 5, "heuristic")
    assert 0.85 < capture["intercept"] + capture["king"] < 1.1
    assert 0.2 < capture["intercept"] < 0.7  # not held: a partner's, or won from one
    assert fit_script.fit("sancho_classic", {}, 50, 5, "heuristic")[3] is None
    models = tmp_path / "hand_models.json"
    data = json.loads(M.MODELS_FILE.read_text())
    entry = data["presets"]["all_hands"]
    del entry["left_capture"]
    entry["fitted"]["hands_per_suit"] = 400
    models.write_text(json.dumps(data))
    monkeypatch.setattr(M, "MODELS_FILE", models)
    argv = ["fit", "--variant", "all_hands", "--hands", "400", "--seed", "5", "--left-capture"]
    monkeypatch.setattr("sys.argv", argv)
    fit_script.main()
    after = M.stored_model("all_hands")
    assert after["weights"] == entry["weights"]
    assert after["left_capture"] == {k: round(v, 5) for k, v in capture.items()}
    assert after["fitted"]["left_capture_command"].endswith("--seed 5 --left-capture")
    text = models.read_text()
    for bad in (argv[:4] + argv[6:], [*argv, "--write"], [*argv[:2], "sancho_classic", *argv[3:]]):
        monkeypatch.setattr("sys.argv", bad)
        with pytest.raises(SystemExit) as stop:
            fit_script.main()
        assert stop.value.code == 2
    assert models.read_text() == text


def test_a_model_fitted_before_the_pair_slot_reads_zero_there():
    """pidro was fitted before the pair slot existed: its stored weights lack it, and
    the heuristic's vector reads 0 there (no pair term), every other slot as stored."""
    stored = M.stored_model("pidro")["weights"]
    assert "pair" not in stored
    assert M.preset_model("pidro")["pair"] == 0.0
    v = np.zeros(32)
    v[H.B_PRESET_MODEL] = 1.0
    v[H.B_PAIR] = 7.0  # whatever the vector held: the preset's model replaces it
    filled = M.with_preset_model(v, make_rules("pidro"))
    assert filled[H.B_PAIR] == 0.0 and filled[H.B_ACE] == stored["ace"]

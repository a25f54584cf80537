"""The built-in policies: the one table that names them.

Every other view of the built-ins is derived from ``BUILTINS``: the loader's
lookup (``find``), the CLI's help text (``names``), the kernel's direct-call
numbers (``kernel_ids``) and the names of each one's parameter slots. Pure
Python with no numba import, so ``--help`` stays instant and the kernel can
read the numbers as compile-time constants.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("bid", "trump", "discard", "play")

# The kernel's direct-call numbers (engine/kernel.py branches on them; 0 means
# "not a built-in": the kernel calls the policy's function pointer instead).
RANDOM_CHOICE = 1
RANDOM_DISCARD = 2
SIMPLE_BID = 3
SIMPLE_TRUMP = 4
SIMPLE_DISCARD = 5
GREEDY_PLAY = 6
HEURISTIC_BID = 7
HEURISTIC_TRUMP = 8
HEURISTIC_DISCARD = 9
HEURISTIC_PLAY = 10
PIMC_PLAY = 11  # called through its function pointer, as a user policy is
FIXED_BID = 12  # the same
FIXED_TRUMP = 13
DD_PLAY = 14  # through its pointer; the kernel also hands it every hand (policies/dd.py)
WHOLE = (0,)  # the heuristic's bid and trump vectors are themselves one
PIMC_HAND_MODELS = (14, 38)  # pimc.P_BID_MODEL, P_TRUMP_MODEL (tests/test_inference.py checks)
PIMC_MEMO_SLOT = 63  # pimc_memo.MEMO_SLOT (tests/test_pimc_memo.py checks)


@dataclass(frozen=True)
class Builtin:
    """One built-in policy at one plug point."""

    kind: str  # bid, trump, discard or play
    name: str  # what a user types (--bid-policy heuristic)
    module: str  # its module inside cinch_sim.policies
    function: str  # the jitted function in that module
    kernel_id: int  # the kernel's direct-call number
    param_prefix: str = ""  # the module's constants naming its parameter slots (B_, P_, ...)
    # False: it reads the contract or the bids (O_BID, O_BIDS, O_HIGH_BID...). A discard
    # or play policy that reads neither plays a hand alike whatever the maker bid, so
    # the advisor plays a maker's hand once for every bid (tests/test_auction_blind.py)
    auction_blind: bool = True
    # True: a hand with it at every seat takes milliseconds, not microseconds (the
    # advisor then plays its deals in small chunks, so that its progress shows)
    slow: bool = False
    # where its parameter vector holds heuristic bid or trump vectors (hand models),
    # into which PolicySet.params puts the preset's own fitted model (hand_models.py)
    hand_models_at: tuple[int, ...] = ()
    # where its parameter vector holds a heuristic play vector, whose rule slots left to
    # the preset PolicySet.params sets to the preset's choice (hand_models.py)
    preset_play_at: tuple[int, ...] = ()
    # where the engine lends it a memo of solves shared by the hands of one deal at
    # several bids (policies/pimc_memo.py), -1: none; PolicySet.params clears the slot
    memo_slot: int = -1
    # False: its choice is its parameters (``fixed``: the bid or suit to make), so its
    # name alone would always pass or always name clubs; a spec naming it is refused
    # (engine/run.py) and the names offered to users leave it out
    by_name: bool = True


BUILTINS: tuple[Builtin, ...] = (
    Builtin("bid", "random", "random", "random_choice", RANDOM_CHOICE),
    Builtin("bid", "simple", "simple", "simple_bid", SIMPLE_BID),
    Builtin(
        "bid", "heuristic", "heuristic", "heuristic_bid", HEURISTIC_BID, "B_", hand_models_at=WHOLE
    ),
    # the same function as heuristic_bid, with the original's "Pedros first" weights
    Builtin(
        "bid",
        "traditional",
        "heuristic",
        "heuristic_traditional_bid",
        HEURISTIC_BID,
        "B_",
        hand_models_at=WHOLE,
    ),
    # today's heuristic kept for comparison: the same compiled functions with the
    # parameters of the version before the play fixes and the bid margin change
    Builtin(
        "bid",
        "heuristic_v1",
        "heuristic",
        "heuristic_v1_bid",
        HEURISTIC_BID,
        "B_",
        hand_models_at=WHOLE,
    ),
    Builtin(
        "bid",
        "heuristic_v2",
        "heuristic",
        "heuristic_v2_bid",
        HEURISTIC_BID,
        "B_",
        hand_models_at=WHOLE,
    ),
    # the same, its hand model fitted to outcomes under PIMC play (issue 31)
    Builtin(
        "bid",
        "pimc_fitted",
        "heuristic",
        "pimc_fitted_bid",
        HEURISTIC_BID,
        "B_",
        hand_models_at=WHOLE,
    ),
    # one given bid (the advisor's "what if I bid b"): parameter bid
    Builtin("bid", "fixed", "fixed", "fixed_bid", FIXED_BID, "BID_", by_name=False),
    Builtin("trump", "random", "random", "random_choice", RANDOM_CHOICE),
    Builtin("trump", "simple", "simple", "simple_trump", SIMPLE_TRUMP),
    Builtin(
        "trump",
        "heuristic",
        "heuristic",
        "heuristic_trump",
        HEURISTIC_TRUMP,
        "B_",
        hand_models_at=WHOLE,
    ),
    Builtin(
        "trump",
        "heuristic_v1",
        "heuristic",
        "heuristic_v1_trump",
        HEURISTIC_TRUMP,
        "B_",
        hand_models_at=WHOLE,
    ),
    Builtin(
        "trump",
        "heuristic_v2",
        "heuristic",
        "heuristic_v2_trump",
        HEURISTIC_TRUMP,
        "B_",
        hand_models_at=WHOLE,
    ),
    Builtin(
        "trump",
        "pimc_fitted",
        "heuristic",
        "pimc_fitted_trump",
        HEURISTIC_TRUMP,
        "B_",
        hand_models_at=WHOLE,
    ),
    Builtin("trump", "fixed", "fixed", "fixed_trump", FIXED_TRUMP, "TRUMP_", by_name=False),
    Builtin("discard", "random", "random", "random_discard", RANDOM_DISCARD),
    Builtin("discard", "simple", "simple", "simple_discard", SIMPLE_DISCARD),
    Builtin("discard", "heuristic", "heuristic", "heuristic_discard", HEURISTIC_DISCARD, "D_"),
    Builtin(
        "discard", "heuristic_v1", "heuristic", "heuristic_v1_discard", HEURISTIC_DISCARD, "D_"
    ),
    Builtin(
        "discard", "heuristic_v2", "heuristic", "heuristic_v2_discard", HEURISTIC_DISCARD, "D_"
    ),
    Builtin("play", "random", "random", "random_choice", RANDOM_CHOICE),
    Builtin("play", "greedy", "greedy", "greedy_play", GREEDY_PLAY),
    Builtin(
        "play",
        "heuristic",
        "heuristic",
        "heuristic_play",
        HEURISTIC_PLAY,
        "P_",
        preset_play_at=WHOLE,
    ),
    Builtin("play", "heuristic_v1", "heuristic", "heuristic_v1_play", HEURISTIC_PLAY, "P_"),
    Builtin("play", "heuristic_v2", "heuristic", "heuristic_v2_play", HEURISTIC_PLAY, "P_"),
    # perfect-information Monte Carlo: deals of the unseen cards solved double-dummy
    # its objective is the score margin: it reads the contract
    Builtin(
        "play",
        "pimc",
        "pimc",
        "pimc_play",
        PIMC_PLAY,
        "P_",
        auction_blind=False,
        slow=True,
        hand_models_at=PIMC_HAND_MODELS,
        memo_slot=PIMC_MEMO_SLOT,
    ),
    # the same, its deals weighted by what the calls and the trump named say of the
    # hands (policies/inference.py; issue 31): it reads the calls
    Builtin(
        "play",
        "pimc_infer",
        "pimc",
        "pimc_infer_play",
        PIMC_PLAY,
        "P_",
        auction_blind=False,
        slow=True,
        hand_models_at=PIMC_HAND_MODELS,
        memo_slot=PIMC_MEMO_SLOT,
    ),
    # double-dummy play: the bound of perfect play, every card seen (not a player)
    Builtin("play", "dd", "dd", "dd_play", DD_PLAY, slow=True),
)


def dd_note(policies: dict[str, list[str]]) -> str | None:
    """The line every output shows when some seat plays ``dd``: it is the bound of
    perfect play (it sees every card), not a player.

    >>> dd_note({"play": ["dd", "heuristic", "dd", "heuristic"]})
    'play dd at seats 0, 2: the double-dummy bound (every card seen), not a player'
    """
    seats = [str(s) for s, spec in enumerate(policies.get("play", [])) if spec.strip() == "dd"]
    if not seats:
        return None
    return (
        f"play dd at seat{'s' if len(seats) > 1 else ''} {', '.join(seats)}: the double-dummy "
        "bound (every card seen), not a player"
    )


def find(kind: str, name: str) -> Builtin | None:
    """The built-in called ``name`` at plug point ``kind``, or None.

    >>> find("play", "greedy").function
    'greedy_play'
    >>> find("bid", "greedy") is None
    True
    """
    return next((b for b in BUILTINS if b.kind == kind and b.name == name), None)


def names(kind: str) -> tuple[str, ...]:
    """The built-in names a user may give alone at one plug point, in the table's order
    (not ``fixed``, whose choice is its parameters).

    >>> names("play")
    ('random', 'greedy', 'heuristic', 'heuristic_v1', 'heuristic_v2', 'pimc', 'pimc_infer', 'dd')
    >>> "fixed" in names("bid")
    False
    """
    return tuple(b.name for b in BUILTINS if b.kind == kind and b.by_name)

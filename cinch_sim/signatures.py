"""numba types shared by the kernel and every policy (built-in or user).

One signature serves all four plug points::

    policy(obs, hand, legal, params, scratch, rng) -> int64

- ``obs``: int64[::1], read-only, the public information (slots in ``layout.O_*``):
  one buffer the kernel keeps up to date for every seat, so its type is numba's
  read-only array, and a policy that writes to it does not compile (a write would
  change what the other seats see, a channel to a partner);
- ``hand``: uint64 mask of the player's own cards (the robber: his cards plus
  the rest of the stock);
- ``legal``: uint64 mask of the legal choices: bids (bit 0 = pass, bit b = bid
  b), suits (bits 0..3), cards the player may discard, or cards he may play;
- ``params``: float64[::1], the seat's own tunable parameters;
- ``scratch``: int64[::1], the seat's memory, zeroed at the start of each hand
  (the kernel skips this for seats whose policies are all built-ins, which
  never read it: a measured cost of the W2/W3 set-up);
- ``rng``: uint64[::1], the seat's own random stream state (see ``rng.py``).

It returns the bid (0 = pass), the suit, the mask of cards to keep, or the
card to play.
"""

from numba import types

OBS_TYPE = types.Array(types.int64, 1, "C", readonly=True)
POLICY_SIG = types.int64(
    OBS_TYPE,
    types.uint64,
    types.uint64,
    types.float64[::1],
    types.int64[::1],
    types.uint64[::1],
)
POLICY_TYPE = types.FunctionType(POLICY_SIG)
N_PARAMS = 64  # length of each seat's parameter vector
N_SCRATCH = 32  # length of each seat's scratch vector

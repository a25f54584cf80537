"""Numbers for the built-in policies, so the kernel can call them directly.

0 means "not a built-in": the kernel calls the function pointer instead.
"""

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

BUILTIN_IDS = {
    "random_choice": RANDOM_CHOICE,
    "random_discard": RANDOM_DISCARD,
    "simple_bid": SIMPLE_BID,
    "simple_trump": SIMPLE_TRUMP,
    "simple_discard": SIMPLE_DISCARD,
    "greedy_play": GREEDY_PLAY,
    "heuristic_bid": HEURISTIC_BID,
    "heuristic_traditional_bid": HEURISTIC_BID,  # the same function, other weights
    "heuristic_trump": HEURISTIC_TRUMP,
    "heuristic_discard": HEURISTIC_DISCARD,
    "heuristic_play": HEURISTIC_PLAY,
}

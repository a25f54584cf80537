"""Named slots of every vector shared by Python and the kernel.

The single source of truth for offsets: the rules vector, the observation a
policy sees, the per-hand result row, the per-hand trace (for records) and
the per-batch setup (fixed cards, forced contracts). Fields are appended
where they can be, so user policies compiled against an older layout keep
working; a change that moves offsets is named in docs/policies.md ("Layout
changes"): MAX_RANK_POINTS going from 4 to 5 (Dom Pedro) moved every rules
slot after the point ranks, so the observation from O_RULES on, and the
result row's point slots; R_DECKS (two decks) lengthened the rules vector by
one, so the observation's slots after it (O_TAKEN on) moved by one.
"""

MAX_PLAYERS = 6
MAX_TEAMS = 6
MAX_RANK_POINTS = 5
MAX_TRICKS = 18
MAX_BIDS = 64  # bid entries recorded per hand (several rounds in an auction)
N_POINT_SLOTS = 2 + MAX_RANK_POINTS + 1  # high, low, rank points..., left card

# ---------------------------------------------------------------- rules vector
R_PLAYERS = 0
R_TEAMS = 1
R_PARTNERSHIPS = 2
R_CARDS_DEALT = 3
R_HAND_SIZE = 4
R_DRAW = 5  # DRAW_NONE, DRAW_STOCK, or DRAW_WIDOW (each seat picks up its share)
R_BID_ROUNDS = 6
R_BID_MIN = 7
R_BID_MAX = 8
R_MUST_DISCARD = 9
R_FACE_UP = 10
R_TARGET = 11
R_MIN_SCORE_LOSS = 12
R_ALL_PASS = 13
R_EXCESS_TRUMP = 14
R_ROBBER = 15
R_SHORTAGE = 16
R_FOLLOW = 17
R_LOW_RULE = 18
R_LOW_TO = 19
R_SCORING = 20
R_HIGH_RULE = 21
R_HIGH_POINTS = 22
R_LOW_POINTS = 23
R_N_RANK_POINTS = 24
R_RANK_POINTS = 25  # pairs (rank, points), MAX_RANK_POINTS of them
R_LEFT_RANK = R_RANK_POINTS + 2 * MAX_RANK_POINTS  # -1: no left card
R_LEFT_POINTS = R_LEFT_RANK + 1
R_TRUMP_STRENGTH = R_LEFT_POINTS + 1  # 14 slots: ranks 0..12, then the left card
R_TOTAL_POINTS = R_TRUMP_STRENGTH + 14
R_SEAT_TEAM = R_TOTAL_POINTS + 1  # MAX_PLAYERS slots: each seat's side (Rules.seat_teams)
R_DECKS = R_SEAT_TEAM + MAX_PLAYERS  # copies of the 52-card deck: 1, or 2 (two_deck)
# per trump slot (ranks 0..12, then the left card): its place in a hand model's slots
# (Rules.bid_slots): 0-4 the five strongest trumps, BID_POINT_SLOT + j the j-th point
# card outside them, BID_OTHER_POINTS a point card past the last slot, -1 none
R_BID_SLOT = R_DECKS + 1
R_SPLIT_RANK = R_BID_SLOT + 14  # rank of Rules.split_card (the Sancho), -1 none
R_LEN = R_SPLIT_RANK + 1
BID_TOP_SLOTS = 5
BID_POINT_SLOT = 5
BID_POINT_SLOTS = 4
BID_OTHER_POINTS = BID_POINT_SLOT + BID_POINT_SLOTS

RULE_CHOICE_SLOT = {
    "all_pass": R_ALL_PASS,
    "excess_trump_discard": R_EXCESS_TRUMP,
    "robber": R_ROBBER,
    "shortage": R_SHORTAGE,
    "follow_rule": R_FOLLOW,
    "low_rule": R_LOW_RULE,
    "low_to": R_LOW_TO,
    "scoring": R_SCORING,
    "high_rule": R_HIGH_RULE,
}
# codes of the enumerated options (their position in rules.CHOICES)
ALL_PASS_NO_CONTRACT, ALL_PASS_FORCED_MIN, ALL_PASS_REDEAL_NEXT, ALL_PASS_REDEAL_SAME = 0, 1, 2, 3
ALL_PASS_FORCED_ANY = 4  # the dealer may not pass: his policy is asked without the pass
ROBBER_MAKER, ROBBER_DEALER, ROBBER_NONE = 0, 1, 2
SHORT_ROUND_ROBIN, SHORT_IN_ORDER, SHORT_LIMIT_DISCARDS = 0, 1, 2
FOLLOW_MAY_TRUMP, FOLLOW_STRICT, FOLLOW_TRUMPS_ONLY = 0, 1, 2
# R_DRAW: no discard or draw; discards then draws from the stock (§1.6-1.9); every
# seat picks up its widow (the stock shared out from eldest) and keeps as a robber
DRAW_NONE, DRAW_STOCK, DRAW_WIDOW = 0, 1, 2

# ---------------------------------------------------------- observation vector
# What a policy may see: public information plus its own seat. Masks are
# 52-bit card masks stored in int64. Per-seat blocks have MAX_PLAYERS slots.
PHASE_BID, PHASE_TRUMP, PHASE_DISCARD, PHASE_ROB, PHASE_PLAY = 0, 1, 2, 3, 4
BID_NOT_YET, BID_PASS = -2, -1

O_SEAT = 0
O_DEALER = 1
O_PLAYERS = 2
O_HAND_SIZE = 3
O_PHASE = 4
O_HIGH_BID = 5  # highest bid so far (0 none)
O_HIGH_BIDDER = 6  # -1 none
O_MAKER = 7  # -1 before the auction ends
O_BID = 8  # the contract (0: no contract)
O_TRUMP = 9  # -1 before trump is named
O_TRUMP_MASK = 10
O_LEFT_CARD = 11  # -1 when the rules have none
O_MIN_KEEP = 12  # discard/rob: fewest cards the player may keep (0 in the play)
O_MAX_KEEP = 13  # discard/rob: most cards the player may keep (0 in the play)
O_STOCK_LEFT = 14
O_DEAD_UP = 15  # face-up dead trumps (public)
O_PLAYED = 16  # every card played so far
O_TRICK = 17  # index of the current trick
O_LEADER = 18
O_TRICK_COUNT = 19  # cards already in the current trick
O_WIN_SEAT = 20  # current winner of the trick (-1 none)
O_WIN_CARD = 21
O_LED_CARD = 22
O_TRICK_MASK = 23
O_TARGET = 24
O_FOLLOW_RULE = 25
O_BID_MIN = 26
O_BID_MAX = 27
O_TEAMS = 28
O_PARTNERSHIPS = 29
O_ROBBER = 30  # seat that robs the pack (-1 nobody)
O_FORCED = 31  # 1 when the player's bid is forced (dealer_forced_min)
O_BIDS = 32  # per seat: BID_NOT_YET, BID_PASS or the bid
O_DISCARDED = O_BIDS + MAX_PLAYERS  # per seat: cards discarded
O_DRAWN = O_DISCARDED + MAX_PLAYERS  # per seat: cards drawn (the robber: taken)
O_CARDS_LEFT = O_DRAWN + MAX_PLAYERS  # per seat: cards still in hand
O_PLAYED_BY = O_CARDS_LEFT + MAX_PLAYERS  # per seat: mask of cards played
O_TRICK_CARDS = O_PLAYED_BY + MAX_PLAYERS  # by position in the trick, -1 empty
O_SCORE = O_TRICK_CARDS + MAX_PLAYERS  # per team: running game score
O_POINTS_TAKEN = O_SCORE + MAX_TEAMS  # per team: points captured so far this hand
O_HAND_INDEX = O_POINTS_TAKEN + MAX_TEAMS  # hand number within a game (0 first)
O_MUST_DISCARD = O_HAND_INDEX + 1  # 1 under must_discard_nontrumps
O_SEAT_TEAM = O_MUST_DISCARD + 1  # per seat: its side (the rules' seat -> team table)
O_RULES = O_SEAT_TEAM + MAX_PLAYERS  # the whole rules vector (R_LEN slots, R_* offsets)
O_TAKEN = O_RULES + R_LEN  # per team: mask of the cards of the tricks it has won (play)
O_VOIDS = O_TAKEN + MAX_TEAMS  # per seat: voids it has shown (bits 0-3 plain suits, 4 trumps)
O_KNOWN_OUT = O_VOIDS + MAX_PLAYERS  # the player's own: cards he knows out of play (play)
# Two decks (R_DECKS 2): ``hand`` and ``legal`` stay 52-bit face masks (a face held at
# least once); the faces held twice are this second plane, the player's own, written
# before each of his questions (0 with one deck). A discard is asked
# in two passes (docs/policies.md): the first over ``hand``, the second over the
# second copies (``hand`` is then the second plane), O_KEPT holding the first keep.
O_HAND2 = O_KNOWN_OUT + 1
O_DISCARD_PASS = O_HAND2 + 1  # 0: the first (or only) discard pass, 1: the second copies
O_KEPT = O_DISCARD_PASS + 1  # in the second pass: the faces kept in the first
O_N_CALLS = O_KEPT + 1  # calls made so far this hand (bids and passes, in order)
O_CALLS = O_N_CALLS + 1  # MAX_BIDS pairs (seat, bid or BID_PASS); entries past O_N_CALLS are stale
# Two decks, play phase: the second planes of O_PLAYED_BY and O_TAKEN (the faces a
# seat played twice, a team took twice), written by the kernel only with two decks
# (0 with one deck) and only for policies that read the trick; appended here so no
# slot above moves.
O_PLAYED_BY2 = O_CALLS + 2 * MAX_BIDS  # per seat: faces it has played twice
O_TAKEN2 = O_PLAYED_BY2 + MAX_PLAYERS  # per team: faces of its tricks taken twice
OBS_LEN = O_TAKEN2 + MAX_TEAMS
VOID_TRUMP = 4  # the bit of O_VOIDS for "has shown he holds no trump"

# -------------------------------------------------------------- per-hand result
# int32 row per hand. Point slots: high, low, the rank points, the left card.
H_DEALER = 0
H_MAKER = 1  # -1 when thrown in
H_BID = 2  # the contract; -1 when thrown in
H_TRUMP = 3
H_MADE = 4  # 1 made, 0 set, -1 thrown in
H_THROWN_IN = 5
H_SHORTAGE = 6  # 1 when the stock ran out
H_ERROR = 7  # 0, or an ERR_* code (the hand is then incomplete)
H_ERROR_SEAT = 8
H_ERROR_KIND = 9  # which plug point (KIND_*)
H_REJECTED = 10  # 1 when a required earlier bid did not match (advisor sampling)
H_N_TRICKS = 11
H_MAKER_TRUMPS_DEALT = 12  # trumps in the maker's dealt cards (9 in the standard game)
H_MAKER_PEDROS_DEALT = 13  # bit 0: right pedro, bit 1: left pedro, bit 2: split card (dealt)
H_MAKER_HONOURS_DEALT = 14  # bits: A K Q J T of trumps dealt (A = bit 4 ... T = bit 0)
H_PARTNER_TRUMPS_DEALT = 15  # the same for the maker's partner (two seats on)
H_PARTNER_PEDROS_DEALT = 16
H_MAKER_TRUMPS_KEPT = 17  # trumps the maker held after the draw (6 cards in the standard game)
H_BIDS = 18  # per seat: -1 pass, -2 did not bid, else the bid
H_POINTS = H_BIDS + MAX_PLAYERS  # per team
H_SCORE = H_POINTS + MAX_TEAMS  # per team: score change
H_SLOT_TEAM = H_SCORE + MAX_TEAMS  # per point slot: capturing team, -1 not in play
H_SLOT_TRICK = H_SLOT_TEAM + N_POINT_SLOTS  # per point slot: trick it fell in
H_SLOT_HOLDER = H_SLOT_TRICK + N_POINT_SLOTS  # per point slot: seat holding it after the draw
H_SLOT_PLAYER = H_SLOT_HOLDER + N_POINT_SLOTS  # per point slot: seat that played it
H_ERROR_VALUE = H_SLOT_PLAYER + N_POINT_SLOTS  # what the broken policy returned: low 32 bits
H_LEN = H_ERROR_VALUE + 1
# Two decks: the same four blocks for each point slot's second copy (the H_SLOT_*
# blocks above hold the copy played first). A one-deck row stops at H_LEN, so its
# width (and every stored result hash) is as before; ``row_len`` gives the width.
H2_SLOT_TEAM = H_LEN
H2_SLOT_TRICK = H2_SLOT_TEAM + N_POINT_SLOTS
H2_SLOT_HOLDER = H2_SLOT_TRICK + N_POINT_SLOTS
H2_SLOT_PLAYER = H2_SLOT_HOLDER + N_POINT_SLOTS
H_LEN2 = H2_SLOT_PLAYER + N_POINT_SLOTS
# A broken hand stops before it is scored, so its first score slot is free: it holds
# the high 32 bits of the policy's int64 return (``engine.run.error_value`` joins them).
H_ERROR_VALUE_HIGH = H_SCORE
# An illegal card's hand stops before its points are counted: the first two point slots
# hold the legal cards the policy was given (the mask's low and high 32 bits).
H_ERROR_LEGAL = H_POINTS
H_ERROR_LEGAL_HIGH = H_POINTS + 1

SLOT_HIGH, SLOT_LOW, SLOT_RANK0 = 0, 1, 2
SLOT_LEFT = 2 + MAX_RANK_POINTS

ERR_NONE = 0
ERR_ILLEGAL = 1  # a policy returned an illegal choice
KIND_BID, KIND_TRUMP, KIND_DISCARD, KIND_PLAY = 0, 1, 2, 3
KIND_NAMES = ("bid", "trump", "discard", "play")
# The built-in ids the kernel takes per [kind, seat] (KIND_* * MAX_PLAYERS + seat),
# then three flags: 1 when some seat's policy may read the call history (O_CALLS),
# which the kernel then writes (the built-in random, simple and greedy never do),
# 1 when some seat plays dd, and 1 when some policy may draw from its random stream.
PIDS_READ_CALLS = 4 * MAX_PLAYERS
PIDS_DD = PIDS_READ_CALLS + 1  # 1: some seat plays dd, which the kernel hands every hand
PIDS_STREAMS = PIDS_DD + 1  # 0: no policy draws a random number; the streams are not set
PIDS_LEN = PIDS_STREAMS + 1
# A dd seat's scratch (policies/dd.py), as the kernel leaves it at the start of play:
# each seat's faces (two decks: then those held twice), the address of every seat's
# scratch and the dd seats' bits, so that the first dd seat to work out the
# principal line hands it to the others.
DD_HANDS = 0
DD_HANDS2 = MAX_PLAYERS
DD_TABLE = 2 * MAX_PLAYERS
DD_SEATS = DD_TABLE + 1
DD_FREE = DD_SEATS + 1  # the policy's own slots from here

# ------------------------------------------------------------ per-hand trace
# int64 row, written only when records are asked for.
T_DECK = 0  # 52: cards in the order they came off the shuffled deck
T_N_BIDS = T_DECK + 52
T_BIDS = T_N_BIDS + 1  # MAX_BIDS pairs (seat, bid or -1)
T_DISCARD = T_BIDS + 2 * MAX_BIDS  # per seat: mask discarded before the draw
T_DRAW_SEAT = T_DISCARD + MAX_PLAYERS  # per deck position: seat that drew it, -1
T_ROBBER = T_DRAW_SEAT + 52
T_ROBBER_DISCARD = T_ROBBER + 1
T_N_TRICKS = T_ROBBER_DISCARD + 1
T_LEADER = T_N_TRICKS + 1  # MAX_TRICKS
T_WINNER = T_LEADER + MAX_TRICKS  # MAX_TRICKS
T_PLAYS = T_WINNER + MAX_TRICKS  # MAX_TRICKS * MAX_PLAYERS cards by position, -1
T_LEN = T_PLAYS + MAX_TRICKS * MAX_PLAYERS
# Two decks: deck positions 52..103 and their drawers, and the second plane of each
# discard mask (faces discarded twice). Cards in the trace are faces (0..51) either
# way. A one-deck trace row stops at T_LEN; ``trace_len`` gives the width.
T_DECK2 = T_LEN  # deck positions 52..103
T_DRAW_SEAT2 = T_DECK2 + 52  # their drawers, -1
T_DISCARD2 = T_DRAW_SEAT2 + 52  # per seat: faces discarded twice
T_ROBBER_DISCARD2 = T_DISCARD2 + MAX_PLAYERS
T_LEN2 = T_ROBBER_DISCARD2 + 1


def row_len(decks: int) -> int:
    """Width of a result row: H_LEN, or H_LEN2 with two decks (second copies)."""
    return H_LEN if decks == 1 else H_LEN2


def trace_len(decks: int) -> int:
    """Width of a trace row: T_LEN, or T_LEN2 with two decks."""
    return T_LEN if decks == 1 else T_LEN2


# ------------------------------------------------------------- batch setup
# int64 vector: conditions on every hand of a batch (the hand advisor).
S_DEALER = 0
S_FIXED = 1  # per seat: mask of cards that seat is dealt
S_FORCE_MAKER = S_FIXED + MAX_PLAYERS  # -1: bid normally
S_FORCE_TRUMP = S_FORCE_MAKER + 1
S_FORCE_BID = S_FORCE_TRUMP + 1
S_N_REQUIRED = S_FORCE_BID + 1  # bids that must come out of the bidding first
S_REQUIRED = S_N_REQUIRED + 1  # MAX_PLAYERS bids (BID_PASS or a bid), in bidding order
S_HAND_OFFSET = S_REQUIRED + MAX_PLAYERS  # global index of the batch's first hand
S_DECK_GIVEN = S_HAND_OFFSET + 1  # 1: deal exactly S_DECK (hand-built deals, replays)
S_DECK = S_DECK_GIVEN + 1  # 52 cards in deal order (as T_DECK), no shuffle
S_STREAMS = S_DECK + 52  # per seat: the stream number of its policies' random draws
S_DECK2 = S_STREAMS + MAX_PLAYERS  # two decks: deal positions 52..103 (faces)
S_FIXED2 = S_DECK2 + 52  # two decks, per seat: faces dealt to that seat twice (in S_FIXED too)
# 1: the hands' indices follow S_LEN (listed hands); LISTED_FIXED: each index is
# followed by MAX_PLAYERS masks, that hand's own S_FIXED (deals drawn elsewhere)
S_LISTED = S_FIXED2 + MAX_PLAYERS
S_LEN = S_LISTED + 1
LISTED_INDICES, LISTED_FIXED = 1, 2

# -------------------------------------------------------------- per-game result
# int32 row per game (the games kernel); its hands' rows come beside it.
REASON_TARGET, REASON_NEGATIVE_LIMIT, REASON_UNFINISHED = 0, 1, 2
REASON_NAMES = ("target", "negative_limit", "unfinished")
G_FIRST_DEALER = 0
G_WINNER = 1  # winning team, -1 unfinished
G_REASON = 2
G_N_HANDS = 3  # hands played (thrown-in hands included)
G_SCORE = 4  # per team: final totals
G_LEN = G_SCORE + MAX_TEAMS
GAME_STREAM = 1 << 20  # stream number of a game's own draws (the cut for the first dealer)

"""The hand features the tables can be sliced by (``stats --by``), with what each is: one
list that ``stats --help`` reads without loading the kernel, and the analysis checks."""

FEATURES: dict[str, str] = {
    "bid": "the contract (0: nobody bid, the dealer named trumps with no contract)",
    "seat": "the maker's seat relative to the dealer (eldest hand first, the dealer last)",
    "trumps": "how many trumps (the left card included) the maker was dealt",
    "pedros": "which Pedros the maker was dealt: none, right, left, both",
    "high": "how many of A K Q J 10 of trumps the maker was dealt (0-5)",
    "ace": "whether the maker was dealt the ace of trumps",
    "honours": "which of A K Q J 10 of trumps the maker was dealt, e.g. AKT",
}

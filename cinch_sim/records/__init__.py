"""Hand and game records (docs/records.md): write, read, validate, referee.

One job per module:

- ``parse``: typed fields, card tokens and rules of a record; ``RecordError``;
- ``writer``: ``cinch-hand/1`` records from the kernel's trace rows, streamed
  to disk atomically (``RecordWriter``, ``write_records``), and refereed
  ``cinch-game/1`` records (``game_record``, ``kernel_game_record``);
- ``referee``: an independent pure-Python referee of docs/rules.md (never calls
  the kernel): ``check_hand``, ``check_game``;
- ``game_end``: the end of a game (docs/rules.md §1.15) and who deals next, the
  one Python statement of the rule (referee, writer and tests);
- ``io``: JSON Lines files line by line, verdicts and summaries;
- ``show``: one hand as text for people.

Python API (for notebooks)::

    from cinch_sim import records
    rep = records.referee_file("hands.jsonl")
    print(rep.summary()); df = rep.to_frame()
    v = records.referee_record(record_dict)      # Verdict: status, message, record
    records.write_records("clean.jsonl", [v.record for v in rep.verdicts if v.record])
"""

from cinch_sim.records.io import (
    Line,
    RecordFileError,
    RefereeReport,
    Verdict,
    iter_referee_file,
    load_records,
    read_records,
    referee_file,
    referee_record,
    referee_records,
    verdicts_frame,
)
from cinch_sim.records.parse import GAME_FORMAT, HAND_FORMAT, RecordError, parse_rules
from cinch_sim.records.referee import GameCheck, HandCheck, check_game, check_hand
from cinch_sim.records.writer import (
    RecordWriter,
    dumps,
    game_record,
    hand_record,
    iter_hand_records,
    simulate_game_record,
    write_records,
)

__all__ = [
    "GAME_FORMAT",
    "HAND_FORMAT",
    "GameCheck",
    "HandCheck",
    "Line",
    "RecordError",
    "RecordFileError",
    "RecordWriter",
    "RefereeReport",
    "Verdict",
    "check_game",
    "check_hand",
    "dumps",
    "game_record",
    "hand_record",
    "hands_frame",
    "iter_hand_records",
    "iter_referee_file",
    "load_records",
    "parse_rules",
    "read_records",
    "referee_file",
    "referee_record",
    "referee_records",
    "simulate_game_record",
    "verdicts_frame",
    "write_records",
]


def hands_frame(path_or_records):
    """A DataFrame of refereed hands (one row per record): maker, bid, trump, points, score..."""
    if isinstance(path_or_records, (str, bytes)) or hasattr(path_or_records, "__fspath__"):
        return referee_file(path_or_records).to_frame()
    return verdicts_frame(referee_records(path_or_records))

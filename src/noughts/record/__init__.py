"""Game records: a game's moves with comments and variations, its players, result and tags,
read and written as plain text (PGN's shape) or JSON, and exchanged with the store.

>>> from noughts.record import Record, read_record
>>> r = read_record('''
... [Format "noughts-record 1"]
... [Game "tictactoe"]
... [First "ann"]
... [Second "perfect"]
...
... 1. b2 2. a1 {the only good reply} (2. b1 3. a1 $2) 3. c3
... ''')
>>> r.first, r.result, r.final.text()
('ann', None, 'o../.x./..x')
>>> r.moves.moves[1].variations[0].moves[1].nags
(2,)
>>> read_record(r.to_text()) == r
True

See :mod:`noughts.record.text` for the text form, :mod:`noughts.record.files` for files (text
or JSON), :mod:`noughts.record.store` for the store.
"""

from noughts.record.files import dump_records, load_records, read_file, records_json
from noughts.record.model import Line, Node, Record, RecordError, walk
from noughts.record.names import FORMAT, VERSION
from noughts.record.text import read_record, read_records
from noughts.record.writer import write_record, write_records

__all__ = [
    "FORMAT",
    "VERSION",
    "Line",
    "Node",
    "Record",
    "RecordError",
    "dump_records",
    "load_records",
    "read_file",
    "read_record",
    "read_records",
    "records_json",
    "walk",
    "write_record",
    "write_records",
]

"""Compare two ctxopt indexes table by table, every column (vectors bit for bit).

    python scripts/compare_index.py DB_A DB_B

DB_A and DB_B are index folders (what `ctxopt index --db` wrote).  Rows are matched by
their key (chunks: id; files: path; graph: every column), columns whose contents differ
are named with a count and one example; exit status 1 when anything differs.  The
meta table is left out (it holds the run's time and statistics)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

KEYS = {"chunks": "id", "files": "path", "graph": None}


def _rows(db: str, table: str) -> Any:
    import lancedb

    frame = lancedb.connect(db).open_table(table).to_arrow()
    key = KEYS[table]
    if key is not None:
        return frame.sort_by(key)
    rows = frame.to_pylist()  # list columns: sort whole rows by their text
    order = sorted(range(len(rows)), key=lambda i: repr(sorted(rows[i].items())))
    return frame.take(order)


def _same_bits(left: Any, right: Any) -> bool:
    """Equal columns; float vectors compared by their bytes (so 0.0 differs from -0.0)."""
    import numpy as np
    import pyarrow as pa

    if pa.types.is_fixed_size_list(left.type):
        flat = [np.asarray(c.combine_chunks().flatten()) for c in (left, right)]
        return bool(flat[0].tobytes() == flat[1].tobytes())
    return bool(left.to_pylist() == right.to_pylist())


def compare(db_a: str, db_b: str) -> int:
    """Differences found (0: identical), printed one line per table or column."""
    differences = 0
    for table in KEYS:
        a, b = _rows(db_a, table), _rows(db_b, table)
        if a.schema != b.schema or a.num_rows != b.num_rows:
            print(f"{table}: schema or row count differs ({a.num_rows} against {b.num_rows})")
            differences += 1
            continue
        for name in a.column_names:
            if _same_bits(a.column(name), b.column(name)):
                continue
            left, right = a.column(name).to_pylist(), b.column(name).to_pylist()
            bad = [i for i, (x, y) in enumerate(zip(left, right, strict=True)) if x != y]
            if bad:
                print(f"{table}.{name}: {len(bad)} rows differ, e.g. {left[bad[0]]!r:.120}")
            else:  # equal as Python floats, not bit for bit (0.0 against -0.0)
                print(f"{table}.{name}: the same values but not the same bits")
            differences += 1
        print(f"{table}: {a.num_rows} rows compared", file=sys.stderr)
    return differences


class OneLineErrors(argparse.ArgumentParser):
    """A usage error in one line (argparse's own prints the usage, then the error)."""

    def error(self, message: str) -> NoReturn:
        usage = self.format_usage().strip().removeprefix("usage: ")
        self.exit(2, f"{self.prog}: {message} (usage: {usage}; --help for more)\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """DB_A and DB_B; --help describes them; a missing one is a one-line usage error."""
    parser = OneLineErrors(
        description=__doc__.splitlines()[0],
        epilog="Exit status: 0 identical, 1 something differs, 2 bad usage.",
    )
    parser.add_argument("db_a", metavar="DB_A", help="an index folder (`ctxopt index --db`)")
    parser.add_argument("db_b", metavar="DB_B", help="the index folder to compare it with")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return 1 if compare(args.db_a, args.db_b) else 0


if __name__ == "__main__":
    sys.exit(main())

"""A results file from Python: the same rows ``beggar-search export`` writes.

    import beggar_search.results

    with beggar_search.results.open("results.sqlite") as results:
        for game in results.longest():  # the latest run's longest games, longest first
            print(game["cards"], game["deal"])
        fair = list(results.cycles(run=3, fair_only=True))

Every method yields one dict per row, as ``export --format jsonl`` writes it (the keys of
docs/json.md), read one at a time (a run's millions of loops are never all held);
``run=None`` is the latest run.  The file is opened for reading only: a search may go on
writing it meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from .exports import Table, table_rows
from .store import Run, Store


def open(path: str | Path) -> Results:
    """The results file at ``path``, for reading (a ``StoreError`` when it is none)."""
    return Results(Store(path, create=False))


class Results:
    """A results file's runs and their exports (``open``)."""

    def __init__(self, store: Store):
        self.store = store

    def runs(self) -> list[Run]:
        """The runs the file holds, oldest first (a run that cannot be read is left out)."""
        return list(self.store.runs())

    def rows(self, table: Table, run: int | None = None) -> Iterator[dict]:
        """The rows of ``table`` (``exports.Table``) for ``run``, as ``export`` writes
        them in JSON."""
        return map(table.json_row, table_rows(self.store, self.store.run(run), table))

    def longest(self, run: int | None = None, by_family: bool = False) -> Iterator[dict]:
        """The run's longest games, longest first (``by_family``: the best of each merge
        family, with its size and its mirror family's)."""
        return self.rows(Table("longest", by_family=by_family), run)

    def loops(self, run: int | None = None) -> Iterator[dict]:
        """The run's looping deals."""
        return self.rows(Table("loops"), run)

    def cycles(self, run: int | None = None, fair_only: bool = False) -> Iterator[dict]:
        """The run's cycles (``fair_only``: those a fair deal reaches)."""
        return self.rows(Table("cycles", fair_only=fair_only), run)

    def histogram(self, run: int | None = None) -> Iterator[dict]:
        """How many games of each length (in cards) the run played."""
        return self.rows(Table("histogram"), run)

    def close(self) -> None:
        """Close the file."""
        self.store.close()

    def __enter__(self) -> Results:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

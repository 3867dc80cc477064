"""A run's exports: the columns of each table, its rows read one at a time, and the writers
(``WRITERS``) that put them in a file.

The seam: ``beggar-search export --format NAME`` looks its writer up in ``WRITERS``; the
rows are the same for every writer (``table_rows``), and ``beggar_search.results`` hands
them to Python as the JSON writers write them (``Table.json_row``).  A new format is one
``Writer`` in the table: a function ``(target, rows, table, spreadsheet) -> rows written``.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .store.cycle_families import fair_reached, islands
from .store.merge_families import FAMILY_KEYS, by_family
from .vocabulary import cycle_record
from .vocabulary import iso_time as when


def by_family_rows(store, run, limit: int | None = None) -> list[dict]:
    """The best game of each merge family on a run's leaderboard, best first (``limit``
    families at most), with the family's size and its mirror's (``store.merge_families``)."""
    return by_family(store.iter_games(run.id, "longest"), run.params, limit)


EXPORTS = {
    "longest": ["rank", "deal", "cards", "tricks", "outcome", "winner", "preperiod_tricks",
                "preperiod_cards", "period_tricks", "period_cards", "cycle", "number", "seed",
                "chunk", "position", "found", "family"],
    "cycles": ["cycle", "period_tricks", "period_cards", "deals", "example", "state",
               "reach_states", "reach_complete", "reach_depth", "fair_deals",
               "fair_deals_swapped", "mirror", "own_mirror", "generation", "parent", "move",
               "island", "found"],
    "histogram": ["cards", "count"],
}
EXPORTS["loops"] = EXPORTS["longest"]
FAMILY_EXPORT = EXPORTS["longest"] + [key for key in FAMILY_KEYS if key != "family"]
# export --json: the same columns, and the counts named as in every other --json
# (docs/json.md); the CSV keeps its columns and its 0/1
JSON_EXPORTS = {**EXPORTS, "cycles": [
    *EXPORTS["cycles"][:EXPORTS["cycles"].index("fair_deals_swapped") + 1],
    "fair_deal_count", "fair_deal_swapped_count",
    *EXPORTS["cycles"][EXPORTS["cycles"].index("fair_deals_swapped") + 1:]]}


def export_rows(store, run, what: str, families: bool = False):
    """The rows of one export, one at a time: an export of millions of rows never holds
    them all (the cycles' islands need only each cycle's id, parent and mirror first).
    ``families``: the longest games' best of each merge family instead (``by_family_rows``)."""
    if families:
        return ({**game, "rank": rank, "seed": run.params.get("seed"),
                 "found": when(game["found"])}
                for rank, game in enumerate(by_family_rows(store, run), start=1))
    if what == "histogram":
        return ({"cards": cards, "count": count} for cards, count in store.histogram(run.id))
    if what == "cycles":
        kin = list(store.iter_cycles(run.id, columns="cycle, parent, mirror, move"))
        island = islands(kin, store.links(run.id))
        del kin
        return ({**c, "island": island[c["cycle"]], "found": when(c["found"])}
                for c in store.iter_cycles(run.id))
    return ({**game, "rank": rank, "seed": run.params.get("seed"), "found": when(game["found"])}
            for rank, game in enumerate(store.iter_games(run.id, what), start=1))


# what a spreadsheet would take for a formula (OWASP's list), or read as a number
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER_LIKE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
# numbers a spreadsheet keeps as written: no leading zero, at most 15 digits (past that
# they lose digits as floating point)
KEPT_NUMBER = re.compile(r"0|[1-9][0-9]{0,14}")
SPREADSHEET_WHOLE = 10**15


def for_spreadsheet(value):
    """A cell a spreadsheet shows exactly as written.

    Text it would read as a formula (starting with = + - @) or as a number (a cycle id
    such as ``00000000001234e5``), and whole numbers it would round (deal indices, seeds),
    become the formula ``="text"``, which a spreadsheet shows as the text itself.
    """
    if value is None or isinstance(value, bool | float) or (
            type(value) is int and abs(value) < SPREADSHEET_WHOLE):  # a number, kept
        return value
    text = str(value)
    if KEPT_NUMBER.fullmatch(text):
        return value
    if text.startswith(FORMULA_START) or NUMBER_LIKE.fullmatch(text):
        return '="' + text.replace('"', '""') + '"'
    return text


@dataclass(frozen=True)
class Table:
    """Which table of a run an export writes: ``what`` (a key of ``EXPORTS``), the longest
    games' best of each merge family instead (``by_family``), only the cycles a fair deal
    reaches (``fair_only``)."""

    what: str = "longest"
    by_family: bool = False
    fair_only: bool = False

    @property
    def columns(self) -> list[str]:
        """The CSV's columns."""
        return FAMILY_EXPORT if self.by_family else EXPORTS[self.what]

    @property
    def json_columns(self) -> list[str]:
        """The keys of a JSON row: the CSV's columns, and the counts named as in every other
        ``--json`` (docs/json.md)."""
        return FAMILY_EXPORT if self.by_family else JSON_EXPORTS[self.what]

    def json_row(self, row: dict) -> dict:
        """A row as the JSON writers write it (and ``beggar_search.results`` returns it)."""
        record = cycle_record(row) if self.what == "cycles" else row
        return {key: record[key] for key in self.json_columns}


def table_rows(store, run, table: Table) -> Iterator[dict]:
    """The rows of ``table`` for ``run``, one at a time, as every writer takes them."""
    rows = export_rows(store, run, table.what, table.by_family)
    if table.fair_only:
        rows = (row for row in rows if fair_reached(row))
    return rows


def write_csv(target, rows: Iterable[dict], table: Table, spreadsheet: bool = False) -> int:
    """CSV with a header; ``spreadsheet``: every cell as a spreadsheet shows it exactly
    (``for_spreadsheet``), else plain, for scripts."""
    columns = table.columns
    writer = csv.DictWriter(target, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    written = 0
    for row in rows:
        if spreadsheet:
            row = {key: for_spreadsheet(row[key]) for key in columns}
        writer.writerow(row)
        written += 1
    return written


def write_jsonl(target, rows: Iterable[dict], table: Table, spreadsheet: bool = False) -> int:
    """One JSON object a line (what ``--json`` writes)."""
    written = 0
    for row in rows:
        target.write(json.dumps(table.json_row(row)) + "\n")
        written += 1
    return written


def write_json(target, rows: Iterable[dict], table: Table, spreadsheet: bool = False) -> int:
    """One JSON list of the same objects, one a line, written as they are read."""
    written = 0
    for row in rows:
        target.write(("[" if not written else ",\n ") + json.dumps(table.json_row(row)))
        written += 1
    target.write(("]" if written else "[]") + "\n")
    return written


@dataclass(frozen=True)
class Writer:
    """One export format: its writer, what it calls a row it wrote, and whether it takes
    ``--for-spreadsheet``."""

    write: Callable[..., int]
    row_name: str
    spreadsheet: bool = False

    def said(self, written: int) -> str:
        """``12 CSV rows``: what was written."""
        return f"{written:,} {self.row_name}{'' if written == 1 else 's'}"


WRITERS = {
    "csv": Writer(write_csv, "CSV row", spreadsheet=True),
    "json": Writer(write_json, "JSON object"),
    "jsonl": Writer(write_jsonl, "JSON line"),
}

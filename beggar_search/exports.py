"""A run's exports: the columns of each table, its rows read one at a time, and the cell a
spreadsheet shows exactly as written."""

from __future__ import annotations

import re

from .store.cycle_families import islands
from .store.merge_families import FAMILY_KEYS, by_family
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

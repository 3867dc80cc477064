"""Reading the results store: ``runs``, ``show`` and ``export``."""

from __future__ import annotations

import csv
import json
import re
import sys
from contextlib import nullcontext

import click

from ..cards.params import game_of
from ..driver import summarise
from ..long_families import FAMILY_KEYS, by_family
from ..outfile import atomic_output, check_output
from ..store.family import fair_reached, islands
from ..strategies.units import strategy_class, unit_of
from .common import (
    ROWS,
    RUN_ID,
    UserError,
    emit,
    json_option,
    open_store,
    plural,
    print_summary,
    say,
    shown_name,
)
from .odds import record_odds, record_odds_line
from .options import db_option
from .vocabulary import cycle_record, game_record, run_record, summary_record
from .vocabulary import iso_time as when


def run_option(function):
    """Give a command the ``--run`` option (a run id passed as ``run_id``; ``None`` means the latest
    run)."""
    return click.option("--run", "run_id", type=RUN_ID, default=None,
                        help="Run id [default: the latest run].")(function)


@click.command()
@db_option
@json_option
def runs(db_path, as_json):
    """List the runs in the results file (a run that cannot be read is named on stderr)."""
    with open_store(db_path, create=False) as store:
        found = list(store.runs())
        if not found:
            if store.db.execute("SELECT 1 FROM runs LIMIT 1").fetchone() is None:
                say(f"beggar-search: {store.path} holds no runs yet", err=True)
            return
        games = [("" if game_of(run.params) == "bmn" else "ers ") + run.params["deck"]
                 for run in found]
        width = max(12, *map(len, games))
        if not as_json:
            say(f"{'run':>4s}  {'strategy':10s} {'status':8s} {'deck':>{width}s} players"
                f" {'deals (tries, games)':>20s} {'loops':>8s}  {'started':25s} last stored")
        for run, game in zip(found, games, strict=True):
            data = {"run": run.id, "strategy": run.strategy, "status": run.status,
                    "deck": run.params["deck"], "players": run.players,
                    "seed": run.params.get("seed"), "deals": run.deals, "loops": run.loops,
                    "created": when(run.created), "updated": when(run.updated),
                    "game": game_of(run.params)}
            emit(run_record(data), as_json, f"{run.id:4d}  {run.strategy:10s} {run.status:8s} "
                                f"{game:>{width}s} {run.players:7d} "
                                f"{run.deals:>14,} {unit_of(run.strategy):5s} {run.loops:>8,}"
                                f"  {when(run.created):25s} {when(run.updated)}")


@click.command()
@db_option
@run_option
@click.option("--top", "top", type=ROWS, default=10, show_default=True,
              help="Leaderboard rows to print.")
@click.option("--by-family", is_flag=True,
              help="List the best game of each merge family (games that join one trajectory,"
                   " docs/records.md) with the family's games on the board, instead of every"
                   " game.")
@json_option
def show(db_path, run_id, top, by_family, as_json):
    """A run's summary and leaderboard."""
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        summary = summarise(store, run.id)
        games = (by_family_rows(store, run, top) if by_family
                 else store.iter_games(run.id, "longest", limit=top))
        known = record_odds(store, run)  # None: no record known, or no sample
        if as_json:  # one object, its long lists written as they are read
            key = "families" if by_family else "leaderboard"
            head = {**summary_record(summary), **({"record_odds": known} if known else {})}
            sys.stdout.write(json.dumps(head)[:-1] + f', "{key}": ')
            write_list(map(game_record, games))
            sys.stdout.write(', "cycle_list": ')
            write_list(map(cycle_record, store.iter_cycles(run.id)))
            sys.stdout.write("}\n")
            return
        print_summary(summary, False)
        say(f"chunks     {run.params['chunk_size']:,} {unit_of(run.strategy)} each")
        if known:
            say(record_odds_line(known))
        for rank, game in enumerate(games, start=1):
            family = ""
            if by_family:
                mirror = (f", mirror {game['mirror_family']} x{game['mirror_members']}"
                          if game["mirror_family"] else "")
                family = f"  family {game['family']} x{game['members']}{mirror}"
            say(f"{rank:4d}. {game['cards']:6d} cards {game['tricks']:5d} tricks  "
                f"{game['deal']}  ({number_label(run)} {game['number']}){family}")
        for cycle in store.iter_cycles(run.id, limit=top):
            say(f"cycle {cycle['cycle']}: period {cycle['period_tricks']} tricks / "
                f"{cycle['period_cards']} cards, reached by"
                f" {plural(cycle['deals'], 'deal')}")


def number_label(run) -> str:
    """What a leaderboard's number is: a deal index (``deal --index``) for an enumeration,
    else the game's place in the run's stream of games (not a deal index)."""
    return strategy_class(run.strategy).number_label


def by_family_rows(store, run, limit: int | None = None) -> list[dict]:
    """The best game of each merge family on a run's leaderboard, best first (``limit``
    families at most), with the family's size and its mirror's (``long_families``)."""
    return by_family(store.iter_games(run.id, "longest"), run.params, limit)


def write_list(rows, batch: int = 1000) -> None:
    """A JSON list on stdout, ``batch`` elements at a time."""
    sys.stdout.write("[")
    items = []
    for number, row in enumerate(rows):
        items.append((", " if number else "") + json.dumps(row))
        if len(items) >= batch:
            sys.stdout.write("".join(items))
            items = []
    sys.stdout.write("".join(items) + "]")


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


@click.command()
@click.option("--what", type=click.Choice(list(EXPORTS)), default="longest", show_default=True,
              help="Which table to export.")
@db_option
@run_option
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="CSV file to write [default: stdout]; never a SQLite database, nor its"
                   " -wal, -shm or -journal.")
@click.option("--for-spreadsheet", "spreadsheet", is_flag=True,
              help="CSV that spreadsheets open intact: text that starts with = + - @ (most"
                   " deals start with -) or looks like a number, and whole numbers past 15"
                   " digits (deal indices, seeds), are written as =\"...\", which shows the"
                   " text itself and runs nothing. Without it the CSV is plain, for scripts.")
@click.option("--fair-only", is_flag=True,
              help="With --what cycles: only the cycles a fair deal reaches (either leader).")
@click.option("--by-family", is_flag=True,
              help="With --what longest: the best game of each merge family, with the"
                   " family's games on the board (members) and its mirror family's.")
@json_option
def export(what, db_path, run_id, out, spreadsheet, fair_only, by_family, as_json):
    """Export a run's longest games, loops, cycles or length histogram as CSV."""
    if spreadsheet and as_json:
        raise UserError("--for-spreadsheet makes CSV; --json writes JSON: choose one")
    if by_family and what != "longest":
        raise UserError("--by-family goes with --what longest")
    if fair_only and what != "cycles":
        raise UserError(f"--fair-only is for --what cycles (every looping deal a run keeps"
                        f" is a fair deal already), not --what {what}")
    if out:
        check_output(out, (db_path,))  # before any work: never the results file
    written = 0
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        rows = export_rows(store, run, what, by_family)
        columns = FAMILY_EXPORT if by_family else EXPORTS[what]
        if fair_only:
            rows = (row for row in rows if fair_reached(row))
        with (atomic_output(out, (db_path,), newline="") if out
              else nullcontext(sys.stdout)) as target:
            if as_json:
                record = cycle_record if what == "cycles" else dict
                keys = columns if by_family else JSON_EXPORTS[what]
                for row in rows:
                    row = record(row)
                    target.write(json.dumps({key: row[key] for key in keys}) + "\n")
                    written += 1
            else:
                writer = csv.DictWriter(target, columns, extrasaction="ignore",
                                        lineterminator="\n")
                writer.writeheader()
                for row in rows:
                    if spreadsheet:
                        row = {key: for_spreadsheet(row[key]) for key in columns}
                    writer.writerow(row)
                    written += 1
    if out:
        kind = "JSON lines" if as_json else "CSV rows"
        say(f"wrote {written:,} {kind if written != 1 else kind[:-1]} to {shown_name(out)}",
            err=True)

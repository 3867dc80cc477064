"""Reading the results store: ``runs``, ``show`` and ``export``."""

from __future__ import annotations

import csv
import datetime
import json
import re
import sys
from contextlib import nullcontext

import click

from ..driver import summarise
from ..family import fair_reached, islands
from ..games import game_of
from ..outfile import atomic_output, check_output
from .common import (
    ROWS,
    RUN_ID,
    UserError,
    emit,
    json_option,
    open_store,
    print_summary,
    say,
    shown_name,
)
from .options import db_option


def run_option(function):
    """Give a command the ``--run`` option (a run id passed as ``run_id``; ``None`` means the latest
    run)."""
    return click.option("--run", "run_id", type=RUN_ID, default=None,
                        help="Run id [default: the latest run].")(function)


def when(timestamp: float) -> str:
    """``timestamp`` (seconds since the epoch) as an ISO 8601 UTC time, to the second."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat(timespec="seconds")


@click.command()
@db_option
@json_option
def runs(db_path, as_json):
    """List the runs in the results file (a run that cannot be read is named on stderr)."""
    with open_store(db_path, create=False) as store:
        found = store.runs()
        if not found and store.db.execute("SELECT 1 FROM runs LIMIT 1").fetchone() is None:
            say(f"beggar-search: {store.path} holds no runs yet", err=True)
        for run in found:
            data = {"run": run.id, "strategy": run.strategy, "status": run.status,
                    "deck": run.params["deck"], "players": run.players,
                    "seed": run.params.get("seed"), "deals": run.deals, "loops": run.loops,
                    "created": when(run.created), "updated": when(run.updated),
                    "game": game_of(run.params)}
            game = "" if data["game"] == "bmn" else f"{data['game']} "
            emit(data, as_json, f"{run.id:4d}  {run.strategy:10s} {run.status:8s} "
                                f"{game}{run.params['deck']:>12s} {run.players}p  "
                                f"{run.deals:>14,} deals {run.loops:>8,} loops  "
                                f"{when(run.updated)}")


@click.command()
@db_option
@run_option
@click.option("--top", "top", type=ROWS, default=10, show_default=True,
              help="Leaderboard rows to print.")
@json_option
def show(db_path, run_id, top, as_json):
    """A run's summary and leaderboard."""
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        summary = summarise(store, run.id)
        if as_json:  # one object, its long lists written as they are read
            sys.stdout.write(json.dumps(summary)[:-1] + ', "leaderboard": ')
            write_list(store.iter_games(run.id, "longest", limit=top))
            sys.stdout.write(', "cycle_list": ')
            write_list(store.iter_cycles(run.id))
            sys.stdout.write("}\n")
            return
        print_summary(summary, False)
        for rank, game in enumerate(store.iter_games(run.id, "longest", limit=top), start=1):
            say(f"{rank:4d}. {game['cards']:6d} cards {game['tricks']:5d} tricks  "
                f"{game['deal']}  (#{game['number']})")
        for cycle in store.iter_cycles(run.id, limit=top):
            say(f"cycle {cycle['cycle']}: period {cycle['period_tricks']} tricks / "
                f"{cycle['period_cards']} cards, reached by {cycle['deals']} deals")


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
                "chunk", "position", "found"],
    "cycles": ["cycle", "period_tricks", "period_cards", "deals", "example", "state",
               "reach_states", "reach_complete", "reach_depth", "fair_deals",
               "fair_deals_swapped", "mirror", "own_mirror", "generation", "parent", "move",
               "island", "found"],
    "histogram": ["cards", "count"],
}
EXPORTS["loops"] = EXPORTS["longest"]


def export_rows(store, run, what: str):
    """The rows of one export, one at a time: an export of millions of rows never holds
    them all (the cycles' islands need only each cycle's id, parent and mirror first)."""
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
@json_option
def export(what, db_path, run_id, out, spreadsheet, fair_only, as_json):
    """Export a run's longest games, loops, cycles or length histogram as CSV."""
    if spreadsheet and as_json:
        raise UserError("--for-spreadsheet makes CSV; --json writes JSON: choose one")
    if out:
        check_output(out, (db_path,))  # before any work: never the results file
    written = 0
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        rows = export_rows(store, run, what)
        if fair_only:
            rows = (row for row in rows if fair_reached(row))
        with (atomic_output(out, (db_path,), newline="") if out
              else nullcontext(sys.stdout)) as target:
            if as_json:
                for row in rows:
                    target.write(json.dumps({key: row[key] for key in EXPORTS[what]}) + "\n")
                    written += 1
            else:
                writer = csv.DictWriter(target, EXPORTS[what], extrasaction="ignore",
                                        lineterminator="\n")
                writer.writeheader()
                for row in rows:
                    if spreadsheet:
                        row = {key: for_spreadsheet(row[key]) for key in EXPORTS[what]}
                    writer.writerow(row)
                    written += 1
    if out:
        say(f"wrote {written} rows to {shown_name(out)}", err=True)

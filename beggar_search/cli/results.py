"""Reading the results store: ``runs``, ``show`` and ``export``."""

from __future__ import annotations

import json
import sys
from contextlib import nullcontext

import click

from ..exports import EXPORTS, WRITERS, Table, by_family_rows, table_rows
from ..outfile import atomic_output, check_output
from ..vocabulary import cycle_record, game_record, run_record, summary_record
from ..vocabulary import iso_time as when
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
    from ..strategies.units import unit_of

    with open_store(db_path, create=False) as store:
        found = list(store.runs())
        if not found:
            if store.db.execute("SELECT 1 FROM runs LIMIT 1").fetchone() is None:
                say(f"beggar-search: {store.path} holds no runs yet", err=True)
            return
        games = [run.game.tag + run.params["deck"] for run in found]
        width = max(12, *map(len, games))
        if not as_json:
            say(f"{'run':>4s}  {'strategy':10s} {'status':8s} {'deck':>{width}s} players"
                f" {'deals (tries, games)':>20s} {'loops':>8s}  {'started':25s} last stored")
        for run, game in zip(found, games, strict=True):
            data = {"run": run.id, "strategy": run.strategy, "status": run.status,
                    "deck": run.params["deck"], "players": run.players,
                    "seed": run.params.get("seed"), "deals": run.deals, "loops": run.loops,
                    "created": when(run.created), "updated": when(run.updated),
                    "game": run.game.name}
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
    from ..driver import summarise
    from ..strategies.units import unit_of

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
    from ..strategies.units import strategy_class

    return strategy_class(run.strategy).number_label


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


@click.command()
@click.option("--what", type=click.Choice(list(EXPORTS)), default="longest", show_default=True,
              help="Which table to export.")
@db_option
@run_option
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="File to write [default: stdout]; never a SQLite database, nor its"
                   " -wal, -shm or -journal.")
@click.option("--format", "format_name", type=click.Choice(list(WRITERS)), default=None,
              help="csv (a header, then a row a line), json (one list of objects) or jsonl"
                   " (one object a line, as --json); the JSON keys are the CSV's columns"
                   " (docs/json.md).  [default: csv]")
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
@click.option("--json", "as_json", is_flag=True,
              help="The same as --format jsonl: one JSON object per line.")
def export(what, db_path, run_id, out, format_name, spreadsheet, fair_only, by_family,
           as_json):
    """Export a run's longest games, loops, cycles or length histogram as CSV or JSON."""
    if as_json and format_name not in (None, "jsonl"):
        raise UserError(f"--json is --format jsonl, not --format {format_name}: choose one")
    format_name = "jsonl" if as_json else (format_name or "csv")
    writer = WRITERS[format_name]
    if spreadsheet and not writer.spreadsheet:
        said = "--json" if as_json else f"--format {format_name}"
        raise UserError(f"--for-spreadsheet makes CSV; {said} writes JSON: choose one")
    if by_family and what != "longest":
        raise UserError("--by-family goes with --what longest")
    if fair_only and what != "cycles":
        raise UserError(f"--fair-only is for --what cycles (every looping deal a run keeps"
                        f" is a fair deal already), not --what {what}")
    if out:
        check_output(out, (db_path,))  # before any work: never the results file
    table = Table(what, by_family, fair_only)
    with open_store(db_path, create=False) as store:
        rows = table_rows(store, store.run(run_id), table)
        with (atomic_output(out, (db_path,), newline="") if out
              else nullcontext(sys.stdout)) as target:
            written = writer.write(target, rows, table, spreadsheet)
    if out:
        say(f"wrote {writer.said(written)} to {shown_name(out)}", err=True)

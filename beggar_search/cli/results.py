"""Reading the results store: ``runs``, ``show`` and ``export``."""

from __future__ import annotations

import csv
import datetime
import json
import sys
from contextlib import nullcontext

import click

from ..driver import summarise
from ..family import islands
from ..games import game_of
from ..outfile import atomic_output, check_output
from .common import RUN_ID, emit, json_option, open_store, print_summary
from .options import db_option


def run_option(function):
    return click.option("--run", "run_id", type=RUN_ID, default=None,
                        help="Run id [default: the latest run].")(function)


def when(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat(timespec="seconds")


@click.command()
@db_option
@json_option
def runs(db_path, as_json):
    """List the runs in the results file."""
    with open_store(db_path, create=False) as store:
        for run in store.runs():
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
@click.option("--top", "top", type=click.IntRange(min=0), default=10, show_default=True,
              help="Leaderboard rows to print.")
@json_option
def show(db_path, run_id, top, as_json):
    """A run's summary and leaderboard."""
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        summary = summarise(store, run.id)
        if as_json:
            summary["leaderboard"] = store.games(run.id, "longest", limit=top)
            summary["cycle_list"] = store.cycles(run.id)
            print_summary(summary, True)
            return
        print_summary(summary, False)
        for rank, game in enumerate(store.games(run.id, "longest", limit=top), start=1):
            click.echo(f"{rank:4d}. {game['cards']:6d} cards {game['tricks']:5d} tricks  "
                       f"{game['deal']}  (#{game['number']})")
        for cycle in store.cycles(run.id)[:top]:
            click.echo(f"cycle {cycle['cycle']}: period {cycle['period_tricks']} tricks / "
                       f"{cycle['period_cards']} cards, reached by {cycle['deals']} deals")


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
    if what == "histogram":
        return [{"cards": cards, "count": count} for cards, count in store.histogram(run.id)]
    if what == "cycles":
        rows = store.cycles(run.id)
        island = islands(rows, store.links(run.id))
        return [{**c, "island": island[c["cycle"]], "found": when(c["found"])} for c in rows]
    return [{**game, "rank": rank, "seed": run.params.get("seed"), "found": when(game["found"])}
            for rank, game in enumerate(store.games(run.id, what), start=1)]


@click.command()
@click.option("--what", type=click.Choice(list(EXPORTS)), default="longest", show_default=True,
              help="Which table to export.")
@db_option
@run_option
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="CSV file to write [default: stdout]; never a SQLite database.")
@json_option
def export(what, db_path, run_id, out, as_json):
    """Export a run's longest games, loops, cycles or length histogram as CSV."""
    if out:
        check_output(out, (db_path,))  # before any work: never the results file
    with open_store(db_path, create=False) as store:
        run = store.run(run_id)
        rows = export_rows(store, run, what)
    with atomic_output(out, (db_path,), newline="") if out else nullcontext(sys.stdout) as target:
        if as_json:
            for row in rows:
                target.write(json.dumps({key: row[key] for key in EXPORTS[what]}) + "\n")
        else:
            writer = csv.DictWriter(target, EXPORTS[what], extrasaction="ignore",
                                    lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    if out:
        click.echo(f"wrote {len(rows)} rows to {out}", err=True)

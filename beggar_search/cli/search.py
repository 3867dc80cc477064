"""``beggar-search search ...``: the sweeps, and resuming a run."""

from __future__ import annotations

import click
import numpy as np

from .. import driver
from ..deck import DeckError
from .common import UserError, deck_option, json_option, open_store, parse_deck, print_summary

DEFAULT_CHUNK = 1 << 16


def search_options(function):
    """Options every search shares."""
    options = [
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Worker processes [default: all cores]."),
        click.option("--db", "db_path", default="beggar-search.sqlite", show_default=True,
                     type=click.Path(dir_okay=False), help="Results file."),
        click.option("--hours", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Stop after this many hours."),
        click.option("--seed", type=click.IntRange(min=0), default=None,
                     help="Seed of the run [default: a fresh one, recorded in the run]."),
        click.option("--top", "top_k", type=click.IntRange(min=0), default=100,
                     show_default=True, help="Keep the K longest terminating games."),
        click.option("--max-tricks", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Agreed cap: stop each game after N tricks."),
        click.option("--chunk-size", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Deals per chunk of work (part of the run's identity).",
                     hidden=False),
        click.option("--quiet", is_flag=True, help="No progress bar or log lines."),
        json_option,
    ]
    for option in reversed(options):
        function = option(function)
    return function


def fresh_seed() -> int:
    return int(np.random.SeedSequence().entropy % (1 << 63))


def run_params(deck_spec, players, seed, top_k, max_tricks, chunk_size, hours, **extra) -> dict:
    deck = parse_deck(deck_spec)
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    return {"deck": deck.spec, "players": players, "seed": fresh_seed() if seed is None else seed,
            "top_k": top_k, "max_tricks": max_tricks, "chunk_size": chunk_size or DEFAULT_CHUNK,
            "hours": hours, **extra}


def launch(strategy: str, params: dict, db_path, workers, quiet, as_json) -> None:
    with open_store(db_path) as store:
        summary = driver.start(store, strategy, params, workers or driver.default_workers(),
                               quiet)
    print_summary(summary, as_json)


@click.group()
def search():
    """Search deals: random or enumerated sweeps, resumable, stored in one SQLite file."""


def players_option(function):
    return click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True,
                        help="Number of players.")(function)


@search.command("random")
@click.option("--deals", type=click.IntRange(min=1), default=None,
              help="Deals to play [default: until Ctrl-C or --hours].")
@deck_option
@players_option
@search_options
def random_search(deals, deck_spec, players, workers, db_path, hours, seed, top_k, max_tricks,
                  chunk_size, quiet, as_json):
    """Play uniformly random deals; keep the longest games and every loop."""
    params = run_params(deck_spec, players, seed, top_k, max_tricks, chunk_size, hours,
                        deals=deals)
    launch("random", params, db_path, workers, quiet, as_json)


@search.command("enumerate")
@deck_option
@players_option
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True,
              help="First deal index.")
@click.option("--count", type=click.IntRange(min=1), default=None,
              help="Deals to play [default: to the end of the deck's deals].")
@search_options
def enumerate_search(deck_spec, players, start, count, workers, db_path, hours, seed, top_k,
                     max_tricks, chunk_size, quiet, as_json):
    """Play every deal from index START on (see `beggar-search deal --help` for the index)."""
    total = parse_deck(deck_spec).count_deals(players)
    if start >= total:
        raise UserError(f"--start {start} is out of range: the deck has {total} deals")
    count = total - start if count is None else count
    if start + count > total:
        raise UserError(f"--start {start} --count {count} runs past the last deal ({total - 1})")
    params = run_params(deck_spec, players, seed, top_k, max_tricks, chunk_size, hours,
                        start=start, deals=count)
    params["seed"] = seed  # an enumeration draws nothing at random
    launch("enumerate", params, db_path, workers, quiet, as_json)


@search.command("resume")
@click.option("--db", "db_path", default="beggar-search.sqlite", show_default=True,
              type=click.Path(dir_okay=False), help="Results file.")
@click.option("--run", "run_id", type=int, default=None, help="Run to resume [default: latest].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: all cores].")
@click.option("--quiet", is_flag=True, help="No progress bar or log lines.")
@json_option
def resume(db_path, run_id, workers, quiet, as_json):
    """Continue a stopped or killed run where it stopped, without repeating a deal."""
    with open_store(db_path, create=False) as store:
        summary = driver.resume(store, run_id, workers or driver.default_workers(), quiet)
    print_summary(summary, as_json)




"""``beggar-search search ...``: the sweeps, and resuming a run."""

from __future__ import annotations

import click
import numpy as np

from .. import driver
from ..deck import DeckError
from .common import (
    CHUNK_SIZE,
    COUNT,
    MAX_TRICKS,
    RUN_ID,
    SEED,
    TOP,
    WORKERS,
    Hours,
    UserError,
    deck_option,
    json_option,
    local_workers,
    open_store,
    parse_deck,
    print_summary,
)

CLUSTER_META = "beggar_search.cluster"  # where the cluster options wait for launch/resume
WORKERS_HELP = ("Worker processes [default: all cores].  With --scheduler or --cluster only the"
                " limit on chunks in flight (twice N) [default: the cluster's worker threads].")


def _check_scheduler(ctx, param, value):
    if value is not None:
        from ..distributed import check_address

        try:
            check_address(value)
        except ValueError as error:
            raise click.BadParameter(str(error)) from None
    return _remember_cluster(ctx, param, value)


def _remember_cluster(ctx, param, value):
    options = ctx.meta.setdefault(CLUSTER_META, {})
    options[param.name] = value
    return value


def _check_cluster(ctx, param, value):
    if value is not None:
        from ..distributed import parse_cluster

        try:
            parse_cluster(value)
        except ValueError as error:
            raise click.BadParameter(str(error)) from None
    return _remember_cluster(ctx, param, value)


def cluster_options(function):
    """``--scheduler`` and ``--cluster``: run the chunks on Dask (see docs/cluster.md).

    The values are not passed to the command; ``launch`` and ``resume`` read them from
    the click context, so every command built on ``search_options`` gets them.
    """
    options = [
        click.option("--scheduler", metavar="ADDRESS", default=None, expose_value=False,
                     callback=_check_scheduler,
                     help="Run the chunks on the Dask cluster whose scheduler is at ADDRESS"
                          " (e.g. tcp://10.0.0.5:8786)."),
        click.option("--cluster", metavar="local[:N]", default=None, expose_value=False,
                     callback=_check_cluster,
                     help="Run the chunks on a Dask LocalCluster of N worker processes"
                          " [default N: all cores]."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def cluster_settings():
    """The ``--scheduler``/``--cluster`` values of the command being run."""
    from ..distributed import ClusterOptions

    ctx = click.get_current_context(silent=True)
    options = ctx.meta.get(CLUSTER_META, {}) if ctx is not None else {}
    return ClusterOptions(scheduler=options.get("scheduler"), cluster=options.get("cluster"))


def search_options(function):
    """Options every search shares."""
    options = [
        click.option("--workers", type=WORKERS, default=None, help=WORKERS_HELP),
        click.option("--db", "db_path", default="beggar-search.sqlite", show_default=True,
                     type=click.Path(dir_okay=False), help="Results file."),
        click.option("--hours", type=Hours(), default=None,
                     help="Stop after this many hours."),
        click.option("--seed", type=SEED, default=None,
                     help="Seed of the run [default: a fresh one, recorded in the run]."),
        click.option("--top", "top_k", type=TOP, default=100,
                     show_default=True, help="Keep the K longest terminating games."),
        click.option("--max-tricks", type=MAX_TRICKS, default=None, metavar="N",
                     help="Agreed cap: stop each game after N tricks."),
        click.option("--chunk-size", type=CHUNK_SIZE, default=None, metavar="N",
                     help="Deals per chunk of work (part of the run's identity).",
                     hidden=False),
        click.option("--quiet", is_flag=True, help="No progress bar or log lines."),
        json_option,
    ]
    for option in reversed(options):
        function = option(function)
    return cluster_options(function)


def fresh_seed() -> int:
    return int(np.random.SeedSequence().entropy % (1 << 63))


def run_params(deck_spec, players, seed, top_k, max_tricks, chunk_size, hours, **extra) -> dict:
    deck = parse_deck(deck_spec)
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    return {"deck": deck.spec, "players": players, "seed": fresh_seed() if seed is None else seed,
            "top_k": top_k, "max_tricks": max_tricks, "chunk_size": chunk_size,
            "hours": hours, **extra}


def launch(strategy: str, params: dict, db_path, workers, quiet, as_json,
           cluster=None) -> None:
    """Start a run and print its summary.

    ``cluster``: a ``distributed.ClusterOptions``; by default the command's
    ``--scheduler``/``--cluster`` (none: local worker processes).
    """
    cluster = cluster_settings() if cluster is None else cluster
    # worker processes even for one worker: the parent answers signals and --hours at once
    factory = cluster.pool_factory(workers) or driver.LocalPool
    workers = (workers or driver.default_workers()) if cluster.enabled else local_workers(workers)
    with open_store(db_path) as store:
        summary = driver.start(store, strategy, params, workers, quiet, pool_factory=factory)
    print_summary(summary, as_json)


@click.group()
def search():
    """Search deals: random or enumerated sweeps, resumable, stored in one SQLite file."""


def players_option(function):
    return click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True,
                        help="Number of players.")(function)


@search.command("random")
@click.option("--deals", type=COUNT, default=None,
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
@click.option("--count", type=COUNT, default=None,
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
@click.option("--run", "run_id", type=RUN_ID, default=None,
              help="Run to resume [default: latest].")
@click.option("--workers", type=WORKERS, default=None, help=WORKERS_HELP)
@click.option("--quiet", is_flag=True, help="No progress bar or log lines.")
@json_option
@cluster_options
def resume(db_path, run_id, workers, quiet, as_json):
    """Continue a stopped or killed run where it stopped, without repeating a deal.

    A run may be resumed on a cluster though it started locally, and the other way round.
    """
    cluster = cluster_settings()
    factory = cluster.pool_factory(workers) or driver.LocalPool
    workers = (workers or driver.default_workers()) if cluster.enabled else local_workers(workers)
    with open_store(db_path, create=False, writing=True) as store:
        summary = driver.resume(store, run_id, workers, quiet, pool_factory=factory)
    print_summary(summary, as_json)

"""``beggar-search search ...``: the sweeps, and resuming a run."""

from __future__ import annotations

import contextlib
import shlex
import signal
import sqlite3
import sys
from pathlib import Path

import click

from .. import compiling
from ..cards.deck import DeckError
from .common import COUNT, RUN_ID, UserError, deck_option, open_store, print_summary, say
from .compile import COMPILE_ONLY
from .device import device_option, device_params
from .game import GameChoice, game_options
from .options import RunOptions, SearchOptions, run_options, search_options

STOPPED = 3  # the exit status of a sitting stopped before its run's end without a signal


def fresh_seed() -> int:
    """A new random seed from the system's entropy, small enough for an int64."""
    import numpy as np

    return int(np.random.SeedSequence().entropy % (1 << 63))


def run_params(deck_spec: str, players: int, options: SearchOptions,
               game: GameChoice | None = None, **extra) -> dict:
    """A new run's parameters: its deck, players, the shape options and the strategy's own
    (and, for Egyptian ratscrew, its game and slap options)."""
    game = game or GameChoice()
    deck = game.deck(deck_spec)
    try:
        deck.split(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    seed = fresh_seed() if options.seed is None else options.seed
    return {"deck": deck.spec, "players": players, "seed": seed, "top_k": options.top_k,
            "max_tricks": options.max_tricks, "chunk_size": options.chunk_size,
            "hours": options.hours, **extra,
            **game.run_params(players, seed, options.max_tricks)}


def launch(strategy: str, params: dict, options: RunOptions) -> None:
    """Start a run on the workers or cluster ``options`` name, and print its summary (under
    ``beggar-search compile``: compile its kernels, and start nothing)."""
    from .. import driver

    context = click.get_current_context(silent=True)  # None when called from Python
    if context is not None and context.meta.get(COMPILE_ONLY):
        from ..strategies import class_of, warm_up

        compiling.warm(warm_up, strategy, class_of(strategy).prepare(params), whole=True)
        return
    factory, workers = options.pool()
    created = not Path(options.db_path).exists()
    try:
        with open_store(options.db_path) as store:
            summary = driver.start(store, strategy, params, workers, options.quiet,
                                   pool_factory=factory)
    except BaseException:  # refused or stopped before its run existed (Ctrl-C while compiling)
        if created:
            remove_if_runless(Path(options.db_path))
        raise
    print_summary(summary, options.as_json)
    say_how_to_resume(summary, store)
    end_with_status(summary)


def end_with_status(summary: dict) -> None:
    """Exit with the status of a sitting that ended before its run's end (docs/search.md):
    128 + the signal that stopped it (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP), ``STOPPED`` for a
    stop without one (``--hours`` over before a chunk finished).  A done run returns (0)."""
    if summary["status"] != "stopped":
        return
    name = summary.get("stop_signal")
    sys.exit(128 + signal.Signals[name].value if name else STOPPED)


def remove_if_runless(path: Path) -> None:
    """Remove the results file ``path`` (with its ``-wal`` and ``-shm``) when it holds no run:
    the one a command created and then was refused or stopped before its run existed.  A
    file that cannot be read, or holds a run, is left alone."""
    try:  # mode=rw, not ro: never creates the file, and its close removes the -wal it opened
        with contextlib.closing(sqlite3.connect(path.resolve().as_uri() + "?mode=rw",
                                                uri=True)) as connection:
            runs = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
    except sqlite3.Error:
        return
    if runs == 0:
        for name in (path.name, path.name + "-wal", path.name + "-shm"):
            with contextlib.suppress(OSError):
                path.with_name(name).unlink()


def say_how_to_resume(summary: dict, store) -> None:
    """After a run that stopped before its end: the command that continues it, on stderr."""
    if summary["status"] == "stopped":
        say(f"beggar-search: run {summary['run']} stopped; continue it with `beggar-search"
            f" search resume --db {shlex.quote(str(store.path))} --run {summary['run']}`",
            err=True)


@click.group()
def search():
    """Search deals: random or enumerated sweeps, resumable, stored in one SQLite file."""


def players_option(function):
    """Give a command the ``--players`` option (2 to 8, default 2)."""
    return click.option("--players", type=click.IntRange(2, 8), default=2, show_default=True,
                        help="Number of players.")(function)


@search.command("random")
@click.option("--deals", type=COUNT, default=None,
              help="Deals to play [default: until Ctrl-C or --hours].")
@deck_option
@players_option
@search_options
@device_option
@game_options  # listed last in --help: the ratscrew options together
def random_search(deals, deck_spec, players, game, device, options):
    """Play uniformly random deals; keep the longest games and every loop."""
    on_device = device_params(device, players, not game.kind.gpu)
    launch("random", run_params(deck_spec, players, options, game, deals=deals, **on_device),
           options)


@search.command("enumerate")
@deck_option
@players_option
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True,
              help="First deal index.")
@click.option("--count", type=COUNT, default=None,
              help="Deals to play [default: to the end of the deck's deals].")
@search_options
@device_option
@game_options  # listed last in --help: the ratscrew options together
def enumerate_search(deck_spec, players, start, count, game, device, options):
    """Play every deal from index START on (see `beggar-search deal --help` for the index)."""
    on_device = device_params(device, players, not game.kind.gpu)
    try:
        total = game.deck(deck_spec).count_deals(players)
    except DeckError as error:
        raise UserError(str(error)) from None
    if start >= total:
        raise UserError(f"--start {start} is out of range: the deck has {total} deals")
    count = total - start if count is None else count
    if start + count > total:
        raise UserError(f"--start {start} --count {count} runs past the last deal ({total - 1})")
    params = run_params(deck_spec, players, options, game, start=start, deals=count,
                        **on_device)
    params["seed"] = options.seed  # an enumeration draws nothing at random...
    if options.seed is None and not game.value(players).deterministic:
        params["seed"] = 0  # ...but a game that draws (odds slaps): from seed 0, as with none
    launch("enumerate", params, options)


@search.command("resume")
@run_options(click.option("--run", "run_id", type=RUN_ID, default=None,
                          help="Run to resume [default: latest]."))
def resume(run_id, options):
    """Continue a stopped or killed run where it stopped, without repeating a deal.

    A run may be resumed on a cluster though it started locally, and the other way round.
    """
    from .. import driver

    factory, workers = options.pool()
    with open_store(options.db_path, create=False, writing=True) as store:
        run = store.run(run_id)
        if run.status == "done":  # nothing to play, and nothing written (not even its time)
            say(f"beggar-search: run {run.id} is already done: nothing to resume", err=True)
            print_summary(driver.summarise(store, run.id), options.as_json)
            return
        summary = driver.resume(store, run.id, workers, options.quiet, pool_factory=factory)
        print_summary(summary, options.as_json)
        say_how_to_resume(summary, store)
    end_with_status(summary)

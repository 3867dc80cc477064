"""The options the search commands share, built into one object passed whole.

``search_options`` adds every option of a search (``--workers``, ``--db``, ``--hours``,
``--seed``, ``--top``, ``--max-tricks``, ``--chunk-size``, ``--quiet``, ``--json``,
``--scheduler``, ``--cluster``) and hands the command one ``SearchOptions`` as its
``options`` argument; ``run_options`` does the same with the options that say how a
run is carried out (``RunOptions``, what ``search resume`` takes).  Both are built with
``options_object``, which a new command with options of its own can use too.  ``--db`` is declared
once, in ``db_option``, for these and for the commands that read the results file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import click

from ..pools.dask import ClusterOptions
from ..tunables import (
    BITBOARD_CHUNK,
    CLIMB_CHUNKS,
    DEFAULT_CHUNK,
    FACTORY_CHUNK,
    HUNT_CHUNK,
    TOP_K,
)
from .common import (
    CHUNK_SIZE,
    MAX_TRICKS,
    SEED,
    TOP,
    WORKERS,
    Hours,
    json_option,
    local_workers,
)
from .gathered import gathered

DEFAULT_DB = "beggar-search.sqlite"
DB_VARIABLE = "BEGGAR_SEARCH_DB"  # the results file when --db is not given (docs/first-run.md)
WORKERS_HELP = ("Worker processes [default: all cores].  With --scheduler or --cluster only the"
                " limit on chunks in flight (twice N) [default: the cluster's worker threads].")


@dataclass(frozen=True)
class RunOptions:
    """How a run is carried out: where its results go, on what workers, how it reports."""

    db_path: str = DEFAULT_DB
    workers: int | None = None
    quiet: bool = False
    as_json: bool = False
    cluster: ClusterOptions = field(default_factory=ClusterOptions)

    def pool(self):
        """``(pool_factory, workers)`` for the driver: local worker processes (even for
        one worker: the parent then answers signals and --hours at once), or the cluster."""
        from ..pools.local import LocalPool
        from ..pools.processes import default_workers

        factory = self.cluster.pool_factory(self.workers) or LocalPool
        if self.cluster.enabled:
            return factory, self.workers or default_workers()
        return factory, local_workers(self.workers)


@dataclass(frozen=True)
class SearchOptions(RunOptions):
    """A new run's options: ``RunOptions`` and the shape of the run."""

    hours: float | None = None
    seed: int | None = None
    top_k: int = TOP_K
    max_tricks: int | None = None
    chunk_size: int | None = None


def db_option(function=None, *, help: str = "Results file."):
    """``--db PATH``, the results file (``db_path``): the one declaration of it."""
    option = click.option("--db", "db_path", default=DEFAULT_DB, show_default=True,
                          envvar=DB_VARIABLE, show_envvar=True,
                          type=click.Path(dir_okay=False), help=help)
    return option if function is None else option(function)


def _checked_by(check: str):
    """A click callback: ``pools.dask.<check>(value)`` raising ValueError is a bad option."""

    def callback(ctx, param, value):
        if value is not None:
            from ..pools import dask as distributed

            try:
                getattr(distributed, check)(value)
            except ValueError as error:
                raise click.BadParameter(str(error)) from None
        return value

    return callback


# (name of the value in the options object, click option), one each
WORKERS_OPTION = ("workers", click.option("--workers", type=WORKERS, default=None,
                                          help=WORKERS_HELP))
DB_OPTION = ("db_path", db_option())
QUIET_OPTION = ("quiet", click.option("--quiet", is_flag=True,
                                      help="No progress bar or log lines."))
JSON_OPTION = ("as_json", json_option)
CLUSTER_OPTIONS = [
    ("scheduler", click.option(
        "--scheduler", metavar="ADDRESS", default=None, callback=_checked_by("check_address"),
        help="Run the chunks on the Dask cluster whose scheduler is at ADDRESS"
             " (e.g. tcp://10.0.0.5:8786).")),
    ("cluster", click.option(
        "--cluster", metavar="local[:N]", default=None, callback=_checked_by("parse_cluster"),
        help="Run the chunks on a Dask LocalCluster of N worker processes"
             " [default N: all cores].")),
]

# each strategy's default chunk, as its ``prepare`` fills it in (tests/cli/test_options.py
# checks them against it): the random kernel's on the bitboard kernels, which play 2-4
# players of Beggar-my-neighbour (``engine.kernels.BITBOARD_PLAYERS``), else the default
CHUNK_SIZE_HELP = (
    "Deals per chunk of work, part of the run's identity (`show` prints it) [default:"
    f" random {BITBOARD_CHUNK:,} with 2-4 players of Beggar-my-neighbour, else"
    f" {DEFAULT_CHUNK:,}; enumerate {DEFAULT_CHUNK:,}; climb {CLIMB_CHUNKS} x random's"
    f" ({CLIMB_CHUNKS * BITBOARD_CHUNK:,}); factory {FACTORY_CHUNK:,} moves;"
    f" hunt {HUNT_CHUNK:,} tries].")


SEARCH_OPTIONS = [
    *CLUSTER_OPTIONS,
    WORKERS_OPTION,
    DB_OPTION,
    ("hours", click.option("--hours", type=Hours(), default=None,
                           help="Stop after this many hours of searching (8, 0.5, or 8h, 30m,"
                                " 1h30m; the compile not counted);"
                                " no chunk is started that could not finish by then"
                                " (docs/first-run.md).")),
    ("seed", click.option("--seed", type=SEED, default=None,
                          help="Seed of the run [default: a fresh one, recorded in the run].")),
    ("top_k", click.option("--top", "top_k", type=TOP, default=TOP_K, show_default=True,
                           help="Keep the K longest terminating games (at most 10,000:"
                                " a chunk's time grows with K).")),
    ("max_tricks", click.option("--max-tricks", type=MAX_TRICKS, default=None, metavar="N",
                                help="Agreed cap: stop each game after N tricks.")),
    ("chunk_size", click.option("--chunk-size", type=CHUNK_SIZE, default=None, metavar="N",
                                help=CHUNK_SIZE_HELP)),
    QUIET_OPTION,
    JSON_OPTION,
]


def options_object(cls, options):
    """A decorator adding ``options`` (pairs of a name and a click option, in the order
    ``--help`` lists them) that passes the command one ``cls`` built from their values as
    ``options``.  An option named None is the command's own: its value passes through."""

    def make(values: dict):
        from ..pools.processes import working_folder

        working_folder()  # workers start in it: a deleted one is said before any work
        cluster = ClusterOptions(scheduler=values.pop("scheduler"),
                                 cluster=values.pop("cluster"))
        return cls(cluster=cluster, **values)

    return gathered(cls, "options", options, make)


search_options = options_object(SearchOptions, SEARCH_OPTIONS)


def run_options(*own):
    """``RunOptions`` (what ``search resume`` takes), with the command's ``own`` options
    listed after ``--db``."""
    return options_object(RunOptions, [DB_OPTION, *((None, option) for option in own),
                                       WORKERS_OPTION, QUIET_OPTION, JSON_OPTION,
                                       *CLUSTER_OPTIONS])

"""Pieces shared by the subcommands: options, output, errors."""

import json
import math

import click

from ..deck import Deck, DeckError
from ..errors import UserError

# Ranges the engine and the store can take: a number past them is bad input (exit 2),
# caught before any run is created.
INT64_MAX = (1 << 63) - 1
RUN_ID = click.IntRange(1, INT64_MAX)
MAX_TRICKS = click.IntRange(1, 10**12)  # int64 arithmetic in the kernels stays far from overflow
COUNT = click.IntRange(1, 1 << 62)  # deals or tries of a run
CHUNK_SIZE = click.IntRange(1, 1 << 27)  # seconds to a few minutes of work: stops stay prompt
TOP = click.IntRange(0, 1_000_000)  # leaderboard rows are allocated per chunk
SEED = click.IntRange(0, (1 << 128) - 1)
WORKERS = click.IntRange(1, 4096)
WORKERS_PER_CORE = 4  # local worker processes beyond this many per core are refused


class Hours(click.ParamType):
    """A positive, finite number of hours (``nan`` and ``inf`` are refused)."""

    name = "hours"

    def convert(self, value, param, ctx):
        try:
            hours = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of hours", param, ctx)
        if not math.isfinite(hours) or hours <= 0 or hours > 1e6:
            self.fail(f"{value!r} is not a number of hours between 0 and 1000000", param, ctx)
        return hours


def local_workers(workers: int | None) -> int:
    """``--workers`` for local processes: all cores by default, never absurdly many."""
    from ..driver import default_workers

    cores = default_workers()
    if workers is None:
        return cores
    if workers > WORKERS_PER_CORE * cores:
        raise UserError(f"--workers {workers} is more than {WORKERS_PER_CORE} per core on this"
                        f" machine ({cores} cores): at most {WORKERS_PER_CORE * cores}; use"
                        " --cluster or --scheduler to run more")
    return workers


def deck_option(function):
    return click.option(
        "--deck", "deck_spec", default="standard", show_default=True, metavar="SPEC",
        help="standard, camicia, or counts such as plain=14,J=2,Q=2,K=2 (at most 64 cards).",
    )(function)


def json_option(function):
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object per line.")(function)


def parse_deck(spec: str) -> Deck:
    try:
        return Deck.parse(spec)
    except DeckError as error:
        raise UserError(str(error)) from None


def emit(data: dict, as_json: bool, text: str) -> None:
    """Print a result: one JSON object per line, or text for people."""
    click.echo(json.dumps(data, sort_keys=False) if as_json else text)


def open_store(path, create: bool = True, writing: bool | None = None):
    """The results store at ``path``; a file that is not one is a user error.

    ``writing``: the command will write (default: ``create``); a read-only or damaged file
    is refused before any work.  Waiting for another process's lock is said on stderr.
    """
    from ..store import Store, StoreError

    try:
        return Store(path, create=create, writing=writing,
                     on_wait=lambda text: click.echo(f"beggar-search: {text}", err=True))
    except StoreError as error:
        raise UserError(str(error)) from None


# what a run's ``deals`` counts, by strategy
UNITS = {"hunt": "tries", "climb": "games", "factory": "tries"}


def summary_text(summary: dict) -> str:
    game = ""
    if summary.get("game", "bmn") != "bmn":
        game = (f"Egyptian ratscrew, slaps {summary['slap_rules']} by "
                f"{summary['slap_policy']}{'' if summary['slap_in'] else ', no slap-in'}, ")
    lines = [f"run {summary['run']} ({summary['strategy']}, {game}deck {summary['deck']}, "
             f"{summary['players']} players, seed {summary['seed']}): {summary['status']}",
             f"{UNITS.get(summary['strategy'], 'deals'):10s} {summary['deals']:,}"
             f"   wins by player {summary['wins']}",
             (f"loops      {summary['loops']:,} met, {summary['cycles']} new cycles stored"
              if summary["strategy"] in ("hunt", "factory") else
              f"loops      {summary['loops']:,} in {summary['cycles']} distinct cycles"),
             f"caps       {summary['caps']:,}"]
    if summary["longest"]:
        longest = summary["longest"]
        lines.append(f"longest    {longest['cards']} cards, {longest['tricks']} tricks  "
                     f"{longest['deal']}")
    if summary["deals_per_second"]:
        lines.append(f"speed      {summary['deals_per_second']:,.0f} "
                     f"{UNITS.get(summary['strategy'], 'deals')}/s over "
                     f"{summary['seconds']:.1f} s")
    return "\n".join(lines)


def print_summary(summary: dict, as_json: bool) -> None:
    emit(summary, as_json, summary_text(summary))

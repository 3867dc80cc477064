"""Pieces shared by the subcommands: options, output, errors."""

import json
import math
import os
import re

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
# Leaderboard rows kept per chunk.  Each game admitted to the board costs a pass over it,
# so a chunk's time grows with chunk x top: 10,000 adds 0.4 s to a 200,000-deal chunk
# (0.07 s) and 0.7 s to a 4,194,304-deal one (1.5 s); 100,000 made the first 16 s.
TOP = click.IntRange(0, 10_000)
ROWS = click.IntRange(0, INT64_MAX)  # rows a command prints (an SQLite LIMIT)
# States a backward search may hold: they are kept in memory (tens of bytes each), so a
# budget past this could never be spent, and past 2^63 not even passed to the kernels.
STATES = click.IntRange(1, 1_000_000_000)
BENCH_DEALS = click.IntRange(1, 10**12)  # days of play: far past any useful benchmark
SEED = click.IntRange(0, (1 << 128) - 1)
WORKERS = click.IntRange(1, 4096)
WORKERS_PER_CORE = 4  # local worker processes beyond this many per core are refused


MESSAGE_LIMIT = 1200  # characters of an error line; a longer one has its middle cut out
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` fit for one line of a terminal: control characters (a newline, an escape
    sequence) written as escapes, and past ``limit`` characters the middle cut out (a
    120 KB value echoed back is no help), saying how much."""
    text = CONTROL.sub(lambda match: repr(match.group())[1:-1], str(text))
    if len(text) <= limit:
        return text
    keep = limit - 40
    head, tail = text[:keep * 2 // 3], text[len(text) - keep // 3:]
    return f"{head}...[{len(text) - len(head) - len(tail):,} characters]...{tail}"


class Hours(click.ParamType):
    """A positive, finite number of hours (``nan`` and ``inf`` are refused)."""

    name = "hours"

    def convert(self, value, param, ctx):
        """``value`` as hours, or a usage error naming it."""
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
    """Give a command the ``--deck`` option (a deck spec, passed as ``deck_spec``)."""
    return click.option(
        "--deck", "deck_spec", default="standard", show_default=True, metavar="SPEC",
        help="standard, camicia, or counts such as plain=14,J=2,Q=2,K=2 (at most 64 cards).",
    )(function)


def json_option(function):
    """Give a command the ``--json`` flag (passed as ``as_json``)."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object per line.")(function)


def parse_deck(spec: str) -> Deck:
    """The deck ``spec`` names; a bad spec is a ``UserError``."""
    try:
        return Deck.parse(spec)
    except DeckError as error:
        raise UserError(str(error)) from None


# control characters (C0 but tab and line feed, DEL, C1): a terminal acts on them
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character a terminal would act on written as ``\\xNN``."""
    return UNPRINTABLE.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def shown_name(path) -> str:
    """A file name as text for people: bytes that are not UTF-8 written as ``\\xNN``."""
    return os.fsencode(str(path)).decode("utf-8", "backslashreplace")


def say(text: str, err: bool = False) -> None:
    """Print a line for people, control characters escaped (values may come from a file)."""
    click.echo(printable(text), err=err)


def emit(data: dict, as_json: bool, text: str) -> None:
    """Print a result: one JSON object per line (control characters escaped by JSON), or
    text for people (escaped by ``printable``)."""
    if as_json:
        click.echo(json.dumps(data, sort_keys=False))
    else:
        say(text)


def open_store(path, create: bool = True, writing: bool | None = None):
    """The results store at ``path``; a file that is not one is a user error.

    ``writing``: the command will write (default: ``create``); a read-only or damaged file
    is refused before any work.  Waiting for another process's lock is said on stderr.
    """
    from ..store import Store, StoreError

    try:
        return Store(path, create=create, writing=writing,
                     on_wait=lambda text: say(f"beggar-search: {text}", err=True),
                     on_warning=lambda text: say(f"beggar-search: warning: {text}", err=True))
    except StoreError as error:
        raise UserError(str(error)) from None


# what a run's ``deals`` counts, by strategy
UNITS = {"hunt": "tries", "climb": "games", "factory": "tries"}


def summary_text(summary: dict) -> str:
    """A run's ``summary`` as lines for people: its parameters, status, deals, wins, loops and
    caps."""
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
    if "fair_cycles" in summary:
        lines.append(f"family     {summary['cycles']} cycles in {summary['islands']} islands;"
                     f" {summary['fair_cycles']} reached by fair deals"
                     f" ({summary['fair_islands']} islands), {summary['fair_deals']:,} fair"
                     " deals")
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
    """Print a run's ``summary``: one JSON object, or lines for people."""
    emit(summary, as_json, summary_text(summary))

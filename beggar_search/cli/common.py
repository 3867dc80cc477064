"""Pieces shared by the subcommands: options, output, errors."""

import decimal
import json
import math
import os
import re

import click

from .. import compiling, games
from ..cards.deck import Deck, DeckError
from ..errors import UserError
from ..text import plural, short


class Range(click.IntRange):
    """An ``IntRange`` whose ``--help`` and refusals say its range in ``words`` (``x>=1``),
    not in the 19 or 39 digits of a bound no one reaches."""

    def __init__(self, min=None, max=None, words: str | None = None):
        super().__init__(min, max)
        self.words = words

    def _describe_range(self) -> str:  # click's hook for both
        return self.words or super()._describe_range()



# Ranges the engine and the store can take: a number past them is bad input (exit 2),
# caught before any run is created.
INT64_MAX = (1 << 63) - 1
RUN_ID = Range(1, INT64_MAX, "x>=1")
# int64 arithmetic in the kernels stays far from overflow
MAX_TRICKS = Range(1, 10**12, "1<=x<=10^12")
class Count(Range):
    """A ``Range`` of counts that also reads ``2e6`` and ``2_000_000`` (whole numbers only)."""

    def convert(self, value, param, ctx):
        """``value`` as a whole number within the range, or a usage error with an example."""
        if isinstance(value, str):
            try:
                number = decimal.Decimal(value.strip().replace("_", ""))
            except decimal.InvalidOperation:
                number = None
            if number is None or not number.is_finite() or number != number.to_integral_value():
                self.fail(f"{value!r} is not a whole number: write it as 2000000, 2_000_000"
                          " or 2e6", param, ctx)
            value = int(number)
        return super().convert(value, param, ctx)


COUNT = Count(1, 1 << 62, "1<=x<=2^62")  # deals or tries of a run
CHUNK_SIZE = Count(1, 1 << 27, "1<=x<=2^27")  # seconds to a few minutes of work: stops stay prompt
# Leaderboard rows kept per chunk.  Each game admitted to the board costs a pass over it,
# so a chunk's time grows with chunk x top: 10,000 adds 0.4 s to a 200,000-deal chunk
# (0.07 s) and 0.7 s to a 4,194,304-deal one (1.5 s); 100,000 made the first 16 s.
TOP = click.IntRange(0, 10_000)
ROWS = Range(0, INT64_MAX, "x>=0")  # rows a command prints (an SQLite LIMIT)
# States a backward search may hold: they are kept in memory (tens of bytes each), so a
# budget past this could never be spent, and past 2^63 not even passed to the kernels.
STATES = click.IntRange(1, 1_000_000_000)
BENCH_DEALS = Count(1, 10**12, "1<=x<=10^12")  # days of play: far past any useful benchmark
SEED = Range(0, (1 << 128) - 1, "0<=x<2^128")
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


HOURS_PARTS = re.compile(r"(\d+(?:\.\d*)?|\.\d+)\s*(h|m|min|s)", re.I)
DURATION = re.compile(rf"\s*(?:{HOURS_PARTS.pattern}\s*)+", re.I)  # 8h, 30m, 1h30m, 90s
SECONDS_OF = {"h": 3600.0, "m": 60.0, "min": 60.0, "s": 1.0}


class Hours(click.ParamType):
    """A positive, finite number of hours (``nan`` and ``inf`` are refused), or a duration
    with units: ``8h``, ``30m``, ``1h30m``, ``90s``."""

    name = "hours"

    def convert(self, value, param, ctx):
        """``value`` as hours, or a usage error naming it with the forms taken."""
        try:
            hours = float(value)
        except (TypeError, ValueError):
            hours = self.with_units(str(value))
            if hours is None:
                self.fail(f"{value!r} is not a number of hours: write it as 8, 0.5, 8h, 30m or"
                          " 1h30m", param, ctx)
        if not math.isfinite(hours) or hours <= 0 or hours > 1e6:
            self.fail(f"{value!r} is not a number of hours greater than 0 (and at most"
                      " 1000000)", param, ctx)
        return hours

    @staticmethod
    def with_units(text: str) -> float | None:
        """The hours of a duration such as ``1h30m`` (None when it is not one)."""
        if not DURATION.fullmatch(text):
            return None
        return sum(float(number) * SECONDS_OF[unit.lower()]
                   for number, unit in HOURS_PARTS.findall(text)) / 3600


def local_workers(workers: int | None) -> int:
    """``--workers`` for local processes: all cores by default, never absurdly many."""
    from ..pools.processes import default_workers

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


def summary_text(summary: dict) -> str:
    """A run's ``summary`` as lines for people: its parameters, status, deals, wins, loops and
    caps (the wins and caps of a search of cycles, which plays no whole games, left out)."""
    from ..strategies.units import strategy_class

    played = games.of(summary)
    game = f"{played.describe()}, " if played.tag else ""  # the default game goes unnamed
    seed = "" if summary["seed"] is None else f", seed {summary['seed']}"
    kind = strategy_class(summary["strategy"])
    unit = kind.unit
    cycles = summary["cycles"]
    of_cycles = kind.of_cycles
    wins = " / ".join(f"{count:,}" for count in summary["wins"])
    lines = [f"run {summary['run']} ({summary['strategy']}, {game}deck {summary['deck']}, "
             f"{summary['players']} players{seed}): {summary['status']}",
             f"{unit:10s} {summary['deals']:,}" + ("" if of_cycles else
                                                    f"   wins by player {wins}"),
             (f"loops      {summary['loops']:,} met, {plural(cycles, 'new cycle')} stored"
              if of_cycles else
              f"loops      {summary['loops']:,} in {plural(cycles, 'distinct cycle')}")]
    if kind.counts_caps:
        lines.append(f"caps       {summary['caps']:,}")
    if "fair_cycles" in summary:
        lines.append(f"family     {plural(cycles, 'cycle')} in"
                     f" {plural(summary['islands'], 'island')};"
                     f" {summary['fair_cycles']:,} reached by fair deals"
                     f" ({plural(summary['fair_islands'], 'island')}),"
                     f" {plural(summary['fair_deals'], 'fair deal')}")
    if "first_cycle_tries" in summary:
        lines += found_lines(summary)
    if summary["longest"]:
        longest = summary["longest"]
        lines.append(f"longest    {longest['cards']} cards, {longest['tricks']} tricks  "
                     f"{longest['deal']}")
    if summary["deals_per_second"]:
        lines.append(f"speed      {summary['deals_per_second']:,.0f} {unit}/s over "
                     f"{summary['seconds']:.1f} s of search (wall clock, all workers;"
                     " `bench`: per CPU second of one worker)")
    return "\n".join(lines)


def found_lines(summary: dict) -> list[str]:
    """A factory run's progress in tries: its first cycle, the tries since its last new one,
    and the tries of each phase (seeding, walking, kicking)."""
    first, since = summary["first_cycle_tries"], summary["tries_since_new_cycle"]
    if first is not None:
        found = f"first cycle after {first:,} tries"
    elif since is not None:
        found = "from the cycles it was given"
    else:
        found = f"no cycle yet in {summary['deals']:,} tries"
    if since is not None:
        found += f", the last new one {since:,} tries ago"
    return [f"found      {found}",
            f"phases     seeding {short(summary['seeding_tries'])} tries,"
            f" walking {short(summary['walking_tries'])},"
            f" kicking {short(summary['kicking_tries'])}"]


def print_summary(summary: dict, as_json: bool) -> None:
    """Print a run's ``summary``: one JSON object, or lines for people (with the time this
    command spent compiling, which neither --hours nor the speed counts)."""
    from ..vocabulary import summary_record

    text = summary_text(summary)
    if compiling.WATCH.done:
        text += (f"\ncompile    {compiling.WATCH.seconds:.1f} s"
                 f" ({compiling.kernels_line()}, first run only; not in the"
                 " search's time)")
    emit(summary_record(summary), as_json, text)

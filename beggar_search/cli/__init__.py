"""The ``beggar-search`` command: a click group whose subcommands live one module each.

Every subcommand prints results to stdout and messages to stderr; bad input
gets one line on stderr and exit status 2, never a traceback.
"""

import itertools
import json
import sqlite3
import sys

import click

from .. import compiling
from ..cards.deck import DeckError
from ..store import StoreError
from .bench import bench
from .climb import climb
from .common import UserError, one_line
from .compile import compile_kernels
from .deal import deal
from .factory import factory
from .helptext import group_options
from .hunt import hunt
from .odds import odds
from .play import play
from .plot import plot
from .reach import reach
from .recover import recover
from .report import report
from .results import export, runs, show
from .search import search
from .streams import complain, guard_standard_streams


def needs_compiled_kernels(error: NotImplementedError) -> str:
    """Why a kernel could not run as plain Python; ``error`` again unless Numba's compiler
    was turned off (only then is it a setting to change, not a defect)."""
    from numba.core import config

    if not config.DISABLE_JIT:
        raise error
    return ("this command needs Numba's compiled kernels, which NUMBA_DISABLE_JIT turns off"
            f" ({error}): unset NUMBA_DISABLE_JIT")


def out_of_memory(error: MemoryError | RuntimeError) -> str:
    """What a command that ran out of memory says; ``error`` again when it is another
    RuntimeError (a defect, with its traceback)."""
    if isinstance(error, RuntimeError) and "can't start new thread" not in str(error):
        raise error
    return (f"out of memory ({error or type(error).__name__}): under a limit such as"
            " ulimit -v, allow 1 GB")


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
VERSION_FLAGS = ("--version", "-V")


def print_version(as_json: bool) -> None:
    """``--version``: this build's version, commit and the libraries' versions (one line, or
    one JSON object)."""
    from ..version import version_text, versions

    found = versions()
    click.echo(json.dumps(found) if as_json else version_text(found))


def _version_callback(ctx, param, value):
    if value and not ctx.resilient_parsing:
        print_version(as_json=False)
        ctx.exit()


@click.group(context_settings=CONTEXT)
@click.option(*VERSION_FLAGS, is_flag=True, expose_value=False, is_eager=True,
              callback=_version_callback,
              help="Print the version, the git commit and numba's version, and exit"
                   " (with --json: one JSON object).")
def cli():
    """Search Beggar-my-neighbour deals: games that never end, and the longest games that do."""


cli.add_command(play)
cli.add_command(compile_kernels)
cli.add_command(deal)
cli.add_command(reach)
cli.add_command(bench)
search.add_command(climb)
search.add_command(hunt)
search.add_command(factory)
cli.add_command(search)
cli.add_command(plot)
for command in (runs, show, export, odds, recover, report):
    cli.add_command(command)
group_options(cli)  # --help in sections: general, ratscrew, workers and clusters, output


def main(argv=None):
    """Run the command line; errors become one line on stderr and exit status 2."""
    guard_standard_streams()
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in VERSION_FLAGS and args[1:] == ["--json"]:
        print_version(as_json=True)
        sys.exit(0)
    words = list(itertools.takewhile(lambda arg: not arg.startswith("-"), args))
    words = words[:2] if words[:1] in (["search"], ["plot"]) else words[:1]
    compiling.watch(" ".join(["beggar-search", *words]), quiet="--quiet" in args)
    try:
        status = cli.main(args=args, prog_name="beggar-search", standalone_mode=False)
        sys.stdout.flush()  # a closed or full stdout fails here at the latest
    except click.exceptions.Abort as error:
        if not isinstance(error.__cause__, KeyboardInterrupt):  # click's Abort of an EOFError
            raise (error.__cause__ or error) from None
        if isinstance(error.__cause__, compiling.CompileInterrupted) or compiling.compiling_now():
            # the thread left behind may be compiling (Numba cannot be stopped half-way) or
            # playing what it compiled (reach's search, a warm-up's game): either way no run
            complain("beggar-search: interrupted while compiling: nothing was run"
                     if compiling.WATCH.depth else "beggar-search: interrupted")
            compiling.exit_now(130)
        complain("beggar-search: interrupted")
        sys.exit(130)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "beggar-search"
        complain(one_line(f"{command}: error: {error.format_message()}"))
        sys.exit(2)
    except OSError as error:  # a file named on the command line cannot be read or written
        where = f"{error.filename}: " if error.filename else ""
        complain(one_line(f"beggar-search: error: {where}{error.strerror or error}"))
        sys.exit(2)
    except NotImplementedError as error:  # a kernel run as Python (NUMBA_DISABLE_JIT)
        complain(one_line(f"beggar-search: error: {needs_compiled_kernels(error)}"))
        sys.exit(2)
    except (MemoryError, RuntimeError) as error:  # a memory limit (ulimit -v)
        complain(one_line(f"beggar-search: error: {out_of_memory(error)}"))
        sys.exit(2)
    except sqlite3.Error as error:  # a results file damaged or lost while a command read it
        complain(one_line(f"beggar-search: error: the results file could not be used: {error}"))
        sys.exit(2)
    except (UserError, DeckError, StoreError, click.ClickException) as error:
        message = error.format_message() if isinstance(error, click.ClickException) else error
        complain(one_line(f"beggar-search: error: {message}"))
        sys.exit(2)
    compiling.report()
    sys.exit(status if isinstance(status, int) else 0)

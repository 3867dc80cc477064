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
from .hunt import hunt
from .play import play
from .plot import plot
from .reach import reach
from .recover import recover
from .report import report
from .results import export, runs, show
from .search import search

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
for command in (runs, show, export, recover, report):
    cli.add_command(command)


def main(argv=None):
    """Run the command line; errors become one line on stderr and exit status 2."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] in VERSION_FLAGS and args[1:] == ["--json"]:
        print_version(as_json=True)
        sys.exit(0)
    words = list(itertools.takewhile(lambda arg: not arg.startswith("-"), args))
    words = words[:2] if words[:1] in (["search"], ["plot"]) else words[:1]
    compiling.watch(" ".join(["beggar-search", *words]), quiet="--quiet" in args)
    try:
        status = cli.main(args=args, prog_name="beggar-search", standalone_mode=False)
    except click.exceptions.Abort as error:
        if isinstance(error.__cause__, compiling.CompileInterrupted) or compiling.compiling_now():
            click.echo("beggar-search: interrupted while compiling: nothing was run",
                       err=True)
            compiling.exit_now(130)
        click.echo("beggar-search: interrupted", err=True)
        sys.exit(130)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "beggar-search"
        click.echo(one_line(f"{command}: error: {error.format_message()}"), err=True)
        sys.exit(2)
    except OSError as error:  # a file named on the command line cannot be read or written
        where = f"{error.filename}: " if error.filename else ""
        click.echo(one_line(f"beggar-search: error: {where}{error.strerror or error}"),
                   err=True)
        sys.exit(2)
    except sqlite3.Error as error:  # a results file damaged or lost while a command read it
        click.echo(one_line(f"beggar-search: error: the results file could not be used: {error}"),
                   err=True)
        sys.exit(2)
    except (UserError, DeckError, StoreError, click.ClickException) as error:
        message = error.format_message() if isinstance(error, click.ClickException) else error
        click.echo(one_line(f"beggar-search: error: {message}"), err=True)
        sys.exit(2)
    compiling.report()
    sys.exit(status if isinstance(status, int) else 0)

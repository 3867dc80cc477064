"""``beggar-search compile``: compile a command's kernels ahead, into Numba's cache.

``beggar-search compile`` warms the quick start's search (``search random``, standard deck,
2 players); ``beggar-search compile search climb --deck camicia`` the kernels that command
would use (any search command line, which is checked as the search would check it, and
then compiled, not run: no results file is opened); ``--all`` every workload in
``ALL_WORKLOADS`` (for an image or a cluster's workers: minutes).  A workload already in
the cache loads in a second or so.  ``--where`` prints the cache's folder (``jit``: one for
every install, per user), ``--clean`` empties it.
"""

from __future__ import annotations

import time

import click

from .. import compiling
from ..text import plural
from .common import say

COMPILE_ONLY = "beggar_search.compile_only"  # ctx.meta key: ``search.launch`` warms, no run
QUICK_START = ("search", "random")
RATSCREW_DECK = "8=2,9=2,T=1,J=2,Q=1"
ALL_WORKLOADS = (
    QUICK_START,
    ("search", "random", "--players", "3"),
    ("search", "random", "--players", "4"),
    ("search", "random", "--players", "5"),  # 5 to 8 players: the general engine
    ("search", "enumerate", "--deck", "plain=5,J=2,Q=1,K=1"),
    ("search", "random", "--game", "ers"),
    ("search", "enumerate", "--game", "ers", "--deck", RATSCREW_DECK),
    ("search", "climb"),
    ("search", "climb", "--game", "ers", "--slap-policy", "turn"),
    ("search", "factory", "--ignore-known"),
    ("search", "factory", "--ignore-known", "--game", "ers", "--deck", RATSCREW_DECK),
)


@click.command("compile", context_settings={"ignore_unknown_options": True,
                                            "allow_interspersed_args": False})
@click.option("--all", "everything", is_flag=True,
              help="Every workload: each search of each game, 2, 3, 4 and 5+ players"
                   " (minutes, once).")
@click.option("--where", is_flag=True,
              help="Print the folder of the compiled kernels (NUMBA_CACHE_DIR, else the"
                   " user's cache folder) and this version's folder in it, and exit.")
@click.option("--clean", is_flag=True,
              help="Remove every version's compiled kernels from that folder, and exit.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED, metavar="[SEARCH COMMAND]")
@click.pass_context
def compile_kernels(ctx, everything, where, clean, command):
    """Compile kernels ahead (default: those of `search random`), e.g. for an image.

    Numba compiles each kernel on first use and caches it: the first run of each
    search compiles for up to a minute or so, later runs load in a second.  Give a
    search command line (`compile search climb --deck camicia`) to compile what it
    needs, without running it; --all compiles every workload.
    """
    if (where or clean) and (everything or command):
        raise click.UsageError("--where and --clean take no search command nor --all")
    if where or clean:
        from .. import jit

        if clean:
            removed = jit.clean()
            size = f"{len(removed)} version{'s' if len(removed) != 1 else ''}"
            say(f"beggar-search: removed the compiled kernels of {size} from"
                f" {jit.cache_root()}", err=True)
        if where:
            click.echo(jit.cache_root())
            say(f"beggar-search: this version's kernels: {jit.kernels_folder()}", err=True)
        return
    if everything and command:
        raise click.UsageError("give --all or a search command, not both")
    if command and command[0] != "search":
        raise click.UsageError(f"compile takes a search command (search random, search climb,"
                               f" ...), not {command[0]!r}")
    if tuple(command[:2]) == ("search", "resume"):
        raise click.UsageError("compile takes a new search's command line; `search resume`"
                               " compiles what its run needs when it starts")
    workloads = ALL_WORKLOADS if everything else [tuple(command) or QUICK_START]
    from .. import jit
    from . import cli

    ctx.meta[COMPILE_ONLY] = True
    compiling.WATCH.reporting = False
    started = time.monotonic()
    unsaved_before = jit.unsaved_kernels()
    for workload in workloads:
        before, unsaved = compiling.WATCH.done, jit.unsaved_kernels()
        compiling.WATCH.what = "beggar-search " + " ".join(workload)
        clock = time.monotonic()
        with cli.make_context("beggar-search", list(workload), parent=ctx) as sub:
            cli.invoke(sub)
        done = compiling.WATCH.done - before
        how = (f"compiled {plural(done, 'kernel')}" if done else
               "already compiled (loaded from the cache)")
        unsaved = jit.unsaved_kernels() - unsaved
        if unsaved:
            how += f", {unsaved} not saved"
        say(f"{' '.join(workload)}: {how} in {time.monotonic() - clock:.1f} s", err=True)
    unsaved = jit.unsaved_kernels() - unsaved_before
    if unsaved:  # a full or read-only cache: said once above, where it happened
        say(f"beggar-search: {plural(unsaved, 'kernel')} of {plural(len(workloads), 'workload')}"
            f" not saved in the kernel cache {jit.kernels_folder()}: later commands compile"
            f" them again ({time.monotonic() - started:.1f} s)", err=True)
        return
    say(f"beggar-search: {plural(len(workloads), 'workload')} ready in"
        f" {time.monotonic() - started:.1f} s", err=True)

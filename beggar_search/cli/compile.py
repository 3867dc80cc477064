"""``beggar-search compile``: compile a command's kernels ahead, into Numba's cache.

``beggar-search compile`` warms the quick start's search (``search random``, standard deck,
2 players); ``beggar-search compile search climb --deck camicia`` the kernels that command
would use (any search command line, which is checked as the search would check it, and
then compiled, not run: no results file is opened); ``--all`` every workload in
``ALL_WORKLOADS`` (for an image or a cluster's workers: minutes).  A workload already in
the cache loads in a second or so.  Where there are two cores or more, ``--all`` compiles
``ALL_PLAN``'s second share in a process of its own beside the first.  ``--where`` prints
the cache's folder (``jit``: one for every install, per user), ``--clean`` empties it.
"""

from __future__ import annotations

import multiprocessing
import os
import time

import click

from .. import compiling
from ..pools.processes import default_workers, terminal_signals_ignored
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
# ``--all`` on two cores: two shares, each in its order, compiled at once in two processes
# that share the cache.  Chosen by what each workload compiles, because most of a factory's
# 240 functions are the other searches' too: a process loads from the cache what the other
# has stored, so the order counts as much as the split (docs/first-run.md).
# - One process: Beggar-my-neighbour's factory first (its kernels hold most of the others'),
#   then the searches that reuse it.
# - The other: 4 players (the multi-player kernels that 3 players then load), then
#   ratscrew's searches, smallest first.
ALL_PLAN = (
    (ALL_WORKLOADS[9], ALL_WORKLOADS[7], ALL_WORKLOADS[4], ALL_WORKLOADS[3], ALL_WORKLOADS[1],
     ALL_WORKLOADS[0]),
    (ALL_WORKLOADS[2], ALL_WORKLOADS[5], ALL_WORKLOADS[6], ALL_WORKLOADS[8], ALL_WORKLOADS[10]),
)
HELPER_FAILED = "failed"  # what a helper sends in place of its count when it could not go on


@click.command("compile", context_settings={"ignore_unknown_options": True,
                                            "allow_interspersed_args": False})
@click.option("--all", "everything", is_flag=True,
              help="Every workload: each search of each game, 2, 3, 4 and 5+ players"
                   " (minutes, once; in two processes where there are two cores).")
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

    ctx.meta[COMPILE_ONLY] = True
    compiling.WATCH.reporting = False
    started = time.monotonic()
    unsaved_before = jit.unsaved_kernels()
    helper = Helper(ALL_PLAN[1]) if everything and default_workers() > 1 else None
    try:
        for workload in ALL_PLAN[0] if helper else workloads:
            compile_workload(ctx, workload)
        helper_unsaved = helper.finish() if helper else 0
    finally:
        if helper:
            helper.stop()
    if helper_unsaved is None:  # the helper could not go on: what it had left compiles here
        say("beggar-search: the second compiling process stopped; its workloads compile here",
            err=True)
        helper_unsaved = 0
        for workload in ALL_PLAN[1]:
            compile_workload(ctx, workload)
    unsaved = jit.unsaved_kernels() - unsaved_before + helper_unsaved
    if unsaved:  # a full or read-only cache: said once above, where it happened
        say(f"beggar-search: {plural(unsaved, 'kernel')} of {plural(len(workloads), 'workload')}"
            f" not saved in the kernel cache {jit.kernels_folder()}: later commands compile"
            f" them again ({time.monotonic() - started:.1f} s)", err=True)
        return
    say(f"beggar-search: {plural(len(workloads), 'workload')} ready in"
        f" {time.monotonic() - started:.1f} s", err=True)


def compile_workload(ctx, workload: tuple[str, ...]) -> int:
    """Compile (or load) the kernels of the search command line ``workload`` under ``ctx``
    (whose ``meta`` says ``COMPILE_ONLY``) and say so on stderr; the kernels not saved."""
    from .. import jit
    from . import cli

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
    return unsaved


def compile_share(workloads, parent: int, results) -> None:
    """In a process of its own (``Helper``): compile ``workloads`` one after the other, each
    said on stderr, then send on ``results`` how many kernels were not saved, or
    ``HELPER_FAILED`` when one could not be compiled (the parent compiles them then).  It
    ignores the terminal's signals and dies with ``parent``: the parent decides."""
    from ..pools.local import serve
    from . import cli

    serve(parent)
    compiling.listen()  # its lines count the kernels it compiled, as the parent's do
    compiling.WATCH.reporting = False
    try:
        with click.Context(cli, info_name="beggar-search") as ctx:
            ctx.meta[COMPILE_ONLY] = True
            results.send(sum(compile_workload(ctx, workload) for workload in workloads))
    except BaseException:  # the parent says it in one line and compiles them itself
        results.send(HELPER_FAILED)


class Helper:
    """A second process that compiles ``workloads`` (``compile_share``) while this one
    compiles the rest, both into the same cache."""

    def __init__(self, workloads):
        context = multiprocessing.get_context("spawn")
        self.results, sending = context.Pipe(duplex=False)
        self.process = context.Process(target=compile_share, name="beggar-search compile",
                                       args=(workloads, os.getpid(), sending), daemon=True)
        with terminal_signals_ignored():  # a Ctrl-C at the terminal is the parent's
            self.process.start()
        sending.close()

    def finish(self) -> int | None:
        """Wait for the helper (a Ctrl-C is answered at once): the kernels it did not save,
        or None when it could not compile them all."""
        while not self.results.poll(0.2):
            if not self.process.is_alive() and not self.results.poll(0):
                return None
        try:
            sent = self.results.recv()
        except (EOFError, OSError):
            return None
        return None if sent == HELPER_FAILED else int(sent)

    def stop(self) -> None:
        """End the helper now if it is still compiling, and reap it."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.results.close()

"""What every pool of worker processes needs from this process: how many cores it may run
on, the working folder the workers start in, multiprocessing's resource tracker kept
quiet, and the terminal's signals kept from the processes a block starts (the parent
decides how a run stops)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

from ..errors import UserError

# the signals that stop a run gracefully: workers ignore them, the parent decides
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# what a terminal sends a whole process group (Ctrl-C, the hang-up of a dropped session)
TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGHUP)


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (once) with its stderr on /dev/null.

    When the parent is killed (``kill -9``) the tracker unlinks the semaphores of the
    workers' queues that the parent could not, and then warned of "leaked semaphore
    objects" on the terminal, long after the kill: noise, as the cleaning is done.  It
    ignores a hang-up too (it ignores Ctrl-C and SIGTERM itself): one that killed it made
    the parent start another, which printed a traceback for each semaphore it was told of.
    """
    from multiprocessing import resource_tracker

    sys.stderr.flush()
    saved = os.dup(2)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
        with terminal_signals_ignored():
            resource_tracker.ensure_running()  # keeps the fd 2 and the ignoring it starts with
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@contextlib.contextmanager
def terminal_signals_ignored():
    """Keep Ctrl-C and SIGHUP from the processes started in the block, and hold the parent's.

    The main thread blocks them for the block: processes (and threads) started in it inherit
    the blocked mask, which survives exec, so a signal to the whole group leaves them to the
    parent.  The parent's own signal waits: it is recorded (or pending) and acted on by the
    handler in place before once the block ends, never dropped (an ignored one was: a Ctrl-C
    while a local cluster started was lost and the search ran on).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard = []
    saved = {sig: signal.signal(sig, lambda signum, frame: heard.append(signum))
             for sig in TERMINAL_SIGNALS}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, TERMINAL_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one pending is heard here
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(heard):
            signal.raise_signal(signum)  # to the handler in place before


def working_folder() -> str:
    """The working folder; a ``UserError`` saying so when it has been deleted (worker
    processes start in it, and a relative results file lives there)."""
    try:
        return os.getcwd()
    except FileNotFoundError:
        try:
            where = os.readlink("/proc/self/cwd").removesuffix(" (deleted)")
        except OSError:
            where = os.environ.get("PWD", "the working folder")
        raise UserError(f"the working folder {where} no longer exists (deleted?): cd to a"
                        " folder that exists and run the command again") from None


def default_workers() -> int:
    """Number of CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


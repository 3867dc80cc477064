"""Compiling the kernels where people can see it, and stop it.

Numba compiles a kernel the first time it is called with new argument types, unless its
cache holds it (``jit``); a cold cache makes a command's first run compile for tens of
seconds.  ``watch`` (installed once by the command line) hears each compile Numba starts
(a cache miss: loading from the cache says nothing) and says on stderr, before the first,
what is compiling and that it happens once; ``compiled_line`` gives the count and the
time it took, for the command's end or its summary.

``warm(function)`` runs a warm-up (a search's kernels, before its run is created) in a
thread: the main thread stays free to tick a counter on a terminal and to answer Ctrl-C
at once, however long Numba holds on to the compile (it cannot be stopped half-way).
A Ctrl-C there raises ``CompileInterrupted`` in the main thread; the command line then
exits 130 at once (``exit_now``: the compile thread is left to the operating system, and
no run has been created).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

from .address_space import check_compile_room, check_load_room
from .text import plural

TICK = 0.5  # seconds between two readings of the counter on a terminal


class CompileInterrupted(KeyboardInterrupt):
    """Ctrl-C while the kernels compiled: the command stops, no run is created."""


@dataclass
class Watch:
    """What Numba compiled in this process: specialisations done, seconds spent, and what
    the notice names (``what``: the command)."""

    what: str = "this command"
    quiet: bool = False
    done: int = 0
    seconds: float = 0.0
    depth: int = 0
    since: float = 0.0  # when the outermost compile under way started
    announced: bool = False
    reported: int = 0  # specialisations already said by a ``compiled ...`` line
    reporting: bool = True  # False: the caller says what was compiled (``compile``)
    beside: int = 0  # of ``done``, those a worker compiled beside this process (``add_beside``)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def started(self) -> None:
        """A compile starts (Numba's ``numba:compile`` event): refused here, before LLVM
        runs, under an address-space limit it would abort in (``address_space``)."""
        check_compile_room()
        with self.lock:
            if self.depth == 0:
                self.since = time.monotonic()
            self.depth += 1
            first = not self.announced
            self.announced = True
        if first:
            self.say(f"compiling the kernels of {self.what} (first run only: Numba caches"
                     " them; `beggar-search compile` does it ahead; Ctrl-C stops)")

    def ended(self) -> None:
        """A compile ends: one more specialisation compiled."""
        with self.lock:
            self.depth -= 1
            self.done += 1
            if self.depth == 0:
                self.seconds += time.monotonic() - self.since

    def add_beside(self, kernels: int, waited: float) -> None:
        """A worker compiled ``kernels`` beside this process (``pools.local``), which then
        waited ``waited`` seconds more for it: both count as this command's compile."""
        with self.lock:
            self.done += kernels
            self.beside += kernels
            self.seconds += waited

    def elapsed(self) -> float:
        """Seconds spent compiling so far, the compile under way included."""
        with self.lock:
            running = time.monotonic() - self.since if self.depth else 0.0
            return self.seconds + running

    def say(self, text: str) -> None:
        """One line on stderr (not with ``--quiet``)."""
        if not self.quiet:
            print(f"beggar-search: {text}", file=sys.stderr, flush=True)


WATCH = Watch()
_installed = []
# Numba not loaded yet, and console.NumbaGate calls ``numba_loaded`` when it is: "gate"; a
# ``watch`` waiting for that: "wanted" (a command that never loads Numba never listens)
_later: set[str] = set()


def watch(what: str, quiet: bool = False) -> Watch:
    """Hear every compile of this process from now on, naming ``what`` in the notice;
    the one ``Watch`` (installed once, renamed on later calls).  Before Numba is loaded
    (``console.NumbaGate``) it listens once Numba is."""
    WATCH.what, WATCH.quiet = what, quiet
    if "gate" in _later and "numba" not in sys.modules:
        _later.add("wanted")
        return WATCH
    return listen()


def numba_gated() -> None:
    """Numba is not loaded yet: ``numba_loaded`` will be called once it is."""
    _later.add("gate")


def numba_loaded() -> None:
    """Numba has just loaded: a ``watch`` waiting for it listens now."""
    if "wanted" in _later:
        listen()
    _later.clear()


def listening() -> bool:
    """Whether this process hears its compiles (``watch`` or ``listen`` was called)."""
    return bool(_installed) or "wanted" in _later


def listen() -> Watch:
    """The one ``Watch``, hearing every compile of this process from now on (installed
    once; a worker process, where no command installed it, says nothing)."""
    if not _installed:
        from numba.core import event

        class Listener(event.Listener):
            def on_start(self, event):
                WATCH.started()

            def on_end(self, event):
                WATCH.ended()

        class LockListener(event.Listener):
            """Numba takes its compiler lock to load a cached kernel too (no compile event):
            refused here, before LLVM runs, under a limit loading would abort in."""

            def on_start(self, event):
                check_load_room()

            def on_end(self, event):
                pass

        _installed.extend([Listener(), LockListener()])
        event.register("numba:compile", _installed[0])
        event.register("numba:compiler_lock", _installed[1])
    return WATCH


def compiling_in(function, *args):
    """``function(*args)`` and the seconds this process spent compiling during it (a
    worker's chunk: not search time)."""
    listen()
    before = WATCH.elapsed()
    result = function(*args)
    return result, WATCH.elapsed() - before


def compiled_line() -> str | None:
    """``compiled 64 kernels in 27.3 s`` (all this process compiled, and a worker beside
    it), or None."""
    if not WATCH.done:
        return None
    beside = f" ({WATCH.beside} of them in a worker beside)" if WATCH.beside else ""
    return f"compiled {plural(WATCH.done, 'kernel')} in {WATCH.seconds:.1f} s{beside}"


def kernels_line() -> str:
    """``64 kernels``, or ``64 kernels, 28 of them in a worker beside``."""
    text = plural(WATCH.done, "kernel")
    return text + (f", {WATCH.beside} of them in a worker beside" if WATCH.beside else "")


def report() -> None:
    """Say ``compiled ...`` on stderr once compiling is over, if it has not been said."""
    if WATCH.reporting and WATCH.done > WATCH.reported and not WATCH.depth:
        WATCH.reported = WATCH.done
        WATCH.say(compiled_line())


def warm(function, *args, **kwargs):
    """``function(*args, **kwargs)`` (what may compile kernels: a warm-up, or one game) in a
    thread, the main thread ticking a counter on a terminal and answering Ctrl-C at once
    (``CompileInterrupted``); its result, or its own error raised here."""
    if threading.current_thread() is not threading.main_thread():
        return function(*args, **kwargs)
    failure, result = [], []

    def target():
        try:
            result.append(function(*args, **kwargs))
        except BaseException as error:  # handed to the main thread
            failure.append(error)

    asked = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: asked.append(signum))
    thread = threading.Thread(target=target, name="compile", daemon=True)
    ticking = sys.stderr.isatty() and not WATCH.quiet
    shown = False
    try:
        thread.start()
        while thread.is_alive():
            thread.join(TICK)
            if asked:
                raise CompileInterrupted
            if ticking and WATCH.depth:
                shown = True
                print(f"\r  compiling: {plural(WATCH.done, 'kernel')} done,"
                      f" {WATCH.elapsed():.0f} s", end="", file=sys.stderr, flush=True)
    finally:
        signal.signal(signal.SIGINT, previous)
        if shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    if failure:
        raise failure[0]
    report()
    return result[0]


def compiling_now() -> bool:
    """Whether a warm-up thread is still compiling (a Ctrl-C left it running)."""
    return any(t.name == "compile" and t.is_alive() for t in threading.enumerate())


def exit_within(seconds: float, status: int) -> None:
    """Let the interpreter's own shutdown end the command (threads joined, exit handlers run:
    a local cluster's processes closed), but exit with ``status`` ``seconds`` from now at the
    latest.  For the entry point only: an in-process caller (the test suite) would be killed
    with it."""
    timer = threading.Timer(seconds, exit_now, (status,))
    timer.daemon = True
    timer.start()


def exit_now(status: int) -> None:
    """Exit at once with ``status``, leaving a compile thread to the operating system
    (Numba's compiler may not be interrupted, nor the interpreter shut down under it)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)

"""The ``beggar-search`` entry point: what must happen before anything imports Numba.

Numba reads its environment variables when it is imported: a value it cannot take crashed
every command at import (``NUMBA_NUM_THREADS=0``) or had it print a warning holding a
traceback (``NUMBA_OPT=abc``); ``NUMBA_DISABLE_JIT`` had the kernels' wrapping int64
arithmetic warn of overflows.  Here such a value is named in one warning line and unset (for
the worker processes too), so Numba uses its default.  Numba (1-2 s to import on a loaded
machine) is imported only by the commands that play or compile: ``--help``, a bad option,
``show``, ``export`` and ``runs`` never load it.  So the check runs when Numba is first
imported (``NumbaGate``, a finder on ``sys.meta_path``), wherever that is.  A Ctrl-C or a
failure to load Numba (a memory limit: ``ulimit -v``) is one line too.
"""

import importlib.abc
import importlib.util
import os
import re
import sys
import warnings

from . import compiling

# seconds the interpreter's shutdown may take after a signal stopped the command, before it
# exits hard: .ci/run saw a Ctrl-C while a local Dask cluster started leave that shutdown
# waiting for more than 60 s, once in about 30 runs (cause not found; 70 runs alone and beside
# a CPU hog did not repeat it)
SHUTDOWN_GRACE = 10.0
NUMBA_COMPLAINT = re.compile(r"Environment variable '(NUMBA_\w+)' is defined but its"
                             r" associated value '(.*)' could not be parsed", re.DOTALL)


def _say(text: str) -> None:
    try:
        print(f"beggar-search: {text}", file=sys.stderr, flush=True)
    except (OSError, AttributeError):  # no stderr left: the exit status tells
        pass


def _ignore(variable: str, why: str) -> None:
    value = os.environ.pop(variable, "")
    _say(f"warning: ignored {variable}={value[:40]!r}: {why}; Numba uses its default")


def checked_numba_threads() -> None:
    """Unset a ``NUMBA_NUM_THREADS`` Numba would crash on at import (0 or below), in one
    warning line; it needs no Numba, so it runs before anything else."""
    threads = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if threads and threads.lstrip("+-").isdigit() and int(threads) <= 0:
        _ignore("NUMBA_NUM_THREADS", "not a number of threads > 0")


def _numba_checked(numba, caught) -> None:
    for warning in caught:
        complaint = NUMBA_COMPLAINT.match(str(warning.message))
        if complaint:
            _ignore(complaint.group(1), "Numba cannot read it")
        else:
            warnings.showwarning(warning.message, warning.category, warning.filename,
                                 warning.lineno)
    if numba.config.DISABLE_JIT:  # kernels run as Python: their int64 arithmetic wraps
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)


def _cannot_load_numba(error: BaseException) -> None:
    reason = " ".join(str(error).split()).split(". ")[0] or type(error).__name__
    _say(f"error: cannot load Numba's compiler ({reason}): too little memory? (under a"
         " limit such as ulimit -v, allow 1 GB)")
    sys.exit(2)


class NumbaGate(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The first import of ``numba``, wherever it happens: Numba's complaints about its
    environment become warning lines (``checked_numba_environment``), and a Numba that
    cannot load (a memory limit) is one line and exit status 2.  It leaves
    ``sys.meta_path`` at its first use."""

    def __init__(self):
        self.loader = None

    def find_spec(self, name, path=None, target=None):
        """Numba's own spec, loaded through this gate; None for every other module."""
        if name != "numba":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        self.loader, spec.loader = spec.loader, self
        return spec

    def create_module(self, spec):
        """Numba's loader makes the module."""
        return self.loader.create_module(spec)

    def exec_module(self, module):
        """Run Numba's ``__init__`` with its warnings caught, then check them."""
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RuntimeWarning)
                self.loader.exec_module(module)
        except (OSError, MemoryError, ImportError) as error:
            _cannot_load_numba(error)
        _numba_checked(module, caught)
        compiling.numba_loaded()  # the compile watch listens from now on


def checked_numba_environment() -> None:
    """Check Numba's environment now or when Numba is first imported: each value it cannot
    take is named in a warning line and unset."""
    checked_numba_threads()
    if "numba" in sys.modules:
        return
    if not any(isinstance(finder, NumbaGate) for finder in sys.meta_path):
        sys.meta_path.insert(0, NumbaGate())
        compiling.numba_gated()


def main(argv=None):
    """Check Numba's environment (at its first import), load the command line, and run it."""
    try:
        checked_numba_environment()
        from .cli import main as command_line
    except KeyboardInterrupt:
        _say("interrupted")
        sys.exit(130)
    except (OSError, MemoryError, ImportError) as error:
        _cannot_load_numba(error)
    try:
        command_line(argv)
    except SystemExit as stop:
        if isinstance(stop.code, int) and stop.code >= 128:  # stopped by a signal
            compiling.exit_within(SHUTDOWN_GRACE, stop.code)
        raise

"""The ``beggar-search`` entry point: what must happen before the command line is imported.

Importing the command line imports Numba, which reads its environment variables then: a
value it cannot take crashed every command at import (``NUMBA_NUM_THREADS=0``) or had it
print a warning holding a traceback (``NUMBA_OPT=abc``); ``NUMBA_DISABLE_JIT`` had the
kernels' wrapping int64 arithmetic warn of overflows.  Here such a value is named in one
warning line and unset (for the worker processes too), so Numba uses its default.  A Ctrl-C
or a failure to load Numba (a memory limit: ``ulimit -v``) while the command line loads is
one line too.
"""

import os
import re
import sys
import warnings

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


def checked_numba_environment() -> None:
    """Import Numba with the environment it can take: each value it cannot is named in a
    warning line and unset."""
    threads = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if threads and threads.lstrip("+-").isdigit() and int(threads) <= 0:
        _ignore("NUMBA_NUM_THREADS", "not a number of threads > 0")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        import numba
    for warning in caught:
        complaint = NUMBA_COMPLAINT.match(str(warning.message))
        if complaint:
            _ignore(complaint.group(1), "Numba cannot read it")
        else:
            warnings.showwarning(warning.message, warning.category, warning.filename,
                                 warning.lineno)
    if numba.config.DISABLE_JIT:  # kernels run as Python: their int64 arithmetic wraps
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)


def main(argv=None):
    """Check Numba's environment, load the command line, and run it."""
    try:
        checked_numba_environment()
        from .cli import main as command_line
    except KeyboardInterrupt:
        _say("interrupted")
        sys.exit(130)
    except (OSError, MemoryError, ImportError) as error:
        reason = " ".join(str(error).split()).split(". ")[0] or type(error).__name__
        _say(f"error: cannot load Numba's compiler ({reason}): too little memory? (under a"
             " limit such as ulimit -v, allow 1 GB)")
        sys.exit(2)
    command_line(argv)

"""Errors that mean bad input: the command line reports them as one line, exit status 2."""


class UserError(Exception):
    """Bad input from the user (an option, a file, a missing extra)."""


class PoolLost(Exception):
    """The machines playing a run's chunks are gone (a Dask scheduler that died): the run
    stops, and the driver says how to resume it."""

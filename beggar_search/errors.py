"""Errors that mean bad input: the command line reports them as one line, exit status 2."""


class UserError(Exception):
    """Bad input from the user (an option, a file, a missing extra)."""

"""Click options gathered into one object: the one way a command takes a group of options.

``gathered(cls, keyword, options, make)`` adds ``options`` (pairs of a field name and a
click option, in the order ``--help`` lists them; an option named None is the command's
own and its value passes through) and passes the command one object built from their
values as ``keyword``.  Without ``options`` the command declares the options itself and
the fields of the dataclass ``cls`` name them.  ``make(values)`` builds the object (it may
check the values first and raise a ``UserError``); ``cls(**values)`` when left out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence


def gathered(cls, keyword: str, options: Sequence = (), make: Callable | None = None):
    """A decorator passing a command its options as one ``cls``, named ``keyword``."""
    names = ([name for name, _ in options if name is not None]
             or list(cls.__dataclass_fields__))
    build = make or (lambda values: cls(**values))

    def decorate(function):
        @functools.wraps(function)
        def command(*args, **kwargs):
            values = {name: kwargs.pop(name) for name in names}
            return function(*args, **{keyword: build(values)}, **kwargs)

        for _, option in reversed(options):
            command = option(command)
        return command

    return decorate

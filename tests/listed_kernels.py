"""The kernels a process has compiled or loaded, listed inside it: the text of
``package_kernels()``, for the script a test runs in a fresh process.

A kernel loaded from the cache has its own signatures only; compiled cold, the kernels it
calls have theirs too."""

import textwrap

LISTING = textwrap.dedent('''
    import sys

    from numba.core.registry import CPUDispatcher


    def package_kernels():
        """Every kernel of the package with a compiled signature, by name
        (``engine.random.next_u64``)."""
        return {f"{value.py_func.__module__.removeprefix('beggar_search.')}."
                f"{value.py_func.__qualname__}": value
                for name, module in list(sys.modules.items())
                if name.startswith("beggar_search.")
                for value in vars(module).values()
                if isinstance(value, CPUDispatcher) and value.signatures}
''')

"""A kernel compiles once for the types it is called with (``jit.kernel``), not again for
the value of a constant argument (a literal): each such specialisation compiled the whole
tree of kernels under it again (``play_tried`` three times in a factory's compile).

Numba knows a kernel's callees only when it compiled them in this process (a kernel loaded
from the cache brings its callees' code, not their signatures): the check compiles in a
process of its own with an empty kernel cache, and lists there every specialisation of
every kernel of the package (``listed_kernels``)."""

import json
import os
import subprocess
import sys
import textwrap

from listed_kernels import LISTING

COMPILED = LISTING + textwrap.dedent("""
    import json

    from numba import types

    from beggar_search.engine.random import chunk_stream, next_u64

    next_u64(chunk_stream(1, 0))  # the generator: two rotations by constants
    print(json.dumps({
        name: [{"literal": any(isinstance(a, types.Literal) for a in signature),
                "plain": str(tuple(types.unliteral(a) for a in signature))}
               for signature in kernel.signatures]
        for name, kernel in package_kernels().items()}))
""")


def specialisations(tmp_path) -> dict:
    """Every kernel's specialisations, compiled from an empty cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-c", COMPILED], env=env,
                            capture_output=True, text=True, timeout=600, check=True)
    return json.loads(result.stdout)


def assert_once_each(kernels: dict) -> None:
    for name, compiled in kernels.items():
        assert not any(s["literal"] for s in compiled), name
        plain = [s["plain"] for s in compiled]
        assert len(set(plain)) == len(plain), (name, plain)


def test_constant_arguments_compile_no_second_specialisation(tmp_path):
    """The generator rotates by two constants (``_rotl(x, 7)``, ``_rotl(x, 45)``): one
    kernel for int64, not one per constant."""
    kernels = specialisations(tmp_path)
    assert "engine.random._rotl" in kernels  # compiled here, so listed
    assert_once_each(kernels)

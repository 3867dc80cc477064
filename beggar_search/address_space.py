"""Whether this process's address-space limit (``ulimit -v``, ``RLIMIT_AS``) leaves room
for Numba to compile, or to load compiled kernels from a warm cache.

LLVM does not survive running out of address space: its ``std::bad_alloc`` (or "LLVM
ERROR: out of memory") aborts the whole process (exit 134, a C++ message, nothing Python
can answer).  So before a compile starts (``compiling.Watch.started``), a limit below what
a compile reaches is refused in one line; and before Numba takes its compiler lock, which
it does to load a kernel from the cache as well as to compile one (``compiling.listen``),
a limit below what loading a command's kernels reaches is refused the same way.
"""

from __future__ import annotations

import resource

from .errors import UserError

# The address space a cold compile reached, rounded up: VmPeak 1,258,024 kB (1.29 GB) of
# `search factory --deck plain=10,J=2,Q=2,K=2` on an empty NUMBA_CACHE_DIR, 2026-12-03, load
# 15 (docs/reliability.md); under `ulimit -v 800000` that compile aborted in LLVM (exit 134).
# A warm cache ran the same search under 600 MB.
COMPILE_BYTES = 1_300_000_000
# The address space a warm-cache search needs, rounded up: `search factory --deck
# plain=14,J=2,Q=2,K=2 --from ... --workers 1` ran under `ulimit -v` of 620 MB and more, said
# "can't start new thread" in one line at 600 MB, and aborted in LLVM (std::bad_alloc, "LLVM
# ERROR: out of memory" while loading the cached kernels) at 400-580 MB; `search random` and
# `search climb` aborted at 450-560 MB; every search ran at 650 MB, with 1 and 2 workers
# (2026-12-04, load 4-6; docs/reliability.md).  `play` and `report` need less (450 MB) but
# are held to the same figure: one figure a user can be told.
LOAD_BYTES = 650_000_000


def _below(limit: int | None, needed: int) -> int | None:
    """The address-space limit (``limit``, else this process's soft ``RLIMIT_AS``) where it
    is below ``needed`` bytes, else None."""
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    return None if limit == resource.RLIM_INFINITY or limit >= needed else limit


def check_load_room(limit: int | None = None) -> None:
    """A ``UserError`` when the address-space limit (``limit``, else this process's soft
    ``RLIMIT_AS``) is below ``LOAD_BYTES``: too small to load the compiled kernels."""
    limit = _below(limit, LOAD_BYTES)
    if limit is None:
        return
    raise UserError(f"the address-space limit (ulimit -v {limit // 1024}) is below the"
                    f" {LOAD_BYTES // 10**6} MB Numba needs to load the compiled kernels:"
                    f" raise it (ulimit -v {-(-LOAD_BYTES // 1024)}, and"
                    f" {-(-COMPILE_BYTES // 1024)} for a first run, which compiles them)")


def check_compile_room(limit: int | None = None) -> None:
    """A ``UserError`` when the address-space limit (``limit``, else this process's soft
    ``RLIMIT_AS``) is below ``COMPILE_BYTES``."""
    limit = _below(limit, COMPILE_BYTES)
    if limit is None:
        return
    raise UserError(f"the address-space limit (ulimit -v {limit // 1024}) is below the"
                    f" {COMPILE_BYTES // 10**6} MB Numba needs to compile the kernels: raise it"
                    f" (ulimit -v {-(-COMPILE_BYTES // 1024)}) for the first run, or run"
                    " `beggar-search compile` without the limit first")

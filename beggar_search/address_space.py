"""Whether this process's address-space limit (``ulimit -v``, ``RLIMIT_AS``) leaves room
for Numba to compile.

LLVM does not survive running out of address space: its ``std::bad_alloc`` aborts the
whole process (exit 134, a C++ message, nothing Python can answer).  So before a compile
starts (``compiling.Watch.started``), a limit below what a compile reaches is refused in
one line.  Loading kernels from a warm cache needs less, and is never refused here.
"""

from __future__ import annotations

import resource

from .errors import UserError

# The address space a cold compile reached, rounded up: VmPeak 1,258,024 kB (1.29 GB) of
# `search factory --deck plain=10,J=2,Q=2,K=2` on an empty NUMBA_CACHE_DIR, 2026-12-03, load
# 15 (docs/reliability.md); under `ulimit -v 800000` that compile aborted in LLVM (exit 134).
# A warm cache ran the same search under 600 MB.
COMPILE_BYTES = 1_300_000_000


def check_compile_room(limit: int | None = None) -> None:
    """A ``UserError`` when the address-space limit (``limit``, else this process's soft
    ``RLIMIT_AS``) is below ``COMPILE_BYTES``."""
    if limit is None:
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY or limit >= COMPILE_BYTES:
        return
    raise UserError(f"the address-space limit (ulimit -v {limit // 1024}) is below the"
                    f" {COMPILE_BYTES // 10**6} MB Numba needs to compile the kernels: raise it"
                    f" (ulimit -v {-(-COMPILE_BYTES // 1024)}) for the first run, or run"
                    " `beggar-search compile` without the limit first")

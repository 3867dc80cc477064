"""The one jit policy every kernel uses: cached, nogil, numpy error model."""

import numba

kernel = numba.njit(cache=True, nogil=True, error_model="numpy")

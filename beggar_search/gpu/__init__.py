"""The GPU engine (``--device gpu``): ``engine`` (the CPU side: the device check, the chunk
functions, the device's arrays) and ``play`` (the CUDA kernel; imports ``numba.cuda``).

Outside ``beggar_search/engine`` on purpose: ``jit`` stamps every CPU kernel's cache with
a digest of the engine's sources, and the GPU's own edits need not recompile them.
"""

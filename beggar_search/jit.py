"""The one jit policy every kernel uses: cached, nogil, numpy error model (optionally inlined).

Numba keeps compiled kernels on disk (its cache: beside the package, else in the user's
cache folder, or in ``NUMBA_CACHE_DIR``), so that only the first command compiles.  A
cache that cannot be used never stops a command:

- none of those folders writable (a read-only install, a ``HOME`` that is not writable):
  kernels are cached in a temporary folder for this command and its worker processes
  (which inherit ``NUMBA_CACHE_DIR``), removed at exit; one line on stderr says so, and
  how to keep them.  With no temporary folder either, kernels are not cached at all.
- a cache that fails when written (a full disk, a file size limit): the line names the
  folder, and the command goes on with the kernels it compiled, unsaved.
"""

import atexit
import contextlib
import hashlib
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

import numba
from numba.core import config, sigutils
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    UserProvidedCacheLocator,
)

CACHE_HINT = "set NUMBA_CACHE_DIR to a writable folder to keep compiled kernels"
_said = set()


def say_once(what: str, text: str) -> None:
    """One line on stderr, the first time ``what`` happens in this process."""
    if what not in _said:
        _said.add(what)
        print(f"beggar-search: {text}", file=sys.stderr, flush=True)


def _probe():
    return 0


def _cache_found() -> bool:
    """Whether Numba finds a cache folder it can write for this package's kernels."""
    try:
        FunctionCache(_probe)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return False
    return True


def _choose_cache() -> bool:
    """True to cache kernels (in Numba's own place, or in a temporary folder)."""
    if _cache_found():
        return True
    where = (f"NUMBA_CACHE_DIR={config.CACHE_DIR}, " if config.CACHE_DIR else "") + (
        "beside the package or in the user's cache folder")
    try:
        folder = tempfile.mkdtemp(prefix="beggar-search-numba-")
    except OSError:
        say_once("no cache", f"Numba cannot write a cache ({where}) nor a temporary folder:"
                             f" kernels compile on every command; {CACHE_HINT}")
        return False
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # worker processes share it
    config.CACHE_DIR = folder
    say_once("temporary cache", f"Numba cannot write a cache ({where}): kernels are cached"
                                f" in {folder} for this command only; {CACHE_HINT}")
    return _cache_found()


# the folders whose modules hold kernels or the constants kernels take (Numba freezes a
# global into the kernels using it): a kernel folder added to the package is named here
KERNEL_FOLDERS = ("cards", "engine", "backward", "cycles", "games")


def _sources_digest() -> str:
    """A digest of every source a kernel may be compiled from: the modules of the kernel
    folders and jit.py, each by its path in the package and its bytes."""
    package = Path(__file__).parent
    files = [package / "jit.py"] + [
        path for folder in KERNEL_FOLDERS for path in sorted((package / folder).glob("*.py"))]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


SOURCES_DIGEST = _sources_digest()


class PackageCacheLocator(UserProvidedCacheLocator):
    """Under ``NUMBA_CACHE_DIR``, a kernel's cache folder named by its module's place in the
    package (``by-package/beggar_search/engine``), not by the absolute path of the clone it
    was compiled from (Numba's own naming): a clone elsewhere, such as CI's fresh clone, finds
    the kernels compiled from the same sources.  The sources are still checked (Numba's stamp
    is a hash of the module's bytes; ``TolerantCache`` adds ``SOURCES_DIGEST``)."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        root = Path(__file__).resolve().parent.parent
        with contextlib.suppress(ValueError):  # a module outside the package: Numba's naming
            place = Path(py_file).resolve().parent.relative_to(root)
            self._cache_path = os.path.join(config.CACHE_DIR, "by-package", *place.parts)


class _PackageCacheImpl(CompileResultCacheImpl):
    _locator_classes = [PackageCacheLocator, *(
        c for c in CompileResultCacheImpl._locator_classes if c is not UserProvidedCacheLocator)]


ORPHAN_SECONDS = 86_400.0  # a data file no index names is removed after a day


class KeyedCacheFile(IndexDataCacheFile):
    """Numba's index and data files of one kernel, each compiled signature in a data file
    named by a digest of its key (signature and machine), not by the first free number.

    Numba numbers the data files from the index it read: two processes compiling the same
    kernel for two signatures at once (the suite's two workers, two searches started
    together on a cold cache) both read the index, both take the next number, and the
    index can end up naming, for one signature, the file the other process wrote. Numba
    then loads the wrong compilation, and the call fails to type ("Known signatures: ...",
    seen in CI) or, from Python, runs code compiled for other types. Named by its key, a
    signature's file only ever holds that signature: a save another process overwrites in
    the index is only compiled again."""

    def __init__(self, cache_path, filename_base, source_stamp):
        super().__init__(cache_path, filename_base, source_stamp)
        self._filename_base = filename_base

    def data_name(self, key) -> str:
        """The data file of the signature ``key``: the same in every process."""
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:20]
        return f"{self._filename_base}.{digest}.nbc"

    def save(self, key, data):
        """Save the compilation ``data`` of ``key`` in its own file, then name it in the index;
        data files the index no longer names and older than a day go (``prune``)."""
        name = self.data_name(key)
        self._save_data(name, data)  # the data first: the index never names a missing file
        overloads = self._load_index()
        if overloads.get(key) != name:
            overloads[key] = name
            self._save_index(overloads)
        self.prune(set(overloads.values()))

    def prune(self, named: set, older_than: float = ORPHAN_SECONDS) -> None:
        """Remove this kernel's data files that the index does not name (compiled from
        sources since edited, or upgraded away: Numba reused its numbers, names by key do
        not repeat) and that are older than ``older_than`` seconds (a file just written by
        another process, whose index save was lost, stays its day)."""
        pattern = re.compile(re.escape(self._filename_base) + r"\.([0-9]+|[0-9a-f]{20})\.nbc")
        now = time.time()
        with contextlib.suppress(OSError):
            for entry in os.scandir(self._cache_path):
                if pattern.fullmatch(entry.name) and entry.name not in named:
                    with contextlib.suppress(OSError):
                        if now - entry.stat().st_mtime > older_than:
                            os.unlink(entry.path)


class TolerantCache(FunctionCache):
    """Numba's cache of one kernel, whose failure to save (a full disk) is one line naming
    the folder, not the command's end: the kernel just compiled is used unsaved.

    A kernel is also stale when any engine source changed, not only its own file (Numba's
    own test: a kernel that inlines or calls another module's kernel kept the old code of
    that module after an edit of it alone, e.g. a ``git pull`` into an editable install).
    Kernels under ``NUMBA_CACHE_DIR`` are found by ``PackageCacheLocator``.
    """

    _impl_class = _PackageCacheImpl

    def __init__(self, py_func):
        super().__init__(py_func)
        numbered = self._cache_file  # Numba's, with the stamp its locator just read
        self._cache_file = KeyedCacheFile(self._cache_path, self._impl.filename_base,
                                          (numbered._source_stamp, SOURCES_DIGEST))

    def load_overload(self, sig, target_context):
        """The kernel compiled for ``sig``, or None; never one compiled for other types (a
        cache written by an older version, or by Numba's own numbering, may hold one)."""
        compiled = super().load_overload(sig, target_context)
        args, _ = sigutils.normalize_signature(sig)
        if compiled is not None and tuple(compiled.signature.args) != tuple(args):
            return None
        return compiled

    def save_overload(self, sig, data):
        """Save a compiled kernel; a failure (a full disk) is said once on stderr, not raised."""
        try:
            super().save_overload(sig, data)
        except OSError as error:
            say_once("unsaved", f"cannot save compiled kernels in Numba's cache {self.cache_path}:"
                     f" {error.strerror or error}; going on without saving them (free some"
                     f" space there, or {CACHE_HINT})")


CACHING = _choose_cache()


def _policy(**options):
    compile_ = numba.njit(nogil=True, error_model="numpy", **options)

    def decorate(function):
        dispatcher = compile_(function)
        if CACHING:
            # what numba.njit(cache=True) does (Dispatcher.enable_caching), with the
            # tolerant cache: Numba has no public hook for a cache's errors
            dispatcher._cache = TolerantCache(function)
        return dispatcher

    return decorate


kernel = _policy()

# The same policy, with the kernel inlined into its callers by Numba: for kernels called
# in a hot loop with named tuples of scratch arrays, which a call passes field by field
# (measured on the backward replay: 12% slower called, 22% faster inlined).
inlined_kernel = _policy(inline="always")


@contextlib.contextmanager
def ctrl_c_deferred():
    """A list that Ctrl-C appends to while kernels compile or run in this process; once the
    block ends, KeyboardInterrupt if it did.  ``speed.pieces`` also checks it between calls.

    Python's own handler raises KeyboardInterrupt wherever the interpreter next looks:
    Numba does not survive one raised while a kernel hands its results back (a segmentation
    fault), and its compiler swallowed one (the command compiled on and then searched).
    Only in the main thread, and only while Ctrl-C has Python's default handler (a search
    session's own handler keeps it).
    """
    asked: list = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield asked
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: asked.append(signum))
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)
    if asked:
        raise KeyboardInterrupt

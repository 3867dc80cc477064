"""The one jit policy every kernel uses: cached, nogil, numpy error model (optionally inlined).

Numba keeps compiled kernels on disk so that only the first command compiles.  Every install
shares one cache: the user's cache folder (``platformdirs``: ``~/.cache/beggar-search/kernels``
on Linux), or ``NUMBA_CACHE_DIR`` when set, and in it one folder per version of the kernels'
sources (``beggar-search-<digest>``, ``SOURCES_DIGEST``), so a wheel, an editable install, a
read-only site-packages and a second clone of the same sources load the same kernels, and two
trees of different sources never overwrite each other's files.  ``beggar-search compile
--where`` names the folder, ``--clean`` empties it.  A cache that cannot be used never stops
a command:

- a folder that cannot be written but holds this version's kernels (a read-only image made
  with ``beggar-search compile --all``): its kernels are loaded, and those it lacks are
  compiled for this command, unsaved (one line says so).
- no folder at all can be written nor read (a ``HOME`` that is not writable): kernels are
  cached in a temporary folder for this command and its worker processes (which inherit
  ``NUMBA_CACHE_DIR``), removed at exit; one line on stderr says so, and how to keep them.
  With no temporary folder either, kernels are not cached at all.
- a cache that fails when written (a full disk, a file size limit): the line names the
  folder, and the command goes on with the kernels it compiled, unsaved.
- a file of the cache that cannot be read (truncated, garbage, empty: a copy cut short, a
  crash): a cache miss, said once naming the file; the kernel is compiled again and the
  file replaced.
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
from numba.core import config, sigutils, types
from numba.core.caching import (
    CompileResultCacheImpl,
    FunctionCache,
    IndexDataCacheFile,
    UserProvidedCacheLocator,
)

CACHE_HINT = "set NUMBA_CACHE_DIR to a writable folder to keep compiled kernels"
_SAID_VARIABLE = "BEGGAR_SEARCH_SAID"  # what was said, for the worker processes started later
_said = set(filter(None, os.environ.get(_SAID_VARIABLE, "").split(",")))


_unsaved = [0]  # kernels compiled in this process that the cache did not keep
_throwaway = []  # holds True when the cache is a temporary folder, removed at exit


def unsaved_kernels() -> int:
    """How many kernels compiled in this process could not be saved (a full or read-only
    cache, or one in a temporary folder): ``compile`` must not call them ready for later
    commands."""
    return _unsaved[0]


def say_once(what: str, text: str) -> None:
    """One line on stderr, the first time ``what`` happens in this command: its worker
    processes, started after, inherit what was said (``what``: a word, no comma)."""
    if what not in _said:
        _said.add(what)
        os.environ[_SAID_VARIABLE] = ",".join(sorted(_said))
        print(f"beggar-search: {text}", file=sys.stderr, flush=True)


# the folders whose modules hold kernels or the constants kernels take (Numba freezes a
# global into the kernels using it): a kernel folder added to the package is named here
KERNEL_FOLDERS = ("cards", "engine", "backward", "cycles", "games")
# the modules outside them digested too: this one, and tunables.py, whose constants the
# kernel folders import and some kernels freeze (``MOVE_NAMES`` sizes the move kernels'
# tables, ``KICK_BLOCKS`` the kicks' moves): an edit of a tunable compiles the kernels again
DIGESTED_MODULES = ("jit.py", "tunables.py")
PACKAGE = Path(__file__).resolve().parent


def _sources_digest() -> str:
    """A digest of every source a kernel may be compiled from: the modules of the kernel
    folders and ``DIGESTED_MODULES``, each by its path in the package and its bytes."""
    files = [PACKAGE / name for name in DIGESTED_MODULES] + [
        path for folder in KERNEL_FOLDERS for path in sorted((PACKAGE / folder).glob("*.py"))]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


SOURCES_DIGEST = _sources_digest()
FOLDER_PREFIX = "beggar-search-"  # a folder of the kernels of one version of the sources
FOLDER_PATTERN = re.compile(re.escape(FOLDER_PREFIX) + "[0-9a-f]{16}")
STALE_FOLDER_SECONDS = 30 * 86_400.0  # another version's folder unused this long goes


def cache_root() -> Path:
    """The folder of every install's compiled kernels: ``NUMBA_CACHE_DIR`` when set, else
    the user's cache folder (``platformdirs``)."""
    if config.CACHE_DIR:
        return Path(config.CACHE_DIR)
    import platformdirs

    return Path(platformdirs.user_cache_dir("beggar-search", appauthor=False)) / "kernels"


def kernels_folder() -> Path:
    """The folder of the kernels compiled from these sources (``SOURCES_DIGEST``)."""
    return cache_root() / (FOLDER_PREFIX + SOURCES_DIGEST[:16])


def cache_folders(root: Path | None = None) -> list[Path]:
    """The kernel folders of every version of the sources under ``root`` (``cache_root()``);
    nothing else there is ours."""
    root = cache_root() if root is None else root
    with contextlib.suppress(OSError):
        return sorted(path for path in root.iterdir()
                      if FOLDER_PATTERN.fullmatch(path.name) and path.is_dir()
                      and not path.is_symlink())
    return []


def clean(root: Path | None = None) -> list[Path]:
    """Remove every version's kernel folder under ``root`` (``compile --clean``); the folders
    removed.  Files of others there (a shared ``NUMBA_CACHE_DIR``) stay."""
    folders = cache_folders(root)
    for folder in folders:
        shutil.rmtree(folder)
    return folders


def prune_folders(root: Path, keep: Path, older_than: float = STALE_FOLDER_SECONDS) -> None:
    """Remove the other versions' kernel folders unused for ``older_than`` seconds (each
    process touches its own folder when it starts)."""
    now = time.time()
    for folder in cache_folders(root):
        with contextlib.suppress(OSError):
            if folder != keep and now - folder.stat().st_mtime > older_than:
                shutil.rmtree(folder)


class PackageCacheLocator(UserProvidedCacheLocator):
    """A package kernel's cache folder: in ``kernels_folder()``, named by its module's place
    in the package (``beggar-search-<digest>/engine``), not by the absolute path of the
    install or clone it was compiled from (Numba's own naming): every install of the same
    sources finds the kernels another compiled.  The sources are still checked (Numba's
    stamp is a hash of the module's bytes; ``TolerantCache`` adds ``SOURCES_DIGEST``).

    A folder that cannot be written but exists is used read-only (``read_only``): a warm
    cache in a read-only image or a shared read-only folder."""

    read_only = False

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        place = Path(py_file).resolve().parent.relative_to(PACKAGE)
        self._cache_path = str(kernels_folder().joinpath(*place.parts))

    @classmethod
    def from_function(cls, py_func, py_file):
        """The locator of a package module's kernel (None: outside the package, or no
        folder that can be written or read)."""
        if not in_package(py_file):  # Numba's own locators
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            if not os.access(self._cache_path, os.R_OK | os.X_OK):
                return None
            self.read_only = True
        return self


def in_package(py_file) -> bool:
    """Whether the module ``py_file`` is one of this package's."""
    try:
        Path(py_file).resolve().parent.relative_to(PACKAGE)
    except (OSError, ValueError):
        return False
    return True


class _PackageCacheImpl(CompileResultCacheImpl):
    """A package kernel is cached by ``PackageCacheLocator`` or not at all (never beside
    the sources, in Numba's own places); a module outside the package, by Numba's."""

    _locator_classes = [PackageCacheLocator, *CompileResultCacheImpl._locator_classes]

    def __init__(self, py_func):
        super().__init__(py_func)
        if not isinstance(self.locator, PackageCacheLocator) and in_package(
                self.locator._py_file):
            raise RuntimeError(f"no kernel cache for {py_func.__qualname__}")


def _probe():
    return 0


def _cache_found() -> PackageCacheLocator | None:
    """The locator of this package's kernels' cache folder, when Numba can use one."""
    try:
        locator = _PackageCacheImpl(_probe).locator
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return None
    return locator if isinstance(locator, PackageCacheLocator) else None


def _choose_cache() -> bool:
    """True to cache kernels (in ``kernels_folder()``, or in a temporary folder)."""
    found = _cache_found()
    if found is not None:
        if not found.read_only:
            with contextlib.suppress(OSError):  # this version in use: not pruned
                os.utime(found.get_cache_path())
        return True
    where = cache_root()
    try:
        folder = tempfile.mkdtemp(prefix="beggar-search-numba-")
    except OSError:
        say_once("nocache", f"Numba cannot write a cache (in {where}) nor a temporary folder:"
                            f" kernels compile on every command; {CACHE_HINT}")
        return False
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _throwaway.append(True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # worker processes share it
    config.CACHE_DIR = folder
    say_once("tempcache", f"Numba cannot write a cache (in {where}): kernels are cached"
                          f" in {folder} for this command only; {CACHE_HINT}")
    return _cache_found() is not None


ORPHAN_SECONDS = 86_400.0  # a data file no index names is removed after a day


def _unreadable(path: str, error: BaseException) -> None:
    say_once("unreadable", f"a file of the kernel cache cannot be read ({path}:"
                           f" {type(error).__name__}: {error}); compiling its kernel again")


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
    the index is only compiled again.

    A file that cannot be read (truncated, garbage, empty) is a cache miss, said once: the
    kernel compiles again and its save replaces the file."""

    def __init__(self, cache_path, filename_base, source_stamp):
        super().__init__(cache_path, filename_base, source_stamp)
        self._filename_base = filename_base

    def data_name(self, key) -> str:
        """The data file of the signature ``key``: the same in every process."""
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:20]
        return f"{self._filename_base}.{digest}.nbc"

    def _load_index(self):
        try:
            return super()._load_index()
        except OSError:
            raise  # unreadable for the system (permissions): Numba's own handling
        except Exception as error:  # any damage: pickle, EOF, types
            _unreadable(self._index_path, error)
            return {}

    def _load_data(self, name):
        try:
            return super()._load_data(name)
        except OSError:
            raise  # Numba's ``load`` reads it as a miss
        except Exception as error:  # any damage
            _unreadable(self._data_path(name), error)
            raise OSError(f"unreadable {name}") from error

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


_pruned = []


class TolerantCache(FunctionCache):
    """Numba's cache of one kernel, whose failure to save (a full disk) is one line naming
    the folder, not the command's end: the kernel just compiled is used unsaved.  A file
    that cannot be loaded is a miss (``KeyedCacheFile``), and so is a compilation that
    cannot be rebuilt from what was read.

    A kernel is also stale when any engine source changed, not only its own file (Numba's
    own test: a kernel that inlines or calls another module's kernel kept the old code of
    that module after an edit of it alone, e.g. a ``git pull`` into an editable install).
    Kernels of the package are found by ``PackageCacheLocator``.
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
        try:
            compiled = super().load_overload(sig, target_context)
        except Exception as error:  # unpickled, but does not rebuild
            _unreadable(self._cache_path, error)
            return None
        args, _ = sigutils.normalize_signature(sig)
        if compiled is not None and tuple(compiled.signature.args) != tuple(args):
            return None
        return compiled

    def save_overload(self, sig, data):
        """Save a compiled kernel; a failure (a full disk) is said once on stderr, not raised;
        a read-only cache is not written."""
        locator = self._impl.locator
        if getattr(locator, "read_only", False):
            _unsaved[0] += 1
            say_once("readonly", f"the kernel cache {self.cache_path} is read-only: kernels"
                     " it lacks are compiled for this command only (`beggar-search compile`"
                     f" where it can be written fills it; or {CACHE_HINT})")
            return
        try:
            super().save_overload(sig, data)
        except OSError as error:
            _unsaved[0] += 1
            say_once("unsaved", f"cannot save compiled kernels in Numba's cache {self.cache_path}:"
                     f" {error.strerror or error}; going on without saving them (free some"
                     f" space there, or {CACHE_HINT})")
            return
        if _throwaway:  # saved where this command's exit removes it
            _unsaved[0] += 1
        if not _pruned and isinstance(locator, PackageCacheLocator):
            _pruned.append(True)  # once a process, when it compiles: other versions' folders
            prune_folders(kernels_folder().parent, kernels_folder())


CACHING = _choose_cache()


def _policy(**options):
    compile_ = numba.njit(nogil=True, error_model="numpy", **options)

    def decorate(function):
        dispatcher = compile_(function)
        _typed_without_literals(dispatcher)
        if CACHING:
            # what numba.njit(cache=True) does (Dispatcher.enable_caching), with the
            # tolerant cache: Numba has no public hook for a cache's errors
            try:
                dispatcher._cache = TolerantCache(function)
            except RuntimeError:  # a read-only cache without this module's folder
                say_once("readonly", f"the kernel cache {kernels_folder()} is read-only and"
                         " lacks some kernels: they are compiled for this command only")
        return dispatcher

    return decorate


def _typed_without_literals(dispatcher) -> None:
    """Compile ``dispatcher`` for the plain types of the arguments a kernel passes it, not
    for their values: Numba types a constant argument (``f(x, 0)``, ``f(x, True)``) as a
    literal and compiles a specialisation for each value and call site besides the one for
    its type, the whole callee tree again (``play_tried`` three times, ``play_splits``
    twice in a factory's compile).  A call from Python is typed by its values' types
    already.
    Nothing to do without the JIT (``NUMBA_DISABLE_JIT``: ``dispatcher`` is the function)."""
    typed = getattr(dispatcher, "get_call_template", None)
    if typed is None:
        return

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(arg) for arg in args),
                     {name: types.unliteral(arg) for name, arg in kws.items()})

    dispatcher.get_call_template = get_call_template


kernel = _policy()

# The same policy, with the kernel inlined into its callers by Numba: for kernels called
# in a hot loop with named tuples of scratch arrays, which a call passes field by field
# (measured on the backward replay: 12% slower called, 22% faster inlined).
inlined_kernel = _policy(inline="always")


def set_up() -> None:
    """Numba's typing and target contexts set up, as loading or compiling the first kernel
    of a process would (a third of a second of a core): for a worker to do while it waits for
    the parent's compile, so that loading its kernels then takes a tenth of a second."""
    from numba.core.registry import cpu_target

    cpu_target.typing_context.refresh()
    cpu_target.target_context.refresh()


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

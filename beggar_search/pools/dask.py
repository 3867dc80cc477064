"""Runs a search's chunks as tasks on a Dask cluster (the optional ``distributed`` extra).

The client process plans the chunks and stores every finished one, exactly as with
local workers (see ``driver``); only the playing moves to the cluster.  Each chunk is
one task of ``strategies.execute``, keyed by the run's parameters and the chunk
number, so a chunk is the same task wherever and however often it runs:

- an exception in a chunk is retried (``RETRIES`` times);
- a worker that dies takes its chunks with it and the scheduler runs them again
  elsewhere (up to Dask's ``distributed.scheduler.allowed-failures``);
- the store ignores a chunk it already holds, so nothing counts twice.

Workers compile the kernels once, before their first chunk, through a worker plugin
that also runs on every worker that joins (or is restarted) later.

Importing this module needs no Dask; building a pool without it raises a
``UserError`` that says what to install.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import PoolLost, UserError
from .protocol import PoolFactory

if TYPE_CHECKING:  # the strategies (and Numba) load where chunks are played, not for --help
    from ..strategies import ChunkJob

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'beggar-search[distributed]'"
RETRIES = 3
REFRESH_SECONDS = 10.0  # how often the in-flight limit follows the cluster's size
PROBE_SECONDS = 10.0  # a scheduler greets a new connection at once; this long is not one
HANDSHAKE_LIMIT = 1 << 20  # bytes: a Dask handshake is a few hundred
DEFAULT_PORT = 8786
# Dask's processes always serve HTTP (dashboard, worker list, logs, metrics): a local
# cluster's serve only the health check, on 127.0.0.1
PRIVATE_HTTP = {f"distributed.{role}.http.routes": ["distributed.http.health"]
                for role in ("scheduler", "worker")}


class _Below(logging.Filter):
    def __init__(self, level: int):
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < self.level


class _AtLeast(logging.Filter):
    def __init__(self, level: int):
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.level


@contextlib.contextmanager
def quiet_log(name: str, level: int):
    """Drop logger ``name``'s records of ``level`` and above while the block runs."""
    log_of = logging.getLogger(name)
    quiet = _Below(level)
    log_of.addFilter(quiet)
    try:
        yield
    finally:
        log_of.removeFilter(quiet)


# said when a local cluster's nanny restarts a worker that died (its WARNING is not shown)
LOST_WORKER = ("a worker of the local Dask cluster died: Dask restarts it and plays its chunks"
               " again (none is stored twice)")


class _LocalClusterLog(logging.Filter):
    """Dask's own log of a local cluster (its scheduler and nannies run in this process and
    write to the terminal the search writes to) is not shown below CRITICAL, and a worker's
    death, which the nanny logs as 'Restarting worker', is put on ``notes`` for the pool to
    say in its own words.  Seen after a worker was killed: the scheduler's WARNING 'Removing
    worker ... will be recomputed elsewhere', the nanny's WARNING 'Restarting worker', and two
    ERRORs 'Couldn't gather keys' of the chunk the client asked the dead worker for: each
    chunk is played again and stored once, which the pool's line says."""

    def __init__(self, notes: queue.SimpleQueue):
        super().__init__()
        self.notes = notes

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("distributed") or record.levelno >= logging.CRITICAL:
            return True
        if record.name == "distributed.nanny" and str(record.msg).startswith("Restarting"):
            self.notes.put(LOST_WORKER)
        return False


@contextlib.contextmanager
def handlers_filtered(name: str, log_filter: logging.Filter):
    """``log_filter`` on every handler of logger ``name`` (Dask's: one stream handler on
    ``distributed``) while the block runs."""
    handlers = list(logging.getLogger(name).handlers)
    for handler in handlers:
        handler.addFilter(log_filter)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(log_filter)


def client_errors_quiet():
    """Drop the Dask client's ERROR records (with a lost scheduler, two tracebacks) while the
    block runs: the pool says what went wrong itself, in one line."""
    return quiet_log("distributed.client", logging.ERROR)


# open files a local cluster's parent needs (measured: 2 workers failed at 48, ran at 64)
CLUSTER_FILES = 64
CLUSTER_FILES_PER_WORKER = 16


def enough_open_files(workers: int) -> None:
    """Raise the open-file limit (its soft value, up to the hard one) to what a local cluster
    of ``workers`` needs; a ``UserError`` naming the limit when it cannot be raised that far
    (Dask's processes would otherwise fail in tracebacks and the search with a wrong reason)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return
    needed = CLUSTER_FILES + CLUSTER_FILES_PER_WORKER * workers
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return
    if hard == resource.RLIM_INFINITY or hard >= needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        return
    raise UserError(f"a local cluster of {workers} workers needs about {needed} open files, and"
                    f" this process may open {hard} (ulimit -n {hard}): raise the limit (ulimit"
                    " -n 1024), or use local workers (--workers)")


def require_dask() -> None:
    """Raise a ``UserError`` naming the extra to install when Dask is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UserError(f"--scheduler and --cluster need Dask: {INSTALL_HINT}") from None


def private_security():
    """TLS with a key and certificate made for this run only (kept in memory): what the
    local cluster's scheduler, workers and client all present, and what no other process
    of this machine has, so none can connect to them."""
    from distributed.security import Security

    try:
        return Security.temporary()
    except ImportError:
        raise UserError("--cluster local encrypts and authenticates its connections with"
                        f" the cryptography package: {INSTALL_HINT}") from None


def parse_cluster(spec: str) -> int | None:
    """``local`` or ``local:N``: the local cluster's worker processes (None: one per core)."""
    match = re.fullmatch(r"local(?::(\d+))?", spec.strip())
    if not match or (match.group(1) is not None and int(match.group(1)) < 1):
        raise ValueError(f"expected local or local:N with N >= 1, not {spec!r}")
    return None if match.group(1) is None else int(match.group(1))


ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)"
                     r"(?::(?P<port>\d{1,5}))?/?")
SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")


def check_address(address: str) -> str:
    """A Dask scheduler address as ``[scheme://]host[:port]``; ValueError if it is not one.

    Checked before anything starts, so a typo fails at once and leaves no run behind.
    """
    match = ADDRESS.fullmatch(address.strip())
    if (not match or (match["scheme"] and match["scheme"] not in SCHEMES)
            or (match["port"] and not 0 < int(match["port"]) < 65536)):
        raise ValueError(f"{address!r} is not a scheduler address such as"
                         " tcp://10.0.0.5:8786")
    return address.strip()


def probe_scheduler(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Check that what listens at a ``tcp://`` or ``tls://`` ``address`` greets like a Dask
    scheduler; a ``UserError`` in one line (within ``timeout`` seconds) otherwise.

    Dask's client would wait without end on a peer that accepts and says nothing (a web
    server), and read whatever a peer that speaks first sends as the length of a message
    (exabytes).  A scheduler sends its handshake, a short framed message, the moment a
    connection opens: its first eight bytes are the message's length.
    """
    import socket  # here: the command line does not pay for them at every start
    import ssl
    import struct

    match = ADDRESS.fullmatch(address.strip())
    scheme = (match and match["scheme"]) or "tcp"
    if not match or scheme not in ("tcp", "tls"):
        return  # other transports: Dask's own timeouts
    host = match["host"].strip("[]")
    port = int(match["port"] or DEFAULT_PORT)
    not_dask = f"{address} is not a Dask scheduler"
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except OSError as error:
        raise UserError(f"cannot reach the Dask scheduler at {address}:"
                        f" {error.strerror or error}") from None
    deadline = time.monotonic() + timeout
    try:
        if scheme == "tls":
            connection = _tls_context().wrap_socket(connection, server_hostname=host)

        def read(size: int) -> bytes:
            data = b""
            while len(data) < size:
                connection.settimeout(max(deadline - time.monotonic(), 0.01))
                piece = connection.recv(size - len(data))
                if not piece:
                    raise UserError(f"{not_dask}: it closed the connection without a word")
                data += piece
            return data

        (length,) = struct.unpack("Q", read(8))
        if not 16 <= length <= HANDSHAKE_LIMIT:
            raise UserError(f"{not_dask}: what it sent first is no Dask handshake")
        (frames,) = struct.unpack("Q", read(8))
        if not 0 < frames < 64:
            raise UserError(f"{not_dask}: what it sent first is no Dask handshake")
    except TimeoutError:
        raise UserError(f"{not_dask}: it accepted the connection but said nothing in"
                        f" {timeout:.0f} s (a scheduler answers at once)") from None
    except ssl.SSLError as error:
        raise UserError(f"no TLS connection to the Dask scheduler at {address}:"
                        f" {error.reason or error}") from None
    except OSError as error:
        raise UserError(f"{not_dask}: {error.strerror or error}") from None
    finally:
        connection.close()


def _tls_context():
    """The client's TLS settings from Dask's configuration; with none, an unverified
    context (only to see whether a Dask scheduler answers: Dask's client checks them)."""
    import ssl

    from distributed.security import Security

    context = Security().get_connection_args("client").get("ssl_context")
    if context is None:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    return context


@dataclass(frozen=True)
class ClusterOptions:
    """Where chunks run: a scheduler's address, or a local cluster of ``local_workers``."""

    scheduler: str | None = None
    cluster: str | None = None

    @property
    def enabled(self) -> bool:
        """Whether chunks run on Dask (a scheduler or a local cluster is named)."""
        return self.scheduler is not None or self.cluster is not None

    def pool_factory(self, in_flight: int | None = None) -> PoolFactory | None:
        """A driver pool factory, or None for local workers.

        ``in_flight``: the ``--workers`` value; on a cluster it only bounds the chunks in
        flight (twice that many); None follows the cluster's worker threads.
        """
        if not self.enabled:
            return None
        if self.scheduler is not None and self.cluster is not None:
            raise UserError("give --scheduler or --cluster, not both")
        require_dask()
        local_workers = None if self.cluster is None else _checked_cluster(self.cluster)

        def factory(workers: int, name: str, params: dict) -> DaskPool:
            return DaskPool(name, params, scheduler=self.scheduler,
                            local=self.cluster is not None, local_workers=local_workers,
                            in_flight=in_flight)

        return factory


def _checked_cluster(spec: str) -> int | None:
    try:
        return parse_cluster(spec)
    except ValueError as error:
        raise UserError(f"--cluster: {error}") from None


def run_token(name: str, params: dict) -> str:
    """A short name for a run's content: equal parameters play equal chunks."""
    from dask.base import tokenize

    return f"{name}-{tokenize(name, params)[:12]}"


def kernels_token(name: str, params: dict) -> str:
    """What decides the kernels a run compiles: one warm-up plugin per such set."""
    from dask.base import tokenize

    keys = ("deck", "players", "engine")
    return f"{name}-{tokenize(name, *(params.get(key) for key in keys))[:12]}"


def chunk_key(token: str, chunk: int) -> str:
    """The Dask key of chunk ``chunk`` of the run with ``token``."""
    return f"beggar-search-{token}-chunk-{chunk}"


def _plugin_class():
    """The worker plugin class (defined on first use, so this module imports without Dask)."""
    global _WarmUp
    if _WarmUp is None:
        from distributed import WorkerPlugin

        class WarmUp(WorkerPlugin):
            """Compile the strategy's kernels on a worker before its first chunk."""

            idempotent = True

            def __init__(self, name: str, params: dict, ignore_interrupt: bool):
                self.name, self.params = name, params
                self.ignore_interrupt = ignore_interrupt

            def setup(self, worker) -> None:
                if self.ignore_interrupt:
                    # a local cluster's worker writes to the search's terminal: its own log
                    # is not shown (chunks dropped at a stop: 'Async instruction ... ended
                    # with CancelledError' WARNINGs after the search said it dropped them)
                    for handler in logging.getLogger("distributed").handlers:
                        handler.addFilter(_AtLeast(logging.CRITICAL))
                if self.ignore_interrupt and threading.current_thread() is threading.main_thread():
                    # A local cluster shares the terminal: Ctrl-C is for the client to handle.
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    # and it ends with the client, even one that exits at once (a Ctrl-C
                    # while its kernels compile): orphaned, a worker logged tracebacks on the
                    # terminal until its nanny's timeout (issue 38)
                    from .local import die_with

                    die_with(os.getppid())
                from ..strategies import warm_up

                started = time.perf_counter()
                warm_up(self.name, self.params)
                log.info("warmed up %s in %.2f s", self.name, time.perf_counter() - started)

        WarmUp.__module__ = __name__
        WarmUp.__qualname__ = "WarmUp"
        _WarmUp = WarmUp
    return _WarmUp


_WarmUp = None


def __getattr__(attribute: str):
    if attribute == "WarmUp":  # lets workers unpickle the plugin by reference
        return _plugin_class()
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


class DaskPool:
    """The driver's ``protocol.Pool`` on a ``distributed.Client``.

    ``scheduler``: connect to that address (checked first with ``probe_scheduler``);
    ``local``: start a ``LocalCluster`` of ``local_workers`` processes (default: one per
    core) with one thread each, private to this run: it listens on 127.0.0.1 only, with TLS
    and a certificate made for the run (``private_security``), and no dashboard.
    """

    def __init__(self, name: str, params: dict, scheduler: str | None = None,
                 local: bool = False, local_workers: int | None = None,
                 in_flight: int | None = None, timeout: float = 30.0):
        require_dask()
        import dask
        from distributed import Client, LocalCluster

        from .processes import default_workers, quiet_resource_tracker, terminal_signals_ignored

        self.cluster = None
        security = None
        try:
            if local or scheduler is None:
                local_workers = local_workers or default_workers()
                enough_open_files(local_workers)
                security = private_security()
                quiet_resource_tracker()
                # Ctrl-C and a hang-up reach the whole group: stopping is the client's to do
                with terminal_signals_ignored(), dask.config.set(PRIVATE_HTTP):
                    self.cluster = LocalCluster(
                        n_workers=local_workers, threads_per_worker=1,
                        processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                        scheduler_kwargs={"dashboard": False}, security=security)
                scheduler = self.cluster.scheduler_address
            else:
                probe_scheduler(scheduler)
            self.client = Client(scheduler, timeout=timeout, set_as_default=False,
                                 security=security)
        except OSError as error:
            self._close_cluster()
            raise UserError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        except BaseException:
            self._close_cluster()
            raise
        self.address = scheduler
        self.notes: queue.SimpleQueue = queue.SimpleQueue()  # what the pool says on stderr
        self.quiet = contextlib.ExitStack()
        self.quiet.enter_context(client_errors_quiet())
        if self.cluster is not None:
            self.quiet.enter_context(handlers_filtered("distributed",
                                                       _LocalClusterLog(self.notes)))
        self.token = run_token(name, params)
        self.fixed = in_flight
        self._threads = 0
        self._checked = float("-inf")
        self.finished: queue.SimpleQueue = queue.SimpleQueue()
        try:  # the workers compile here: a Ctrl-C now closes what was started, quietly
            self.client.register_plugin(
                _plugin_class()(name, params, self.cluster is not None),
                name=f"beggar-search-warm-up-{kernels_token(name, params)}")
        except KeyboardInterrupt:
            self._stop_at_once()
            raise
        except BaseException:
            self.close()
            raise
        log.info("Dask cluster at %s: %d worker threads", scheduler, self.workers)

    @property
    def workers(self) -> int:
        """The in-flight limit is twice this: ``--workers``, or the cluster's threads now."""
        if self.fixed is not None:
            return self.fixed
        now = time.monotonic()
        if now - self._checked > REFRESH_SECONDS:
            self._threads = sum(self.client.nthreads().values())
            self._checked = now
        return max(1, self._threads)

    def submit(self, job: ChunkJob):
        """Send ``job`` to the cluster (tried up to ``RETRIES`` more times); its future is put
        on ``finished`` when done."""
        from ..strategies import execute

        future = self.client.submit(execute, job, key=chunk_key(self.token, job.chunk),
                                    pure=False, retries=RETRIES)
        future.add_done_callback(self.finished.put)
        return future

    def wait(self, futures: set, timeout: float) -> tuple[set, set]:
        """Chunks finished (or failed) among ``futures``, waiting up to ``timeout`` for one,
        and the rest; ``PoolLost`` when the scheduler is gone (it cancels the futures)."""
        self._say_notes()
        while not self.finished.empty():  # notices of chunks already answered
            self.finished.get_nowait()
        done = {future for future in futures if future.done()}
        if not done:
            try:
                self.finished.get(timeout=timeout)
            except queue.Empty:
                pass
            done = {future for future in futures if future.done()}
        if any(future.cancelled() for future in done):
            raise PoolLost(f"lost the Dask scheduler at {self.address}")
        return done, set(futures) - done

    def _say_notes(self) -> None:
        """Say on stderr what the cluster's log put on ``notes`` (a worker lost), one line
        each, above the progress bar."""
        from tqdm import tqdm

        while not self.notes.empty():
            with contextlib.suppress(OSError, ValueError):  # a terminal gone: nothing to say
                tqdm.write(self.notes.get_nowait(), file=sys.stderr)

    def close(self) -> None:
        """Close the client, and the local cluster if this pool started one."""
        try:
            self.client.close()
        finally:
            self._close_cluster()
            self.quiet.close()

    def _stop_at_once(self) -> None:
        """Close on a Ctrl-C while the workers start or compile: the local cluster's worker
        processes killed first (asked to close, one busy compiling logged heartbeat
        tracebacks on the terminal until its nanny killed it 4 s later), and what Dask and
        asyncio log of the connections so cut left unsaid (the command ends here)."""
        for nanny in getattr(self.cluster, "workers", {}).values():
            with contextlib.suppress(OSError, TypeError, AttributeError):
                os.kill(nanny.pid, signal.SIGKILL)
        for handler in logging.getLogger("distributed").handlers:
            handler.addFilter(_Below(logging.NOTSET))
        logging.getLogger("asyncio").setLevel(logging.CRITICAL + 1)
        self.close()

    def _close_cluster(self) -> None:
        if self.cluster is not None:
            # a worker slow to stop on a loaded machine is killed: that is how it ends, not news
            with quiet_log("distributed.nanny", logging.WARNING):
                self.cluster.close()
            self.cluster = None

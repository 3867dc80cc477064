"""Serving a written report on this machine only: ``http.server`` bound to 127.0.0.1,
its handler rooted at the site's folder (it answers nothing outside it)."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from ..errors import UserError

HOST = "127.0.0.1"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static file handler that logs nothing (the command says where it serves)."""

    def log_message(self, format, *args):
        """Say nothing per request."""


def make_server(folder: str | Path, port: int = 8000) -> http.server.ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1:``port`` (0: any free port), not yet serving."""
    handler = functools.partial(QuietHandler, directory=str(Path(folder).resolve()))
    return http.server.ThreadingHTTPServer((HOST, port), handler)


def bind(folder: str | Path, port: int) -> http.server.ThreadingHTTPServer:
    """``make_server``, before the site is written: a port that cannot be had is one line
    naming it (``UserError``), and nothing written."""
    try:
        return make_server(folder, port)
    except OSError as error:
        raise UserError(f"--port {port}: cannot serve on {HOST}:{port}:"
                        f" {error.strerror or error}") from None


def serve(server: http.server.ThreadingHTTPServer, folder: str | Path, say) -> None:
    """Serve ``folder`` with ``server`` (``bind``) until interrupted, saying its address
    through ``say``."""
    with server:
        say(f"serving {folder} at http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            say("stopped")

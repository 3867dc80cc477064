"""``beggar-search report``: write a results file as a static web site, and serve it."""

from __future__ import annotations

import click

from .. import compiling
from ..text import plural
from .common import RUN_ID, UserError, emit, json_option, open_store, say
from .options import db_option

INSTALL = "beggar-search report needs Jinja2: pip install 'beggar-search[report]'"


@click.command()
@db_option
@click.option("--run", "run_ids", type=RUN_ID, multiple=True,
              help="A run to show (repeat for more) [default: every run].")
@click.option("--out", type=click.Path(file_okay=False), required=True,
              help="Folder to write the site into: new, empty, or an earlier report.")
@click.option("--replays", type=click.IntRange(0, 10_000), default=25, show_default=True,
              help="Longest games of each run given a replay page.")
@click.option("--cycle-pages", type=click.IntRange(0, 1_000_000), default=200,
              show_default=True,
              help="Cycles of each run (most reached first) whose states and replay are"
                   " computed; every cycle has a page.")
@click.option("--serve", "serve_it", is_flag=True,
              help="Then serve the site on 127.0.0.1 until Ctrl-C.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="With --serve: the port (0: any free one).")
@json_option
def report(db_path, run_ids, out, replays, cycle_pages, serve_it, port, as_json):
    """Write a static web site of the results file into OUT: runs, leaderboard, loops, the
    cycle catalogue, a page per cycle, the family graph and replays.

    Open OUT/index.html in a browser (it works from the files, no server needed), or
    serve it with --serve.
    """
    try:
        import jinja2  # noqa: F401 - only whether it is there
    except ImportError:
        raise UserError(INSTALL) from None
    from ..report.data import ReportOptions
    from ..report.serve import bind, serve
    from ..report.site import write_site

    options = ReportOptions(replays=replays, cycle_pages=cycle_pages)
    # the port first: one taken is said before the site is written
    server = bind(out, port) if serve_it else None

    def write() -> dict:
        with open_store(db_path, create=False, writing=False) as store:
            return write_site(store, list(run_ids), out, options,
                              warn=lambda text: say(f"beggar-search: warning: {text}",
                                                    err=True),
                              db_path=db_path)

    # in a thread (``compiling.warm``, the store opened there: SQLite's objects stay in their
    # thread): its replays compile the game's tracer, and a Ctrl-C is answered at once
    try:
        written = compiling.warm(write)
    except BaseException:
        if server is not None:
            server.server_close()
        raise
    emit(written, as_json, f"wrote {written['files']} files ({written['bytes'] / 1e6:.1f} MB of"
                           f" data) for {plural(len(written['runs']), 'run')} to {out} in"
                           f" {written['seconds']:.1f} s; open {out}/index.html")
    if serve_it:
        serve(server, out, lambda text: say(f"beggar-search: {text}", err=True))

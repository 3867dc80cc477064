"""``beggar-search recover``: copy what is readable of a damaged results file into a new one."""

from __future__ import annotations

import click

from ..text import plural
from .common import UserError, emit, json_option
from .options import db_option

# what a row of each table is, in the summary line (``1 run``, ``2,576 histogram rows``)
ROW_NOUNS = {"runs": ("run", None), "chunks": ("chunk", None), "games": ("game", None),
             "cycles": ("cycle", None), "moves": ("move", None), "links": ("link", None),
             "histogram": ("histogram row", None)}


@click.command()
@db_option(help="The damaged results file (only read, never written).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The new results file to write; it must not exist.")
@json_option
def recover(db_path, out, as_json):
    """Copy every readable row of a damaged results file into a new results file.

    Rows on damaged pages are lost; everything else is kept.  A run that lost chunks is
    marked `damaged` (its totals still count them, so it cannot be resumed); the others
    can be shown, exported and resumed from the new file.
    """
    from ..outfile import check_output
    from ..store import StoreError
    from ..store.recover import recover as copy_readable

    check_output(out, (db_path,))  # never a database, nor a database's -wal or -shm
    try:
        recovery = copy_readable(db_path, out)
    except StoreError as error:
        raise UserError(str(error)) from None
    lost = sum(recovery.skipped.values())
    rows = ", ".join(plural(n, *ROW_NOUNS.get(t, (f"{t} row", None)))
                     for t, n in recovery.rows.items())
    text = (f"copied {rows} into {out};"
            f" {lost} unreadable stretch{'es' if lost != 1 else ''} skipped")
    if recovery.damaged_runs:
        text += ("; runs that lost chunks (marked damaged, not resumable): "
                 + ", ".join(map(str, recovery.damaged_runs)))
    emit({"out": out, "rows": recovery.rows, "unreadable_stretches": recovery.skipped,
          "damaged_runs": recovery.damaged_runs, "integrity": recovery.integrity}, as_json, text)

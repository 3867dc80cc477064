"""Writing the report: HTML pages from Jinja2 templates (autoescape on), the static CSS
and JavaScript, and the data as files of JSON.

Each data file is written twice: ``data/NAME.json`` for any reader, and ``data/NAME.js``,
``BS.put("NAME", ...)``, which the pages load with a script tag, so that the site works
opened as files (``file://``, where a browser refuses to fetch local files) as well as
served.  JSON that goes into a script has ``<``, ``>`` and ``&`` written as ``\\u003c``...,
so no value can close the script or open a tag.  The site is written into a new folder
beside ``out`` and moved into place whole or, when ``out`` is a folder already (empty, an
earlier report, a mount point; named through ``.`` or a symbolic link), into a folder
inside it whose files are then moved in; an ``out`` that holds anything but an earlier
report is refused.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
from importlib import resources
from pathlib import Path

from ..errors import UserError
from . import data as report_data
from .data import BUCKET_CYCLES, CYCLE_COLUMNS, GAME_COLUMNS, ReportOptions

MARKER = ".beggar-search-report"  # the file that says a folder holds a report
PAGES = ("index", "leaderboard", "loops", "cycles", "cycle", "family", "game")
STATIC = ("site.css", "site.js")
HISTOGRAM_BARS = 120
SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def script_json(value) -> str:
    """``value`` as JSON that is safe inside a script element: no ``</script>``, no ``<!--``
    (ASCII only, so no line separators either)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True).translate(SCRIPT_ESCAPES)


def environment():
    """The Jinja2 environment of the templates: autoescape on for every template."""
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("beggar_search.report", "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True)


class DataWriter:
    """Writes data files under ``data/`` and counts them."""

    def __init__(self, root: Path):
        self.root = root / "data"
        self.root.mkdir()
        self.files = 0
        self.bytes = 0

    def put(self, name: str, value) -> None:
        """Write ``value`` as ``data/NAME.json`` and ``data/NAME.js``."""
        text = script_json(value)
        (self.root / f"{name}.json").write_text(text, encoding="ascii")
        script = f"BS.put({json.dumps(name)},{text});\n"
        (self.root / f"{name}.js").write_text(script, encoding="ascii")
        self.files += 2
        self.bytes += len(text) + len(script)

    def table(self, name: str, rows: list, columns, chunk_rows: int) -> dict:
        """A table in chunks of ``chunk_rows`` rows (``NAME-0``, ``NAME-1``...)."""
        chunks = max(1, math.ceil(len(rows) / chunk_rows))
        for number in range(chunks):
            self.put(f"{name}-{number}", rows[number * chunk_rows:(number + 1) * chunk_rows])
        return {"columns": list(columns), "chunks": chunks, "rows": len(rows)}


def histogram_bars(histogram: list[tuple[int, int]], width: float = 600.0,
                   height: float = 160.0) -> dict:
    """A run's game lengths as at most HISTOGRAM_BARS bars of an SVG (counts on a log
    scale); each bar says its range and count."""
    if not histogram:
        return {"bars": [], "low": 0, "high": 0, "peak": 0}
    low, high = histogram[0][0], histogram[-1][0]
    step = max(1, math.ceil((high - low + 1) / HISTOGRAM_BARS))
    bins: dict[int, int] = {}
    for cards, count in histogram:
        bins[(cards - low) // step] = bins.get((cards - low) // step, 0) + count
    peak = max(bins.values())
    count_bins = (high - low) // step + 1
    bar = width / count_bins
    top = math.log10(peak + 1)
    bars = []
    for index, count in sorted(bins.items()):
        h = height * math.log10(count + 1) / top if top else height
        start = low + index * step
        bars.append({"x": round(index * bar, 2), "w": round(max(bar - 0.5, 0.5), 2),
                     "y": round(height - h, 2), "h": round(h, 2), "count": count,
                     "range": f"{start}" if step == 1 else f"{start}-{start + step - 1}"})
    return {"bars": bars, "low": low, "high": high, "peak": peak}


def check_out(out: Path, db_path) -> None:
    """Refuse an ``out`` that is a file, the results file, or a folder holding anything but
    an earlier report."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder")
    if db_path and Path(db_path).exists() and out.exists() and \
            Path(db_path).resolve().is_relative_to(out.resolve()):
        raise UserError(f"--out {out} holds the results file {db_path}: choose another folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise UserError(f"--out {out} is a folder that holds other files (not a report made"
                        " by beggar-search): choose a new or empty folder")
    if not out.parent.resolve().is_dir():
        raise UserError(f"--out {out}: folder {out.parent} does not exist")


def write_tables(writer: DataWriter, runs, options: ReportOptions) -> dict:
    """The leaderboard, the loops and the catalogue over every run, and each run's cycle
    details, states, replays and family; returns the manifest's part on them."""
    longest = sorted((row for run in runs for row in run.longest),
                     key=lambda row: (-row[2], row[0], row[1]))
    loops = [row for run in runs for row in run.loops]
    cycles = [row for run in runs for row in run.cycles]
    tables = {"longest": writer.table("longest", longest, GAME_COLUMNS, options.chunk_rows),
              "loops": writer.table("loops", loops, GAME_COLUMNS, options.chunk_rows),
              "cycles": writer.table("cycles", cycles, CYCLE_COLUMNS, options.chunk_rows)}
    per_run = {}
    for run in runs:
        number = run.info["run"]
        for index, (name, states) in enumerate(run.states.items()):
            writer.put(f"states-{number}-{index}", {"cycle": name, "states": states})
            run.details[name]["states_file"] = index
        buckets = max(1, math.ceil(len(run.details) / BUCKET_CYCLES))
        grouped = [{} for _ in range(buckets)]
        for name, detail in run.details.items():
            grouped[report_data.bucket_of(name, buckets)][name] = detail
        for index, group in enumerate(grouped):
            writer.put(f"cycle-{number}-{index}", group)
        for key, trace in run.traces.items():
            writer.put(f"trace-{key}", trace)
        family = run.family
        for index, group in enumerate(family["files"]):
            writer.put(f"island-{number}-{index}", group)
        writer.put(f"family-{number}", {key: family[key] for key in
                                        ("islands", "total", "left_out", "single")})
        per_run[str(number)] = {"buckets": buckets, "traces": len(run.traces),
                                "states": len(run.states), "islands": family["total"]}
    tables["per_run"] = per_run
    return tables


def write_site(store, run_ids, out, options: ReportOptions | None = None,
               warn=lambda text: None, db_path=None) -> dict:
    """Write the report of ``run_ids`` (all runs when empty) of ``store`` into folder ``out``;
    returns what was written (files, bytes, seconds, runs)."""
    started = time.perf_counter()
    options = options or ReportOptions()
    out = Path(out)
    check_out(out, db_path)
    env = environment()  # before any work: no Jinja2, one line
    runs = report_data.read_report(store, run_ids, options, warn)
    # ``.``, ``..`` and a symbolic link name the folder they lead to: it is the one written
    target = out.resolve()
    # a new site is written beside ``out`` and moved in whole; into a folder that is there,
    # it is written inside it and its files moved into place (the folder itself is kept)
    build = Path(tempfile.mkdtemp(prefix=f".{target.name}.",
                                  dir=target if target.is_dir() else target.parent))
    try:
        writer = DataWriter(build)
        tables = write_tables(writer, runs, options)
        manifest = {"runs": [{key: value for key, value in run.info.items()
                              if key not in ("histogram", "moves")} for run in runs],
                    "tables": tables, "source": Path(store.path).name,
                    "generated": report_data.when(time.time())}
        for run in runs:
            run.info["bars"] = histogram_bars(run.info["histogram"])
        static = build / "static"
        static.mkdir()
        for name in STATIC:
            (static / name).write_bytes(
                resources.files("beggar_search.report").joinpath("static", name).read_bytes())
        embedded = script_json(manifest)
        for page in PAGES:
            html = env.get_template(f"{page}.html").render(
                page=page, runs=[run.info for run in runs], manifest_json=embedded,
                source=manifest["source"], generated=manifest["generated"])
            (build / f"{page}.html").write_text(html, encoding="utf-8")
        (build / MARKER).write_text("a site written by beggar-search report\n")
        os.chmod(build, 0o755)
        replace_folder(build, target)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    return {"out": str(out), "runs": [run.info["run"] for run in runs],
            "files": writer.files + len(PAGES) + len(STATIC), "bytes": writer.bytes,
            "cycles": tables["cycles"]["rows"], "leaderboard_rows": tables["longest"]["rows"],
            "seconds": round(time.perf_counter() - started, 3)}


def replace_folder(build: Path, out: Path) -> None:
    """Put the site in folder ``build`` at ``out``: ``build`` renamed to it when ``out`` is
    not there; else (``build`` inside it) the files of an earlier report there moved aside
    and removed and ``build``'s moved in, so that ``out`` itself, a mount point or a folder
    with its own owner, mode or ACL, stays.  The marker stays and is replaced first: a
    folder left half written is still a report, which the next report replaces."""
    if not out.is_dir():
        build.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=".old-", dir=out))
    try:
        for entry in out.iterdir():
            if entry not in (build, old) and entry.name != MARKER:
                entry.rename(old / entry.name)
        for entry in sorted(build.iterdir(), key=lambda path: path.name != MARKER):
            entry.rename(out / entry.name)
        build.rmdir()
    finally:
        shutil.rmtree(old, ignore_errors=True)

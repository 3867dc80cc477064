"""Exports (``exports``, ``export``, ``beggar_search.results``): every writer of ``WRITERS``
writes the same rows, ``--json`` is ``--format jsonl``, and Python reads the rows the JSON
writers write.

The results file is the report's small one (``report_results``): run 1 a census of an
18-card deck, run 2 a factory run, run 3 a ratscrew random search."""

import csv
import io
import json

import pytest
from cli_harness import run

from beggar_search import results as library
from beggar_search.exports import EXPORTS, JSON_EXPORTS, WRITERS, Table

pytestmark = pytest.mark.xdist_group("report")  # one worker: conftest's report_results is made once

# (export's arguments, the library call that gives the same rows)
TABLES = [
    (["--run", "1", "--what", "longest"], lambda r: r.longest(run=1)),
    (["--run", "1", "--what", "loops"], lambda r: r.loops(run=1)),
    (["--run", "1", "--what", "histogram"], lambda r: r.histogram(run=1)),
    (["--run", "1", "--what", "longest", "--by-family"], lambda r: r.longest(1, by_family=True)),
    (["--run", "2", "--what", "cycles"], lambda r: r.cycles(run=2)),
    (["--run", "2", "--what", "cycles", "--fair-only"], lambda r: r.cycles(2, fair_only=True)),
    (["--run", "3", "--what", "longest"], lambda r: r.longest(run=3)),
]


def export(results, *args) -> str:
    done = run("export", "--db", results, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("args, rows", TABLES, ids=lambda x: " ".join(x) if isinstance(x, list)
                         else "")
def test_every_format_and_python_give_the_same_rows(report_results, args, rows):
    jsonl = [json.loads(line) for line in export(report_results, *args,
                                                 "--format", "jsonl").splitlines()]
    assert jsonl, "an empty table proves nothing"
    assert json.loads(export(report_results, *args, "--format", "json")) == jsonl
    assert export(report_results, *args, "--json") == export(
        report_results, *args, "--format", "jsonl")
    with library.open(report_results) as results:
        assert list(rows(results)) == jsonl
    table = next(iter(csv.DictReader(io.StringIO(export(report_results, *args)))))
    # the CSV's cells are the JSON's values as text (the cycles' flags and counts aside)
    first = jsonl[0]
    for key, cell in table.items():
        if isinstance(first[key], bool):
            assert cell == str(int(first[key])), key
        else:
            assert cell == ("" if first[key] is None else str(first[key])), key


def test_the_json_keys_are_the_documented_ones(report_results):
    """Same keys as ``--json`` always wrote: the CSV's columns, the cycles' counts named as
    in every other --json."""
    for what, run_id in (("longest", 1), ("cycles", 2), ("histogram", 1)):
        line = export(report_results, "--run", run_id, "--what", what,
                      "--format", "jsonl").splitlines()[0]
        assert list(json.loads(line)) == JSON_EXPORTS[what]
        header = export(report_results, "--run", run_id, "--what", what).splitlines()[0]
        assert header.split(",") == EXPORTS[what]


def test_an_empty_table_is_an_empty_json_list(tmp_path):
    """A writer given no rows still writes what its format calls empty."""
    out = io.StringIO()
    assert WRITERS["json"].write(out, iter(()), Table("longest")) == 0
    assert json.loads(out.getvalue()) == []
    out = io.StringIO()
    assert WRITERS["csv"].write(out, iter(()), Table("histogram")) == 0
    assert out.getvalue() == "cards,count\n"


def test_for_spreadsheet_is_an_option_of_the_csv_writer_only(report_results):
    plain = export(report_results, "--run", "1")
    kept = export(report_results, "--run", "1", "--for-spreadsheet")
    assert plain != kept and '"=""-' in kept  # deals that start with - are kept as text
    assert [name for name, writer in WRITERS.items() if writer.spreadsheet] == ["csv"]
    for args, said in ((["--format", "json"], "--format json"), (["--json"], "--json"),
                       (["--format", "jsonl"], "--format jsonl")):
        done = run("export", "--db", report_results, "--for-spreadsheet", *args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip().endswith(
            f"--for-spreadsheet makes CSV; {said} writes JSON: choose one")


def test_json_with_another_format_is_one_line(report_results):
    done = run("export", "--db", report_results, "--json", "--format", "csv")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--json is --format jsonl" in done.stderr


def test_a_file_written_says_what_it_holds(report_results, tmp_path):
    for name, said in (("json", "JSON objects"), ("jsonl", "JSON lines"), ("csv", "CSV rows")):
        out = tmp_path / f"out.{name}"
        done = run("export", "--db", report_results, "--run", "1", "--format", name,
                   "--out", out)
        assert done.returncode == 0 and said in done.stderr and out.stat().st_size > 0

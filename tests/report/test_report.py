"""``beggar-search report``: the site of a results file, its data, its replays, its safety,
its server.  The pages themselves in a browser: ``test_report_browser``."""

import json
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from cli_harness import command, run
from report_helpers import write_report

from beggar_search.cards.ranked import RankedDeal
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers_game, game
from beggar_search.report import replay
from beggar_search.report.serve import make_server
from beggar_search.report.site import MARKER, PAGES, script_json
from beggar_search.store import Store

# one worker: conftest's report_results and report_site are made once
pytestmark = pytest.mark.xdist_group("report")

HOSTILE = '</script><script>alert("x")</script><img src=x onerror=alert(1)>\'"&'


def data(folder, name):
    """A data file as the JSON file gives it, checked against its .js twin."""
    value = json.loads((folder / "data" / f"{name}.json").read_text())
    script = (folder / "data" / f"{name}.js").read_text()
    prefix = f"BS.put({json.dumps(name)},"
    assert script.startswith(prefix) and script.endswith(");\n")
    assert json.loads(script[len(prefix):-3]) == value
    return value


def table(folder, name):
    manifest = manifest_of(folder)
    spec = manifest["tables"][name]
    rows = [row for chunk in range(spec["chunks"]) for row in data(folder, f"{name}-{chunk}")]
    assert len(rows) == spec["rows"]
    return [dict(zip(spec["columns"], row, strict=True)) for row in rows]


def manifest_of(folder):
    """The manifest as the pages embed it (every page the same)."""
    embedded = set()
    for page in PAGES:
        html = (folder / f"{page}.html").read_text()
        found = re.findall(r'BS\.put\("manifest", (.*)\);</script>', html)
        assert len(found) == 1
        embedded.add(found[0])
    assert len(embedded) == 1
    return json.loads(embedded.pop())


def test_the_site_holds_every_run_board_and_cycle_of_the_file(report_results, report_site):
    out, written = report_site
    assert written["runs"] == [1, 2, 3]
    for page in PAGES:
        assert (out / f"{page}.html").is_file()
    assert (out / "static" / "site.js").is_file() and (out / "static" / "site.css").is_file()
    assert (out / MARKER).is_file()
    with Store(report_results, create=False, writing=False) as store:
        longest = {(run.id, g["deal"], g["cards"]) for run in store.runs()
                   for g in store.iter_games(run.id, "longest")}
        loops = [(run.id, g["deal"], g["cycle"]) for run in store.runs()
                 for g in store.iter_games(run.id, "loops")]
        cycles = {(run.id, c["cycle"], c["period_tricks"], c.get("fair_deals"))
                  for run in store.runs() for c in store.iter_cycles(run.id)}
    board = table(out, "longest")
    assert {(r["run"], r["deal"], r["cards"]) for r in board} == longest
    assert [r["cards"] for r in board] == sorted((r["cards"] for r in board), reverse=True)
    assert [(r["run"], r["deal"], r["cycle"]) for r in table(out, "loops")] == loops
    catalogue = table(out, "cycles")
    assert {(r["run"], r["cycle"], r["period_tricks"], r["fair_deals"])
            for r in catalogue} == cycles
    # the census's 12 loops in 2 cycles (the factory's board: the same 12 fair deals)
    assert len(cycles) == 4 and sum(run == 1 for run, *_ in loops) == 12
    manifest = manifest_of(out)
    assert [run["strategy"] for run in manifest["runs"]] == ["enumerate", "factory", "random"]
    assert manifest["runs"][2]["game"] == "ers"
    index = (out / "index.html").read_text()
    assert index.count('<svg class="histogram"') == 2  # the factory stores no game lengths
    # each run's work in its own unit: a factory's tries are not shown as deals
    row = {int(m[1]): m[2] for m in re.finditer(r'<tr id="run-(\d+)">(.*?)</tr>', index)}
    assert re.search(r'<td class="num">[\d,]+ tries</td>', row[2]), row[2]
    assert re.search(r'<td class="num">[\d,]+ deals</td>', row[1]), row[1]
    # the runs table wraps, and scrolls in its own box, rather than widening the page
    assert '<div class="wide">\n<table class="runs"' in index


def test_the_index_separates_thousands_in_the_wins(report_results, tmp_path, monkeypatch):
    from beggar_search.report import data as report_data

    run_info = report_data.run_info

    def big_wins(store, run):
        return {**run_info(store, run), "wins": [995664, 1004336]}

    monkeypatch.setattr(report_data, "run_info", big_wins)
    write_report(report_results, tmp_path / "s", "--run", "1")
    index = (tmp_path / "s" / "index.html").read_text()
    assert "Wins by player: 995,664 / 1,004,336." in index  # as the command line prints them


def test_a_cycle_page_has_its_states_its_deals_and_its_family(report_results, report_site):
    out, _ = report_site
    manifest = manifest_of(out)
    rows = [r for r in table(out, "cycles") if r["run"] == 1]
    buckets = manifest["tables"]["per_run"]["1"]["buckets"]
    loops = [r for r in table(out, "loops") if r["run"] == 1]
    for row in rows:
        name = row["cycle"]
        detail = data(out, f"cycle-1-{int(name[-6:], 16) % buckets}")[name]
        assert detail["deals"] == [r["deal"] for r in loops if r["cycle"] == name]
        states = data(out, f"states-1-{detail['states_file']}")
        truth = game.cycle_states(detail["example"], "plain=5,J=2,Q=1,K=1")
        assert [s["hands"] for s in states["states"]] == [
            ["".join("-JQKA"[c] for c in hand) for hand in hands] for hands, _ in truth]
        assert len(states["states"]) == row["period_tricks"]
        assert detail["replay"]  # its first deal is replayed
    factory = {r["cycle"]: r for r in table(out, "cycles") if r["run"] == 2}
    for row in factory.values():  # each cycle's mirror is in the catalogue, same island
        if row["mirror"] in factory:
            assert factory[row["mirror"]]["island"] == row["island"]
    family = data(out, "family-2")
    assert sum(size for _, size, *_ in family["islands"]) + family["single"] == len(factory)


def trace_lines(command):
    """What the page's copied command prints: ``play --trace --json``, one dict a trick."""
    words = shlex.split(command)
    assert words[:2] == ["beggar-search", "play"]
    done = run(*words[1:], "--json")
    assert done.returncode == 0, done.output
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    return lines[:-1], lines[-1]


def test_every_replay_is_the_game_its_play_command_prints(report_site):
    out, _ = report_site
    keys = sorted(p.stem[len("trace-"):] for p in (out / "data").glob("trace-*.json"))
    assert any(k.startswith("1-") for k in keys) and any(k.startswith("3-") for k in keys)
    for key in keys:
        trace = data(out, f"trace-{key}")
        tricks, result = trace_lines(trace["command"])
        assert trace["result"] == {key_: result[key_] for key_ in trace["result"]}
        assert len(trace["tricks"]) == len(tricks) == result["tricks"]
        for mine, theirs in zip(trace["tricks"], tricks, strict=True):
            assert mine["by"] == [p for p, _ in theirs["laid"]]
            assert mine["sizes"] == theirs["hand_sizes"] and mine["taker"] == theirs["taker"]
            assert mine["slapper"] == theirs.get("slapper", 0)
            assert mine["marks"] == theirs["marks"] and mine["total"] == theirs["cards"]
            assert [len(hand) for hand in mine["hands"]] == mine["sizes"]
    slapped = [t for key in keys if key.startswith("3-")
               for t in data(out, f"trace-{key}")["tricks"] if t["slapper"]]
    assert slapped  # ratscrew's replays show slaps


def test_a_ratscrew_replay_under_odds_shows_sizes_and_the_seeded_slaps():
    params = {"deck": "standard", "players": 2, "seed": 5, "game": "ers", "slap_rules": "pair",
              "slap_policy": "odds:0.5,0.5", "slap_in": True, "max_tricks": None}
    deal = "A7J57TTKA83T2574568733QAJK/K8Q26K498TJ24QQ59639A6249J"
    trace = replay.game_trace(params, deal)
    records, result = ers_game.trace(RankedDeal.parse(deal), SlapRules.from_params(params),
                                     max_tricks=replay.cap_of(params))
    assert [t["sizes"] for t in trace["tricks"]] == [r.hand_sizes for r in records]
    assert [t["slapper"] for t in trace["tricks"]] == [r.slapper for r in records]
    assert all(t["hands"] is None for t in trace["tricks"])
    assert "--seed 5" in trace["command"] and "--slap-policy odds:0.5,0.5" in trace["command"]
    assert trace["result"]["cards"] == result.cards


def tamper(path, statement, *values):
    with sqlite3.connect(path) as db:
        db.execute(statement, values)


def test_values_from_the_file_never_run_as_script(report_results, tmp_path):
    crafted = tmp_path / "<script>alert(1)<\u2028script>.sqlite"
    crafted.write_bytes(report_results.read_bytes())
    tamper(crafted, "UPDATE runs SET params = json_set(params, '$.note', ?,"
           " '$.\"<b>key</b>\"', ?) WHERE id = 2", HOSTILE, HOSTILE)
    out = tmp_path / "site"
    done = run("report", "--db", crafted, "--out", out)
    assert done.returncode == 0, done.output
    everything = "".join(p.read_text() for p in out.rglob("*") if p.is_file() and
                         p.suffix in (".html", ".js", ".json") and "static" not in p.parts)
    assert HOSTILE not in everything
    for raw in ("<script>alert", "</script><script>", "<img", "<b>key"):
        assert raw not in everything
    scripts = "".join(p.read_text() for p in (out / "data").glob("*.js")) + "".join(
        re.findall(r"<script>(.*?)</script>", (out / "index.html").read_text()))
    assert "\u2028" not in scripts  # a line separator inside a script's string
    index = (out / "index.html").read_text()
    assert "&lt;/script&gt;&lt;script&gt;alert(&#34;x&#34;)" in index  # shown, as text
    assert "&lt;b&gt;key&lt;/b&gt;" in index
    manifest = manifest_of(out)  # the JSON embedded in every page gives the values back
    assert manifest["runs"][1]["options"]["note"] == HOSTILE
    assert manifest["source"] == crafted.name
    # the scripts put values into the page as text only
    script = (out / "static" / "site.js").read_text()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script
    assert "document.write" not in script and "eval(" not in script


def test_script_json_closes_no_script():
    text = script_json({"a": "</script><!--", "b": "\u2028&"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!--", "b": "\u2028&"}


def one_line_failure(args):
    done = subprocess.run(command(*args), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    return done.stderr


MARKUP = "<script>alert(1)</script>"


@pytest.mark.parametrize(("statement", "value"), [  # as test_hostile_store crafts them
    ("UPDATE games SET deal = ? WHERE run_id = 1", MARKUP),
    ("UPDATE games SET cycle = ? WHERE run_id = 1 AND board = 'loops'", MARKUP),
    ("UPDATE cycles SET cycle = ? WHERE rowid = (SELECT min(rowid) FROM cycles)", MARKUP),
    ("UPDATE cycles SET move = ? WHERE run_id = 1", MARKUP),
    ("UPDATE runs SET status = ? WHERE id = 1", MARKUP),
    ("UPDATE runs SET params = json_set(params, '$.deck', ?) WHERE id = 1", MARKUP),
    ("UPDATE histogram SET count = ? WHERE run_id = 1", MARKUP),
    ("UPDATE runs SET status = ? WHERE id = 1", "\x1b]0;owned\x07\x1b[2J"),
])
def test_a_value_beggar_search_never_writes_leaves_its_run_out(report_results, tmp_path, statement,
                                                               value):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(report_results.read_bytes())
    tamper(bad, statement, value)
    done = run("report", "--db", bad, "--out", tmp_path / "s")
    assert done.returncode == 0, done.output
    assert "run 1" in done.stderr and "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert 1 not in [r["run"] for r in manifest_of(tmp_path / "s")["runs"]]
    everything = "".join(p.read_text() for p in (tmp_path / "s").rglob("*") if p.is_file())
    assert value not in everything and "\x1b" not in everything


def test_an_unreadable_run_is_left_out_and_a_named_one_refused(report_results, tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(report_results.read_bytes())
    tamper(bad, "UPDATE games SET deal = ? WHERE run_id = 1", HOSTILE)
    done = run("report", "--db", bad, "--out", tmp_path / "s")
    assert done.returncode == 0, done.output
    assert "run 1" in done.stderr and "left out" in done.stderr
    assert [r["run"] for r in manifest_of(tmp_path / "s")["runs"]] == [2, 3]
    message = one_line_failure(["report", "--db", str(bad), "--run", "1", "--out",
                                str(tmp_path / "t")])
    assert "run 1" in message and not (tmp_path / "t").exists()


def test_the_out_folder_must_be_new_empty_or_an_earlier_report(report_results, report_site,
                                                                tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("keep me")
    message = one_line_failure(["report", "--db", str(report_results), "--out", str(mine)])
    assert "other files" in message and (mine / "thesis.tex").read_text() == "keep me"
    assert "is a file" in one_line_failure(["report", "--db", str(report_results), "--out",
                                            str(mine / "thesis.tex")])
    again = tmp_path / "again"
    for _ in range(2):  # an earlier report is replaced whole
        done = run("report", "--db", report_results, "--run", "3", "--out", again)
        assert done.returncode == 0, done.output
        assert " for 1 run to " in done.stdout  # one run, not "1 runs"
    assert [r["run"] for r in manifest_of(again)["runs"]] == [3]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again", "mine"]  # no leftovers
    assert "no results file" in one_line_failure(["report", "--db", str(tmp_path / "none"),
                                                  "--out", str(tmp_path / "x")])


def test_without_jinja2_it_says_how_to_install_it(report_results, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    done = run("report", "--db", report_results, "--out", tmp_path / "s")
    assert done.returncode == 2
    err = done.stderr
    assert "pip install 'beggar-search[report]'" in err and len(err.strip().splitlines()) == 1


def test_the_server_binds_127_0_0_1_and_serves_only_the_site(report_site, tmp_path):
    out, _ = report_site
    (out.parent / "secret.txt").write_text("not for the web")
    server = make_server(out, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address
        assert host == "127.0.0.1"
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/index.html") as page:
            assert b"Runs" in page.read()
        with urllib.request.urlopen(f"{base}/data/longest-0.json") as page:
            assert json.loads(page.read())
        for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/data/../../secret.txt"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(base + path)
            assert refused.value.code == 404
            refused.value.close()
    finally:
        server.shutdown()
        server.server_close()


def test_report_help_names_its_options():
    done = run("report", "--help")
    assert done.returncode == 0
    for option in ("--db", "--run", "--out", "--serve", "--port", "--replays", "--cycle-pages"):
        assert option in done.stdout


def test_report_serve_answers_on_127_0_0_1_until_interrupted(report_results, tmp_path):
    out = tmp_path / "site"
    server = subprocess.Popen(command("report", "--db", report_results, "--run", "1", "--out",
                                      out, "--serve", "--port", "0"),
                              stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while "serving" not in line:
            line = server.stderr.readline()
            assert line, "the server stopped before serving"
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert address, line
        with urllib.request.urlopen(f"{address.group(0)}leaderboard.html") as page:
            assert b"Longest games" in page.read()
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
        server.wait()
        server.stderr.close()

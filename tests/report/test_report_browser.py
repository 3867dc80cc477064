"""The report's pages in a real browser: headless Chromium loads the site of a small results
file (a short census, a small factory run, a ratscrew run) from its files and from the
server, and the tests read the DOM it built: rows, links, the replay after N clicks of
"next" compared with ``play --trace``, the family graph, and a crafted file's values.

Chromium runs each page with ``--dump-dom`` (the page's scripts run first: the replay page
clicks its "next" button as often as the URL's ``clicks=N`` says).  Screenshots go to
``$BEGGAR_SEARCH_SCREENSHOTS`` when it names a folder (docs/images holds two of them).
"""

import json
import os
import shutil
import sqlite3
import subprocess
import threading
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cli_harness import run

from beggar_search import games
from beggar_search.cards.ranked import RANKS
from beggar_search.engine import ers_game, game
from beggar_search.report.replay import cap_of
from beggar_search.report.serve import make_server
from beggar_search.store import Store

# one worker: conftest's report_results and report_site are made once
pytestmark = pytest.mark.xdist_group("report")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install"
                                                          " chromium); CI installs it")]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--mute-audio"]


VOID = {"meta", "link", "input", "br", "img", "hr", "source", "wbr", "area", "base", "col"}


class Dom(HTMLParser):
    """What the tests read of a dumped DOM: each element with an id (its text), links, the
    rows of the table body, SVG anchors, and every tag name met."""

    def __init__(self, html: str):
        super().__init__()
        self.text, self.open, self.links, self.rows, self.tags = {}, [], [], 0, []
        self.title = ""
        self.columns, self.table = [], []  # the header's columns, the body's cells
        self.attrs_of, self.body = {}, {}
        self.in_rows = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "body":
            self.body = attrs
        if tag in VOID:  # no end tag comes
            if attrs.get("id"):
                self.attrs_of[attrs["id"]] = attrs
            return
        if attrs.get("id"):
            self.text[attrs["id"]] = ""
            self.attrs_of[attrs["id"]] = attrs
            self.open.append((tag, attrs["id"]))
        else:
            self.open.append((tag, None))
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs)
        if tag == "tbody" and attrs.get("id") == "rows":
            self.in_rows = True
        if tag == "tr" and self.in_rows:
            self.rows += 1
            self.table.append([])
        if tag == "td" and self.in_rows:
            self.table[-1].append("")
        if tag == "th" and attrs.get("data-column"):
            self.columns.append(attrs["data-column"])

    def handle_endtag(self, tag):
        while self.open:
            name, _ = self.open.pop()
            if name == tag:
                break
        if tag == "tbody":
            self.in_rows = False

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_data(self, data):
        if [tag for tag, _ in self.open] == ["html", "head", "title"]:  # the page's own
            self.title += data
        for _, ident in self.open:
            if ident:
                self.text[ident] += data
        if self.in_rows and "td" in [tag for tag, _ in self.open]:
            self.table[-1][-1] += data

    def cells(self, column: str) -> list[str]:
        """The text of one column of the table's body, row by row."""
        return [row[self.columns.index(column)] for row in self.table]


def chromium(*args, timeout=120):
    """Chromium's output for ``args``; a script error on the page fails the test."""
    done = subprocess.run([CHROMIUM, *FLAGS, "--enable-logging=stderr", "--v=0", *args],
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    errors = [line for line in done.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    assert not errors, errors
    return done.stdout


def dom(url: str, budget: int = 5000) -> Dom:
    return Dom(chromium(f"--virtual-time-budget={budget}", "--dump-dom", url))


def screenshot(url: str, name: str, tmp_path: Path, size="1400,1000") -> Path:
    folder = Path(os.environ.get("BEGGAR_SEARCH_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    chromium("--virtual-time-budget=5000", f"--window-size={size}",
             f"--screenshot={folder / name}", url)
    return folder / name


@pytest.fixture(scope="module")
def site(report_site):
    """The folder of the small results file's site (conftest.py)."""
    return report_site[0]


def data(out, name):
    return json.loads((out / "data" / f"{name}.json").read_text())


def url(out, page, fragment=""):
    return (out / f"{page}.html").as_uri() + (f"#{fragment}" if fragment else "")


def test_the_leaderboard_lists_every_run_sorted_and_filters_by_run(site, tmp_path):
    page = dom(url(site, "leaderboard"))
    rows = data(site, "longest-0")
    assert page.rows == len(rows) == 30  # 20 of the census, 10 of ratscrew
    assert f"of {len(rows)} matching" in page.text["table-status"]
    replays = [a["href"] for a in page.links if a["href"].startswith("game.html#key=")]
    assert len(replays) == 30  # every row shown has its replay (25 per run)
    by_tricks = dom(url(site, "leaderboard", "sort=tricks&order=up&run=1"))
    assert by_tricks.rows == 20
    tricks = [int(text.replace(",", "")) for text in by_tricks.cells("tricks")]
    assert tricks == sorted(r[3] for r in rows if r[0] == 1)
    only = dom(url(site, "leaderboard", "run=3"))
    assert only.rows == 10 and "of 10 matching" in only.text["table-status"]
    assert screenshot(url(site, "leaderboard"), "leaderboard.png", tmp_path).stat().st_size > 10_000


def test_the_catalogue_links_each_cycle_to_its_page(site, tmp_path):
    page = dom(url(site, "cycles"))
    assert page.rows == 4
    cycles = {a["href"] for a in page.links if a["href"].startswith("cycle.html#run=")}
    assert len(cycles) >= 4
    target = next(href for href in sorted(cycles) if href.startswith("cycle.html#run=1&"))
    cycle = dom((site / target.split("#")[0]).as_uri() + "#" + target.split("#")[1])
    name = target.rsplit("=", 1)[1]
    assert cycle.text["cycle-id"] == name
    assert "6 tricks" in cycle.text["figures"]  # TINY's two cycles: period 6 tricks
    assert cycle.text["state-table"].count("/") >= 6 and "size-plot" in cycle.attrs_of
    assert "deals" in cycle.attrs_of and "replay-link" in cycle.attrs_of
    factory = dom(url(site, "cycle", f"run=2&cycle={name}"))  # with a mirror, an in-tree
    assert factory.text["cycle-id"] == name and "in-tree" in factory.text["figures"]
    assert any(a["href"].startswith("family.html#run=2&island=") for a in factory.links)
    shot = screenshot(url(site, "cycle", f"run=2&cycle={name}"), "cycle.png", tmp_path,
                      "1200,1100")
    assert shot.stat().st_size > 60_000  # the page, not "Loading the cycle..."


@pytest.mark.parametrize("key", ["1-1", "3-2"])
def test_the_replay_after_n_clicks_is_the_state_play_trace_gives(site, report_results, key,
                                                                 tmp_path):
    trace = data(site, f"trace-{key}")
    with Store(report_results, create=False, writing=False) as store:
        params = store.run(trace["run"]).params
    slaps, cap = getattr(games.of(params), "slap_rules", None), cap_of(params)  # ratscrew's
    if slaps is None:
        records, _ = game.trace(trace["deal"], params["deck"], max_tricks=cap)
        states = game.trajectory(game.as_deal(trace["deal"], params["deck"]).hands, 0, cap)
        letters = "-JQKA"
    else:
        deal = ers_game.as_ranked_deal(trace["deal"], params["deck"])
        records, _ = ers_game.trace(deal, slaps, max_tricks=cap)
        states = ers_game.trajectory(deal.hands, 0, slaps, cap)
        letters = RANKS
    total = len(records)
    for clicks in sorted({0, 1, 5, total // 2, total, total + 3}):
        page = dom(url(site, "game", f"key={key}&clicks={clicks}"))
        step = min(clicks, total)
        hands = states[step][0]
        for player, hand in enumerate(hands, start=1):
            assert page.text[f"hand-{player}"] == "".join(letters[c] for c in hand)
        sizes = records[step - 1].hand_sizes if step else [len(h) for h in hands]
        assert page.text["sizes"] == "hand sizes " + "/".join(map(str, sizes))
        if step:
            record = records[step - 1]
            taker = page.text["taker"]
            if getattr(record, "slapper", 0):
                assert taker.startswith(f"SLAP: player {record.slapper}")
            else:
                assert taker.startswith(f"player {record.taker} takes the pile of"
                                        f" {len(record.laid)} cards")
            assert page.text["step"] == f"after trick {step} of {total}"
    if key == "3-2":  # the first slap
        slap = next(r.number for r in records if r.slapper)
        page = dom(url(site, "game", f"key={key}&clicks={slap}"))
        assert page.text["taker"].startswith("SLAP: player")
        screenshot(url(site, "game", f"key={key}&clicks={slap}"), "replay.png", tmp_path,
                   "1200,700")


def test_the_family_graph_opens_an_island_into_its_cycles(site):
    family = data(site, "family-2")
    page = dom(url(site, "family", "run=2"))
    assert page.text["family-run"] == ("run 1 (enumerate, 2 cycles)run 2 (factory, 2 cycles)"
                                       "run 3 (random, 0 cycles)")
    islands = [a for a in page.links if "data-island" in a]
    assert len(islands) == len(family["islands"]) >= 1
    number = family["islands"][0][0]
    opened = dom(url(site, "family", f"run=2&island={number}"))
    nodes = [a for a in opened.links if "data-cycle" in a]
    assert len(nodes) == family["islands"][0][1]
    assert all(a["href"] == f"cycle.html#run=2&cycle={a['data-cycle']}" for a in nodes)


def test_the_served_site_loads_its_data_with_fetch(site):
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert dom(f"{base}/cycles.html").rows == 4
        replay = dom(f"{base}/game.html#key=1-1&clicks=2")
        assert replay.text["step"].startswith("after trick 2 of")
    finally:
        server.shutdown()
        server.server_close()


def test_a_crafted_file_puts_no_element_into_the_page(report_results, tmp_path):
    crafted = tmp_path / "crafted.sqlite"
    crafted.write_bytes(report_results.read_bytes())
    value = ('</script><img id="pwned" src=x onerror="document.title=\'pwned\'">'
             '<script>document.title="pwned"</script>')
    with sqlite3.connect(crafted) as db:
        db.execute("UPDATE runs SET params = json_set(params, '$.note', ?) WHERE id = 1",
                   (value,))
    out = tmp_path / "site"
    done = run("report", "--db", crafted, "--out", out)
    assert done.returncode == 0, done.output
    for page in ("index", "leaderboard", "cycles", "family"):
        seen = dom(url(out, page))
        assert "img" not in seen.tags and "pwned" not in seen.attrs_of
        assert seen.title.endswith("beggar-search report") and "pwned" not in seen.title
    assert value in dom(url(out, "index")).text["run-detail-1"]  # shown as text

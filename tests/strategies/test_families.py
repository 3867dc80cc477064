"""Merge families of long games: the family key, the climber's families, storing and listing them.

The oracle is ``tests/naive.py``: every game is replayed trick by trick there, and a
family's members must pass through the last state before the end that names it.
"""

import json
import os
import signal
import sqlite3
import subprocess

import pytest
from cli_harness import command, run
from naive import play_naive, trick_naive
from storeview import stored

from beggar_search import Deal, Deck, driver, games
from beggar_search.engine import rules
from beggar_search.engine.merging import family_of, merge_point, state_name
from beggar_search.store import Store
from beggar_search.strategies import ChunkJob, execute
from beggar_search.strategies.climb import ClimbStrategy

DECK = "plain=12,J=3,Q=3,K=2"  # 20 cards: the benchmark's, long families, quick closures


def naive_trajectory(hands, leader=0):
    """Every trick-boundary state of a terminating game by the naive oracle, the end included."""
    states = [([list(h) for h in hands], leader)]
    while True:
        hands, leader, _, winner, over = trick_naive(hands, leader)
        states.append((hands, winner if over else leader))
        if over:
            return states


def climb_params(**extra):
    base = {"deck": DECK, "players": 2, "seed": 3, "top_k": 60, "max_tricks": None,
            "chunk_size": 4000, "hours": None, "deals": 8000, "extend": 3,
            "closure_states": 20_000}
    return ClimbStrategy.prepare({**base, **extra})


@pytest.fixture(scope="module")
def chunk():
    """One climber chunk: its board and its families."""
    params = climb_params()
    summary = execute(ChunkJob("climb", 0, 4000, params))
    deck = Deck.parse(DECK)
    deals = [Deal.from_sequence(d, 2, deck) for d in summary.top_deals]
    return summary, deals


def test_family_is_the_last_state_before_the_end(chunk):
    summary, deals = chunk
    for deal, family in zip(deals[:20], summary.top_families[:20], strict=True):
        states = naive_trajectory(deal.hands)
        hands, leader = states[-2]
        assert sum(1 for h in hands if h) == 2 and sum(1 for h in states[-1][0] if h) == 1
        assert family.family == state_name(rules.State.from_hands(hands, leader))
        assert family.mirror == state_name(rules.State.from_hands(hands[::-1], 1 - leader))
        assert family_of(deal.hands, games.BMN) == family


def test_every_game_on_the_board_replays_to_its_length(chunk):
    summary, deals = chunk
    assert summary.top_positions[0] >= 4000  # the longest came from the extension
    for deal, row in zip(deals, summary.top_rows, strict=True):
        result = play_naive([list(h) for h in deal.hands])
        assert result["outcome"] == "win"
        assert (result["cards"], result["tricks"]) == (row[1], row[2])


def test_a_family_is_fair_merges_and_its_mirror_has_equal_lengths(chunk):
    summary, deals = chunk
    groups = {}
    for deal, row, family in zip(deals, summary.top_rows, summary.top_families, strict=True):
        groups.setdefault(family.family, []).append((deal, int(row[1]), family))
    assert max(len(g) for g in groups.values()) >= 5  # the extension finds whole families
    assert any(family.mirror in groups for g in groups.values() for _, _, family in g[:1])
    for members in groups.values():
        best_deal, best_cards, _ = members[0]
        trunk = naive_trajectory(best_deal.hands)
        for deal, cards, family in members:
            assert deal.players == 2 and tuple(map(len, deal.hands)) == (10, 10)  # fair
            own = naive_trajectory(deal.hands)
            where = merge_point(own, trunk)
            assert where is not None and cards <= best_cards
            # a game is its own tricks up to the merge, then the trunk's from there
            laid = sum(trick_naive(h, lead)[2] for h, lead in own[:where.tricks])
            trunk_left = sum(trick_naive(h, lead)[2] for h, lead in trunk[where.trunk_tricks:-1])
            assert laid + trunk_left == cards
            # the mirror (hands swapped, player 2 to lead) plays as many cards
            mirrored = play_naive([list(h) for h in deal.hands[::-1]], 1)
            assert mirrored["cards"] == cards
            assert family_of(deal.hands, games.BMN).mirror == family.mirror


def test_mirrors_and_own_states_are_read_and_older_runs_keep_their_deals():
    new = execute(ChunkJob("climb", 0, 4000, climb_params()))
    old = execute(ChunkJob("climb", 0, 4000, climb_params(mirrors=False, own_states=False,
                                                          distinct_families=False)))
    assert new.deals > old.deals > 4000  # the mirrors and the parent's own later deals added
    assert new.top_rows[0, 1] >= old.top_rows[0, 1]
    unprepared = {**climb_params()}
    for key in ("mirrors", "own_states", "distinct_families"):  # a run stored before: as `old`
        del unprepared[key]
    before = execute(ChunkJob("climb", 0, 4000, unprepared))
    assert before.deals == old.deals and (before.top_deals == old.top_deals).all()


def test_families_are_stored_shown_exported_and_read_from_older_files(tmp_path):
    path = tmp_path / "f.sqlite"
    with Store(path) as store:
        driver.start(store, "climb", climb_params(), 1, quiet=True)
    games = stored(path)["longest"]
    assert all(len(g["family"]) == 16 for g in games)
    shown = run("show", "--db", path, "--by-family", "--json", "--top", "5")
    assert shown.returncode == 0, shown.output
    listed = json.loads(shown.stdout)["families"]
    assert len(listed) == 5 and len({f["family"] for f in listed}) == 5
    assert [f["cards"] for f in listed] == sorted((f["cards"] for f in listed), reverse=True)
    sizes = {}
    for game in games:
        sizes[game["family"]] = sizes.get(game["family"], 0) + 1
    for family in listed:
        assert family["members"] == sizes[family["family"]]
        assert family["mirror_members"] == sizes.get(family["mirror_family"], 0)
        best = max(g["cards"] for g in games if g["family"] == family["family"])
        assert family["cards"] == best
    exported = run("export", "--db", path, "--by-family", "--json")
    rows = [json.loads(line) for line in exported.stdout.splitlines()]
    assert exported.returncode == 0 and len(rows) == len(sizes)
    assert sum(r["members"] for r in rows) == len(games)
    plain = run("export", "--db", path, "--json")
    assert [json.loads(line)["family"] for line in plain.stdout.splitlines()] == [
        g["family"] for g in games]
    refused = run("export", "--db", path, "--what", "loops", "--by-family")
    assert refused.returncode == 2 and "--by-family goes with" in refused.stderr
    # a file of results format 2 (no families): readable, its families computed when listed
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games DROP COLUMN family")
        db.execute("PRAGMA user_version=2")
    again = run("show", "--db", path, "--by-family", "--json", "--top", "5")
    assert again.returncode == 0, again.output
    assert json.loads(again.stdout)["families"] == listed
    pytest.importorskip("matplotlib")
    drawn = run("plot", "families", "--db", path, "--json", "--out",
                tmp_path / "families.png")
    assert drawn.returncode == 0, drawn.output
    picture = json.loads(drawn.stdout)
    assert picture["family_count"] == len(sizes)
    assert picture["best"][0]["cards"] == games[0]["cards"]
    assert all(g["family"] is None for g in stored(path)["longest"])  # older games: NULL


@pytest.mark.slow
def test_climber_killed_and_resumed_equals_uninterrupted(tmp_path):
    args = ["search", "climb", "--deck", DECK, "--deals", "48000", "--chunk-size", "4000",
            "--extend", "3", "--closure-states", "20000", "--seed", "4", "--top", "60",
            "--quiet", "--json"]
    full, cut = tmp_path / "full.sqlite", tmp_path / "cut.sqlite"
    subprocess.run(command(*args, "--workers", "1", "--db", full), check=True,
                   capture_output=True, timeout=600)
    process = subprocess.Popen(command(*args, "--workers", "2", "--db", cut),
                               start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)

    def chunks():
        try:
            with sqlite3.connect(cut, timeout=5) as db:
                return db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        except sqlite3.Error:
            return 0

    while chunks() < 2 and process.poll() is None:
        subprocess.run(["sleep", "0.05"])
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    assert 2 <= len(stored(cut)["chunks"]) < 12
    subprocess.run(command("search", "resume", "--db", cut, "--quiet"), check=True,
                   capture_output=True, timeout=600)
    one, two = stored(full), stored(cut)
    one["summary"].pop("version")
    two["summary"].pop("version")
    assert one == two and all(g["family"] for g in one["longest"])


def test_parents_are_of_distinct_families():
    """The climber extends the longest deals of distinct families, a mirror pair as one."""
    from beggar_search.engine import batch
    from beggar_search.engine.batch import new_recorder
    from beggar_search.engine.random import chunk_stream
    from beggar_search.strategies import strategy_for

    small = "plain=6,J=2,Q=2,K=1,A=1"  # 12 cards: the longest random games share families
    params = climb_params(extend=6, deck=small)
    strategy = strategy_for("climb", params)
    recorder = strategy.engine.random_chunk(chunk_stream(1, 0), 4000, new_recorder(60, 12))
    _, rows, deals = batch.leaderboard(recorder)
    board = games.BMN.families(deals, rows, Deck.parse(small).split(2))
    place = {bytes(d): i for i, d in enumerate(deals)}
    chosen = [place[bytes(d)] for d in strategy._parents(rows, deals)]
    assert len(chosen) == 6 and chosen == sorted(chosen) and chosen != list(range(6))
    kept = set()
    for i in range(chosen[-1] + 1):  # each deal skipped is of a family (or mirror) chosen
        assert (i in chosen) == (board[i].family not in kept)
        if i in chosen:
            kept |= {board[i].family, board[i].mirror}
    plain = strategy_for("climb", {**params, "distinct_families": False})._parents(rows, deals)
    assert [place[bytes(d)] for d in plain] == list(range(6))

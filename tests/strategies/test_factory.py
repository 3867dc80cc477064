"""The loop factory: a closure over cycles, its catalogue, determinism, resume, bad input."""

import itertools
import json
import math
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from cli_harness import run

from beggar_search import Deal, Deck, driver, play
from beggar_search.store import Store
from beggar_search.store.cycle_families import islands
from beggar_search.store.results import SCHEMA_VERSION
from beggar_search.strategies import PENDING, FactoryStrategy, execute
from beggar_search.strategies import factory as factory_module
from beggar_search.strategies.factory import start_node
from beggar_search.text import plural, short
from beggar_search.tunables import (
    GROW_CHUNKS,
    GROW_STAGE,
    KICK_CHUNKS,
    PAD_WANT,
    SEED_CHUNK_FAIR,
    SEED_CHUNK_TRIES,
    SEED_PATIENCE,
)

TINY = "plain=5,J=2,Q=1,K=1"
EIGHT = "plain=8,J=2,Q=2,K=2,A=2"
EIGHT_LOOP = "---A-J--/JQ-K-KQA"  # a looping deal of EIGHT (from its census)
SEEDED = ("random state", "random fair deal")  # how seeding rounds' cycles were met


def factory_params(deck, starts=(), seed_chunks=0, chunk=3000, players=2, **more):
    return FactoryStrategy.prepare({
        "deck": deck, "players": players, "seed": 7, "top_k": 0, "max_tricks": None,
        "chunk_size": chunk, "hours": None, "starts": list(starts), "seed_chunks": seed_chunks,
        "kicks": [], **more})


def brute_force(spec, players=2):
    """Every fair looping deal of a deck, by cycle."""
    deck = Deck.parse(spec)
    reaching = {}
    for sequence in set(itertools.permutations(deck.sorted_cards().tolist())):
        deal = Deal.from_sequence(sequence, players, deck)
        result = play(deal)
        if result.outcome == "loop":
            reaching.setdefault(result.cycle, set()).add(str(deal))
    return reaching


def catalogue(store, run_id):
    fields = ("cycle", "state", "generation", "parent", "move", "mirror", "fair_deals",
              "fair_deals_swapped", "reach_states", "reach_depth", "deals")
    return sorted(tuple(c[f] for f in fields) for c in store.cycles(run_id))


@pytest.mark.slow  # among the slowest of the suite (issue 26: 72-482 s each)
def test_from_nothing_every_fair_cycle_with_all_its_deals(tmp_path):
    truth = brute_force(TINY)
    with Store(tmp_path / "f.sqlite") as store:
        summary = driver.start(store, "factory", factory_params(TINY, seed_chunks=1), 1,
                               quiet=True)
        rows = {c["cycle"]: c for c in store.cycles(summary["run"])}
        loops = store.games(summary["run"], "loops")
        assert store.run(summary["run"]).status == "done"
    stored = {}
    for game in loops:
        stored.setdefault(game["cycle"], set()).add(game["deal"])
    assert stored == truth
    for cycle, row in rows.items():  # the catalogue is complete and consistent
        assert row["reach_complete"] == 1 and row["deals"] == row["fair_deals"]
        assert row["fair_deals"] == len(truth.get(cycle, ()))
        assert rows[row["mirror"]]["mirror"] == cycle
        if Deck.parse(TINY).size % 2 == 0:
            assert rows[row["mirror"]]["fair_deals_swapped"] == row["fair_deals"]
        if row["generation"]:
            assert rows[row["parent"]]["generation"] == row["generation"] - 1


@pytest.mark.slow  # among the slowest of the suite (issue 26: 72-482 s each)
def test_three_players_every_fair_deal_of_every_cycle_and_renamed_copy(tmp_path):
    spec = "plain=6,J=2,Q=1,K=1"
    truth = brute_force(spec, players=3)
    with Store(tmp_path / "t.sqlite") as store:
        summary = driver.start(store, "factory", factory_params(spec, seed_chunks=1, players=3),
                               1, quiet=True)
        rows = store.cycles(summary["run"])
        loops = store.games(summary["run"], "loops")
    stored = {}
    for game in loops:
        stored.setdefault(game["cycle"], set()).add(game["deal"])
    assert truth and all(stored.get(c) == deals for c, deals in truth.items() if c in stored)
    assert set(truth) <= {row["cycle"] for row in rows}
    for row in rows:
        assert row["deals"] == row["fair_deals"] == len(truth.get(row["cycle"], ()))


def stopped_and_resumed(store, params, chunks: int = 3) -> dict:
    """A factory run whose first ``chunks`` chunks are stored one by one, as if it had then
    been stopped, and that ``search resume`` then completes; its summary."""
    run = store.create_run("factory", params, "test")
    strategy = driver.strategy_for("factory", params)
    strategy.attach(store, run)
    plan = strategy.plan(set())
    for _ in range(chunks):
        job = next(plan)
        while job is PENDING:
            job = next(plan)
        store.add_chunk(run, strategy.record(job, execute(job)), 0, 1.0)
    return driver.resume(store, run.id, 1, quiet=True)


@pytest.mark.slow  # the small twin below runs by default
@pytest.mark.parametrize("kicks", [False, True])
def test_runs_are_deterministic_resumable_and_worker_independent(tmp_path, kicks, small=False):
    """The same catalogue on 1 and 2 workers, and after a stop and a resume: the walk
    alone, and with kick rounds (each drawing from its chunks' streams, planned once the
    round before is stored)."""
    tries, rounds = (500, 2) if small else (20_000, 3)
    more = (dict(moves=["leader"], kicks=["swaps", "mixed"], kick_tries=tries, kick_rounds=rounds,
                 kick_every=1, chunk=5) if kicks else {"chunk": 20000})  # 5: kicks within
    params = factory_params(EIGHT, starts=[EIGHT_LOOP], **more)
    with Store(tmp_path / "a.sqlite") as store:
        one = driver.start(store, "factory", params, 1, quiet=True)
        whole = catalogue(store, one["run"])
        moves = store.move_stats(one["run"])
        kick_chunks = store.db.execute("SELECT count(*) FROM chunks WHERE run_id = ? AND"
                                       " deals = ?", (one["run"], tries)).fetchone()[0]
    assert sum(m["tries"] for m in moves) == one["deals"]
    if kicks:
        assert one["status"] == "done" and any(row[4] and "kick" in row[4] for row in whole)
        assert kick_chunks > 3 * KICK_CHUNKS  # some within a generation
    if small or not kicks:
        assert one["cycles"] > 2 and any(row[2] == 2 for row in whole)  # two generations
    with Store(tmp_path / "b.sqlite") as store:
        two = driver.start(store, "factory", params, 2, quiet=True)
        assert catalogue(store, two["run"]) == whole
    with Store(tmp_path / "c.sqlite") as store:  # stopped after a few chunks, then resumed
        resumed = stopped_and_resumed(store, params)
        assert catalogue(store, resumed["run"]) == whole
    assert resumed["deals"] == one["deals"] and resumed["loops"] == one["loops"]
    # how far in tries: counted in the order of chunks, whatever the workers or a stop
    in_tries = ("first_cycle_tries", "last_cycle_tries", "tries_since_new_cycle",
                "seeding_tries", "walking_tries", "kicking_tries")
    assert one["first_cycle_tries"] is None and one["seeding_tries"] == 0  # from a start
    assert [one[k] for k in in_tries] == [two[k] for k in in_tries] == [
        resumed[k] for k in in_tries]
    assert one["kicking_tries"] == (kick_chunks * tries if kicks else 0)


def test_runs_are_deterministic_resumable_and_worker_independent_small(tmp_path):
    """The twin of the above at 1/40 of the kick tries and two kick rounds, which still
    reach two generations (184 cycles, 83 kick chunks): 1 and 2 workers and resumed agree
    (about 9 CPU s, not 190)."""
    test_runs_are_deterministic_resumable_and_worker_independent(tmp_path, True, small=True)


def test_grow_seeding_in_pieces_is_resumable_and_worker_independent(tmp_path):
    """Skeleton and pad played as pieces of a few thousand pad tries (stored one by one):
    the same catalogue and tries on 1 and 2 workers and after a stop and a resume; every
    piece within its size (but piece 0, which also grows the skeleton); the first round
    ends with the stage that met a cycle, and the next goes on with the same lineages."""
    params = factory_params("plain=10,J=3,Q=3,K=3", seed_chunks=1, seeding="grow",
                            grow_tries=4_000, grow_budget=30_000, grow_small_tries=1 << 17,
                            moves=["leader"], seed_rounds=2)
    with Store(tmp_path / "a.sqlite") as store:
        one = driver.start(store, "factory", params, 1, quiet=True)
        whole = catalogue(store, one["run"])
        chunks = store.chunk_tries(one["run"])
    assert any(row[4] == "grown" for row in whole)
    stage = 2 * GROW_STAGE  # chunks 0 and 1 also grow their skeletons
    assert 0 < max(tries for _, tries in chunks[2:stage]) < 4_000 + 1_000
    with Store(tmp_path / "b.sqlite") as store:
        two = driver.start(store, "factory", params, 2, quiet=True)
        assert catalogue(store, two["run"]) == whole
    with Store(tmp_path / "c.sqlite") as store:
        resumed = stopped_and_resumed(store, params, chunks=5)
        assert catalogue(store, resumed["run"]) == whole
    in_tries = ("deals", "loops", "first_cycle_tries", "last_cycle_tries",
                "tries_since_new_cycle", "seeding_tries", "walking_tries")
    assert [one[k] for k in in_tries] == [two[k] for k in in_tries] == [
        resumed[k] for k in in_tries]
    assert one["first_cycle_tries"] <= sum(tries for _, tries in
                                           chunks[:2 * GROW_STAGE])


def test_grow_pieces_are_planned_by_stages_and_older_runs_keep_whole_chunks(tmp_path):
    """A grow round's first stage: ``GROW_STAGE`` pieces of each of its ``GROW_CHUNKS``
    lineages, piece by piece; a run from before pieces (no ``grow_tries``) plans its round
    as ``GROW_CHUNKS`` whole chunks, as it began."""
    def first_stage(params):
        with Store(tmp_path / f"s{len(params)}.sqlite") as store:
            run = store.create_run("factory", params, "test")
            strategy = driver.strategy_for("factory", params)
            strategy.attach(store, run)
            return list(itertools.takewhile(lambda job: job is not PENDING,
                                            strategy.plan(set())))

    params = factory_params("plain=10,J=3,Q=3,K=3", seed_chunks=1, seeding="grow")
    jobs = first_stage(params)
    assert [(job.chunk, job.work["lineage"], job.work["piece"]) for job in jobs] == [
        (k, k % GROW_CHUNKS, k // GROW_CHUNKS)
        for k in range(GROW_STAGE * GROW_CHUNKS)]
    assert all(job.deals == params["grow_tries"] for job in jobs)
    older = {k: v for k, v in params.items() if k not in ("grow_tries", "grow_budget")}
    jobs = first_stage(older)
    assert [job.chunk for job in jobs] == list(range(GROW_CHUNKS))
    assert not any("lineage" in job.work for job in jobs)


def test_kick_chunks_come_after_every_kick_every_walk_chunks(tmp_path, monkeypatch):
    """A generation of many walk chunks has a kick chunk after every ``kick_every`` of them
    (not after the last), kinds in turn, each kicking at most ``KICK_STATES`` states drawn
    from the run's seed and the chunk number: planned the same way twice."""
    monkeypatch.setattr(factory_module, "KICK_STATES", 5)
    params = factory_params(EIGHT, starts=[EIGHT_LOOP], chunk=200, moves=["swap"],
                            kicks=["swaps", "mixed"], kick_tries=4000, kick_every=3)

    def first_generation():
        with Store(tmp_path / "p.sqlite") as store:
            run = store.create_run("factory", params, "test")
            strategy = driver.strategy_for("factory", params)
            strategy.attach(store, run)
            return list(itertools.takewhile(lambda job: job is not PENDING,
                                            strategy.plan(set())))

    jobs = first_generation()
    phases = "".join("k" if job.work["phase"] == "kick" else "w" for job in jobs)
    walks = phases.count("w")
    assert walks > 6 and phases == "".join(
        "w" + ("k" if (k + 1) % 3 == 0 and k + 1 < walks else "") for k in range(walks))
    assert [job.chunk for job in jobs] == list(range(len(jobs)))
    kicks = [job for job in jobs if job.work["phase"] == "kick"]
    assert [job.work["kick"] for job in kicks] == ["swaps", "mixed"] * (len(kicks) // 2) + (
        ["swaps"] if len(kicks) % 2 else [])
    assert all(len(job.work["items"]) == 5 and job.work["generation"] == 1 for job in kicks)
    assert kicks[0].work["items"] != kicks[1].work["items"]  # each chunk its own sample
    again = [job.work for job in first_generation() if job.work["phase"] == "kick"]
    assert again == [job.work for job in kicks]


@pytest.mark.slow  # the twin below, without the 2-worker run, runs by default
def test_seeding_rounds_reach_islands_that_moves_do_not_join(tmp_path, two_workers=True):
    """With leader changes as the only move, nearly every cycle is an island of its own:
    one seeding round (128 cycles kept at most) finds few, rounds go on while each meets
    a new cycle, and the catalogue does not depend on the workers."""
    fair = 316  # fair-reachable cycles of EIGHT, from its census (benchmarks/data)
    found = {}
    for rounds, workers in ((1, 1), (64, 1), (64, 2))[:3 if two_workers else 2]:
        params = factory_params(EIGHT, seed_chunks=1, moves=["leader"], seed_rounds=rounds)
        with Store(tmp_path / f"r{rounds}-{workers}.sqlite") as store:
            summary = driver.start(store, "factory", params, workers, quiet=True)
            found[rounds, workers] = catalogue(store, summary["run"])
            seeds = store.db.execute(
                "SELECT count(*) FROM chunks WHERE run_id = ? AND deals = ?",
                (summary["run"], SEED_CHUNK_TRIES + SEED_CHUNK_FAIR)).fetchone()[0]
        met = len({row[2] for row in found[rounds, workers] if row[4] in SEEDED})
        assert seeds == 1 if rounds == 1 else met + SEED_PATIENCE <= seeds <= rounds
    fair_found = {row[0] for row in found[64, 1] if row[6]}
    assert len({row[0] for row in found[1, 1]}) < 0.6 * fair < 0.9 * fair <= len(fair_found)
    if two_workers:
        assert found[64, 1] == found[64, 2]


def test_seeding_rounds_reach_islands_that_moves_do_not_join_one_worker(tmp_path):
    """The twin of the above on one worker (7 s of its 16: two spawned workers and 64 rounds
    again); worker independence of a factory run stays in the default suite through
    test_runs_are_deterministic_resumable_and_worker_independent_small."""
    test_seeding_rounds_reach_islands_that_moves_do_not_join(tmp_path, two_workers=False)


def test_start_node_of_a_state_and_of_a_deal():
    deck = Deck.parse("standard")
    casella = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    node = start_node(casella, deck, 2)
    assert node.cycle == play(casella).cycle and len(node.states) == 62
    assert start_node(node.states[5], deck, 2) == node
    assert len(node.renamed) == 2 and node.cycle in node.renamed


def test_bad_from_is_one_line_and_exit_2(tmp_path):
    db = str(tmp_path / "x.sqlite")
    for bad in ("-J--/Q---", "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---",
                "3:--J/Q--", "nonsense"):
        deck = ["--deck", "plain=5,J=1,Q=1"] if bad.startswith("-J") else []
        result = run("search", "factory", *deck, "--from", bad, "--db", db, "--quiet")
        err = result.stderr
        assert result.returncode == 2 and err.count("\n") == 1 and "--from" in err, (bad, err)
        assert not (tmp_path / "x.sqlite").exists()  # no results file made for nothing


def test_factory_command_and_export(tmp_path):
    db = str(tmp_path / "c.sqlite")
    result = run("search", "factory", "--deck", TINY, "--db", db, "--kicks", "none",
                 "--workers", "1", "--quiet", "--json", "--seed-tries", "5000", "--blocks", "2-3")
    assert result.returncode == 0, result.output
    result = run("export", "--what", "cycles", "--db", db)
    header, *rows = result.lines
    assert {"generation", "parent", "move", "mirror", "own_mirror", "fair_deals",
            "fair_deals_swapped", "reach_depth", "island"} <= set(header.split(","))
    assert rows
    shown = run("show", "--db", db, "--json").json()
    text = run("show", "--db", db).lines
    islands = {row.split(",")[header.split(",").index("island")] for row in rows}
    assert shown["islands"] == len(islands) and shown["cycles"] == len(rows)
    assert any(line.startswith(f"family     {len(rows)} cycles in {len(islands)} island")
               for line in text)
    assert f"found      first cycle after {shown['first_cycle_tries']:,} tries, the last new" \
        f" one {shown['tries_since_new_cycle']:,} tries ago" in text
    assert shown["seeding_tries"] + shown["walking_tries"] == shown["tries"]


def test_a_schema_1_file_opens_and_takes_a_factory_run(tmp_path):
    path = tmp_path / "old.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    for column in ("generation", "parent", "move", "mirror", "own_mirror", "reach_depth",
                   "fair_deals", "fair_deals_swapped"):
        db.execute(f"ALTER TABLE cycles DROP COLUMN {column}")
    db.execute("DROP TABLE moves")
    db.execute("DROP TABLE links")
    db.execute("ALTER TABLE games DROP COLUMN family")  # schema 3's
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        summary = driver.start(store, "factory", factory_params(TINY, seed_chunks=1), 1,
                               quiet=True)
        assert summary["cycles"] > 0 and store.move_stats(summary["run"])


def test_family_plot_and_islands(tmp_path):
    pytest.importorskip("matplotlib")
    from beggar_search import plots

    with Store(tmp_path / "p.sqlite") as store:
        summary = driver.start(store, "factory", factory_params(TINY, seed_chunks=1), 1,
                               quiet=True)
        data = plots.family_data(store, summary["run"])
        rows = store.cycles(summary["run"])
        island = islands(rows, store.links(summary["run"]))
    assert len(data["nodes"]) == len(rows) == summary["cycles"]
    assert data["islands"] == len(set(island.values()))
    for row in rows:  # a cycle and its mirror, a cycle and its parent: one island
        assert island[row["mirror"]] == island[row["cycle"]]
        if row["parent"]:
            assert island[row["parent"]] == island[row["cycle"]]
    assert plots.draw_family(data, tmp_path / "family.svg").stat().st_size > 0


def test_skeleton_and_pad_grows_small_cycles_into_the_deck():
    from beggar_search.engine.game import play_state
    from beggar_search.strategies.factory.seeding import skeleton_and_pad

    deck = Deck.parse("plain=10,J=3,Q=3,K=3")
    grown = skeleton_and_pad(deck, 1, small_tries=1 << 17, pad_budget=2_000_000, want=4)
    assert grown.states and grown.steps[0][0] == 16 and 17 <= grown.steps[-1][0] < deck.size
    for hands, leader in grown.states:
        assert sorted(c for hand in hands for c in hand) == deck.sorted_cards().tolist()
        assert play_state(hands, leader).outcome == "loop"


def test_pad_pieces_share_out_a_lineage_whole_states_in_order():
    """The pieces of a skeleton-and-pad lineage pad its skeleton states in order, whole
    states, about ``piece_tries`` each: their tries add up to the whole padding's plus the
    growth's (counted by piece 0), each state's pad tries as ``pad_runs`` plays them, and
    every cycle a piece meets is a full-size loop."""
    from beggar_search.cycles import grow
    from beggar_search.cycles.kept import new_kept
    from beggar_search.engine.game import play_state
    from beggar_search.strategies.factory import seeding

    deck = Deck.parse("plain=10,J=3,Q=3,K=3")
    skeleton = seeding.lineage_skeleton(deck.spec, 1, 2, 0, 1 << 17)
    assert skeleton.rows is not None and skeleton.cards < deck.size
    missing = deck.size - skeleton.cards
    each = seeding.pad_tries(skeleton.rows.sizes, missing)
    counts = np.zeros(2, dtype=np.int64)
    grow.pad_runs(skeleton.rows, missing, new_kept(1, deck.size, 2), counts, 1 << 62)
    assert each.sum() == counts[0] and (skeleton.starts == np.cumsum(each) - each).all()
    size = 10_000
    pieces = [seeding.pad_piece(deck, 1, 2, 0, k, size, counts[0], small_tries=1 << 17)
              for k in range(seeding.lineage_pieces(size, counts[0]))]
    assert len(pieces) > 3
    assert sum(p.tries for p in pieces) == counts[0] + skeleton.grown.tries
    assert all(p.tries - (skeleton.grown.tries if k == 0 else 0) < size + each.max()
               for k, p in enumerate(pieces))
    met = [state for p in pieces for state in p.states]
    assert met and len(met) <= len(pieces) * PAD_WANT
    for hands, leader in met:
        assert sorted(c for hand in hands for c in hand) == deck.sorted_cards().tolist()
        assert play_state(hands, leader).outcome == "loop"


@pytest.mark.parametrize("bad", [["--kicks", "bogus"], ["--kicks", ""], ["--kick-moves", "0-2"],
                                 ["--kick-moves", "3-2"], ["--kick-moves", "2-99"],
                                 ["--kick-shift", "-1"], ["--kick-tries", "0"],
                                 ["--until-idle", "-1"], ["--until-idle", "0"],
                                 ["--until-idle", "nan"], ["--until-idle", "1e9"],
                                 ["--exchanges", "2-99"]])
def test_bad_kick_options_are_one_line_and_exit_2(tmp_path, bad):
    db = str(tmp_path / "x.sqlite")
    result = run("search", "factory", "--deck", TINY, "--db", db, *bad)
    assert result.returncode == 2, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.sqlite").exists()


def test_kicks_go_on_until_idle_and_catalogue_what_they_meet(tmp_path):
    """With kicks a run goes on after its closure, until --until-idle hours pass without a
    new cycle; cycles met by kicks are catalogued with the cycle kicked as their parent,
    and the catalogue keeps every fair deal of every fair-reachable cycle."""
    params = factory_params(EIGHT, starts=[EIGHT_LOOP], kicks=["swaps", "mixed"],
                            kick_tries=20_000, until_idle=0.0005, moves=["leader"])
    with Store(tmp_path / "k.sqlite") as store:
        summary = driver.start(store, "factory", params, 1, quiet=True)
        assert summary["status"] == "done"
        rows = store.cycles(summary["run"])
        kicked = [row for row in rows if (row["move"] or "").startswith("kick")]
        assert kicked and all(row["parent"] for row in kicked)
        assert {row["move"] for row in kicked} <= {"kick swaps", "kick mixed"}
        loops = {}
        for game in store.games(summary["run"], "loops"):
            loops.setdefault(game["cycle"], set()).add(game["deal"])
    census = Path(__file__).parents[2] / "benchmarks/data/census-plain8-J2-Q2-K2-A2.json"
    truth = {c: set(d) for c, d in json.loads(census.read_text())["cycles"].items()}
    for row in rows:  # every fair deal of every catalogued cycle, and nothing else
        if row["cycle"] in truth:
            assert loops.get(row["cycle"], set()) == truth[row["cycle"]]
        else:
            assert row["cycle"] not in loops


def test_progress_says_the_phase_and_how_far_it_has_come_in_tries(tmp_path):
    """From nothing on TINY: the progress line names the phase of each chunk as the plan
    makes it (seeding, then walking); the first cycle is met after exactly the tries that
    random states of the first chunk's stream take to loop; the phases' tries add up to the
    run's; ``show`` says them, with the islands."""
    from beggar_search.cli.common import summary_text
    from beggar_search.cycles.perturb import random_state_cycles
    from beggar_search.engine.random import chunk_stream

    params = factory_params(TINY, seed_chunks=1, seed_rounds=2)
    with Store(tmp_path / "p.sqlite") as store:
        run = store.create_run("factory", params, "test")
        strategy = driver.strategy_for("factory", params)
        strategy.attach(store, run)
        said = []
        for job in strategy.plan(set()):
            if job is PENDING:
                continue
            said.append((job.work["phase"], strategy.phase))
            store.add_chunk(run, strategy.record(job, execute(job)), 0, 1.0)
            strategy.family_read = -math.inf
            line = strategy.progress(store, store.run(run.id))
        store.set_status(run.id, "done")
        summary = driver.summarise(store, run.id)
    words = {"seed": "seeding (round ", "walk": "walking (generation "}
    assert {phase for phase, _ in said} == {"seed", "walk"}
    assert all(text.startswith(words[phase]) for phase, text in said)
    assert said[0] == ("seed", "seeding (round 1)") and said[1][1].startswith("walking")
    first = summary["first_cycle_tries"]
    cards = Deck.parse(TINY).sorted_cards()
    none = np.zeros(0, dtype=np.int64)
    before = random_state_cycles(chunk_stream(params["seed"], 0), cards, 2, none, first - 1, 4)
    met = random_state_cycles(chunk_stream(params["seed"], 0), cards, 2, none, first, 4)
    assert len(before.leaders) == 0 and len(met.leaders) == 1
    assert summary["cycles"] == 2 and summary["islands"] == 1
    assert (summary["seeding_tries"] + summary["walking_tries"] + summary["kicking_tries"]
            == summary["deals"]) and summary["walking_tries"] > 0 == summary["kicking_tries"]
    assert summary["tries_since_new_cycle"] == summary["deals"] - summary["last_cycle_tries"]
    assert first <= summary["last_cycle_tries"] < summary["deals"]
    assert line == (f"2 cycles in 1 island, 2 fair (12 deals); {said[-1][1]};"
                    f" {short(summary['tries_since_new_cycle'])} tries since a new cycle")
    text = summary_text(summary).splitlines()
    assert "family     2 cycles in 1 island; 2 reached by fair deals (1 island), 12 fair deals" \
        in text
    assert (f"found      first cycle after {first:,} tries, the last new one"
            f" {summary['tries_since_new_cycle']:,} tries ago") in text
    assert (f"phases     seeding {short(summary['seeding_tries'])} tries, walking"
            f" {short(summary['walking_tries'])}, kicking 0") in text


def test_tries_are_counted_in_chunk_order_whatever_the_kind_of_place():
    """A cycle met at place p of chunk c: the tries of the chunks before c, then p + 1 (a
    walk's move number at most its chunk's tries; a grown cycle at its chunk's end); a
    run's starts count as met at try 0; the seeding's tries are what the moves leave."""
    from beggar_search.strategies.factory.progress import tries_figures

    chunks = [(0, 100), (1, 50), (3, 1000)]  # chunk 2 not stored
    moves = [{"move": "swap", "tries": 40}, {"move": "kick swaps", "tries": 1000}]
    rows = [{"cycle": "a", "move": "random state", "state_chunk": 0, "state_position": 9},
            {"cycle": "b", "move": "swap", "state_chunk": 1, "state_position": 70},
            {"cycle": "c", "move": "mirror", "state_chunk": 3, "state_position": 999},
            {"cycle": "d", "move": "kick swaps", "state_chunk": 2, "state_position": 5}]
    figures = tries_figures(rows, chunks, moves)
    assert figures == {"first_cycle_tries": 10, "last_cycle_tries": 150,
                       "tries_since_new_cycle": 1000, "seeding_tries": 110,
                       "walking_tries": 40, "kicking_tries": 1000}
    grown = [{"cycle": "g", "move": "grown", "state_chunk": 1, "state_position": 2}]
    assert tries_figures(grown, chunks, [])["first_cycle_tries"] == 150
    started = [{"cycle": "s", "move": "start", "state_chunk": 0, "state_position": 0}]
    assert tries_figures(started, chunks, moves)["first_cycle_tries"] is None
    assert tries_figures(started, chunks, moves)["tries_since_new_cycle"] == 1150
    assert tries_figures([], [], [])["tries_since_new_cycle"] is None


def test_a_run_without_a_terminal_logs_its_progress_line(tmp_path, monkeypatch, capsys):
    """stderr not a terminal (a log): the progress line every ``PROGRESS_EVERY`` seconds, with
    the tries and seconds so far; none when quiet."""
    monkeypatch.setattr(driver, "PROGRESS_EVERY", 0.0)
    params = factory_params(EIGHT, starts=[EIGHT_LOOP], moves=["leader"])
    with Store(tmp_path / "l.sqlite") as store:
        summary = driver.start(store, "factory", params, 1)
        err = capsys.readouterr().err
        driver.start(store, "factory", params, 1, quiet=True)
        assert "progress:" not in capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("progress: ")]
    assert lines and lines[-1].startswith(f"progress: {summary['deals']:,} tries in ")
    assert lines[-1].endswith(f"{plural(summary['cycles'], 'cycle')} in"
                              f" {plural(summary['islands'], 'island')},"
                              f" {summary['fair_cycles']:,} fair"
                              f" ({plural(summary['fair_deals'], 'deal')}); walking"
                              f" (generation 0, 1 cycle);"
                              f" {short(summary['tries_since_new_cycle'])} tries since a new"
                              " cycle")

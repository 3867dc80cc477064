"""The loop hunter: new cycles near known ones, and the fair deals that reach them."""

import itertools

from cli_harness import run

from beggar_search import Deal, Deck, driver, play, play_state
from beggar_search.games.loops import CASELLA, rotations
from beggar_search.store import Store
from beggar_search.strategies import execute
from beggar_search.strategies.hunt import starting_points

TINY = "plain=5,J=2,Q=1,K=1"


def hunt_params(deck, players, seeds, known, tries, chunk=2000):
    return {"deck": deck, "players": players, "seed": 3, "top_k": 0, "max_tricks": None,
            "chunk_size": chunk, "hours": None, "deals": tries, "seeds": seeds,
            "known": known, "reach_states": 10**6}


def test_starting_points_cover_renamed_cycles():
    seeds, known = starting_points([CASELLA], Deck.parse("standard"), 2)
    assert len(seeds) == 62
    hands = [list(h) for h in Deal.parse(CASELLA).hands]
    ids = {play_state(h, lead).cycle for h, lead in rotations(hands, 0)}
    assert ids == set(known) and play(CASELLA).cycle in ids and len(ids) == 2


def test_hunt_on_a_tiny_deck_finds_every_cycle_with_its_fair_deals(tmp_path):
    """From random states (no seeds), then checked against brute force over all deals."""
    deck = Deck.parse(TINY)
    with Store(tmp_path / "h.sqlite") as store:
        summary = driver.start(store, "hunt", hunt_params(TINY, 2, [], [], 20000), 2,
                               quiet=True)
        run = store.run(summary["run"])
        cycles = {c["cycle"]: c for c in store.cycles(run.id)}
        loops = store.games(run.id, "loops")
    reaching = {}
    for sequence in set(itertools.permutations(deck.sorted_cards().tolist())):
        result = play(Deal.from_sequence(sequence, 2, deck))
        if result.outcome == "loop":
            reaching.setdefault(result.cycle, set()).add(
                str(Deal.from_sequence(sequence, 2, deck)))
    assert summary["deals"] == 20000 and summary["cycles"] >= 2
    for cycle, deals in reaching.items():  # every cycle reached by a fair deal was found
        assert cycle in cycles
        assert cycles[cycle]["deals"] == len(deals)
        assert {g["deal"] for g in loops if g["cycle"] == cycle} == deals
    for game in loops:
        assert play(game["deal"], deck=TINY).cycle == game["cycle"]


def test_hunt_near_casella_and_resume(tmp_path):
    """Seeded by Casella: every loop stored replays; the run resumes to the same results."""
    seeds, known = starting_points([CASELLA], Deck.parse("standard"), 2)
    params = hunt_params("standard", 2, seeds, known, 60000, chunk=20000)
    with Store(tmp_path / "a.sqlite") as store:
        whole = driver.start(store, "hunt", params, 1, quiet=True)
        whole_cycles = store.cycles(whole["run"])
    assert whole["deals"] == 60000 and whole["loops"] > 0
    for cycle in whole_cycles:
        assert cycle["cycle"] not in known
        hands_text = cycle["state"] or cycle["example"]
        assert hands_text
    with Store(tmp_path / "b.sqlite") as store:
        run = store.create_run("hunt", params, "test")
        strategy = driver.strategy_for("hunt", params)
        job = next(strategy.plan(set()))
        store.add_chunk(run, strategy.record(job, execute(job)), 0, 1.0)
        resumed = driver.resume(store, run.id, 1, quiet=True)
        strip = lambda rows: sorted((c["cycle"], c["deals"]) for c in rows)  # noqa: E731
        assert strip(store.cycles(run.id)) == strip(whole_cycles)
    assert resumed["deals"] == whole["deals"] and resumed["loops"] == whole["loops"]


def test_hunt_command(tmp_path):
    result = run("search", "hunt", "--deck", TINY, "--tries", "5000", "--db",
                 tmp_path / "c.sqlite", "--workers", "1", "--quiet", "--json", "--chunk-size",
                 "1000")
    assert result.returncode == 0, result.output
    assert '"strategy": "hunt"' in result.stdout
    again = run("search", "hunt", "--deck", TINY, "--tries", "5000", "--db",
                tmp_path / "c.sqlite", "--workers", "1", "--quiet", "--chunk-size", "1000",
                "--seed", "9")
    assert again.returncode == 0, again.output

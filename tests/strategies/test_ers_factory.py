"""The loop factory on Egyptian ratscrew: moves and kicks of ranked states, played by the
ratscrew kernel, under the deterministic slap policies."""

import itertools

import numpy as np
import pytest
from cli_harness import run

from beggar_search import driver
from beggar_search.cards.ranked import RankedDeal, RankedDeck, parse_ranked_state
from beggar_search.cards.slaps import SlapRules
from beggar_search.cycles import kept as cycles
from beggar_search.cycles import moves, perturb, walk
from beggar_search.engine import ers, ers_game
from beggar_search.engine.game import cycle_key
from beggar_search.engine.random import chunk_stream
from beggar_search.store import Store
from beggar_search.strategies import FactoryStrategy

SMALL = "8=2,9=2,T=1,J=2,Q=1"  # 5,040 deals; 6 cycles under each policy (census below)
POLICIES = ("none", "turn", "first:1")


def census(spec: str, policy: str, players: int = 2) -> dict[str, set[str]]:
    """Every fair looping deal of a ranked deck under ``policy``, by cycle (brute force)."""
    deck = RankedDeck.parse(spec)
    slaps = SlapRules.parse("pair", policy, True, players)
    truth = {}
    for sequence in set(itertools.permutations(deck.sorted_cards().tolist())):
        deal = RankedDeal.from_sequence(sequence, players, deck)
        result = ers_game.play(deal, slaps)
        if result.outcome == "loop":
            truth.setdefault(result.cycle, set()).add(str(deal))
    return truth


def ers_params(deck, policy, starts=(), players=2, **more):
    return FactoryStrategy.prepare({
        "deck": deck, "players": players, "seed": 7, "top_k": 0, "max_tricks": None,
        "chunk_size": 3000, "hours": None, "starts": list(starts), "seed_chunks": 0,
        "kicks": [], "game": "ers", "slap_rules": "pair", "slap_policy": policy,
        "slap_in": True, **more})


def factory_cycles(tmp_path, params, workers=1):
    """A factory run's summary, its catalogue and its looping deals by cycle."""
    with Store(tmp_path / f"f{workers}.sqlite") as store:
        summary = driver.start(store, "factory", params, workers, quiet=True)
        assert summary["status"] == "done"
        loops = {}
        for game in store.games(summary["run"], "loops"):
            loops.setdefault(game["cycle"], set()).add(game["deal"])
        return summary, store.cycles(summary["run"]), loops


@pytest.mark.slow  # among the slowest of the suite (issue 26: 72-482 s each)
@pytest.mark.parametrize("policy", POLICIES)
def test_from_one_looping_deal_the_walk_finds_every_cycle_and_each_replays(tmp_path, policy):
    """From one census deal the closure meets every cycle fair deals reach; every cycle it
    reports replays as a loop under the ratscrew rules, with its id and period."""
    truth = census(SMALL, policy)
    assert len(truth) == 6
    start = min(min(deals) for deals in truth.values())
    summary, rows, loops = factory_cycles(tmp_path, ers_params(SMALL, policy, [start]))
    assert summary["game"] == "ers" and summary["slap_policy"] == policy
    found = {row["cycle"]: row for row in rows}
    assert set(truth) <= set(found)
    assert loops == truth  # every fair deal of every cycle (the in-trees), and no other
    for row in rows:
        assert row["reach_complete"] == 1 and row["fair_deals"] == len(truth.get(row["cycle"], ()))
        assert row["deals"] == row["fair_deals"]
    slaps = SlapRules.parse("pair", policy, True, 2)
    for row in rows:
        hands, leader = parse_ranked_state(row["state"])
        result = ers_game.play_state(hands, leader, slaps)
        assert result.outcome == "loop" and result.cycle == row["cycle"], row
        assert (result.period_tricks, result.period_cards) == (row["period_tricks"],
                                                                row["period_cards"])
        assert result.preperiod_tricks == 0  # the state kept is on its cycle
        if row["generation"]:
            assert found[row["parent"]]["generation"] == row["generation"] - 1
        if policy == "first:1":  # player 1 wins every slap: renaming is another game
            assert row["mirror"] is None and row["own_mirror"] is None
        else:
            assert found[row["mirror"]]["mirror"] == row["cycle"]


@pytest.mark.parametrize("policy", ["turn", "first:1"])
def test_three_players_every_fair_deal_of_every_cycle_and_renamed_copy(tmp_path, policy):
    """Three players: under turn a cycle's renamed copies are searched backwards too, under
    first:1 there are none; either way the fair deals stored are the census's."""
    truth = census(SMALL, policy, players=3)
    assert len(truth) == 18
    _, rows, loops = factory_cycles(tmp_path, ers_params(SMALL, policy, players=3,
                                                         seed_chunks=1))
    found = {row["cycle"] for row in rows}
    assert set(truth) <= found
    assert loops == truth
    if policy == "first:1":
        assert all(row["mirror"] is None for row in rows)


def test_ratscrew_kicks_and_moves_play_the_ratscrew_kernel():
    """Kicks and moves of ranked states keep only cycles that replay under the slap rules
    (never the Beggar-my-neighbour game of the mapped cards); kicks go on cards, not masks."""
    slaps = SlapRules.parse("pair", "turn", True, 2)
    truth = census(SMALL, "turn")
    deal = RankedDeal.parse(min(min(d) for d in truth.values()), SMALL)
    states = ers_game.state_cycle(deal.hands, 0, slaps)
    seeds = cycles.state_arrays(states, 8, 2)
    exact = ers.new_exact(2, ers.slaps_of(slaps, 2))
    found = cycles.new_kept(64, 8, 2)
    counts = np.zeros(3, dtype=np.int64)
    config = perturb.kick_config("mixed", 2, 3, 2)
    kept = perturb.kick_chunk_with(chunk_stream(1, 0), seeds, config, np.zeros(0, np.int64),
                                   20_000, found, counts, False, exact)
    assert counts[0] == 20_000 and counts[1] > 0 and kept > 0
    for k in range(kept):
        hands = cycles.state_hands(found.sequences[k], found.sizes[k])
        result = ers_game.play_state(hands, int(found.leaders[k]), slaps)
        assert result.outcome == "loop" and cycle_key(result.cycle) == found.keys[k]
    # every move of one state: the memo's tricks and the games are ratscrew's
    config = moves.move_config()
    per_state = int(moves.move_count(8, 2, config)) + 64
    kept_moves = cycles.new_kept(per_state, 8, 2)
    links = walk.new_links(per_state)
    stats = np.zeros((moves.N_KINDS, 3), dtype=np.int64)
    cursor = np.zeros(4, dtype=np.int64)
    seen = walk.seen_scratch(8, 2, config, 1, False)
    tried = cycles.new_tried(0, 8, 2, False)
    own = np.zeros(1, dtype=np.int64)
    one = cycles.state_arrays(states[:1], 8, 2)
    walk.expand(one, own, config, np.zeros(0, np.int64), cursor, kept_moves, stats, seen,
                links, tried, exact, False)
    assert cursor[walk.X_ITEM] == 1 and stats[:, walk.ST_LOOPS].sum() > 0
    for k in range(int(cursor[walk.X_KEPT])):
        hands = cycles.state_hands(kept_moves.sequences[k], kept_moves.sizes[k])
        result = ers_game.play_state(hands, int(kept_moves.leaders[k]), slaps)
        assert cycle_key(result.cycle) == kept_moves.keys[k]


def test_a_ratscrew_factory_run_does_not_depend_on_the_workers(tmp_path):
    truth = census(SMALL, "first:1")
    start = min(min(deals) for deals in truth.values())
    params = ers_params(SMALL, "first:1", [start], kicks=["swaps", "mixed"],
                        kick_tries=20_000, kick_rounds=2, seed_chunks=1)
    fields = ("cycle", "state", "generation", "parent", "move", "mirror")
    catalogues = []
    for workers in (1, 2):
        summary, rows, _ = factory_cycles(tmp_path, params, workers)
        catalogues.append((summary["deals"], sorted(tuple(r[f] for f in fields)
                                                     for r in rows)))
    assert catalogues[0] == catalogues[1]
    assert set(truth) <= {row[0] for row in catalogues[0][1]}


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
def test_ten_card_deck_every_fair_reachable_cycle_from_one_deal(tmp_path, policy):
    """The README's 10-card deck: the 180 cycles fair deals reach under each policy (its
    census, ``search enumerate``) are one island of the closure."""
    spec = "8=2,9=2,T=2,J=2,Q=1,K=1"
    with Store(tmp_path / "census.sqlite") as store:
        summary = driver.start(store, "enumerate", {
            "deck": spec, "players": 2, "seed": None, "top_k": 0, "max_tricks": None,
            "chunk_size": 1 << 16, "hours": None, "start": 0, "deals": 226_800,
            "game": "ers", "slap_rules": "pair", "slap_policy": policy, "slap_in": True},
            1, quiet=True)
        truth = {row["cycle"]: row["example"] for row in store.cycles(summary["run"])}
    assert len(truth) == 180
    _, rows, loops = factory_cycles(tmp_path, ers_params(spec, policy, [min(truth.values())]))
    assert set(truth) <= {row["cycle"] for row in rows}
    assert set(loops) == set(truth)


def test_command_starts_from_the_files_ratscrew_cycles_and_exports_ranked_states(tmp_path):
    """`search factory --game ers` starts from the cycles of the file's ratscrew runs of the
    same deck and slap rules (an enumeration's), and `export --what cycles` writes them in
    ranks; a Beggar-my-neighbour factory on the file does not take them."""
    db = str(tmp_path / "e.sqlite")
    game = ["--game", "ers", "--deck", SMALL, "--slap-policy", "turn", "--db", db,
            "--workers", "1", "--quiet", "--json"]
    result = run("search", "enumerate", *game)
    assert result.returncode == 0, result.output
    result = run("search", "factory", *game, "--kicks", "none")
    assert result.returncode == 0, result.output
    with Store(db) as store:
        made = store.run()
        assert len(made.params["starts"]) == 6 and made.params["seed_chunks"] == 0
        assert made.params["slap_policy"] == "turn"
        assert store.known_cycles(RankedDeck.parse(SMALL), 2) == {}  # not Beggar-my-neighbour's
    result = run("export", "--what", "cycles", "--db", db)
    header, *rows = result.lines
    columns = header.split(",")
    states = [dict(zip(columns, row.split(","), strict=True))["state"] for row in rows]
    assert rows and all(parse_ranked_state(state)[0] for state in states)
    assert any(set(state) & set("89T") for state in states)

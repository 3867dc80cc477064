"""The climber (search climb): backward extension; determinism, replayable boards, resume."""

import pytest
from cli_harness import run
from published import NESSLER
from storeview import stored

from beggar_search import Deal, Deck, driver, play
from beggar_search.backward.closure import backward_closure
from beggar_search.cards.deck import format_hands
from beggar_search.engine.game import play_state, trajectory
from beggar_search.store import Store
from beggar_search.strategies import ChunkJob, execute, strategy_for
from beggar_search.strategies.climb import ClimbStrategy
from beggar_search.tunables import DEFAULT_EXTEND, EXTENSION_STATES, MOST_EXTEND

TINY = "plain=5,J=2,Q=1,K=1"  # loops often, with 2 or 3 players


def params(**extra):
    base = {"deck": "standard", "players": 2, "seed": 5, "top_k": 30, "max_tricks": None,
            "chunk_size": 3000, "hours": None, "deals": 9000, "extend": 3,
            "closure_states": 5000}
    return {**base, **extra}


# a budget's own chunks (20,000 / 16) and no extend: more parents within a budget of states
BY_BUDGET = {"deck": "plain=10,J=2,Q=2,K=2", "deals": 20_000, "chunk_size": None,
             "extend": None, "top_k": 100}


@pytest.mark.parametrize("extra", [{}, {"deck": TINY, "players": 3}, BY_BUDGET])
def test_same_seed_same_results_whatever_workers(tmp_path, extra):
    for workers in (1, 2):
        with Store(tmp_path / f"w{workers}.sqlite") as store:
            driver.start(store, "climb", params(**extra), workers, quiet=True)
    one, two = stored(tmp_path / "w1.sqlite"), stored(tmp_path / "w2.sqlite")
    assert one == two
    deals = params(**extra)["deals"]
    assert one["summary"]["deals"] > deals  # random deals and the extension's games
    assert len(one["longest"]) == params(**extra)["top_k"]


@pytest.mark.parametrize("extra", [{}, {"deck": TINY, "players": 3, "top_k": 200},
                                   {"deck": "camicia", "players": 2, "max_tricks": 300}])
def test_chunk_counts_every_game_and_board_replays(extra):
    job_params = params(**extra)
    summary = execute(ChunkJob("climb", 1, 3000, job_params))
    again = execute(ChunkJob("climb", 1, 3000, job_params))
    assert summary.deals > 3000
    assert summary.deals == summary.wins.sum() + summary.loops + summary.caps
    assert summary.histogram.sum() == summary.wins.sum()
    assert (summary.top_deals == again.top_deals).all()
    assert (summary.top_positions == again.top_positions).all()
    assert len(summary.top_deals) == job_params["top_k"]
    deck = Deck.parse(job_params["deck"])
    players = job_params["players"]
    boards = {bytes(d) for d in summary.top_deals}
    assert len(boards) == len(summary.top_deals)  # distinct deals
    assert len(set(summary.top_positions.tolist())) == len(summary.top_positions)
    assert summary.top_positions.max() < summary.deals
    for deal, row in zip(summary.top_deals, summary.top_rows, strict=True):
        result = play(Deal.from_sequence(deal, players, deck), deck.spec,
                      job_params["max_tricks"])
        assert result.outcome == "win"
        assert (result.cards, result.tricks) == (row[1], row[2])
    for deal, row in zip(summary.loop_deals, summary.loop_rows, strict=True):
        result = play(Deal.from_sequence(deal, players, deck), deck.spec,
                      job_params["max_tricks"])
        assert result.outcome == "loop" and result.cards == row[1]
    if players == 3:
        assert summary.loops >= len(summary.loop_deals) > 0


def test_the_sample_histogram_counts_the_random_deals_alone():
    """The chunk's sample histogram holds its random deals' games only: the same as a random
    search's chunk of that seed, while the whole histogram also counts the extension."""
    job_params = params(deck="camicia", max_tricks=300)
    summary = execute(ChunkJob("climb", 1, 3000, job_params))
    random_params = strategy_for("random", {**job_params, "chunk_size": 3000}).params
    random = execute(ChunkJob("random", 1, 3000, random_params))
    assert summary.sample_histogram is not None
    assert (summary.sample_histogram == random.histogram).all()
    assert summary.histogram.sum() > summary.sample_histogram.sum() > 0
    assert (summary.histogram >= summary.sample_histogram).all()


def test_a_run_stores_its_sample_apart(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        driver.start(store, "climb", params(), 1, quiet=True)
        run = store.runs()[0]
        sample = store.histogram(run.id, "sample_histogram")
        every = dict(store.histogram(run.id))
    assert 9000 - run.loops <= sum(count for _, count in sample) <= 9000 < sum(every.values())
    assert all(every[cards] >= count for cards, count in sample)


@pytest.mark.parametrize(("deals", "chunk"), [(None, 8 << 21), (100_000, 6250),
                                               (10_000, 1024), (500, 500),
                                               (10**10, 8 << 21), (10**9, 8 << 21),
                                               (20_000_000, 1_250_000)])
def test_the_chunk_follows_the_budget(deals, chunk):
    """A budget of random deals is extended at least EXTENSION_ROUNDS times (a chunk of at
    least SMALLEST_CHUNK deals): what is extended follows the games played."""
    prepared = ClimbStrategy.prepare({**params(deals=deals), "chunk_size": None})
    assert prepared["chunk_size"] == chunk
    given = ClimbStrategy.prepare({**params(deals=deals), "chunk_size": 777})
    assert given["chunk_size"] == 777


def test_a_budget_without_extend_extends_more_parents_within_its_states():
    """A run of --deals whose chunk is sized from them, without --extend, extends at least
    DEFAULT_EXTEND parents and more, up to MOST_EXTEND, while the chunk's backward searches
    hold fewer than EXTENSION_STATES states; any other run exactly its extend (runs stored
    before keep theirs)."""
    prepared = ClimbStrategy.prepare(params(**BY_BUDGET))
    assert prepared["chunk_size"] == 1250 and prepared["extend"] == DEFAULT_EXTEND
    assert (prepared["extension_states"], prepared["extend_most"]) == (EXTENSION_STATES,
                                                                       MOST_EXTEND)
    for other in ({"extend": 8}, {"chunk_size": 1250}, {"deals": None}, {"deals": 10**10}):
        assert "extension_states" not in ClimbStrategy.prepare(params(**{**BY_BUDGET,
                                                                         **other}))
    searched = []

    def counted(strategy):
        inner = strategy._fair_ancestors

        def search(sequence):
            found = inner(sequence)
            searched.append(found[2])
            return found
        strategy._fair_ancestors = search
        return strategy

    budget = 8000  # states: each closure of this deck holds a few hundred
    runs = {}
    for name, extra in (("eight", {"extension_states": 0}),
                        ("states", {"extension_states": budget, "extend_most": 40})):
        searched.clear()
        strategy = counted(strategy_for("climb", {**prepared, **extra}))
        job = ChunkJob("climb", 3, prepared["chunk_size"], strategy.params)
        runs[name] = (strategy.run_chunk(job), list(searched))
    (eight, eight_held), (more, held) = runs["eight"], runs["states"]
    assert len(eight_held) == 8 and held[:8] == eight_held
    # past 8, a parent is searched only while the states held stay under the budget
    assert 8 < len(held) <= 40
    assert all(sum(held[:n]) < budget for n in range(8, len(held)))
    assert len(held) == 40 or sum(held) >= budget
    assert more.deals > eight.deals and more.top_rows[0, 1] >= eight.top_rows[0, 1]


def test_extension_beats_its_parents():
    """The extended games are longer than the random deals they grew from."""
    job_params = params(extend=4, closure_states=20_000, top_k=10)
    climbed = execute(ChunkJob("climb", 0, 3000, job_params))
    plain = execute(ChunkJob("climb", 0, 3000, {**job_params, "extend": 0}))
    assert plain.deals == 3000 and climbed.deals > 3000
    assert plain.top_positions.max() < 3000  # the random part alone
    assert climbed.top_rows[0, 1] > plain.top_rows[0, 1]
    assert climbed.top_positions[0] >= 3000  # found by the extension
    assert (climbed.top_rows[:4, 1] > plain.top_rows[:4, 1]).all()
    # the random part is the random search's chunk
    random_search = execute(ChunkJob("random", 0, 3000, {**job_params, "engine": "fast2"}))
    assert (random_search.top_deals == plain.top_deals).all()


def test_start_deal_is_honoured():
    job_params = params(start_deal=NESSLER, top_k=2000, extend=0, closure_states=100_000)
    summary = execute(ChunkJob("climb", 0, 1000, job_params))
    assert summary.top_rows[0, 1] >= 8344
    deals = [str(Deal.from_sequence(d, 2)) for d in summary.top_deals]
    assert deals[0] == NESSLER and summary.top_positions[0] == 1000
    # every fair deal whose game merges into the record's game was played (919 in the
    # complete closure, 7 of them later states of the record's own game), all shorter
    states = trajectory(Deal.parse(NESSLER).hands)[:-1]
    store, complete, _ = backward_closure(states, 52, 100_000, None)
    assert complete and store.count == 57_114
    merging = {format_hands(hands) for hands in store.with_header((26, 26), 0)} - {NESSLER}
    own = {format_hands(hands) for hands, leader in states
           if leader == 0 and tuple(map(len, hands)) == (26, 26)} - {NESSLER}
    assert len(merging) == 919 and len(own) == 7
    assert merging - own <= set(deals)
    cards = dict(zip(deals, summary.top_rows[:, 1].tolist(), strict=True))
    assert max(cards[deal] for deal in merging - own) == 8340
    later = execute(ChunkJob("climb", 1, 1000, job_params))  # the start deal is chunk 0's
    assert later.top_rows[0, 1] < 8344
    with pytest.raises(ValueError):
        strategy_for("climb", params(start_deal="--J/Q--"))


def test_a_closure_knows_every_state_s_tricks_to_the_end():
    """From a game's trajectory with each state's tricks to the end, every state found has
    the tricks of its own game as its depth; the climber plays the deepest fair deals."""
    deal = Deal.parse(NESSLER)
    states = trajectory(deal.hands)[:-1]
    store, complete, _ = backward_closure(states, 52, 100_000, None,
                                          start_depths=range(len(states), 0, -1))
    assert complete
    for index in range(0, store.count, 97):  # about 600 of the 57,114 states
        hands, leader = store.hands_at(index)
        assert play_state(hands, leader).tricks == store.depth[index]
    fair = {format_hands(store.hands_at(int(i))[0]): int(store.depth[i])
            for i in store.indices_with_header((26, 26), 0)}
    climber = ClimbStrategy(params(deepest=40, closure_states=100_000, mirrors=False))
    deepest, _, _ = climber._fair_ancestors(deal.sequence)
    chosen = [fair[str(Deal.from_sequence(d, 2))] for d in deepest]
    assert len(chosen) == 40 and chosen == sorted(chosen, reverse=True)
    assert chosen[-1] >= sorted(fair.values(), reverse=True)[39]  # no deeper one left out
    assert chosen[0] == fair[NESSLER]


def test_a_closure_s_states_read_as_card_sequences_are_their_hands():
    """``sequences_at`` (the climber's fair deals, read at once) gives each stored state's
    hands in player order, or with the hands swapped (the mirrored deal)."""
    states = trajectory(Deal.parse(NESSLER).hands)[:-1]
    store, _, _ = backward_closure(states, 52, 20_000, None)
    for leader in (0, 1):
        indices = store.indices_with_header((26, 26), leader)
        assert len(indices) > 50
        for reverse in (False, True):
            rows = store.sequences_at(indices, 52, reverse=reverse)
            for index, row in zip(indices, rows.tolist(), strict=True):
                hands, found_leader = store.hands_at(int(index))
                assert found_leader == leader
                assert row == [c for hand in (hands[::-1] if reverse else hands) for c in hand]
    assert store.sequences_at(indices[:0], 52).shape == (0, 52)


@pytest.mark.parametrize("extra", [{}, BY_BUDGET])
def test_resume_after_interruption(tmp_path, extra):
    full = tmp_path / "full.sqlite"
    with Store(full) as store:
        driver.start(store, "climb", params(**extra), 1, quiet=True)
    cut = tmp_path / "cut.sqlite"
    with Store(cut) as store:  # a run stopped after chunks 0 and 2 were stored
        run = store.create_run("climb", ClimbStrategy.prepare(params(**extra)), "test")
        strategy = strategy_for("climb", run.params)
        for chunk in (0, 2):
            job = ChunkJob("climb", chunk, strategy.chunk_size, run.params)
            store.add_chunk(run, strategy.record(job, strategy.run_chunk(job)), strategy.top_k,
                            1.0)
        store.set_status(run.id, "stopped")
    assert sorted(stored(cut)["chunks"]) == [0, 2]
    with Store(cut) as store:
        summary = driver.resume(store, None, 2, quiet=True)
    assert summary["status"] == "done"
    one, two = stored(full), stored(cut)
    one["summary"].pop("version")
    two["summary"].pop("version")
    assert one == two
    numbers = [int(game["number"]) for game in one["longest"]]
    assert len(set(numbers)) == len(numbers)


def test_command_line(tmp_path):
    db = str(tmp_path / "c.sqlite")
    result = run("search", "climb", "--deals", "2000", "--start", NESSLER, "--extend", "2",
                 "--closure-states", "3000", "--workers", "1", "--db", db, "--seed", "1",
                 "--quiet", "--json")
    assert result.returncode == 0, result.output
    assert '"cards": 8344' in result.stdout and '"strategy": "climb"' in result.stdout
    result = run("search", "climb", "--deals", "10", "--start", "--J/Q--", "--db", db)
    assert result.returncode != 0
    result = run("search", "climb", "--explore", "0.5", "--db", db)
    assert result.returncode != 0
    result = run("search", "climb", "--deals", "10", "--deepest", "-1", "--db", db)
    assert result.returncode == 2 and "--deepest" in result.stderr
    with Store(db) as store:
        climbed = store.runs()[0]
        assert climbed.params["deepest"] == 64 and climbed.params["mirrors"]  # new defaults


ERS = {"game": "ers", "slap_rules": "pair", "slap_policy": "turn", "slap_in": True}


@pytest.mark.parametrize("slaps", [ERS, {**ERS, "slap_policy": "first:1",
                                         "slap_rules": "pair,sandwich"}])
def test_ratscrew_extension_beats_its_parents_and_replays(slaps):
    """Egyptian ratscrew climbs too: the extended games are longer than the random deals they
    grew from, and every game on the board replays (the ratscrew engine) to its row."""
    from beggar_search.cards.ranked import STANDARD_RANKED, RankedDeal
    from beggar_search.cards.slaps import SlapRules
    from beggar_search.engine import ers_game
    from beggar_search.strategies.climb import ClimbStrategy

    job_params = ClimbStrategy.prepare(params(extend=4, closure_states=20_000, top_k=10,
                                              **slaps))
    climbed = execute(ChunkJob("climb", 0, 3000, job_params))
    plain = execute(ChunkJob("climb", 0, 3000, {**job_params, "extend": 0}))
    assert plain.deals == 3000 and climbed.deals > 3000
    assert climbed.top_rows[0, 1] > plain.top_rows[0, 1]
    assert climbed.top_positions[0] >= 3000  # found by the extension
    random_search = execute(ChunkJob("random", 0, 3000, job_params))
    assert (random_search.top_deals == plain.top_deals).all()
    rules_ = SlapRules.from_params(job_params)
    for deal, row in zip(climbed.top_deals, climbed.top_rows, strict=True):
        result = ers_game.play(RankedDeal.from_sequence(deal, 2, STANDARD_RANKED), rules_)
        assert result.outcome == "win" and (result.cards, result.tricks) == (row[1], row[2])


def test_ratscrew_command_line(tmp_path):
    db = str(tmp_path / "c.sqlite")
    base = ["search", "climb", "--game", "ers", "--deals", "1000", "--extend", "2",
            "--closure-states", "2000", "--workers", "1", "--db", db, "--seed", "1"]
    result = run(*base, "--slap-policy", "turn", "--quiet", "--json", "--start",
                 "T99JTT/9KTQJ9", "--deck", "9=4,T=4,J=2,Q=1,K=1")
    assert result.returncode == 0, result.output
    assert '"strategy": "climb"' in result.stdout
    result = run(*base, "--slap-policy", "odds:0.5,0.5")
    assert result.returncode == 2 and "not a function of the deal" in result.stderr

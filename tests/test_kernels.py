"""The engine facade (engine/kernels.py): which kernel plays which chunk, and run ids."""

import pytest

from beggar_search.deck import STANDARD, Deck
from beggar_search.engine.kernels import (
    ENUMERATE,
    FAST2,
    GENERAL,
    RANDOM,
    SEQUENCES,
    Engine,
    by_name,
    choose,
    random_kernel,
)
from beggar_search.strategies import STRATEGIES

CAMICIA = Deck.parse("camicia")


@pytest.mark.parametrize(("deck", "players", "source", "kernel"), [
    (STANDARD, 2, RANDOM, FAST2),
    (STANDARD, 2, SEQUENCES, FAST2),
    (STANDARD, 2, ENUMERATE, GENERAL),
    (STANDARD, 3, RANDOM, GENERAL),
    (CAMICIA, 2, RANDOM, GENERAL),
    (CAMICIA, 2, SEQUENCES, GENERAL),
])
def test_the_fastest_kernel_that_applies(deck, players, source, kernel):
    assert choose(deck, players, source) is kernel


def test_stored_engine_ids_resolve():
    assert by_name("fast2") is FAST2 and by_name("general") is GENERAL
    with pytest.raises(ValueError, match="unknown engine"):
        by_name("fast3")
    with pytest.raises(ValueError, match="unknown source"):
        choose(STANDARD, 2, "shuffled")


def test_a_run_keeps_the_random_kernel_it_stored():
    standard = {"deck": "standard", "players": 2}
    assert random_kernel(standard) is FAST2  # a run that stored none: what it had
    assert random_kernel({**standard, "engine": "general"}) is GENERAL
    assert random_kernel({"deck": "camicia", "players": 2}) is GENERAL
    with pytest.raises(ValueError, match="cannot play deck camicia"):
        Engine(CAMICIA, 2, random=FAST2)


@pytest.mark.parametrize(("name", "deck", "engine", "chunk"), [
    ("random", "standard", "fast2", 1 << 21),
    ("random", "camicia", "general", 1 << 16),
    ("climb", "standard", "fast2", 4 << 21),
    ("climb", "camicia", "general", 1 << 16),
])
def test_runs_store_their_random_kernel_and_its_chunk(name, deck, engine, chunk):
    params = STRATEGIES[name].prepare({"deck": deck, "players": 2, "chunk_size": None})
    assert (params["engine"], params["chunk_size"]) == (engine, chunk)
    given = STRATEGIES[name].prepare({"deck": deck, "players": 2, "chunk_size": 5,
                                      "engine": "general"})
    assert (given["engine"], given["chunk_size"]) == ("general", 5)

"""The engine facade (engine/kernels.py): which kernel plays which chunk, and run ids; stored
engine ids keep their deals."""

import numpy as np
import pytest

from beggar_search.cards.deck import STANDARD, Deck, unrank_sequence
from beggar_search.chunk_engine import Engine
from beggar_search.engine import batch, bitboard, rules
from beggar_search.engine.kernels import (
    BITBOARD,
    ENUMERATE,
    FAST2,
    GENERAL,
    RANDOM,
    SEQUENCES,
    by_name,
    choose,
    random_kernel,
)
from beggar_search.engine.random import chunk_stream
from beggar_search.strategies import STRATEGIES, ChunkJob, execute

CAMICIA = Deck.parse("camicia")


@pytest.mark.parametrize(("deck", "players", "source", "kernel"), [
    (STANDARD, 2, RANDOM, BITBOARD),
    (STANDARD, 2, SEQUENCES, BITBOARD),
    (STANDARD, 2, ENUMERATE, BITBOARD),
    (STANDARD, 3, RANDOM, BITBOARD),
    (STANDARD, 4, ENUMERATE, BITBOARD),
    (CAMICIA, 2, RANDOM, BITBOARD),
    (CAMICIA, 2, SEQUENCES, BITBOARD),
    (STANDARD, 5, RANDOM, GENERAL),
    (CAMICIA, 8, ENUMERATE, GENERAL),
])
def test_the_fastest_kernel_that_applies(deck, players, source, kernel):
    assert choose(deck, players, source) is kernel


def test_stored_engine_ids_resolve():
    assert by_name("fast2") is FAST2 and by_name("general") is GENERAL
    assert by_name("bitboard") is BITBOARD
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
    ("random", "standard", "bitboard", 1 << 21),
    ("random", "camicia", "bitboard", 1 << 21),
    ("climb", "standard", "bitboard", 8 << 21),
    ("climb", "camicia", "bitboard", 8 << 21),
])
def test_runs_store_their_random_kernel_and_its_chunk(name, deck, engine, chunk):
    params = STRATEGIES[name].prepare({"deck": deck, "players": 2, "chunk_size": None})
    assert (params["engine"], params["chunk_size"]) == (engine, chunk)
    given = STRATEGIES[name].prepare({"deck": deck, "players": 2, "chunk_size": 5,
                                      "engine": "general"})
    assert (given["engine"], given["chunk_size"]) == ("general", 5)


def params(**extra):
    base = {"deck": "camicia", "players": 2, "seed": 3, "top_k": 15, "max_tricks": None,
            "chunk_size": 5000, "hours": None, "deals": 10000}
    return {**base, **extra}


def same(one, two):
    assert (one.deals, one.loops, one.caps, one.cards) == (two.deals, two.loops, two.caps,
                                                            two.cards)
    for name in ("wins", "histogram", "top_positions", "top_rows", "top_deals",
                 "loop_positions", "loop_rows", "loop_deals"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name), err_msg=name)


def test_a_run_stored_as_general_plays_the_general_engines_deals():
    run = params(engine="general")
    summary = execute(ChunkJob("random", 1, 5000, run))
    deck = Deck.parse("camicia")
    recorder = batch.random_chunk(chunk_stream(3, 1), 5000, deck.sorted_cards(),
                                  np.array([20, 20]), 0, batch.new_recorder(15, 40))
    same(summary, batch.ChunkSummary.from_recorder(recorder, 2))


def test_fast2_is_the_bitboard_draw_of_the_standard_deck():
    one = execute(ChunkJob("random", 0, 5000, params(deck="standard", engine="fast2")))
    two = execute(ChunkJob("random", 0, 5000, params(deck="standard", engine="bitboard")))
    same(one, two)


def test_enumeration_is_the_general_engines():
    deck = Deck.parse("plain=10,J=2,Q=2,K=2,A=2")
    run = params(deck=deck.spec, start=123_456, chunk_size=10_000, deals=30_000)
    summary = execute(ChunkJob("enumerate", 2, 10_000, run))
    first = unrank_sequence(123_456 + 20_000, deck)
    recorder = batch.enumerate_chunk(first, 10_000, np.array([9, 9]), 0,
                                     batch.new_recorder(15, 18))
    same(summary, batch.ChunkSummary.from_recorder(recorder, 2))


@pytest.mark.parametrize(("players", "name"), [(2, "bitboard"), (3, "bitboard"),
                                               (4, "bitboard"), (5, "general"), (8, "general")])
def test_the_fastest_kernel_serves_every_source(players, name):
    deck = Deck.parse("plain=20,J=2,Q=2,K=2,A=2")
    for source in (RANDOM, ENUMERATE, SEQUENCES):
        assert choose(deck, players, source).name == name


def test_play_sequences_picks_the_kernel_by_players():
    deck = Deck.parse("plain=8,J=2,Q=2,K=2")
    deals = bitboard.generate(chunk_stream(1, 1), 300, deck.sorted_cards())
    for players in (2, 3, 4, 5):
        split = np.array(deck.split(players), dtype=np.int64)
        fast = Engine(deck, players).play_sequences(deals)
        general = np.zeros_like(fast)
        rules.play_sequences(deals, split, 0, 0, general)
        np.testing.assert_array_equal(fast, general)

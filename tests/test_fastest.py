"""Every search plays through the fastest kernel that applies; stored engine ids keep their
deals; ``beggar-search bench`` puts the fast path and the general engine side by side."""

import json
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from beggar_search.cli import cli
from beggar_search.deck import Deck, unrank_sequence
from beggar_search.engine import batch, bitboard, fastest
from beggar_search.engine.random import chunk_stream
from beggar_search.strategies import STRATEGIES, ChunkJob, execute


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


@pytest.mark.parametrize(("players", "engine"), [(2, "bitboard"), (5, "general")])
def test_new_runs_store_the_fast_draw_where_a_fast_kernel_plays(players, engine):
    prepared = STRATEGIES["random"].prepare(params(players=players, chunk_size=None))
    assert prepared["engine"] == engine


def test_enumeration_is_the_general_engines():
    deck = Deck.parse("plain=10,J=2,Q=2,K=2,A=2")
    run = params(deck=deck.spec, start=123_456, chunk_size=10_000, deals=30_000)
    summary = execute(ChunkJob("enumerate", 2, 10_000, run))
    first = unrank_sequence(123_456 + 20_000, deck)
    recorder = batch.enumerate_chunk(first, 10_000, np.array([9, 9]), 0,
                                     batch.new_recorder(15, 18))
    same(summary, batch.ChunkSummary.from_recorder(recorder, 2))


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown engine"):
        fastest.draw_of("turbo")


def test_play_sequences_picks_the_kernel_by_players():
    deck = Deck.parse("plain=8,J=2,Q=2,K=2")
    deals = bitboard.generate(chunk_stream(1, 1), 300, deck.sorted_cards())
    for players in (2, 3, 4, 5):
        split = np.array(deck.split(players), dtype=np.int64)
        fast = np.zeros((300, fastest.rules.RESULT_LEN), dtype=np.int64)
        general = np.zeros_like(fast)
        fastest.play_sequences(deals, split, 0, 0, fast)
        fastest.rules.play_sequences(deals, split, 0, 0, general)
        np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("source", ["random", "enumerate"])
def test_bench_prints_both_engines(source):
    result = CliRunner().invoke(cli, ["bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source",
                                      source, "--deals", "3000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["fast"]["deals"] == 3000 and data["general"]["deals"] == 300
    assert data["fast"]["cards"] > 0 and data["general"]["cards"] > 0
    assert data["cards_ratio"] > 0 and data["fast_kernel"] == "bitboard"
    text = CliRunner().invoke(cli, ["bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source",
                                    source, "--deals", "3000"]).output
    assert "fast path (bitboard)" in text and "general engine" in text


def test_bench_refuses_a_bad_deck_in_one_line():
    result = subprocess.run([sys.executable, "-m", "beggar_search", "bench", "--deck", "plain=3",
                             "--players", "4"], capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot be dealt" in result.stderr

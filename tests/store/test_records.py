"""What the driver hands the store: a chunk as plain records (records.py)."""

import ast
from pathlib import Path

from beggar_search import Deal, play, store
from beggar_search.store.records import ChunkRecord
from beggar_search.strategies import STRATEGIES, ChunkJob, strategy_for


def test_a_chunk_becomes_plain_records():
    params = STRATEGIES["enumerate"].prepare(
        {"deck": "plain=8,J=2,Q=2,K=2", "players": 2, "seed": None, "top_k": 4,
         "max_tricks": None, "chunk_size": 5000, "start": 1000, "deals": 20000})
    strategy = strategy_for("enumerate", params)
    job = ChunkJob("enumerate", 1, 5000, params)
    summary = strategy.run_chunk(job)
    record = strategy.record(job, summary)
    assert isinstance(record, ChunkRecord) and record.chunk == 1
    assert (record.deals, record.loops, record.cards) == (5000, summary.loops, summary.cards)
    assert sum(count for _, count in record.histogram) == 5000 - summary.loops - summary.caps
    longest = [game for game in record.games if game.board == "longest"]
    assert [game.cards for game in longest] == sorted((g.cards for g in longest), reverse=True)
    for game in record.games:
        deal = Deal.parse(game.deal, "plain=8,J=2,Q=2,K=2")
        assert game.number == 1000 + 5000 + game.position == deal.rank()
        result = play(deal)
        assert (game.outcome, game.cards, game.tricks, game.cycle) == (
            result.outcome, result.cards, result.tricks, result.cycle)


def test_the_store_never_imports_the_engine_or_the_strategies():
    imported = set()
    for name in ("results", "schema", "file_safety", "errors"):  # the Store and below it
        tree = ast.parse((Path(store.__file__).parent / f"{name}.py").read_text())
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
    assert not any("engine" in name or "strateg" in name for name in imported if name)

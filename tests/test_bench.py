"""``beggar-search bench``: the fast path and the general engine side by side."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from beggar_search.cli import cli


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

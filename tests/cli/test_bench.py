"""``beggar-search bench``: the fast path and the general engine side by side."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from beggar_search.cli import cli


@pytest.mark.slow  # among the slowest of the suite (issue 26: 72-482 s each)
@pytest.mark.parametrize("source", ["random", "enumerate"])
def test_bench_prints_both_engines(source):
    result = CliRunner().invoke(cli, ["bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source",
                                      source, "--deals", "3000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["fast"]["deals"] == 3000 and data["general"]["deals"] == 300
    assert data["fast"]["cards"] > 0 and data["general"]["cards"] > 0
    assert data["cards_ratio"] > 0 and data["fast_kernel"] == "bitboard"
    text = CliRunner().invoke(cli, ["bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source",
                                    source, "--deals", "3000"]).output
    assert "fast path (bitboard)" in text and "general engine" in text


def test_bench_refuses_a_bad_deck_in_one_line(cli):
    result = cli("bench", "--deck", "plain=3", "--players", "4")
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot be dealt" in result.stderr


def test_c_yardstick_plays_the_engines_games(tmp_path):
    """The card-by-card C yardstick (benchmarks/c_yardstick) agrees with the baseline kernel
    on shuffled deals and with the general engine on given ones."""
    import importlib.util
    import shutil
    from pathlib import Path

    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")):
        pytest.skip("no C compiler")
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_c_yardstick.py"
    spec = importlib.util.spec_from_file_location("bench_c_yardstick", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    binary, _ = module.compile_yardstick(str(tmp_path))
    checked = module.check(binary, 3000, str(tmp_path))  # raises when a game differs
    assert checked["differ"] == 0 and checked["shuffled_cards"] > 3000 * 100


def test_c_yardstick_says_when_no_compiler_is_found():
    import os
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_c_yardstick.py"
    result = subprocess.run([sys.executable, str(script), "--deals", "10"], capture_output=True,
                            text=True, env={**os.environ, "PATH": "/nonexistent"})
    assert result.returncode == 2 and result.stdout == ""
    assert "no C compiler" in result.stderr and len(result.stderr.strip().splitlines()) == 1

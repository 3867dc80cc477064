"""``beggar-search bench``: the fast path and the general engine side by side."""

import subprocess
import sys

import pytest
from cli_harness import run


@pytest.mark.slow  # among the slowest of the suite (issue 26: 72-482 s each)
@pytest.mark.parametrize("source", ["random", "enumerate"])
def test_bench_prints_both_engines(source):
    result = run("bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source", source, "--deals",
                 "3000", "--json")
    assert result.returncode == 0, result.output
    data = result.json()
    assert data["fast"]["deals"] == 3000 and data["general"]["deals"] == 300
    assert data["fast"]["cards"] > 0 and data["general"]["cards"] > 0
    assert data["cards_ratio"] > 0 and data["fast_kernel"] == "bitboard"
    text = run("bench", "--deck", "plain=8,J=2,Q=1,K=1", "--source", source, "--deals",
               "3000")
    assert text.returncode == 0, text.output
    assert "fast path (bitboard)" in text.stdout and "general engine" in text.stdout


def test_bench_refuses_a_bad_deck_in_one_line():
    result = run("bench", "--deck", "plain=3", "--players", "4")
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


def test_bench_gives_the_median_round_and_the_rounds_spread():
    from beggar_search.bench.speed import Timing
    from beggar_search.cli.bench import median_round

    rounds = [Timing(1000, 10_000, seconds, seconds) for seconds in (0.5, 0.4, 0.8)]
    middle, spread = median_round(rounds)
    assert middle is rounds[0]  # 2000 deals/s, between 1250 and 2500
    rates = [2000, 2500, 1250]
    mean = sum(rates) / 3
    sd = (sum((rate - mean) ** 2 for rate in rates) / 2) ** 0.5
    assert spread == pytest.approx(sd / mean)
    assert median_round(rounds[:1]) == (rounds[0], 0.0)


@pytest.mark.parametrize(("load", "warned"), [(5.5, True), (1.5, False), (None, False)])
def test_bench_warns_when_the_load_is_above_the_cores(capsys, load, warned):
    from beggar_search.cli.bench import warn_if_loaded

    warn_if_loaded({"load": load, "cores": 2})
    err = capsys.readouterr().err
    assert ("warning: the load average (5.5) is above the 2 cores" in err) is warned

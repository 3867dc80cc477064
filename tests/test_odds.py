"""The tail fit of ``beggar-search odds``: it recovers a known decay, its interval covers the
truth, it reads only uniform samples, and the command, ``show`` and ``plot tail`` use it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from cli_harness import run

from beggar_search import odds
from beggar_search.store import Store
from beggar_search.store.records import ChunkRecord
from beggar_search.strategies import STRATEGIES

TAU = 40.0
START = 100  # every synthetic game lasts at least this many cards


def geometric_histogram(games: int, tau: float = TAU, seed: int = 1) -> list[tuple[int, int]]:
    """``games`` lengths START + a geometric excess falling e-fold every ``tau`` cards."""
    rng = np.random.default_rng(seed)
    lengths = START + rng.geometric(-math.expm1(-1 / tau), size=games) - 1
    cards, counts = np.unique(lengths, return_counts=True)
    return [(int(c), int(n)) for c, n in zip(cards, counts, strict=True)]


def truth(cards: float, tau: float = TAU) -> float:
    """The synthetic deck's exact chance of a game of at least ``cards`` cards."""
    return math.exp(-(cards - START) / tau)


def test_the_fit_recovers_the_decay_of_an_exponential_tail():
    for tau in (12.0, 40.0, 150.0):
        fit = odds.fit_tail(odds.Sample.of(geometric_histogram(400_000, tau)))
        low, high = fit.tau_interval
        assert abs(fit.tau - tau) < high - low  # 3.9 standard errors (coverage: below)
        assert high - low < 0.05 * tau  # 400,000 games pin it to a few per cent
        assert fit.fit_from == max(math.ceil(odds.START_SHARE * fit.fit_to), START)
        assert fit.tail_games == odds.Sample.of(geometric_histogram(400_000, tau)).at_least(
            fit.fit_from)


def test_the_interval_covers_the_truth_far_past_the_data():
    """Of 100 samples, the 95% interval of the chance of >= 20 decay lengths (about 12
    past the fit's end) holds the truth about 95 times."""
    cards = START + 20 * TAU
    held = 0
    for seed in range(100):
        found = odds.odds(odds.Sample.of(geometric_histogram(100_000, seed=seed)), int(cards))
        assert found.efolds_beyond_data > 8
        held += found.per_game.low <= truth(cards) <= found.per_game.high
    assert 88 <= held <= 100


def test_the_expected_counts_follow_the_chance():
    found = odds.odds(odds.Sample.of(geometric_histogram(200_000)), 900)
    assert found.expected_games == pytest.approx(1 / found.per_game.value)
    in_budget = found.expected_in(1e9)
    assert in_budget.value == pytest.approx(1e9 * found.per_game.value)
    assert in_budget.low < in_budget.value < in_budget.high
    assert found.chance_in(1e9) == pytest.approx(-math.expm1(-in_budget.value))
    # the sample counts loops and capped games too: the share is of every deal
    doubled = odds.odds(odds.Sample.of(geometric_histogram(200_000), games=400_000), 900)
    assert doubled.per_game.value == pytest.approx(found.per_game.value / 2)


def test_a_sample_too_small_or_a_length_below_the_tail_is_refused():
    with pytest.raises(odds.OddsError, match="too few games"):
        odds.fit_tail(odds.Sample.of(geometric_histogram(25)))
    with pytest.raises(odds.OddsError, match="too few games"):
        odds.fit_tail(odds.Sample.of(geometric_histogram(150)))
    with pytest.raises(odds.OddsError, match="no finished game"):
        odds.fit_tail(odds.Sample.of([]))
    with pytest.raises(odds.OddsError, match="below the fitted tail"):
        odds.odds(odds.Sample.of(geometric_histogram(100_000)), START)


# runs in a results file ----------------------------------------------------------------

DECK = "plain=18,J=2,Q=2,K=2"


def stored_run(store, strategy: str, histogram, deals: int, seconds: float = 10.0,
               deck: str = DECK, sample=(), chunk_size: int | None = None):
    """A run of ``strategy`` holding one chunk with ``histogram`` (no leaderboard)."""
    params = STRATEGIES[strategy].prepare(
        {"deck": deck, "players": 2, "seed": 1, "top_k": 10, "max_tricks": None,
         "chunk_size": chunk_size, "hours": None, "start": 0, "deals": deals})
    run = store.create_run(strategy, params, "test")
    store.add_chunk(run, ChunkRecord(
        chunk=0, deals=deals, loops=0, caps=0, cards=sum(c * n for c, n in histogram),
        wins=(deals // 2, deals - deals // 2), seconds=seconds, histogram=tuple(histogram),
        games=(), sample_histogram=tuple(sample)), top_k=10, elapsed=seconds)
    return store.run(run.id)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Runs 1 random (200,000 games), 2 climb (its random deals apart from its others),
    3 enumerate, 4 random on another deck, 5 random standard (decay 206 cards), 6 random
    camicia (decay 156 cards)."""
    path = tmp_path_factory.mktemp("odds") / "r.sqlite"
    sample = geometric_histogram(200_000)
    with Store(path) as store:
        stored_run(store, "random", sample, 200_000, chunk_size=200_000)
        extended = [(c, n * 3) for c, n in sample]  # the extension's games: no sample
        stored_run(store, "climb", extended, 600_000, sample=sample, chunk_size=200_000)
        stored_run(store, "enumerate", sample, 200_000)
        stored_run(store, "random", sample, 200_000, deck="plain=16,J=2,Q=2,K=2")
        standard = [(c + 400, n) for c, n in geometric_histogram(1_000_000, 206.0)]
        stored_run(store, "random", standard, 1_000_000, seconds=2.0, deck="standard")
        camicia = [(c + 300, n) for c, n in geometric_histogram(1_000_000, 156.0)]
        stored_run(store, "random", camicia, 1_000_000, seconds=2.0, deck="camicia")
    return path


def test_a_climb_is_fitted_on_its_random_deals_alone(results):
    with Store(results, create=False) as store:
        random_sample = odds.sample_of(store, [store.run(1)])
        climb_sample = odds.sample_of(store, [store.run(2)])
        pooled = odds.sample_of(store, [store.run(1), store.run(2)])
        assert climb_sample.games == random_sample.games == 200_000  # its chunk's plan
        assert np.array_equal(climb_sample.counts, random_sample.counts)
        assert pooled.games == 400_000 and pooled.seconds == 20.0
        for run_id, words in ((3, "no uniform random sample"), ):
            with pytest.raises(odds.OddsError, match=words):
                odds.sample_of(store, [store.run(run_id)])
        with pytest.raises(odds.OddsError, match="different decks"):
            odds.sample_of(store, [store.run(1), store.run(4)])


def test_odds_prints_the_chance_the_budget_and_the_warning(results):
    done = run("odds", "--db", results, "--run", "1", "--cards", "900", "--deals", "1e9")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("note: long games come in merge families")
    assert any(line.startswith("per game") for line in lines)
    assert any(line.startswith("budget") and "in 1e+09 games" in line for line in lines)
    assert any(line.startswith("caution:") for line in lines)  # past the data, not too far
    far = run("odds", "--db", results, "--run", "1", "--cards", "2000")
    assert far.returncode == 0
    assert "warning: that is past the 14 e-folds" in far.stdout


def test_odds_json_budget_in_hours_at_the_runs_rate(results):
    done = run("odds", "--db", results, "--run", "1", "--cards", "900", "--hours", "2",
               "--workers", "16", "--json")
    record = json.loads(done.stdout)
    assert record["games_per_second_per_worker"] == 20_000.0  # 200,000 games in 10 s
    assert record["budget_games"] == pytest.approx(20_000 * 16 * 7200)
    assert record["expected_in_budget"] == pytest.approx(
        record["per_game"] * record["budget_games"])
    assert record["expected_in_budget_low"] < record["expected_in_budget"] < record[
        "expected_in_budget_high"]
    assert record["per_game_low"] < truth(900) < record["per_game_high"]
    assert record["efolds_beyond_data"] == pytest.approx(
        (900 - record["fit_to"]) / record["tau"], abs=1e-2)
    gpu = json.loads(run("odds", "--db", results, "--run", "1", "--cards", "900", "--hours",
                         "1", "--rate", "1e9", "--json").stdout)
    assert gpu["budget_games"] == 3.6e12 and gpu["rate_from"] == "--rate"


@pytest.mark.parametrize(("args", "words"), [
    (["--run", "3", "--cards", "900"], "no uniform random sample"),
    (["--run", "1", "--cards", "50"], "below the fitted tail"),
    (["--run", "1", "--cards", "900", "--deals", "0"], "greater than 0"),
    (["--run", "1", "--cards", "900", "--deals", "-5"], "greater than 0"),
    (["--run", "1", "--cards", "900", "--hours", "nan"], "greater than 0"),
    (["--run", "1", "--cards", "900", "--deals", "5", "--hours", "1"], "not both"),
    (["--run", "1", "--run", "4", "--cards", "900"], "different decks"),
    (["--run", "9", "--cards", "900"], "no run 9"),
    (["--run", "1", "--cards", "1000000"], "below 1e-300 a game"),  # was a ZeroDivisionError
])
def test_odds_refuses_bad_input_in_one_line(results, args, words):
    done = run("odds", "--db", results, *args)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert words in done.stderr


def test_odds_refuses_too_few_games_and_no_histogram(tmp_path):
    path = tmp_path / "few.sqlite"
    with Store(path) as store:
        stored_run(store, "random", geometric_histogram(150), 150)
        stored_run(store, "random", [], 10)
    for run_id, words in (("1", "too few games"), ("2", "no histogram")):
        done = run("odds", "--db", path, "--run", run_id, "--cards", "900")
        assert done.returncode == 2 and words in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_show_gives_the_odds_of_beating_the_decks_record(results):
    shown = run("show", "--db", results, "--run", "5")
    line = next(line for line in shown.stdout.splitlines() if line.startswith("odds"))
    assert "at this run's rate, a game >= 8,345 is expected every" in line
    record = json.loads(run("show", "--db", results, "--run", "5", "--json").stdout)
    found = record["record_odds"]
    assert found["best_known"] == 8344 and found["cards"] == 8345
    assert found["expected_seconds"] == pytest.approx(found["expected_games"] / 500_000)
    assert found["per_game_low"] < math.exp(-(8345 - 500) / 206) < found["per_game_high"]
    # no record known for a small deck: no line, no key
    small = run("show", "--db", results, "--run", "1")
    assert not any(line.startswith("odds") for line in small.stdout.splitlines())
    assert "record_odds" not in json.loads(run("show", "--db", results, "--run", "1",
                                               "--json").stdout)


def test_a_census_of_every_deal_overrules_the_fit(results):
    """Camicia's public census played every deal: none is longer than 4,663 cards, so the
    odds say so beside the fit's figure (which over-predicts the very top)."""
    done = run("odds", "--db", results, "--run", "6", "--cards", "4664")
    assert "the true chance of 4,664 is 0" in done.stdout
    assert json.loads(run("odds", "--db", results, "--run", "6", "--cards", "4664",
                          "--json").stdout)["census_maximum"] == 4663
    assert json.loads(run("odds", "--db", results, "--run", "5", "--cards", "4664",
                          "--json").stdout)["census_maximum"] is None
    shown = run("show", "--db", results, "--run", "6").stdout
    assert "a census of every deal of this deck found none" in shown
    record = json.loads(run("show", "--db", results, "--run", "6", "--json").stdout)
    assert record["record_odds"]["census_maximum"] == 4663


def test_plot_tail_writes_a_png(results, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "tail.png"
    done = run("plot", "tail", "--db", results, "--run", "5", "--out", out, "--json")
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and out.stat().st_size > 10_000
    record = json.loads(done.stdout)
    assert record["cards"] == 8345 and record["per_game"] > 0
    refused = run("plot", "tail", "--db", results, "--run", "3", "--out", tmp_path / "x.png")
    assert refused.returncode == 2 and "no uniform random sample" in refused.stderr

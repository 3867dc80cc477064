"""benchmarks/bench_records.py: census truths replay, families merge, budgets are kept."""

import json

import pytest
from benchmark_scripts import load_script  # tests/ is on the path
from naive import play_naive

from beggar_search.cards.deck import Deal
from beggar_search.engine.game import trajectory

bench = load_script("bench_records")


@pytest.mark.parametrize("spec", bench.DECKS)
def test_census_truth_is_the_longest_first_and_replays(spec):
    data = json.loads(bench.truth_path(spec).read_text())
    top = data["top"]
    assert data["deck"] == spec and len(top) == bench.CENSUS_TOP
    assert [c for _, c in top] == sorted((c for _, c in top), reverse=True)
    assert len({deal for deal, _ in top}) == len(top)
    histogram = dict(data["histogram"])
    assert max(histogram) == top[0][1] and sum(histogram.values()) <= data["deals"]
    truth = bench.Truth.of(data)
    assert len(truth.lengths) >= bench.TRUTH and truth.lengths[-1] == top[bench.TRUTH - 1][1]
    for deal, cards in top[:3] + top[bench.TRUTH - 1: bench.TRUTH]:
        result = play_naive(Deal.parse(deal, truth.deck).hands)
        assert (result["outcome"], result["cards"]) == ("win", cards)


def test_a_deal_and_a_fair_later_state_of_its_game_are_one_family():
    data = json.loads(bench.truth_path(bench.QUICK_DECKS[0]).read_text())
    truth = bench.Truth.of(data)
    first = Deal.parse(data["top"][0][0], truth.deck).hands
    other = Deal.parse(data["top"][-1][0], truth.deck).hands  # far shorter: its own family
    later = [h for h, lead in trajectory(first)[1:] if lead == 0
             and tuple(map(len, h)) == (len(first[0]), len(first[1]))]
    assert later, "the longest game of this deck passes a fair state"
    assert bench.families([first, later[0], other]) == [0, 0, 1]
    mirrored = next(h[::-1] for h, lead in trajectory(first) if lead == 1)  # player 1 leads it
    assert bench.families([first, mirrored]) == [0, 1]
    assert bench.families([first, mirrored], mirrored=True) == [0, 0]


@pytest.mark.parametrize("method", bench.METHODS)
def test_a_search_stops_at_its_budget_and_credits_only_truth_games(method):
    truth = bench.Truth.of(json.loads(bench.truth_path(bench.QUICK_DECKS[0]).read_text()))
    outcome = bench.run_search(method, truth, 3000, 1, 2, {"closure_states": 2000})
    assert outcome.games == 3000 and 0 < outcome.best <= truth.longest
    assert all(0 <= index < 3000 for index in outcome.found.values())
    assert outcome.to_longest is None or outcome.to_longest <= 3000


def test_the_touch_bound_counts_the_longest_game_s_family_and_its_mirror():
    data = json.loads(bench.truth_path(bench.QUICK_DECKS[0]).read_text())
    truth = bench.Truth.of(data)
    longest = Deal.parse(data["top"][0][0], truth.deck)
    family = bench.touching([longest], truth.deck)
    assert truth.touching == len(family) and bytes(longest.sequence) in family
    trunk = {(tuple(map(tuple, h)), lead) for h, lead in trajectory(longest.hands)[:-1]}
    trunk |= {(hands[::-1], 1 - lead) for hands, lead in trunk}
    for sequence in sorted(family)[::max(1, len(family) // 25)]:  # every one's game merges
        hands = Deal.from_sequence(list(sequence), 2, truth.deck).hands
        assert any((tuple(map(tuple, h)), lead) in trunk for h, lead in trajectory(hands))
    assert truth.touch_bound(0) == 0 and 0 < truth.touch_bound(10**5) < truth.touch_bound(10**6)


def test_the_extension_bound_counts_only_touches_by_one_of_a_chunk_s_longest():
    # 10,000 deals: 9,000 of 10 cards, 990 of 50, 10 of 100; members of 100 and 10 cards
    histogram = [[10, 9_000], [50, 990], [100, 10]]
    bound = bench.extension_bound(histogram, [100, 10], 10_000, 1_000, 1_000, 8)
    assert bound.touches == pytest.approx(0.2)  # 2 members, a tenth of the deals drawn
    # nothing is longer than the 100-card member: always extended; the 10-card one has
    # ~100 longer deals in its chunk: never among the 8 longest
    assert bound.extendable == pytest.approx(0.1, rel=1e-6)
    assert bound.chance == pytest.approx(1 - 2.718281828459045 ** -0.1)
    wider = bench.extension_bound(histogram, [100, 10], 10_000, 1_000, 1_000, 200)
    assert wider.extendable == pytest.approx(0.2, rel=1e-3)  # 200 parents reach it too


def test_misses_reports_the_family_s_touching_deals_and_both_bounds(capsys):
    spec = bench.QUICK_DECKS[0]
    truth = bench.Truth.of(json.loads(bench.truth_path(spec).read_text()))
    bench.main(["misses", spec, "--seeds"])
    line = capsys.readouterr().out
    assert f"{truth.touching} fair deals touch" in line
    touch = float(line.split("seeds of 8 touching ")[1].split(",")[0])
    extended = float(line.split("touching by a deal that is extended ")[1])
    assert touch == pytest.approx(8 * truth.touch_bound(round(1e-2 * truth.census)), abs=0.05)
    assert 0 < extended < touch  # only some touches are by a deal its chunk extends


@pytest.mark.slow
def test_misses_replays_a_seed_s_chunks_and_names_its_touches(capsys):
    """A seed's chunks replayed: each touch named with its rank and family rank, then whether
    the run found the longest game (its merge families through the run's Game value)."""
    spec = bench.QUICK_DECKS[0]
    bench.main(["misses", spec, "--fraction", "1e-2", "--seeds", "1"])
    lines = capsys.readouterr().out.splitlines()
    touches = [line for line in lines if line.startswith("seed 1 chunk ")]
    assert touches and all("family rank" in line and "extended: " in line for line in touches)
    assert lines[-1] in ("seed 1: found the longest: True", "seed 1: found the longest: False")

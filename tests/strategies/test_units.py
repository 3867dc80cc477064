"""What each strategy says of its own work (its unit, whether its deals end at its plan, its
progress line, its summary's figures): the driver and the command line ask the strategy,
never branch on its name."""

import math

import pytest

from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES, Strategy, strategy_for
from beggar_search.strategies.factory import FactoryStrategy
from beggar_search.strategies.units import KINDS, strategy_class, unit_of

TINY = "plain=5,J=2,Q=1,K=1"  # 1,512 deals, 12 of them loops, 2 cycles


def test_every_strategy_counts_its_work_in_deals_tries_or_games():
    assert {name: kind.unit for name, kind in STRATEGIES.items()} == {
        "random": "deals", "enumerate": "deals", "climb": "games", "hunt": "tries",
        "factory": "tries"}
    assert all(unit_of(name) == kind.unit for name, kind in STRATEGIES.items())


def test_a_strategy_this_version_does_not_know_counts_deals():
    assert strategy_class("gone").loaded() is Strategy
    assert unit_of("gone") == "deals"
    assert Strategy.summary_figures(None, 1) == {}
    assert strategy_class("gone").summary_figures(None, 1) == {}


SAID = ("default_chunk", "unit", "ends_at_plan", "of_cycles", "counts_caps", "number_label",
        "sample")


@pytest.mark.parametrize("name", ["random", "enumerate", "climb", "hunt", "factory"])
def test_what_a_reader_is_told_of_a_strategy_is_what_its_class_says(name):
    """``units.KINDS`` (read without loading the engine) copies each class's attributes."""
    kind, cls = strategy_class(name), STRATEGIES[name]
    assert {key: getattr(kind, key) for key in SAID} == {key: getattr(cls, key) for key in SAID}
    assert kind.figures == (cls.summary_figures.__func__ is not Strategy.summary_figures.__func__)
    assert kind.loaded() is cls and kind.name == cls.name
    assert set(STRATEGIES) == set(KINDS)


def test_a_reader_asks_the_class_for_anything_else(tmp_path):
    params = STRATEGIES["climb"].prepare({"deck": TINY, "players": 2, "seed": 3, "top_k": 5,
                                          "max_tricks": None, "chunk_size": 500,
                                          "deals": 1000})
    plan = strategy_class("climb")(params)  # what odds asks of a climber: its plan
    assert type(plan) is STRATEGIES["climb"] and plan.chunk_deals(0) > 0
    assert strategy_class("climb").prepare == STRATEGIES["climb"].prepare


def test_only_a_climb_stores_more_than_its_plan():
    """A climb also plays the extension's games: its bar has no total."""
    assert [name for name, kind in STRATEGIES.items() if not kind.ends_at_plan] == ["climb"]


def test_what_each_summary_says():
    assert {name for name, kind in STRATEGIES.items() if kind.of_cycles} == {"hunt", "factory"}
    assert {name for name, kind in STRATEGIES.items() if not kind.counts_caps} == {"factory"}
    assert {name: kind.number_label for name, kind in STRATEGIES.items()} == {
        "random": "game no.", "enumerate": "deal index", "climb": "game no.",
        "hunt": "game no.", "factory": "game no."}


def params(**extra) -> dict:
    return {"deck": TINY, "players": 2, "seed": 3, "top_k": 5, "max_tricks": None,
            "chunk_size": 500, "hours": None, **extra}


@pytest.mark.parametrize("name", ["random", "enumerate", "climb", "hunt"])
def test_a_search_of_games_shows_its_longest_and_its_loops(tmp_path, name):
    prepared = STRATEGIES[name].prepare(params(deals=1000, start=0, starts=[], until_idle=None))
    with Store(tmp_path / "r.sqlite") as store:
        run = store.create_run(name, prepared, "test")
        line = strategy_for(name, prepared).progress(store, run)
    assert line == "best - cards, 0 loops"


def test_a_factory_shows_its_family_every_ten_seconds(tmp_path, monkeypatch):
    prepared = FactoryStrategy.prepare(params(top_k=0, starts=[], seed_chunks=0, kicks=[]))
    strategy = strategy_for("factory", prepared)
    with Store(tmp_path / "f.sqlite") as store:
        run = store.create_run("factory", prepared, "test")
        assert strategy.progress(store, run) == "0 cycles in 0 islands, 0 fair (0 deals)"
        assert strategy.progress(store, run) is None  # read again only 10 s later
        strategy.family_read -= 10.0
        strategy.phase = "walking (generation 1, 2 cycles)"
        assert strategy.progress(store, run) == ("0 cycles in 0 islands, 0 fair (0 deals);"
                                                 " walking (generation 1, 2 cycles)")
        assert set(FactoryStrategy.summary_figures(store, run.id)) == {
            "cycles", "fair_cycles", "fair_deals", "islands", "fair_islands",
            "first_cycle_tries", "last_cycle_tries", "tries_since_new_cycle", "seeding_tries",
            "walking_tries", "kicking_tries"}
    assert strategy_for("factory", prepared).family_read == -math.inf  # each sitting's own

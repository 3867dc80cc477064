"""Egyptian ratscrew on the command line and in stored runs: play, deal, the searches,
show and export, bad input."""

import csv
import io
import json

import pytest
from cli_harness import run
from storeview import stored

from beggar_search import driver
from beggar_search.cards.ranked import RankedDeal
from beggar_search.cards.slaps import SlapRules
from beggar_search.engine import ers_game
from beggar_search.store import Store

EXAMPLE = ["Q4427/5K386", "--deck", "2=1,3=1,4=2,5=1,6=1,7=1,8=1,Q=1,K=1"]
LOOP_DECK = "8=2,9=2,T=2,J=2,Q=1,K=1"  # 226,800 deals, 1,224 loop under first:1


def ok(*args):
    result = run(*args)
    assert result.returncode == 0, result.output
    return result.stdout


def ers_params(**extra):
    base = {"deck": "standard", "players": 2, "seed": 11, "top_k": 10, "max_tricks": 2000,
            "chunk_size": 3000, "hours": None, "deals": 9000, "game": "ers",
            "slap_rules": "pair", "slap_policy": "odds:0.4,0.6", "slap_in": True}
    return {**base, **extra}


def test_play_traces_the_slap():
    lines = ok("play", "--game", "ers", *EXAMPLE, "--slap-policy", "first:1",
                "--trace").splitlines()
    assert lines[0].startswith("trick     1") and "SLAP by player 1, takes 5" in lines[0]
    data = json.loads(ok("play", "--game", "ers", *EXAMPLE, "--slap-policy", "turn",
                          "--json"))
    assert data["game"] == "ers" and data["slap_policy"] == "turn" and data["outcome"] == "win"
    traced = [json.loads(line) for line in ok("play", "--game", "ers", *EXAMPLE,
                                               "--slap-policy", "turn", "--trace",
                                               "--json").splitlines()]
    assert traced[0]["slapper"] == 2 and traced[-1]["cards"] == data["cards"]


@pytest.mark.parametrize("args, message", [
    (["play", "--game", "ers", "Q44X7/5K386"], "unknown rank letters 'X'"),
    (["play", "--game", "ers", *EXAMPLE[:1], "--deck", "standard"], "does not match"),
    (["play", "--game", "ers", *EXAMPLE, "--slap-policy", "first:3"], "no player 3"),
    (["play", "--game", "ers", *EXAMPLE, "--slap-policy", "odds:0.5,0.6"], "sum to 1.1"),
    (["play", "--game", "ers", *EXAMPLE, "--deck", "Z=4"], "unknown rank 'Z'"),
    (["play", "J/-J", "--slap-policy", "turn"], "for --game ers"),
    (["search", "random", "--game", "ers", "--slap-policy", "odds:1", "--deals", "5"],
     "1 odds for 2 players"),
    (["search", "climb", "--game", "ers", "--slap-policy", "odds:0.5,0.5"],
     "not a function of the deal"),
    (["search", "hunt", "--game", "ers"], "Beggar-my-neighbour only"),
    (["search", "factory", "--game", "ers", "--slap-policy", "odds:0.5,0.5"],
     "deterministic slap policy"),
    (["search", "factory", "--game", "ers", "--seeding", "grow"], "Beggar-my-neighbour only"),
    (["search", "factory", "--game", "ers", "--slap-policy", "first:3"], "no player 3"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    result = run(*args, *(["--db", tmp_path / "r.sqlite"] if args[0] == "search" else []))
    assert result.returncode == 2
    err = result.stderr
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.sqlite").exists()


def test_deal_index_over_a_ranked_deck():
    assert ok("deal", "--game", "ers", "--index", "86", "--deck", LOOP_DECK).strip() == \
        "8899J/JTQTK"
    assert ok("deal", "--game", "ers", "--rank", "8899J/JTQTK", "--deck", LOOP_DECK).strip() \
        == "86"


@pytest.mark.slow
def test_odds_run_is_the_same_on_any_number_of_workers(tmp_path):
    for workers in (1, 2):
        with Store(tmp_path / f"w{workers}.sqlite") as store:
            driver.start(store, "random", ers_params(), workers, quiet=True)
    one, two = stored(tmp_path / "w1.sqlite"), stored(tmp_path / "w2.sqlite")
    assert one == two
    assert one["summary"]["deals"] == 9000 and one["summary"]["game"] == "ers"
    # a stored game replays with play and the run's seed
    best = one["longest"][0]
    rules = SlapRules.parse("pair", "odds:0.4,0.6", True, 2, 11)
    replay = ers_game.play(best["deal"], rules, max_tricks=2000)
    assert (replay.cards, replay.tricks) == (best["cards"], best["tricks"])


def test_enumeration_of_a_small_ranked_deck_finds_its_loops(tmp_path):
    path = tmp_path / "e.sqlite"
    text = ok("search", "enumerate", "--game", "ers", "--deck", LOOP_DECK, "--slap-policy",
               "first:1", "--start", "0", "--count", "20000", "--db", str(path), "--workers",
               "1", "--quiet", "--json")
    summary = json.loads(text)
    assert summary["game"] == "ers" and summary["deals"] == 20000 and summary["loops"] > 0
    loops = list(csv.DictReader(io.StringIO(ok("export", "--what", "loops", "--db",
                                                str(path)))))
    assert len(loops) == summary["loops"]
    rules = SlapRules.parse("pair", "first:1")
    for row in loops[:20]:
        deal = RankedDeal.parse(row["deal"], LOOP_DECK)
        assert deal.rank() == int(row["number"])
        result = ers_game.play(deal, rules)
        assert (result.outcome, result.period_tricks, result.cycle) == (
            "loop", int(row["period_tricks"]), row["cycle"])
    show = ok("show", "--db", str(path))
    assert "Egyptian ratscrew, slaps pair by first:1" in show
    refused = run("reach", loops[0]["cycle"], "--db", path)
    assert refused.returncode == 2, refused.output
    assert "cycle of Egyptian ratscrew" in refused.stderr and "Traceback" not in refused.stderr


def test_runs_without_a_game_are_beggar_my_neighbour(tmp_path):
    with Store(tmp_path / "b.sqlite") as store:
        summary = driver.start(store, "random", {
            "deck": "plain=5,J=2,Q=1,K=1", "players": 2, "seed": 3, "top_k": 5,
            "max_tricks": None, "chunk_size": 500, "hours": None, "deals": 1000}, 1, quiet=True)
    assert summary["game"] == "bmn" and "slap_policy" not in summary


def test_plot_game_of_a_ranked_deal(tmp_path):
    out = tmp_path / "g.png"
    data = json.loads(ok("plot", "game", "--game", "ers", *EXAMPLE, "--slap-policy", "turn",
                          "--out", str(out), "--json"))
    assert out.stat().st_size > 0 and data["outcome"] == "win"


def test_bench_compares_with_the_general_engine():
    data = json.loads(ok("bench", "--game", "ers", "--slap-policy", "turn", "--deals", "3000",
                          "--json"))
    assert data["game"] == "ers" and data["ers"]["deals"] == 3000
    assert data["general"]["deals"] == 300 and data["deals_ratio"] > 0


def test_runs_lists_the_game(tmp_path):
    with Store(tmp_path / "g.sqlite") as store:
        driver.start(store, "random", ers_params(deals=600, chunk_size=600), 1, quiet=True)
    line = json.loads(ok("runs", "--db", str(tmp_path / "g.sqlite"), "--json"))
    assert line["game"] == "ers"

"""The small results file the report tests show (``test_report``, ``test_report_browser``): a
short census, a small factory run and an Egyptian ratscrew random run, and the site of it."""


from beggar_search import driver
from beggar_search.store import Store
from beggar_search.strategies import FactoryStrategy

TINY = "plain=5,J=2,Q=1,K=1"  # 1,512 deals, 12 of them loops, 2 cycles
CENSUS = {"deck": TINY, "players": 2, "seed": None, "top_k": 20, "max_tricks": None,
          "chunk_size": 500, "hours": None, "start": 0, "deals": 1512}
RATSCREW = {"deck": "standard", "players": 2, "seed": 11, "top_k": 10, "max_tricks": 2000,
            "chunk_size": 600, "hours": None, "deals": 600, "game": "ers",
            "slap_rules": "pair", "slap_policy": "turn", "slap_in": True}


def factory_params():
    return FactoryStrategy.prepare({
        "deck": TINY, "players": 2, "seed": 7, "top_k": 0, "max_tricks": None,
        "chunk_size": 3000, "hours": None, "starts": [], "seed_chunks": 1, "kicks": []})


def small_results(path):
    """Runs 1 (census), 2 (factory) and 3 (ratscrew, slaps by turn) in ``path``."""
    with Store(path) as store:
        driver.start(store, "enumerate", CENSUS, 1, quiet=True)
        driver.start(store, "factory", factory_params(), 1, quiet=True)
        driver.start(store, "random", RATSCREW, 1, quiet=True)
    return path


def write_report(results, out, *args):
    """``beggar-search report`` of ``results`` into ``out``; returns what it printed (--json)."""
    from cli_harness import run

    done = run("report", "--db", results, "--out", out, "--json", *args)
    assert done.returncode == 0, done.output
    return done.json()

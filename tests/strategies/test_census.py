"""The census of an 18-card deck: every deal, through the search driver and the fast path."""

import pytest
from storeview import stored

from beggar_search import driver
from beggar_search.store import Store

DECK = "plain=10,J=2,Q=2,K=2,A=2"


@pytest.mark.slow
def test_census_of_an_18_card_deck(tmp_path):
    params = {"deck": DECK, "players": 2, "seed": None, "top_k": 10, "max_tricks": None,
              "chunk_size": None, "hours": None, "start": 0, "deals": 110_270_160}
    with Store(tmp_path / "census.sqlite") as store:
        driver.start(store, "enumerate", params, 2, quiet=True)
    summary = stored(tmp_path / "census.sqlite")["summary"]
    assert (summary["deals"], summary["loops"], summary["cycles"]) == (110_270_160, 4_308, 144)
    assert summary["wins"] == [54_107_437, 56_158_415]
    assert summary["cards"] == 2_928_814_737
    assert (summary["longest"]["deal"], summary["longest"]["cards"]) == (
        "---QAJQ--/-AJ--K--K", 316)

"""Census truth of small decks: every fair looping deal, by cycle, cached as JSON.

``python benchmarks/census_truth.py DECK [--from-db FILE]`` enumerates every deal of
DECK (or reads a finished ``search enumerate`` run of it from FILE) and writes
``benchmarks/data/census-DECK.json``: ``{"deck", "deals", "cycles": {id: [deals]}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from beggar_search import driver
from beggar_search.cards.deck import Deck
from beggar_search.store import Store

DATA = Path(__file__).parent / "data"


def truth_path(deck: Deck) -> Path:
    return DATA / f"census-{deck.spec.replace('=', '').replace(',', '-')}.json"


def _from_store(store: Store, deck: Deck) -> dict:
    runs = [r for r in store.runs() if r.strategy == "enumerate" and r.status == "done"
            and r.params["deck"] == deck.spec and r.players == 2
            and r.deals == deck.count_deals(2)]
    if not runs:
        raise SystemExit(f"no finished census of {deck.spec} in {store.path}")
    cycles: dict[str, list[str]] = {}
    for game in store.games(runs[0].id, "loops"):
        cycles.setdefault(game["cycle"], []).append(game["deal"])
    return {"deck": deck.spec, "deals": runs[0].deals,
            "cycles": {c: sorted(d) for c, d in sorted(cycles.items())}}


def census_truth(deck: Deck, db: str | None = None, workers: int = 1) -> dict:
    """The cached truth of ``deck``, made (a census, minutes for 10^8 deals) if missing."""
    path = truth_path(deck)
    if path.exists():
        return json.loads(path.read_text())
    with tempfile.TemporaryDirectory() as folder:
        store_path = db or str(Path(folder) / "census.sqlite")
        with Store(store_path) as store:
            if db is None:
                params = {"deck": deck.spec, "players": 2, "seed": None, "top_k": 0,
                          "max_tricks": None, "chunk_size": None, "hours": None, "start": 0,
                          "deals": deck.count_deals(2)}
                driver.start(store, "enumerate", params, workers, quiet=True)
            truth = _from_store(store, deck)
    DATA.mkdir(exist_ok=True)
    path.write_text(json.dumps(truth, indent=0) + "\n")
    return truth


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck")
    parser.add_argument("--from-db", default=None)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    truth = census_truth(Deck.parse(args.deck), args.from_db, args.workers)
    print(f"{truth['deck']}: {len(truth['cycles'])} cycles, "
          f"{sum(map(len, truth['cycles'].values()))} looping deals", file=sys.stderr)


if __name__ == "__main__":
    main()

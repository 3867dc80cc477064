"""Record-length games: random search and the climber scored against exhaustive censuses.

Truth.  ``python benchmarks/bench_records.py census DECK [--from-db FILE]`` plays every deal
of DECK (``search enumerate --top 1000``, or reads a finished census from FILE) and writes
``benchmarks/data/records-DECK.json``: ``{"deck", "deals" (the census size), "top": [[deal,
cards], ...] (the 1000 longest terminating games, longest first), "histogram": [[cards,
count], ...]}``.

Score.  ``python benchmarks/bench_records.py score [--quick] [--json]`` takes each deck's 50
longest games as truth and runs ``random`` and ``climb`` over 8 seeds at budgets of 1e-4,
1e-3 and 1e-2 of the census (16 chunks a budget: ``--chunks``), in games played (the
climber's extension games count, in the order it plays them; a chunk that overshoots the
budget is cut: a game past the budget is not credited).  For each deck, method and budget it
prints (markdown; ``--json``: one object per line):

- ``recall``: truth games found, mean over the seeds, of the truth set's size;
- ``families``: truth families touched (a family: truth games whose games share a state,
  i.e. merge into one trajectory), mean over the seeds;
- ``longest``: seeds that found a game of the census's greatest length, and in brackets
  the touch bound: the seeds expected to meet, among ``budget`` random fair deals, one of the
  longest game's family or its mirror family (``Truth.touch_bound``).  A closure never leaves
  the family it starts from, so no method that meets families through random deals finds
  the longest game in more seeds, on average;
- ``deals to longest`` and ``CPU s to longest``: mean over the seeds that found it, games
  played (its index in the run, plus one) and process CPU seconds up to the end of the chunk
  that found it (compiling excluded);
- ``best``: the mean longest game found, and games per CPU second.

Ties and mirrors.  The truth is every deal at least as long as the 50th longest (so it may
hold more than 50 deals: ``T`` in the table).  The greatest length may be reached by several
deals; finding any of them counts as finding the longest.  Every deal is a fair deal with
player 1 to lead; a deal's mirror (hands swapped, player 2 to lead) is a state, not a deal
of the census, and two deals of one mirror-family pair (one's game passes through the other's
mirror) are distinct deals: each counts on its own, so a climber that reads mirrors is
credited with the deals they give.  ``census`` prints how many truth families are mirror
images of another truth family.

Families.  ``python benchmarks/bench_records.py families FILE [--run ID] [--top 100]`` replays
a run's longest games and counts their families (games that share a trick-boundary state
other than the end).

Misses.  ``python benchmarks/bench_records.py misses DECK [--fraction 1e-2] [--seeds 1 4]``
replays the chunks of ``search climb --deck DECK --deals B`` as typed (B = the fraction of
the census) and lists each random deal that touched the longest game's family or its
mirror: its length, its rank among its chunk's random deals and their families, whether the
chunk extended it and whether the chunk found the longest game; first, from the census
histogram, the touches a run expects, those by a deal among its chunk's ``extend`` longest
(``extension_bound``), and the seeds of 8 expected to touch at all and through a deal that
is extended.  ``--seeds`` with no seed prints that line only.

    python benchmarks/bench_records.py score --quick            # a smoke run (seconds)
    python benchmarks/bench_records.py score --out table.md      # the whole table (minutes)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from beggar_search import driver
from beggar_search.backward.closure import backward_closure
from beggar_search.cards.deck import Deal, Deck
from beggar_search.engine.batch import leaderboard, new_recorder
from beggar_search.engine.game import trajectory
from beggar_search.engine.random import chunk_stream
from beggar_search.engine.rules import R_CARDS
from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES, ChunkJob, strategy_for

DATA = Path(__file__).parent / "data"
# the five decks the defaults were set on, then the two censused only after a change of
# them was final (plain=20,J=2,Q=2,K=2 on 2026-12-03, plain=22,J=2,Q=2,K=1,A=1 on 2026-12-05)
DECKS = ("plain=10,J=2,Q=2,K=2,A=2", "plain=12,J=3,Q=3,K=2", "plain=18,J=2,Q=2,K=2",
         "plain=20,J=2,Q=2,K=1,A=1", "plain=22,J=2,Q=2,K=2", "plain=20,J=2,Q=2,K=2",
         "plain=22,J=2,Q=2,K=1,A=1")
CENSUS_TOP = 1000
TRUTH = 50
BUDGETS = (1e-4, 1e-3, 1e-2)
SEEDS = 8
METHODS = ("random", "climb")
QUICK_DECKS = ("plain=18,J=2,Q=2,K=2", "plain=12,J=3,Q=3,K=2")
WARM: set[tuple[str, str]] = set()


def truth_path(spec: str) -> Path:
    """Where a deck's census of longest games is kept."""
    return DATA / f"records-{spec.replace('=', '').replace(',', '-')}.json"


# truth ------------------------------------------------------------------------------------

def _truth_from_store(store: Store, deck: Deck) -> dict:
    runs = [r for r in store.runs() if r.strategy == "enumerate" and r.status == "done"
            and r.params["deck"] == deck.spec and r.players == 2
            and r.deals == deck.count_deals(2) and int(r.params["top_k"]) >= CENSUS_TOP]
    if not runs:
        raise SystemExit(f"no finished census of {deck.spec} with --top {CENSUS_TOP} in "
                         f"{store.path}")
    run = runs[0]
    top = [[game["deal"], int(game["cards"])]
           for game in store.games(run.id, "longest", CENSUS_TOP)]
    return {"deck": deck.spec, "deals": run.deals, "top": top,
            "histogram": [[int(c), int(n)] for c, n in store.histogram(run.id)]}


def make_truth(spec: str, db: str | None = None, workers: int = 1) -> dict:
    """The census truth of ``spec`` (its 1000 longest games), made and written if missing."""
    path = truth_path(spec)
    if path.exists():
        return json.loads(path.read_text())
    deck = Deck.parse(spec)
    with tempfile.TemporaryDirectory() as folder:
        store_path = db or str(Path(folder) / "census.sqlite")
        with Store(store_path) as store:
            if db is None:
                params = {"deck": deck.spec, "players": 2, "seed": 1, "top_k": CENSUS_TOP,
                          "max_tricks": None, "chunk_size": None, "hours": None, "start": 0,
                          "deals": deck.count_deals(2)}
                driver.start(store, "enumerate", params, workers, quiet=True)
            truth = _truth_from_store(store, deck)
    DATA.mkdir(exist_ok=True)
    path.write_text("{" + f'"deck": {json.dumps(truth["deck"])}, "deals": {truth["deals"]},'
                    '\n"top": [\n' + ",\n".join(json.dumps(game) for game in truth["top"])
                    + f'\n],\n"histogram": {json.dumps(truth["histogram"])}' + "}\n")
    return truth


@dataclass
class Truth:
    """A deck's truth set: the deals at least as long as the ``TRUTH``-th longest."""

    deck: Deck
    census: int
    keys: dict[bytes, int]  # deal's card sequence -> its place in ``lengths``
    lengths: list[int]
    family: list[int]  # each truth deal's family number
    longest: int
    touching: int = 0  # fair deals in the families of the longest games and their mirrors
    members: frozenset = frozenset()  # those deals (card sequences as bytes)

    @classmethod
    def of(cls, data: dict, size: int = TRUTH) -> Truth:
        """The truth of a stored census (``make_truth``): ties at rank ``size`` included."""
        deck = Deck.parse(data["deck"])
        top = data["top"]
        cut = top[min(size, len(top)) - 1][1]
        chosen = [(deal, cards) for deal, cards in top if cards >= cut]
        if len(chosen) == len(top) and len(top) >= CENSUS_TOP:
            raise SystemExit(f"{deck.spec}: the census's {CENSUS_TOP} games are all tied")
        deals = [Deal.parse(deal, deck) for deal, _ in chosen]
        keys = {bytes(d.sequence): i for i, d in enumerate(deals)}
        members = touching([d for d, (_, c) in zip(deals, chosen, strict=True)
                            if c == chosen[0][1]], deck)
        return cls(deck, int(data["deals"]), keys, [c for _, c in chosen],
                   families([d.hands for d in deals]), chosen[0][1], len(members),
                   frozenset(members))

    def touch_bound(self, games: int) -> float:
        """The chance that ``games`` random fair deals meet a longest game's family or its
        mirror family: no search that meets families through random deals (a closure never
        leaves the family it starts in) finds a longest game more often."""
        return 1.0 - (1.0 - self.touching / self.census) ** games


def touching(deals, deck: Deck) -> set[bytes]:
    """Every fair deal whose game merges into one of ``deals``' games, or into its mirror:
    the fair states of each game's complete backward closure, those with player 2 to lead
    read as their mirrored deals (as sequences)."""
    split = deck.split(2)
    found: set[bytes] = set()
    for deal in deals:
        if bytes(deal.sequence) in found:
            continue
        states = trajectory(deal.hands, 0)[:-1]
        store, complete, _ = backward_closure(states, deck.size, None, None)
        assert complete
        found |= {bytes(c for h in hands for c in h) for hands in store.with_header(split, 0)}
        found |= {bytes(c for h in hands[::-1] for c in h)
                  for hands in store.with_header(split, 1)}
    return found


# families ---------------------------------------------------------------------------------

def _states(hands) -> list[tuple]:
    """A game's trick-boundary states, the end (a player holding all) left out."""
    return [(tuple(tuple(h) for h in state), lead) for state, lead in trajectory(hands, 0)
            if all(state)]


def _mirror(state: tuple) -> tuple:
    hands, lead = state
    return (hands[::-1], 1 - lead)


def families(games, mirrored: bool = False) -> list[int]:
    """Each game's family number (0, 1, ... in order of first member): games whose
    trajectories share a state are one family; with ``mirrored`` a state and its mirror
    count as one (a family and its mirror join)."""
    parent = list(range(len(games)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[tuple, int] = {}
    for index, hands in enumerate(games):
        for state in _states(hands):
            key = min(state, _mirror(state)) if mirrored else state
            other = owner.setdefault(key, index)
            if other != index:
                parent[root(index)] = root(other)
    names: dict[int, int] = {}
    return [names.setdefault(root(i), len(names)) for i in range(len(games))]


# scoring ----------------------------------------------------------------------------------

@dataclass
class Outcome:
    """One search at one budget and seed, scored against a truth."""

    method: str
    seed: int
    budget: int
    games: int = 0
    cpu: float = 0.0
    best: int = 0
    found: dict[int, int] = field(default_factory=dict)  # truth place -> game index
    to_longest: int | None = None  # games played when a longest game was first met
    cpu_to_longest: float | None = None
    touches: int | None = None  # random deals of the run in the longest game's family or mirror


def run_search(method: str, truth: Truth, budget: int, seed: int, chunks: int,
               settings: dict) -> Outcome:
    """Run ``method`` on the truth's deck for ``budget`` games in ``chunks`` chunks."""
    chunk = max(64, -(-budget // chunks))
    params = {"deck": truth.deck.spec, "players": 2, "seed": seed,
              "top_k": 4 * len(truth.lengths) + 64, "max_tricks": None, "chunk_size": chunk,
              "hours": None, "deals": None, **(settings if method == "climb" else {})}
    strategy = strategy_for(method, STRATEGIES[method].prepare(params))
    if (method, truth.deck.spec) not in WARM:  # compile (or load) once per process
        strategy.warm_up()
        WARM.add((method, truth.deck.spec))
    outcome = Outcome(method, seed, budget)
    number = 0
    while outcome.games < budget:
        job = ChunkJob(method, number, min(chunk, budget - outcome.games), strategy.params)
        started = time.process_time()
        summary = strategy.run_chunk(job)
        outcome.cpu += time.process_time() - started
        order = np.argsort(summary.top_positions, kind="stable")
        for position, row, deal in zip(summary.top_positions[order],
                                       summary.top_rows[order], summary.top_deals[order],
                                       strict=True):
            index = outcome.games + int(position)
            if index >= budget:
                continue
            cards = int(row[R_CARDS])
            outcome.best = max(outcome.best, cards)
            place = truth.keys.get(bytes(np.asarray(deal, dtype=np.uint8)))
            if place is not None and place not in outcome.found:
                outcome.found[place] = index
                if cards == truth.longest and outcome.to_longest is None:
                    outcome.to_longest, outcome.cpu_to_longest = index + 1, outcome.cpu
        outcome.games = min(budget, outcome.games + summary.deals)
        number += 1
    return outcome


def _cpu_with_children() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                          resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_as_typed(method: str, truth: Truth, budget: int, seed: int, folder: Path,
                 typed: tuple[str, ...] = (), touches: bool = False) -> Outcome:
    """The command exactly as a user types it: ``search METHOD --deck D --deals B --workers 1
    --seed S`` and the words ``typed`` (none: every other setting the command's default),
    with ``touches`` its random deals of the longest game's family counted (a replay whose
    leaderboard holds a whole chunk: slow past chunks of some 20,000 deals), scored from the
    results file it
    writes: its leaderboard (``--top``'s default 100 places) against the truth.  The
    climber's extension games come on top of the budget's random deals, as on the command
    line; ``games`` counts every game it played."""
    from beggar_search.cli import main as command

    db = folder / f"{method}-{seed}.sqlite"
    args = ["search", method, "--deck", truth.deck.spec, "--deals", str(budget),
            "--workers", "1", "--seed", str(seed), "--db", str(db), "--quiet", *typed]
    started = _cpu_with_children()
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the command's summary
            command(args)
    except SystemExit as end:
        if end.code:
            raise
    # the command's CPU: this process's and its worker process's (reaped when the run ends)
    outcome = Outcome(method, seed, budget, cpu=_cpu_with_children() - started)
    with Store(db) as store:
        run = store.runs()[-1]
        if touches:
            outcome.touches = random_touches(truth, run.strategy, run.params)
        outcome.games = run.deals
        for game in store.games(run.id, "longest"):
            cards = int(game["cards"])
            outcome.best = max(outcome.best, cards)
            deal = Deal.parse(game["deal"], truth.deck)
            place = truth.keys.get(bytes(deal.sequence))
            if place is not None and place not in outcome.found:
                outcome.found[place] = int(game["number"])
                if cards == truth.longest and outcome.to_longest is None:
                    outcome.to_longest = int(game["number"]) + 1
    db.unlink()
    return outcome


def random_boards(strategy, seed: int):
    """Each planned chunk of ``strategy`` (a random search or the climber) with every one of
    its random deals' games, longest first: (the job, their rows, their deals), replayed with
    a leaderboard as long as the chunk (slow past chunks of some 20,000 deals)."""
    for job in strategy.plan(set()):
        recorder = strategy.engine.random_chunk(chunk_stream(seed, job.chunk), job.deals,
                                                new_recorder(job.deals, strategy.deck.size))
        _, rows, deals = leaderboard(recorder)
        yield job, rows, deals


def random_touches(truth: Truth, method: str, params: dict) -> int:
    """How many of a run's random deals (its stored parameters: seed, chunk size, deals) are
    deals of the longest game's family or of its mirror family: replayed chunk by chunk."""
    return sum(sum(bytes(deal) in truth.members for deal in deals)
               for _, _, deals in random_boards(strategy_for(method, params), params["seed"]))


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return float(np.mean(values)) if values else None


def summarise(truth: Truth, method: str, fraction: float, outcomes: list[Outcome]) -> dict:
    """One row of the table: the seeds' outcomes of one method at one budget."""
    families_total = len(set(truth.family))
    return {
        "deck": truth.deck.spec, "cards": truth.deck.size, "census": truth.census,
        "truth": len(truth.lengths), "truth_families": families_total,
        "longest_cards": truth.longest, "method": method, "fraction": fraction,
        "budget": outcomes[0].budget, "seeds": len(outcomes),
        "recall": _mean(len(o.found) for o in outcomes),
        "families": _mean(len({truth.family[p] for p in o.found}) for o in outcomes),
        "found_longest": sum(o.to_longest is not None for o in outcomes),
        "touch_bound": len(outcomes) * truth.touch_bound(outcomes[0].budget),
        "seeds_touched": (None if any(o.touches is None for o in outcomes)
                          else sum(o.touches > 0 for o in outcomes)),
        "deals_to_longest": _mean(o.to_longest for o in outcomes),
        "cpu_to_longest": _mean(o.cpu_to_longest for o in outcomes),
        "best": _mean(o.best for o in outcomes),
        "games_per_cpu_s": sum(o.games for o in outcomes) / max(1e-9, sum(o.cpu for o in outcomes)),
        "runs": [asdict(o) for o in outcomes],
    }


def _met(row: dict) -> str:
    """``; N met``: the seeds whose random deals met the longest game's family, where known."""
    return "" if row.get("seeds_touched") is None else f"; {row['seeds_touched']} met"


def _figure(value, form: str) -> str:
    return "-" if value is None else format(value, form)


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table."""
    lines = ["| deck (cards, census) | T (families) | longest | method | budget | recall |"
             " families | seeds with longest (bound) | deals to longest | CPU s to longest |"
             " best | games/CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['deck']} ({r['cards']}, {r['census']:.3g}) | {r['truth']}"
            f" ({r['truth_families']}) | {r['longest_cards']} | {r['method']} |"
            f" {r['fraction']:g} ({r['budget']:,}) | {r['recall']:.2f} |"
            f" {r['families']:.2f} | {r['found_longest']}/{r['seeds']}"
            f" ({r['touch_bound']:.1f}{_met(r)}) |"
            f" {_figure(r['deals_to_longest'], ',.0f')} | {_figure(r['cpu_to_longest'], '.2f')} |"
            f" {r['best']:.0f} | {r['games_per_cpu_s']:,.0f} |")
    return "\n".join(lines)


def goal_lines(rows: list[dict]) -> list[str]:
    """The issue's goal per deck for each method: longest in >= 7/8 seeds at 1e-2 and in at
    least half at 1e-3."""
    lines = []
    for method in METHODS:
        for deck in dict.fromkeys(r["deck"] for r in rows):
            mine = {r["fraction"]: r for r in rows if r["deck"] == deck and r["method"] == method}
            if 1e-2 not in mine or 1e-3 not in mine:
                continue
            high, mid = mine[1e-2], mine[1e-3]
            met = (high["found_longest"] * 8 >= 7 * high["seeds"]
                   and mid["found_longest"] * 2 >= mid["seeds"])
            near = high["found_longest"] >= 0.9 * high["touch_bound"]
            touched = ("" if high.get("seeds_touched") is None else
                       f" (its family met by a random deal in {high['seeds_touched']} seeds)")
            lines.append(f"{method} {deck}: longest at 1e-2 in {high['found_longest']}/"
                         f"{high['seeds']}{touched}, at 1e-3 in {mid['found_longest']}/"
                         f"{mid['seeds']}:"
                         f" goal {'met' if met else 'not met'} (touch bound"
                         f" {high['touch_bound']:.1f} and {mid['touch_bound']:.1f}); at 1e-2"
                         f" {'within' if near else 'not within'} 10% of the touch bound")
    return lines


def parse_settings(pairs: list[str]) -> dict:
    """``key=value`` climber settings (integers where they read as integers)."""
    settings = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        settings[key] = int(value) if value.lstrip("-").isdigit() else value
    return settings


def score(args) -> None:
    """The ``score`` command."""
    decks = args.deck or (QUICK_DECKS if args.quick else DECKS)
    seeds = args.seeds or (2 if args.quick else SEEDS)
    budgets = args.budget or ((1e-4, 1e-3) if args.quick else BUDGETS)
    settings = parse_settings(args.set)
    rows = []
    for spec in decks:
        path = truth_path(Deck.parse(spec).spec)
        if not path.exists():
            raise SystemExit(f"no census of {spec}: run `bench_records.py census {spec}`")
        truth = Truth.of(json.loads(path.read_text()))
        for fraction in budgets:
            budget = max(1, round(fraction * truth.census))
            for method in args.method or METHODS:
                if args.defaults:
                    with tempfile.TemporaryDirectory() as folder:
                        typed = tuple(args.typed or ()) if method == "climb" else ()
                        outcomes = [run_as_typed(method, truth, budget, seed, Path(folder),
                                                 typed, args.touches)
                                    for seed in range(1, seeds + 1)]
                else:
                    outcomes = [run_search(method, truth, budget, seed, args.chunks, settings)
                                for seed in range(1, seeds + 1)]
                row = summarise(truth, method, fraction, outcomes)
                rows.append(row)
                if args.json:
                    print(json.dumps(row), flush=True)
                print(f"{spec} {method} {fraction:g}: recall {row['recall']:.2f}/"
                      f"{row['truth']}, longest {row['found_longest']}/{seeds}",
                      file=sys.stderr, flush=True)
    table = markdown(rows)
    goals = "\n".join(f"- {line}" for line in goal_lines(rows))
    load = " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())
    how = ("the commands as a user types them (--deck, --deals, --workers 1, --seed; every "
           "other setting its default; games past the budget credited: the climber's "
           "extension comes on top)" + (f"; the climber's command with {' '.join(args.typed)}"
                                        if args.typed else "") if args.defaults else
           f"climber settings {settings or 'defaults'}, {args.chunks} chunks a budget")
    text = f"{table}\n\n{goals}\n\n{how}; load average {load}\n"
    if not args.json:
        print(text)
    if args.out:
        Path(args.out).write_text(text)


def census(args) -> None:
    """The ``census`` command."""
    for spec in args.deck:
        started = time.perf_counter()
        data = make_truth(Deck.parse(spec).spec, args.from_db, args.workers)
        truth = Truth.of(data)
        deals = [Deal.parse(deal, truth.deck).hands for deal, cards in data["top"]
                 if cards >= truth.lengths[-1]]
        joined = len(set(families(deals, mirrored=True)))
        print(f"{truth.deck.spec}: census {truth.census:,}, longest {truth.longest}, truth "
              f"{len(truth.lengths)} deals (>= {truth.lengths[-1]} cards) in "
              f"{len(set(truth.family))} families, {joined} with mirrors joined "
              f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)


def family_count(args) -> None:
    """The ``families`` command."""
    with Store(args.file) as store:
        run = store.run(args.run) if args.run else store.runs()[-1]
        games = store.games(run.id, "longest", args.top)
    deals = [Deal.parse(g["deal"], run.deck).hands for g in games]
    numbers = families(deals)
    sizes = np.bincount(numbers) if numbers else np.zeros(0, int)
    result = {"file": args.file, "run": run.id, "strategy": run.strategy,
              "deck": run.deck.spec, "deals": run.deals, "games": len(games),
              "longest": int(games[0]["cards"]) if games else None,
              "families": int(len(sizes)), "largest_family": int(sizes.max()) if len(sizes) else 0,
              "families_mirrors_joined": len(set(families(deals, mirrored=True))),
              "families_stored": len({g["family"] for g in games if g.get("family")}) or None}
    print(json.dumps(result) if args.json else
          " ".join(f"{k} {v}" for k, v in result.items()))


@dataclass
class ExtensionBound:
    """Touches of the longest game's family expected in a run: all of them, those by a
    deal among the ``extend`` longest of its chunk's random deals, and the chance of one
    of those."""

    touches: float
    extendable: float
    chance: float


def extension_bound(histogram, member_lengths, census: int, budget: int, chunk: int,
                    extend: int) -> ExtensionBound:
    """How often a run of ``budget`` random deals in chunks of ``chunk`` meets the longest
    game's family through a deal that its chunk extends: each member of length l drawn
    (``budget / census`` of them on average) is among the chunk's ``extend`` longest when
    fewer than ``extend`` of the chunk's other deals are longer (Poisson, from the census
    histogram; deals, not families, ranked: a slight under-estimate)."""
    cards = np.array([c for c, _ in histogram], dtype=np.int64)
    counts = np.array([n for _, n in histogram], dtype=np.float64)
    longer = {int(x): counts[cards > x].sum() / census for x in set(map(int, member_lengths))}
    draw = budget / census
    extendable = 0.0
    for length in map(int, member_lengths):
        mean = (chunk - 1) * longer[length]
        term, below = np.exp(-mean), 0.0
        for j in range(extend):
            below += term
            term *= mean / (j + 1)
        extendable += draw * below
    touches = draw * len(member_lengths)
    return ExtensionBound(touches, extendable, 1.0 - np.exp(-extendable))


def misses(args) -> None:
    """The ``misses`` command: for each seed of ``search climb --deck D --deals B`` as typed
    (the defaults' chunks), every random deal that touched the longest game's family (or
    its mirror family): its chunk, length, rank among the chunk's random deals and among
    their families, and whether the chunk extended it; and whether the run found the
    longest game."""
    path = truth_path(Deck.parse(args.deck).spec)
    data = json.loads(path.read_text())
    truth = Truth.of(data)
    touched_set = truth.members  # the fair deals of the longest games' families and mirrors
    split = truth.deck.split(2)
    budget = max(1, round(args.fraction * truth.census))
    members = np.frombuffer(b"".join(sorted(touched_set)), dtype=np.uint8).reshape(
        -1, truth.deck.size)

    def climber(seed: int):
        return strategy_for("climb", STRATEGIES["climb"].prepare(
            {"deck": truth.deck.spec, "players": 2, "seed": seed, "top_k": 100,
             "max_tricks": None, "chunk_size": None, "hours": None, "deals": budget}))

    strategy = climber(1)
    lengths = np.sort(strategy.engine.play_sequences(members)[:, R_CARDS])[::-1]
    bound = extension_bound(data["histogram"], lengths, truth.census, budget,
                            strategy.chunk_size, strategy.most)
    print(f"{truth.deck.spec}: {len(members)} fair deals touch the longest game's "
          f"family or its mirror; their games' lengths: max {lengths[0]}, median "
          f"{int(np.median(lengths))}, min {lengths[-1]}; budget {budget:,}, chunk "
          f"{strategy.chunk_size:,} random deals, extend {strategy.most} (at most: past "
          f"{strategy.extend} within {strategy.extension_states:,} states); touches "
          f"expected a run {bound.touches:.2f}, by a deal among its chunk's "
          f"{strategy.most} longest {bound.extendable:.2f}; seeds of {SEEDS} "
          f"touching {SEEDS * truth.touch_bound(budget):.1f}, touching by a deal "
          f"that is extended {SEEDS * bound.chance:.1f}")
    for seed in args.seeds:
        strategy = climber(seed)
        found = False
        for job, rows, deals in random_boards(strategy, seed):
            board = min(len(deals), strategy.board_size)
            parents = {bytes(p) for p in strategy._parents(rows[:board], deals[:board])}
            names = strategy.game.families(deals, rows, split)
            joined: dict = {}
            for name in names:
                joined.setdefault(min(name.family, name.mirror), len(joined))
            cut = min((int(rows[i, R_CARDS]) for i in range(board)
                       if bytes(deals[i]) in parents), default=0)
            summary = strategy.run_chunk(job)
            hit = bool((summary.top_rows[:, R_CARDS] >= truth.longest).any())
            found |= hit
            for i in range(len(deals)):
                if bytes(deals[i]) in touched_set:
                    family_rank = joined[min(names[i].family, names[i].mirror)] + 1
                    print(f"seed {seed} chunk {job.chunk}: touched by a deal of "
                          f"{int(rows[i, R_CARDS])} cards, rank {i + 1} of {len(deals):,} "
                          f"in its chunk, family rank {family_rank} (extended: "
                          f"{bytes(deals[i]) in parents}; the shortest parent "
                          f"{cut} cards); the chunk found the longest: {hit}")
        print(f"seed {seed}: found the longest: {found}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("census", help="census decks (the truth files)")
    make.add_argument("deck", nargs="+")
    make.add_argument("--from-db", default=None)
    make.add_argument("--workers", type=int, default=1)
    make.set_defaults(handler=census)
    table = commands.add_parser("score", help="score random search and the climber")
    table.add_argument("--deck", action="append", help="a censused deck (default: all)")
    table.add_argument("--method", action="append", choices=METHODS)
    table.add_argument("--budget", action="append", type=float, help="fraction of the census")
    table.add_argument("--seeds", type=int, default=None)
    table.add_argument("--chunks", type=int, default=16, help="chunks a budget (default 16)")
    table.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="a climber setting (extend=8, closure_states=200000, ...)")
    table.add_argument("--quick", action="store_true", help="2 decks, 2 seeds, 2 budgets")
    table.add_argument("--defaults", action="store_true",
                       help="score each command as a user types it (--deck, --deals, "
                            "--workers 1, --seed), not the benchmark's chunks and cut")
    table.add_argument("--typed", action="append", metavar="WORD",
                       help="with --defaults: a word added to the climber's command as typed "
                            "(--typed=--extend --typed=64)")
    table.add_argument("--touches", action="store_true",
                       help="with --defaults: count each run's random deals of the longest "
                            "game's family (replayed; slow for chunks past ~20,000 deals)")
    table.add_argument("--json", action="store_true")
    table.add_argument("--out", default=None, help="also write the table here")
    table.set_defaults(handler=score)
    fam = commands.add_parser("families", help="families of a run's longest games")
    fam.add_argument("file")
    fam.add_argument("--run", type=int, default=None)
    fam.add_argument("--top", type=int, default=100)
    fam.add_argument("--json", action="store_true")
    fam.set_defaults(handler=family_count)
    miss = commands.add_parser("misses", help="the defaults' touches of the longest family")
    miss.add_argument("deck")
    miss.add_argument("--fraction", type=float, default=1e-2)
    miss.add_argument("--seeds", type=int, nargs="*", default=list(range(1, SEEDS + 1)))
    miss.set_defaults(handler=misses)
    args = parser.parse_args(argv)
    args.handler(args)


if __name__ == "__main__":
    main()

"""The tail fit of ``beggar-search odds`` checked against what is known (docs/records-benchmark.md).

``census``: on each censused deck (benchmarks/data/records-*.json: the exact histogram of
every deal's length), random samples of 1e-5 to 1e-2 of the census (``search random``'s
strategy, seeds 1..``--seeds``) are fitted, and the predicted count of games of at least L
cards in the whole census is set against the census's own count, for L the length of its
1,000th, 100th, 50th and 10th longest game.  Per deck, fraction and L it prints the census
count, the geometric mean of the predictions over the seeds, their range, the seeds whose
95% interval holds the truth, and how far L lies past the fit (e-folds, mean).

``camicia``: the public census of camicia's 193,584,473,082,000 deals counts 70 games of at
least 4,500 cards (its longest: 4,663).  A random sample (``--deals``, played here with one
worker, or the runs of a results file: ``--db FILE [--run R ...]``) predicts both counts.

``standard``: the public random searches of the standard deck (acinnes/bmn, GPU, uniform
shuffles) logged 5,603 cards at about 2.7e10 deals and 6,005 at about 4.8e10.  The fit of a
sample (``--deals`` or ``--db``) gives the chance that so many random deals hold a game that
long: were both small, one exponential would not be consistent with the record history.

``decay``: the decay length of each census's own exact histogram, over windows of 0.15 of its
longest game from 0.2 to 1.0 of it (where does each deck's tail bend?).

``ranges --db FILE [--run R ...] [--ranges 1500-3000,2500-4000,3500-5000]``: the decay
length fitted over successive ranges of one long run's histogram (does it slow with length?).

    python benchmarks/bench_odds.py census --seeds 5
    python benchmarks/bench_odds.py decay
    python benchmarks/bench_odds.py camicia --deals 1e8
    python benchmarks/bench_odds.py standard --db standard.sqlite
    python benchmarks/bench_odds.py ranges --db standard.sqlite
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from bench_records import DECKS, make_truth

from beggar_search import odds
from beggar_search.store import Store
from beggar_search.strategies import STRATEGIES, ChunkJob, strategy_for

FRACTIONS = (1e-5, 1e-4, 1e-3, 1e-2)
RANKS = (1000, 100, 50, 10)
CHUNK = 1 << 20
CAMICIA_DEALS = 193_584_473_082_000
CAMICIA_COUNTS = ((4500, 70), (4663, 1))  # (cards, games of at least that many in the census)
STANDARD_HISTORY = ((5603, 2.7e10), (6005, 4.8e10))  # (record, random deals played by then)
RANGES = "1500-3000,2500-4000,3500-5000"
FACTOR = 1.5  # the goal: predictions within this factor where the truth holds >= 10 games


def random_sample(spec: str, games: int, seed: int, workers: int = 1) -> odds.Sample:
    """``games`` random deals of deck ``spec`` played through the random search's strategy,
    as a sample (its histogram, its size and its CPU time)."""
    params = {"deck": spec, "players": 2, "seed": seed, "top_k": 1, "max_tricks": None,
              "chunk_size": min(CHUNK, games), "hours": None, "deals": games}
    strategy = strategy_for("random", STRATEGIES["random"].prepare(params))
    histogram = None
    started = time.process_time()
    for job in strategy.plan(set()):
        found = strategy.run_chunk(ChunkJob("random", job.chunk, job.deals, strategy.params))
        histogram = found.histogram if histogram is None else histogram + found.histogram
    pairs = [(int(c), int(histogram[c])) for c in np.flatnonzero(histogram)]
    return odds.Sample.of(pairs, games, seconds=time.process_time() - started)


def stored_sample(db: str, run_ids: list[int]) -> odds.Sample:
    """The uniform random sample of runs of a results file (the latest run by default)."""
    with Store(db, create=False) as store:
        runs = [store.run(r) for r in run_ids] if run_ids else [store.run()]
        return odds.sample_of(store, runs)


class Stretched:
    """A stretched exponential tried against the census: log S(x) = a - b x**beta, fitted by
    least squares (weights: the square root of the games >= x) over the exponential fit's
    range, beta on a grid of 0.3-3.0 (``--model stretched``; not the command's model)."""

    def __init__(self, sample: odds.Sample, start_share: float):
        fit = odds.fit_tail(sample, start_share)
        reach = np.cumsum(sample.counts[::-1])[::-1]
        inside = (sample.lengths >= fit.fit_from) & (sample.lengths <= fit.fit_to)
        x, n = sample.lengths[inside].astype(float), reach[inside].astype(float)
        y, w = np.log(n / sample.games), np.sqrt(n)
        best = None
        for beta in np.linspace(0.3, 3.0, 271):
            design = np.column_stack([np.ones_like(x), -(x ** beta)])
            coef = np.linalg.lstsq(design * w[:, None], y * w, rcond=None)[0]
            residual = float((((design @ coef) - y) * w) ** 2 @ np.ones_like(x))
            if best is None or residual < best[0]:
                best = (residual, beta, coef)
        _, self.beta, (self.a, self.b) = best
        self.fit = fit

    def per_game(self, cards: float) -> odds.Estimate:
        """S(cards) on the stretched fit (no interval: low = high = the value)."""
        value = math.exp(self.a - self.b * cards ** self.beta)
        return odds.Estimate(value, value, value)

    def efolds_beyond(self, cards: float) -> float:
        """As the exponential fit's."""
        return self.fit.efolds_beyond(cards)


def at_least(histogram: list[list[int]], cards: int) -> int:
    """Games of a census histogram of at least ``cards`` cards."""
    return sum(n for c, n in histogram if c >= cards)


def census(args) -> None:
    """Predicted census counts against the census, deck by deck."""
    print(f"model {args.model}, fit from {args.start_share} of L (L: the longest length"
          f" {odds.TOP_GAMES} games reach); {args.seeds} seeds a fraction\n")
    model = Stretched if args.model == "stretched" else odds.fit_tail
    print("| deck | census | fraction | rank | L (cards) | census count | predicted (geo mean)"
          " | range over seeds | ratio | interval holds | e-folds past fit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    misses = []
    for spec in args.decks:
        truth = make_truth(spec)
        deals = int(truth["deals"])
        for fraction in FRACTIONS:
            games = max(1, round(fraction * deals))
            fits = []
            for seed in range(1, args.seeds + 1):
                sample = random_sample(spec, games, seed)
                try:
                    fits.append(model(sample, args.start_share))
                except odds.OddsError as error:
                    fits.append(str(error))
            for rank in RANKS:
                length = int(truth["top"][rank - 1][1])
                count = at_least(truth["histogram"], length)
                done = [f for f in fits if not isinstance(f, str)]
                if not done:
                    print(f"| {spec} | {deals:,} | {fraction:g} | {rank} | {length} | {count}"
                          f" | no fit ({len(fits)} of {len(fits)} seeds: too few games) |"
                          " | | | |")
                    continue
                estimates = [f.per_game(length).times(deals) for f in done]
                values = np.array([e.value for e in estimates])
                mean = float(np.exp(np.log(values).mean()))
                held = sum(e.low <= count <= e.high for e in estimates)
                beyond = float(np.mean([f.efolds_beyond(length) for f in done]))
                ratio = mean / count
                if count >= 10 and not 1 / FACTOR <= ratio <= FACTOR:
                    misses.append((spec, fraction, rank, ratio))
                print(f"| {spec} | {deals:,} | {fraction:g} | {rank} | {length} | {count:,} |"
                      f" {mean:,.1f} | {values.min():,.1f}-{values.max():,.1f} | {ratio:.2f} |"
                      f" {held}/{len(done)} | {beyond:.1f} |")
    print(f"\noutside a factor {FACTOR} (census count >= 10): {len(misses)}")
    for spec, fraction, rank, ratio in misses:
        print(f"- {spec} at {fraction:g}, rank {rank}: ratio {ratio:.2f}")


def decay(args) -> None:
    """Each census's decay length window by window, from its exact histogram."""
    print("| deck | longest | window (cards): tau (games >= its start) |\n|---|---|---|")
    for spec in args.decks:
        truth = make_truth(spec)
        sample = odds.Sample.of(truth["histogram"], int(truth["deals"]))
        longest = int(truth["top"][0][1])
        cells = []
        for low in np.linspace(0.2, 0.85, 8):
            start, end = int(low * longest), int((low + 0.15) * longest)
            try:
                cells.append(f"{start}-{end}: {odds.fit_range(sample, start, end).tau:.0f}"
                             f" ({sample.at_least(start):,})")
            except odds.OddsError:
                cells.append(f"{start}-{end}: too few ({sample.at_least(start):,})")
        print(f"| {spec} | {longest} | {'; '.join(cells)} |")


def sample_for(args, spec: str) -> odds.Sample:
    """The sample a check reads: the runs of ``--db``, or ``--deals`` played now."""
    if args.db:
        return stored_sample(args.db, args.run)
    return random_sample(spec, int(float(args.deals)), args.seed)


def describe(sample: odds.Sample, fit: odds.TailFit) -> None:
    """The sample and its fit, one line each."""
    low, high = fit.tau_interval
    print(f"sample: {sample.games:,} random games, longest {sample.longest:,} cards"
          + (f", {sample.seconds:,.0f} CPU s" if sample.seconds else ""))
    print(f"fit: {fit.fit_from:,}-{fit.fit_to:,} cards, tau {fit.tau:.1f} ({low:.1f}-{high:.1f})"
          f" cards, {fit.tail_games:,} games >= {fit.fit_from:,}")


def predictor(args, sample: odds.Sample):
    """The model ``--model`` names, fitted to ``sample``."""
    if args.model == "stretched":
        found = Stretched(sample, args.start_share)
        print(f"stretched: beta {found.beta:.2f}")
        return found
    return odds.fit_tail(sample, args.start_share)


def described_fit(args, spec: str):
    """The sample of a check (``sample_for``), described, and the model fitted to it."""
    sample = sample_for(args, spec)
    describe(sample, odds.fit_tail(sample, args.start_share))
    return predictor(args, sample)


def camicia(args) -> None:
    """Camicia's public census counts against the fit."""
    fit = described_fit(args, "camicia")
    print("\n| cards | census count | predicted | 95% interval | e-folds past fit |\n"
          "|---|---|---|---|---|")
    for cards, count in CAMICIA_COUNTS:
        found = fit.per_game(cards).times(CAMICIA_DEALS)
        print(f"| {cards:,} | {count} | {found.value:.1f} | {found.low:.1f}-{found.high:.1f} |"
              f" {fit.efolds_beyond(cards):.1f} |")
    if isinstance(fit, odds.TailFit):
        print(f"\none game expected in the census at {fit.level(CAMICIA_DEALS):,.0f} cards")


def standard(args) -> None:
    """The standard deck's public record history against the fit."""
    fit = described_fit(args, "standard")
    print("\n| record | random deals by then | expected games that long | chance of one |"
          " e-folds past fit |\n|---|---|---|---|---|")
    chances = []
    for cards, deals in STANDARD_HISTORY:
        found = fit.per_game(cards).times(deals)
        chance = -math.expm1(-found.value)
        chances.append(chance)
        print(f"| {cards:,} | {deals:.2g} | {found.value:.3g} ({found.low:.3g}-{found.high:.3g})"
              f" | {chance:.3g} | {fit.efolds_beyond(cards):.1f} |")
    print(f"\nboth records as long, on this model: {chances[0] * chances[1]:.2g}"
          f" (were they independent); 8,345 cards: {fit.per_game(8345).value:.3g} a deal")


def ranges(args) -> None:
    """The decay length over successive ranges of one run's histogram."""
    sample = stored_sample(args.db, args.run)
    print(f"sample: {sample.games:,} random games, longest {sample.longest:,} cards\n")
    print("| fitted range (cards) | games >= its start | tau (cards) | 95% interval |\n"
          "|---|---|---|---|")
    for text in args.ranges.split(","):
        start, end = (int(v) for v in text.split("-"))
        try:
            fit = odds.fit_range(sample, start, end)
        except odds.OddsError as error:
            print(f"| {start:,}-{end:,} | {sample.at_least(start):,} | {error} | |")
            continue
        low, high = fit.tau_interval
        print(f"| {start:,}-{end:,} | {fit.tail_games:,} | {fit.tau:.1f} | {low:.1f}-{high:.1f} |")


def main(argv=None) -> None:
    """The command line (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("census", "decay", "camicia", "standard", "ranges"):
        command = commands.add_parser(name)
        command.add_argument("--start-share", type=float, default=odds.START_SHARE,
                             help="The fit starts at this share of its end (0.4; 0.6-0.8:"
                                  " the top only).")
        if name != "ranges":
            command.add_argument("--model", choices=("exponential", "stretched"),
                                 default="exponential")
        if name in ("census", "decay"):
            command.add_argument("--seeds", type=int, default=5)
            command.add_argument("--decks", nargs="+", default=list(DECKS))
        else:
            command.add_argument("--db", default=None, required=name == "ranges")
            command.add_argument("--run", type=int, action="append", default=[])
        if name in ("camicia", "standard"):
            command.add_argument("--deals", default="1e8")
            command.add_argument("--seed", type=int, default=1)
        if name == "ranges":
            command.add_argument("--ranges", default=RANGES)
    args = parser.parse_args(argv)
    {"census": census, "decay": decay, "camicia": camicia, "standard": standard, "ranges": ranges}[
        args.command](args)


if __name__ == "__main__":
    sys.exit(main())

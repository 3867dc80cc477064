"""The odds of a game of at least X cards: an exponential tail fitted to the length histogram
of a uniform random sample of deals (``beggar-search odds``, docs/odds.md).

The model.  S(x), the share of deals whose game lasts at least x cards, falls e-fold every
``tau`` cards past the histogram's bulk: S(x) = S(u) * q**(x - u), q = exp(-1/tau), for x
at least the fit's start u.  The fit is the maximum-likelihood geometric tail of the games
between u and L, where L (``fit_to``) is the longest length still reached by ``TOP_GAMES``
games and u (``fit_from``) is ``START_SHARE`` of L (or the commonest length, if that is
longer: the tail starts past the bulk); games of L cards or more count as reaching
L (censored there), so the few longest games, which come in merge families, do not steer it.
The interval is the fit's 95% interval (the count at u as Poisson, the decay's Fisher
information): it says what the sample's size allows, not whether the model holds that far;
``benchmarks/bench_odds.py`` checks that against censuses (docs/records-benchmark.md).

Long games come in merge families (docs/records.md): deals whose games join one trajectory,
lumps of 10-20 deals of nearly one length.  So the count of games past a length goes in
steps of a family's size, the longest game found lies below where one game is expected, and
a prediction of a few games means "probably one family, or none".

Only a uniform sample is fitted: every game of a random search, the random deals of a
climber (kept apart in the store's ``sample_histogram``), never an enumeration's or the
factory's games, nor the climber's extension games (``Strategy.sample``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

TOP_GAMES = 30  # the fit ends where fewer games than this reach a length
START_SHARE = 0.4  # the fit starts at this share of its end
MIN_FIT_GAMES = 200  # games the fitted range must hold (fewer: too few to fit)
MIN_FIT_LENGTHS = 8  # distinct lengths the fitted range must span
Z95 = 1.959963984540054  # a two-sided 95% interval of a normal
SMALLEST_LOG_CHANCE = math.log(1e-300)  # a chance below this a game is refused (floats end)
# how far past the fit's end (in e-folds of S) a census check of bench_odds held within a
# factor 1.5: camicia's 70 games >= 4,500 cards, 13.8 e-folds past a fit of 1e8 games
# (docs/records-benchmark.md; three small censused decks failed nearer, within 3-10 e-folds
# of their top, where their tails bend)
VALIDATED_EFOLDS = 14.0
# the longest known game of a deck (two players, Beggar-my-neighbour), by deck spec: the
# standard deck's 8,344 cards (Nessler 2022, docs/rules.md) and camicia's
# 4,663 (the maximum of its public census)
BEST_KNOWN = {"standard": 8344, "camicia": 4663}
# decks whose every deal has been played (a public census): their longest game is the maximum
CENSUS_MAXIMUM = {"camicia": 4663}  # 193,584,473,082,000 deals, every camicia deal
FAMILY_NOTE = ("long games come in merge families (docs/records.md): the count of games past"
               " a length goes in lumps of a family's size (often 10-20 deals of nearly one"
               " length), so a few expected games may be one family or none, and the longest"
               " game found lies below where one game is expected")


class OddsError(ValueError):
    """A sample that cannot be fitted, or a length the fit cannot speak for."""


@dataclass(frozen=True)
class Sample:
    """A uniform random sample of a deck's deals: the won games' lengths, how many deals it
    holds in all (loops and capped games included) and the time it took."""

    lengths: np.ndarray  # int64 cards, ascending
    counts: np.ndarray  # int64 won games of each length
    games: int  # deals in the sample (won, looping and capped)
    seconds: float = 0.0  # worker seconds spent on it (0: unknown)
    elapsed: float = 0.0  # wall-clock seconds (0: unknown)

    @classmethod
    def of(cls, histogram: Sequence[tuple[int, int]], games: int | None = None,
           seconds: float = 0.0, elapsed: float = 0.0) -> Sample:
        """The sample of ``histogram`` ((cards, count) pairs); ``games`` defaults to the
        games it counts."""
        pairs = sorted((int(c), int(n)) for c, n in histogram if int(n) > 0)
        lengths = np.array([c for c, _ in pairs], dtype=np.int64)
        counts = np.array([n for _, n in pairs], dtype=np.int64)
        total = int(counts.sum()) if games is None else int(games)
        return cls(lengths, counts, total, float(seconds), float(elapsed))

    def at_least(self, cards: int) -> int:
        """Games of the sample of at least ``cards`` cards."""
        return int(self.counts[self.lengths >= cards].sum())

    @property
    def longest(self) -> int:
        """The sample's longest game (0 when it holds none)."""
        return int(self.lengths[-1]) if len(self.lengths) else 0

    @property
    def per_worker_second(self) -> float | None:
        """Games of the sample per worker second; None where its time is unknown."""
        return self.games / self.seconds if self.seconds > 0 else None

    @property
    def per_second(self) -> float | None:
        """Games of the sample per wall-clock second; None where its time is unknown."""
        return self.games / self.elapsed if self.elapsed > 0 else None


@dataclass(frozen=True)
class Estimate:
    """A chance with its 95% interval."""

    value: float
    low: float
    high: float

    def times(self, factor: float) -> Estimate:
        """The estimate scaled by ``factor`` (a count of games)."""
        return Estimate(self.value * factor, self.low * factor, self.high * factor)


@dataclass(frozen=True)
class TailFit:
    """An exponential tail: S(x) = share * q**(x - fit_from) for x >= fit_from."""

    fit_from: int  # u: the first length fitted
    fit_to: int  # L: the longest length still reached by TOP_GAMES games
    games: int  # the sample's size
    tail_games: int  # games of at least fit_from cards
    fitted_games: int  # games between fit_from and fit_to (not censored)
    q: float  # S falls by this factor a card
    longest: int  # the sample's longest game

    @property
    def tau(self) -> float:
        """Cards per e-fold of S: the decay length."""
        return -1.0 / math.log(self.q)

    @property
    def tau_interval(self) -> tuple[float, float]:
        """The decay length's 95% interval."""
        rate, spread = -math.log(self.q), Z95 * self._log_q_sd
        return 1.0 / (rate + spread), (1.0 / (rate - spread) if rate > spread else math.inf)

    @property
    def _log_q_sd(self) -> float:
        # the geometric MLE's Fisher information: var(q) = q (1 - q)^2 / n
        return (1.0 - self.q) / math.sqrt(self.q * self.fitted_games)

    def log_share(self, cards: float) -> float:
        """log S(cards) on the fit."""
        return math.log(self.tail_games / self.games) + (cards - self.fit_from) * math.log(self.q)

    def per_game(self, cards: float) -> Estimate:
        """The chance that one random deal's game lasts at least ``cards`` cards."""
        centre = self.log_share(cards)
        spread = Z95 * math.hypot(1.0 / math.sqrt(self.tail_games),
                                  (cards - self.fit_from) * self._log_q_sd)
        return Estimate(math.exp(centre), math.exp(centre - spread), math.exp(centre + spread))

    def efolds_beyond(self, cards: float) -> float:
        """How far ``cards`` lies past the fit's end, in e-folds of S (negative: inside)."""
        return (cards - self.fit_to) / self.tau

    def level(self, deals: float) -> float:
        """The length where ``deals`` random deals hold one game of at least it, on the fit."""
        return self.fit_from + (math.log(self.tail_games / self.games) + math.log(deals)) * self.tau


def fit_tail(sample: Sample, start_share: float = START_SHARE,
             top_games: int = TOP_GAMES) -> TailFit:
    """The exponential tail of ``sample`` (see the module's text); ``OddsError`` when the
    sample holds too few long games to fit."""
    if not len(sample.lengths):
        raise OddsError("the sample holds no finished game")
    reach = np.cumsum(sample.counts[::-1])[::-1]  # games >= each length
    reached = sample.lengths[reach >= top_games]
    if not len(reached):
        raise OddsError(f"too few games to fit: {sample.games:,} games, fewer than"
                        f" {top_games} finished")
    end = int(reached[-1])
    mode = int(sample.lengths[np.argmax(sample.counts)])  # the tail starts past the bulk
    return fit_range(sample, max(int(math.ceil(start_share * end)), mode), end)


def fit_range(sample: Sample, start: int, end: int) -> TailFit:
    """The geometric tail fitted to the games from ``start`` up to ``end`` cards, the games
    of ``end`` cards or more counted as reaching ``end``; ``OddsError`` when the range holds
    too few games."""
    inside = (sample.lengths >= start) & (sample.lengths < end)
    fitted = int(sample.counts[inside].sum())
    lengths_inside = int(inside.sum())
    if fitted < MIN_FIT_GAMES or lengths_inside < MIN_FIT_LENGTHS:
        raise OddsError(f"too few games to fit: {fitted:,} games between {start:,} and"
                        f" {end:,} cards over {lengths_inside} lengths (at least"
                        f" {MIN_FIT_GAMES} over {MIN_FIT_LENGTHS} needed); play more deals")
    censored = sample.at_least(end)
    excess = int(((sample.lengths[inside] - start) * sample.counts[inside]).sum())
    excess += censored * (end - start)
    q = excess / (excess + fitted)  # the censored geometric tail's maximum likelihood
    return TailFit(fit_from=start, fit_to=end, games=sample.games,
                   tail_games=fitted + censored, fitted_games=fitted, q=q,
                   longest=sample.longest)


@dataclass(frozen=True)
class Odds:
    """What the fit says of games of at least ``cards`` cards."""

    cards: int
    fit: TailFit
    per_game: Estimate

    @property
    def expected_games(self) -> float:
        """Games to play, on average, until one lasts at least ``cards`` cards."""
        return 1.0 / self.per_game.value

    def expected_in(self, games: float) -> Estimate:
        """Games of at least ``cards`` cards expected in ``games`` random games."""
        return self.per_game.times(games)

    def chance_in(self, games: float) -> float:
        """The chance of at least one in ``games`` games (Poisson), on the fit's centre."""
        return -math.expm1(-self.per_game.value * games)

    @property
    def efolds_beyond_data(self) -> float:
        """How far ``cards`` lies past the fit's end, in e-folds of S."""
        return self.fit.efolds_beyond(self.cards)

    @property
    def validated(self) -> bool:
        """Whether ``cards`` lies within what the census checks validated."""
        return self.efolds_beyond_data <= VALIDATED_EFOLDS


def odds(sample: Sample, cards: int, start_share: float = START_SHARE) -> Odds:
    """The odds of a game of at least ``cards`` cards from ``sample``; ``OddsError`` when it
    cannot be fitted, or ``cards`` lies below the fitted tail."""
    fit = fit_tail(sample, start_share)
    if cards < fit.fit_from:
        raise OddsError(f"{cards:,} cards lies below the fitted tail, which starts at"
                        f" {fit.fit_from:,} cards: the sample itself counts"
                        f" {sample.at_least(cards):,} of {sample.games:,} games that long")
    if fit.log_share(cards) < SMALLEST_LOG_CHANCE:
        raise OddsError(f"{cards:,} cards lies {fit.efolds_beyond(cards):,.0f} e-folds past the"
                        " fitted tail: a chance below 1e-300 a game, past what the fit can"
                        " say; ask for a shorter length")
    return Odds(cards, fit, fit.per_game(cards))


def sample_of(store, runs) -> Sample:
    """The uniform random sample of ``runs`` (one deck, players and game) of ``store``:
    a random search's games, a climber's random deals; ``OddsError`` for a run whose games
    are no uniform sample, or runs of different decks."""
    from .games import of as game_in
    from .strategies.units import strategy_class

    histogram: dict[int, int] = {}
    games, seconds, elapsed, kinds = 0, 0.0, 0.0, set()
    for run in runs:
        strategy = strategy_class(run.strategy)
        kinds.add((run.params["deck"], run.players, game_in(run.params).name))
        if strategy.sample == "all":
            pairs, run_games = store.histogram(run.id), run.deals
        elif strategy.sample == "random":
            pairs = store.histogram(run.id, "sample_histogram")
            run_games = _planned_random_deals(store, run, strategy)
            if run_games and not pairs:
                raise OddsError(f"run {run.id} was stored before its random deals were kept"
                                " apart (results format 4): its games are no uniform sample")
        else:
            raise OddsError(f"run {run.id} is a {run.strategy} run: its games are no uniform"
                            " random sample of the deck's deals (use a random or climb run)")
        for cards, count in pairs:
            histogram[cards] = histogram.get(cards, 0) + count
        games += run_games
        seconds += run.seconds
        elapsed += run.elapsed
    if len(kinds) > 1:
        raise OddsError("the runs are of different decks, players or games: fit one at a time")
    if not histogram:
        raise OddsError("no histogram: the run holds no finished random game")
    return Sample.of(sorted(histogram.items()), games, seconds, elapsed)


def _planned_random_deals(store, run, strategy) -> int:
    """A climber's random deals: its stored chunks' planned deals."""
    chunks = store.done_chunks(run.id)
    if not chunks:
        return 0
    plan = strategy(run.params)  # builds no kernel: chunk_deals reads the plan alone
    return sum(plan.chunk_deals(chunk) for chunk in chunks)


def best_known(run) -> int | None:
    """The longest known game of ``run``'s deck, where one is known (``BEST_KNOWN``)."""
    from . import games

    if games.of(run.params) is not games.BMN or run.players != 2:  # BEST_KNOWN's game
        return None
    return BEST_KNOWN.get(run.deck.spec)


def census_maximum(run) -> int | None:
    """The longest game of ``run``'s deck where a census of every deal is known
    (``CENSUS_MAXIMUM``): no deal plays longer."""
    return CENSUS_MAXIMUM.get(run.deck.spec) if best_known(run) is not None else None

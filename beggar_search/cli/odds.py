"""``beggar-search odds``: the chance of a game of at least X cards, from a run's random sample
(the tail fit of ``beggar_search.odds``)."""

from __future__ import annotations

import math

import click

from .. import odds as tail
from .common import RUN_ID, Hours, UserError, emit, json_option, open_store, say
from .options import db_option


def positive(ctx, param, value):
    """A click callback: ``value`` (a float or None) if it is finite and above 0."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value:g} is not a finite number greater than 0")
    return value


SECONDS_IN = (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60))


def duration(seconds: float) -> str:
    """``seconds`` for people: ``3.2 hours``, ``4.1e+05 years``."""
    for name, size in SECONDS_IN:
        if seconds >= size:
            value = seconds / size
            return f"{value:.3g} {name}" if value < 1e6 else f"{value:.2e} {name}"
    return f"{seconds:.3g} seconds"


def budget_games(sample: tail.Sample, deals, hours, workers, rate) -> tuple[float | None, dict]:
    """The games of the budget asked for, and how they were reckoned (JSON keys)."""
    if deals is not None and (hours is not None or rate is not None):
        raise UserError("give --deals N, or --hours H (with --workers W or --rate R): not both")
    if deals is not None:
        return deals, {"budget_games": deals}
    if hours is None:
        if workers is not None or rate is not None:
            raise UserError("--workers and --rate go with --hours H")
        return None, {}
    per_worker = sample.per_worker_second
    if rate is None and per_worker is None:
        raise UserError("the run's time is not known: give its rate with --rate GAMES_PER_SECOND")
    workers = workers or 1
    per_second = rate if rate is not None else per_worker * workers
    games = per_second * hours * 3600.0
    return games, {"budget_games": games, "hours": hours, "workers": workers,
                   "games_per_second": round(per_second, 1),
                   "rate_from": "--rate" if rate is not None else "run"}


def odds_record(found: tail.Odds, sample: tail.Sample, runs: list[int], budget: float | None,
                reckoning: dict) -> dict:
    """The ``odds --json`` record (docs/json.md)."""
    fit = found.fit
    low_tau, high_tau = fit.tau_interval
    record = {
        "run_ids": runs, "cards": found.cards, "sample_games": sample.games,
        "longest_in_sample": sample.longest,
        "per_game": found.per_game.value, "per_game_low": found.per_game.low,
        "per_game_high": found.per_game.high, "expected_games": found.expected_games,
        "fit_from": fit.fit_from, "fit_to": fit.fit_to, "tail_games": fit.tail_games,
        "tau": round(fit.tau, 3), "tau_low": round(low_tau, 3),
        "tau_high": round(high_tau, 3) if math.isfinite(high_tau) else None,
        "efolds_beyond_data": round(found.efolds_beyond_data, 3),
        "validated_efolds": tail.VALIDATED_EFOLDS, "validated": found.validated,
        "games_per_second_per_worker": (round(sample.per_worker_second, 1)
                                        if sample.per_worker_second else None),
        "expected_in_budget": None, "expected_in_budget_low": None,
        "expected_in_budget_high": None, "chance_in_budget": None,
    }
    if budget is not None:
        expected = found.expected_in(budget)
        record.update({**reckoning, "expected_in_budget": expected.value,
                       "expected_in_budget_low": expected.low,
                       "expected_in_budget_high": expected.high,
                       "chance_in_budget": found.chance_in(budget)})
    return record


def odds_text(found: tail.Odds, sample: tail.Sample, record: dict) -> list[str]:
    """What ``odds`` prints for people."""
    fit, p, x = found.fit, found.per_game, found.cards
    low_tau, high_tau = fit.tau_interval
    lines = [f"note: {tail.FAMILY_NOTE}",
             f"sample     {sample.games:,} random games (runs"
             f" {', '.join(map(str, record['run_ids']))}), longest {sample.longest:,} cards",
             f"fit        S(x) falls e-fold every {fit.tau:.1f} cards ({low_tau:.1f}-"
             f"{high_tau:.1f}), fitted from {fit.fit_from:,} to {fit.fit_to:,} cards"
             f" ({fit.tail_games:,} games >= {fit.fit_from:,})",
             f"per game   {p.value:.3g} for a game >= {x:,} cards (95%: {p.low:.3g} to"
             f" {p.high:.3g})",
             f"expected   one in {found.expected_games:.3g} games"]
    rate = sample.per_worker_second
    if rate:
        lines.append(f"           at this run's rate ({rate:,.0f} games/s a worker):"
                     f" {duration(found.expected_games / rate)} of one worker")
    if record["expected_in_budget"] is not None:
        where = (f"in {record['budget_games']:.3g} games" if "hours" not in record else
                 f"in {record['hours']:g} hours at {record['games_per_second']:,.0f} games/s"
                 f" ({record['budget_games']:.3g} games)")
        lines.append(f"budget     {record['expected_in_budget']:.3g} games >= {x:,} expected"
                     f" {where} (95%: {record['expected_in_budget_low']:.3g} to"
                     f" {record['expected_in_budget_high']:.3g}); chance of at least one"
                     f" {record['chance_in_budget']:.3g}")
    lines.append(f"beyond     {x:,} cards lies {found.efolds_beyond_data:.1f} e-folds past the"
                 f" fit's end ({fit.fit_to:,})")
    if record.get("census_maximum") is not None and x > record["census_maximum"]:
        lines.append(f"census     a census of every deal of this deck found none longer than"
                     f" {record['census_maximum']:,} cards: the true chance of {x:,} is 0 (the"
                     " fit over-predicts the very top)")
    if not found.validated:
        lines.append(f"warning: that is past the {tail.VALIDATED_EFOLDS:g} e-folds any census"
                     " check validated (docs/records-benchmark.md): the interval is the"
                     " sample's alone, and the tail may not stay one exponential that far")
    elif found.efolds_beyond_data > 0:
        lines.append("caution: an extrapolation: one exponential held within a factor 1.5 on"
                     " camicia's census and a 24-card one, but missed by 2-50x near the top of"
                     " three small censused decks (docs/records-benchmark.md)")
    return lines


def read_sample(db_path, run_ids) -> tuple[tail.Sample, list[int], int | None]:
    """The uniform random sample of the runs named (the latest run when none), and their
    deck's longest game where a census of every deal is known."""
    with open_store(db_path, create=False) as store:
        runs = [store.run(run_id) for run_id in (run_ids or (None,))]
        try:
            return (tail.sample_of(store, runs), [run.id for run in runs],
                    tail.census_maximum(runs[0]))
        except tail.OddsError as error:
            raise UserError(str(error)) from None


@click.command()
@db_option
@click.option("--run", "run_ids", type=RUN_ID, multiple=True,
              help="Run id; repeat it to pool runs of one deck [default: the latest run].")
@click.option("--cards", type=click.IntRange(1, None), required=True, metavar="X",
              help="The length asked about: a game of at least X cards.")
@click.option("--deals", type=float, callback=positive, default=None, metavar="N",
              help="The budget: N random games (1e12 allowed).")
@click.option("--hours", type=Hours(), default=None, metavar="H",
              help="The budget: H hours at the run's rate a worker, on W workers.")
@click.option("--workers", type=click.IntRange(1, 10**7), default=None, metavar="W",
              help="With --hours: workers (cores) at the run's rate each [default: 1].")
@click.option("--rate", type=float, callback=positive, default=None,
              metavar="GAMES_PER_SECOND",
              help="With --hours: games a second in all instead of the run's rate (a GPU's,"
                   " a cluster's).")
@json_option
def odds(db_path, run_ids, cards, deals, hours, workers, rate, as_json):
    """The chance of a game of at least X cards, fitted to a run's random games.

    An exponential tail is fitted to the length histogram of the run's uniform random sample
    (a random search's games, a climber's random deals): the chance per game, with a 95%
    interval, the games expected until one, and the number expected in a budget. Long games
    come in merge families, so counts at the top go in lumps of a family's size
    (docs/odds.md)."""
    sample, ids, maximum = read_sample(db_path, run_ids)
    budget, reckoning = budget_games(sample, deals, hours, workers, rate)
    try:
        found = tail.odds(sample, cards)
    except tail.OddsError as error:
        raise UserError(str(error)) from None
    record = {**odds_record(found, sample, ids, budget, reckoning), "census_maximum": maximum}
    if as_json:
        emit(record, True, "")
        return
    for line in odds_text(found, sample, record):
        say(line)


def record_odds(store, run) -> dict | None:
    """``show``'s odds of beating the run's deck's longest known game at the run's rate
    (its random sample's games per wall-clock second); None where no record is known, the
    run is no uniform sample, or it holds too few games to fit."""
    best = tail.best_known(run)
    if best is None:
        return None
    try:
        found = tail.odds(tail.sample_of(store, [run]), best + 1)
    except tail.OddsError:
        return None
    rate = found.fit.games / run.elapsed if run.elapsed > 0 else None
    return {"best_known": best, "cards": best + 1, "per_game": found.per_game.value,
            "per_game_low": found.per_game.low, "per_game_high": found.per_game.high,
            "expected_games": found.expected_games,
            "expected_seconds": found.expected_games / rate if rate else None,
            "efolds_beyond_data": round(found.efolds_beyond_data, 3),
            "validated": found.validated, "census_maximum": tail.census_maximum(run)}


def record_odds_line(odds_found: dict) -> str:
    """``show``'s line for ``record_odds``."""
    every = (duration(odds_found["expected_seconds"]) if odds_found["expected_seconds"]
             else f"{odds_found['expected_games']:.3g} games")
    if odds_found["census_maximum"] is not None:
        return (f"odds       at this run's rate the fit expects a game >= {odds_found['cards']:,}"
                f" every {every}, but a census of every deal of this deck found none: the fit"
                " over-predicts the very top (merge families; beggar-search odds)")
    caveat = "" if odds_found["validated"] else (
        f"; {odds_found['efolds_beyond_data']:.1f} e-folds past the data, beyond what the"
        " census checks validated")
    return (f"odds       at this run's rate, a game >= {odds_found['cards']:,} is expected every"
            f" {every} (1 in {odds_found['expected_games']:.3g} games{caveat}; beggar-search"
            " odds)")

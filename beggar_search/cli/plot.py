"""``beggar-search plot ...``: pictures of a run's game lengths and cycles, and of one game."""

from __future__ import annotations

import click

from .. import compiling
from ..outfile import check_output
from .common import (
    MAX_TRICKS,
    RUN_ID,
    SEED,
    UserError,
    deck_option,
    emit,
    json_option,
    open_store,
)
from .game import game_options
from .options import db_option
from .results import run_option


def _plots(out: str, db_path: str | None = None):
    """The plots module, once matplotlib is there and ``out`` names a known image type.

    Both are checked before any work, so a missing extra or a bad name fails at once, as is
    ``out`` itself: never the results file, never any SQLite database.
    """
    from .. import plots

    check_output(out, (db_path,))

    try:
        plots.require_matplotlib()
        plots.image_format(out)
    except plots.PlotError as error:
        raise UserError(str(error)) from None
    return plots


def out_option(default: str):
    """The ``--out`` option (the image to write), with ``default`` as its default."""
    return click.option("--out", default=default, show_default=True, metavar="FILE",
                        type=click.Path(dir_okay=False),
                        help="Image to write: .png, .svg or .pdf.")


def _draw(plots, draw, *args) -> str:
    try:
        return str(draw(*args))
    except plots.PlotError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot write {args[1]}: {error.strerror or error}") from None


def _run_data(plots, gather, db_path, run_id) -> dict:
    """A figure's data from a run of the results file; no data is a user error."""
    with open_store(db_path, create=False) as store:
        try:
            return gather(store, run_id)
        except plots.PlotError as error:
            raise UserError(str(error)) from None


SLAP_KEYS = ("slap_rules", "slap_policy", "slap_in")  # a ratscrew run's, in its figures' JSON


def game_json(data: dict) -> dict:
    """A figure's game in its JSON: ``game`` and, for ratscrew, the slap fields."""
    return {"game": data["game"], **{key: data[key] for key in SLAP_KEYS if key in data}}


@click.group()
def plot():
    """Pictures (needs matplotlib): game lengths, one game, a run's cycles, a cycle family,
    the merge families of long games, the tail of lengths with its fit."""


@plot.command()
@db_option
@run_option
@click.option("--vs", "versus_id", type=RUN_ID, default=None, metavar="RUN",
              help="Overlay a second run; both are then drawn as shares of their games.")
@out_option("lengths.png")
@json_option
def lengths(db_path, run_id, versus_id, out, as_json):
    """The distribution of game lengths (cards) of a run, on a log count axis."""
    from ..vocabulary import longest_game, rounded

    plots = _plots(out, db_path)
    with open_store(db_path, create=False) as store:
        if versus_id is None:
            data, versus = plots.lengths_data(store, run_id), None
        else:  # on one bin width, or the shares per bin do not compare
            data, versus = plots.lengths_pair(store, run_id, versus_id)
        longest = {r["run"]: store.games(r["run"], "longest", limit=1)
                   for r in (data, versus) if r is not None}
    written = _draw(plots, plots.draw_lengths, data, out, versus)
    runs = [data] if versus is None else [data, versus]
    summary = {"out": written, "runs": [
        {"run": r["run"], **game_json(r), "deck": r["deck"], "deals": r["deals"],
         "games": r["games"],
         "loops": r["loops"], "caps": r["caps"], "mean_cards": rounded(r["mean"], 3),
         "bin_width": r["bin_width"], "longest": longest_game(longest[r["run"]]),
         "record": r["record"]} for r in runs]}  # record: deprecated, longest without winner
    emit(summary, as_json, written)


@plot.command(context_settings={"ignore_unknown_options": True})
@click.argument("deal_text", metavar="DEAL")
@deck_option
@click.option("--max-tricks", type=MAX_TRICKS, default=None, metavar="N",
              help="Agreed cap: stop after N tricks.")
@out_option("game.png")
@game_options
@click.option("--seed", type=SEED, default=None,
              help="ers with odds: the seed the slaps are drawn from [default: 0].")
@json_option
def game(deal_text, deck_spec, max_tricks, out, game, seed, as_json):
    """Cards held by each player after each trick of DEAL; a loop's cycle shaded."""
    plots = _plots(out)
    deal = game.kind.deal_class.parse(deal_text, game.deck(deck_spec))
    value = game.value(deal.players, seed)
    cap = value.cap(max_tricks)
    data = plots.traced_game_data(deal, *compiling.warm(value.trace, deal,  # Ctrl-C at once
                                                        max_tricks=cap))
    played = value.fields()
    written = _draw(plots, plots.draw_game, data, out)
    summary = {"out": written, "deal": data["deal"], **played, **data["result"],
               "spans": [{"label": label, "first_trick": first, "last_trick": last}
                         for label, first, last in data["spans"]]}
    emit(summary, as_json, written)


def run_figure_options(default_out: str):
    """The options of a figure of one run: --db, --run, --out, --json."""
    def apply(command):
        for option in (json_option, out_option(default_out), run_option, db_option):
            command = option(command)
        return command
    return apply


def _run_figure(kind: str, db_path, run_id, out) -> tuple[dict, str]:
    """Draw figure ``kind`` (``plots.{kind}_data``, ``plots.draw_{kind}``) of a run; returns
    its data and the image written."""
    plots = _plots(out, db_path)
    data = _run_data(plots, getattr(plots, f"{kind}_data"), db_path, run_id)
    return data, _draw(plots, getattr(plots, f"draw_{kind}"), data, out)


@plot.command()
@run_figure_options("cycles.png")
def cycles(db_path, run_id, out, as_json):
    """Each cycle a run found: its period (tricks) against the deals that reach it."""
    data, written = _run_figure("cycles", db_path, run_id, out)
    periods = [int(data["period_tricks"].min()), int(data["period_tricks"].max())]
    # period_tricks_range: the shortest and longest period; period_tricks (deprecated, a
    # period everywhere else): the same pair
    summary = {"out": written, "run": data["run"], **game_json(data),
               "deck": data["deck"], "deals": data["deals"], "loops": data["loops"],
               "cycles": len(data["cycles"]), "period_tricks_range": periods,
               "period_tricks": periods}
    emit(summary, as_json, written)


@plot.command()
@run_figure_options("family.png")
def family(db_path, run_id, out, as_json):
    """A factory run's cycles as a graph: size = fair deals, colour = period, lines = moves."""
    data, written = _run_figure("family", db_path, run_id, out)
    emit({"out": written, "run": data["run"], **game_json(data),
          "deck": data["deck"],
          "cycles": len(data["nodes"]), "islands": data["islands"],
          "fair_cycles": data["fair_cycles"]}, as_json, written)


@plot.command()
@run_figure_options("families.png")
def families(db_path, run_id, out, as_json):
    """A run's longest games by merge family: one row per family, a dot per game."""
    data, written = _run_figure("long_families", db_path, run_id, out)
    emit({"out": written, "run": data["run"], **game_json(data), "deck": data["deck"],
          "games": data["games"], "family_count": data["all_families"],
          "best": [{"family": f["family"], "cards": f["best"], "games": len(f["cards"]),
                    "mirror_family": f["mirror"]} for f in data["families"]]},
         as_json, written)


@plot.command()
@run_figure_options("tail.png")
@click.option("--cards", type=click.IntRange(1, None), default=None, metavar="X",
              help="The target length marked [default: one past the deck's longest known"
                   " game, where one is known].")
def tail(db_path, run_id, out, as_json, cards):
    """log S(x) of a run's random games, the fitted exponential tail, its interval and a
    target length (beggar-search odds)."""
    plots = _plots(out, db_path)
    data = _run_data(plots, lambda store, run: plots.tail_data(store, run, cards), db_path,
                     run_id)
    written = _draw(plots, plots.draw_tail, data, out)
    fit, found = data["fit"], data["odds"]
    emit({"out": written, "run": data["run"], **game_json(data), "deck": data["deck"],
          "sample_games": data["games"], "fit_from": fit.fit_from, "fit_to": fit.fit_to,
          "tau": round(fit.tau, 3), "cards": data["cards"],
          "per_game": found.per_game.value if found else None,
          "per_game_low": found.per_game.low if found else None,
          "per_game_high": found.per_game.high if found else None}, as_json, written)

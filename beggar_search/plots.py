"""Pictures: how long games are, what one game looks like, which cycles a run found.

Each figure has two halves.  A ``*_data`` function gathers the numbers behind it as
plain arrays and dicts (no matplotlib needed, so tests check these); a ``draw_*``
function turns them into an image file.  Drawing uses ``matplotlib.figure.Figure``
directly (no pyplot, no global state, no display), and matplotlib is imported only
there: it is an optional extra, ``pip install 'beggar-search[plot]'``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import games
from .cards.deck import Deal, Deck
from .engine.game import as_deal, trace
from .outfile import atomic_output
from .store import Store
from .text import plural

INSTALL_HINT = "plotting needs matplotlib: pip install 'beggar-search[plot]'"
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
PLAYER_COLOURS = ["#1f5fa8", "#d1495b", "#2a9d5c", "#e8a33d", "#7b4fa6", "#3aa6b9",
                  "#8c6d31", "#555555"]
SPAN_COLOURS = {"pre-period": "#bbbbbb", "one turn of the cycle": "#f4c26b"}
DPI = 110


class PlotError(ValueError):
    """A figure that cannot be drawn: no matplotlib, an unknown file type, no data."""


# the data --------------------------------------------------------------------


def _record(store: Store, run_id: int) -> dict | None:
    games = store.games(run_id, "longest", limit=1)
    if not games:
        return None
    game = games[0]
    return {"cards": game["cards"], "tricks": game["tricks"], "deal": game["deal"],
            "number": game["number"]}


def _auto_bin_width(span: int, bins: int = 150) -> int:
    """A round bin width (1, 2, 5, 10, 20, 50, ...) giving at most about ``bins`` bins."""
    width = 1
    while span / width > bins:
        for step in (2, 5 / 2, 2):
            width = int(width * step)
            if span / width <= bins:
                break
    return width


def game_fields(params: dict) -> dict:
    """What a figure says of a run's game: ``game``, its slap fields and ``game_label``
    (the game in words, in the figure's title)."""
    game = games.of(params)
    return {**game.fields(), "game_label": game.describe()}


def lengths_pair(store: Store, run_id: int | None, versus_id: int) -> tuple[dict, dict]:
    """Two runs' ``lengths_data`` binned alike (the wider of their own bin widths), so that
    their shares per bin compare."""
    data, versus = lengths_data(store, run_id), lengths_data(store, versus_id)
    width = max(data["bin_width"], versus["bin_width"])
    return lengths_data(store, run_id, width), lengths_data(store, versus_id, width)


def lengths_data(store: Store, run_id: int | None = None, bin_width: int | None = None) -> dict:
    """A run's game lengths: the histogram in cards, binned for drawing, and its record.

    ``cards``/``counts`` are the stored one-card bins (finished games only: loops and
    capped games have no length); ``edges``/``binned`` group them ``bin_width`` cards
    wide (chosen for about 150 bins when not given).  ``fraction`` is ``binned`` over
    the games counted, for comparing runs of different sizes.
    """
    run = store.run(run_id)
    rows = store.histogram(run.id)
    cards = np.array([c for c, _ in rows], dtype=np.int64)
    counts = np.array([n for _, n in rows], dtype=np.int64)
    if bin_width is None:
        bin_width = _auto_bin_width(int(cards.max()) + 1) if len(cards) else 1
    if len(cards):
        first = int(cards.min()) // bin_width * bin_width
        last = (int(cards.max()) // bin_width + 1) * bin_width
    else:
        first = last = 0
    edges = np.arange(first, last + bin_width, bin_width, dtype=np.int64)
    binned = np.zeros(max(len(edges) - 1, 0), dtype=np.int64)
    np.add.at(binned, (cards - first) // bin_width, counts)
    games = int(counts.sum())
    return {
        "run": run.id, "strategy": run.strategy, "deck": run.params["deck"],
        "players": run.players, **game_fields(run.params),
        "deals": run.deals, "loops": run.loops, "caps": run.caps, "games": games,
        "cards": cards, "counts": counts, "bin_width": bin_width,
        "edges": edges, "binned": binned,
        "fraction": binned / games if games else binned.astype(float),
        "mean": float((cards * counts).sum() / games) if games else None,
        "record": _record(store, run.id),
    }


def game_data(deal: Deal | str, deck: Deck | str | None = None,
              max_tricks: int | None = None) -> dict:
    """Cards held by each player after each trick of one game (trick 0 is the deal).

    ``sizes`` has one row per trick boundary (tricks + 1 rows) and one column per
    player; ``laid`` is the cards laid by then.  A loop is followed to its first
    repeated state, and ``spans`` names the pre-period and one turn of the cycle as
    (label, first trick, last trick).
    """
    deal = as_deal(deal, deck)
    records, result = trace(deal, max_tricks=max_tricks)
    return traced_game_data(deal, records, result)


def traced_game_data(deal, records, result) -> dict:
    """``game_data`` of a game already traced (any game: a ranked deal and its
    ``engine.ers_game.trace`` too)."""
    start = [len(hand) for hand in deal.hands]
    sizes = np.array([start] + [r.hand_sizes for r in records], dtype=np.int64)
    laid = np.array([0] + [r.cards for r in records], dtype=np.int64)
    spans = []
    if result.outcome == "loop":
        pre = result.preperiod_tricks
        if pre:
            spans.append(("pre-period", 0, pre))
        spans.append(("one turn of the cycle", pre, pre + result.period_tricks))
    return {"deal": str(deal), "deck": deal.deck.spec, "players": deal.players,
            "result": result.to_dict(), "tricks": np.arange(len(sizes)), "laid": laid,
            "sizes": sizes, "spans": spans}


def cycles_data(store: Store, run_id: int | None = None) -> dict:
    """The cycles a run reached: period (tricks and cards) and how many deals reach each."""
    run = store.run(run_id)
    cycles = store.cycles(run.id)
    if not cycles:
        raise PlotError(f"run {run.id} found no cycles: no loops among its "
                        f"{run.deals:,} deals, so there is nothing to plot")
    return {
        "run": run.id, "strategy": run.strategy, "deck": run.params["deck"],
        "players": run.players, **game_fields(run.params), "deals": run.deals,
        "loops": run.loops, "cycles": cycles,
        "period_tricks": np.array([c["period_tricks"] for c in cycles], dtype=np.int64),
        "period_cards": np.array([c["period_cards"] for c in cycles], dtype=np.int64),
        "reach": np.array([c["deals"] for c in cycles], dtype=np.int64),
        "groups": _cycle_groups(cycles),
    }


def _cycle_groups(cycles: list[dict]) -> list[dict]:
    """Cycles sharing a period and a reach (symmetric decks make many), counted once."""
    groups: dict[tuple[int, int], int] = {}
    for cycle in cycles:
        key = (cycle["period_tricks"], cycle["deals"])
        groups[key] = groups.get(key, 0) + 1
    return [{"period_tricks": period, "deals": reach, "cycles": count}
            for (period, reach), count in sorted(groups.items())]


def _spring_layout(count: int, edges: list[tuple[int, int]], steps: int = 150) -> np.ndarray:
    """Fruchterman-Reingold positions in the unit square (deterministic start)."""
    if count == 1:
        return np.full((1, 2), 0.5)
    angle = np.linspace(0, 2 * np.pi, count, endpoint=False)
    position = 0.5 + 0.4 * np.column_stack([np.cos(angle), np.sin(angle)])
    ideal = 1 / np.sqrt(count)
    heat = 0.1
    pairs = np.array(edges, dtype=np.int64).reshape(-1, 2)
    for _ in range(steps):
        delta = position[:, None, :] - position[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=2), 1e-3)
        force = (delta / distance[..., None] * (ideal ** 2 / distance)[..., None]).sum(axis=1)
        if len(pairs):
            pull = position[pairs[:, 0]] - position[pairs[:, 1]]
            length = np.maximum(np.linalg.norm(pull, axis=1), 1e-3)[:, None]
            pull = pull * length / ideal
            np.add.at(force, pairs[:, 0], -pull)
            np.add.at(force, pairs[:, 1], pull)
        size = np.maximum(np.linalg.norm(force, axis=1), 1e-9)[:, None]
        position += force / size * np.minimum(size, heat)
        heat *= 0.97
    position -= position.min(axis=0)
    return position / max(position.max(), 1e-9)


SPRING_MOST = 300  # an island of more cycles is laid out on a spiral, not by springs


def _spiral_layout(count: int) -> np.ndarray:
    """``count`` points spread evenly over the unit square (a sunflower spiral), in order
    from the centre: for islands too big for springs (``SPRING_MOST``)."""
    k = np.arange(count) + 0.5
    radius = np.sqrt(k / count)
    angle = k * np.pi * (3 - np.sqrt(5))
    return 0.5 + 0.5 * np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def family_data(store: Store, run_id: int | None = None) -> dict:
    """A factory run's cycles as a graph: nodes, move edges, mirror links, kicks, islands.

    Each island is laid out by springs along its edges (moves that found a cycle,
    mirrors, moves into cycles known already), or on a spiral in the order cycles were
    found when it holds more than ``SPRING_MOST``; islands in a grid, biggest first.  A
    kick's edge joins two islands (kicks cross between them).
    """
    from .store.cycle_families import islands

    run = store.run(run_id)
    rows = store.cycles(run.id)
    if not rows or all(row.get("generation") is None for row in rows):
        if run.strategy != "factory":
            article = "an" if run.strategy[:1] in "aeiou" else "a"
            raise PlotError(f"run {run.id} is {article} {run.strategy} run, not a factory run: plot"
                            " family draws the cycles a `search factory` run catalogues")
        raise PlotError(f"run {run.id} is a factory run that catalogued no cycles (it is"
                        f" {run.status}, {run.chunks} chunks stored): nothing to draw; see"
                        f" `beggar-search show --run {run.id}`")
    rows.sort(key=lambda r: r["cycle"])
    links = store.links(run.id)
    island = islands(rows, links)
    names = {r["cycle"] for r in rows}
    kicks = {(r["parent"], r["cycle"]) for r in rows
             if r["parent"] in names and (r["move"] or "").startswith("kick")}
    pairs = {(r["parent"], r["cycle"]) for r in rows if r["parent"] in names} - kicks
    mirrors = {(r["cycle"], r["mirror"]) for r in rows if r.get("mirror") in names}
    pairs |= mirrors
    pairs |= {(a, b) for a, b in links if a in names and b in names}
    members: dict[int, list[str]] = {}
    for row in rows:
        members.setdefault(island[row["cycle"]], []).append(row["cycle"])
    order = sorted(members, key=lambda i: (-len(members[i]), i))
    columns = int(np.ceil(np.sqrt(len(order))))
    at = {}
    for place, number in enumerate(order):
        cycles = members[number]
        index = {c: k for k, c in enumerate(cycles)}
        scale = max(0.3, np.sqrt(len(cycles) / len(members[order[0]])))  # small ones seen
        if len(cycles) > SPRING_MOST:
            layout = _spiral_layout(len(cycles)) * 0.8 * scale
        else:
            local = [(index[a], index[b]) for a, b in pairs if a in index and b in index]
            layout = _spring_layout(len(cycles), local) * 0.8 * scale
        row, column = divmod(place, columns)
        for cycle, (x, y) in zip(cycles, layout, strict=True):
            at[cycle] = (column + x, -row - y)
    nodes = [{"cycle": r["cycle"], "x": float(at[r["cycle"]][0]), "y": float(at[r["cycle"]][1]),
              "fair_deals": r["fair_deals"] or 0, "period_tricks": r["period_tricks"],
              "period_cards": r["period_cards"], "island": island[r["cycle"]],
              "generation": r["generation"]} for r in rows]
    edges = [{"from": a, "to": b,
              "kind": "mirror" if (b, a) in pairs or (a, b) in mirrors else "move"}
             for a, b in sorted(pairs)]
    edges += [{"from": a, "to": b, "kind": "kick"} for a, b in sorted(kicks)]
    return {"run": run.id, "strategy": run.strategy, "deck": run.params["deck"],
            "players": run.players, **game_fields(run.params), "nodes": nodes, "edges": edges,
            "islands": len(members), "fair_cycles": sum(1 for n in nodes if n["fair_deals"])}


# drawing ---------------------------------------------------------------------


def require_matplotlib():
    """matplotlib's ``Figure`` class, or a PlotError that says what to install."""
    try:
        import matplotlib  # noqa: F401  (a None in sys.modules must fail here too)
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError(INSTALL_HINT) from None
    return Figure


def image_format(out: str | Path) -> str:
    """png, svg or pdf from the file name; anything else is a PlotError."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise PlotError(f"cannot write {str(out)!r}: the file name must end in "
                        f".png, .svg or .pdf, not {suffix or 'nothing'!r}")
    return FORMATS[suffix]


def _new_figure(width: float, height: float):
    figure = require_matplotlib()(figsize=(width, height), dpi=DPI, layout="constrained")
    return figure, figure.add_subplot()


def _save(figure, out: str | Path) -> Path:
    out = Path(out)
    kind = image_format(out)
    metadata = {"Software": None} if kind == "png" else {"Date": None} if kind == "svg" else {}
    with atomic_output(out, binary=True) as handle:
        figure.savefig(handle, format=kind, metadata=metadata)
    return out


def _style(axes) -> None:
    axes.grid(True, which="major", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)


def _strategy_run(data: dict) -> str:
    """``'factory run 3, Beggar-my-neighbour, standard deck'``: a title's words on the run."""
    return f"{data['strategy']} run {data['run']}, {data['game_label']}, {data['deck']} deck"


def _run_label(data: dict) -> str:
    return (f"run {data['run']}: {data['game_label']}, {data['deck']} deck,"
            f" {data['players']} players")


def draw_lengths(data: dict, out: str | Path, versus: dict | None = None) -> Path:
    """The length distribution on a log count axis, its record marked; ``versus`` overlaid.

    One run is drawn as deals per bin; with ``versus`` both are drawn as the share of
    each run's finished games, so runs of different sizes compare.
    """
    if not data["games"] or (versus is not None and not versus["games"]):
        empty = data if not data["games"] else versus
        raise PlotError(f"run {empty['run']} has no finished games to plot")
    figure, axes = _new_figure(10, 5.2)
    runs = [data] if versus is None else [data, versus]
    share = versus is not None
    for index, run in enumerate(runs):
        colour = PLAYER_COLOURS[index]
        heights = run["fraction"] if share else run["binned"]
        edges = run["edges"]
        label = f"{_run_label(run)} ({run['games']:,} games, mean {run['mean']:,.0f} cards)"
        axes.stairs(np.where(heights > 0, heights, np.nan), edges, color=colour,
                    linewidth=1.2, label=label, baseline=None)
        axes.stairs(heights, edges, color=colour, alpha=0.15, fill=True, baseline=0)
        record = run["record"]
        if record:
            axes.axvline(record["cards"], color=colour, linestyle="--", linewidth=1)
            axes.annotate(
                f"record {record['cards']:,} cards\n{record['tricks']:,} tricks",
                xy=(record["cards"], 1), xycoords=("data", "axes fraction"),
                xytext=(-4, -4 - 30 * index), textcoords="offset points",
                ha="right", va="top", fontsize=9, color=colour)
    axes.set_yscale("log")
    lowest = min(float(np.min((r["fraction"] if share else r["binned"])[r["binned"] > 0]))
                 for r in runs)
    axes.set_ylim(bottom=lowest / 2)
    axes.set_xlim(left=0)
    axes.set_xlabel("game length (cards laid)")
    width = runs[0]["bin_width"]
    if any(r["bin_width"] != width for r in runs):  # ``lengths_pair`` bins them alike
        raise PlotError("runs binned at different widths do not compare: use lengths_pair")
    if share:
        axes.set_ylabel(f"share of finished games per {width}-card bin")
    else:
        axes.set_ylabel(f"games per {width}-card bin")
    _style(axes)
    if share:
        title = (f"Game lengths: run {data['run']} ({data['deals']:,} deals) vs "
                 f"run {versus['run']} ({versus['deals']:,} deals)")
    else:
        title = (f"Game lengths of {data['deals']:,} deals "
                 f"({data['strategy']} run {data['run']}, {data['deck']} deck, "
                 f"{data['players']} players)\n{data['game_label']}")
    axes.set_title(title)
    notes = [f"run {r['run']}: {r['loops']:,} loops, {r['caps']:,} capped games not shown"
             for r in runs if r["loops"] or r["caps"]]
    legend = axes.legend(loc="lower left", fontsize=9, frameon=False)
    if notes:
        legend.set_title("; ".join(notes), prop={"size": 8})
    return _save(figure, out)


def draw_game(data: dict, out: str | Path) -> Path:
    """Cards held by each player after each trick, as stacked bands; a loop's spans marked.

    The bands always add up to the deck, so each band's thickness is one player's hand
    and the boundaries show the swings; a step per trick keeps 1,000+ tricks readable.
    """
    from matplotlib.ticker import MaxNLocator

    tricks, sizes, laid = data["tricks"], data["sizes"], data["laid"]
    figure, axes = _new_figure(13, 4.6)
    below = np.zeros(len(tricks), dtype=np.int64)
    for player in range(data["players"]):
        above = below + sizes[:, player]
        axes.fill_between(tricks, below, above, step="post", linewidth=0,
                          color=PLAYER_COLOURS[player % len(PLAYER_COLOURS)], alpha=0.8,
                          label=f"player {player + 1}")
        below = above
    total = int(sizes[0].sum())
    last = max(int(tricks[-1]), 1)
    for label, first, end in data["spans"]:
        axes.axvspan(first, end, ymin=1.0, ymax=1.06, clip_on=False, linewidth=0,
                     color=SPAN_COLOURS[label], label=f"{label}: tricks {first}-{end}")
        for edge in (first, end):
            axes.axvline(edge, color="black", linestyle="--", linewidth=0.9)
    axes.set_xlim(0, last)
    axes.set_ylim(0, total)
    axes.set_xlabel("tricks played")
    axes.set_ylabel("cards in hand (stacked)")
    axes.xaxis.set_major_locator(MaxNLocator(12, integer=True))
    if len(tricks) > 1:
        top = axes.secondary_xaxis(
            "top", functions=(lambda t: np.interp(t, tricks, laid),
                              lambda c: np.interp(c, laid, tricks)))
        ticks = MaxNLocator(10, integer=True).tick_values(0, int(laid[-1]))
        top.set_xticks([t for t in ticks if 0 <= t <= laid[-1]])
        top.set_xlabel("cards laid", fontsize=9)
        top.tick_params(labelsize=8, pad=18 if data["spans"] else 3)
    axes.grid(True, axis="x", color="white", linewidth=0.5, alpha=0.6)
    axes.grid(True, axis="y", color="white", linewidth=0.5, alpha=0.6)
    result = data["result"]
    if result["outcome"] == "loop":
        outcome = (f"never ends: pre-period {result['preperiod_tricks']} tricks / "
                   f"{result['preperiod_cards']} cards, then a cycle of "
                   f"{result['period_tricks']} tricks / {result['period_cards']} cards")
    elif result["outcome"] == "cap":
        outcome = f"stopped at the cap after {result['cards']:,} cards, {result['tricks']:,} tricks"
    elif result["winner"]:
        outcome = (f"player {result['winner']} wins after {result['cards']:,} cards, "
                   f"{result['tricks']:,} tricks")
    else:
        outcome = f"a tie after {result['cards']:,} cards, {result['tricks']:,} tricks"
    axes.set_title(f"{data['deal']}\n{outcome}", fontsize=11, family="monospace")
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False)
    return _save(figure, out)


def draw_cycles(data: dict, out: str | Path) -> Path:
    """Each cycle as a point: its period in tricks against the deals that reach it.

    Cycles that share both numbers are drawn as one point, its area and label
    giving how many there are.
    """
    groups = data["groups"]
    period = np.array([g["period_tricks"] for g in groups])
    reach = np.array([g["deals"] for g in groups])
    count = np.array([g["cycles"] for g in groups])
    figure, axes = _new_figure(9, 5.5)
    axes.scatter(period, reach, s=30 + 220 * np.sqrt(count / count.max()),
                 color=PLAYER_COLOURS[0], alpha=0.65, edgecolors="white", linewidths=0.6,
                 zorder=3)
    for x, y, n in zip(period, reach, count, strict=True):
        if n > 1:
            axes.annotate(f"\u00d7{n}", (x, y), xytext=(9, 0), textcoords="offset points",
                          va="center", fontsize=8, color="#333333")
    from matplotlib.ticker import MaxNLocator

    if reach.max() >= 10 * reach.min():
        axes.set_yscale("log")
    else:  # whole deals: no 15.25 ticks
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if period.max() >= 10 * period.min():
        axes.set_xscale("log")
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.margins(x=0.08, y=0.08)
    # one value on a linear axis: MaxNLocator keeps to integers only where the view holds
    # two of them, so widen it (else 9.45 ... 10.50 tricks, 15.2 ... 16.8 deals)
    if period.min() == period.max() and axes.get_xscale() == "linear":
        axes.set_xlim(period[0] - 1, period[0] + 1)
    if reach.min() == reach.max() and axes.get_yscale() == "linear":
        axes.set_ylim(max(reach[0] - 1, 0), reach[0] + 1)
    axes.set_xlabel("period (tricks per turn of the cycle)")
    axes.set_ylabel("deals reaching the cycle")
    _style(axes)
    axes.set_title(f"{plural(len(data['reach']), 'cycle')} reached by"
                   f" {plural(data['loops'], 'looping deal')} of {data['deals']:,}\n"
                   f"({_strategy_run(data)}, {data['players']} players)\n"
                   f"\u00d7N: N cycles with the same period and reach", fontsize=11)
    return _save(figure, out)


def draw_family(data: dict, out: str | Path) -> Path:
    """Cycles as a graph: area ~ fair deals, colour = period, lines = moves and mirrors,
    dashed = kicks; cycles no fair deal reaches small and faded."""
    from matplotlib.collections import LineCollection

    nodes = data["nodes"]
    at = {n["cycle"]: (n["x"], n["y"]) for n in nodes}
    figure, axes = _new_figure(10, 8)
    many = len(nodes) > SPRING_MOST
    for kind, style, colour in (("move", "-", "#aaaaaa"), ("mirror", ":", "#aaaaaa"),
                                ("kick", "--", "#d62728")):
        segments = [(at[e["from"]], at[e["to"]]) for e in data["edges"] if e["kind"] == kind]
        if segments:
            axes.add_collection(LineCollection(
                segments, colors=colour, linestyles=style, zorder=1,
                linewidths=0.2 if many and kind != "kick" else 0.5,
                alpha=0.3 if many and kind != "kick" else 0.8))
    period = np.array([n["period_tricks"] for n in nodes])
    fair = np.array([n["fair_deals"] for n in nodes], dtype=float)
    reached = fair > 0
    norm = (period.min(), max(period.max(), period.min() + 1))
    points = None
    x = np.array([n["x"] for n in nodes])
    y = np.array([n["y"] for n in nodes])
    for chosen, size, alpha in ((~reached, np.full(len(nodes), 2.0 if many else 10.0), 0.35),
                                (reached, 20 + 250 * np.sqrt(fair / max(fair.max(), 1)), 1.0)):
        if chosen.any():
            points = axes.scatter(
                x[chosen], y[chosen],
                s=size[chosen], c=period[chosen], cmap="viridis", vmin=norm[0], vmax=norm[1],
                edgecolors="#222222" if alpha == 1.0 else "none", linewidths=0.5,
                alpha=alpha, zorder=3 if alpha == 1.0 else 2)
    from matplotlib.ticker import MaxNLocator

    figure.colorbar(points, ax=axes, label="period (tricks)",
                    ticks=MaxNLocator(integer=True))  # whole tricks
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_aspect("equal")
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    axes.set_title(f"{plural(len(nodes), 'cycle')} in {plural(data['islands'], 'island')},"
                   f" {data['fair_cycles']:,} reached by fair deals (area: fair deals)\n"
                   f"({_strategy_run(data)}) lines: moves between cycles, dotted:"
                   f" mirror images,\ndashed red: kicks; faded: no fair deal", fontsize=11)
    return _save(figure, out)


FAMILIES_SHOWN = 25  # families drawn by ``plot families``, best first


def long_families_data(store: Store, run_id: int | None = None,
                       shown: int = FAMILIES_SHOWN) -> dict:
    """A run's longest games by merge family (``store.merge_families``): for each of the ``shown``
    best families, the lengths of its games on the leaderboard and its mirror family."""
    from .store.merge_families import by_family

    run = store.run(run_id)
    games = store.games(run.id, "longest")
    if not games:
        raise PlotError(f"run {run.id} has no finished games on its leaderboard: no families"
                        " to draw")
    best = by_family(games, run.params)  # fills each game's family where it was not stored
    lengths: dict[str, list[int]] = {}
    for game in games:
        lengths.setdefault(game["family"], []).append(game["cards"])
    families = [{"family": f["family"], "cards": lengths[f["family"]],
                 "best": f["cards"], "deal": f["deal"], "mirror": f["mirror_family"]}
                for f in best[:shown]]
    return {"run": run.id, "strategy": run.strategy, "deck": run.params["deck"],
            "players": run.players, **game_fields(run.params), "games": len(games),
            "families": families,
            "all_families": len(best)}


def family_colours(families: list[dict]) -> dict:
    """A colour for each family (``family``, ``mirror``): a family and its mirror family share
    one, and no two pairs do (it once counted families, not pairs, and so ran out of its 8
    colours after 4 pairs).  Past 8 pairs the colours are drawn evenly from a colour map."""
    group_of: dict[str, int] = {}
    for family in families:
        mirror = family.get("mirror")
        group_of[family["family"]] = (group_of[mirror] if mirror in group_of
                                      else len(set(group_of.values())))
    groups = len(set(group_of.values()))
    if groups <= len(PLAYER_COLOURS):
        palette = PLAYER_COLOURS
    else:
        from matplotlib import colormaps
        from matplotlib.colors import to_hex

        palette = [to_hex(colour) for colour in
                   colormaps["turbo"](np.linspace(0.05, 0.95, groups))]
    return {name: palette[group] for name, group in group_of.items()}


def draw_long_families(data: dict, out: str | Path) -> Path:
    """One row per family, best first: a dot for each of its games on the leaderboard (cards),
    the best ringed; a family and its mirror family share a colour."""
    families = data["families"]
    figure, axes = _new_figure(10, 1.5 + 0.32 * len(families))
    colour_of = family_colours(families)
    for row, family in enumerate(families):
        colour = colour_of[family["family"]]
        cards = np.array(family["cards"])
        axes.scatter(cards, np.full(len(cards), -row), s=12, color=colour, alpha=0.6)
        axes.scatter([family["best"]], [-row], s=60, facecolors="none", edgecolors=colour)
    axes.set_yticks([-row for row in range(len(families))])
    axes.set_yticklabels([f"{f['family']} ({len(f['cards'])})" for f in families],
                         fontsize=8, family="monospace")
    axes.set_xlabel("game length (cards laid)")
    _style(axes)
    axes.set_title(f"The {len(families)} best of {data['all_families']} merge families among the"
                   f" {data['games']:,} longest games\n({data['strategy']} run {data['run']},"
                   f" {data['deck']} deck; a family and its mirror share a colour;"
                   " in brackets: its games)", fontsize=10)
    return _save(figure, out)


def tail_data(store: Store, run_id: int | None = None, cards: int | None = None) -> dict:
    """A run's random sample as S(x), the share of its games of at least x cards, with the
    exponential tail fitted to it (``odds``) and its 95% band out to ``cards`` (default: one
    past the deck's longest known game, where one is known)."""
    from . import odds

    run = store.run(run_id)
    try:
        sample = odds.sample_of(store, [run])
        target = cards if cards is not None else (
            None if odds.best_known(run) is None else odds.best_known(run) + 1)
        fit = odds.fit_tail(sample)
        found = odds.odds(sample, target) if target is not None else None
    except odds.OddsError as error:
        raise PlotError(f"run {run.id}: {error}") from None
    reach = np.cumsum(sample.counts[::-1])[::-1]
    end = max(sample.longest, target or 0)
    x = np.linspace(fit.fit_from, end, 200)
    band = [fit.per_game(float(v)) for v in x]
    return {"run": run.id, "strategy": run.strategy, "deck": run.params["deck"],
            "players": run.players, **game_fields(run.params), "games": sample.games,
            "lengths": sample.lengths, "share": reach / sample.games, "fit": fit,
            "x": x, "fitted": np.array([b.value for b in band]),
            "low": np.array([b.low for b in band]), "high": np.array([b.high for b in band]),
            "cards": target, "odds": found}


def draw_tail(data: dict, out: str | Path) -> Path:
    """log S(x) of the run's random sample, the fitted tail (solid over the fitted range,
    dashed beyond it) with its 95% band, and the target length marked."""
    fit = data["fit"]
    figure, axes = _new_figure(10, 5.5)
    axes.step(data["lengths"], data["share"], where="post", color=PLAYER_COLOURS[0],
              linewidth=1.2, label=f"sample: {data['games']:,} random games")
    inside = data["x"] <= fit.fit_to
    axes.plot(data["x"][inside], data["fitted"][inside], color=PLAYER_COLOURS[1], linewidth=1.5,
              label=f"fit {fit.fit_from:,}-{fit.fit_to:,} cards: e-fold every {fit.tau:.1f}"
                    " cards")
    axes.plot(data["x"][~inside], data["fitted"][~inside], color=PLAYER_COLOURS[1],
              linewidth=1.2, linestyle="--", label="extrapolated")
    axes.fill_between(data["x"], data["low"], data["high"], color=PLAYER_COLOURS[1],
                      alpha=0.2, linewidth=0, label="95% interval (the sample's alone)")
    axes.axvspan(fit.fit_from, fit.fit_to, color="#eeeeee", zorder=0)
    found = data["odds"]
    if found is not None:
        axes.axvline(data["cards"], color=PLAYER_COLOURS[2], linestyle=":", linewidth=1.2)
        axes.annotate(f">= {data['cards']:,} cards: {found.per_game.value:.3g} a game\n"
                      f"({found.efolds_beyond_data:.1f} e-folds past the fit)",
                      xy=(data["cards"], found.per_game.value), xytext=(-6, 6),
                      textcoords="offset points", ha="right", fontsize=9,
                      color=PLAYER_COLOURS[2])
    axes.set_yscale("log")
    axes.set_xlabel("game length x (cards laid)")
    axes.set_ylabel("S(x): share of games of at least x cards")
    _style(axes)
    axes.set_title(f"The tail of game lengths ({_strategy_run(data)}, {data['players']}"
                   " players)\nlong games come in merge families: the top counts go in"
                   " lumps of a family's size", fontsize=10)
    axes.legend(loc="lower left", fontsize=9, frameon=False)
    return _save(figure, out)

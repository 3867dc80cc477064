"""Pictures: the numbers behind each figure, and that an image of the asked type is written."""

import sys

import numpy as np
import pytest
from cli_harness import run
from published import CASELLA, NESSLER

from beggar_search import driver, plots
from beggar_search.store import Store

SMALL_DECK = "plain=5,J=2,Q=1,K=1"  # 1512 deals, 12 of them loops into 2 cycles
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<svg", "pdf": b"%PDF-"}


def search_params(deck: str, deals: int, **extra) -> dict:
    return {"deck": deck, "players": 2, "seed": None, "top_k": 10, "max_tricks": None,
            "chunk_size": 500, "hours": None, "start": 0, "deals": deals, **extra}


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    """Two enumerated runs: the small deck (with cycles) and a plain-only deck (none)."""
    path = tmp_path_factory.mktemp("plots") / "results.sqlite"
    with Store(path) as store:
        driver.start(store, "enumerate", search_params(SMALL_DECK, 1512), workers=1,
                     quiet=True)
        driver.start(store, "enumerate", search_params("plain=3,J=1", 4), workers=1,
                     quiet=True)
    return path


def is_image(path, kind: str) -> bool:
    data = path.read_bytes()
    head = data[:1024]
    return len(data) > 100 and (MAGIC[kind] in head if kind == "svg" else
                                head.startswith(MAGIC[kind]))


# the data -------------------------------------------------------------------


def test_game_data_of_a_loop():
    data = plots.game_data(CASELLA)
    sizes = data["sizes"]
    assert data["result"]["tricks"] == 66
    assert sizes.shape == (67, 2) and len(data["tricks"]) == 67 and len(data["laid"]) == 67
    assert list(sizes[0]) == [26, 26]
    assert (sizes.sum(axis=1) == 52).all()
    assert list(sizes[4]) == list(sizes[66])  # the cycle starts after trick 4 and comes back
    assert data["laid"][4] == 34 and data["laid"][66] == 474
    assert data["spans"] == [("pre-period", 0, 4), ("one turn of the cycle", 4, 66)]


def test_game_data_of_the_longest_known_game():
    data = plots.game_data(NESSLER)
    assert data["sizes"].shape == (1165, 2)
    assert list(data["sizes"][-1]) == [0, 52]
    assert data["laid"][-1] == 8344
    assert (np.diff(data["laid"]) > 0).all()
    assert data["spans"] == []


def test_game_data_three_players():
    data = plots.game_data("-J--/-Q-/K--", "plain=7,J=1,Q=1,K=1")
    assert data["sizes"].shape[1] == 3
    assert list(data["sizes"][0]) == [4, 3, 3]
    assert (data["sizes"].sum(axis=1) == 10).all()


def test_lengths_data(store_path):
    with Store(store_path) as store:
        data = plots.lengths_data(store, 1)
        histogram = store.histogram(1)
    assert data["deals"] == 1512 and data["loops"] == 12
    assert data["games"] == 1512 - 12 == sum(n for _, n in histogram)
    assert data["binned"].sum() == data["games"]
    assert len(data["edges"]) == len(data["binned"]) + 1
    assert data["fraction"].sum() == pytest.approx(1)
    assert data["record"]["cards"] == max(c for c, _ in histogram) == data["cards"][-1]
    with Store(store_path) as store:
        wide = plots.lengths_data(store, 1, bin_width=10)
    assert np.all(np.diff(wide["edges"]) == 10) and wide["binned"].sum() == data["games"]


def test_auto_bin_width():
    assert plots._auto_bin_width(100) == 1
    assert plots._auto_bin_width(3000) == 20
    assert plots._auto_bin_width(8344) == 100


def test_cycles_data(store_path):
    with Store(store_path) as store:
        data = plots.cycles_data(store, 1)
        with pytest.raises(plots.PlotError, match="no cycles"):
            plots.cycles_data(store, 2)
    assert len(data["cycles"]) == 2
    assert data["reach"].sum() == data["loops"] == 12
    assert sorted(data["reach"]) == [4, 8]
    assert list(data["period_tricks"]) == [6, 6]
    assert sum(group["cycles"] for group in data["groups"]) == 2


# the images -----------------------------------------------------------------


def test_cycles_of_one_period_have_whole_ticks(store_path, tmp_path, monkeypatch):
    """Run 1's two cycles share one period: its axis had ticks at 5.45 ... 6.50 tricks."""
    with Store(store_path) as store:
        cycles = plots.cycles_data(store, 1)
    drawn = []
    monkeypatch.setattr(plots, "_save", lambda figure, out: drawn.append(figure) or out)
    plots.draw_cycles(cycles, tmp_path / "c.png")
    for record in cycles["groups"]:
        record["deals"] = 4  # one reach too
    plots.draw_cycles(cycles, tmp_path / "d.png")
    for figure in drawn:
        axes = figure.axes[0]
        for ticks, (low, high) in ((axes.get_xticks(), axes.get_xlim()),
                                   (axes.get_yticks(), axes.get_ylim())):
            shown = [t for t in ticks if low <= t <= high]
            assert len(shown) >= 2 and all(float(t).is_integer() for t in shown), shown


@pytest.mark.parametrize("kind", ["png", "svg", "pdf"])
def test_game_image_types(tmp_path, kind):
    out = plots.draw_game(plots.game_data(CASELLA), tmp_path / f"game.{kind}")
    assert is_image(out, kind)


def test_store_images(store_path, tmp_path):
    with Store(store_path) as store:
        lengths = plots.lengths_data(store, 1)
        versus = plots.lengths_data(store, 2)
        cycles = plots.cycles_data(store, 1)
    assert is_image(plots.draw_lengths(lengths, tmp_path / "a.png"), "png")
    assert is_image(plots.draw_lengths(lengths, tmp_path / "b.svg", versus), "svg")
    assert is_image(plots.draw_cycles(cycles, tmp_path / "c.pdf"), "pdf")


def test_unknown_image_type(tmp_path):
    with pytest.raises(plots.PlotError, match=r"\.png, \.svg or \.pdf"):
        plots.draw_game(plots.game_data(CASELLA), tmp_path / "game.jpg")
    assert not (tmp_path / "game.jpg").exists()


# the command ----------------------------------------------------------------


def test_cli_game(tmp_path):
    out = tmp_path / "nessler.svg"
    result = run("plot", "game", NESSLER, "--out", out, "--json")
    assert result.returncode == 0, result.output
    data = result.json()
    assert data["out"] == str(out) and data["cards"] == 8344 and data["tricks"] == 1164
    assert is_image(out, "svg")


def test_cli_game_default_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("plot", "game", CASELLA)
    assert result.returncode == 0, result.output
    assert result.stdout.strip() == "game.png" and is_image(tmp_path / "game.png", "png")


def test_cli_lengths(store_path, tmp_path):
    out = tmp_path / "lengths.pdf"
    result = run("plot", "lengths", "--db", store_path, "--run", "1", "--vs", "2", "--out",
                 out, "--json")
    assert result.returncode == 0, result.output
    data = result.json()
    assert [r["run"] for r in data["runs"]] == [1, 2] and data["runs"][0]["deals"] == 1512
    assert is_image(out, "pdf")


def test_cli_cycles(store_path, tmp_path):
    out = tmp_path / "cycles.png"
    drawn = run("plot", "cycles", "--db", store_path, "--run", "1", "--out", out)
    assert drawn.returncode == 0 and drawn.stdout.strip() == str(out) and is_image(out, "png")
    refused = run("plot", "cycles", "--db", store_path, "--out", tmp_path / "none.png")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "run 2 found no cycles" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_cli_bad_extension(store_path, tmp_path):
    refused = run("plot", "lengths", "--db", store_path, "--out", tmp_path / "x.gif")
    assert refused.returncode == 2 and ".png, .svg or .pdf" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_cli_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    refused = run("plot", "game", CASELLA, "--out", tmp_path / "g.png")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().splitlines() == [
        "beggar-search: error: plotting needs matplotlib: pip install 'beggar-search[plot]'"]
    assert not (tmp_path / "g.png").exists()


@pytest.mark.parametrize("pairs", [5, 12])
def test_plot_families_gives_each_mirror_pair_its_own_colour(pairs):
    """A family and its mirror share a colour, and no two pairs do (5 pairs once reused the
    first pair's colour, against the plot's own legend)."""
    from beggar_search.plots import family_colours

    families = []
    for pair in range(pairs):
        families.append({"family": f"a{pair}", "mirror": f"b{pair}"})
        families.append({"family": f"b{pair}", "mirror": f"a{pair}"})
    families.append({"family": "alone", "mirror": None})
    colours = family_colours(families)
    assert all(colours[f"a{pair}"] == colours[f"b{pair}"] for pair in range(pairs))
    assert len({colours[f"a{pair}"] for pair in range(pairs)} | {colours["alone"]}) == pairs + 1

"""benchmarks/bench_first_cycle.py and bench_gpu_host.py: real figures on tiny sizes."""

from benchmark_scripts import load_script as load  # tests/ is on the path


def test_first_cycle_tries_of_seeds_and_their_table(tmp_path, capsys):
    """The tries until the first cycle of TINY for seeds 1 and 2, as the factory's run
    counts them (random states of the first seeding chunk: 9 and 115 tries), and the table
    row that says their median and spread."""
    bench = load("bench_first_cycle")
    rows = [bench.first_cycle(str(tmp_path), "plain=5,J=2,Q=1,K=1", seed, 10**6)
            for seed in (1, 2)]
    assert [row["first_cycle_tries"] for row in rows] == [9, 115]
    assert all(row["chunks"] == 1 and row["met_by"] == ["random state"] for row in rows)
    line = bench.table(rows).splitlines()[2]
    assert line.startswith("| `plain=5,J=2,Q=1,K=1` | random | 9, 115 | 62 | 12.8 |")


def test_gpu_host_side_per_deal_and_the_cap(capsys):
    """Drawing and recording blocks of deals as the GPU engine does: positive times, the two
    steps adding up, and the table of every workload."""
    bench = load("bench_gpu_host")
    row = bench.measure("camicia", "enumerate", None, 4096, 2048, 1)
    assert row["blocks"] == 2 and row["draw_ns"] > 0 and row["record_ns"] > 0
    assert abs(row["both_ns"] - row["draw_ns"] - row["record_ns"]) < 0.02
    draw, record, play = bench.workload_steps("standard", "random", 0, 512)
    draw()
    play()
    record()
    assert bench.main(["--deals", "1024", "--block", "1024", "--rounds", "1",
                       "--cores", "16"]) == 0
    out = capsys.readouterr().out
    assert out.count("| standard random") == 2 and "| camicia enumerate |" in out


def test_recall_in_tries_of_a_tiny_deck_and_its_table(tmp_path):
    """bench_loops on TINY against its census (2 groups, 12 looping deals): seeds 1 and 2
    find both groups and every deal when the first walk chunk after the first seeding round
    (16 chunks of 327,680 tries) catalogues them, and the table says so, median row too."""
    bench = load("bench_loops")
    deck = "plain=5,J=2,Q=1,K=1"
    truth = {"groups": 2, "deals": 12, "cycles": {
        c: set(d) for c, d in bench.census_truth(bench.Deck.parse(deck))["cycles"].items()}}
    rows = [bench.recall(str(tmp_path), deck, seed, truth, 10**8, 600.0) for seed in (1, 2)]
    assert [(row["groups"], row["deals"], row["stop"]) for row in rows] == [
        (2, 12, "all found")] * 2
    assert [row["first_cycle_tries"] for row in rows] == [9, 115]
    for row in rows:
        assert row["curve"][-1]["tries"] == row["tries"] > 16 * 327_680
        assert row["curve"][-1]["cpu_seconds"] <= row["cpu_seconds"]
    lines = bench.table(rows).splitlines()
    assert lines[2].startswith(f"| `{deck}` | 1 | 2/2 | 12/12 | 9 | {rows[0]['tries']:,}, ")
    assert lines[4].startswith(f"| `{deck}` | median | 2 | 12 | - |")


def test_the_recall_table_leaves_the_milestones_a_run_did_not_reach_blank():
    """A run stopped by its CPU seconds before 1e9 tries says nothing of 1e9 (more tries
    might have found more); one that found every group says its count at every milestone."""
    bench = load("bench_loops")
    curve = [{"tries": 5 * 10**7, "cpu_seconds": 100.0, "groups": 12, "deals": 18}]
    row = {"deck": "camicia", "seed": 1, "groups": 12, "groups_total": 15, "deals": 18,
           "deals_total": 162, "first_cycle_tries": 9 * 10**6, "curve": curve,
           "tries": 3 * 10**8, "cpu_seconds": 1000.0, "stop": "cpu"}
    done = {**row, "seed": 2, "groups": 15, "tries": 6 * 10**7, "stop": "all found",
            "curve": [*curve, {**curve[0], "tries": 6 * 10**7, "groups": 15}]}
    lines = bench.table([row, done]).splitlines()
    cells = [line.split(" | ")[6:12] for line in lines[2:]]
    assert cells[0] == ["0", "0", "0", "0", "12", "-"]
    assert cells[1] == ["0", "0", "0", "0", "15", "15"]
    assert cells[2] == ["0", "0", "0", "0", "13.5", "-"]  # the median: not every run reached it

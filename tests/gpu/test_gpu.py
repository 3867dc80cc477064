"""The GPU engine (``--device gpu``): refused in one line where it cannot run, identical to the
CPU path under Numba's CUDA simulator, and compiled to PTX for real targets without a device.

The simulator must be on before ``numba.cuda`` is first imported, so everything that runs
the kernel runs in a subprocess with ``NUMBA_ENABLE_CUDASIM=1``; this process never imports
``numba.cuda``.
"""

import functools
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_harness import command as command_line

from beggar_search.errors import UserError
from beggar_search.gpu import engine as gpu

ROOT = Path(__file__).resolve().parents[2]
needs_numba_cuda = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                      reason="numba-cuda is not installed (the [gpu] extra)")


def run(argv, simulator: bool, timeout: int = 600, **kwargs):
    """``argv`` in a real process (``cli_harness.command`` for the command line): Numba reads
    NUMBA_ENABLE_CUDASIM when it is imported."""
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_ENABLE_CUDASIM"}
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout,
                          cwd=kwargs.pop("cwd", ROOT), **kwargs)


@functools.cache
def a_gpu_is_here() -> bool:
    probe = run([sys.executable, "-c", "from beggar_search.gpu.engine import"
                 " unavailable_reason as r; print(r() is None)"], simulator=False)
    return probe.stdout.strip() == "True"


def test_without_numba_cuda_the_gpu_is_refused_saying_how_to_install(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "numba_cuda" else real(name, *args))
    with pytest.raises(UserError, match=r"numba-cuda.*pip install 'beggar-search\[gpu\]'"):
        gpu.check_device(gpu.GPU, 2)
    gpu.check_device(gpu.CPU, 5)  # the CPU plays everything, with or without it


@pytest.mark.parametrize("players, ers, words", [(3, False, "2 players only"),
                                                 (2, True, "Beggar-my-neighbour only")])
def test_the_gpu_refuses_what_it_does_not_play(players, ers, words):
    with pytest.raises(UserError, match=words):
        gpu.check_device(gpu.GPU, players, ers)


@needs_numba_cuda
@pytest.mark.parametrize("command", [
    ["search", "random", "--deals", "10"],
    ["search", "enumerate", "--deck", "plain=6,J=2,Q=1,K=1", "--count", "10"],
    ["bench", "--deals", "10"],
])
def test_no_gpu_is_one_line_and_exit_2(tmp_path, command):
    if a_gpu_is_here():
        pytest.skip("a CUDA GPU is usable here")
    db = tmp_path / "results.sqlite"
    args = [*command, "--device", "gpu"]
    args += ["--db", str(db)] if command[0] == "search" else []
    result = run(command_line(*args), simulator=False, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert "no CUDA GPU" in result.stderr and not db.exists()


@needs_numba_cuda
def test_simulated_gpu_gives_the_cpu_results_field_for_field(tmp_path):
    """Every workload (random standard deals by either draw, one with an agreed cap; random
    camicia deals; an enumeration of a small deck with loops, and one of camicia), 200 deals
    in 2 chunks each: the stored records agree whole, and every deal was played on the
    (simulated) device."""
    output = tmp_path / "identity.json"
    result = run([sys.executable, "benchmarks/gpu_identity.py", "--deals", "200", "--json",
                  str(output)], simulator=True)
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(output.read_text())
    assert data["simulator"] and data["all_identical"]
    by_name = {r["workload"]: r for r in data["results"]}
    assert set(by_name) == {"standard", "standard-shuffled", "camicia", "enumerate",
                            "camicia-enumerate"}
    for r in data["results"]:
        assert r["deals"] == r["deals_on_device"] == 200 and r["chunks"] == 2
        assert r["identical"] and r["differing_fields"] == [] and r["cards"] > 0
    # the CPU's replays were taken: games past the cap, and the loops found by cycle detection
    assert by_name["standard-shuffled"]["caps"] > 0
    assert by_name["enumerate"]["loops"] == 2


def timeless(summary: dict) -> dict:
    """A run's summary without what depends on the clock (seconds, rates, when found)."""
    for key in ("seconds", "deals_per_second"):
        summary.pop(key, None)
    for game in summary.get("leaderboard", []):
        game.pop("found", None)
    return summary


@needs_numba_cuda
def test_simulated_gpu_search_stores_what_the_cpu_search_stores(tmp_path):
    """``search random --device gpu`` through the CLI and the driver: the same summary, the
    same stored games, as the CPU's run of the same seed."""
    outputs = []
    for device in ("gpu", "cpu"):
        db = tmp_path / f"{device}.sqlite"
        search = run(command_line("search", "random", "--deck", "camicia", "--deals", "100",
                                  "--chunk-size", "60", "--seed", "31", "--top", "5",
                                  "--workers", "1", "--device", device, "--db", db, "--json",
                                  "--quiet"), simulator=True, cwd=tmp_path)
        assert search.returncode == 0, search.stderr
        shown = run(command_line("show", "--db", db, "--json"), simulator=False, cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        outputs.append((timeless(json.loads(search.stdout)), timeless(json.loads(shown.stdout))))
    (gpu_summary, gpu_shown), (cpu_summary, cpu_shown) = outputs
    assert gpu_summary == cpu_summary and gpu_summary["deals"] == 100
    assert gpu_shown == cpu_shown and len(gpu_shown["leaderboard"]) == 5


@needs_numba_cuda
def test_the_kernel_compiles_to_ptx_for_real_targets():
    """The kernel as a device would run it (not the simulator's Python): PTX for sm_80 and
    sm_90 (H100/H200), every value in registers (no local memory)."""
    code = """
import sys
from numba import cuda, types
from beggar_search.gpu import play
i64 = types.int64
signature = (i64[::1], i64[::1], i64[::1], i64, i64, i64, i64, i64, i64[::1])
for cc in ((8, 0), (9, 0)):
    try:
        ptx, _ = cuda.compile_ptx(play.play_deals.py_func, signature, cc=cc)
    except Exception as error:
        if "NVVM" in str(error) or "nvvm" in str(error):
            print("NO NVVM:", str(error).splitlines()[0])
            sys.exit(3)
        raise
    target = f".target sm_{cc[0]}{cc[1]}"
    print(target in ptx, ".entry" in ptx, "popc" in ptx, ".local" in ptx, len(ptx))
"""
    result = run([sys.executable, "-c", code], simulator=False)
    if result.returncode == 3:
        pytest.skip(f"NVVM is not installed (pip install nvidia-cuda-nvcc-cu12): {result.stdout}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")[:2]
    for line in lines:
        target, entry, popc, local, size = line.split()
        assert (target, entry, popc, local) == ("True", "True", "True", "False")
        assert int(size) > 5000



@needs_numba_cuda
def test_simulated_gpu_bench_times_the_gpu_beside_the_fast_path():
    result = run(command_line("bench", "--deck", "plain=6,J=2,Q=1,K=1", "--deals", "100",
                              "--general-deals", "20", "--device", "gpu", "--json"),
                 simulator=True)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # the same deals on both: the same cards laid
    assert data["gpu"]["deals"] == data["fast"]["deals"] == 100
    assert data["gpu"]["cards"] == data["fast"]["cards"] > 0 and data["gpu_ratio"] > 0
    # and the record is the documented one (tests/test_json_schema.py leaves the GPU's keys to
    # this test: they need the simulator, set before numba.cuda is imported)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).resolve().parents[2] / "docs" / "json-schema.json")
                        .read_text())
    jsonschema.validate(data, {"$defs": schema["$defs"], "$ref": "#/$defs/bench"})


@needs_numba_cuda
@pytest.mark.slow
def test_bench_gpu_runs_under_the_simulator(tmp_path):
    """benchmarks/bench_gpu.py --simulate: every figure it reports, tiny sizes (~1 minute)."""
    output = tmp_path / "bench_gpu.json"
    result = run([sys.executable, "benchmarks/bench_gpu.py", "--simulate", str(output)],
                 simulator=False)
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(output.read_text())
    assert data["simulated"] and [w["source"] for w in data["workloads"]] == ["random",
                                                                             "enumerate"]
    for figures in data["workloads"]:
        assert figures["kernel"]["cards"] == figures["kernel_with_copies"]["cards"] > 0
        assert figures["engine"]["deals"] == 64 and figures["cpu"]["deals"] == 2000
    assert data["census"]["deals"] == 193_584_473_082_000
    assert "camicia census" in result.stdout


@needs_numba_cuda
def test_a_gpu_run_resumed_without_a_gpu_is_refused():
    """A run stored with ``device: gpu`` (``search resume`` takes the stored parameters):
    its engine is refused in one line where no GPU is usable, before any chunk."""
    if a_gpu_is_here():
        pytest.skip("a CUDA GPU is usable here")
    code = """
from beggar_search.chunk_engine import Engine
from beggar_search.errors import UserError
params = {"deck": "standard", "players": 2, "engine": "bitboard", "device": "gpu"}
try:
    Engine.for_run(params)
except UserError as error:
    print("refused:", error)
Engine.for_run({**params, "device": "cpu"})
print("cpu fine")
"""
    result = run([sys.executable, "-c", code], simulator=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "refused: --device gpu: no CUDA GPU is usable here (numba.cuda.is_available() is false;"
        " set NUMBA_ENABLE_CUDASIM=1 for the slow simulator)", "cpu fine"]


def test_bench_describes_the_gpu_beside_the_cpu():
    from beggar_search.cli.bench import describe

    row = {"deals": 10, "cards": 100, "seconds": 1.0, "wall_seconds": 1.0,
           "deals_per_second": 10.0, "cards_per_second": 100.0}
    data = {"deck": "standard", "players": 2, "source": "random", "fast_kernel": "bitboard",
            "fast": row, "general": {**row, "deals_per_second": 5.0, "cards_per_second": 50.0},
            "deals_ratio": 2.0, "cards_ratio": 2.0, "workers": 1,
            "gpu": {**row, "deals_per_second": 40.0}, "gpu_ratio": 4.0}
    lines = describe(data).splitlines()
    assert lines[3].split() == ["gpu", "engine", "(wall", "clock)", "40", "deals/s", "100",
                                "cards/s", "4.00x", "one", "worker"]

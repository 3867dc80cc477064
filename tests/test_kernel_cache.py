"""Compiled kernels on disk: a kernel is compiled again when any engine source changed."""

import os
import re
import subprocess
import sys
import textwrap

KERNEL = textwrap.dedent("""
    import sys
    import beggar_search.jit as jit
    if sys.argv[1] == "changed":  # as if another engine module had been edited
        jit.SOURCES_DIGEST = "0" * 64
    sys.path.insert(0, sys.argv[2])
    from tiny_kernel import plus_one
    assert plus_one(1) == 2
    print(plus_one.stats.cache_hits.get((plus_one.signatures[0]), 0),
          sum(plus_one.stats.cache_misses.values()))
""")


def run(tmp_path, how: str) -> tuple[int, int]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-c", KERNEL, how, str(tmp_path)], env=env,
                            capture_output=True, text=True, timeout=300, check=True)
    hits, misses = (int(x) for x in result.stdout.split())
    return hits, misses


def test_a_kernel_is_compiled_again_when_another_engine_source_changed(tmp_path):
    (tmp_path / "tiny_kernel.py").write_text(
        "from beggar_search.jit import kernel\n\n\n@kernel\ndef plus_one(x):\n    return x + 1\n")
    assert run(tmp_path, "same") == (0, 1)  # compiled, saved
    assert run(tmp_path, "same") == (1, 0)  # loaded from the cache
    assert run(tmp_path, "changed") == (0, 1)  # stale: compiled again
    assert run(tmp_path, "changed") == (1, 0)
    assert run(tmp_path, "same") == (0, 1)


def test_the_digest_covers_every_folder_that_holds_kernels():
    from pathlib import Path

    import beggar_search.jit as jit

    package = Path(jit.__file__).parent
    holders = {path.parent.relative_to(package).as_posix()
               for path in package.rglob("*.py")
               if re.search(r"jit import .*kernel", path.read_text())}
    assert "engine" in holders and holders <= set(jit.KERNEL_FOLDERS), holders

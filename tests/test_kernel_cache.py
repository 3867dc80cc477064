"""Compiled kernels on disk: a kernel is compiled again when any engine source changed."""

import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

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


def test_the_digest_covers_every_module_outside_them_that_a_kernel_folder_imports():
    """Numba freezes a module's globals into the kernels that read them, so a module the
    kernel folders import (``tunables.py``: ``MOVE_NAMES`` sizes the move kernels' tables)
    is digested too: else an edit of it would load stale kernels."""
    import ast
    from pathlib import Path

    import beggar_search.jit as jit

    package = Path(jit.__file__).parent
    imported = set()
    for folder in jit.KERNEL_FOLDERS:
        for path in (package / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level == 2:
                    names = [node.module.split(".")[0]] if node.module else [
                        alias.name for alias in node.names]
                    imported |= {f"{name}.py" for name in names if name not in jit.KERNEL_FOLDERS}
    assert "tunables.py" in imported
    assert imported <= set(jit.DIGESTED_MODULES), imported


def test_a_clone_elsewhere_loads_the_kernels_another_clone_compiled(tmp_path):
    """Under NUMBA_CACHE_DIR a kernel's cache is named by its place in the package, not by
    the clone's path (CI keeps the cache outside its fresh clones)."""
    import shutil
    from pathlib import Path

    import beggar_search

    source = Path(beggar_search.__file__).parent
    script = ("import beggar_search.tiny_kernel as t; assert t.plus_one(1) == 2; "
              "print(t.plus_one.stats.cache_hits.get(t.plus_one.signatures[0], 0), "
              "sum(t.plus_one.stats.cache_misses.values()))")
    counts = []
    for clone in ("a", "b/deeper"):
        package = tmp_path / clone / "beggar_search"
        shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__"))
        (package / "tiny_kernel.py").write_text(
            "from beggar_search.jit import kernel\n\n\n@kernel\ndef plus_one(x):\n"
            "    return x + 1\n")
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
               "PYTHONPATH": str(tmp_path / clone)}
        result = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path,
                                capture_output=True, text=True, timeout=300, check=True)
        counts.append(tuple(int(x) for x in result.stdout.split()))
    assert counts == [(0, 1), (1, 0)]  # compiled in one clone, loaded in the other
    from beggar_search.jit import FOLDER_PREFIX, SOURCES_DIGEST

    assert [path.name for path in (tmp_path / "cache").iterdir()] == [
        FOLDER_PREFIX + SOURCES_DIGEST[:16]]


def _twice(x):
    return x + x


def _cached_twice():
    import numba

    from beggar_search.jit import TolerantCache

    dispatcher = numba.njit(_twice)
    dispatcher._cache = TolerantCache(_twice)
    return dispatcher


def test_a_kernel_is_never_loaded_for_other_types(tmp_path, monkeypatch):
    """An index naming, for one signature, the data file of another (Numba's numbering when
    two processes save two signatures at once: CI's 'Known signatures' failure) compiles
    that signature again; it never loads the other compilation."""
    from numba.core import config, types

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    first = _cached_twice()
    assert first(2) == 4 and first(1.5) == 3.0
    index = first._cache._cache_file
    overloads = index._load_index()
    by_args = {tuple(key[0]): key for key in overloads}
    assert set(by_args) == {(types.int64,), (types.float64,)}
    overloads[by_args[(types.int64,)]] = overloads[by_args[(types.float64,)]]
    index._save_index(overloads)

    second = _cached_twice()
    assert second(2) == 4 and isinstance(second(2), int)
    assert second.signatures == [(types.int64,)]
    assert sum(second.stats.cache_hits.values()) == 0
    third = _cached_twice()  # the int64 compilation was saved again, under its own name
    assert third(2) == 4 and sum(third.stats.cache_hits.values()) == 1


def test_two_processes_saving_two_signatures_at_once_keep_each_its_own(tmp_path, monkeypatch):
    """Both read the index before either saved, and the first one's data file is written
    last (Numba's numbering gives both the same file: the index then names, for float64,
    the int64 compilation). Each signature's file is its own: the index (the last one
    saved) names only the right data, at worst forgetting one."""
    from beggar_search.jit import KeyedCacheFile

    first, second, fresh = (KeyedCacheFile(str(tmp_path), "kernel-1", "stamp") for _ in "abc")
    for stale in (first, second):
        monkeypatch.setattr(stale, "_load_index", lambda: {})
    late = []
    monkeypatch.setattr(first, "_save_data", lambda name, data: late.append((name, data)))
    first.save(("int64",), "compiled for int64")
    second.save(("float64",), "compiled for float64")
    KeyedCacheFile._save_data(first, *late[0])  # the first process's data, written last
    assert fresh.load(("float64",)) == "compiled for float64"
    assert fresh.load(("int64",)) in ("compiled for int64", None)
    assert len(list(tmp_path.glob("kernel-1.*.nbc"))) == 2


def test_data_files_no_index_names_go_after_a_day(tmp_path):
    """Compilations of edited or upgraded sources are removed once a day old, never another
    kernel's files, a file the index names, nor one another process wrote just now."""
    import os
    import time

    from beggar_search.jit import KeyedCacheFile

    cache = KeyedCacheFile(str(tmp_path), "kernel-1.py311", "stamp")
    cache.save(("int64",), "compiled for int64")
    named = cache.data_name(("int64",))
    old = time.time() - 2 * 86_400
    files = {"stale": "kernel-1.py311.3.nbc",
             "stale keyed": "kernel-1.py311.0123456789abcdef0123.nbc",
             "fresh": "kernel-1.py311.fedcba9876543210fedc.nbc", "other": "kernel-10.py311.3.nbc",
             "index": "kernel-1.py311.nbi"}
    for what, name in files.items():
        if what != "index":
            (tmp_path / name).write_bytes(b"")
        if what != "fresh":
            os.utime(tmp_path / name, (old, old))
    os.utime(tmp_path / named, (old, old))
    cache.save(("float64",), "compiled for float64")
    left = {path.name for path in tmp_path.iterdir()}
    assert left == {named, cache.data_name(("float64",)), files["fresh"], files["other"],
                    files["index"]}
    assert KeyedCacheFile(str(tmp_path), "kernel-1.py311", "stamp").load(("int64",)) == (
        "compiled for int64")


@pytest.fixture
def nothing_said(monkeypatch):
    """``say_once`` as if nothing had been said in this command yet."""
    import beggar_search.jit as jit

    monkeypatch.setattr(jit, "_said", set())
    monkeypatch.delenv(jit._SAID_VARIABLE, raising=False)


DAMAGE = {
    "truncated": lambda data: data[:20],
    "garbage": lambda data: bytes(range(256)) * 12,
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("kind", ["nbi", "nbc"])
def test_a_damaged_cache_file_is_a_miss_said_once_then_replaced(
        tmp_path, monkeypatch, capsys, nothing_said, kind, damage):
    """A truncated, garbage or empty index or data file (a copy cut short, a crash): the
    kernel compiles again, one line names the file, and the save replaces it (issue 38, D1
    and D2: a traceback, or 'interrupted' for an empty index, in every later command)."""
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert _cached_twice()(2) == 4
    [path] = tmp_path.rglob(f"*._twice-*.{kind}")
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    capsys.readouterr()

    second = _cached_twice()
    assert second(2) == 4 and second(3) == 6
    assert sum(second.stats.cache_hits.values()) == 0
    err = capsys.readouterr().err
    assert err.count("beggar-search: a file of the kernel cache cannot be read") == 1, err
    assert str(path) in err
    third = _cached_twice()  # the save replaced the damaged file
    assert third(2) == 4 and sum(third.stats.cache_hits.values()) == 1
    assert capsys.readouterr().err == ""


def test_what_was_said_is_not_said_again_by_a_worker_started_after(nothing_said, capfd):
    """The command and its worker processes say a line such as 'cannot save' once, not
    once each (issue 38, C3: a full disk's line came twice)."""
    from beggar_search.jit import say_once

    say_once("unsaved", "cannot save compiled kernels (a test)")
    script = "from beggar_search.jit import say_once; say_once('unsaved', 'again')"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    assert capfd.readouterr().err == "beggar-search: cannot save compiled kernels (a test)\n"


def clone(tmp_path, name: str, edit: str = "") -> dict:
    """A copy of the package at ``tmp_path/name`` with a tiny kernel in it (its engine
    sources edited by a comment ``edit``); the environment that imports it."""
    import shutil
    from pathlib import Path

    import beggar_search

    package = tmp_path / name / "beggar_search"
    shutil.copytree(Path(beggar_search.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (package / "tiny_kernel.py").write_text(
        "from beggar_search.jit import kernel\n\n\n@kernel\ndef plus_one(x):\n    return x + 1\n"
        "\n\n@kernel\ndef minus_one(x):\n    return x - 1\n")
    if edit:
        with open(package / "engine" / "bits.py", "a") as source:
            source.write(f"# {edit}\n")
    return {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPATH": str(tmp_path / name)}


TINY_CALL = textwrap.dedent("""
    import sys, tempfile
    if sys.argv[1] == "read-only":  # as on a read-only mount (root ignores chmod)
        def refused(*args, **kwargs):
            raise PermissionError(30, "Read-only file system")
        tempfile.TemporaryFile = refused
    import beggar_search.tiny_kernel as t
    f = getattr(t, sys.argv[2])
    assert f(1) in (0, 2)
    print(f.stats.cache_hits.get(f.signatures[0], 0), sum(f.stats.cache_misses.values()))
""")


def call_tiny(env, how="writable", what="plus_one"):
    result = subprocess.run([sys.executable, "-c", TINY_CALL, how, what], env=env,
                            cwd=env["PYTHONPATH"],  # not this checkout: the clone
                            capture_output=True, text=True, timeout=300, check=True)
    return tuple(int(x) for x in result.stdout.split()), result.stderr


def test_a_read_only_cache_holding_the_kernels_is_used(tmp_path):
    """A warm cache that cannot be written (a read-only image made with `compile --all`)
    is loaded from; a kernel it lacks compiles for this command, said once, and nothing
    is written beside the sources (issue 36 item 4, issue 38 C1: everything compiled again
    into the package's __pycache__)."""
    env = clone(tmp_path, "a")
    assert call_tiny(env) == ((0, 1), "")
    assert call_tiny(env, "read-only") == ((1, 0), "")
    counts, err = call_tiny(env, "read-only", "minus_one")
    assert counts == (0, 1)
    assert err.count("is read-only") == 1, err
    assert not list((tmp_path / "a").rglob("*.nb[ic]"))


def test_two_trees_of_different_sources_sharing_a_cache_keep_each_its_kernels(tmp_path):
    """Each version of the sources has its folder in the cache (issue 38, C2: two trees at
    the same lines overwrote each other's index files and recompiled 140 kernels)."""
    old, new = clone(tmp_path, "old"), clone(tmp_path, "new", edit="an edit")
    assert call_tiny(old)[0] == (0, 1)
    assert call_tiny(new)[0] == (0, 1)
    assert call_tiny(old)[0] == (1, 0)
    assert call_tiny(new)[0] == (1, 0)
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_without_numba_cache_dir_kernels_go_to_the_users_cache_folder(tmp_path):
    """Every install shares the user's cache folder (platformdirs), never the sources'
    folders (issue 36 item 5: a wheel's kernels stayed in site-packages, unused by the
    editable install that followed)."""
    env = clone(tmp_path, "a")
    del env["NUMBA_CACHE_DIR"]
    env["XDG_CACHE_HOME"] = str(tmp_path / "home-cache")
    assert call_tiny(env)[0] == (0, 1)
    assert call_tiny(env)[0] == (1, 0)
    [folder] = (tmp_path / "home-cache" / "beggar-search" / "kernels").iterdir()
    assert list(folder.glob("tiny_kernel.plus_one-*.nbi"))
    assert not list((tmp_path / "a").rglob("*.nb[ic]"))


def test_clean_removes_every_version_of_the_kernels_and_nothing_else(tmp_path):
    from beggar_search.jit import FOLDER_PREFIX, clean, prune_folders

    ours = [tmp_path / (FOLDER_PREFIX + digest) for digest in ("0" * 16, "1" * 16)]
    for folder in ours:
        (folder / "engine").mkdir(parents=True)
        (folder / "engine" / "rules.play_game-1.py311.nbi").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / (FOLDER_PREFIX + "mine")).mkdir()
    old = time.time() - 40 * 86_400
    os.utime(ours[0], (old, old))
    prune_folders(tmp_path, keep=ours[1])
    assert not ours[0].exists() and ours[1].exists()
    assert clean(tmp_path) == [ours[1]]
    assert sorted(path.name for path in tmp_path.iterdir()) == [FOLDER_PREFIX + "mine",
                                                                 "notes.txt"]

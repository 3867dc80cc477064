"""The scripts under benchmarks/ loaded as modules, for their tests."""

import importlib.util
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_script(name: str):
    """The module of ``benchmarks/NAME.py`` (``research/self_mirror`` for a research
    script), registered in ``sys.modules`` under its file's name (its dataclasses look
    their module up)."""
    path = BENCHMARKS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module

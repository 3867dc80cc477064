"""What every benchmark script does last: note its command and wall time in its figures,
print its summary, write the figures as JSON; and the C yardsticks' build."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

C_FLAGS = ["-O3", "-march=native"]


def build_c(source: Path, directory: str) -> tuple[str, str]:
    """``source`` compiled with ``C_FLAGS`` into ``directory``: the program's path and the
    compiler's version line; FileNotFoundError (saying how to install one) without a compiler."""
    cc = shutil.which("gcc") or shutil.which("cc") or shutil.which("clang")
    if cc is None:
        raise FileNotFoundError("no C compiler (gcc, cc or clang) on PATH: install one "
                                "(e.g. apt-get install -y gcc) to measure the C yardstick")
    binary = os.path.join(directory, source.stem)
    subprocess.run([cc, *C_FLAGS, "-o", binary, str(source)], check=True)
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
    return binary, version.splitlines()[0] if version else cc


def finish(data: dict, script: str, started: float, summary, output: str | None) -> int:
    """Add ``command`` and ``wall_seconds`` to ``data``, print ``summary(data)``, write
    ``data`` to ``output`` (when given); returns the exit status 0."""
    data["command"] = " ".join(["python", f"benchmarks/{Path(script).name}"] + sys.argv[1:])
    data["wall_seconds"] = time.time() - started
    print(summary(data))
    if output:
        with open(output, "w") as handle:
            json.dump(data, handle, indent=2)
    return 0

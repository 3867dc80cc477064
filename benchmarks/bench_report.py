"""What every benchmark script does last: note its command and wall time in its figures,
print its summary, write the figures as JSON."""

import json
import sys
import time
from pathlib import Path


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

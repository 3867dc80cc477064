"""The results file: runs, chunks, games and cycles read and written (results.py), its
tables, format and migrations (schema.py), opening it safely, its locks, WAL checkpoints and
the rescue of a moved file (file_safety.py), what it raises (errors.py), the records written
(records.py), reading rows back (readback.py), rescuing a damaged file (recover.py), a factory run's
cycles as a family (cycle_families.py) and a run's longest games by merge family
(merge_families.py)."""

from .results import Run, Store, StoreError

__all__ = ["Run", "Store", "StoreError"]

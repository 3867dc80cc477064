"""The results file: runs, chunks, games and cycles (results.py), the records written
(records.py), reading rows back (readback.py), rescuing a damaged file (recover.py) and the
family of cycles (family.py)."""

from .results import Run, Store, StoreError

__all__ = ["Run", "Store", "StoreError"]

"""What a run stored, as plain data to compare runs with (times and ids left out)."""

from beggar_search import driver
from beggar_search.store import Store


def stored(path, run_id=None, cycle_fields_ignored=("found",)):
    """Everything a run stored, minus times and ids."""
    with Store(path, create=False) as store:
        run = store.run(run_id)
        summary = driver.summarise(store, run.id)
        for key in ("run", "seconds", "deals_per_second"):
            summary.pop(key)

        def strip(rows, drop=("found",)):
            return [{k: v for k, v in row.items() if k not in drop} for row in rows]

        return {"summary": summary, "longest": strip(store.games(run.id, "longest")),
                "loops": strip(store.games(run.id, "loops")),
                "cycles": strip(store.cycles(run.id), cycle_fields_ignored),
                "histogram": store.histogram(run.id),
                "sample_histogram": store.histogram(run.id, "sample_histogram"),
                "chunks": sorted(store.done_chunks(run.id))}

"""The JSON vocabulary (``docs/json.md``, ``docs/json-schema.json``): where the values of the
results file become the records ``--json`` prints, so that one name means one thing in
every command.

Rules: times are ISO 8601 UTC strings; yes/no values are ``true``/``false``; a count of
things ``X`` that a record could also list is ``X_count`` (``fair_deals`` is a list of
deals, ``fair_deal_count`` how many); a run's work is counted in its ``unit`` (deals, tries
or games), under that unit's name.  A key whose meaning changes gets a new name; the old
one stays, marked deprecated in ``docs/json.md``, for one minor version.
"""

from __future__ import annotations

import datetime

from .games import DEFAULT as DEFAULT_GAME

# rates and durations: the precision every --json rounds them to
SECONDS_DIGITS = 3
RATE_DIGITS = 1
RATIO_DIGITS = 3


def iso_time(timestamp: float | None) -> str | None:
    """``timestamp`` (seconds since the epoch) as an ISO 8601 UTC time, to the second."""
    if timestamp is None:
        return None
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat(timespec="seconds")


def flag(value) -> bool | None:
    """A stored 0/1 as ``false``/``true`` (``None`` where the row has no value)."""
    return None if value is None else bool(value)


def with_after(record: dict, after: str, extra: dict) -> dict:
    """``record`` with the keys of ``extra`` placed right after key ``after`` (or at the
    end when it is absent): a new name sits beside the old one it replaces."""
    if after not in record:
        return {**record, **extra}
    out = {}
    for key, value in record.items():
        out[key] = value
        if key == after:
            out.update(extra)
    return out


def work_fields(strategy: str, count: int, per_second: float | None = None,
                rate: bool = False) -> dict:
    """A run's ``unit`` and its work under that unit's name (``tries``, ``games``), with
    its rate when ``rate``; for ``deals`` the count is ``deals`` itself."""
    from .strategies.units import unit_of

    unit = unit_of(strategy)
    fields = {"unit": unit}
    if unit != "deals":
        fields[unit] = count
        if rate:
            fields[f"{unit}_per_second"] = per_second
    return fields


def summary_record(summary: dict) -> dict:
    """A run's summary (``driver.summarise``) as ``search --json`` and ``show --json`` print it:
    the unit of its work, and a factory's fair deals counted as ``fair_deal_count``."""
    record = with_after(summary, "deals", work_fields(summary["strategy"], summary["deals"]))
    unit = record["unit"]
    if unit != "deals":
        record = with_after(record, "deals_per_second",
                            {f"{unit}_per_second": summary.get("deals_per_second")})
    if "fair_deals" in record:
        record = with_after(record, "fair_deals", {"fair_deal_count": record["fair_deals"]})
    return record


def run_record(data: dict) -> dict:
    """A ``runs --json`` line: the run's work also under its unit's name."""
    return with_after(data, "deals", work_fields(data["strategy"], data["deals"]))


def game_record(row: dict) -> dict:
    """A stored game (a leaderboard or loop row) as JSON: ``found`` an ISO time."""
    found = row.get("found")
    return {**row, "found": found if isinstance(found, str) else iso_time(found)}


def cycle_record(row: dict) -> dict:
    """A stored cycle as JSON: ``found`` an ISO time, ``reach_complete`` and ``own_mirror``
    booleans, and its fair deals counted as ``fair_deal_count`` and
    ``fair_deal_swapped_count`` (``fair_deals`` and ``fair_deals_swapped``: the same counts,
    deprecated, since elsewhere ``fair_deals`` is a list of deals)."""
    record = game_record(row)
    for key in ("reach_complete", "own_mirror"):
        if key in record:
            record[key] = flag(record[key])
    record = with_after(record, "fair_deals", {"fair_deal_count": record.get("fair_deals")})
    return with_after(record, "fair_deals_swapped",
                      {"fair_deal_swapped_count": record.get("fair_deals_swapped")})


def reach_record(data: dict) -> dict:
    """A ``reach --json`` result: the in-tree under the names a catalogued cycle gives it
    (``reach_states``, ``reach_depth``, ``reach_complete``; ``states``, ``depth`` and
    ``complete`` are kept, deprecated), and its fair deals counted."""
    record = with_after(data, "complete", {"reach_states": data["states"],
                                           "reach_depth": data["depth"],
                                           "reach_complete": data["complete"]})
    return {**record, "fair_deal_count": len(data["fair_deals"]),
            "fair_deal_swapped_count": len(data["fair_deals_swapped"])}


def longest_game(rows: list[dict]) -> dict | None:
    """A run's longest game as a summary's ``longest`` gives it, from its first leaderboard
    row (``None`` when it has none)."""
    if not rows:
        return None
    return {key: rows[0][key] for key in ("deal", "cards", "tricks", "winner", "number")}


def rounded(value, digits: int):
    """``value`` rounded to ``digits`` decimals (``None`` stays ``None``)."""
    return None if value is None else round(float(value), digits)


def timing_record(timing: dict) -> dict:
    """A benchmark timing (``bench.speed.Timing.as_dict``): seconds to 3 decimals and rates to 1,
    as a run's summary gives them."""
    out = {}
    for key, value in timing.items():
        if key.endswith("_per_second"):
            out[key] = rounded(value, RATE_DIGITS)
        elif key.endswith("seconds"):
            out[key] = rounded(value, SECONDS_DIGITS)
        else:
            out[key] = value
    return out


def bench_record(data: dict) -> dict:
    """``bench --json``: every timing rounded as a summary's, ratios to 3 decimals, and the
    game named (``bmn`` or ``ers``) first."""
    out = {"game": data.get("game", DEFAULT_GAME)}
    for key, value in data.items():
        if isinstance(value, dict):
            out[key] = timing_record(value)
        elif key.endswith(("_ratio", "_speedup")):
            out[key] = rounded(value, RATIO_DIGITS)
        else:
            out[key] = value
    return out

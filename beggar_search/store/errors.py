"""What the results store raises."""


class StoreError(Exception):
    """The file is not a results store (or cannot be used as one), or a run is not in it."""


class UnreadableRun(StoreError):
    """A run whose stored values are not what beggar-search writes (``readback``)."""

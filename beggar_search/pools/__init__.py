"""Where a run's chunks are played: the ``Pool`` protocol (``protocol``), local worker
processes and the calling process (``local``), a Dask cluster (``dask``), and the process
helpers they share (``processes``)."""

"""What ``beggar-search bench`` and the benchmarks measure with: ``speed`` times a workload
on each kernel, one worker and several."""

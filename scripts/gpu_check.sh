#!/usr/bin/env bash
# The GPU engine's check, for a machine with a CUDA GPU (docs/gpu.md): the identity check
# against the CPU path on every workload, then the benchmark; about 3-5 minutes.
#
#   scripts/gpu_check.sh [OUT]      # figures into OUT (default: $OUT, else gpu-check/)
#   SIMULATE=1 scripts/gpu_check.sh # the same steps on the CUDA simulator, tiny sizes
#
# Needs a Python with this checkout and its [gpu] extra (pip install -e '.[gpu]'):
# $PY, else .venv/bin/python, else python3.  Exit status: 0 when both ran and every
# workload was identical; 1 on a difference; 2 when the GPU or numba-cuda is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-${OUT:-gpu-check}}
mkdir -p "$OUT"
if [ -z "${PY:-}" ]; then
  if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
IDENTITY_DEALS=1000000
BENCH_SIZES=(--deals 33554432 --cpu-deals 2097152)
if [ "${SIMULATE:-0}" = 1 ]; then
  export NUMBA_ENABLE_CUDASIM=1
  IDENTITY_DEALS=200
  BENCH_SIZES=(--simulate)
else
  unset NUMBA_ENABLE_CUDASIM
fi
{
  date -u
  uptime
  nproc
  nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv || true
} 2>&1 | tee "$OUT/machine.txt"
if ! "$PY" -c "from beggar_search.gpu.engine import unavailable_reason as r; import sys; \
    m = r(); print(m or 'GPU engine: ready'); sys.exit(2 if m else 0)" 2>&1 | tee -a "$OUT/machine.txt"; then
  exit 2
fi
# 1. identity: a million deals a workload (the small deck's 2,470), CPU against GPU
timeout 200 "$PY" benchmarks/gpu_identity.py --deals "$IDENTITY_DEALS" --json "$OUT/identity.json" \
  2>&1 | tee "$OUT/identity.txt"
identity=${PIPESTATUS[0]}
# 2. speed: the kernel, the engine on 1 and on every core's process, the CPU on every core
timeout 300 "$PY" benchmarks/bench_gpu.py "$OUT/bench_gpu.json" "${BENCH_SIZES[@]}" 2>&1 | tee "$OUT/bench_gpu.txt"
bench=${PIPESTATUS[0]}
uptime | tee -a "$OUT/machine.txt"
echo "identity exit $identity, bench exit $bench; figures in $OUT/"
[ "$identity" -eq 0 ] && [ "$bench" -eq 0 ]

#!/bin/sh
# run_nccl_tests.sh: runs the nccl-tests binaries that are installed and
# writes one log per collective for `clustersim calibrate --nccl`
# (docs/calibration.md). Usage:
#   bench/cuda/run_nccl_tests.sh [OUTDIR] [NGPUS]
# NCCL_TESTS_DIR names the directory of all_reduce_perf & co. (default:
# search PATH, then ./nccl-tests/build). Sizes 8 B .. 8 GiB, factor 2.
# Multi-node runs need your MPI launcher: set LAUNCH, e.g.
#   LAUNCH="mpirun -np 16 -N 8" bench/cuda/run_nccl_tests.sh out 1
set -eu
out=${1:-nccl-logs}
ngpus=${2:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$ngpus" -ge 1 ] 2>/dev/null || { echo "run_nccl_tests.sh: no GPU found (nvidia-smi -L); give NGPUS" >&2; exit 2; }
mkdir -p "$out"
found=0
for op in all_reduce all_gather reduce_scatter alltoall broadcast sendrecv; do
    bin=""
    if [ -n "${NCCL_TESTS_DIR:-}" ] && [ -x "$NCCL_TESTS_DIR/${op}_perf" ]; then
        bin="$NCCL_TESTS_DIR/${op}_perf"
    elif command -v "${op}_perf" >/dev/null 2>&1; then
        bin=$(command -v "${op}_perf")
    elif [ -x "./nccl-tests/build/${op}_perf" ]; then
        bin="./nccl-tests/build/${op}_perf"
    fi
    if [ -z "$bin" ]; then
        echo "run_nccl_tests.sh: ${op}_perf not found; skipped" >&2
        continue
    fi
    found=$((found + 1))
    log="$out/${op}.txt"
    echo "run_nccl_tests.sh: $bin -> $log" >&2
    # The command line goes into the log, so the parser knows the collective.
    echo "# command: ${LAUNCH:-} $bin -b 8 -e 8G -f 2 -g $ngpus" > "$log"
    # shellcheck disable=SC2086
    ${LAUNCH:-} "$bin" -b 8 -e 8G -f 2 -g "$ngpus" >> "$log" 2>&1 || echo "run_nccl_tests.sh: $bin failed (see $log)" >&2
done
[ "$found" -gt 0 ] || { echo "run_nccl_tests.sh: no nccl-tests binary found (set NCCL_TESTS_DIR)" >&2; exit 1; }
echo "run_nccl_tests.sh: now run: clustersim calibrate --nccl $(ls "$out"/*.txt | tr '\n' ',' | sed 's/,$//') -o calib.yaml" >&2

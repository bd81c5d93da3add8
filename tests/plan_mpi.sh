#!/usr/bin/env bash
# plan_mpi.sh: `mpirun -np 2 clustersim plan -o DIR` (a -DCLUSTERSIM_MPI=ON
# build) on localhost must write the same report, byte for byte, as a
# one-process run of the same plan, with one shard file per rank; and
# mpirun without -o DIR, or with --shard, is refused. Usage: plan_mpi.sh
# CLUSTERSIM SOURCE_DIR. Exit 77 (CTest SKIP) when mpirun is not installed.
set -u
bin="$1"
src="$2"
if ! command -v mpirun >/dev/null 2>&1; then
    echo "plan_mpi: SKIP: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "plan_mpi: FAIL: $*"; exit 1; }
plan="$src/tests/data/plan-small.yaml"
mpi() { mpirun --allow-run-as-root --oversubscribe -np 2 "$@"; }

"$bin" plan --format json -o "$work/one" "$plan" >/dev/null 2>&1 || fail "one-process plan failed"
mpi "$bin" plan --format json -o "$work/mpi" "$plan" >/dev/null 2>&1 || fail "mpirun -np 2 plan failed"
[ -f "$work/mpi/plan-shard-1-of-2.jsonl" ] && [ -f "$work/mpi/plan-shard-2-of-2.jsonl" ] ||
    fail "no per-rank shard files: is $bin built with -DCLUSTERSIM_MPI=ON?"
cmp "$work/one/plan.json" "$work/mpi/plan.json" || fail "plan.json differs between mpirun -np 2 and one process"
mpi "$bin" plan "$plan" >/dev/null 2>&1 && fail "mpirun without -o DIR accepted"
mpi "$bin" plan --shard 1/2 -o "$work/bad" "$plan" >/dev/null 2>&1 && fail "--shard under mpirun accepted"
echo "plan_mpi: ok (2 ranks, the report identical to one process)"

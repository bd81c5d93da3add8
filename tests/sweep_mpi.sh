#!/usr/bin/env bash
# sweep_mpi.sh: `mpirun -np 2 clustersim sweep` (a -DCLUSTERSIM_MPI=ON
# build) on localhost must write the same results, byte for byte, as a
# one-process `-j 1` run of the same sweep, and again after a rerun (each
# rank resumes its own directory). Usage: sweep_mpi.sh CLUSTERSIM SOURCE_DIR.
# Exit 77 (CTest SKIP) when mpirun is not installed.
set -u
bin="$1"
src="$2"
if ! command -v mpirun >/dev/null 2>&1; then
    echo "sweep_mpi: SKIP: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "sweep_mpi: FAIL: $*"; exit 1; }
sweep="$src/tests/data/sweep/grid.yaml"
# As root (CI containers) OpenMPI needs --allow-run-as-root; two ranks may
# exceed the slots of a small machine, hence --oversubscribe.
mpi() { mpirun --allow-run-as-root --oversubscribe -np 2 "$@"; }

"$bin" sweep -q -j 1 -o "$work/one" "$sweep" || fail "one-process sweep failed"
mpi "$bin" sweep -q -j 1 -o "$work/mpi" "$sweep" || fail "mpirun -np 2 sweep failed"
[ -d "$work/mpi/rank-1-of-2" ] && [ -d "$work/mpi/rank-2-of-2" ] ||
    fail "no per-rank directories: is $bin built with -DCLUSTERSIM_MPI=ON?"
for f in results.csv results.jsonl sweep.json; do
    cmp "$work/one/$f" "$work/mpi/$f" || fail "$f differs between mpirun -np 2 and one process"
done
mpi "$bin" sweep -q -o "$work/mpi" "$sweep" || fail "rerun under mpirun failed"
cmp "$work/one/results.csv" "$work/mpi/results.csv" || fail "results.csv changed on rerun"
# --shard and mpirun together are refused with exit 2 on every rank.
mpi "$bin" sweep -q --shard 1/2 -o "$work/bad" "$sweep" >/dev/null 2>&1 && fail "--shard under mpirun accepted"
echo "sweep_mpi: ok ($(($(wc -l < "$work/mpi/results.jsonl"))) points, 2 ranks)"

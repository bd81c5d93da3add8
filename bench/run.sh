#!/usr/bin/env bash
# bench/run.sh: runs every benchmark built in BUILD_DIR/bench, in a fixed
# order, and prints their `name: value` lines unchanged. A failing benchmark
# stops the script with its exit status. Usage: bench/run.sh BUILD_DIR.
# Build Release first, e.g.
#   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-bench && bench/run.sh build-bench
set -eu
export LC_ALL=C

if [ "$#" -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
dir="$1/bench"
if [ ! -d "$dir" ]; then
    echo "$0: no benchmark directory '$dir' (configure and build '$1' first)" >&2
    exit 1
fi

# Known benchmarks first, in this order; then any other bench_* by name.
known="bench_engine bench_step bench_search bench_flow bench_sweep"
list=""
for b in $known; do
    if [ -f "$dir/$b" ] && [ -x "$dir/$b" ]; then
        list="$list $b"
    fi
done
for path in "$dir"/bench_*; do
    b="${path##*/}"
    case " $known " in *" $b "*) continue ;; esac
    if [ -f "$path" ] && [ -x "$path" ]; then
        list="$list $b"
    fi
done
if [ -z "$list" ]; then
    echo "$0: no bench_* executables in '$dir'" >&2
    exit 1
fi
for b in $list; do
    "$dir/$b"
done

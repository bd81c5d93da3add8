#!/usr/bin/env bash
# run.sh BUILD [RUNS [SECONDS]]: runs every libFuzzer harness of BUILD/fuzz
# (make fuzz builds them) for at most RUNS executions (default 20000) and
# SECONDS seconds each (default 15), from the seed corpus fuzz/seeds.sh
# writes, the regression inputs of fuzz/regress/NAME/ and the dictionary.
# Fails on any crash, leak, timeout (10 s for one input) or out-of-memory
# (2 GiB), and keeps the input that did it in OUT (default fuzz-out/):
#   make fuzz-run FUZZ_RUNS=200000 FUZZ_SECONDS=300   # a longer campaign
# One harness: FUZZERS="scenario trace" fuzz/run.sh build-fuzz; FUZZ_SEED=N another
# random seed (default 1, so that a CI run repeats).
set -uo pipefail
cd "$(dirname "$0")/.."
build="$1"
runs="${2:-20000}"
secs="${3:-15}"
root="$PWD"
out="${FUZZ_OUT:-$root/fuzz-out}"
all="scenario calib_overlay trace nodes nccl gemm fio steps sweep expr sweep_results refs units plan layout"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
bash fuzz/seeds.sh "$work/seeds"
failed=0
total=0
for n in ${FUZZERS:-$all}; do
    case "$build" in
    /*) bin="$build/fuzz/fuzz_$n" ;;
    *) bin="$root/$build/fuzz/fuzz_$n" ;;
    esac
    if [ ! -x "$bin" ]; then
        echo "fuzz: $bin missing (make fuzz)" >&2
        exit 1
    fi
    mkdir -p "$work/corpus/$n" "$root/fuzz/regress/$n"
    log="$out/$n.log"
    # The first corpus directory takes what the run finds; the seeds and
    # the regression inputs are read only.
    "$bin" -runs="$runs" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
        -max_len=65536 -seed="${FUZZ_SEED:-1}" -print_final_stats=1 -dict="$root/fuzz/clustersim.dict" \
        -artifact_prefix="$out/$n-" "$work/corpus/$n" "$work/seeds/$n" "$root/fuzz/regress/$n" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=${execs:-0}
    total=$((total + execs))
    if [ $rc -ne 0 ]; then
        failed=$((failed + 1))
        echo "fuzz: $n FAILED (exit $rc) after $execs executions; input and log in $out/" >&2
        grep -E "ERROR|SUMMARY|==[0-9]+==|runtime error" "$log" | head -8 >&2
    else
        echo "fuzz: $n ok, $execs executions"
    fi
done
echo "fuzz: $total executions in all"
if [ $failed -ne 0 ]; then
    echo "fuzz: $failed harness(es) failed" >&2
    exit 1
fi

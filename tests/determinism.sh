#!/usr/bin/env bash
# determinism.sh: the same scenario and seed give byte-identical output, for
# every command that simulates (run, tco, replay, sweep, collective, compare,
# search), in JSON and CSV; another seed changes the output where randomness
# is used (the run's failures). Usage: tests/determinism.sh PATH/TO/clustersim
# (from the source root; CTest does both).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

# twice NAME CMD...: runs CMD twice; both must succeed and print the same bytes.
twice() {
    local name="$1"
    shift
    "$@" >"$tmp/$name.1" 2>"$tmp/$name.err"
    local rc=$?
    if [ "$rc" -ne 0 ]; then ko "$name: exit $rc"; sed 's/^/  | /' "$tmp/$name.err" | head -5; return; fi
    "$@" >"$tmp/$name.2" 2>/dev/null
    if [ ! -s "$tmp/$name.1" ]; then ko "$name: no output"; return; fi
    if cmp -s "$tmp/$name.1" "$tmp/$name.2"; then ok; else ko "$name: two runs differ"; diff "$tmp/$name.1" "$tmp/$name.2" | head -5; fi
}

small="--set run.replicas=20"
twice run-json "$bin" run scenarios/default.yaml --format json $small
twice run-csv "$bin" run scenarios/default.yaml --format csv $small
twice tco-json "$bin" tco scenarios/default.yaml --format json
twice replay-json "$bin" replay validation/traces/microsoft-itp-2021/cluster10.csv.gz --cluster scenarios/replay-1024.yaml --format json
twice collective-json "$bin" collective scenarios/default.yaml -b 8 -e 1G -f 4 --format json
twice compare-json "$bin" compare scenarios/claims/net-n2-fat-tree.yaml scenarios/claims/net-n2-spine-leaf-3to1.yaml --format json
twice search-json "$bin" search scenarios/default.yaml --top 5 --format json -j 2

# A sweep into two directories: results identical.
for k in 1 2; do
    "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -j 2 -o "$tmp/sweep$k" >/dev/null 2>"$tmp/sweep.err" || ko "sweep $k failed"
done
if cmp -s "$tmp/sweep1/results.csv" "$tmp/sweep2/results.csv" && cmp -s "$tmp/sweep1/results.jsonl" "$tmp/sweep2/results.jsonl"
then ok; else ko "sweep: two runs differ"; fi

# Another seed: the Monte Carlo run differs (failures are random).
"$bin" run scenarios/default.yaml --format json $small --set seed=43 >"$tmp/run-seed43" 2>/dev/null || ko "run with seed 43 failed"
if cmp -s "$tmp/run-json.1" "$tmp/run-seed43"; then ko "seed 42 and 43 give the same run"; else ok; fi

finish determinism

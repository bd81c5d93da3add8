#!/usr/bin/env bash
# cli_smoke.sh: the clustersim binary as a user meets it: exit codes, help,
# errors that name the file, output files written whole, the contract's
# JSON keys. Usage: tests/cli_smoke.sh PATH/TO/clustersim (run from the
# source root; CTest does both).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- COMMAND...: runs, keeps stdout/stderr in $out/$err
expect() {
    local want="$1" what="$2"
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$what: exit $got, expected $want"; sed 's/^/  | /' "$tmp/err" | head -5; fi
}
has() { # has FILE TEXT DESCRIPTION
    if grep -qF -- "$2" "$1"; then ok; else ko "$3: '$2' not found"; fi
}

expect 0 "--version" -- "$bin" --version
has "$tmp/out" "clustersim " "--version prints the name"
expect 0 "--help" -- "$bin" --help
has "$tmp/out" "run" "--help lists run"
expect 2 "no arguments" -- "$bin"
expect 2 "unknown command" -- "$bin" rnu
has "$tmp/err" "did you mean 'run'" "unknown command suggests"
expect 0 "help run" -- "$bin" help run
has "$tmp/out" "--format" "help run shows options"
expect 2 "unknown option" -- "$bin" run --bogus scenarios/default.yaml
expect 2 "bad --format" -- "$bin" run --format xml scenarios/default.yaml

# The default scenario: text, JSON with the contract's keys, CSV.
expect 0 "run default" -- "$bin" run scenarios/default.yaml
has "$tmp/out" "Step" "text report has the step section"
expect 0 "run default json" -- "$bin" run scenarios/default.yaml --format json
for key in '"step"' '"time_s"' '"compute_s"' '"exposed_comm_s"' '"bubble_s"' \
           '"throughput"' '"tokens_per_s"' '"tflops_per_gpu"' '"mfu"' \
           '"memory"' '"bytes_per_gpu"' '"fits"'; do
    has "$tmp/out" "$key" "run json"
done
expect 0 "run default csv" -- "$bin" run scenarios/default.yaml --format csv
has "$tmp/out" "step_time_s" "csv header"

# -o DIR: the file appears whole, no temporary file is left.
expect 0 "run -o" -- "$bin" run scenarios/default.yaml --format json -o "$tmp/outdir"
if [ -s "$tmp/outdir/run.json" ]; then ok; else ko "-o: run.json missing"; fi
if ls -A "$tmp/outdir" | grep -q '\.tmp'; then ko "-o: temporary file left"; else ok; fi
expect 1 "-o into a file" -- "$bin" run scenarios/default.yaml -o scenarios/default.yaml

# Bad input: exit 2 and the message names the file.
expect 2 "missing file" -- "$bin" run "$tmp/nope.yaml"
has "$tmp/err" "nope.yaml" "missing file named"
expect 2 "unknown key" -- "$bin" run tests/data/bad/unknown_key.yaml
has "$tmp/err" "unknown_key.yaml:" "unknown key located"
expect 2 "binary garbage" -- "$bin" validate tests/data/bad/binary_garbage.yaml
has "$tmp/err" "binary_garbage.yaml" "garbage named"
expect 2 "deep nesting" -- "$bin" validate tests/data/bad/deep_nesting.yaml

# A configuration that does not fit: reported, exit 1, no step numbers.
cat >"$tmp/unfit.yaml" <<'YAML'
schema_version: 1
cluster: {gpu: A100-SXM4-80GB, nodes: 1, gpus_per_node: 8}
workload: {model: {preset: gpt3-175b}, global_batch: 8, parallelism: {tp: 8, pp: 1, dp: 1}}
YAML
expect 1 "unfit" -- "$bin" run "$tmp/unfit.yaml"
has "$tmp/out" "does not fit" "unfit explained"
# An invalid parallelism for the step model: exit 2, named.
cat >"$tmp/badpar.yaml" <<'YAML'
schema_version: 1
cluster: {gpu: H100-SXM5-80GB, nodes: 2, gpus_per_node: 8}
workload: {model: {preset: llama2-13b}, global_batch: 64, parallelism: {tp: 16, pp: 1, dp: 1}}
YAML
expect 2 "tp across nodes" -- "$bin" run "$tmp/badpar.yaml"
has "$tmp/err" "badpar.yaml" "step check names the file"

# validate shows where values came from; catalog shows sources.
expect 0 "validate" -- "$bin" validate scenarios/default.yaml
has "$tmp/out" "catalog H100-SXM5-80GB" "validate shows catalog origin"
has "$tmp/out" "default" "validate shows defaults"
has "$tmp/out" "default.yaml:" "validate shows file origin"
expect 0 "catalog entry" -- "$bin" catalog H100-SXM5-80GB
has "$tmp/out" "source" "catalog shows sources"
expect 2 "catalog unknown" -- "$bin" catalog H100-SXM-80GB
has "$tmp/err" "did you mean" "catalog suggests"

# search on a small scenario ranks configurations.
cat >"$tmp/search.yaml" <<'YAML'
schema_version: 1
cluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}
workload: {model: {preset: llama3.1-8b}, global_batch: 32}
YAML
expect 0 "search" -- "$bin" search "$tmp/search.yaml" --top 5 --format csv
if [ "$(wc -l <"$tmp/out")" -eq 6 ]; then ok; else ko "search: expected header + 5 rows"; fi


# collective: nccl-tests' flags and columns; JSON rows per the contract.
expect 0 "collective" -- "$bin" collective scenarios/default.yaml -b 1M -e 64M -f 4 --ranks 8 --op all_reduce
has "$tmp/out" "out-of-place" "collective prints nccl-tests columns"
if [ "$(grep -c '^ *[0-9]' "$tmp/out")" -eq 4 ]; then ok; else ko "collective: expected 4 size rows (1M 4M 16M 64M)"; fi
expect 0 "collective json" -- "$bin" collective scenarios/default.yaml -b 1M -e 4M -f 4 --format json
for key in '"rows"' '"size_bytes"' '"time_us"' '"algbw_gb_per_s"' '"busbw_gb_per_s"'; do
    has "$tmp/out" "$key" "collective json"
done
expect 2 "collective bad size" -- "$bin" collective scenarios/default.yaml -b 8X
expect 2 "collective bad op" -- "$bin" collective scenarios/default.yaml --op all_reduse
expect 0 "compare" -- "$bin" compare scenarios/claims/net-n4-nvswitch.yaml scenarios/claims/net-n4-pcie.yaml
has "$tmp/out" "switches" "compare shows network hardware"
expect 0 "tco json" -- "$bin" tco scenarios/default.yaml --format json --no-plots
for key in '"options"' '"on-prem"' '"cloud-spot"' '"hybrid"' '"total_usd"' '"break_even"'; do
    has "$tmp/out" "$key" "tco json"
done

# validate-refs with no files: the index's step tables, a summary per role.
expect 0 "validate-refs" -- "$bin" validate-refs --check
has "$tmp/out" "megatron-sc21-a100-weak-scaling.csv" "validate-refs reads the SC21 table"
has "$tmp/out" "3 tables,  27 rows" "validate-refs summarizes the fit tables"
has "$tmp/out" "holdout:" "validate-refs prints a holdout line"
CLUSTERSIM_DATA="$tmp/nowhere" expect 2 "validate-refs without data" -- "$bin" validate-refs
has "$tmp/err" "$tmp/nowhere/scenarios/catalog" "a missing data directory is named"
CLUSTERSIM_DATA="$tmp/nowhere" expect 2 "validate-refs without an index" -- "$bin" validate-refs --catalog scenarios/catalog
has "$tmp/err" "$tmp/nowhere/validation/INDEX.yaml" "a missing index is named"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

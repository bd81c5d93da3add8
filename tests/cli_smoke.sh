#!/usr/bin/env bash
# cli_smoke.sh: the clustersim binary as a user meets it: exit codes, help,
# errors that name the file, output files written whole, the contract's
# JSON keys. Usage: tests/cli_smoke.sh PATH/TO/clustersim (run from the
# source root; CTest does both).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

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
has "$tmp/out" "software      stack custom; attention fused (the fitted efficiency); loss fused" "text report names the software the costs assume"
# torchtitan's eager blocks and norms are named where the scenario asks for them
expect 0 "run torchtitan eager" -- "$bin" run scenarios/default.yaml --set workload.stack=torchtitan \
    --set workload.torch_compile=off --set workload.norm_kernel=eager
has "$tmp/out" "stack torchtitan; attention flash2; loss eager; blocks eager (torch_compile off), norms eager" "text report: eager blocks"
expect 2 "torch_compile under another stack" -- "$bin" run scenarios/default.yaml --set workload.torch_compile=off
# block-wise FP8 is named in the batch line; it needs precision fp8
expect 0 "run fp8 blockwise" -- "$bin" run scenarios/default.yaml --set workload.precision=fp8 \
    --set workload.fp8_recipe=blockwise
has "$tmp/out" "; fp8 (block-wise scaling)" "text report: block-wise FP8"
expect 2 "fp8_recipe blockwise under bf16" -- "$bin" run scenarios/default.yaml --set workload.fp8_recipe=blockwise
has "$tmp/err" "fp8_recipe: blockwise scales FP8 tensors" "fp8_recipe error names the key"
# Megatron-Core's unfused RoPE: named in the software line; off needs an mcore (or custom) stack
expect 0 "run rope unfused" -- "$bin" run scenarios/default.yaml --set workload.stack=mcore \
    --set workload.rope_fusion=off
has "$tmp/out" "; RoPE unfused (PyTorch ops)" "text report: unfused RoPE"
expect 2 "rope_fusion under torchtitan" -- "$bin" run scenarios/default.yaml --set workload.stack=torchtitan \
    --set workload.rope_fusion=off
has "$tmp/err" "workload.rope_fusion: off sets Megatron-Core's apply_rope_fusion" "rope_fusion error names the key"
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
expect 2 "-o into a file" -- "$bin" run scenarios/default.yaml -o scenarios/default.yaml
has "$tmp/err" "expected a directory, got a file" "-o into a file says why"
expect 2 "-o without a parent" -- "$bin" run scenarios/default.yaml -o "$tmp/no/such/dir"
has "$tmp/err" "parent directory $tmp/no/such does not exist" "-o without a parent names the parent"

# Bad input: exit 2 and the message names the file.
expect 2 "missing file" -- "$bin" run "$tmp/nope.yaml"
has "$tmp/err" "nope.yaml" "missing file named"
expect 2 "unknown key" -- "$bin" run tests/data/bad/unknown_key.yaml
has "$tmp/err" "unknown_key.yaml:" "unknown key located"
expect 2 "binary garbage" -- "$bin" validate tests/data/bad/binary_garbage.yaml
has "$tmp/err" "binary_garbage.yaml" "garbage named"
expect 2 "deep nesting" -- "$bin" validate tests/data/bad/deep_nesting.yaml
# A multi-node cluster without NICs: refused by run and validate (it used to
# run with free inter-node collectives and an MFU above 100).
for cmd in run validate; do
    expect 2 "$cmd nics_per_node 0" -- "$bin" $cmd tests/data/bad/nics_zero_multinode.yaml
    has "$tmp/err" "nics_zero_multinode.yaml:8:20: error: cluster.fabric.nics_per_node" "$cmd nics 0 located"
    if grep -q "MFU\|mfu" "$tmp/out"; then ko "$cmd nics 0 printed a report"; else ok; fi
done

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
expect 0 "search text" -- "$bin" search scenarios/default.yaml --top 3
has "$tmp/out" "Validated range on H100-SXM5-80GB" "search states the validated range"
has "$tmp/out" "inside" "search marks configurations inside the range"
expect 0 "search on an unvalidated GPU" -- "$bin" search scenarios/default.yaml --top 1 --set cluster.gpu=MI300X
has "$tmp/out" "unvalidated extrapolation" "search says when nothing was validated on the GPU"
expect 0 "search" -- "$bin" search "$tmp/search.yaml" --top 5 --format csv
if [ "$(wc -l <"$tmp/out")" -eq 6 ]; then ok; else ko "search: expected header + 5 rows"; fi
has "$tmp/out" "mfu,pipeline_split" "search csv names the pipeline split"
has "$tmp/out" ",default" "search csv gives each row's pipeline split"


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

# validate-refs with no files: the index's step tables (the five fit
# tables, the 14 dense held-out ones in the common schema and the 13 MoE
# ones, counted apart), a summary per role, the precision pairs
# and the rows not expressible yet, by reason.
expect 0 "validate-refs" -- "$bin" validate-refs
has "$tmp/out" "megatron-sc21-a100-weak-scaling.csv" "validate-refs reads the SC21 table"
has "$tmp/out" "5 tables,  38 rows" "validate-refs summarizes the fit tables"
has "$tmp/out" "holdout: 22 tables" "validate-refs compares the held-out tables"
has "$tmp/out" "holdout MoE: 15 tables" "validate-refs compares the held-out MoE tables apart"
has "$tmp/out" "precision pairs (one table's rows of the same configuration" "validate-refs compares precision pairs"
has "$tmp/out" "  fp8              43 pairs: measured 1.37x" "validate-refs: the FP8 pairs"
has "$tmp/out" "llmfoundry-a100-mpt.csv:" "validate-refs reads a common-schema table"
has "$tmp/out" "not expressible:" "validate-refs lists what it cannot express"
has "$tmp/out" "flagged by their source: 4 rows" "validate-refs lists the rows their source flags"
has "$tmp/out" "  nemo-24.07-h100-dense.csv:20 host 5." "validate-refs lists a row whose predicted host time outlasts its measured step"
expect 0 "validate-refs json" -- "$bin" validate-refs --format json
if python3 - "$tmp/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
rows = s["host_over_measured"]
r = [x for x in rows if x["file"] == "nemo-24.07-h100-dense.csv" and x["line"] == 20]
# 128 sequences x 4,096 tokens at 1,728 tokens/s/GPU on 64 GPUs
assert len(r) == 1 and abs(r[0]["measured_step_s"] - 128 * 4096 / (1728 * 64)) < 1e-6, r
assert all(x["host_issue_s"] > x["measured_step_s"] for x in rows)
PY
then ok; else ko "validate-refs json: summary.host_over_measured"; fi
# CSV: one header and one row per compared or listed row, 11 columns each; a
# row not predicted has empty predicted/error cells and its reason last.
expect 0 "validate-refs csv" -- "$bin" validate-refs --format csv
if python3 - "$tmp/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][-1] == "not_predicted" and all(len(r) == 11 for r in rows)
ne = [r for r in rows[1:] if r[10]]
assert ne and all(r[5] == "" and r[6] == "" for r in ne)
assert any("no model preset" in r[10] or "not stated" in r[10] for r in ne)
# rows their source flags: predicted, role "flagged", nothing in not_predicted
fl = [r for r in rows[1:] if r[9] == "flagged"]
assert len(fl) == 4 and all(r[5] != "" and r[6] != "" and r[10] == "" for r in fl)
PY
then ok; else ko "validate-refs csv: columns or not-predicted rows"; fi
# --collectives --format csv: one line per compared row of every log (15
# columns), the log's printed bus bandwidth as the measured one (the H100
# NVSwitch all_reduce log's 1 MiB row, line 40, prints 39.44 GB/s
# out-of-place), error = predicted / measured - 1, and one line with the
# reason for each log not expressible; per log and band the rows' mean
# |error| is the MAPE the JSON prints.
expect 0 "validate-refs --collectives csv" -- "$bin" validate-refs --collectives --format csv
cp "$tmp/out" "$tmp/coll.csv"
expect 0 "validate-refs --collectives json" -- "$bin" validate-refs --collectives --format json
if python3 - "$tmp/coll.csv" "$tmp/out" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert all(len(r) == 15 for r in rows)
ok = [r for r in rows if r["status"] == "ok"]
r40 = [r for r in ok if r["file"].endswith("nccl-h100sxm-8gpu-1node-nvswitch-allreduce.txt") and r["line"] == "40"]
assert len(r40) == 1 and r40[0]["size_bytes"] == "1048576" and float(r40[0]["measured_busbw_gbps"]) == 39.44
for r in ok:
    m, p, e = (float(r[k]) for k in ("measured_busbw_gbps", "predicted_busbw_gbps", "error"))
    assert abs(p / m - 1 - e) < 1e-4 and r["algo"] and r["band"] in ("ge_64mib", "1_to_64mib")
ne = [r for r in rows if r["status"] == "not-expressible"]
assert len(ne) == 3 and all(r["reason"] for r in ne)
d = json.load(open(sys.argv[2]))
for log in d["logs"]:
    if log["status"] != "ok":
        continue
    assert len(log["rows"]) == log["ge_64mib"]["rows"] + log["1_to_64mib"]["rows"]
    for band in ("ge_64mib", "1_to_64mib"):
        es = [abs(float(r["error"])) for r in ok if r["file"] == log["file"] and r["band"] == band]
        assert len(es) == log[band]["rows"]
        if es:
            assert abs(sum(es) / len(es) - log[band]["mape"]) < 1e-5, (log["file"], band)
# the held-out logs that add most to each band's MAPE: each one's points
# are 100 x its rows' summed |error| over the band's held-out rows, largest
# first, and no other held-out log adds more than the third
for band in ("ge_64mib", "1_to_64mib"):
    hb = [r for r in ok if r["role"] == "holdout" and r["band"] == band]
    pts = {}
    for r in hb:
        pts[r["file"]] = pts.get(r["file"], 0.0) + 100 * abs(float(r["error"])) / len(hb)
    top = d["summary"]["holdout"][band]["largest"]
    assert len(top) == 3
    for t in top:
        assert abs(t["mape_points"] - pts[t["file"]]) < 1e-3, t
    assert top[0]["mape_points"] >= top[1]["mape_points"] >= top[2]["mape_points"]
    rest = [v for f, v in pts.items() if f not in {t["file"] for t in top}]
    assert max(rest) <= top[2]["mape_points"] + 1e-9
PY
then ok; else ko "validate-refs --collectives csv/json: rows, measured values or MAPE"; fi
# --ep-dispatch: the EP all-to-all model against measured MoE dispatch and
# combine latencies (Table 7 of the Megatron-Core MoE report): 32 rows of
# 10 columns, the first GB200 hybridep at EP 8 (line 19, 391 us measured),
# error = predicted / measured - 1, and the JSON's MAPE the rows' mean
# |error|; with --collectives, or with files, a usage error.
expect 0 "validate-refs --ep-dispatch csv" -- "$bin" validate-refs --ep-dispatch --format csv
cp "$tmp/out" "$tmp/ep.csv"
expect 0 "validate-refs --ep-dispatch json" -- "$bin" validate-refs --ep-dispatch --format json
if python3 - "$tmp/ep.csv" "$tmp/out" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 32 and all(len(r) == 10 for r in rows)
r = rows[0]
assert r["line"] == "19" and r["platform"] == "GB200" and r["dispatcher"] == "hybridep" and r["ep"] == "8"
assert float(r["measured_us"]) == 391 and r["bytes_per_rank"] == "469762048"
es = []
for r in rows:
    m, p, e = (float(r[k]) for k in ("measured_us", "predicted_us", "error"))
    assert abs(p / m - 1 - e) < 1e-4
    es.append(abs(e))
d = json.load(open(sys.argv[2]))
assert d["holdout"]["rows"] == 32 and abs(sum(es) / 32 - d["holdout"]["mape"]) < 1e-5
PY
then ok; else ko "validate-refs --ep-dispatch csv/json: rows, measured values or MAPE"; fi
expect 2 "validate-refs --ep-dispatch with --collectives" -- "$bin" validate-refs --ep-dispatch --collectives
expect 2 "validate-refs --ep-dispatch with a file" -- "$bin" validate-refs --ep-dispatch x.csv
# --check: the fit tables meet the tolerance (MAPE <= 10% per file, rows <= 25%).
expect 0 "validate-refs --check (fit tables)" -- "$bin" validate-refs --check \
    validation/step/megatron-sc21-a100-weak-scaling.csv \
    validation/step/korthikanti-2022-a100-iteration-times.csv \
    validation/step/megatron-core-h100-weak-scaling.csv
has "$tmp/out" "tolerance: MAPE <= 10% per file, every row within 25%: met" "the fit tables meet the tolerance"
# --scenario FILE:LINE: the row's scenario, with the searched micro-batch
# and recomputation filled in; `run` on it reproduces the row's prediction
# (an MoE row over an NVL72 domain, and a fit row whose micro-batch and
# recomputation were searched).
for row in mbridge-26.04.01-moe.csv:65 megatron-core-h100-weak-scaling.csv:5; do
    expect 0 "validate-refs --scenario $row" -- "$bin" validate-refs --scenario "$row"
    cp "$tmp/out" "$tmp/row.yaml"
    expect 0 "run the scenario of $row" -- "$bin" run "$tmp/row.yaml" --format json
    if python3 - "$tmp/row.yaml" "$tmp/out" <<'PY'
import json, re, sys
head = open(sys.argv[1]).read()
pred = float(re.search(r"predicted ([0-9.e+]+)", head).group(1))
d = json.load(open(sys.argv[2]))
t = d["throughput"]
gpus = d["cluster"]["gpus"] if "cluster" in d and "gpus" in d["cluster"] else None
got = t["tflops_per_gpu"] if "TFLOP" in head.splitlines()[1] else t["tokens_per_s"] / gpus
assert abs(got - pred) <= 1e-3 * pred, (got, pred)
PY
    then ok; else ko "validate-refs --scenario $row: run does not reproduce the prediction"; fi
done
expect 2 "validate-refs --scenario without a line" -- "$bin" validate-refs --scenario x.csv
has "$tmp/err" "expected FILE:LINE" "--scenario names the form it expects"
expect 2 "validate-refs --scenario of a row not expressible" -- "$bin" validate-refs --scenario mbridge-26.08-moe.csv:43
has "$tmp/err" "not expressible" "--scenario says why a row has none"
CLUSTERSIM_DATA="$tmp/nowhere" expect 2 "validate-refs without data" -- "$bin" validate-refs
has "$tmp/err" "$tmp/nowhere/scenarios/catalog" "a missing data directory is named"
CLUSTERSIM_DATA="$tmp/nowhere" expect 2 "validate-refs without an index" -- "$bin" validate-refs --catalog scenarios/catalog
has "$tmp/err" "$tmp/nowhere/validation/INDEX.yaml" "a missing index is named"

# ---- conventions: '-' for standard input, --set, exit codes, CSV booleans ----
abin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" # for commands run elsewhere
# field FILE KEY: the value column of `validate --format csv` for KEY.
field() { grep "^$2," "$1" | cut -d, -f2 | tr -d '"'; }
cat >"$tmp/one.yaml" <<'YAML'
schema_version: 1
cluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}
workload: {model: {preset: llama2-7b}, global_batch: 64, parallelism: {tp: 8}}
YAML
# A scenario on standard input: the same result as the file, named "stdin".
expect 0 "run - (stdin)" -- bash -c "cat '$tmp/one.yaml' | '$bin' run - --format csv"
if [ "$(cut -d, -f1 "$tmp/out" | tail -1)" = '"stdin"' ]; then ok; else ko "stdin scenario named stdin"; fi
cut -d, -f2- "$tmp/out" >"$tmp/stdin.csv"
"$bin" run "$tmp/one.yaml" --format csv | cut -d, -f2- >"$tmp/file.csv"
if cmp -s "$tmp/stdin.csv" "$tmp/file.csv"; then ok; else ko "run - and run FILE differ"; fi
# include: in a stdin scenario is relative to the current directory.
mkdir -p "$tmp/inc"
printf 'cluster: {gpu: A100-SXM4-80GB, nodes: 2, gpus_per_node: 8}\n' >"$tmp/inc/hw.yaml"
printf 'schema_version: 1\ninclude: hw.yaml\n' >"$tmp/inc/main.yaml"
expect 0 "stdin include" -- bash -c "cd '$tmp/inc' && '$abin' validate - --format csv <main.yaml"
if [ "$(field "$tmp/out" cluster.gpu)" = A100-SXM4-80GB ]; then ok; else ko "stdin include read hw.yaml"; fi
# include: may not leave the scenario's directory (docs/security.md) unless
# --allow-include names the directory, for any command, before or after it.
mkdir -p "$tmp/conf/a" "$tmp/conf/hw"
cp "$tmp/inc/hw.yaml" "$tmp/conf/hw/hw.yaml"
printf 'schema_version: 1\ninclude: ../hw/hw.yaml\n' >"$tmp/conf/a/main.yaml"
expect 2 "include outside" -- "$bin" validate "$tmp/conf/a/main.yaml"
has "$tmp/err" "main.yaml:2:10: error: include: \"$tmp/conf/hw/hw.yaml\" refused: outside the directory" \
    "include outside named with file:line"
expect 0 "--allow-include" -- "$bin" validate --allow-include "$tmp/conf/hw" "$tmp/conf/a/main.yaml"
expect 0 "--allow-include= first" -- "$bin" --allow-include="$tmp/conf/hw" validate "$tmp/conf/a/main.yaml"
expect 2 "--allow-include missing dir" -- "$bin" validate --allow-include "$tmp/conf/none" "$tmp/conf/a/main.yaml"
has "$tmp/err" "expected an existing directory" "--allow-include names what it expected"
expect 2 "two '-'" -- "$bin" compare - - </dev/null
has "$tmp/err" "standard input is named twice" "two '-' refused"
# -o - is standard output, not a directory named "-".
expect 0 "run -o -" -- bash -c "cd '$tmp' && '$abin' run one.yaml -o - --format json"
has "$tmp/out" '"step"' "-o - writes the JSON to stdout"
if [ -e "$tmp/-" ]; then ko "-o - created a directory"; else ok; fi

# --set: 1 node -> 4 nodes = 32 GPUs; tp 8 with dp defaulted: dp = 32 / 8 = 4.
expect 0 "--set" -- "$bin" validate "$tmp/one.yaml" --set cluster.nodes=4 --format csv
if [ "$(field "$tmp/out" cluster.nodes)" = 4 ]; then ok; else ko "--set cluster.nodes=4"; fi
if [ "$(field "$tmp/out" workload.parallelism.dp)" = 4 ]; then ok; else ko "--set: dp follows (4)"; fi
has "$tmp/out" "--set cluster.nodes=4" "--set is the value's origin"
# repeatable, later wins; with stdin.
expect 0 "--set twice" -- bash -c "'$bin' validate - --set cluster.nodes=3 --set cluster.nodes=2 --format csv <'$tmp/one.yaml'"
if [ "$(field "$tmp/out" cluster.nodes)" = 2 ]; then ok; else ko "--set: the later one wins"; fi
expect 2 "--set unknown key" -- "$bin" run "$tmp/one.yaml" --set cluster.nodez=4
has "$tmp/err" 'cluster.nodez: unknown key (did you mean "nodes"?)' "--set unknown key named"
expect 2 "--set bad value" -- "$bin" run "$tmp/one.yaml" --set cluster.nodes=many
has "$tmp/err" "--set cluster.nodes=many: error: cluster.nodes: expected an integer" "--set bad value named"
expect 2 "--set without =" -- "$bin" tco "$tmp/one.yaml" --set cluster.nodes
has "$tmp/err" "--set cluster.nodes: expected KEY=VALUE" "--set without = named"
expect 2 "--set bad path" -- "$bin" search "$tmp/one.yaml" --set 'cluster.no des=4'
has "$tmp/err" "expected a key path" "--set bad path"
for c in run validate collective compare search tco replay report; do
    "$bin" help "$c" >"$tmp/out" 2>&1
    has "$tmp/out" "--set KEY=VALUE" "help $c shows --set"
done

# search: exit 1 when nothing fits (175B parameters on one 40 GB GPU).
cat >"$tmp/nofit.yaml" <<'YAML'
schema_version: 1
cluster: {gpu: A100-SXM4-40GB, nodes: 1, gpus_per_node: 1}
workload: {model: {preset: gpt3-175b}, global_batch: 8}
YAML
expect 1 "search nothing fits" -- "$bin" search "$tmp/nofit.yaml"
has "$tmp/out" "No configuration fits" "search still reports"
has "$tmp/err" "no configuration of gpt3-175b fits" "search says why it failed"
expect 0 "search something fits" -- "$bin" search "$tmp/one.yaml" --top 1

# collective: -g 1 pasted from `mpirun -np 16 all_reduce_perf -g 1` keeps
# every GPU of the cluster (2 nodes x 8 = 16 ranks), and says so.
expect 0 "collective -g 1" -- "$bin" collective "$tmp/one.yaml" --set cluster.nodes=2 -g 1 -b 1M -e 1M --format json
has "$tmp/out" '"ranks":	16' "collective -g 1: 16 ranks"
has "$tmp/out" '"ranks_from":	"cluster"' "collective -g 1: ranks from the cluster"
has "$tmp/out" '"processes":	16' "collective -g 1: 16 processes"
expect 0 "collective -g 1 text" -- "$bin" collective "$tmp/one.yaml" --set cluster.nodes=2 -g 1 -b 1M -e 1M
has "$tmp/out" "# clustersim: 16 ranks from every GPU of the cluster (2 nodes x 8 GPUs)" "collective text says why"
expect 0 "collective --ranks" -- "$bin" collective "$tmp/one.yaml" --set cluster.nodes=2 -g 2 --ranks 8 -b 1M -e 1M --format json
has "$tmp/out" '"ranks":	8' "--ranks 8"
has "$tmp/out" '"ranks_from":	"--ranks"' "--ranks named"
has "$tmp/out" '"processes":	4' "--ranks 8 -g 2: 4 processes"
expect 2 "collective -g 3" -- "$bin" collective "$tmp/one.yaml" -g 3
has "$tmp/err" "does not divide the 8 ranks" "-g that does not divide the ranks"
expect 0 "collective -n iters" -- "$bin" collective "$tmp/one.yaml" -n 20 -b 1M -e 1M --format json
has "$tmp/out" '"ranks":	8' "-n is nccl-tests' iterations, not ranks"

# CSV booleans: true / false in every CSV.
expect 0 "compare csv" -- "$bin" compare "$tmp/one.yaml" --format csv
if [ "$(sed -n 2p "$tmp/out" | cut -d, -f8)" = true ]; then ok; else ko "compare csv fits = true"; fi
printf 'job_id,submit_s,gpus,duration_s\na,0,8,100\n' >"$tmp/trace.csv"
expect 0 "replay csv" -- "$bin" replay "$tmp/trace.csv" --cluster "$tmp/one.yaml" --format csv
if [ "$(sed -n 2p "$tmp/out" | cut -d, -f5)" = false ]; then ok; else ko "replay csv mig = false"; fi
printf 'schema_version: 1\ncluster: {fabric: {in_network_reduction: True}}\n' >"$tmp/bool.yaml"
expect 0 "validate csv bool" -- "$bin" validate "$tmp/bool.yaml" --format csv
if [ "$(field "$tmp/out" cluster.fabric.in_network_reduction)" = true ]; then ok; else ko "validate csv True -> true"; fi

# did-you-mean: the family, not the nearest string.
expect 2 "catalog H100" -- "$bin" catalog H100
has "$tmp/err" 'did you mean one of "H100-SXM5-80GB", "H100-96GB-HBM2e-500W", "H100-PCIe-80GB"?' "H100 family"
expect 2 "catalog A100" -- "$bin" catalog A100
has "$tmp/err" '"A100-SXM4-40GB", "A100-SXM4-80GB"' "A100 family"
expect 2 "catalog H200" -- "$bin" catalog H200
has "$tmp/err" 'did you mean "H200-SXM-141GB"?' "H200 family"
expect 2 "gpu MI300" -- "$bin" run "$tmp/one.yaml" --set cluster.gpu=MI300
has "$tmp/err" 'unknown GPU "MI300" (did you mean "MI300X"?)' "MI300 -> MI300X"
expect 2 "gpu GH200" -- "$bin" run "$tmp/one.yaml" --set cluster.gpu=GH200
has "$tmp/err" 'GH200 is not in the catalog' "GH200 absent"
has "$tmp/err" 'closest: "H200-SXM-141GB"' "GH200 closest"
expect 2 "preset llama3-70b" -- "$bin" run "$tmp/one.yaml" --set workload.model.preset=llama3-70b
has "$tmp/err" '(did you mean "llama3.1-70b"?)' "llama3-70b -> llama3.1-70b"

# calibrate: a malformed nccl-tests row is a warning naming file:line and a
# count in the report; --strict makes it an error (exit 2); a fit over the
# residual threshold is a warning on stderr and in the overlay, which loads.
nd=tests/data/nccl
expect 0 "calibrate skips a malformed row" -- "$bin" calibrate --no-plot -o "$tmp/cal.yaml" "$nd/mpirun_interleaved.txt"
has "$tmp/err" "$nd/mpirun_interleaved.txt:26: warning: expected an nccl-tests row" "calibrate warns with file:line"
has "$tmp/out" "(1 malformed row skipped)" "calibrate reports the skipped count"
has "$tmp/cal.yaml" "skipped_rows: 1" "overlay records the skipped count"
expect 2 "calibrate --strict" -- "$bin" calibrate --strict --no-plot -o "$tmp/strict.yaml" "$nd/mpirun_interleaved.txt"
has "$tmp/err" "$nd/mpirun_interleaved.txt:26:15: error: expected an nccl-tests row" "--strict names file:line:col"
if [ ! -e "$tmp/strict.yaml" ]; then ok; else ko "calibrate --strict wrote an overlay"; fi
expect 0 "calibrate residual warning" -- "$bin" calibrate --no-plot -o "$tmp/zz.yaml" "$nd/zigzag_allreduce.txt"
has "$tmp/err" "warning: all_reduce 8 ranks 1 node: relative RMS residual" "residual warning on stderr"
has "$tmp/zz.yaml" "# warning: all_reduce 8 ranks 1 node: relative RMS residual" "residual warning in the overlay"
has "$tmp/zz.yaml" "exceeds the 15% threshold" "the overlay states the threshold"
printf 'schema_version: 1\ninclude: zz.yaml\ncluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}\n' >"$tmp/zzs.yaml"
expect 0 "overlay with a warning loads" -- "$bin" validate "$tmp/zzs.yaml"
expect 0 "calibrate gzip and JSON inputs" -- "$bin" calibrate --no-plot -o "$tmp/gz.yaml" \
    "$nd/v2_17_timestamps_cputime.txt.gz" "$nd/allreduce_J.json.gz" "$nd/rccl_mi300x.txt"
has "$tmp/out" "[curve] all_reduce 8 ranks 1 node algo tree" "calibrate reads -J JSON (NCCL_ALGO=Tree)"
has "$tmp/err" "allreduce_J.json.gz:1: warning: results[1].out_of_place.time" "JSON row warning names file:line"
expect 2 "calibrate an unreadable log" -- "$bin" calibrate --no-plot -o "$tmp/none.yaml" "$tmp/no-such-log.txt"
has "$tmp/err" "$tmp/no-such-log.txt: error: cannot read the file" "an unreadable input is an error naming the file"
expect 0 "help calibrate" -- "$bin" help calibrate
has "$tmp/out" "--strict" "help calibrate documents --strict"

# plan: the cheapest cluster by a deadline (tests/data/plan-small.yaml).
expect 0 "plan text" -- "$bin" plan tests/data/plan-small.yaml
has "$tmp/out" "Cheapest plan that meets the deadline at p95" "plan text: cheapest"
has "$tmp/out" "Pareto front of cost against time" "plan text: front"
has "$tmp/out" "1 pruned by the deadline bound" "plan text: the bound prunes 8 A100"
expect 0 "plan json" -- "$bin" plan tests/data/plan-small.yaml --format json
for key in '"plan"' '"cheapest"' '"fastest"' '"front"' '"gpu"' '"gpus"' '"fabric"' \
           '"parallelism"' '"ownership"' '"time_to_train_s"' '"cost_usd"' '"p05"' '"p95"' \
           '"meets_deadline"' '"within_budget"' '"binding"'; do
    has "$tmp/out" "$key" "plan json"
done
expect 0 "plan csv" -- "$bin" plan tests/data/plan-small.yaml --format csv
has "$tmp/out" "gpu,nodes,gpus,fabric,state,tp,pp,dp" "plan csv header"
has "$tmp/out" "A100-SXM4-80GB,1,8,fat-tree ib-ndr 1:1,pruned" "plan csv: the pruned candidate"
expect 0 "plan deadline binds" -- "$bin" plan tests/data/plan-small.yaml --set deadline=1d
has "$tmp/out" "Binding: deadline:" "plan: the binding constraint is named"
expect 0 "plan -o" -- "$bin" plan tests/data/plan-small.yaml -o "$tmp/plan"
for f in plan.txt plan.html plan_front.dat plan_points.dat plan_front.gp; do
    if [ -s "$tmp/plan/$f" ]; then ok; else ko "plan -o: $f missing"; fi
done
if command -v gnuplot >/dev/null 2>&1; then
    if [ -s "$tmp/plan/plan_front.png" ]; then ok; else ko "plan -o: plan_front.png missing"; fi
fi
expect 2 "plan from stdin" -- "$bin" plan - < tests/data/plan-small.yaml
has "$tmp/err" "not from standard input" "plan: stdin refused with a reason"
printf 'schema_version: 1\nworkload: {model: {preset: llama3.1-8b}, tokens: 1T, global_batch: 64}\ndeadline: soon\ncandidates: {gpus: [H100-SXM5-80GB], nodes: [1]}\n' > "$tmp/badplan.yaml"
expect 2 "plan bad deadline" -- "$bin" plan "$tmp/badplan.yaml"
has "$tmp/err" "badplan.yaml:3:" "plan: the error names the line"
has "$tmp/err" "deadline" "plan: the error names the key"
expect 2 "plan bad jobs" -- "$bin" plan tests/data/plan-small.yaml -j 0
expect 0 "help plan" -- "$bin" help plan
has "$tmp/out" "budget_basis" "help plan explains the budget basis"

# --uncertainty: intervals from the model's own parameters (docs/uncertainty.md).
expect 0 "run --uncertainty json" -- "$bin" run scenarios/default.yaml --uncertainty --set uncertainty.samples=50 --format json
for key in '"uncertainty"' '"step_time_s"' '"time_to_train_s"' '"p05"' '"p50"' '"p95"' '"tornado"' '"input"' '"low"' '"high"'; do
    has "$tmp/out" "$key" "run --uncertainty json"
done
expect 0 "run --uncertainty text" -- "$bin" run scenarios/default.yaml --uncertainty --set uncertainty.samples=50
has "$tmp/out" "held-out validation error of this architecture (llama3.1-70b)" "run --uncertainty names the step error's source: the model's own rows"
has "$tmp/out" "than measured; validate-refs" "run --uncertainty says which way the architecture's rows err"
# a shape no published run had: the GPU's held-out rows of its kind
expect 0 "run --uncertainty text, unmeasured shape" -- "$bin" run scenarios/default.yaml --uncertainty --set uncertainty.samples=50 --set workload.model.layers=81
has "$tmp/out" "held-out validation error on H100-SXM5-80GB, dense runs" "run --uncertainty falls back to the GPU's rows"
expect 0 "search names the architecture's validation" -- "$bin" search scenarios/default.yaml
has "$tmp/out" "This architecture (llama3.1-70b) in the validation:" "search prints the architecture's validation rows"
expect 2 "run bad uncertainty range" -- "$bin" run scenarios/default.yaml --uncertainty --set 'uncertainty.mtbf=[2, 1]'
has "$tmp/err" "uncertainty.mtbf" "a bad uncertainty range names the key"
expect 0 "tco --uncertainty json" -- "$bin" tco scenarios/default.yaml --uncertainty --set uncertainty.samples=100 --format json
for key in '"uncertainty"' '"total_usd"' '"on-prem"' '"p05"' '"p50"' '"p95"' '"tornado"' '"ranges_from"'; do
    has "$tmp/out" "$key" "tco --uncertainty json"
done
expect 0 "plan --uncertainty" -- "$bin" plan tests/data/plan-small.yaml --uncertainty
has "$tmp/out" "over the model's parameters too" "plan --uncertainty says so"
has "$tmp/out" "tornado (mean time to train" "plan --uncertainty prints the cheapest plan's tornado"

# plan --shard K/N + --merge: the same report as one run, byte for byte.
for k in 1 2 3; do
    expect 0 "plan --shard $k/3" -- "$bin" plan tests/data/plan-small.yaml --shard $k/3 -o "$tmp/shards"
done
expect 0 "plan whole json" -- "$bin" plan tests/data/plan-small.yaml --format json
cp "$tmp/out" "$tmp/plan-whole.json"
expect 0 "plan --merge json" -- "$bin" plan tests/data/plan-small.yaml --merge "$tmp/shards" --format json
if cmp -s "$tmp/out" "$tmp/plan-whole.json"; then ok; else ko "plan --merge differs from the unsharded plan"; fi
expect 2 "plan --merge missing shard" -- "$bin" plan tests/data/plan-small.yaml --merge "$tmp/shards/plan-shard-1-of-3.jsonl" "$tmp/shards/plan-shard-2-of-3.jsonl"
has "$tmp/err" "is in none of the shards" "plan --merge names a missing candidate"
expect 2 "plan --merge repeated shard" -- "$bin" plan tests/data/plan-small.yaml --merge "$tmp/shards" "$tmp/shards/plan-shard-1-of-3.jsonl"
has "$tmp/err" "is in two shards" "plan --merge names a repeated candidate"
expect 2 "plan --merge other plan" -- "$bin" plan tests/data/plan-small.yaml --set deadline=20d --merge "$tmp/shards"
has "$tmp/err" "a shard of another plan" "plan --merge refuses another plan's shards"
expect 2 "plan --shard without -o" -- "$bin" plan tests/data/plan-small.yaml --shard 1/2
expect 2 "plan --shard bad" -- "$bin" plan tests/data/plan-small.yaml --shard 3/2 -o "$tmp/shards"

# candidates.cloud_offers: every catalog offer of a GPU priced apart; a
# multi-node cluster only with an offer whose stated scale-out bandwidth
# covers its fabric (8 x 400 Gb/s NDR: AWS p5's 3,200 Gb/s yes, GCP
# a3-highgpu's 800 Gb/s no).
expect 0 "plan cloud offers" -- "$bin" plan tests/data/plan-small.yaml --set candidates.cloud_offers=all --format csv
has "$tmp/out" "H100-SXM5-80GB,1,8,fat-tree ib-ndr 1:1,evaluated" "plan offers: one node"
has "$tmp/out" ",cloud-on-demand,gcp-a3-highgpu-8g," "plan offers: the GCP offer on one node"
# (the two-node configuration itself is the search's: dp 8 x cp 2 since ring
# attention's unmasked blocks are counted at their speed, 2026-12-03)
if grep -qE '^H100-SXM5-80GB,2,16,fat-tree ib-ndr 1:1,evaluated,([^,]*,){10}cloud-on-demand,aws-p5\.48xlarge,' "$tmp/out"; then ok; else ko "plan offers: AWS p5 on two nodes"; fi
if grep -q "H100-SXM5-80GB,2,16,.*gcp-a3-highgpu-8g" "$tmp/out"; then ko "plan offers: GCP a3-highgpu (800 Gb/s) priced for an 8x NDR fabric"; else ok; fi
expect 0 "plan cloud offers json" -- "$bin" plan tests/data/plan-small.yaml --set candidates.cloud_offers=all --format json
has "$tmp/out" '"offer"' "plan json names the offer"
expect 2 "plan unknown offer" -- "$bin" plan tests/data/plan-small.yaml --set 'candidates.cloud_offers=[nope]'
has "$tmp/err" "nope is not a catalog cloud offer" "plan: an unknown offer is named"
for k in 1 2; do
    expect 0 "plan offers --shard $k/2" -- "$bin" plan tests/data/plan-small.yaml --set candidates.cloud_offers=all --shard $k/2 -o "$tmp/shards-of"
done
expect 0 "plan offers whole" -- "$bin" plan tests/data/plan-small.yaml --set candidates.cloud_offers=all --format csv
cp "$tmp/out" "$tmp/plan-of-whole.csv"
expect 0 "plan offers merge" -- "$bin" plan tests/data/plan-small.yaml --set candidates.cloud_offers=all --merge "$tmp/shards-of" --format csv
if cmp -s "$tmp/out" "$tmp/plan-of-whole.csv"; then ok; else ko "plan --merge with offers differs"; fi

# candidates.storage: storage choices as a candidate dimension.
expect 0 "plan storage variants" -- "$bin" plan tests/data/plan-small.yaml --set 'candidates.storage=[[nvme-gen4, lustre], [nvme-gen4, s3]]' --all
has "$tmp/out" "x 2 storage choices = 12 clusters" "plan storage: the count"
has "$tmp/out" "fat-tree ib-ndr 1:1 storage nvme-gen4+s3" "plan storage: the variant's label"
expect 2 "plan storage variant without the checkpoint tier" -- "$bin" plan tests/data/plan-small.yaml --set 'candidates.storage=[[lustre]]'
has "$tmp/err" "checkpoint.tier" "plan storage: an inconsistent variant is bad input, named"

finish cli

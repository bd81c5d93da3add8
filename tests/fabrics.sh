#!/usr/bin/env bash
# fabrics.sh: the network issue's "done when" on the bundled scenarios
# (scenarios/fabrics/): the same cluster and jobs on a non-blocking fat tree,
# a 2:1 spine-leaf and a rail-optimized fabric give different step times,
# costs and claim verdicts, for the reasons the model states
# (docs/fabric.md, sections 2, 3b and "Claims"):
# - every job's nodes are scattered, so rings cross leaves: static d-mod-k
#   routing collides on the fat tree (Hoefler et al. 2008), the 2:1 leaves
#   carry twice what their uplinks take, and rail leaves keep same-rail
#   traffic inside a scalable unit: DP share spine-leaf < fat tree < rail = 1;
# - the step times follow the shares; the bills of materials follow the
#   switch and optic counts (fewer on the 2:1 spine-leaf, more on the rail
#   fabric, whose second scalable unit is half full), and so do the costs;
# - the GPU busy shares follow the DP shares (claim N2's figures).
# Usage: tests/fabrics.sh PATH/TO/clustersim (run from the source root).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

py() { python3 -c "$@"; }
for f in fat-tree spine-leaf-2to1 rail-optimized; do
    expect 0 "run $f" -- "$bin" run "scenarios/fabrics/$f.yaml" --format json
    cp "$tmp/out" "$tmp/$f.run.json"
    expect 0 "tco $f" -- "$bin" tco "scenarios/fabrics/$f.yaml" --format json --no-plots
    cp "$tmp/out" "$tmp/$f.tco.json"
done
get() { # FILE EXPR
    py "import json; d=json.load(open('$1')); print($2)"
}
share() { get "$tmp/$1.run.json" "d['step']['network_share']['dp']"; }
step() { get "$tmp/$1.run.json" "d['step']['time_s']"; }
capex() { get "$tmp/$1.tco.json" "d['tco']['bom']['network']['priced_usd']"; }
onprem() { get "$tmp/$1.tco.json" "[o['total_usd'] for o in d['tco']['options'] if o['name']=='on-prem'][0]"; }
lt() { py "import sys; sys.exit(0 if $1 < $2 else 1)"; }

s_ft=$(share fat-tree) s_sl=$(share spine-leaf-2to1) s_ro=$(share rail-optimized)
lt "$s_sl" "$s_ft" && ok || ko "DP share: 2:1 spine-leaf $s_sl should be below the fat tree's $s_ft"
lt "$s_ft" 1.0 && ok || ko "DP share: scattered rings on the statically routed fat tree collide: $s_ft should be below 1"
[ "$s_ro" = "1" ] || [ "$s_ro" = "1.0" ] && ok || ko "DP share: rail-optimized $s_ro should be 1 (same-rail traffic on its rail leaf)"
lt "$s_sl" 0.5 && ok || ko "DP share: 2:1 spine-leaf $s_sl should be at most its uplink ratio 20/40"

t_ft=$(step fat-tree) t_sl=$(step spine-leaf-2to1) t_ro=$(step rail-optimized)
# The fat tree's collisions (share about 0.95 over 4 drawn placements) cost
# a few % of DP bandwidth, most of it hidden behind the backward: rail-
# optimized is about 0.4% faster (2026-12-01); at least 0.2% here.
lt "$t_ro * 1.002" "$t_ft" && ok || ko "step: rail-optimized $t_ro should be faster than the fat tree $t_ft"
lt "$t_ft * 1.05" "$t_sl" && ok || ko "step: the 2:1 spine-leaf $t_sl should be at least 5% slower than the fat tree $t_ft"

c_ft=$(capex fat-tree) c_sl=$(capex spine-leaf-2to1) c_ro=$(capex rail-optimized)
lt "$c_sl" "$c_ft" && ok || ko "network capex: 2:1 spine-leaf $c_sl should be below the fat tree's $c_ft"
lt "$c_ft" "$c_ro" && ok || ko "network capex: rail-optimized $c_ro (two scalable units x 8 rail leaves) should exceed the fat tree's $c_ft"
o_ft=$(onprem fat-tree) o_sl=$(onprem spine-leaf-2to1) o_ro=$(onprem rail-optimized)
lt "$o_sl" "$o_ft" && lt "$o_ft" "$o_ro" && ok || ko "on-prem TCO should follow the network capex: $o_sl < $o_ft < $o_ro"

# The switch counts behind the costs (hand: 48 nodes x 8 NICs = 384 ports;
# fat tree 1:1 radix 64: 32 down, 384/32 = 12 leaves, 12 x 32 / 64 = 6
# spines; rail: ceil(48/32) = 2 units x 8 rails = 16 leaves, 8 spines;
# 2:1: whole nodes, 5 per leaf (40 + 20 uplinks of 64 ports), ceil(48/5) = 10
# leaves, spines dividing 20 and at least ceil(10 x 20 / 64) = 4: 4).
expect 0 "compare" -- "$bin" compare scenarios/fabrics/fat-tree.yaml scenarios/fabrics/spine-leaf-2to1.yaml \
    scenarios/fabrics/rail-optimized.yaml --format json
cp "$tmp/out" "$tmp/compare.json"
cmp_json="$tmp/compare.json"
sw=$(get "$cmp_json" "' '.join('%d/%d' % tuple(s['network']['switches_by_tier'][:2]) for s in d['scenarios'])")
[ "$sw" = "12/6 10/4 16/8" ] && ok || ko "leaf/spine switches: got '$sw', expected '12/6 10/4 16/8' (by hand)"
# GPU busy shares behind claim N2's verdicts: FSDP gathers each layer while
# the one before computes (about 5 ms of gather against 30 ms of layer on
# the 2:1 leaves), so the job stays busy on all three fabrics, the 2:1
# spine-leaf least; each share is above the claimed 0.85 / 0.60 by more than
# the tolerance, so every verdict is "not supported" (before the FSDP
# timeline ran the backward's gathers behind the reduce-scatters, 2026-12-03,
# the shares were 0.878 / 0.793 / 0.882).
busy=$(get "$cmp_json" "' '.join('%.4f' % s['claim']['simulated'] for s in d['scenarios'])")
read -r b_ft b_sl b_ro <<<"$busy"
lt "$b_sl" "$b_ft" && lt "$b_sl" "$b_ro" && ok || ko "GPU busy: the 2:1 spine-leaf $b_sl should be below the fat tree $b_ft and rail $b_ro"
lt 0.95 "$b_sl" && ok || ko "GPU busy: FSDP hides the DP traffic; the 2:1 spine-leaf's $b_sl should stay above 0.95"
ver=$(get "$cmp_json" "' '.join(s['claim']['verdict'].replace(' ', '_') for s in d['scenarios'])")
[ "$ver" = "not_supported not_supported not_supported" ] && ok || ko "claim verdicts: got '$ver', expected not supported x 3 (busy $busy against 0.85 / 0.60 / 0.85)"
# A neighbour given as a scenario file takes that job's GPUs, placement and
# gradient all-reduce (Llama 2 7B, ZeRO-1: 6.74e9 parameters x 4 bytes of
# fp32 gradients = 26.95 GB per GPU) once per its step.
expect 0 "neighbour from a scenario" -- "$bin" run tests/data/good/neighbours/with-scenario.yaml
has "$tmp/out" "128 GPUs scattered, all_reduce of 26.95 GB per GPU" "the neighbour's derived traffic"
expect 0 "neighbour from a scenario, JSON" -- "$bin" run tests/data/good/neighbours/with-scenario.yaml --format json
nbs=$(get "$tmp/out" "d['step']['network_slowdown']")
lt 1.0 "$nbs" && ok || ko "network_slowdown $nbs should exceed 1 (the neighbour shares the 2:1 uplinks)"
# The search enumerates the job's 128 GPUs (workload.gpus), not the
# cluster's 384: every degree product is 128, so none is invalid.
expect 0 "search a job of part of the cluster" -- "$bin" search scenarios/fabrics/spine-leaf-2to1.yaml --top 1
has "$tmp/out" "on 128 x H100-SXM5-80GB" "search over the job's GPUs"
has "$tmp/out" ", 0 invalid," "no configuration invalid for the job's GPU count"
finish fabrics

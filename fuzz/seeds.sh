#!/usr/bin/env bash
# seeds.sh OUT: writes the seed corpus of every harness under OUT/NAME/ from
# the project's own test inputs (tests/data, scenarios, validation), in each
# harness's input format (a leading selector byte where the harness takes
# one: fuzz/fuzz_*.c). Run from the source root; fuzz/run.sh calls it.
set -euo pipefail
out="$1"
for n in scenario calib_overlay trace nodes nccl gemm fio steps sweep expr sweep_results refs units plan layout; do
    mkdir -p "$out/$n"
done
i=0
put() { # put NAME FILE [PREFIX-BYTES (printf format)]
    i=$((i + 1))
    { if [ -n "${3:-}" ]; then printf "$3"; fi; cat "$2"; } >"$out/$1/seed$i"
}
for f in tests/data/good/*.yaml tests/data/bad/*.yaml scenarios/*.yaml scenarios/fabrics/*.yaml scenarios/moe/*.yaml \
         scenarios/claims/*.yaml tests/data/yaml/*.yaml; do
    [ -f "$f" ] && put scenario "$f"
done
for f in scenarios/calibration/*.yaml; do put calib_overlay "$f"; done
for f in scenarios/plans/*.yaml tests/data/plan-small.yaml; do put plan "$f"; done
# trace: byte 0 = format (enum cs_trace_format order: auto, native, itp,
# openb, helios, acme, pai, philly), byte 1 = options (bit 3: a .json name).
put trace tests/data/traces/native_ok.csv '\001\000'
put trace tests/data/traces/native_bad.csv '\000\007'
put trace tests/data/traces/helios_sample.csv '\004\000'
put trace tests/data/traces/acme_sample.csv '\005\000'
put trace tests/data/traces/pai_task_sample.csv '\006\000'
put trace tests/data/traces/philly_sample.json '\007\010'
put trace tests/data/traces/philly_sample.json '\000\010'
{ zcat validation/traces/microsoft-itp-2021/cluster01.csv.gz || true; } | head -40 >"$out/trace/itp.csv.tmp"
put trace "$out/trace/itp.csv.tmp" '\002\000'
rm -f "$out/trace/itp.csv.tmp"
{ zcat validation/traces/alibaba-openb-gpu-2023/openb_pod_list_default.csv.gz || true; } | head -40 >"$out/trace/openb.csv.tmp"
put trace "$out/trace/openb.csv.tmp" '\003\000'
rm -f "$out/trace/openb.csv.tmp"
head -30 validation/traces/alibaba-openb-gpu-2023/openb_node_list_gpu_node.csv >"$out/nodes/openb"
printf 'machine,gpu_type,cap_cpu,cap_mem,cap_gpu\nm1,V100,96,512,8\nm2,T4,64,256,2\n' >"$out/nodes/pai"
# nccl: byte 0 = hint (bits 1-6), strict (bit 0), a .json name (bit 7).
for f in tests/data/nccl/*.txt tests/data/calib/*.txt; do put nccl "$f" '\000'; done
put nccl tests/data/nccl/allreduce_J.json '\200'
put nccl tests/data/nccl/allreduce_J_pretty.json '\201'
for f in tests/data/calib/gemm_*.csv; do put gemm "$f"; done
for f in tests/data/calib/fio_*.json; do put fio "$f"; done
for f in tests/data/calib/steps_*.csv; do put steps "$f"; done
for f in tests/data/sweep/*.yaml scenarios/sweeps/*.yaml; do put sweep "$f"; done
k=0
for e in "gpus / (tp * pp)" "gpus >= tp * pp && !(dp % 2)" "cluster.nodes * 8 - (1 + 2) * -3" \
         "tp == 8 || pp != 4" "1 / zero" "((((((tp))))))" "2 <= 3 < 4"; do
    k=$((k + 1))
    printf '%s' "$e" >"$out/expr/e$k"
done
# sweep_results: two bytes = the length of sweep.json, then results.jsonl.
m='{"columns":["cluster.nodes"],"points":2,"sweep":"grid.yaml"}'
r='{"index":0,"status":"ok","cluster.nodes":1,"gpus":8,"step_time_s":1.5,"tokens_per_s":1000}
{"index":1,"status":"skipped","cluster.nodes":2,"reason":"x"}'
printf "\\$(printf '%03o' $((${#m} >> 8)))\\$(printf '%03o' $((${#m} & 255)))%s%s\n" "$m" "$r" \
    >"$out/sweep_results/s1"
for f in validation/step/*.csv; do put refs "$f"; done
k=0
for u in '\000400Gbps' '\00150GB/s' '\0021.5h' '\00380GiB' '\0040.5' '\005 10 min' '\0061e999s' '\007-3ms'; do
    k=$((k + 1))
    printf "$u" >"$out/units/u$k"
done
# layout: byte 0 = pipeline degree - 1 (bits 0-2) and MTP depth (bits 3-4).
k=0
for l in '\017Et*4|(t*4|)*14tmL' '\017Et*8|(t*8|)*6t*5mL' '\007Et|(tt|)*30mL' '\001Ettt|(tt|)*29,m|L' \
         '\000E(t|L' '\001Et*4|(t*4|)*14mtL' '\000E((t|)*2)*2L'; do
    k=$((k + 1))
    printf "$l" >"$out/layout/l$k"
done

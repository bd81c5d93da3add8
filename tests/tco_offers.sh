#!/usr/bin/env bash
# tco_offers.sh: `clustersim tco` says which cloud offer set each price and
# why, compares every catalog offer of the GPU, and lists every input it did
# not get from the scenario (docs/cost.md, "Cloud offers", "Defaults and
# their sources"). Hand-derived on scenarios/default.yaml (4 nodes x 8 H100,
# HDR: 8 x 200 Gb/s = 1,600 Gb/s per node):
# - 9 catalog H100 offers; 3 fit (aws-p5.48xlarge, aws-p5-capacity-block,
#   azure-nd96isr-h100-v5 state 3,200 Gb/s); gcp-a3-highgpu-8g (800 Gb/s)
#   does not, nor the offers without a stated scale-out or with 1-GPU
#   instances;
# - on-demand: the capacity block's $39.33 / 8 = $4.91625/GPU-h; the cloud
#   on-demand total 32 x 26,280 h x 0.7 x 4.91625 = $2,894,293.44;
# - reserved 1y from gcp (no fitting offer states one): 32 x 26,280 x
#   61.38 / 8 = $6,452,265.60, the same at gcp's own row of the table;
# - staff: 4 / 250 x $125,600 = $2,009.60 a year, defaulted.
# Usage: tests/tco_offers.sh PATH/TO/clustersim (run from the source root).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

expect 0 "tco json" -- "$bin" tco scenarios/default.yaml --format json
cp "$tmp/out" "$tmp/tco.json"
has "$tmp/err" "cost.cloud.reserved_1y: no catalog offer for H100-SXM5-80GB that fits this cluster" \
    "the fallback price is warned about"
if python3 - "$tmp/tco.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["tco"]
def close(a, b, tol=1e-6):
    assert abs(a - b) <= tol * max(1.0, abs(b)), (a, b)
of = t["offer"]
assert of["name"] == "aws-p5-capacity-block", of
assert of["offers_fitting"] == 3 and of["offers_total"] == 9, of
od = of["prices"]["on_demand"]
assert od["rule"] == "cheapest-fitting" and od["offer"] == "aws-p5-capacity-block", od
close(od["usd_per_gpu_hour"], 39.33 / 8)
r1 = of["prices"]["reserved_1y"]
assert r1["rule"] == "cheapest-not-fitting" and r1["offer"] == "gcp-a3-highgpu-8g", r1
rows = {o["name"]: o for o in t["offers"]}
assert len(rows) == 9, list(rows)
fit = sorted(n for n, o in rows.items() if o["fits"])
assert fit == ["aws-p5-capacity-block", "aws-p5.48xlarge", "azure-nd96isr-h100-v5"], fit
assert "800 Gb/s" in rows["gcp-a3-highgpu-8g"]["why_not"]
assert "1-GPU" in rows["vastai-h100-sxm"]["why_not"]
assert rows["aws-p5-capacity-block"]["used_for"] == ["cloud-on-demand"]
opts = {o["name"]: o for o in t["options"]}
close(opts["cloud-on-demand"]["total_usd"], 32 * 26280 * 0.7 * 39.33 / 8)
assert opts["cloud-on-demand"]["offer"] == "aws-p5-capacity-block"
close(opts["cloud-reserved-1y"]["total_usd"], 32 * 26280 * 61.38 / 8)
close(rows["gcp-a3-highgpu-8g"]["total_usd"]["cloud-reserved-1y"], 32 * 26280 * 61.38 / 8)
close(rows["aws-p5-capacity-block"]["total_usd"]["cloud-on-demand"], 32 * 26280 * 0.7 * 39.33 / 8)
assert rows["aws-p5.48xlarge"]["total_usd"]["cloud-reserved-1y"] is None
a = {x["key"]: x for x in t["assumptions"]}
st = a["cost.staff_per_year"]
assert st["defaulted"] and "Roskies" in st["source"], st
assert a["cost.cost_of_capital"]["defaulted"] and a["cost.cost_of_capital"]["value"] == "0.08"
assert not a["cost.utilization"]["defaulted"], a["cost.utilization"]
assert a["cost.electricity"]["source"].startswith("catalog us-average")
assert "bursts" == a["cost.hybrid.demand"]["value"]
PY
then ok; else ko "tco json: offers, prices and assumptions"; fi

expect 0 "tco text" -- "$bin" tco scenarios/default.yaml
has "$tmp/out" "Cloud prices used" "the text names the prices' offers"
has "$tmp/out" "aws-p5-capacity-block, the cheapest of the 3 catalog offers for H100-SXM5-80GB that fit this cluster (9 offers in all)" "why the on-demand offer"
has "$tmp/out" "gcp-a3-highgpu-8g does not fit: scale-out 800 Gb/s per instance, below the cluster's 1600 Gb/s per node" "why an offer does not fit"
has "$tmp/out" "Inputs the scenario does not set" "the defaults are listed"
has "$tmp/out" "cost.staff_per_year" "staff is among them"

# A named offer is used as named, with a warning when it does not fit.
expect 0 "named offer" -- "$bin" tco scenarios/default.yaml --set cost.cloud.offer=gcp-a3-highgpu-8g --format json
has "$tmp/err" "cost.cloud.offer: gcp-a3-highgpu-8g does not fit this cluster" "a named offer that does not fit is warned about"
if python3 -c "
import json,sys
t=json.load(open('$tmp/out'))['tco']
assert t['offer']['prices']['on_demand']['rule']=='named-offer'
assert abs(t['offer']['prices']['on_demand']['usd_per_gpu_hour']-88.49/8)<1e-9
"; then ok; else ko "named offer: its on-demand price"; fi

# help tco lists every cost key.
expect 0 "help tco" -- "$bin" help tco
for k in cost.cloud.offer cost.staff_per_year cost.servers_per_admin cost.cost_of_capital cost.hybrid.demand; do
    has "$tmp/out" "$k" "help tco names $k"
done
finish tco_offers

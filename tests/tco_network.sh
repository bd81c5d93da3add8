#!/usr/bin/env bash
# tco_network.sh: `clustersim tco` prices the network's bill of materials
# item by item (docs/cost.md, "Network bill of materials"). Hand-derived
# figures (the same fabric as tests/check_cost.c, through the command line):
# 4 nodes x 8 H100 = 32 NIC ports on radix-8 switches, unit prices given on
# the link: switch $10,000, NIC $500, optic $100, cable $20.
#   non-blocking fat tree: down 4, up 4; 8 leaves, 4 spines; 64 cables,
#     128 optics: 12 x 10,000 + 32 x 500 + 128 x 100 + 64 x 20 = $150,080
#   2:1 spine-leaf: down 5, up 3; 7 leaves, 3 spines; 53 cables, 106 optics:
#     10 x 10,000 + 32 x 500 + 106 x 100 + 53 x 20 = $127,660 ($22,420 less)
# and a link without prices (ib-hdr) names every unpriced item in a warning.
# Usage: tests/tco_network.sh PATH/TO/clustersim (run from the source root).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

scenario() { # FILE TOPOLOGY OVERSUBSCRIPTION LINK OVERRIDES
    cat >"$1" <<YAML
schema_version: 1
cluster:
  gpu: H100-SXM5-80GB
  nodes: 4
  fabric: {topology: $2, oversubscription: $3, link: $4, link_overrides: {$5}}
cost:
  gpu_price: \$30000
  network_cost_fraction: 0.2
YAML
}
prices='switch_radix: 8, switch_price: $10000, nic_price: $500, optic_price: $100, cable_price: $20'

# tco.bom.network_usd, the number after the key (not the breakdown's object)
bom_network() { grep -E '^[[:space:]]*"network_usd":[[:space:]]*[0-9]' "$1" | head -1 | sed -E 's/.*:[[:space:]]*([0-9.e+]+).*/\1/'; }

scenario "$tmp/ft.yaml" fat-tree 1 ib-ndr "$prices"
expect 0 "tco fat tree" -- "$bin" tco "$tmp/ft.yaml" --format json --no-plots --no-run-model
cp "$tmp/out" "$tmp/ft.json"
ft=$(bom_network "$tmp/ft.json")
[ "$ft" = "150080" ] && ok || ko "fat tree network_usd: got '$ft', expected 150080 (by hand)"
has "$tmp/ft.json" '"network_basis":	"priced"' "fat tree fully priced"
has "$tmp/ft.json" '"item":	"switches_spine"' "items listed"
has "$tmp/ft.json" '"switches_leaf":' "breakdown_usd.network_usd"

scenario "$tmp/sl.yaml" spine-leaf 2 ib-ndr "$prices"
expect 0 "tco spine-leaf 2:1" -- "$bin" tco "$tmp/sl.yaml" --format json --no-plots --no-run-model
sl=$(bom_network "$tmp/out")
[ "$sl" = "127660" ] && ok || ko "2:1 spine-leaf network_usd: got '$sl', expected 127660 (by hand)"
if [ -n "$ft" ] && [ -n "$sl" ]; then
    d=$(awk -v a="$ft" -v b="$sl" 'BEGIN { printf "%.0f", a - b }')
    [ "$d" = "22420" ] && ok || ko "fat tree - spine-leaf: got $d, expected 22420 (by hand)"
fi

# The text report shows the items with their rows and prices.
expect 0 "tco text" -- "$bin" tco "$tmp/ft.yaml" --no-plots --no-run-model
has "$tmp/out" "leaf switches (quantum-2-qm9700, \$10K each (link price))" "text: leaf row"
has "$tmp/out" "network (priced)" "text: priced network"

# No prices: each item named with its link and row, and what is used instead.
scenario "$tmp/hdr.yaml" fat-tree 1 ib-hdr ""
expect 0 "tco ib-hdr" -- "$bin" tco "$tmp/hdr.yaml" --no-plots --no-run-model
has "$tmp/err" "cost: link ib-hdr: 3 switches (leaf/spine/core 2/1/0) have no price (catalog switch quantum-qm8700: price null" "switches named"
has "$tmp/err" "used instead: cost.network_cost_fraction 0.2" "the fraction named"
has "$tmp/err" "32 NICs have no price (catalog nic connectx-6-200g-hdr" "NICs named"
has "$tmp/out" "items with NO PRICE (20% of cluster cost" "text: the fraction's row"

finish tco_network

#!/usr/bin/env bash
# claims.sh: `clustersim claims` (app/claims.c, docs/claims.md):
# - the verdict of every seed claim is pinned below, so a model change that
#   flips one fails here and has to be owned (update the list and the
#   README's table in the same commit, saying why);
# - every claim of CLAIMS.md (N1..N24) has at least one row;
# - the JSON shape of the contract (claims[] with id, text, claimed,
#   simulated, verdict, command), the verdict words, --only, a bad --only
#   id, a bad index, and the claim keys' errors.
# Usage: tests/claims.sh PATH/TO/clustersim (run from the source root).
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

expect 0 "claims --format json" -- "$bin" claims --format json
cp "$tmp/out" "$tmp/claims.json"

# The expected verdict of each row, in the index's order (id and its rows'
# verdicts). Figures behind them: README "Seed claims", docs/claims.md.
cat >"$tmp/expected" <<'TXT'
N1 direction-holds
N2 contradicted supported contradicted contradicted
N3 contradicted
N4 supported contradicted
N5 direction-holds direction-holds
N6 direction-holds
N7 contradicted not-expressible
N8 contradicted contradicted
N9 supported
N10 contradicted contradicted contradicted contradicted supported contradicted contradicted contradicted contradicted
N11 contradicted contradicted contradicted
N12 supported contradicted supported
N13 direction-holds
N14 not-expressible
N15 contradicted
N16 contradicted
N17 supported
N18 supported contradicted supported
N19 contradicted
N20 contradicted
N21 supported
N22 supported
N23 supported
N24 not-expressible
TXT
python3 - "$tmp/claims.json" "$tmp/expected" <<'PY' && ok || ko "claims: verdicts differ from the pinned list (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["claims"]
got = {}
order = []
for r in rows:
    if r["id"] not in got:
        order.append(r["id"])
    got.setdefault(r["id"], []).append(r["verdict"])
want = {}
for line in open(sys.argv[2]):
    f = line.split()
    want[f[0]] = f[1:]
bad = False
for k in sorted(set(want) | set(got), key=lambda s: int(s[1:])):
    if want.get(k) != got.get(k):
        print("  %s: expected %s, got %s" % (k, want.get(k), got.get(k)))
        bad = True
# every claim of CLAIMS.md, in order
if order != ["N%d" % i for i in range(1, 25)]:
    print("  ids in order: %s" % order)
    bad = True
sys.exit(1 if bad else 0)
PY

# The contract's names and types; the verdict words; reasons where not
# expressible; commands that name bundled files that exist.
python3 - "$tmp/claims.json" <<'PY' && ok || ko "claims: JSON shape"
import json, os, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["claims"], list) and d["claims"], "claims[] empty"
words = {"supported", "contradicted", "direction-holds", "not-expressible"}
for r in d["claims"]:
    for k in ("id", "text", "claimed", "simulated", "verdict", "command"):
        assert isinstance(r.get(k), str), (r.get("id"), k)
    assert r["verdict"] in words, r
    assert r["text"], r
    if r["verdict"] == "not-expressible":
        assert r.get("reason"), ("no reason", r)
    else:
        assert r["command"].startswith("clustersim "), r
        assert r["claimed"] != "-" and r["simulated"] != "-", r
        for w in r["command"].replace(";", " ").split():
            if w.startswith("scenarios/") or w.startswith("validation/"):
                assert os.path.exists(w), ("missing", w)
PY

# The text table (one claim's rows, to keep the test quick under the
# sanitizers): the header with the six columns, the counts line.
expect 0 "claims --only N2 (text)" -- "$bin" claims --only N2
has "$tmp/out" "1 claim of scenarios/claims/INDEX.yaml, 4 rows" "claims text: the header line"
for col in id claim claimed clustersim verdict command; do has "$tmp/out" "$col" "claims text: column $col"; done
has "$tmp/out" "clustersim compare scenarios/claims/net-n2-fat-tree.yaml scenarios/claims/net-n2-spine-leaf-3to1.yaml" "claims text: N2's command"
python3 - "$tmp/out" "$tmp/claims.json" <<'PY' && ok || ko "claims text: counts line does not match the JSON rows"
import json, re, sys
t = open(sys.argv[1]).read()
rows = [r for r in json.load(open(sys.argv[2]))["claims"] if r["id"] == "N2"]
m = re.search(r"(\d+) supported, (\d+) contradicted, (\d+) direction-holds, (\d+) not-expressible", t)
n = [sum(r["verdict"] == w for r in rows) for w in ("supported", "contradicted", "direction-holds", "not-expressible")]
sys.exit(0 if m and [int(x) for x in m.groups()] == n else 1)
PY

# --only: that claim's rows alone, the same verdicts as in the full run.
expect 0 "claims --only N4" -- "$bin" claims --only N4 --format json
python3 - "$tmp/out" <<'PY' && ok || ko "claims --only N4: rows"
import json, sys
rows = json.load(open(sys.argv[1]))["claims"]
sys.exit(0 if [r["id"] for r in rows] == ["N4", "N4"] and [r["verdict"] for r in rows] == ["supported", "contradicted"] else 1)
PY
expect 2 "claims --only N99" -- "$bin" claims --only N99
has "$tmp/err" "--only N99: no such claim" "claims --only N99: says so"
has "$tmp/err" "N1, N2, N3" "claims --only N99: lists the ids"
expect 2 "claims --only n4 (ids are case-sensitive)" -- "$bin" claims --only n4
expect 2 "claims --format csv" -- "$bin" claims --format csv
has "$tmp/err" "expected text or json" "claims --format csv: says which formats"
expect 2 "claims with a FILE" -- "$bin" claims scenarios/claims/net-n1-1x8.yaml
expect 0 "claims --help" -- "$bin" claims --help
has "$tmp/out" "--only ID" "claims --help: --only"
has "$tmp/out" "not-expressible" "claims --help: the verdicts"
expect 0 "help lists claims" -- "$bin" help
has "$tmp/out" "claims" "help: the claims command"

# A bad index: every error with file:line:col, nothing run.
mkdir -p "$tmp/ix"
cp scenarios/claims/net-n1-1x8.yaml scenarios/claims/net-n1-2x4.yaml "$tmp/ix/"
cat >"$tmp/ix/INDEX.yaml" <<'YML'
claims:
  - id: X1
    text: "a claim"
    command: compare
    files: [net-n1-2x4.yaml, missing.yaml]
  - id: X2
    text: "another"
    command: sideways
    files: [net-n1-1x8.yaml]
  - id: X3
    text: "no reason"
    command: none
  - id: X4
    text: "a typo"
    command: run
    file: [net-n1-1x8.yaml]
YML
expect 2 "claims --index (bad)" -- "$bin" claims --index "$tmp/ix/INDEX.yaml"
has "$tmp/err" "INDEX.yaml:5:" "bad index: the missing file's line"
has "$tmp/err" "\"missing.yaml\" does not exist" "bad index: the missing file"
has "$tmp/err" "INDEX.yaml:8:14: error: claims[1].command: expected run, compare, tco, tco-table, replay or none" "bad index: unknown command"
has "$tmp/err" "command none needs \`not_expressible\`" "bad index: none without a reason"
has "$tmp/err" "unknown key \"file\"" "bad index: unknown key"
# A good one outside the data directory: its commands name its own files.
cat >"$tmp/ix/INDEX.yaml" <<'YML'
claims:
  - id: X1
    text: "One node of 8x A100 trains BLOOM-7B 23% faster than 2 nodes of 4x A100"
    command: compare
    files: [net-n1-2x4.yaml, net-n1-1x8.yaml]
YML
expect 0 "claims --index (good)" -- "$bin" claims --index "$tmp/ix/INDEX.yaml" --format json
python3 - "$tmp/out" "$tmp/ix" <<'PY' && ok || ko "claims --index: commands name the index's files; N1's verdict"
import json, sys
r = json.load(open(sys.argv[1]))["claims"]
d = sys.argv[2]
sys.exit(0 if len(r) == 1 and r[0]["command"] == "clustersim compare %s/net-n1-2x4.yaml %s/net-n1-1x8.yaml" % (d, d)
         and r[0]["verdict"] == "direction-holds" else 1)
PY

# The claim keys: a bound, and what is refused.
base="$tmp/ix/net-n1-1x8.yaml"
sed '/^claim:/,$d' "$base" >"$tmp/noclaim.yaml"
{ cat "$tmp/noclaim.yaml"; printf 'claim: {text: t, metric: mfu, value: 0.4, at_least: 0.3}\n'; } >"$tmp/c1.yaml"
expect 2 "claim: value and bound" -- "$bin" validate "$tmp/c1.yaml"
has "$tmp/err" "a figure and a bound on it at once" "claim: value and bound refused"
{ cat "$tmp/noclaim.yaml"; printf 'claim: {text: t, metric: mfu, at_least: 0.3, ratio_at_most: 2}\n'; } >"$tmp/c2.yaml"
expect 2 "claim: value bound and ratio bound" -- "$bin" validate "$tmp/c2.yaml"
has "$tmp/err" "a value (\`value\`, \`at_least\`, \`at_most\`) and a ratio" "claim: value and ratio refused"
{ cat "$tmp/noclaim.yaml"; printf 'claim: {text: t, metric: goodputt, at_least: 0.3}\n'; } >"$tmp/c3.yaml"
expect 2 "claim: unknown metric" -- "$bin" validate "$tmp/c3.yaml"
has "$tmp/err" "claim.metric" "claim: unknown metric named"
# A bound judged by run: the BLOOM-7B step's MFU is below 1 and above 0.
{ cat "$tmp/noclaim.yaml"; printf 'claim: {text: t, metric: mfu, at_least: 0.01, at_most: 0.99}\n'; } >"$tmp/c4.yaml"
expect 0 "claim: a bound judged by run" -- "$bin" run "$tmp/c4.yaml"
has "$tmp/out" "MFU: claimed at least 0.01 and at most 0.99" "run prints a bound claim"
has "$tmp/out" "verdict: supported" "run: the bound holds"

finish claims

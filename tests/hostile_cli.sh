#!/usr/bin/env bash
# hostile_cli.sh: the command line against a hostile environment (issue 20):
# outputs that cannot be written (/dev/full, a full file system: a 64 KiB
# tmpfs when run as root), output directories with planted symlinks and
# non-regular files, two sweeps on one directory, CSV cells that would be
# spreadsheet formulas, unreadable inputs and edge numbers. Each case checks
# the exit code, that the message names the file, and that nothing is left
# half-written. Usage: tests/hostile_cli.sh PATH/TO/clustersim (from the
# source root; CTest does both).
set -u
bin="$1"
tmp=$(mktemp -d)
mnt=""
cleanup() {
    if [ -n "$mnt" ]; then umount "$mnt" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/testlib.sh"

sc=scenarios/default.yaml
trace=validation/traces/microsoft-itp-2021/cluster10.csv.gz
cl=scenarios/replay-1024.yaml
[ -f "$sc" ] && [ -f "$trace" ] && [ -f "$cl" ] || { echo "hostile_cli: missing $sc, $trace or $cl"; exit 1; }

# leftovers DIR WHAT: no temporary file (.NAME.XXXXXX) is left in DIR.
leftovers() {
    if ls -A "$1" | grep -q '^\.[^.].*\.[A-Za-z0-9]\{6\}$\|\.tmp'; then ko "$2: temporary file left: $(ls -A "$1" | tr '\n' ' ')"; else ok; fi
}

# ---- 1. Standard output that cannot be written: exit 1, message --------
# (item 7: report, validate and catalog used to exit 0 on /dev/full).
if [ -w /dev/full ]; then
    for c in "validate $sc" "catalog" "report run $sc" "run $sc" "run $sc --format csv" \
             "tco $sc" "replay $trace --cluster $cl --no-plots" \
             "compare $sc $sc --format csv" "validate $sc --format csv"; do
        # shellcheck disable=SC2086
        "$bin" $c >/dev/full 2>"$tmp/err"
        rc=$?
        if [ "$rc" -eq 1 ]; then ok; else ko "$c > /dev/full: exit $rc, expected 1"; fi
        has "$tmp/err" "cannot write standard output: No space left on device" "$c > /dev/full names stdout"
    done
else
    echo "hostile_cli: no /dev/full: its cases skipped"
fi

# ---- 2. A full file system (root only: a 64 KiB tmpfs) -------------------
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/mnt" && mount -t tmpfs -o size=64k,nr_inodes=200 tmpfs "$tmp/mnt" 2>/dev/null; then
    mnt="$tmp/mnt"
    mkdir -p "$mnt/rep" "$mnt/rp" "$mnt/tco"
    printf 'OLD PAGE\n' >"$mnt/rep/report.html"
    # fill what is left: every later data block fails with ENOSPC
    dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null
    expect 1 "report -o on a full disk" -- "$bin" report -o "$mnt/rep" run $sc
    has "$tmp/err" "cannot write $mnt/rep/report.html: No space left on device" "report full disk names the file"
    if [ "$(cat "$mnt/rep/report.html")" = "OLD PAGE" ]; then ok; else ko "report full disk: the old report.html was changed"; fi
    leftovers "$mnt/rep" "report full disk"
    expect 1 "replay -o on a full disk" -- "$bin" replay $trace --cluster $cl -o "$mnt/rp"
    has "$tmp/err" "$mnt/rp/replay.txt" "replay full disk names the file"
    if [ -z "$(ls -A "$mnt/rp")" ]; then ok; else ko "replay full disk left files: $(ls -A "$mnt/rp" | tr '\n' ' ')"; fi
    expect 1 "tco -o on a full disk" -- "$bin" tco $sc -o "$mnt/tco"
    has "$tmp/err" "No space left on device" "tco full disk says why"
    leftovers "$mnt/tco" "tco full disk"
    expect 1 "sweep on a full disk" -- "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$mnt/sw"
    has "$tmp/err" "No space left on device" "sweep full disk says why"
    # replay's figures' data after the text fits: free just enough for replay.txt
    rm -f "$mnt/filler"
    dd if=/dev/zero of="$mnt/filler" bs=4k count=$(( $(stat -f -c %a "$mnt") - 1 )) 2>/dev/null
    rm -rf "${mnt:?}/rp"/* "${mnt:?}/rp"/.[!.]* 2>/dev/null
    expect 1 "replay -o: figure data on a full disk" -- "$bin" replay $trace --cluster $cl -o "$mnt/rp"
    has "$tmp/err" "clustersim replay: $mnt/rp/replay_util.dat: No space left on device" "replay figure data names the file"
    if find "$mnt/rp" -name '*.dat' -size 0 | grep -q .; then ko "replay left a 0-byte .dat"; else ok; fi
    leftovers "$mnt/rp" "replay figure data"
    umount "$mnt" && mnt=""
else
    echo "hostile_cli: not root or no tmpfs: the full-disk cases skipped"
fi

# ---- 3. Planted files in the output directory (item 8) --------------------
# The old predictable temporary names, as symlinks to a victim: never followed.
mkdir -p "$tmp/plant"
printf 'victim\n' >"$tmp/victim"
for n in results.csv.tmp results.jsonl.tmp sweep.json.tmp; do ln -s "$tmp/victim" "$tmp/plant/$n"; done
expect 0 "sweep with planted symlinks" -- "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/plant"
if [ "$(cat "$tmp/victim")" = victim ]; then ok; else ko "sweep wrote through a planted symlink"; fi
# a symlink planted as an output file is replaced, its target untouched
mkdir -p "$tmp/plant2"
ln -s "$tmp/victim" "$tmp/plant2/run.json"
expect 0 "run -o over a planted symlink" -- "$bin" run $sc --format json -o "$tmp/plant2"
if [ "$(cat "$tmp/victim")" = victim ] && [ ! -L "$tmp/plant2/run.json" ] && [ -s "$tmp/plant2/run.json" ]; then ok
else ko "run -o wrote through the symlink run.json"; fi
leftovers "$tmp/plant2" "run -o over a symlink"
# a FIFO where the output goes: replaced, never opened (would block)
mkdir -p "$tmp/fifo"
mkfifo "$tmp/fifo/report.html"
expect 0 "report -o over a FIFO" -- timeout 60 "$bin" report -o "$tmp/fifo" run $sc
if [ -f "$tmp/fifo/report.html" ] && [ ! -p "$tmp/fifo/report.html" ]; then ok; else ko "report -o over a FIFO: not a regular file"; fi
# a directory where the output file goes: exit 1, named
mkdir -p "$tmp/isdir/run.json"
expect 1 "run -o where run.json is a directory" -- "$bin" run $sc --format json -o "$tmp/isdir"
has "$tmp/err" "cannot write $tmp/isdir/run.json: Is a directory" "directory output named"
# output file modes: as fopen would give (0666 less the umask), not mkstemp's 0600
(umask 022; "$bin" run $sc --format json -o "$tmp/mode" 2>/dev/null)
if [ "$(stat -c %a "$tmp/mode/run.json")" = 644 ]; then ok; else ko "output mode $(stat -c %a "$tmp/mode/run.json"), expected 644"; fi

# a FIFO planted as a sweep directory's results.jsonl: resume and merge
# refuse it at once, naming it, instead of blocking on the read
"$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/fifosw" >/dev/null 2>&1
rm -f "$tmp/fifosw/results.jsonl" && mkfifo "$tmp/fifosw/results.jsonl"
expect 1 "sweep resume over a FIFO results.jsonl" -- timeout 60 "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/fifosw"
has "$tmp/err" "results.jsonl: cannot read it: not a regular file" "sweep resume names the FIFO"
expect 1 "merge over a FIFO results.jsonl" -- timeout 60 "$bin" merge -o "$tmp/fifomerged" "$tmp/fifosw"
has "$tmp/err" "not a regular file" "merge names the FIFO"

# ---- 4. Two sweeps on one directory: the second refuses (item 8) --------
mkdir -p "$tmp/busy"
exec 9>"$tmp/busy/.clustersim.lock"   # this shell holds the lock, as a running sweep would
flock -n 9 || ko "cannot take the test's lock"
expect 1 "sweep on a directory in use" -- "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/busy"
has "$tmp/err" "$tmp/busy is in use by another clustersim process" "busy directory message"
if [ ! -e "$tmp/busy/results.csv" ]; then ok; else ko "the refused sweep wrote results"; fi
exec 9>&-
expect 0 "sweep once the lock is released" -- "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/busy"
# a lock file planted as a symlink is not followed
mkdir -p "$tmp/lk"
ln -s "$tmp/victim" "$tmp/lk/.clustersim.lock"
expect 1 "sweep with a symlinked lock file" -- "$bin" sweep scenarios/sweeps/fabric-oversub.yaml -o "$tmp/lk"
has "$tmp/err" "cannot lock $tmp/lk" "symlinked lock refused"

# ---- 5. CSV: quoting and formulas (item 9) ---------------------------------
sed 's/^name: .*/name: "=HYPERLINK(\\"http:\/\/x\\"),\\"evil\\""/' $sc >"$tmp/evil.yaml"
grep -q '^name: "=HYPERLINK' "$tmp/evil.yaml" || ko "evil.yaml: the name was not set"
expect 0 "compare csv with a formula name" -- "$bin" compare "$tmp/evil.yaml" $sc --format csv
has "$tmp/out" ",\"'=HYPERLINK(\"\"http://x\"\"),\"\"evil\"\"\",32," "compare quotes and neutralises the name"
python3 - "$tmp/out" <<'PY' && ok || ko "compare csv: rows do not all have the header's column count"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
sys.exit(0 if len(rows) == 3 and all(len(r) == len(rows[0]) for r in rows) else 1)
PY
expect 0 "run csv with a formula name" -- "$bin" run "$tmp/evil.yaml" --format csv
has "$tmp/out" "\"'=HYPERLINK(\"\"http://x\"\"),\"\"evil\"\"\"," "run csv neutralises the name"
expect 0 "tco --table csv with a formula name" -- "$bin" tco --table "$tmp/evil.yaml" $sc --format csv
has "$tmp/out" "\"'=HYPERLINK(" "tco table neutralises the name"

# ---- 6. Inputs that are not plain readable files --------------------------
expect 2 "a directory as the scenario" -- "$bin" run scenarios
has "$tmp/err" "scenarios" "directory input named"
printf 'schema_version: 1\n' >"$tmp/unreadable.yaml"
chmod 000 "$tmp/unreadable.yaml"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null \
   && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin"; then
    chmod 755 "$tmp"
    expect 2 "an unreadable scenario" -- setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" validate "$tmp/unreadable.yaml"
    has "$tmp/err" "Permission denied" "unreadable input says why"
elif [ "$(id -u)" != 0 ]; then
    expect 2 "an unreadable scenario" -- "$bin" validate "$tmp/unreadable.yaml"
    has "$tmp/err" "Permission denied" "unreadable input says why"
else
    echo "hostile_cli: cannot drop privileges here: the unreadable-input case skipped"
fi

# ---- 7. Edge numbers and unbounded work (item 5) --------------------------
# Physically meaningless: refused (exit 2), naming the key.
expect 2 "an MTBF of 1 s" -- timeout 60 "$bin" run $sc --set failures.components.0.mtbf=1s
has "$tmp/err" "failures.components.0.mtbf: the job's 32 GPUs on 4 nodes would be interrupted every 0.0312 s" "tiny MTBF named"
expect 2 "a checkpoint interval of 1 ns" -- timeout 60 "$bin" run $sc --set checkpoint.interval=1ns
has "$tmp/err" "checkpoint.interval: 1e-09 s is shorter than one training step" "tiny interval named"
# A huge MTBF is no failure at all, not an error (it used to overflow the clock).
expect 0 "an MTBF of 1e12 s" -- timeout 60 "$bin" run $sc --set failures.components.0.mtbf=1e12s
# Out of range: refused with the range.
for kv in cluster.nodes=0 cluster.nodes=-3 cluster.nodes=1e30 workload.tokens=1e30 run.replicas=1e12; do
    expect 2 "--set $kv" -- timeout 60 "$bin" run $sc --set "$kv"
    has "$tmp/err" "${kv%%=*}: expected" "--set $kv says what it expected"
done
expect 2 "--backfill-depth 0" -- "$bin" replay $trace --cluster $cl --backfill-depth 0
expect 2 "--bins 99999999999" -- "$bin" replay $trace --cluster $cl --bins 99999999999
# A simulation past its event budget did not complete: exit 1, said so, no figures.
CLUSTERSIM_MAX_EVENTS=100 "$bin" run $sc --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ]; then ok; else ko "run over its budget: exit $rc, expected 1"; fi
has "$tmp/err" "the run-level simulation did not complete: a replica reached its budget of 100 events" "run budget message"
if [ -s "$tmp/out" ]; then ko "run over its budget printed figures"; else ok; fi
CLUSTERSIM_MAX_EVENTS=100 "$bin" replay $trace --cluster $cl -o "$tmp/rb" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 1 ]; then ok; else ko "replay over its budget: exit $rc, expected 1"; fi
has "$tmp/err" "replay: did not complete: it reached its budget of 100 events" "replay budget message"
if [ ! -e "$tmp/rb/replay.txt" ]; then ok; else ko "replay over its budget wrote replay.txt"; fi
expect 0 "a bad CLUSTERSIM_MAX_EVENTS is warned about" -- env CLUSTERSIM_MAX_EVENTS=x "$bin" run $sc --format json
has "$tmp/err" "CLUSTERSIM_MAX_EVENTS=x: expected a positive integer" "bad budget warned"

finish hostile_cli

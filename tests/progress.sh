#!/usr/bin/env bash
# progress.sh: the progress line of the long commands (cli/progress.h):
# drawn on standard error when it is a terminal (a pty made by script(1),
# standard output redirected to a file), absent with --quiet / -q, absent
# when standard error is a pipe or a file, and never in the command's
# output; run's -j 1 and -j 2 give byte-identical results. Usage:
# tests/progress.sh PATH/TO/clustersim (from the source root; CTest does
# both). Exits 77 (skipped) after the checks that need no terminal when
# script(1) is not installed.
set -u
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"

cr=$(printf '\r')
# Each command: its name (the progress line's label), then its arguments.
# Each runs long enough to report at least its first count.
names=(replay run sweep plan calibrate)
cmds=(
    "replay tests/data/replay/breakdown.csv --cluster tests/data/replay/one-node.yaml --format json"
    "run scenarios/default.yaml --set run.replicas=20 --format json"
    "sweep tests/data/sweep/grid.yaml -o OUTDIR"
    "plan tests/data/plan-small.yaml --format json"
    "calibrate --steps tests/data/calib/steps_good.csv --scenario tests/data/calib/step_base.yaml --no-plot -o OUTDIR/cal.yaml"
)

# Not a terminal: standard error is a file. No progress text, no carriage
# return, with or without -q.
for i in "${!names[@]}"; do
    n=${names[$i]}
    args=${cmds[$i]//OUTDIR/$tmp/np-$n}
    mkdir -p "$tmp/np-$n"
    # shellcheck disable=SC2086
    "$bin" $args >"$tmp/np-$n.out" 2>"$tmp/np-$n.err"
    rc=$?
    if [ "$rc" -ne 0 ]; then ko "$n (no terminal): exit $rc"; sed 's/^/  | /' "$tmp/np-$n.err" | head -5; continue; fi
    if grep -q "^$n: \[\|$cr" "$tmp/np-$n.err"; then ko "$n: progress on a standard error that is not a terminal"; else ok; fi
    if grep -q "$cr" "$tmp/np-$n.out"; then ko "$n: a carriage return in the output"; else ok; fi
done

# run's Monte Carlo on 1 and 2 threads: byte-identical JSON (each replica
# and uncertainty sample has its own seed, whatever thread runs it).
"$bin" run scenarios/default.yaml --set run.replicas=40 --format json -j 1 >"$tmp/j1.json" 2>"$tmp/j1.err" || ko "run -j 1 failed"
"$bin" run scenarios/default.yaml --set run.replicas=40 --format json -j 2 >"$tmp/j2.json" 2>"$tmp/j2.err" || ko "run -j 2 failed"
if [ -s "$tmp/j1.json" ] && cmp -s "$tmp/j1.json" "$tmp/j2.json"; then ok; else ko "run -j 1 and -j 2 differ"; diff "$tmp/j1.json" "$tmp/j2.json" | head -5; fi
grep -q '"time_to_train_s"' "$tmp/j1.json" && ok || ko "run -j: no time_to_train_s (the Monte Carlo did not run)"
"$bin" run scenarios/default.yaml --set run.replicas=10 --set uncertainty.samples=24 --uncertainty --format json -j 1 \
    >"$tmp/u1.json" 2>/dev/null || ko "run --uncertainty -j 1 failed"
"$bin" run scenarios/default.yaml --set run.replicas=10 --set uncertainty.samples=24 --uncertainty --format json -j 2 \
    >"$tmp/u2.json" 2>/dev/null || ko "run --uncertainty -j 2 failed"
if [ -s "$tmp/u1.json" ] && cmp -s "$tmp/u1.json" "$tmp/u2.json"; then ok; else ko "run --uncertainty -j 1 and -j 2 differ"; fi
grep -q '"uncertainty"' "$tmp/u1.json" && ok || ko "run --uncertainty: no uncertainty object"

if ! command -v script >/dev/null 2>&1; then
    echo "progress: script(1) not found: the checks on a terminal are skipped"
    finish progress || exit 1
    exit 77
fi

# A terminal: script(1) gives the command a pty; its standard output goes
# to a file, so the typescript holds standard error alone.
for i in "${!names[@]}"; do
    n=${names[$i]}
    k=0
    for q in "" "-q" "--quiet"; do
        k=$((k + 1))
        tag="$n$k"
        mkdir -p "$tmp/t-$tag"
        args=${cmds[$i]//OUTDIR/$tmp/t-$tag}
        script -qec "'$bin' $args $q >'$tmp/t-$tag.out'" /dev/null </dev/null >"$tmp/t-$tag.tty" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ]; then ko "$n $q (terminal): exit $rc"; sed 's/^/  | /' "$tmp/t-$tag.tty" | head -5; continue; fi
        if [ -z "$q" ]; then
            # drawn ("NAME: [bar] done/total ..." or "NAME: N unit"), then
            # cleared: spaces over it and a carriage return
            has "$tmp/t-$tag.tty" "$cr$n: " "$n: a progress line on a terminal"
            if grep -q "$cr  *$cr" "$tmp/t-$tag.tty"; then ok; else ko "$n: the progress line is not cleared"; fi
        else
            if grep -q "$n: \[\|$cr$n: " "$tmp/t-$tag.tty"; then ko "$n $q: progress drawn"; else ok; fi
        fi
        if grep -q "$cr" "$tmp/t-$tag.out"; then ko "$n $q: a carriage return in the output"; else ok; fi
    done
done
# the output on a terminal is the output without one
if cmp -s "$tmp/np-replay.out" "$tmp/t-replay1.out"; then ok; else ko "replay: output differs on a terminal"; fi

finish progress

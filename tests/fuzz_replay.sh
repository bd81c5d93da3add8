#!/usr/bin/env bash
# fuzz_replay.sh SRC BIN NAME...: runs each harness of fuzz/ (built without
# libFuzzer as BIN/replay_fuzz_NAME) over its seeds and its regression
# inputs fuzz/regress/NAME/*; fails when one crashes or when a harness has
# no input at all (the data went missing).
set -uo pipefail
src="$1"
bin="$2"
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
bash fuzz/seeds.sh "$tmp/seeds" || { echo "fuzz_replay: fuzz/seeds.sh failed"; exit 1; }
pass=0
fail=0
for n in "$@"; do
    files=()
    for f in "$tmp/seeds/$n"/* "$src/fuzz/regress/$n"/*; do
        [ -f "$f" ] && files+=("$f")
    done
    if [ ${#files[@]} -eq 0 ]; then
        echo "FAIL $n: no seed or regression input"
        fail=$((fail + 1))
        continue
    fi
    if out=$("$bin/replay_fuzz_$n" "${files[@]}" 2>&1); then
        echo "ok $n: ${out##*$'\n'}"
        pass=$((pass + 1))
    else
        echo "FAIL $n:"
        printf '%s\n' "$out" | tail -20
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

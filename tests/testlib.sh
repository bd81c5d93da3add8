# testlib.sh: what the shell tests share (sourced, not run). Counters and
# checks that print one FAIL line each and a closing "NAME: N passed, N
# failed" line; `expect` keeps a command's stdout and stderr in $tmp/out and
# $tmp/err. The sourcing script sets `tmp` (a scratch directory) first.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- COMMAND...: runs COMMAND, checks its exit code.
expect() {
    local want="$1" what="$2"
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$what: exit $got, expected $want"; sed 's/^/  | /' "$tmp/err" | head -5; fi
}

# has FILE TEXT DESCRIPTION: FILE contains TEXT (fixed string).
has() {
    if grep -qF -- "$2" "$1"; then ok; else ko "$3: '$2' not found in $1"; sed 's/^/  | /' "$1" | head -5; fi
}

# finish NAME: the closing line; the exit status says whether all passed.
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

#!/usr/bin/env bash
# python_api.sh: the Python API's tests (tests/test_python_api.py) with
# Debian's python3, against this build's libclustersim.so and clustersim.
# A missing python3, library or binary fails the test (nothing is skipped).
# In a sanitizer build the library needs the sanitizers' runtimes loaded
# first (python3 itself is not instrumented): LD_PRELOAD names the
# compiler's libasan / libubsan; leak detection is off there, because the
# interpreter keeps its own allocations at exit (tests/check_api.c runs
# the same calls under LeakSanitizer instead).
# Usage: tests/python_api.sh SOURCE_DIR BIN LIB CC ASAN(ON|OFF) UBSAN(ON|OFF)
set -u
src="$1" bin="$2" lib="$3" cc="$4" asan="$5" ubsan="$6"
py=$(command -v python3) || { echo "FAIL: python3 not found (make deps installs it)"; exit 1; }
[ -f "$lib" ] || { echo "FAIL: $lib missing (the clustersim_shared target)"; exit 1; }
[ -x "$bin" ] || { echo "FAIL: $bin missing"; exit 1; }
pre=""
for rt in asan ubsan; do
    on=$asan
    [ "$rt" = ubsan ] && on=$ubsan
    case "$on" in ON | on | 1 | TRUE | true | YES | yes) ;; *) continue ;; esac
    p=$("$cc" -print-file-name=lib$rt.so)
    if [ ! -f "$p" ]; then echo "FAIL: the sanitizer build's lib$rt.so not found ($cc -print-file-name)"; exit 1; fi
    pre="$pre $p"
done
if [ -n "$pre" ]; then
    export LD_PRELOAD="${pre# }"
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
fi
cd "$src" || exit 1
export CLUSTERSIM_LIB="$lib" CLUSTERSIM_BIN="$bin" PYTHONPATH="$src/python" PYTHONDONTWRITEBYTECODE=1
exec "$py" -B tests/test_python_api.py

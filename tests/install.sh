#!/usr/bin/env bash
# install.sh: clustersim installed and used without its source or build tree.
# Copies the source tree, builds it in a build directory of its own (never the
# one the other tests run from), installs it twice (`make install DESTDIR=`
# and `cmake --install --prefix`), removes the copy and the build, and runs
# the installed binary from elsewhere: --version, run, validate-refs, sweep +
# plot, report; the man page and the completions; CLUSTERSIM_DATA,
# CLUSTERSIM_CATALOG and --catalog; a moved prefix; and the binary alone,
# which must say which catalog directory is missing.
# Usage: tests/install.sh SOURCE_DIR [CMAKE_ARG...] (CTest passes the
# configuration of the build it belongs to).
set -u
src=$(cd "$1" && pwd)
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/testlib.sh"
die() { echo "FAIL: $*"; exit 1; }
file_ok() { # file_ok PATH DESCRIPTION: exists and is not empty
    if [ -s "$1" ]; then ok; else ko "$2: $1 missing or empty"; fi
}

# plot must draw: make deps installs gnuplot-nox, so its absence is a failure.
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found: the installed plot cannot be checked (make deps installs gnuplot-nox)"

# A copy of the source tree (without build directories), so that removing it
# leaves the installed copy no source tree to fall back on.
mkdir "$tmp/src"
tar -C "$src" --exclude='./build*' --exclude=./.git --exclude=./out -cf - . | tar -C "$tmp/src" -xf - \
    || die "cannot copy $src"
# Configured for a prefix that never exists: the binary's compiled-in data
# directory ($tmp/configured/share/clustersim) must not be what it finds.
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_INSTALL_PREFIX="$tmp/configured" -DCLUSTERSIM_TESTS=OFF "$@" \
    >"$tmp/configure.log" 2>&1 || { tail -20 "$tmp/configure.log"; die "configure failed"; }
# make install (PREFIX, DESTDIR): builds what is installed and stages it.
make -C "$tmp/src" install BUILD="$tmp/build" PREFIX="$tmp/configured" DESTDIR="$tmp/stage" JOBS=2 \
    >"$tmp/make-install.log" 2>&1 || { tail -20 "$tmp/make-install.log"; die "make install failed"; }
staged="$tmp/stage$tmp/configured"
file_ok "$staged/bin/clustersim" "make install DESTDIR: binary"
file_ok "$staged/share/clustersim/scenarios/catalog/gpus.yaml" "make install DESTDIR: catalog"
if [ -e "$tmp/configured" ]; then ko "make install DESTDIR wrote outside DESTDIR"; else ok; fi
# cmake --install --prefix: the copy the rest of the test uses.
P="$tmp/prefix"
cmake --install "$tmp/build" --prefix "$P" >"$tmp/install.log" 2>&1 \
    || { tail -20 "$tmp/install.log"; die "cmake --install failed"; }
rm -rf "$tmp/build" "$tmp/src" "$tmp/stage"
[ ! -e "$tmp/build" ] && [ ! -e "$tmp/src" ] || die "cannot remove the build or source copy"

unset CLUSTERSIM_DATA CLUSTERSIM_CATALOG
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || die "cd"
bin="$P/bin/clustersim"
D="$P/share/clustersim"

# What is installed where.
for f in bin/clustersim share/clustersim/scenarios/catalog/gpus.yaml share/clustersim/scenarios/default.yaml \
         share/clustersim/scenarios/sweeps/checkpoint-interval.yaml share/clustersim/scenarios/claims/net-n1-1x8.yaml \
         share/clustersim/plots/tco_bars.gp share/clustersim/validation/INDEX.yaml \
         share/clustersim/validation/step/megatron-core-h100-weak-scaling.csv \
         share/man/man1/clustersim.1 share/bash-completion/completions/clustersim \
         share/zsh/site-functions/_clustersim lib/libclustersim.a include/clustersim/sim/sim.h \
         lib/pkgconfig/clustersim.pc share/doc/clustersim/README.md; do
    file_ok "$P/$f" "installed $f"
done

# The Python package, with its libclustersim.so beside it (no CLUSTERSIM_LIB):
# run from elsewhere gives the binary's figures. A sanitizer build's library
# needs the runtimes preloaded into python3 (tests/python_api.sh).
pyinit=$(find "$P" -path '*/dist-packages/clustersim/__init__.py' | head -1)
if [ -n "$pyinit" ] && [ -s "$(dirname "$pyinit")/libclustersim.so" ]; then ok
else ko "installed Python package with its libclustersim.so: not found under $P"; fi
if [ -n "$pyinit" ]; then
    cc=cc
    for a in "$@"; do case "$a" in -DCMAKE_C_COMPILER=*) cc=${a#*=} ;; esac; done
    pyenv=(PYTHONPATH="$(dirname "$(dirname "$pyinit")")")
    pre=""
    for a in "$@"; do
        case "$a" in
        -DCLUSTERSIM_ASAN=ON) pre="$pre:$("$cc" -print-file-name=libasan.so)" ;;
        -DCLUSTERSIM_UBSAN=ON) pre="$pre:$("$cc" -print-file-name=libubsan.so)" ;;
        esac
    done
    [ -n "$pre" ] && pyenv+=(LD_PRELOAD="${pre#:}" ASAN_OPTIONS=detect_leaks=0)
    expect 0 "python: import the installed package" -- env -u CLUSTERSIM_LIB "${pyenv[@]}" python3 -B -c '
import json, sys, clustersim
r = clustersim.run(sys.argv[1])
print(clustersim.library_path())
print(json.dumps(r["throughput"]["tokens_per_s"]))' "$D/scenarios/default.yaml"
    has "$tmp/out" "$(dirname "$pyinit")/libclustersim.so" "python: the package loads the library beside it"
    py_tps=$(sed -n 2p "$tmp/out")
    "$bin" run --format json "$D/scenarios/default.yaml" >"$tmp/run.json" 2>/dev/null
    cli_tps=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["throughput"]["tokens_per_s"]))' "$tmp/run.json")
    if [ -n "$py_tps" ] && [ "$py_tps" = "$cli_tps" ]; then ok; else ko "python: tokens/s $py_tps, the binary's $cli_tps"; fi
fi

# The data directory is the installed one.
expect 0 "--version" -- "$bin" --version
has "$tmp/out" "data: $D (installed)" "--version names the installed data directory"
expect 0 "--data-dir" -- "$bin" --data-dir
if [ "$(cat "$tmp/out")" = "$D" ]; then ok; else ko "--data-dir: got '$(cat "$tmp/out")', expected $D"; fi

# The commands, from the installed copy.
expect 0 "run default" -- "$bin" run "$D/scenarios/default.yaml"
has "$tmp/out" "Step" "run prints the step"
expect 0 "validate-refs (installed tables)" -- "$bin" validate-refs
has "$tmp/out" "megatron-core-h100-weak-scaling.csv" "validate-refs reads the installed tables"
has "$tmp/out" "holdout: 22 tables" "validate-refs reads the installed held-out tables"
cat >"$tmp/elsewhere/tiny.yaml" <<YAML
base: $D/scenarios/default.yaml
mode: grid
axes:
  cluster.nodes: [4, 8]
derive:
  workload.parallelism.dp: "gpus / (tp * pp)"
  workload.global_batch: "32 * gpus / (tp * pp)"
YAML
expect 0 "sweep" -- "$bin" sweep -q -o sweep tiny.yaml
file_ok sweep/results.csv "sweep results"
expect 0 "plot" -- "$bin" plot sweep
file_ok sweep/sweep_scaling.gp "plot: its script"
file_ok sweep/sweep_scaling.png "plot: PNG"
file_ok sweep/sweep_scaling.svg "plot: SVG"
if grep -q "warning" "$tmp/err"; then ko "plot warned:"; sed 's/^/  | /' "$tmp/err"; else ok; fi
expect 0 "report run" -- "$bin" report -o rep run "$D/scenarios/default.yaml"
file_ok rep/report.html "report: HTML page"
has rep/report.html "<html" "report is HTML"
expect 0 "report sweep" -- "$bin" report -o sweep sweep sweep
has sweep/report.html "<svg" "sweep report has its figures"

# The man page: every command and option of the tables, and renders.
man1="$P/share/man/man1/clustersim.1"
has "$man1" ".TH CLUSTERSIM 1" "man page header"
expect 0 "help" -- "$bin" --help
for c in $(sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$tmp/out"); do
    has "$man1" "clustersim $(echo "$c" | sed 's/-/\\-/g')" "man page documents $c"
done
for o in catalog format output jobs shard trace-format; do
    has "$man1" "\\-\\-$(echo "$o" | sed 's/-/\\-/g')" "man page option --$o"
done
has "$man1" "CLUSTERSIM_DATA" "man page ENVIRONMENT"
has "$man1" "EXIT STATUS" "man page exit status"
"$bin" help --man >"$tmp/man.now"
if cmp -s "$man1" "$tmp/man.now"; then ok; else ko "installed man page differs from clustersim help --man"; fi
if command -v man >/dev/null 2>&1; then
    if MANWIDTH=80 man -l "$man1" 2>"$tmp/man.err" | grep -q "validate-refs" && [ ! -s "$tmp/man.err" ]; then ok
    else ko "man -l: does not render cleanly"; sed 's/^/  | /' "$tmp/man.err" | head -5; fi
fi

# Completions: what the binary prints, and they complete.
bc="$P/share/bash-completion/completions/clustersim"
"$bin" completion bash >"$tmp/bash.now"
if cmp -s "$bc" "$tmp/bash.now"; then ok; else ko "installed bash completion differs from clustersim completion bash"; fi
"$bin" completion zsh >"$tmp/zsh.now"
if cmp -s "$P/share/zsh/site-functions/_clustersim" "$tmp/zsh.now"; then ok; else ko "installed zsh completion differs"; fi
has "$P/share/zsh/site-functions/_clustersim" "#compdef clustersim" "zsh completion header"
# complete WORDS...: what the bash completion offers for the last word.
complete_bash() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _clustersim; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$bc" "$@" 2>&1
}
if complete_bash clustersim ru | grep -qx run; then ok; else ko "bash completion: command"; fi
if complete_bash clustersim sweep --sh | grep -qx -- --shard; then ok; else ko "bash completion: sweep --shard"; fi
if complete_bash clustersim run --format "" | grep -qx json; then ok; else ko "bash completion: --format values"; fi
if complete_bash clustersim replay --policy b | grep -qx backfill; then ok; else ko "bash completion: --policy values"; fi
if command -v zsh >/dev/null 2>&1; then
    if zsh -n "$P/share/zsh/site-functions/_clustersim" 2>"$tmp/zsh.err"; then ok; else ko "zsh -n"; cat "$tmp/zsh.err"; fi
fi
expect 2 "completion of another shell" -- "$bin" completion fish

# CLUSTERSIM_DATA and CLUSTERSIM_CATALOG override; --catalog overrides both.
cp -r "$D" "$tmp/alt"
expect 0 "CLUSTERSIM_DATA --version" -- env CLUSTERSIM_DATA="$tmp/alt" "$bin" --version
has "$tmp/out" "data: $tmp/alt (CLUSTERSIM_DATA)" "CLUSTERSIM_DATA chooses the data directory"
expect 0 "CLUSTERSIM_DATA run" -- env CLUSTERSIM_DATA="$tmp/alt" "$bin" run "$D/scenarios/default.yaml"
expect 2 "CLUSTERSIM_DATA missing" -- env CLUSTERSIM_DATA="$tmp/nothing" "$bin" run "$D/scenarios/default.yaml"
has "$tmp/err" "$tmp/nothing/scenarios/catalog" "a missing CLUSTERSIM_DATA is named"
expect 0 "--catalog beats CLUSTERSIM_DATA" -- env CLUSTERSIM_DATA="$tmp/nothing" "$bin" run \
    --catalog "$D/scenarios/catalog" "$D/scenarios/default.yaml"
expect 2 "CLUSTERSIM_CATALOG missing" -- env CLUSTERSIM_CATALOG="$tmp/nocat" "$bin" validate "$D/scenarios/default.yaml"
has "$tmp/err" "$tmp/nocat" "a missing CLUSTERSIM_CATALOG is named"
has "$tmp/err" "CLUSTERSIM_CATALOG" "the error says the catalog came from CLUSTERSIM_CATALOG"

# A moved prefix finds its data beside its bin/.
mv "$P" "$tmp/moved"
M="$tmp/moved/share/clustersim"
expect 0 "moved --version" -- "$tmp/moved/bin/clustersim" --version
has "$tmp/out" "data: $M (installed)" "a moved prefix finds its own data"
expect 0 "moved run" -- "$tmp/moved/bin/clustersim" run "$M/scenarios/default.yaml"

# The binary alone (no share/ beside it, no source tree): a clear error that
# names the missing catalog directory, not a crash.
mkdir -p "$tmp/lonely/bin"
cp "$tmp/moved/bin/clustersim" "$tmp/lonely/bin/"
lone="$tmp/lonely/bin/clustersim"
want="$tmp/configured/share/clustersim"
expect 0 "alone --version" -- "$lone" --version
has "$tmp/out" "data: $want (compiled-in)" "alone: falls back to the compiled-in directory"
expect 2 "alone run" -- "$lone" run "$M/scenarios/default.yaml"
has "$tmp/err" "$want/scenarios/catalog" "alone: run names the missing catalog directory"
has "$tmp/err" "CLUSTERSIM_DATA" "alone: run says how to point at the data"
expect 2 "alone validate-refs" -- "$lone" validate-refs
has "$tmp/err" "$want/scenarios/catalog" "alone: validate-refs names the missing catalog directory"
expect 0 "alone with CLUSTERSIM_DATA" -- env CLUSTERSIM_DATA="$M" "$lone" validate-refs

finish install

#!/usr/bin/env bash
# layers.sh: the architecture's dependency rule, checked two ways.
# 1. Every #include of a public header in a layer's sources names a layer it
#    may use (docs/architecture.md); a violation prints the file, the line
#    and which layer broke the rule.
# 2. The build really refuses one: a models file that includes a config
#    header does not compile with the models layer's include roots.
# Usage: tests/layers.sh SOURCE_DIR BUILD_DIR
set -u
. "$(dirname "$0")/testlib.sh"
src="$1"
build="$2"

uses() { # the layers layer $1 may include
    case "$1" in
    base) echo "base" ;;
    sim) echo "base sim" ;;
    models) echo "base sim models" ;;
    config) echo "base sim models config" ;;
    report) echo "base sim models report" ;;
    app) echo "base sim models config report app" ;;
    api) echo "base sim models config report app api" ;;
    cli) echo "base sim models config report app" ;;
    esac
}

for layer in base sim models config report app api cli; do
    allowed=$(uses "$layer")
    files=$(cd "$src" && ls $layer/*.c $layer/*.h $layer/*/*.c $layer/*/*.h include/clustersim/$layer/*.h 2>/dev/null)
    [ -n "$files" ] || continue
    bad=0
    while IFS=: read -r file line inc; do
        used=$(printf '%s' "$inc" | sed -n 's|.*"clustersim/\([a-z]*\)/.*|\1|p')
        [ -n "$used" ] || continue
        case " $allowed " in
        *" $used "*) ;;
        *) ko "layer $layer may not use $used: $file:$line: $inc (allowed: $allowed)"; bad=1 ;;
        esac
    done < <(cd "$src" && grep -n '#include "clustersim/' $files /dev/null)
    # A layer reaches another layer's internal headers only through
    # include/clustersim; "../x/y.h" would bypass the rule.
    if (cd "$src" && grep -n '#include "\.\./' $files /dev/null); then ko "layer $layer includes a file by a relative path outside its folder"; bad=1; fi
    [ "$bad" -eq 0 ] && ok
done

# cli/ parses, calls app/ and prints: no cli source calls a models-layer
# simulation (step, run, cost, collective, flow, scheduler, reference
# prediction), fit (calibration) or search itself; the orchestration lives
# in app/ (pipeline.c, collective_exp.c, replay.c, validate.c,
# calibrate.c, search.c, ...). Names, parsers, defaults and destructors of
# those modules are not simulations and stay allowed.
sim_calls='\b(cs_step_simulate[a-z_]*|cs_run_[a-z_]+|cs_cost_[a-z_]+|cs_coll_[a-z_]+|cs_flow_[a-z_]+|cs_sched_run|cs_refs_predict[a-z_]*|cs_calib_fit_[a-z_]+|cs_calib_[a-z_]*predict[a-z_]*|cs_search_run)[[:space:]]*\('
sim_allowed='^(cs_coll_(op|algo|proto)_(name|parse)|cs_coll_params_default|cs_cost_(option|verdict|category|input)_name|cs_run_[a-z_]*_name|cs_calib_fit_fini)$'
bad=0
while IFS=: read -r file line text; do
    case "$(printf '%s' "$text" | sed 's/^[[:space:]]*//')" in '*'* | '/*'* | '//'*) continue ;; esac
    for fn in $(printf '%s' "$text" | grep -oE "$sim_calls" | sed 's/[[:space:]]*($//'); do
        if ! printf '%s' "$fn" | grep -qE "$sim_allowed"; then
            ko "cli calls a models-layer simulation function directly: $file:$line: $fn (the orchestration belongs in app/)"
            bad=1
        fi
    done
done < <(cd "$src" && grep -nE "$sim_calls" cli/*.c /dev/null)
[ "$bad" -eq 0 ] && ok

# Flat headers left in include/clustersim/ would be visible to no layer.
flat=$(ls "$src"/include/clustersim/*.h 2>/dev/null)
if [ -z "$flat" ]; then ok; else ko "headers outside a layer folder: $flat"; fi

# The compiler refuses a forbidden include with the layer's include roots.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "clustersim/config/catalog.h"\nint cs_probe(void);\nint cs_probe(void) { return 0; }\n' >"$tmp/probe.c"
cc=${CC:-cc}
if "$cc" -std=c11 -fsyntax-only -I"$build/layer-include/base" -I"$build/layer-include/sim" \
       -I"$build/layer-include/models" "$tmp/probe.c" 2>"$tmp/err"; then
    ko "a models file including a config header compiled"
else
    if grep -q "clustersim/config/catalog.h" "$tmp/err"; then ok; else ko "unexpected compiler error"; cat "$tmp/err"; fi
fi
# ... and accepts an allowed one (the probe itself is sound).
printf '#include "clustersim/models/scenario.h"\nint cs_probe(void);\nint cs_probe(void) { return 0; }\n' >"$tmp/probe2.c"
if "$cc" -std=c11 -fsyntax-only -I"$build/layer-include/base" -I"$build/layer-include/sim" \
       -I"$build/layer-include/models" "$tmp/probe2.c" 2>"$tmp/err"; then ok
else ko "an allowed include did not compile"; cat "$tmp/err"; fi

# The layer link check was built: each layer linked alone, all symbols resolved.
if grep -q "CLUSTERSIM_LAYER_CHECK:BOOL=ON" "$build/CMakeCache.txt" && ! grep -q "CLUSTERSIM_ASAN:BOOL=ON" "$build/CMakeCache.txt"; then
    for l in base sim models config report app api; do
        if [ -f "$build/layer-check/libcs_layer_$l.so" ]; then ok; else ko "layer link check for $l not built"; fi
    done
fi

finish layers

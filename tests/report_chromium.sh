#!/usr/bin/env bash
# report_chromium.sh: renders `clustersim report` pages in headless Chromium
# and checks that the screenshots are not blank and that the figures show:
# the page's screenshot, and that of the page cut down to its <figure>
# elements (the inline SVG), must be much larger as PNG than the screenshot
# of an empty page. No image library is needed: a flat white 1200x1600 PNG
# compresses to about 9 KB, a drawn chart to tens of KB.
# Usage: report_chromium.sh CLUSTERSIM SOURCE_DIR. Exit 77 (CTest SKIP)
# when no Chromium is installed.
set -u
bin="$1"
src="$2"
chrome=""
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome="$c"; break; fi
done
if [ -z "$chrome" ]; then
    echo "report_chromium: SKIP: no chromium on PATH (apt-get install chromium)"
    exit 77
fi
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "report_chromium: FAIL: $*"; exit 1; }

shot() { # shot HTML PNG
    "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --screenshot="$2" --window-size=1200,1600 \
        "file://$1" >/dev/null 2>&1
    [ -s "$2" ] || fail "chromium wrote no screenshot of $1"
    # PNG signature: \x89 P N G
    [ "$(head -c 4 "$2" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "$2 is not a PNG"
}
size() { wc -c < "$1" | tr -d ' '; }
only_figures() { # keeps the head and every <figure>...</figure> (they start a line)
    awk '/<figure>/{keep=1} !body||keep{print} /<body>/{body=1} /<\/figure>/{keep=0}' "$1" > "$2"
    printf '</body></html>\n' >> "$2"
    grep -q '<figure>' "$2" || fail "$1 has no <figure>"
}

printf '<!DOCTYPE html><html><body></body></html>\n' > "$work/blank.html"
shot "$work/blank.html" "$work/blank.png"
blank=$(size "$work/blank.png")

# A run page: tables and SVG bar charts drawn by clustersim itself.
"$bin" report -o "$work" run "$src/scenarios/default.yaml" 2>/dev/null || fail "report run failed"
mv "$work/report.html" "$work/run.html"
grep -q '<svg' "$work/run.html" || fail "run page has no inline SVG"
if grep -Eqi '(src|href)="(https?:)?//' "$work/run.html"; then fail "run page loads an external resource"; fi
only_figures "$work/run.html" "$work/run_fig.html"
shot "$work/run.html" "$work/run.png"
shot "$work/run_fig.html" "$work/run_fig.png"
run=$(size "$work/run.png"); fig=$(size "$work/run_fig.png")
echo "report_chromium: PNG bytes: blank $blank, run page $run, its figures alone $fig"
[ "$run" -gt $((blank * 5)) ] || fail "run page screenshot ($run B) looks blank (empty page: $blank B)"
[ "$fig" -gt $((blank * 3 / 2)) ] || fail "run figures look blank ($fig B vs empty page $blank B)"

# A sweep page: gnuplot SVG figures inlined (only when gnuplot is there).
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" sweep -q -j 2 -o "$work/sweep" "$src/tests/data/sweep/grid.yaml" 2>/dev/null ||
        fail "sweep failed"
    "$bin" report -o "$work" sweep "$work/sweep" 2>/dev/null || fail "report sweep failed"
    mv "$work/report.html" "$work/sweep.html"
    grep -q '<svg' "$work/sweep.html" || fail "sweep page has no inline SVG"
    only_figures "$work/sweep.html" "$work/sweep_fig.html"
    shot "$work/sweep.html" "$work/sweep.png"
    shot "$work/sweep_fig.html" "$work/sweep_fig.png"
    sw=$(size "$work/sweep.png"); swf=$(size "$work/sweep_fig.png")
    echo "report_chromium: PNG bytes: sweep page $sw, its figures alone $swf"
    [ "$sw" -gt $((blank * 5)) ] || fail "sweep page screenshot ($sw B) looks blank"
    [ "$swf" -gt $((blank * 2)) ] || fail "sweep figures look blank ($swf B vs empty page $blank B)"
else
    echo "report_chromium: no gnuplot: sweep page figures not checked"
fi
echo "report_chromium: ok"

#!/usr/bin/env bash
# report_chromium.sh: renders `clustersim report` pages in headless Chromium
# and checks that the screenshots are not blank and that the figures show:
# the page's screenshot, and that of the page cut down to its <figure>
# elements (the inline SVG), must be much larger as PNG than the screenshot
# of an empty page. No image library is needed: a flat white 1200x1600 PNG
# compresses to about 9 KB, a drawn chart to tens of KB.
# Then every kind of page (run, compare, tco, plan, replay, sweep) is
# checked by tests/report_check.py at an A4 width (794 px): it renders,
# nothing overflows, every figure of the summary paragraph equals the value
# at its data-json path in the command's own --format json output, and the
# inputs' SHA-256 (python's hashlib), the date and the version are on the
# page; --pdf writes a PDF; SOURCE_DATE_EPOCH sets the date.
# Usage: report_chromium.sh CLUSTERSIM SOURCE_DIR. Exit 77 (CTest SKIP)
# when no Chromium is installed, except under CI (CI=true), where that is a
# failure: CI installs it (make deps-extra).
set -u
bin="$1"
src="$2"
chrome=""
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chrome="$c"; break; fi
done
if [ -z "$chrome" ]; then
    if [ "${CI:-}" = true ]; then
        echo "report_chromium: FAIL: no chromium on PATH under CI (make deps-extra installs it)"
        exit 1
    fi
    echo "report_chromium: SKIP: no chromium on PATH (apt-get install chromium, or make deps-extra)"
    exit 77
fi
chrome=$(command -v "$chrome")
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
# Every kind of page, against its command's JSON.
check="$src/tests/report_check.py"
date=2026-12-01
version=$("$bin" --version | sed -n '1s/^clustersim //p')
[ -n "$version" ] || fail "no version from --version"
page() { # page NAME REPORT-ARGS... : writes $work/NAME.html
    local name=$1; shift
    "$bin" report --date "$date" -o "$work/$name" "$@" 2>"$work/$name.err" ||
        { cat "$work/$name.err"; fail "report $* failed"; }
    mv "$work/$name/report.html" "$work/$name.html"
}
verify() { # verify NAME report_check-ARGS...
    local name=$1; shift
    python3 "$check" "$chrome" "$work/$name.html" --date "$date" --version "$version" "$@" ||
        fail "$name page"
}
D=$src/scenarios/default.yaml
page run run "$D"
"$bin" run --format json "$D" > "$work/run.json" 2>/dev/null || fail "run --format json"
verify run --json "$work/run.json" --sha "$D"

M=$src/scenarios/moe
M=$(ls "$M"/*.yaml | head -1)
page compare compare "$D" "$M"
"$bin" run --format json "$M" > "$work/moe.json" 2>/dev/null || fail "run --format json $M"
verify compare --json "$work/run.json" --json "$work/moe.json" --sha "$D" --sha "$M"

page tco tco "$D"
"$bin" tco --format json "$D" > "$work/tco.json" 2>/dev/null || fail "tco --format json"
verify tco --json "$work/tco.json" --sha "$D"
grep -q 'Total cost against utilization' "$work/tco.html" || fail "tco page: no cost-against-utilization figure"
grep -q 'Sensitivity of the' "$work/tco.html" || fail "tco page: no tornado"
grep -q 'Assumptions and defaults' "$work/tco.html" || fail "tco page: no assumptions"
# --uncertainty is passed to tco: the Monte Carlo tornado appears
page tcou tco --uncertainty "$D"
"$bin" tco --uncertainty --format json "$D" > "$work/tcou.json" 2>/dev/null || fail "tco --uncertainty"
verify tcou --json "$work/tcou.json" --sha "$D"
grep -q 'Uncertainty tornado' "$work/tcou.html" || fail "tco --uncertainty page: no uncertainty tornado"

P=$src/tests/data/plan-small.yaml
page plan plan "$P"
"$bin" plan --format json "$P" > "$work/plan.json" 2>/dev/null || fail "plan --format json"
verify plan --json "$work/plan.json" --sha "$P"
grep -q 'Pareto front:' "$work/plan.html" || fail "plan page: no Pareto front figure"

T=$src/validation/traces/microsoft-itp-2021/cluster01.csv.gz
C=$src/scenarios/replay-1024.yaml
page replay replay "$T" --cluster "$C" --set cluster.nodes=8 --policy backfill
"$bin" replay "$T" --cluster "$C" --set cluster.nodes=8 --policy backfill --format json \
    > "$work/replay.json" 2>/dev/null || fail "replay --format json"
verify replay --json "$work/replay.json" --sha "$T" --sha "$C"

if [ -d "$work/sweep" ]; then
    "$bin" report --date "$date" -o "$work" sweep "$work/sweep" 2>/dev/null || fail "report sweep"
    mv "$work/report.html" "$work/sweep2.html"
    verify sweep2 --sha "$work/sweep/sweep.json" --sha "$work/sweep/results.jsonl"
    grep -q 'The highest throughput per GPU is' "$work/sweep2.html" || fail "sweep page: no summary of its points"
fi

# An option of another command is refused, naming it.
if "$bin" report tco --policy fifo "$D" >/dev/null 2>"$work/err"; then fail "report tco --policy accepted"; fi
grep -q -- '--policy is not an option of `clustersim tco`' "$work/err" || fail "report tco --policy: $(cat "$work/err")"

# SOURCE_DATE_EPOCH: 1764547200 s = 2025-12-01 00:00:00 UTC.
SOURCE_DATE_EPOCH=1764547200 "$bin" report run "$D" 2>/dev/null | grep -q '2025-12-01 00:00 UTC' ||
    fail "SOURCE_DATE_EPOCH=1764547200 did not date the page 2025-12-01 00:00 UTC"
for bad in 2026-13-01 2026-02-30 2026-12-01T25:00Z 2026-12-01Tnoon 2026-12-01x; do
    if "$bin" report --date "$bad" run "$D" >/dev/null 2>&1; then fail "--date $bad accepted"; fi
done
"$bin" report --date 2026-12-01T09:30:15Z run "$D" 2>/dev/null | grep -q '2026-12-01 09:30 UTC' ||
    fail "--date 2026-12-01T09:30:15Z not printed as 2026-12-01 09:30 UTC"
# Same inputs and date: the same page, byte for byte.
"$bin" report --date "$date" tco "$D" > "$work/tco_again.html" 2>/dev/null || fail "report tco again"
cmp -s "$work/tco.html" "$work/tco_again.html" || fail "report tco is not reproducible with a fixed --date"

# --pdf through Chromium: a PDF, with nothing on standard output.
"$bin" report --date "$date" --pdf "$work/tco.pdf" tco "$D" >"$work/pdf.out" 2>"$work/pdf.err" ||
    { cat "$work/pdf.err"; fail "report --pdf failed"; }
[ "$(head -c 4 "$work/tco.pdf")" = "%PDF" ] || fail "--pdf wrote no PDF"
[ ! -s "$work/pdf.out" ] || fail "--pdf without -o printed the page"
pdf=$(size "$work/tco.pdf")
echo "report_chromium: tco.pdf $pdf bytes"
[ "$pdf" -gt 20000 ] || fail "tco.pdf is only $pdf bytes"
# A4 is 210 x 297 mm = 595.3 x 841.9 pt (the style sheet's @page size).
mb=$(grep -a -o '/MediaBox \[[^]]*\]' "$work/tco.pdf" | head -1)
case "$mb" in
    "/MediaBox [0 0 59"[45]"."*" 841."*"]") ;;
    *) fail "tco.pdf pages are not A4: $mb" ;;
esac
pages=$(grep -a -o '/Type /Page\b' "$work/tco.pdf" | wc -l | tr -d ' ')
echo "report_chromium: tco.pdf: $pages A4 pages"
# the page without its JSON appendix (left out of print; about 12 pages by
# itself): the tables, figures and sourced assumptions on a few pages
[ -n "$pages" ] && [ "$pages" -ge 2 ] && [ "$pages" -le 10 ] || fail "tco.pdf has ${pages:-no} pages (2 to 10 expected)"
# without a browser: a clear error, exit 1
if CLUSTERSIM_CHROMIUM=/nonexistent "$bin" report --pdf "$work/x.pdf" run "$D" >/dev/null 2>"$work/err"; then
    fail "--pdf without Chromium succeeded"
fi
grep -q 'no Chromium found' "$work/err" || fail "--pdf without Chromium: $(cat "$work/err")"

echo "report_chromium: ok"

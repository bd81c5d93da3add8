#!/usr/bin/env bash
# portable.sh: the repository stands alone. No tracked source, script,
# scenario or build file names a path outside the repository (a sibling folder, an
# absolute /work, /home or /root path); every data file that validation/INDEX.yaml
# lists exists; and a test whose data file is missing fails, naming it,
# instead of passing. Usage: tests/portable.sh SOURCE_DIR BUILD_DIR
set -u
. "$(dirname "$0")/testlib.sh"
src="$1"
build="$2"

# 1. No path outside the repository (Markdown included: a doc that sends a
#    user to a sibling folder sends them nowhere). validation/ quotes its sources'
#    own text verbatim and is left out of the scan.
hits=$(cd "$src" && grep -rIn -E '\.\./shared|/work/|/home/[a-z]|/root/' \
        --include='*.c' --include='*.h' --include='*.sh' --include='*.yaml' \
        --include='*.yml' --include='*.gp' --include='*.md' --include='*.txt' \
        --include='CMakeLists.txt' --include='Makefile' \
        --exclude-dir=validation --exclude-dir='build*' --exclude-dir=.git . .ci 2>/dev/null |
       grep -v '^./tests/portable.sh:')
if [ -z "$hits" ]; then ok; else ko "paths outside the repository:"; printf '%s\n' "$hits" | head -20; fi

# 2. Every table INDEX.yaml lists is in the repository.
n=0
while IFS= read -r f; do
    n=$((n + 1))
    if [ -r "$src/validation/$f" ]; then ok; else ko "validation/INDEX.yaml lists $f, which is missing"; fi
done < <(sed -n 's/.*{file: *\([^,]*\),.*/\1/p' "$src/validation/INDEX.yaml")
if [ "$n" -ge 10 ]; then ok; else ko "validation/INDEX.yaml lists only $n tables"; fi

# 3. A suite run against a tree without its data fails and names the file.
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
for suite in failure collective trace step; do
    exe="$build/tests/check_$suite"
    if [ ! -x "$exe" ]; then ko "$exe not built"; continue; fi
    out=$(CS_SOURCE_DIR="$empty" CK_DEFAULT_TIMEOUT=60 "$exe" 2>&1)
    rc=$?
    if [ "$rc" -ne 0 ]; then ok; else ko "check_$suite passed without its data"; fi
    if printf '%s' "$out" | grep -q "data file missing or unreadable: "; then ok
    else ko "check_$suite: no message naming the missing file"; printf '%s\n' "$out" | tail -3; fi
done

finish portable

#!/usr/bin/env bash
# bench-cli.sh — whole-tree speed of `collvet` against pyflakes and against
# CPython merely running ast.parse over the same files, in one run.
#
# Usage: scripts/bench-cli.sh [TREE] [RUNS]
#   TREE  a Python source tree (default: the installed torch package)
#   RUNS  runs per tool, >= 3 (default 3); medians are reported
#
# Prints the median wall time of each tool and the ratios
# pyflakes/collvet and ast.parse/collvet (> 1 means collvet is faster).
set -euo pipefail

cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
TREE=${1:-$($PY -c 'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("torch").origin))')}
RUNS=${2:-3}
if [ "$RUNS" -lt 3 ]; then RUNS=3; fi
PYFLAKES=${PYFLAKES:-$(command -v pyflakes3 || command -v pyflakes || true)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/collvet" ./cmd/collvet

cat > "$work/astparse.py" <<'EOF'
import ast, os, sys, warnings
warnings.simplefilter("ignore")
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for f in sorted(files):
        if f.endswith(".py"):
            with open(os.path.join(root, f), "rb") as fh:
                src = fh.read()
            try:
                ast.parse(src)
            except (SyntaxError, ValueError):
                pass
            n += 1
print(n, "files", file=sys.stderr)
EOF

# seconds CMD...: wall time of one run (exit status ignored: linters exit 1
# when they report something).
seconds() {
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	e=$(date +%s.%N)
	echo "$s $e" | awk '{printf "%.3f\n", $2 - $1}'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

files=$(find "$TREE" -name '*.py' | wc -l)
lines=$(find "$TREE" -name '*.py' -print0 | xargs -0 cat | wc -l)
echo "tree: $TREE ($files .py files, $lines lines), $RUNS runs each, $(nproc) cores"
"$work/collvet" --no-config --stats --quiet --format json "$TREE" 2>&1 >/dev/null | head -1 | sed 's/^/collvet --stats: /' || true

c=() p=() a=()
for ((i = 0; i < RUNS; i++)); do
	c+=("$(seconds "$work/collvet" --no-config --quiet --format json "$TREE")")
	if [ -n "$PYFLAKES" ]; then p+=("$(seconds "$PYFLAKES" "$TREE")"); fi
	a+=("$(seconds "$PY" "$work/astparse.py" "$TREE")")
done
cm=$(printf '%s\n' "${c[@]}" | median)
am=$(printf '%s\n' "${a[@]}" | median)
echo "collvet   median ${cm}s  (runs: ${c[*]})"
if [ -n "$PYFLAKES" ]; then
	pm=$(printf '%s\n' "${p[@]}" | median)
	echo "pyflakes  median ${pm}s  (runs: ${p[*]})"
	echo "ratio pyflakes/collvet:  $(awk -v x="$pm" -v y="$cm" 'BEGIN{printf "%.1f", x/y}')x"
else
	echo "pyflakes: not installed"
fi
echo "ast.parse median ${am}s  (runs: ${a[*]})"
echo "ratio ast.parse/collvet: $(awk -v x="$am" -v y="$cm" 'BEGIN{printf "%.2f", x/y}')x"

#!/usr/bin/env bash
# bench-cli.sh — whole-tree speed of `collvet` against pyflakes and against
# CPython merely running ast.parse over the same files, in one run.
#
# Usage: scripts/bench-cli.sh [TREE] [RUNS]
#   TREE  a Python source tree (default: the installed torch package)
#   RUNS  runs per tool, >= 3 (default 3); medians are reported
#
# Environment: COLLVET (a prebuilt binary; default: go build), PYTHON,
# PYFLAKES.
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
if [ -n "${COLLVET:-}" ]; then
	cp "$COLLVET" "$work/collvet"
else
	go build -o "$work/collvet" ./cmd/collvet
fi

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

# measure CMD...: "wall cpu" seconds of one run, cpu = user + sys of the
# command and its children (exit status ignored: linters exit 1 when they
# report something). CPU time is printed too because the machine may be
# shared: wall time then measures the neighbours as much as the tool.
measure() {
	local TIMEFORMAT='%R %U %S' t
	t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || true
	echo "$t" | tail -1 | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

files=$(find "$TREE" -name '*.py' | wc -l)
lines=$(find "$TREE" -name '*.py' -print0 | xargs -0 cat | wc -l)
echo "tree: $TREE ($files .py files, $lines lines), $RUNS runs each, $(nproc) cores"
"$work/collvet" --no-config --stats --quiet --format json "$TREE" 2>&1 >/dev/null | head -1 | sed 's/^/collvet --stats: /' || true

cw=() cc=() pw=() pc=() aw=() ac=()
for ((i = 0; i < RUNS; i++)); do
	read -r w c < <(measure "$work/collvet" --no-config --quiet --format json "$TREE")
	cw+=("$w") cc+=("$c")
	if [ -n "$PYFLAKES" ]; then
		read -r w c < <(measure "$PYFLAKES" "$TREE")
		pw+=("$w") pc+=("$c")
	fi
	read -r w c < <(measure "$PY" "$work/astparse.py" "$TREE")
	aw+=("$w") ac+=("$c")
done
med() { printf '%s\n' "$@" | median; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN{printf "%.2f", x/y}'; }
cwm=$(med "${cw[@]}") ccm=$(med "${cc[@]}") awm=$(med "${aw[@]}") acm=$(med "${ac[@]}")
printf '%-10s wall median %8ss  cpu median %8ss  (wall runs: %s)\n' collvet "$cwm" "$ccm" "${cw[*]}"
if [ -n "$PYFLAKES" ]; then
	pwm=$(med "${pw[@]}") pcm=$(med "${pc[@]}")
	printf '%-10s wall median %8ss  cpu median %8ss  (wall runs: %s)\n' pyflakes "$pwm" "$pcm" "${pw[*]}"
fi
printf '%-10s wall median %8ss  cpu median %8ss  (wall runs: %s)\n' ast.parse "$awm" "$acm" "${aw[*]}"
if [ -n "$PYFLAKES" ]; then
	echo "pyflakes / collvet:  wall $(ratio "$pwm" "$cwm")x  cpu $(ratio "$pcm" "$ccm")x"
else
	echo "pyflakes: not installed"
fi
echo "ast.parse / collvet: wall $(ratio "$awm" "$cwm")x  cpu $(ratio "$acm" "$ccm")x"

#!/usr/bin/env bash
# bench-scale.sh — how the whole analysis grows with the size of the tree:
# wall time, CPU time and peak memory of `collvet` on several trees, with
# microseconds per source line, so that superlinear behaviour shows up as
# a rising per-line figure.
#
# Usage: scripts/bench-scale.sh [RUNS] [TREE...]
#   RUNS  runs per tree (default 3); medians are reported
#   TREE  source trees (default: numpy, pip, torch and sympy from Debian's
#         dist-packages, then the whole dist-packages directory; missing
#         ones are skipped)
#
# Environment: COLLVET (a prebuilt binary; default: go build).
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${1:-3}
shift || true
DP=/usr/lib/python3/dist-packages
TREES=("$@")
if [ ${#TREES[@]} -eq 0 ]; then
	TREES=("$DP/numpy" "$DP/pip" "$DP/torch" "$DP/sympy" "$DP")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${COLLVET:-}" ]; then
	cp "$COLLVET" "$work/collvet"
else
	go build -o "$work/collvet" ./cmd/collvet
fi

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-45s %10s %8s %8s %8s %9s\n' tree lines wall cpu "peak MB" "µs/line"
for tree in "${TREES[@]}"; do
	[ -d "$tree" ] || continue
	# --stats goes to stderr; exit status 1 (findings) is expected.
	lines=$({ "$work/collvet" --no-config --stats --quiet "$tree" 2>&1 >/dev/null || true; } | sed -n 's/.*lines: \([0-9]*\).*/\1/p' | head -1) 
	walls=() cpus=() mems=()
	for ((i = 0; i < RUNS; i++)); do
		# Exit status 1 (findings) is expected.
		/usr/bin/time -o "$work/t" -f '%e %U %S %M' "$work/collvet" --no-config --quiet "$tree" >/dev/null 2>&1 || true
		read -r w u s m < <(tail -1 "$work/t")
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}')")
		mems+=("$((m / 1024))")
	done
	w=$(printf '%s\n' "${walls[@]}" | median)
	c=$(printf '%s\n' "${cpus[@]}" | median)
	m=$(printf '%s\n' "${mems[@]}" | median)
	per=$(awk -v w="$w" -v n="$lines" 'BEGIN{ if (n > 0) printf "%.1f", w * 1e6 / n; else print "-" }')
	printf '%-45s %10s %7ss %7ss %8s %9s\n' "$tree" "$lines" "$w" "$c" "$m" "$per"
done

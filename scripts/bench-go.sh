#!/usr/bin/env bash
# bench-go.sh — speed of collvet's Go front end against go vet on the same
# packages, in one run.
#
# Usage: scripts/bench-go.sh [MODULE_DIR] [PATTERN] [RUNS]
#   MODULE_DIR  a Go module (default: golang.org/x/tools@v0.52.0 from the
#               module cache)
#   PATTERN     packages (default ./...)
#   RUNS        runs per tool, >= 3 (default 3); medians are reported
#
# Three timings, interleaved run by run:
#   vet      go vet PATTERN                    (the standard vet suite)
#   vettool  go vet -vettool=collvet PATTERN   (collvet's analyzer, same driver)
#   cli      the CLI's Go loader (analyzers/load: go/packages + checker +
#            rules) over the same PATTERN
# go vet caches its results per package; each run gets a fresh tool
# identity through a wrapper that answers -V=full with a nonce, so every
# package (and every dependency's facts) is analysed again while compiled
# export data stays cached, as in an incremental build. Prints medians of
# wall time and of CPU time (user+sys of the command and its children, the
# steadier measure on a shared machine) and the ratios vettool/vet and
# cli/vet (< 1 means collvet is faster).
set -euo pipefail

cd "$(dirname "$0")/.."
MOD=${1:-$(go env GOMODCACHE)/golang.org/x/tools@v0.52.0}
PATTERN=${2:-./...}
RUNS=${3:-3}
if [ "$RUNS" -lt 3 ]; then RUNS=3; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/collvet" ./cmd/collvet
go build -o "$work/loadbench" ./analyzers/internal/loadbench
VET=$(go env GOTOOLDIR)/vet

# wrap TOOL NAME: a vet tool whose identity changes with $NONCE.
wrap() {
	cat > "$work/$2" <<SH
#!/bin/sh
if [ "\$1" = "-V=full" ]; then echo "$2 version devel buildID=$2-\$NONCE"; exit 0; fi
exec "$1" "\$@"
SH
	chmod +x "$work/$2"
}
wrap "$VET" vet-wrapped
wrap "$work/collvet" collvet-wrapped

# Warm the build cache (export data) once, untimed.
(cd "$MOD" && go vet "$PATTERN" >/dev/null 2>&1 || true)

# timed VAR_WALL VAR_CPU CMD...: run CMD in $MOD, append wall and CPU seconds.
timed() {
	local w=$1 c=$2
	shift 2
	/usr/bin/time -f "%e %U %S" -o "$work/time" bash -c 'cd "$0" && "$@" >/dev/null 2>&1 || true' "$MOD" "$@"
	read -r e u s < "$work/time"
	eval "$w+=(\"$e\")"
	eval "$c+=(\"$(echo "$u + $s" | bc)\")"
}
declare -a W_VET C_VET W_TOOL C_TOOL W_CLI C_CLI
for i in $(seq 1 "$RUNS"); do
	export NONCE="bench-$$-$i-$(date +%s%N)"
	timed W_VET C_VET go vet -vettool="$work/vet-wrapped" "$PATTERN"
	timed W_TOOL C_TOOL go vet -vettool="$work/collvet-wrapped" "$PATTERN"
	timed W_CLI C_CLI "$work/loadbench" "$PATTERN"
	echo "run $i: wall/cpu  vet ${W_VET[-1]}/${C_VET[-1]}s  vettool ${W_TOOL[-1]}/${C_TOOL[-1]}s  cli ${W_CLI[-1]}/${C_CLI[-1]}s"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "module: $MOD  pattern: $PATTERN  packages: $(cd "$MOD" && go list "$PATTERN" 2>/dev/null | wc -l)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for m in W C; do
	[ $m = W ] && what=wall || what=cpu
	eval 'v=$(median "${'$m'_VET[@]}"); t=$(median "${'$m'_TOOL[@]}"); c=$(median "${'$m'_CLI[@]}")'
	printf 'median %-4s go vet: %7.2fs   go vet -vettool=collvet: %7.2fs (ratio %.2f)   collvet CLI loader: %7.2fs (ratio %.2f)\n' \
		"$what" "$v" "$t" "$(echo "$t / $v" | bc -l)" "$c" "$(echo "$c / $v" | bc -l)"
done

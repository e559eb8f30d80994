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
# export data stays cached, as in an incremental build. Prints medians and
# the ratios vettool/vet and cli/vet (< 1 means collvet is faster).
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

now() { date +%s.%N; }
declare -a T_VET T_TOOL T_CLI
for i in $(seq 1 "$RUNS"); do
	export NONCE="bench-$$-$i-$(date +%s%N)"
	s=$(now); (cd "$MOD" && go vet -vettool="$work/vet-wrapped" "$PATTERN" >/dev/null 2>&1 || true); e=$(now)
	T_VET+=("$(echo "$e - $s" | bc)")
	s=$(now); (cd "$MOD" && go vet -vettool="$work/collvet-wrapped" "$PATTERN" >/dev/null 2>&1 || true); e=$(now)
	T_TOOL+=("$(echo "$e - $s" | bc)")
	s=$(now); (cd "$MOD" && "$work/loadbench" "$PATTERN" >"$work/cli.out" 2>&1 || true); e=$(now)
	T_CLI+=("$(echo "$e - $s" | bc)")
	echo "run $i: vet ${T_VET[-1]}s  vettool ${T_TOOL[-1]}s  cli ${T_CLI[-1]}s  ($(head -1 "$work/cli.out"))"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mv=$(median "${T_VET[@]}"); mt=$(median "${T_TOOL[@]}"); mc=$(median "${T_CLI[@]}")
echo "module: $MOD  pattern: $PATTERN  packages: $(cd "$MOD" && go list "$PATTERN" 2>/dev/null | wc -l)"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'median go vet:                  %6.2fs\n' "$mv"
printf 'median go vet -vettool=collvet: %6.2fs  ratio %.2f\n' "$mt" "$(echo "$mt / $mv" | bc -l)"
printf 'median collvet CLI Go loader:   %6.2fs  ratio %.2f\n' "$mc" "$(echo "$mc / $mv" | bc -l)"

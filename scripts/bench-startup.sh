#!/usr/bin/env bash
# bench-startup.sh — what one small run costs: collvet on a single file
# (start-up, tables, parse, model, rules, output) against pyflakes on the
# same file, runs interleaved.
#
# Usage: scripts/bench-startup.sh [FILE] [RUNS]
#   FILE  a Python file (default: examples/pair_exchange.py)
#   RUNS  runs per tool (default 21); medians are reported
#
# Environment: COLLVET (a prebuilt binary; default: go build), PYTHON
# (default python3; Debian's /usr/bin/python3 is the reference).
set -euo pipefail

cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
FILE=${1:-examples/pair_exchange.py}
RUNS=${2:-21}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${COLLVET:-}" ]; then
	cp "$COLLVET" "$work/collvet"
else
	go build -o "$work/collvet" ./cmd/collvet
fi
"$PY" - "$work/collvet" "$FILE" "$RUNS" <<'PYEOF'
import statistics, subprocess, sys, time
collvet, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
tools = {
    "collvet": [collvet, "--no-config", path],
    "collvet version": [collvet, "version"],
    "pyflakes": [sys.executable, "-m", "pyflakes", path],
}
times = {k: [] for k in tools}
for _ in range(runs):
    for name, cmd in tools.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - t)
med = {k: statistics.median(v) * 1000 for k, v in times.items()}
print(f"file: {path}, {runs} runs each, interleaved")
for k, v in med.items():
    print(f"{k:16s} median {v:7.1f} ms")
print(f"pyflakes / collvet: {med['pyflakes'] / med['collvet']:.2f}x")
PYEOF

#!/usr/bin/env bash
# Parser throughput: `collvet debug parse` against CPython's ast.parse over
# the same files (the reference interpreter's standard library and, when
# installed, Debian's torch sources), in one run. Prints per-run seconds,
# medians, MB/s, lines/s, the speed ratio, and peak RSS with every tree held.
#
# Usage: pyfront/testdata/bench_parse.sh [RUNS] [ROOT...]
set -euo pipefail
cd "$(dirname "$0")/../.."

PY=${PYTHON:-/usr/bin/python3}
RUNS=${1:-5}
shift || true
if [ $# -gt 0 ]; then
  ROOTS=("$@")
else
  ROOTS=("$("$PY" -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')")
  [ -d /usr/lib/python3/dist-packages/torch ] && ROOTS+=(/usr/lib/python3/dist-packages/torch)
fi

BIN=$(mktemp -d)/collvet
trap 'rm -rf "$(dirname "$BIN")"' EXIT
go build -o "$BIN" ./cmd/collvet

PYBENCH=$(dirname "$BIN")/bench.py
cat >"$PYBENCH" <<'PYEOF'
import ast, os, sys, time, warnings
warnings.simplefilter("ignore")
files = []
for root in sys.argv[1:]:
    for d, _, fs in os.walk(root):
        files += [os.path.join(d, f) for f in fs if f.endswith(".py")]
t = time.perf_counter()
c = time.process_time()
for f in files:
    try:
        with open(f, "rb") as fh:
            ast.parse(fh.read())
    except (SyntaxError, ValueError):
        pass
print("%.3f %.3f" % (time.perf_counter() - t, time.process_time() - c))
PYEOF

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Each run records wall and CPU seconds; runs of the three are interleaved
# so that load from other processes hits them alike.
go1=() go1c=() go2=() py=() pyc=()
for ((i = 0; i < RUNS; i++)); do
  out=$(GOMAXPROCS=1 "$BIN" debug parse "${ROOTS[@]}")
  go1+=("$(awk '$1=="seconds"{print $2}' <<<"$out")")
  go1c+=("$(awk '$1=="cpu_seconds"{print $2}' <<<"$out")")
  go2+=("$("$BIN" debug parse "${ROOTS[@]}" | awk '$1=="seconds"{print $2}')")
  # CPython: read and parse every file, the same work as debug parse.
  read -r w c < <("$PY" "$PYBENCH" "${ROOTS[@]}")
  py+=("$w")
  pyc+=("$c")
done

stats=$("$BIN" debug parse "${ROOTS[@]}")
bytes=$(awk '$1=="bytes"{print $2}' <<<"$stats")
lines=$(awk '$1=="lines"{print $2}' <<<"$stats")
files=$(awk '$1=="files"{print $2}' <<<"$stats")
m1=$(printf '%s\n' "${go1[@]}" | median)
m2=$(printf '%s\n' "${go2[@]}" | median)
mp=$(printf '%s\n' "${py[@]}" | median)
m1c=$(printf '%s\n' "${go1c[@]}" | median)
mpc=$(printf '%s\n' "${pyc[@]}" | median)

echo "corpus: ${ROOTS[*]}"
echo "files $files, bytes $bytes, lines $lines, runs $RUNS, $(nproc) cores"
echo "go GOMAXPROCS=1 seconds: ${go1[*]}"
echo "go all cores    seconds: ${go2[*]}"
echo "cpython ast.parse seconds: ${py[*]}"
echo "go GOMAXPROCS=1 cpu seconds: ${go1c[*]}"
echo "cpython cpu seconds: ${pyc[*]}"
awk -v b="$bytes" -v l="$lines" -v m1="$m1" -v m2="$m2" -v mp="$mp" -v m1c="$m1c" -v mpc="$mpc" 'BEGIN {
  printf "median go 1 core:   %.3f s  %.1f MB/s  %.0f lines/s\n", m1, b/1e6/m1, l/m1
  printf "median go all cores: %.3f s  %.1f MB/s  %.0f lines/s\n", m2, b/1e6/m2, l/m2
  printf "median cpython:     %.3f s  %.1f MB/s  %.0f lines/s\n", mp, b/1e6/mp, l/mp
  printf "ratio (cpython / go 1 core): %.2fx\n", mp/m1
  printf "ratio (cpython / go all cores): %.2fx\n", mp/m2
  printf "median cpu seconds: go 1 core %.3f, cpython %.3f, ratio %.2fx\n", m1c, mpc, mpc/m1c
}'
if [ -x /usr/bin/time ]; then
  rss=$( { /usr/bin/time -v "$BIN" debug parse --hold "${ROOTS[@]}" >/dev/null; } 2>&1 | awk -F: '/Maximum resident set size/{gsub(/ /,"",$2); print $2}')
  echo "peak RSS, all trees held: $((rss / 1024)) MiB"
fi

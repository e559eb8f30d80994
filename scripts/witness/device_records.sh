#!/bin/bash
# Guard records of every witness fixture on the device machine, for the
# static comparison (go test -run TestWitnessRecords, WITNESS_RECORDS=DIR):
# NCCL world size 1 on the GPU, and gloo world size 2 on CPU, with the
# machine's PyTorch. Everything lands in $OUT/records.tgz (one file).
set -u
OUT=${OUT:-witness-out}
PY=${PYTHON:-python3}
export NCCL_NVLS_ENABLE=0
mkdir -p "$OUT"
work=$(mktemp -d)
{
	echo "== nccl, world size 1"
	timeout 280 $PY scripts/witness/hangrate.py --backend nccl --world-size 1 --runs 1 --iters 3 --timeout 40 \
		--fixtures all --variants warn --no-race --keep-logs --out "$work/nccl-ws1"
	echo "exit $?"
	echo "== gloo, world size 2"
	timeout 280 $PY scripts/witness/hangrate.py --backend gloo --world-size 2 --runs 1 --iters 3 --timeout 40 \
		--fixtures all --variants warn --no-race --keep-logs --out "$work/gloo-ws2"
	echo "exit $?"
} >"$work/summary.log" 2>&1
tar -czf "$OUT/records.tgz" -C "$work" .
grep -E '^(\||==|exit|backend)' "$work/summary.log"

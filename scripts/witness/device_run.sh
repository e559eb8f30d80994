#!/bin/bash
# The CUDA observations of WITNESS.md, on one GPU, in one go; results under
# $OUT (default ./witness-out). Run from the repository root.
set -u
OUT=${OUT:-witness-out}
PY=${PYTHON:-python3}
export NCCL_NVLS_ENABLE=0
mkdir -p "$OUT"
{
	echo "== environment"
	date -u
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -4
	$PY -c 'import sys, torch; print(sys.version.split()[0], torch.__version__, torch.version.cuda, torch.cuda.nccl.version() if torch.cuda.is_available() else None)'
	for s in hooks async_save serialize_cost; do
		echo "== cuda_threads.py $s"
		timeout 150 $PY scripts/witness/cuda_threads.py "$s" "$OUT/$s.json" >"$OUT/$s.log" 2>&1
		echo "exit $?"
	done
	echo "== hangrate.py dry run: every fixture, world size 1, guard warn and serialize"
	timeout 330 $PY scripts/witness/hangrate.py --backend "${BACKEND:-nccl}" --world-size 1 --runs 1 --iters 20 \
		--timeout 45 --fixtures all --variants warn,serialize --keep-logs --out "$OUT/hangrate" >"$OUT/hangrate.log" 2>&1
	echo "exit $?"
	echo "== hangrate.py dry run: NCCL_LAUNCH_ORDER_IMPLICIT=1"
	timeout 60 $PY scripts/witness/hangrate.py --backend "${BACKEND:-nccl}" --world-size 1 --runs 1 --iters 20 \
		--timeout 30 --fixtures thread_one_group --variants implicit --out "$OUT/hangrate-implicit" >"$OUT/hangrate-implicit.log" 2>&1
	echo "exit $?"
	date -u
} 2>&1 | tee "$OUT/summary.log"

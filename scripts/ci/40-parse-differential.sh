#!/usr/bin/env bash
# Parser differential test: mutants of PyTorch's sources (a token deleted,
# replaced or doubled), each judged by CPython's ast.parse and by collvet;
# any disagreement fails (scripts/parse-differential.py prints them).
# The seed is fixed so CI is repeatable; COLLVET_DIFF_SEED=N tries others.
set -euo pipefail
cd "$(dirname "$0")/../.."
tree=/usr/lib/python3/dist-packages/torch
if [ ! -d "$tree" ]; then
	echo "parse-differential: SKIP ($tree missing)"
	exit 0
fi
/usr/bin/python3 scripts/parse-differential.py --seed "${COLLVET_DIFF_SEED:-1}" --files 150 --collvet bin/collvet "$tree"
echo "parse-differential: ok"

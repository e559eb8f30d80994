#!/usr/bin/env python3
"""Score the PyCG-shaped call graph export against expected call graphs.

Usage: scripts/pycg-eval.py BINARY DIR [-q]

DIR holds one folder per category and, in it, one folder per case with
the case's Python files and its expected callgraph.json. Each case folder
is analysed on its own (`BINARY debug callgraph --format=pycg CASE`);
edges are compared as PyCG's evaluation does: precision and recall over
all edges of all cases, printed per category and in total. Unless -q is
given, every case with missing or extra edges is listed.
"""
import collections
import json
import os
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if a != "-q"]
    if len(args) != 2:
        sys.exit(__doc__)
    binary, root = args
    verbose = "-q" not in sys.argv
    cats = collections.defaultdict(lambda: [0, 0, 0])
    total = [0, 0, 0]
    ncases = 0
    for cat in sorted(os.listdir(root)):
        catdir = os.path.join(root, cat)
        if not os.path.isdir(catdir):
            continue
        for case in sorted(os.listdir(catdir)):
            d = os.path.join(catdir, case)
            want_path = os.path.join(d, "callgraph.json")
            if not os.path.isfile(want_path):
                continue
            with open(want_path) as f:
                want = json.load(f)
            p = subprocess.run([binary, "debug", "callgraph", "--format=pycg", d],
                               capture_output=True, text=True)
            try:
                got = json.loads(p.stdout)
            except ValueError:
                print(f"{cat}/{case}: no output: {p.stderr.strip()[:300]}")
                got = {}
            we = {(k, v) for k, vs in want.items() for v in vs}
            ge = {(k, v) for k, vs in got.items() for v in vs}
            tp, fp, fn = len(we & ge), len(ge - we), len(we - ge)
            ncases += 1
            for acc in (cats[cat], total):
                acc[0] += tp
                acc[1] += fp
                acc[2] += fn
            if verbose and (fp or fn):
                print(f"{cat}/{case}:")
                for a, b in sorted(we - ge):
                    print(f"   missing {a} -> {b}")
                for a, b in sorted(ge - we):
                    print(f"   extra   {a} -> {b}")

    def ratio(a, b):
        return a / b if b else 1.0

    for cat, (tp, fp, fn) in sorted(cats.items()):
        print(f"{cat:14s} P {ratio(tp, tp + fp):.3f} R {ratio(tp, tp + fn):.3f}  (tp {tp} fp {fp} fn {fn})")
    tp, fp, fn = total
    print(f"TOTAL {ncases} cases  P {ratio(tp, tp + fp):.4f} R {ratio(tp, tp + fn):.4f}  (tp {tp} fp {fp} fn {fn})")


if __name__ == "__main__":
    main()

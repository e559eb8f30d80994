#!/usr/bin/env python3
"""Differential test of collvet's parser against CPython's, on mutants.

Takes N random .py files of a tree, makes mutants of each (one token
deleted, replaced by another token of the file, or doubled), asks CPython
(ast.parse) whether each mutant is valid, runs collvet on all of them, and
counts the mutants where the two disagree: CPython rejects and collvet
reports no CV000 syntax error, or the reverse.

    scripts/parse-differential.py [--seed S] [--files N] [--collvet BIN] TREE

Exit status 1 when any mutant disagrees (their paths are printed).
"""
import argparse
import ast
import glob
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import tokenize

SKIP = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER, tokenize.COMMENT)


def mutants(path, rng, per_file):
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
        toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (OSError, UnicodeDecodeError, SyntaxError, tokenize.TokenError):
        return
    lines = src.splitlines(keepends=True)
    for _ in range(per_file):
        t = rng.choice(toks)
        if t.type in SKIP or t.start[0] != t.end[0]:
            continue
        (r, c), (_, ec) = t.start, t.end
        line = lines[r - 1]
        mode = rng.random()
        if mode < 0.6:
            new = line[:c] + line[ec:]
        elif mode < 0.8:
            other = rng.choice(toks)
            if other.start[0] != other.end[0]:
                continue
            new = line[:c] + other.string + line[ec:]
        else:
            new = line[:c] + t.string + " " + line[c:]
        yield "".join(lines[: r - 1] + [new] + lines[r:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tree")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", type=int, default=300)
    ap.add_argument("--per-file", type=int, default=10)
    ap.add_argument("--collvet", default="collvet")
    ap.add_argument("--keep", help="write the disagreeing mutants to this directory")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    files = sorted(glob.glob(os.path.join(args.tree, "**", "*.py"), recursive=True))
    rng.shuffle(files)
    with tempfile.TemporaryDirectory() as out:
        valid = {}
        n = 0
        for f in files[: args.files]:
            for m in mutants(f, rng, args.per_file):
                try:
                    ast.parse(m)
                    ok = True
                except SyntaxError:
                    ok = False
                except (ValueError, RecursionError, MemoryError):
                    continue
                n += 1
                p = os.path.join(out, f"m{n:05d}.py")
                with open(p, "w", encoding="utf-8") as fh:
                    fh.write(m)
                valid[p] = ok
        run = subprocess.run([args.collvet, "--no-config", "--format", "json", out], capture_output=True, text=True)
        if run.returncode == 2:
            sys.exit("collvet failed: " + run.stderr)
        rejected = {d["path"] for d in json.loads(run.stdout)["diagnostics"] if d["rule"] == "CV000"}
        accepts = sorted(p for p, ok in valid.items() if not ok and p not in rejected)
        rejects = sorted(p for p, ok in valid.items() if ok and p in rejected)
        print(f"mutants {n} (CPython rejects {sum(not v for v in valid.values())}): "
              f"collvet accepts {len(accepts)} that CPython rejects, rejects {len(rejects)} that CPython accepts")
        said = {}
        for d in json.loads(run.stdout)["diagnostics"]:
            if d["rule"] == "CV000":
                said.setdefault(d["path"], f'{d["line"]}:{d["column"]}: {d["message"]}')
        for p in accepts + rejects:
            print("---", os.path.basename(p), "CPython:", "valid" if valid[p] else "invalid", "collvet:", said.get(p, "no error"))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                with open(p, encoding="utf-8") as src, open(os.path.join(args.keep, os.path.basename(p)), "w", encoding="utf-8") as dst:
                    dst.write(src.read())
        sys.exit(1 if accepts or rejects else 0)


if __name__ == "__main__":
    main()

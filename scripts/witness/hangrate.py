"""Hang rate of the witness fixtures under real concurrency (issue 9).

Runs each positive thread fixture (one group from two threads; a background
thread on one group and the main thread on another; collectives in a
backward hook while the main thread communicates; two groups used in
different orders) and each safe fixture N times as WORLD ranks, with the
threads racing (WITNESS_RACE=1, WITNESS_ITERS collectives per thread), a
per-run timeout, and writes a table of outcomes:

  ok     every rank exited 0 with correct results
  hang   a rank hit the timeout (stacks of every thread in the run's log)
  wrong  a collective returned another call site's data (paired across sites)
  error  anything else (the log says what)

Variants (--variants, comma-separated):
  baseline   no guard
  implicit   NCCL_LAUNCH_ORDER_IMPLICIT=1 (NCCL >= 2.26)
  serialize  collvet_guard in serialize mode (sync after each collective)
  warn       collvet_guard in warn mode (its bookkeeping only)

Examples:
  python3 scripts/witness/hangrate.py --backend nccl --world-size 2 --runs 50
  python3 scripts/witness/hangrate.py --backend gloo --runs 2 --iters 5   # dry run on CPU

NCCL runs set NCCL_NVLS_ENABLE=0. Each rank uses GPU LOCAL_RANK = rank.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WITNESS = os.path.join(ROOT, "testdata", "witness")
LAUNCH = os.path.join(WITNESS, "harness", "launch.py")
GUARD_DIR = os.path.join(ROOT, "cmd", "collvet", "internal", "guard")

POSITIVE = ["thread_one_group", "two_groups_two_threads", "backward_hook", "two_groups_order"]
SAFE = ["safe_thread_joined", "safe_own_gloo_group", "safe_single_thread", "safe_hook_single_thread"]
VARIANTS = {
    "baseline": ({}, "off"),
    "implicit": ({"NCCL_LAUNCH_ORDER_IMPLICIT": "1"}, "off"),
    "serialize": ({}, "serialize"),
    "warn": ({}, "warn"),
}
HANG_EXIT = 124


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def one_run(args, fixture, variant, run, logdir):
    extra, mode = VARIANTS[variant]
    port = free_port()
    procs = []
    logs = []
    for rank in range(args.world_size):
        env = dict(os.environ)
        env.update(extra)
        env.update(
            {
                "RANK": str(rank),
                "LOCAL_RANK": str(rank),
                "WORLD_SIZE": str(args.world_size),
                "WITNESS_INIT": "tcp://127.0.0.1:%d" % port,
                "WITNESS_BACKEND": args.backend,
                "WITNESS_RACE": "0" if args.no_race else "1",
                "WITNESS_ITERS": str(args.iters),
                "WITNESS_GUARD_DIR": GUARD_DIR,
                "WITNESS_GUARD_MODE": mode,
                "WITNESS_TIMEOUT": str(args.timeout),
                "NCCL_NVLS_ENABLE": "0",
                "PYTHONWARNINGS": "ignore::UserWarning",
            }
        )
        if mode != "off":
            env["WITNESS_JSON"] = os.path.join(logdir, "%s.%s.%d.rank{rank}.json" % (fixture, variant, run))
        log = os.path.join(logdir, "%s.%s.%d.rank%d.log" % (fixture, variant, run, rank))
        f = open(log, "w")
        logs.append((log, f))
        procs.append(
            subprocess.Popen(
                [args.python, LAUNCH, os.path.join(WITNESS, fixture + ".py")],
                env=env,
                stdout=f,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
        )
    t0 = time.monotonic()
    codes = []
    for p in procs:
        left = max(1.0, args.timeout + 20 - (time.monotonic() - t0))
        try:
            codes.append(p.wait(timeout=left))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            codes.append(HANG_EXIT)
    elapsed = time.monotonic() - t0
    texts = []
    for log, f in logs:
        f.close()
        with open(log, errors="replace") as g:
            texts.append(g.read())
    if all(c == 0 for c in codes):
        outcome = "ok"
    elif any(c == HANG_EXIT or "Timeout (" in t or "hung for" in t for c, t in zip(codes, texts)):
        outcome = "hang"
    elif any(c == 3 for c in codes):
        outcome = "wrong"
    else:
        outcome = "error"
    hazards = set()
    if mode != "off":
        for rank in range(args.world_size):
            path = os.path.join(logdir, "%s.%s.%d.rank%d.json" % (fixture, variant, run, rank))
            try:
                with open(path) as f:
                    hazards.update(h["code"] for h in json.load(f)["hazards"])
            except (OSError, ValueError, KeyError):
                pass
            if outcome == "ok" and not args.keep_logs and os.path.exists(path):
                os.remove(path)
    if outcome == "ok" and not args.keep_logs:
        for log, _ in logs:
            os.remove(log)
    return {
        "fixture": fixture,
        "variant": variant,
        "run": run,
        "outcome": outcome,
        "codes": codes,
        "seconds": round(elapsed, 2),
        "guard_hazards": sorted(hazards),
    }


def table(results, fixtures, variants):
    lines = [
        "| fixture | kind | variant | runs | ok | hang | wrong | error | hang rate | median s | guard saw |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for fx in fixtures:
        for v in variants:
            rs = [r for r in results if r["fixture"] == fx and r["variant"] == v]
            if not rs:
                continue
            n = len(rs)
            c = dict((k, sum(1 for r in rs if r["outcome"] == k)) for k in ("ok", "hang", "wrong", "error"))
            secs = sorted(r["seconds"] for r in rs)
            saw = sorted(set(code for r in rs for code in r["guard_hazards"]))
            lines.append(
                "| %s | %s | %s | %d | %d | %d | %d | %d | %.0f %% | %.1f | %s |"
                % (
                    fx,
                    "safe" if fx.startswith("safe_") else "hazard",
                    v,
                    n,
                    c["ok"],
                    c["hang"],
                    c["wrong"],
                    c["error"],
                    100.0 * c["hang"] / n,
                    secs[n // 2],
                    " ".join(saw) if VARIANTS[v][1] != "off" else "(off)",
                )
            )
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20, help="runs per fixture and variant")
    ap.add_argument("--iters", type=int, default=200, help="collectives per thread per run")
    ap.add_argument("--timeout", type=float, default=60, help="seconds before a run counts as hung")
    ap.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    ap.add_argument("--world-size", type=int, default=2)
    ap.add_argument("--fixtures", default="", help="comma list, or 'all' (default: the positive and safe sets)")
    ap.add_argument("--variants", default="baseline,implicit,serialize")
    ap.add_argument("--no-race", action="store_true", help="keep the fixtures' own ordering between threads (records, not hang rates)")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--out", default="hangrate", help="directory for table.md, results.json, logs")
    ap.add_argument("--keep-logs", action="store_true", help="keep the logs of runs that passed")
    args = ap.parse_args()
    if args.fixtures == "all":
        fixtures = sorted(f[:-3] for f in os.listdir(WITNESS) if f.endswith(".py"))
    else:
        fixtures = [f for f in args.fixtures.split(",") if f] or POSITIVE + SAFE
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS:
            ap.error("unknown variant %r (have %s)" % (v, ", ".join(sorted(VARIANTS))))
    for fx in fixtures:
        if not os.path.exists(os.path.join(WITNESS, fx + ".py")):
            ap.error("no fixture %s.py in %s" % (fx, WITNESS))
    logdir = os.path.join(args.out, "logs")
    os.makedirs(logdir, exist_ok=True)
    results = []
    for fx in fixtures:
        for v in variants:
            for run in range(args.runs):
                r = one_run(args, fx, v, run, logdir)
                results.append(r)
                print("%-26s %-10s run %3d: %-5s %5.1fs codes %s" % (fx, v, run, r["outcome"], r["seconds"], r["codes"]), flush=True)
    head = "backend %s, world size %d, %d runs x %d iterations per thread, timeout %.0f s, python %s\n\n" % (
        args.backend,
        args.world_size,
        args.runs,
        args.iters,
        args.timeout,
        args.python,
    )
    md = head + table(results, fixtures, variants)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(md)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"args": vars(args), "results": results}, f, indent=1)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Observes which thread runs autograd hooks and library callbacks, with the
collvet guard recording (the CUDA part of WITNESS.md).

    python3 scripts/witness/cuda_threads.py hooks OUT.json
    python3 scripts/witness/cuda_threads.py async_save OUT.json
    python3 scripts/witness/cuda_threads.py serialize_cost OUT.json

hooks: world size 1 (NCCL when CUDA is available, else gloo on CPU). A
gradient hook on a tensor records its native thread id and all-reduces on
WORLD, after the main thread all-reduced on WORLD; three variants: autograd
multithreading enabled (default), disabled by a plain call
set_multithreading_enabled(False), disabled by the context manager. For each:
the hook's thread, and the hazards the guard reported.

async_save: gloo world size 1; torch.distributed.checkpoint.async_save on a
CPU state dict; which threads issued collectives.

serialize_cost: NCCL world size 1; median time of 200 all_reduce calls of
1 Mi floats with no guard, guard in warn mode and in serialize mode.
"""

import contextlib
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "cmd", "collvet", "internal", "guard"))

import collvet_guard  # noqa: E402

collvet_guard.install(mode="warn")

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def init(backend):
    dist.init_process_group(backend, init_method="tcp://127.0.0.1:%d" % free_port(), rank=0, world_size=1)


def thread_count():
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def probe(device, disable):
    """One backward with a communicating hook; disable is None, "call" or
    "context"."""
    seen = {}
    x = torch.ones(1024, device=device, requires_grad=True)

    def hook(grad):
        t = threading.current_thread()
        task = getattr(torch._C, "_current_graph_task_id", None)
        seen.update(
            native_id=threading.get_native_id(),
            thread_name=t.name,
            thread_class=type(t).__name__,
            graph_task_id=task() if task else None,
        )
        dist.all_reduce(grad)
        return grad

    x.register_hook(hook)
    dist.all_reduce(torch.ones(16, device=device))  # the main thread uses WORLD too
    loss = (x * 2).sum()
    smt = getattr(torch.autograd, "set_multithreading_enabled", None)
    ctx = contextlib.nullcontext()
    if disable == "call":
        smt(False)
    elif disable == "context":
        ctx = smt(False)
    enabled_during = None
    with ctx:
        is_enabled = getattr(torch.autograd, "is_multithreading_enabled", None)
        enabled_during = is_enabled() if is_enabled else None
        loss.backward()
    if disable == "call":
        smt(True)
    if device.type == "cuda":
        torch.cuda.synchronize()
    seen["multithreading_enabled_during_backward"] = enabled_during
    return seen


def hooks(out):
    cuda = torch.cuda.is_available()
    backend = "nccl" if cuda else "gloo"
    device = torch.device("cuda", 0) if cuda else torch.device("cpu")
    init(backend)
    res = {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": ".".join(map(str, torch.cuda.nccl.version())) if cuda else None,
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "backend": backend,
        "main_native_id": threading.get_native_id(),
        "threads_before": thread_count(),
        "variants": {},
    }
    variants = [("multithreading_enabled", None)]
    if hasattr(torch.autograd, "set_multithreading_enabled"):
        variants += [("disabled_by_call", "call"), ("disabled_by_context", "context")]
    for name, disable in variants:
        collvet_guard.reset()
        try:
            seen = probe(device, disable)
        except Exception as exc:  # record what happened, go on
            res["variants"][name] = {"error": "%s: %s" % (type(exc).__name__, exc)}
            continue
        snap = collvet_guard.snapshot()
        seen["same_thread_as_main"] = seen["native_id"] == res["main_native_id"]
        seen["guard_hazards"] = sorted(set(h["code"] for h in snap["hazards"]))
        seen["guard_messages"] = [h["message"] for h in snap["hazards"]]
        seen["guard_calls"] = [
            {k: c[k] for k in ("op", "group", "thread", "thread_kind", "in_backward", "line", "stream")}
            for c in snap["calls"]
        ]
        seen["threads_after"] = thread_count()
        res["variants"][name] = seen
    dist.destroy_process_group()
    return res


def async_save(out):
    init("gloo")
    res = {"torch": torch.__version__, "main_native_id": threading.get_native_id()}
    try:
        import torch.distributed.checkpoint as dcp

        fn = getattr(dcp, "async_save", None)
        if fn is None:
            res["error"] = "torch.distributed.checkpoint.async_save does not exist in this version"
        else:
            collvet_guard.reset()
            with tempfile.TemporaryDirectory() as d:
                fut = fn({"w": torch.ones(8), "step": torch.tensor(3)}, checkpoint_id=d)
                res["future_type"] = type(fut).__name__
                fut.result()
                res["files"] = sorted(os.listdir(d))
            snap = collvet_guard.snapshot()
            res["guard_threads"] = snap["threads"]
            res["guard_calls"] = snap["calls"]
            res["guard_hazards"] = [h["message"] for h in snap["hazards"]]
            res["collective_threads"] = sorted(set(c["thread_kind"] for c in snap["calls"]))
    except Exception as exc:  # record what happened
        res["error"] = "%s: %s" % (type(exc).__name__, exc)
    dist.destroy_process_group()
    return res


def serialize_cost(out):
    if not torch.cuda.is_available():
        return {"skipped": "no CUDA"}
    init("nccl")
    t = torch.ones(1 << 20, device="cuda")
    res = {"torch": torch.__version__, "elements": t.numel(), "calls": 200}

    def timed():
        samples = []
        for _ in range(5):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(200):
                dist.all_reduce(t)
            torch.cuda.synchronize()
            samples.append((time.perf_counter() - t0) / 200 * 1e6)
        return statistics.median(samples)

    collvet_guard.uninstall()
    timed()  # warm up
    res["none_us_per_call"] = timed()
    collvet_guard.install(mode="warn")
    res["warn_us_per_call"] = timed()
    collvet_guard.install(mode="serialize")
    res["serialize_us_per_call"] = timed()
    dist.destroy_process_group()
    return res


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("hooks", "async_save", "serialize_cost"):
        sys.stderr.write(__doc__)
        return 2
    res = globals()[sys.argv[1]](sys.argv[2])
    with open(sys.argv[2], "w") as f:
        json.dump(res, f, indent=1, sort_keys=True, default=str)
    print(json.dumps(res, indent=1, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Programs for the guard's tests: python3 cases.py OUTDIR CASE...

Each case runs one rank (gloo, world size 1, its own process group) with
collvet_guard installed from the directory in COLLVET_GUARD_DIR, and writes
the guard's record plus a few facts of its own ("extra", including the
warnings it printed) to OUTDIR/CASE.json. The cases share one process (torch
is slow to import); between cases the process group is destroyed and the
guard uninstalled and reset. The Go test asserts on the records; lines it
looks for carry "# mark: NAME" comments.
"""

import _thread
import io
import traceback
import warnings
import json
import os
import socket
import sys
import threading

sys.path.insert(0, os.environ["COLLVET_GUARD_DIR"])
import collvet_guard  # noqa: E402

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402

extra = {}


def init(mode="warn", device_backends=None):
    collvet_guard.reset()
    collvet_guard.install(mode=mode, device_backends=device_backends)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=0, world_size=1)


def t():
    return torch.ones(4)


def in_thread(fn, join=True):
    th = threading.Thread(target=fn)
    th.start()
    if join:
        th.join()
    return th


def case_thread_one_group():
    init()
    hold = threading.Event()

    used = threading.Event()

    def worker():
        dist.all_reduce(t())  # mark: thread_call
        used.set()
        hold.wait()

    th = in_thread(worker, join=False)
    used.wait()
    dist.all_reduce(t())  # mark: main_call
    hold.set()
    th.join()


def case_foreign_thread():
    # A thread not started by Python's threading module, as the autograd
    # engine's device threads are.
    init()
    done = threading.Event()

    def worker():
        try:
            dist.all_reduce(t())  # mark: foreign_call
        finally:
            done.set()

    _thread.start_new_thread(worker, ())
    done.wait()
    extra["has_graph_task_id"] = hasattr(torch._C, "_current_graph_task_id")


def two_groups_two_threads():
    a = dist.new_group([0])  # mark: group_a
    hold = threading.Event()

    def worker():
        dist.all_reduce(t(), group=a)  # mark: cv103_thread
        hold.wait()

    th = in_thread(worker, join=False)
    dist.all_reduce(t())  # mark: cv103_main
    hold.set()
    th.join()


def case_cv103_device():
    init(device_backends=["gloo"])  # count gloo as a device communicator
    two_groups_two_threads()


def case_cv103_gloo_quiet():
    init()  # default: gloo groups are not device communicators
    two_groups_two_threads()


def case_raise_mode():
    init(mode="raise")
    hold = threading.Event()
    used = threading.Event()

    def worker():
        dist.all_reduce(t())
        used.set()
        hold.wait()

    th = in_thread(worker, join=False)
    used.wait()
    try:
        dist.all_reduce(t())  # mark: raised_call
        extra["raised"] = None
    except collvet_guard.CollectiveHazardError as exc:
        extra["raised"] = exc.code
        extra["message"] = str(exc)
    hold.set()
    th.join()


def case_serialize_mode():
    init(mode="serialize", device_backends=["gloo"])
    work = dist.all_reduce(t(), async_op=True)
    extra["completed_after_call"] = work.is_completed()
    work.wait()


def case_safe_programs():
    init()
    # A thread joined before the main thread communicates.
    in_thread(lambda: dist.all_reduce(t()))  # mark: joined_thread
    dist.all_reduce(t())
    # A thread that owns its own group.
    own = dist.new_group([0])  # mark: own_group
    in_thread(lambda: dist.all_reduce(t(), group=own), join=False).join()
    # Hooks on CPU tensors run on the thread that calls backward().
    x = torch.ones(3, requires_grad=True)
    x.register_hook(lambda g: (dist.all_reduce(g), g)[1])  # mark: cpu_hook
    (x * 2).sum().backward()
    dist.all_reduce(t())


def case_exchange_order():
    # Gloo cannot send to oneself (torch 1.13 crashes), and world size 1
    # has no one else: send and recv are stand-ins with torch's
    # signatures that move no data. The guard's wrappers, bookkeeping and
    # check are the real ones.
    from torch.distributed import distributed_c10d as c10d

    collvet_guard.uninstall()
    real = {name: getattr(c10d, name) for name in ("send", "recv")}

    def send(tensor, dst, group=None, tag=0):
        return None

    def recv(tensor, src=None, group=None, tag=0):
        return 0

    for name, stand_in in (("send", send), ("recv", recv)):
        setattr(c10d, name, stand_in)
        setattr(dist, name, stand_in)
    try:
        init()
        buf = t()
        dist.send(t(), dst=1)  # mark: exchange_send
        dist.recv(buf, src=1)  # mark: exchange_recv
        # Receive first, then send: the parity order, not reported.
        dist.recv(buf, 1)
        dist.send(t(), 1)
        # A collective between the send and the receive: not reported.
        dist.send(t(), dst=1)
        dist.all_reduce(t())
        dist.recv(buf, src=1)
        # Another peer: not reported.
        dist.send(t(), dst=1)
        dist.recv(buf, src=2)
        extra["stand_ins_wrapped"] = getattr(dist.send, "__collvet_original__", None) is send
    finally:
        collvet_guard.uninstall()
        for name, fn in real.items():
            setattr(c10d, name, fn)
            setattr(dist, name, fn)


def case_recording():
    init()
    g = dist.new_group([0])  # mark: new_group
    try:
        cur, _ = dist.new_subgroups_by_enumeration([[0]])  # mark: new_subgroups
    except ValueError:  # PyTorch 1.x wants CUDA for subgroups
        cur = None
    extra["subgroups"] = cur is not None
    dist.all_reduce(t(), group=g)  # mark: on_new_group
    if cur is not None:
        dist.all_reduce(t(), group=cur)  # mark: on_subgroup
    dist.all_reduce(t(), group=dist.group.WORLD)  # mark: group_world
    dist.broadcast(t(), 0, None, True).wait()  # mark: positional_async
    objs = [None]
    dist.all_gather_object(objs, {"a": 1})  # mark: object_collective
    g.allreduce([t()]).wait()  # mark: pg_method
    dist.barrier()  # mark: barrier
    out = io.StringIO()
    collvet_guard.report(file=out)
    extra["report"] = out.getvalue()
    orig = collvet_guard.snapshot()
    extra["wrapped"] = orig["wrapped"]
    collvet_guard.uninstall()
    extra["restored"] = not hasattr(dist.all_reduce, "__collvet_original__") and not hasattr(
        threading.Thread.start, "__collvet_original__"
    )
    dist.all_reduce(t())  # not recorded after uninstall
    extra["calls_before_uninstall"] = sum(c["count"] for c in orig["calls"])


def run_case(name, outdir):
    fn = globals().get("case_" + name)
    if fn is None:
        sys.stderr.write("no case %s\n" % name)
        return False
    extra.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            fn()
        except Exception:
            extra["error"] = traceback.format_exc()
    doc = collvet_guard.snapshot()
    extra["warnings"] = [warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in seen]
    doc["extra"] = dict(extra)
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
    if dist.is_initialized():
        dist.destroy_process_group()
    collvet_guard.uninstall()
    return True


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: cases.py OUTDIR CASE...\n")
        return 2
    ok = True
    for name in sys.argv[2:]:
        ok = run_case(name, sys.argv[1]) and ok
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())

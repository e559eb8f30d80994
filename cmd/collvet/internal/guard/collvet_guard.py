"""collvet_guard: a runtime guard for torch.distributed collectives.

The static checks of collvet predict which threads issue which collectives.
This module watches the real thing: ``install()`` wraps every
``torch.distributed`` collective and point-to-point call (and the
``ProcessGroup`` methods) and records, for each call, the operation, the
process group (named by its creation site, as collvet names it:
``WORLD`` or ``new_group@path:line``), the native thread id and what kind of
thread it is (main thread, a Python thread, or an autograd engine thread),
the current CUDA stream, whether the call is asynchronous, and the caller's
location (the first frame outside torch, the standard library and this file).

It reports the hazards with the codes of the static rules:

  CV101  one process group used from two threads that are alive at once
  CV102  a collective issued on an autograd engine thread
  CV103  several device communicators (NCCL, not gloo) driven from several
         host threads
  CV302  a blocking receive from the rank this thread just sent to with a
         blocking send (every rank running it sends first: it hangs once
         messages outgrow the eager limit; on gloo it hangs at once, inside
         the send, before this check can speak)

Usage::

    import collvet_guard
    collvet_guard.install(mode="warn")   # or "raise" or "serialize"
    ...                                  # training code
    collvet_guard.report()               # human summary on stderr
    collvet_guard.dump_json("guard-{rank}.json")

Modes:

  warn       one warning (CollvetGuardWarning) per hazard; the default.
  raise      raise CollectiveHazardError at the hazardous call, before it is
             issued.
  serialize  warn, and after every collective on a device communicator
             (not gloo) wait for its work (async ops) and synchronise the
             current CUDA stream, so that on each rank
             the device executes collectives in the order the host issued
             them. Cost: every collective becomes blocking for the host and
             compute/communication overlap is lost (one stream synchronise,
             roughly the collective's own duration plus a few microseconds,
             per call). It does not make two threads issue in the same order
             on every rank; only funnelling all collectives into one thread
             does that.

Install the guard before code that does ``from torch.distributed import
all_reduce`` runs, since such names are bound to the unwrapped functions.
The guard also wraps ``threading.Thread.start`` to remember where each
thread was started (the thread's spawn site). Only ``torch`` and the
standard library are needed; PyTorch 1.13 through 2.x are supported.
"""

import itertools
import json
import os
import sys
import sysconfig
import threading
import warnings

__all__ = [
    "install",
    "uninstall",
    "installed",
    "report",
    "dump_json",
    "snapshot",
    "reset",
    "CollectiveHazardError",
    "CollvetGuardWarning",
]

SCHEMA_VERSION = 1

MODES = ("warn", "raise", "serialize")

# Rule names, as the static rules spell them.
RULE_NAMES = {
    "CV101": "collective-from-multiple-threads",
    "CV102": "collective-in-autograd-hook",
    "CV103": "communicators-across-threads",
    "CV302": "send-before-receive-exchange",
}

# Blocking point-to-point functions -> (direction, peer argument name and
# position). A blocking receive from the peer this thread last sent to,
# with nothing between, is the send-before-receive exchange (CV302).
_BLOCKING_P2P = {
    "send": ("send", "dst", 1),
    "recv": ("recv", "src", 1),
    "send_object_list": ("send", "dst", 1),
    "recv_object_list": ("recv", "src", 1),
}


class CollectiveHazardError(RuntimeError):
    """Raised in mode "raise" at a collective that makes a hazard."""

    def __init__(self, code, message):
        RuntimeError.__init__(self, message)
        self.code = code


class CollvetGuardWarning(UserWarning):
    """Category of the guard's warnings (filter it with the warnings module)."""


# torch.distributed functions the guard wraps: name -> (op, always_async).
# op is the operation kind collvet's model uses; functions missing from the
# installed torch are skipped.
_FUNCTIONS = {
    "all_reduce": ("all_reduce", False),
    "all_reduce_coalesced": ("all_reduce", False),
    "all_reduce_multigpu": ("all_reduce", False),
    "broadcast": ("broadcast", False),
    "broadcast_multigpu": ("broadcast", False),
    "all_gather": ("all_gather", False),
    "all_gather_multigpu": ("all_gather", False),
    "all_gather_coalesced": ("all_gather", False),
    "all_gather_into_tensor": ("all_gather", False),
    "_all_gather_base": ("all_gather", False),
    "all_gather_object": ("all_gather_object", False),
    "reduce": ("reduce", False),
    "reduce_multigpu": ("reduce", False),
    "reduce_scatter": ("reduce_scatter", False),
    "reduce_scatter_multigpu": ("reduce_scatter", False),
    "reduce_scatter_tensor": ("reduce_scatter", False),
    "_reduce_scatter_base": ("reduce_scatter", False),
    "scatter": ("scatter", False),
    "scatter_object_list": ("scatter_object", False),
    "gather": ("gather", False),
    "gather_object": ("gather_object", False),
    "all_to_all": ("all_to_all", False),
    "all_to_all_single": ("all_to_all", False),
    "barrier": ("barrier", False),
    "monitored_barrier": ("barrier", False),
    "broadcast_object_list": ("broadcast_object", False),
    "send": ("send", False),
    "recv": ("recv", False),
    "isend": ("send", True),
    "irecv": ("recv", True),
    "send_object_list": ("send_object", False),
    "recv_object_list": ("recv_object", False),
    "batch_isend_irecv": ("batch_p2p", True),
}

# Group-creating functions: their result is named "<name>@path:line".
_CREATORS = ("new_group", "new_subgroups", "new_subgroups_by_enumeration", "split_group")

# ProcessGroup methods (always asynchronous: they return work) -> op.
_PG_METHODS = {
    "allreduce": "all_reduce",
    "allreduce_coalesced": "all_reduce",
    "broadcast": "broadcast",
    "allgather": "all_gather",
    "_allgather_base": "all_gather",
    "allgather_coalesced": "all_gather",
    "allgather_into_tensor_coalesced": "all_gather",
    "reduce": "reduce",
    "reduce_scatter": "reduce_scatter",
    "_reduce_scatter_base": "reduce_scatter",
    "reduce_scatter_tensor_coalesced": "reduce_scatter",
    "alltoall": "all_to_all",
    "alltoall_base": "all_to_all",
    "barrier": "barrier",
    "monitored_barrier": "barrier",
    "send": "send",
    "recv": "recv",
    "recv_anysource": "recv",
    "scatter": "scatter",
    "gather": "gather",
}

_lock = threading.RLock()  # guards every piece of state below
_clock = itertools.count(1)  # orders calls and thread starts; never reset
_tls = threading.local()  # per-thread nesting depth of wrapped calls
_state = None
_installed = False
_mode = "warn"
_device_backends = None  # None: every backend except gloo
_originals = []  # (owner, attribute, original) to restore on uninstall
_wrapped_names = []
_torch = None
_dist = None
_c10d = None
_torch_dir = ""
_stdlib_dirs = ()
_guard_file = os.path.normcase(os.path.abspath(__file__))
if _guard_file.endswith((".pyc", ".pyo")):
    _guard_file = _guard_file[:-1]


class _State(object):
    """All bookkeeping of one installation; replaced by reset()."""

    def __init__(self):
        self.seq = 0
        self.calls = {}  # record key -> record dict
        self.groups = {}  # id(pg) or "WORLD" -> group dict
        self.name_instances = {}  # site name -> number of groups made there
        self.threads = {}  # native id -> thread dict
        self.hazards = []
        self.warned = set()
        self.internal_errors = []
        self.creations = []
        self.rank = None  # (rank, world size) once seen, kept after destroy
        self.last_p2p = {}  # native id -> (peer, group, instance, where) of a blocking send just made


# ---------------------------------------------------------------------------
# Locations and threads


def _init_paths():
    global _torch_dir, _stdlib_dirs
    _torch_dir = os.path.normcase(os.path.dirname(os.path.abspath(_torch.__file__))) + os.sep
    dirs = set()
    for key in ("stdlib", "platstdlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.normcase(os.path.abspath(p)) + os.sep)
    _stdlib_dirs = tuple(sorted(dirs))


_file_kinds = {}  # co_filename -> 0 user, 1 standard library, 2 torch or guard


def _file_kind(filename):
    """Classifies a code object's file once (the stack walk runs per call)."""
    k = _file_kinds.get(filename)
    if k is None:
        if _is_guard(filename) or _is_torch(filename):
            k = 2
        elif _is_stdlib(filename):
            k = 1
        else:
            k = 0
        if len(_file_kinds) < 100000:
            _file_kinds[filename] = k
    return k


def _is_torch(filename):
    return os.path.normcase(filename).startswith(_torch_dir)


def _is_stdlib(filename):
    if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string> is user code
        return filename.startswith("<frozen")
    f = os.path.normcase(filename)
    for d in _stdlib_dirs:
        if f.startswith(d):
            rest = f[len(d):]
            return not (rest.startswith("site-packages") or rest.startswith("dist-packages"))
    return False


def _is_guard(filename):
    return os.path.normcase(os.path.abspath(filename)) == _guard_file


def _locate(frame):
    """Returns (user, library): the first frame outside torch, this file and
    the standard library, and the first frame outside torch and this file,
    each as (path, line, function) or None."""
    user = None
    library = None
    f = frame
    while f is not None:
        fn = f.f_code.co_filename
        k = _file_kind(fn)
        if k < 2:
            loc = (fn, f.f_lineno, f.f_code.co_name)
            if library is None:
                library = loc
            if k == 0:
                user = loc
                break
        f = f.f_back
    return user, library


def _fmt(loc):
    if loc is None:
        return None
    return "%s:%d" % (loc[0], loc[1])


def _in_backward(frame):
    """True when the current thread runs inside a backward pass; None when
    that cannot be told."""
    fn = getattr(_torch._C, "_current_graph_task_id", None)
    if fn is not None:
        try:
            return fn() != -1
        except Exception:
            pass
    # PyTorch 1.x: look for torch.autograd.backward/grad on the Python stack
    # (CPU graphs run hooks on the calling thread, below those frames).
    f = frame
    while f is not None:
        code = f.f_code
        if code.co_name in ("backward", "grad") and _is_autograd_file(code.co_filename):
            return True
        f = f.f_back
    # Below Python's threading module nothing can be told for foreign threads.
    return None if isinstance(threading.current_thread(), threading._DummyThread) else False


_autograd_files = {}


def _is_autograd_file(filename):
    k = _autograd_files.get(filename)
    if k is None:
        k = _autograd_files[filename] = os.path.normcase(filename).startswith(os.path.join(_torch_dir, "autograd") + os.sep)
    return k


def _native_id():
    get = getattr(threading, "get_native_id", None)
    return get() if get is not None else threading.get_ident()


def _thread_info(in_backward):
    """Describes the calling thread; registers it on first sight."""
    t = threading.current_thread()
    nid = _native_id()
    info = _state.threads.get(nid)
    if info is not None and info["obj"] is t:
        return info
    if t is threading.main_thread():
        kind = "main"
    elif isinstance(t, threading._DummyThread):
        # Not started by Python's threading module. In PyTorch these are the
        # autograd engine's device threads (or other C++ callback threads).
        kind = "foreign" if in_backward is False else "autograd"
    else:
        kind = "thread"
    info = {
        "obj": t,
        "native_id": nid,
        "name": t.name,
        "kind": kind,
        "class": type(t).__name__,
        "spawn": getattr(t, "_collvet_spawn", None),
        "daemon": bool(t.daemon),
        # When the thread started, on the guard's clock; 0 (before anything)
        # for the main thread, threads started before install() and threads
        # not started by Python, whose start the guard cannot see.
        "start": getattr(t, "_collvet_start", 0),
    }
    _state.threads[nid] = info
    return info


def _alive(t):
    try:
        return t.is_alive()
    except Exception:  # _DummyThread.is_alive asserts on some versions
        return True


_KIND_WORDS = {"main": "main", "thread": "Python", "autograd": "autograd engine", "foreign": "non-Python"}


def _describe(info):
    d = "%s%s thread %r (native id %d" % (
        "the " if info["kind"] == "main" else "",
        _KIND_WORDS.get(info["kind"], info["kind"]),
        info["name"],
        info["native_id"],
    )
    if info.get("spawn"):
        d += ", started at %s" % info["spawn"]
    return d + ")"


# ---------------------------------------------------------------------------
# Groups


def _default_group():
    try:
        if _dist.is_initialized():
            return _c10d._get_default_group()
    except Exception:
        pass
    return None


def _group_state(group):
    """The bookkeeping entry of a process group (None: WORLD)."""
    if group is not None:
        g = _state.groups.get(id(group))
        if g is not None and g["obj"] is group:
            return g  # fast path: seen before (the default group too)
    if group is not None:
        gm = getattr(_c10d, "GroupMember", None)
        try:
            if gm is not None and group is gm.WORLD:
                group = None
        except Exception:
            pass
    if group is not None and group is _default_group():
        world = _group_state(None)
        _state.groups[id(group)] = world  # alias, for the fast path
        world["obj"] = group
        return world
    key = "WORLD" if group is None else id(group)
    g = _state.groups.get(key)
    if g is not None and (group is None or g["obj"] is group):
        return g
    if group is None:
        name, instance, created = "WORLD", 0, None
    else:
        name, instance, created = _name_unregistered()
    g = {
        "obj": group,
        "name": name,
        "instance": instance,
        "created_at": created,
        "backend": None,
        "users": {},  # native id -> thread info
        "calls": 0,
    }
    _state.groups[key] = g
    return g


def _unique_groups(st):
    """Each group's entry once (WORLD is also filed under the default
    group's id)."""
    seen = set()
    out = []
    for g in st.groups.values():
        if id(g) not in seen:
            seen.add(id(g))
            out.append(g)
    return out


def _name_unregistered():
    n = _state.name_instances.get("unregistered", 0)
    _state.name_instances["unregistered"] = n + 1
    return "unregistered#%d" % n, 0, None


def _register_group(pg, site_name, created_at):
    """Names pg after its creation site; the k-th group made at one site gets
    instance k (all share the name, as in the static model)."""
    if pg is None or not hasattr(pg, "size"):
        return  # non-member sentinel or nothing
    gm = getattr(_c10d, "GroupMember", None)
    if gm is not None and pg is getattr(gm, "NON_GROUP_MEMBER", object()):
        return
    k = _state.name_instances.get(site_name, 0)
    _state.name_instances[site_name] = k + 1
    g = _group_state(pg)
    if g["name"] == "WORLD":
        return
    g["name"] = site_name
    g["instance"] = k
    g["created_at"] = created_at


def _backend(g):
    if g["backend"] is None:
        try:
            g["backend"] = str(_dist.get_backend(g["obj"]))
        except Exception:
            g["backend"] = ""
    return g["backend"]


def _is_device(g):
    d = g.get("device")
    if d is None:
        d = _device_kind(_backend(g).lower())
        if g["backend"]:
            g["device"] = d
    return d


def _device_kind(b):
    if _device_backends is not None:
        return any(d in b for d in _device_backends)
    if not b:
        return False
    parts = [p.split(":")[-1] for p in b.split(",")]
    return any(p and p != "gloo" for p in parts)


# ---------------------------------------------------------------------------
# Recording and hazards


_default_streams = {}  # device index -> handle of its default stream


def _stream():
    try:
        cuda = _torch.cuda
        if not cuda.is_initialized():  # never initialises CUDA itself
            return ""
        s = cuda.current_stream()
        dev = s.device
        idx = dev.index if dev.index is not None else cuda.current_device()
        default = _default_streams.get(idx)
        if default is None:
            default = _default_streams[idx] = cuda.default_stream(idx).cuda_stream
        if s.cuda_stream == default:
            return "cuda:%d:default" % idx
        return "cuda:%d:0x%x" % (idx, s.cuda_stream)
    except Exception:
        return ""


def _hazard(code, key, message, loc, g, threads):
    """Records a hazard once per key; returns the message to act on, or None
    when this hazard was reported already."""
    if key in _state.warned:
        return None
    _state.warned.add(key)
    text = "%s %s [%s]" % (code, message, RULE_NAMES[code])
    _state.hazards.append(
        {
            "code": code,
            "name": RULE_NAMES[code],
            "message": text,
            "path": loc[0] if loc else None,
            "line": loc[1] if loc else None,
            "group": g["name"] if g else None,
            "threads": sorted(threads),
        }
    )
    return (code, text, loc)


def _check(op, g, info, loc):
    """Hazards made by this call; list of (code, text, loc)."""
    out = []
    where = _fmt(loc) or "(no user frame)"
    if info["kind"] == "autograd":
        h = _hazard(
            "CV102",
            ("CV102", where, g["name"]),
            "%s on group %s runs on %s inside backward; the engine launches it at a time the "
            "other ranks do not mirror; wrap backward in torch.autograd.set_multithreading_enabled(False)"
            % (op, g["name"], _describe(info)),
            loc,
            g,
            [info["native_id"]],
        )
        if h:
            out.append(h)
    # Another thread's use overlaps this thread's life when that thread is
    # still alive and issued on the group after this thread started: then
    # neither was parked in join()/result() while the other communicated.
    others = [
        u
        for nid, u in g["users"].items()
        if nid != info["native_id"] and _alive(u["obj"]) and u["last_seq"] > info["start"]
    ]
    if others:
        o = others[0]
        h = _hazard(
            "CV101",
            ("CV101", g["name"], g["instance"]),
            "%s on group %s is issued from %s while %s also issues collectives on it (last at %s); "
            "ranks can launch them in different orders and hang"
            % (op, g["name"], _describe(info), _describe(o), o.get("last") or "?"),
            loc,
            g,
            [info["native_id"]] + [u["native_id"] for u in others],
        )
        if h:
            out.append(h)
    if _is_device(g):
        groups = [x for x in _unique_groups(_state) if x["calls"] and _is_device(x)]
        if g not in groups:
            groups.append(g)
        threads = set([info["native_id"]])
        for x in groups:
            for nid, u in x["users"].items():
                if _alive(u["obj"]) and u["last_seq"] > info["start"]:
                    threads.add(nid)
        if len(groups) >= 2 and len(threads) >= 2:
            h = _hazard(
                "CV103",
                ("CV103",),
                "%d device communicators (%s) are driven from %d host threads; %s on group %s from %s; "
                "use one thread and one order, or NCCL_LAUNCH_ORDER_IMPLICIT=1 on NCCL >= 2.26"
                % (
                    len(groups),
                    ", ".join(sorted(set(x["name"] for x in groups))),
                    len(threads),
                    op,
                    g["name"],
                    _describe(info),
                ),
                loc,
                g,
                threads,
            )
            if h:
                out.append(h)
    return out


def _exchange(info, g, p2p, loc, where):
    """The CV302 check: p2p is (direction, peer) of a blocking send or
    receive, None for any other call. Returns the hazard, or None."""
    nid = info["native_id"]
    last = _state.last_p2p.get(nid)
    _state.last_p2p[nid] = None
    if p2p is None:
        return None
    direction, peer = p2p
    if direction == "send":
        _state.last_p2p[nid] = (peer, g["name"], g["instance"], where)
        return None
    if last is None or last[0] != peer or last[1:3] != (g["name"], g["instance"]):
        return None
    return _hazard(
        "CV302",
        ("CV302", where, g["name"]),
        "this rank sent to rank %s (%s) and now waits to receive from it, both blocking, on group %s; "
        "if rank %s runs the same code it is waiting in its own send: a message above the eager limit "
        "(or any message on gloo) then hangs both; use batch_isend_irecv, or order the two by rank parity"
        % (peer, last[3], g["name"], peer),
        loc,
        g,
        [nid],
    )


def _record(api, op, group, is_async, p2p=None):
    """Bookkeeping for one call; returns the hazards to act on and whether
    the group is a device communicator. p2p: (direction, peer) for a
    blocking send or receive."""
    frame = sys._getframe(1)
    user, library = _locate(frame)
    in_bw = _in_backward(frame)
    stream = _stream()
    with _lock:
        if _state.rank is None:
            r = _rank()
            if r[0] is not None:
                _state.rank = r
        info = _thread_info(in_bw)
        g = _group_state(group)
        backend = _backend(g)
        found = _check(op, g, info, user)
        h = _exchange(info, g, p2p, user, _fmt(user) or "(no user frame)")
        if h:
            found.append(h)
        _state.seq += 1
        now = next(_clock)
        g["calls"] += 1
        u = g["users"].get(info["native_id"])
        if u is None or u["obj"] is not info["obj"]:
            u = dict(info)
            g["users"][info["native_id"]] = u
        u["last"] = _fmt(user or library)
        u["last_seq"] = now
        key = (api, g["name"], g["instance"], info["native_id"], user, library, bool(is_async), stream, in_bw)
        rec = _state.calls.get(key)
        if rec is None:
            rec = {
                "api": api,
                "op": op,
                "group": g["name"],
                "instance": g["instance"],
                "backend": backend,
                "thread": info["native_id"],
                "thread_name": info["name"],
                "thread_kind": info["kind"],
                "in_backward": in_bw,
                "path": user[0] if user else None,
                "line": user[1] if user else None,
                "function": user[2] if user else None,
                "library_location": _fmt(library) if library != user else None,
                "async": bool(is_async),
                "stream": stream,
                "count": 0,
                "first_seq": _state.seq,
            }
            _state.calls[key] = rec
        rec["count"] += 1
        rec["last_seq"] = _state.seq
        device = _is_device(g)
    return found, device


def _act(found):
    for code, text, loc in found:
        if _mode == "raise":
            raise CollectiveHazardError(code, text)
        if loc is not None:
            warnings.warn_explicit(text, CollvetGuardWarning, loc[0], loc[1])
        else:
            warnings.warn(text, CollvetGuardWarning, stacklevel=4)


def _serialize(result, device):
    """Mode serialize: after a collective on a device communicator, wait for
    its work (async ops) and synchronise the current CUDA stream. Work of
    gloo groups is left alone: gloo runs on CPU threads, and waiting twice
    on its p2p work blocks."""
    if not device:
        return
    works = result if isinstance(result, (list, tuple)) else [result]
    for w in works:
        if w is not None and hasattr(w, "wait"):
            w.wait()
    cuda = _torch.cuda
    if cuda.is_available() and cuda.is_initialized():
        cuda.current_stream().synchronize()


def _arg_positions(orig):
    """Positions of the group and async_op parameters of orig (None when it
    has none or cannot be inspected), so each call reads them directly."""
    import inspect

    try:
        params = list(inspect.signature(orig).parameters.values())
    except (TypeError, ValueError):
        return None, None
    group = op = None
    for i, p in enumerate(params):
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        if p.name in ("group", "process_group") and group is None:
            group = (i, p.name)
        elif p.name == "async_op":
            op = (i, p.name)
    return group, op


def _arg(args, kwargs, pos):
    if pos is None:
        return None
    i, name = pos
    if name in kwargs:
        return kwargs[name]
    return args[i] if i < len(args) else None


def _internal_error(exc):
    with _lock:
        if len(_state.internal_errors) < 20:
            _state.internal_errors.append("%s: %s" % (type(exc).__name__, exc))


def _depth():
    return getattr(_tls, "depth", 0)


def _make_function_wrapper(name, orig, op, always_async):
    import functools
    group_pos, async_pos = _arg_positions(orig)
    api = "torch.distributed." + name

    @functools.wraps(orig)
    def wrapper(*args, **kwargs):
        if _depth() > 0:
            return orig(*args, **kwargs)
        found = []
        device = False
        try:
            if name == "batch_isend_irecv":
                ops = args[0] if args else kwargs.get("p2p_op_list", [])
                seen = []
                for p in ops or []:
                    grp = getattr(p, "group", None)
                    if not any(grp is s for s in seen):
                        seen.append(grp)
                for grp in seen or [None]:
                    f, d = _record(api, op, grp, True)
                    found += f
                    device = device or d
            else:
                grp = _arg(args, kwargs, group_pos)
                is_async = always_async or bool(_arg(args, kwargs, async_pos))
                gm = getattr(_c10d, "GroupMember", None)
                p2p = None
                if name in _BLOCKING_P2P and not is_async:
                    direction, pname, ppos = _BLOCKING_P2P[name]
                    peer = kwargs.get(pname, args[ppos] if ppos < len(args) else None)
                    p2p = (direction, peer)
                if gm is None or grp is not getattr(gm, "NON_GROUP_MEMBER", object()):
                    found, device = _record(api, op, grp, is_async, p2p)
        except Exception as exc:  # the guard never breaks the program
            _internal_error(exc)
        _act(found)
        _tls.depth = _depth() + 1
        try:
            result = orig(*args, **kwargs)
            if _mode == "serialize":
                _serialize(result, device)
            return result
        finally:
            _tls.depth -= 1

    wrapper.__collvet_original__ = orig
    return wrapper


def _make_creator_wrapper(name, orig):
    import functools

    @functools.wraps(orig)
    def wrapper(*args, **kwargs):
        # Always runs, even nested: new_subgroups calls new_group, and the
        # outer call renames the result afterwards.
        result = orig(*args, **kwargs)
        try:
            user, library = _locate(sys._getframe(1))
            loc = user or library
            site = "%s@%s:%d" % (name, loc[0], loc[1]) if loc else name + "@?"
            with _lock:
                if isinstance(result, tuple) and len(result) == 2:  # (cur, all)
                    _register_group(result[0], site, _fmt(loc))
                else:
                    _register_group(result, site, _fmt(loc))
                _state.creations.append({"api": "torch.distributed." + name, "site": site})
        except Exception as exc:
            _internal_error(exc)
        return result

    wrapper.__collvet_original__ = orig
    return wrapper


def _make_method_wrapper(name, orig, op):
    api = "ProcessGroup." + name

    def wrapper(self, *args, **kwargs):
        if _depth() > 0:
            return orig(self, *args, **kwargs)
        found = []
        device = False
        try:
            found, device = _record(api, op, self, True)
        except Exception as exc:
            _internal_error(exc)
        _act(found)
        _tls.depth = _depth() + 1
        try:
            result = orig(self, *args, **kwargs)
            if _mode == "serialize":
                _serialize(result, device)
            return result
        finally:
            _tls.depth -= 1

    wrapper.__name__ = name
    wrapper.__doc__ = getattr(orig, "__doc__", None)
    wrapper.__collvet_original__ = orig
    return wrapper


def _wrap_thread_start():
    orig = threading.Thread.start

    def start(self, *args, **kwargs):
        try:
            user, library = _locate(sys._getframe(1))
            self._collvet_spawn = _fmt(user or library)
            self._collvet_start = next(_clock)
        except Exception:
            pass
        return orig(self, *args, **kwargs)

    start.__collvet_original__ = orig
    threading.Thread.start = start
    _originals.append((threading.Thread, "start", orig))


# ---------------------------------------------------------------------------
# Public API


def install(mode="warn", device_backends=None):
    """Wraps torch.distributed; safe to call again (changes the mode).

    mode: "warn", "raise" or "serialize" (see the module documentation).
    device_backends: backend names counted as device communicators for CV103
    (default: every backend except gloo).
    """
    global _installed, _mode, _device_backends, _state, _torch, _dist, _c10d
    if mode not in MODES:
        raise ValueError("collvet_guard: mode must be one of %s, not %r" % (", ".join(MODES), mode))
    with _lock:
        _mode = mode
        _device_backends = None if device_backends is None else tuple(b.lower() for b in device_backends)
        if _installed:
            return
        import torch
        import torch.distributed as dist

        if not dist.is_available():
            raise RuntimeError("collvet_guard: torch.distributed is not available in this build of torch")
        from torch.distributed import distributed_c10d as c10d

        _torch, _dist, _c10d = torch, dist, c10d
        _init_paths()
        if _state is None:
            _state = _State()
        modules = [dist, c10d]
        for name, (op, always_async) in sorted(_FUNCTIONS.items()):
            orig = getattr(c10d, name, None) or getattr(dist, name, None)
            if orig is None or not callable(orig):
                continue
            w = _make_function_wrapper(name, orig, op, always_async)
            for m in modules:
                if getattr(m, name, None) is orig:
                    _originals.append((m, name, orig))
                    setattr(m, name, w)
            _wrapped_names.append("torch.distributed." + name)
        for name in _CREATORS:
            orig = getattr(c10d, name, None) or getattr(dist, name, None)
            if orig is None:
                continue
            w = _make_creator_wrapper(name, orig)
            for m in modules:
                if getattr(m, name, None) is orig:
                    _originals.append((m, name, orig))
                    setattr(m, name, w)
            _wrapped_names.append("torch.distributed." + name)
        pg_cls = getattr(c10d, "ProcessGroup", None)
        if pg_cls is not None:
            for name, op in sorted(_PG_METHODS.items()):
                orig = pg_cls.__dict__.get(name)
                if orig is None:
                    continue
                try:
                    setattr(pg_cls, name, _make_method_wrapper(name, getattr(pg_cls, name), op))
                except (TypeError, AttributeError):
                    continue  # a binding that refuses new attributes
                _originals.append((pg_cls, name, orig))
                _wrapped_names.append("ProcessGroup." + name)
        _wrap_thread_start()
        _installed = True


def uninstall():
    """Restores every wrapped function; the records are kept."""
    global _installed
    with _lock:
        while _originals:
            owner, name, orig = _originals.pop()
            setattr(owner, name, orig)
        del _wrapped_names[:]
        _installed = False


def installed():
    """True between install() and uninstall()."""
    return _installed


def reset():
    """Forgets every record (groups created so far keep no names)."""
    global _state
    with _lock:
        _state = _State()


def _rank():
    try:
        if _dist is not None and _dist.is_initialized():
            return _dist.get_rank(), _dist.get_world_size()
    except Exception:
        pass
    return None, None


def snapshot():
    """The record as a JSON-ready dict (the document dump_json writes)."""
    with _lock:
        st = _state or _State()
        rank, world = st.rank or _rank()
        groups = []
        for g in _unique_groups(st):
            groups.append(
                {
                    "name": g["name"],
                    "instance": g["instance"],
                    "backend": g["backend"] or "",
                    "device": _is_device(g) if _dist is not None else False,
                    "created_at": g["created_at"],
                    "calls": g["calls"],
                    "threads": sorted(g["users"]),
                }
            )
        groups.sort(key=lambda x: (x["name"], x["instance"]))
        threads = []
        for t in st.threads.values():
            threads.append(dict((k, v) for k, v in t.items() if k != "obj"))
        threads.sort(key=lambda x: (x["kind"] != "main", x["native_id"]))
        calls = sorted(st.calls.values(), key=lambda r: r["first_seq"])
        return {
            "version": SCHEMA_VERSION,
            "tool": "collvet_guard",
            "mode": _mode,
            "torch": getattr(_torch, "__version__", None),
            "python": "%d.%d.%d" % sys.version_info[:3],
            "pid": os.getpid(),
            "rank": rank,
            "world_size": world,
            "main_native_id": getattr(threading.main_thread(), "native_id", None),
            "wrapped": list(_wrapped_names),
            "threads": threads,
            "groups": groups,
            "calls": [dict(c) for c in calls],
            "creations": list(st.creations),
            "hazards": [dict(h) for h in st.hazards],
            "internal_errors": list(st.internal_errors),
        }


def dump_json(path):
    """Writes snapshot() to path; "{rank}" and "{pid}" in path are filled in."""
    doc = snapshot()
    path = path.replace("{rank}", str(doc["rank"])).replace("{pid}", str(doc["pid"]))
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def report(file=None):
    """Prints what the guard saw: groups, the threads that used them, hazards."""
    out = file if file is not None else sys.stderr
    doc = snapshot()
    kinds = dict((t["native_id"], t) for t in doc["threads"])
    out.write("collvet_guard: rank %s, mode %s, %d calls\n" % (doc["rank"], doc["mode"], sum(c["count"] for c in doc["calls"])))
    for g in doc["groups"]:
        inst = "#%d" % g["instance"] if g["instance"] else ""
        out.write("  group %s%s (%s): %d calls from %d thread(s)\n" % (g["name"], inst, g["backend"] or "?", g["calls"], len(g["threads"])))
        for nid in g["threads"]:
            t = kinds.get(nid, {})
            out.write(
                "    %s thread %r native id %d%s\n"
                % (_KIND_WORDS.get(t.get("kind"), "?"), t.get("name", "?"), nid, ", started at " + t["spawn"] if t.get("spawn") else "")
            )
    for c in doc["calls"]:
        out.write(
            "  %s: %s on %s from %s thread %d%s x%d\n"
            % (
                "%s:%s" % (c["path"], c["line"]) if c["path"] else (c["library_location"] or "?") + " (library)",
                c["op"],
                c["group"],
                _KIND_WORDS.get(c["thread_kind"], "?"),
                c["thread"],
                " (async)" if c["async"] else "",
                c["count"],
            )
        )
    if not doc["hazards"]:
        out.write("  no hazards\n")
    for h in doc["hazards"]:
        out.write("  %s:%s: %s\n" % (h["path"], h["line"], h["message"]))
    for e in doc["internal_errors"]:
        out.write("  internal error: %s\n" % e)

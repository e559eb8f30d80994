# Handles filed in a list of the function's own and waited through its
# elements on every path, or handed on with the list.
import torch
import torch.distributed as dist


def loop_wait(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    for r in reqs:
        r.wait()


def comprehension_wait(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    [r.wait() for r in reqs]


def popped(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    while reqs:
        reqs.pop().wait()


def popped_into_name(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    while reqs:
        r = reqs.pop(0)
        r.wait()


def by_index(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    for i in range(len(reqs)):
        reqs[i].wait()


def reversed_enumerated_zipped(ts):
    a, b, c = [], [], []
    for t in ts:
        a.append(dist.isend(t, 1))
        b.append(dist.isend(t, 2))
        c.append(dist.isend(t, 3))
    for r in reversed(a):
        r.wait()
    for i, r in enumerate(b):
        r.wait()
    for r, t in zip(c, ts):
        r.wait()


def futures(ts):
    reqs = []
    reqs.append(dist.all_reduce(ts[0], async_op=True))
    torch.futures.wait_all([r.get_future() for r in reqs])


def returned(ts):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))
    return reqs


def stored(self, ops):
    reqs = []
    reqs.extend(dist.batch_isend_irecv(ops))
    self.reqs = reqs


def handed_to_helper(ts):
    reqs = []
    reqs.append(dist.all_reduce(ts[0], async_op=True))
    wait_all(reqs)


def wait_all(reqs):
    for r in reqs:
        r.wait()


def same_condition(ts, flag):
    reqs = []
    if flag:
        reqs.append(dist.isend(ts[0], 1))
    if flag:
        for r in reqs:
            r.wait()


def launch(ops, reqs):
    reqs.extend(dist.batch_isend_irecv(ops))


def step(ops):
    reqs = []
    launch(ops, reqs)
    for r in reqs:
        r.wait()


def parameter_list(ts, out):
    # The caller's list: the caller waits it.
    out.append(dist.isend(ts[0], 1))

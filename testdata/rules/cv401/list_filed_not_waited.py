# Handles filed in a list of the function's own ([] bound here) are its
# to wait, like a handle bound to a name: on every path, before the list
# is rebound. (vllm-ascend's EPLB loader extends the caller's list, and
# the caller waits it only when no record path is set.)
import torch.distributed as dist


def cond_wait(ops, record_path):
    reqs = []
    reqs.extend(dist.batch_isend_irecv(ops))  # want CV401 "\"reqs\", the list holding the work handle of this batch_isend_irecv, is not waited on the path"
    if record_path is None:
        for r in reqs:
            r.wait()


def never(ts):
    works = list()
    for t in ts:
        works.append(dist.all_reduce(t, async_op=True))  # want CV401 "\"works\", the list holding the work handle of this all_reduce, is never waited"


def early(ts, stop):
    reqs = []
    for t in ts:
        reqs.append(dist.isend(t, 1))  # want CV401 "is not waited on the path that leaves the function at line 27"
    if stop:
        return
    for r in reqs:
        r.wait()


def rebound(ts):
    reqs = []
    reqs.append(dist.isend(ts[0], 1))  # want CV401 "\"reqs\", the list holding the work handle of this isend, is rebound at line 35"
    reqs = []
    reqs.append(dist.isend(ts[1], 1))
    reqs[0].wait()


def launch(ops, reqs):
    reqs.extend(dist.batch_isend_irecv(ops))


def step(ops, record_path):
    reqs = []
    launch(ops, reqs)  # want CV401 "the batch_isend_irecv that launch files in reqs, is not waited on the path"
    if record_path is None:
        for r in reqs:
            r.wait()

# The relay announces each job, or the end, with one broadcast whichever
# way its test goes (the end's broadcast sits in an arm that returns), and
# the workers receive one broadcast per job: the loops pair (LTX-2's
# multi-GPU fleet).
import os
import queue

import torch
import torch.distributed as dist

RELAY = 0


def split_tensors(job):
    return job, [torch.ones(2, device="cuda")]


def announce(job):
    if job is None:
        dist.broadcast_object_list([None], src=RELAY)
        return None
    shell, tensors = split_tensors(job)
    dist.broadcast_object_list([shell], src=RELAY)
    for t in tensors:
        dist.broadcast(t, src=RELAY)
    return job


def await_job():
    payload = [None]
    dist.broadcast_object_list(payload, src=RELAY)
    if payload[0] is None:
        return None
    buf = torch.empty(2, device="cuda")
    dist.broadcast(buf, src=RELAY)
    return payload[0]


def run_job(job):
    t = torch.ones(4, device="cuda") * job
    dist.all_reduce(t)
    return t


def relay_loop(jobs):
    while True:
        job = announce(jobs.get())
        if job is None:
            return
        run_job(job)


def worker_loop():
    while True:
        job = await_job()
        if job is None:
            return
        run_job(job)


def main():
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("nccl")
    jobs = queue.Queue()
    if dist.get_rank() == RELAY:
        relay_loop(jobs)
    else:
        worker_loop()
    dist.destroy_process_group()

# The end of the work is announced with a different collective than a job
# is (a barrier against the workers' broadcast): the sequences differ.
import torch.distributed as dist


def announce(job):
    if job is None:
        dist.barrier()
        return None
    dist.broadcast_object_list([job], src=0)
    return job


def await_job():
    payload = [None]
    dist.broadcast_object_list(payload, src=0)
    return payload[0]


def main(jobs):
    if dist.get_rank() == 0:
        for j in jobs:
            announce(j)  # want CV301 "runs only when `dist.get_rank\(\) == 0` holds"
    else:
        while await_job() is not None:
            pass

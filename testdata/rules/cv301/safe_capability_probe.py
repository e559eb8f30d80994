# A capability probe: the try asks whether the backend has all_to_all and
# records the answer. A failure there is the backend's, the same on every
# rank, so no rank skips what the others issue.
import torch
import torch.distributed as dist


def init(backend, use_gpu):
    dist.init_process_group(backend)
    supported = False
    try:
        t = torch.zeros([4])
        if use_gpu:
            t = t.cuda()
        dist.all_to_all_single(t, t)
        supported = True
    except RuntimeError as err:
        print(f"all_to_all_single is not available: {err}")
    dist.barrier()
    return supported

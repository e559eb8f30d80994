import torch.distributed as dist


def step(buf, out):
    dp = dist.new_group()
    tp = dist.new_group()
    handle = dist.all_reduce(buf, group=dp, async_op=True)
    dist.all_gather_into_tensor(out, buf, group=tp)  # want CV202 "all_gather_into_tensor .* \"buf\""
    handle.wait()

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def monitored_allreduce_hook(state, bucket):
    dist.monitored_barrier(group=state["gloo_group"])
    fut = dist.all_reduce(bucket.buffer(), async_op=True).get_future()
    return fut.then(lambda f: f.value()[0] / dist.get_world_size())


def train(model, loader, opt, microbatch_size):
    dist.init_process_group("nccl")
    gloo_group = dist.new_group(backend="gloo")
    model = DDP(model.cuda())
    model.register_comm_hook({"gloo_group": gloo_group}, monitored_allreduce_hook)
    for batch in loader:
        while True:
            try:
                opt.zero_grad()
                for mb in batch.split(microbatch_size):
                    loss = model(mb.cuda()).sum()
                    loss.backward()
                opt.step()
                break
            except torch.cuda.OutOfMemoryError:
                microbatch_size //= 2
                torch.cuda.empty_cache()
                continue

# A function run through torch.distributed.rpc executes on the destination
# process's RPC server thread pool, beside that process's main thread,
# which issues its own collectives on the same group.
import torch
import torch.distributed as dist
import torch.distributed.rpc as rpc


def apply_update(grads):
    dist.all_reduce(grads)  # want CV101 "all_reduce on the default group"
    return grads


def train_step(model, batch, peer):
    loss = model(batch)
    dist.all_reduce(loss)
    fut = rpc.rpc_async(peer, apply_update, args=(loss.detach(),))
    return fut.wait()

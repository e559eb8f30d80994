# The coordinator runs a broadcast on its workers through RPC and then
# shuts the RPC agent down: the agent's barrier runs over its own
# transport, not a device communicator, so it is no second communicator
# beside the workers' NCCL group (dearth's online distillation). (CV101
# still warns that the RPC handler may run on several of the agent's
# threads at once, which a worker called twice concurrently would do.)
import torch
import torch.distributed as dist
import torch.distributed.rpc as rpc

_model = None


def sync_params():
    for p in _model.parameters():
        dist.broadcast(p, src=0)


def coordinate(n):
    rpc.init_rpc("coordinator", rank=0, world_size=n + 1)
    futs = [rpc.rpc_async(f"worker_{r}", sync_params, args=()) for r in range(n)]
    torch.futures.wait_all(futs)
    rpc.shutdown()

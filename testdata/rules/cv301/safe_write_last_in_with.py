# The checkpoint's only file write is the last statement of the with
# block, after both collectives: a rank whose write fails has issued them.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardedStateDictConfig, StateDictType


def save(model, optimizer, epoch, path):
    try:
        with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT, ShardedStateDictConfig(offload_to_cpu=True)):
            model_state = model.state_dict()
            optim_state = FSDP.optim_state_dict(model, optimizer)
            torch.save({"model": model_state, "optimizer": optim_state, "epoch": epoch}, path)
    except Exception as e:
        print(f"save failed: {e}")


def train(model, optimizer, loader):
    for epoch, batch in enumerate(loader):
        model(batch).sum().backward()
        optimizer.step()
        save(model, optimizer, epoch, f"ckpt_rank{dist.get_rank()}.pt")
    dist.barrier()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    net = FSDP(torch.nn.Linear(16, 16).cuda())
    train(net, torch.optim.AdamW(net.parameters()), [torch.randn(4, 16).cuda()])

# fairscale's FSDP gathers the full parameters in state_dict(): rank 0 alone
# calls it here, and waits for the others in that all-gather.
import torch
import torch.distributed as dist
from fairscale.nn.data_parallel import FullyShardedDataParallel as FSDP


def save(model, path):
    if dist.get_rank() == 0:
        torch.save(model.state_dict(), path)  # want CV301 "FullyShardedDataParallel.state_dict"


def save_everyone(model, path):
    state = model.state_dict()
    if dist.get_rank() == 0:
        torch.save(state, path)


if __name__ == "__main__":
    dist.init_process_group("nccl")
    net = FSDP(torch.nn.Linear(4, 4).cuda())
    save(net, "a.pt")
    save_everyone(net, "b.pt")

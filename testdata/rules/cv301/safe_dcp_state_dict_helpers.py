# Without a full state dict or a broadcast, the helpers only read or set
# this rank's own shards: one rank may call them alone.
import torch.distributed as dist
from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict, set_model_state_dict


def inspect(model):
    if dist.get_rank() == 0:
        sd = get_model_state_dict(model)
        print(len(sd))
        offloaded = get_model_state_dict(model, options=StateDictOptions(cpu_offload=True))
        print(len(offloaded))
    dist.barrier()


def restore_local(model, local_sd):
    if dist.get_rank() == 0:
        set_model_state_dict(model, local_sd, options=StateDictOptions(full_state_dict=False))
    dist.barrier()


def save_all(model):
    sd = get_model_state_dict(model, options=StateDictOptions(full_state_dict=True, cpu_offload=True))
    if dist.get_rank() == 0:
        print(len(sd))
    dist.barrier()

# The write comes first inside the with block: a rank whose write fails
# skips the all-gather of the state after it.
import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardedStateDictConfig, StateDictType


def save(model, epoch, path):
    try:
        with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT, ShardedStateDictConfig(offload_to_cpu=True)):
            torch.save({"epoch": epoch}, path + ".meta")
            torch.save(model.state_dict(), path)  # want CV301 "file write fails"
    except Exception as e:
        print(f"save failed: {e}")
    dist.barrier()


if __name__ == "__main__":
    dist.init_process_group("nccl")
    net = FSDP(torch.nn.Linear(16, 16).cuda())
    save(net, 0, f"ckpt_rank{dist.get_rank()}.pt")

# Every rank generates with the FSDP model (each all-gather has all its
# members); only the printing is rank 0's.
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP


def sample_text(net, batch):
    model = FSDP(net)
    out = model.generate(**batch, max_new_tokens=8)
    if dist.get_rank() == 0:
        print(out)
    dist.barrier()

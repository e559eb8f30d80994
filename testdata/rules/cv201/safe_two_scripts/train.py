# Two scripts started on their own (python train.py; python finetune.py):
# each wraps its model in DDP on a stream of its own, in its own process.
import torch
from torch.nn.parallel import DistributedDataParallel


def main(model):
    torch.distributed.init_process_group("nccl")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        model = DistributedDataParallel(model)


if __name__ == "__main__":
    main(torch.nn.Linear(2, 2))

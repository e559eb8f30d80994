# A script whose setup another script of the repository imports and runs
# (finetune.py): its DDP construction then shares that process.
import torch
from torch.nn.parallel import DistributedDataParallel


def main(model):
    torch.distributed.init_process_group("nccl")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        model = DistributedDataParallel(model)  # want CV201 "DistributedDataParallel on the default group"


if __name__ == "__main__":
    main(torch.nn.Linear(2, 2))

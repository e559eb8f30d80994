import torch
from torch.nn.parallel import DistributedDataParallel


def main(model):
    torch.distributed.init_process_group("nccl")
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        model = DistributedDataParallel(model)


if __name__ == "__main__":
    main(torch.nn.Linear(2, 2))

# This script reuses the other one's setup and then wraps a second model
# on a stream of its own: both constructions run in this process.
import torch
from torch.nn.parallel import DistributedDataParallel

import train


def main(model, head):
    train.main(model)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        head = DistributedDataParallel(head)


if __name__ == "__main__":
    main(torch.nn.Linear(2, 2), torch.nn.Linear(2, 2))

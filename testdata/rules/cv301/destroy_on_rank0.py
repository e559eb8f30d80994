# YOLOv5's train.py until ultralytics/yolov5#8935: only rank 0 destroys
# the default group at the end of training. For NCCL the shutdown (comm
# abort) must be made by every rank of the group (pytorch/pytorch#122358),
# and jobs hung there (ultralytics/yolov5#7307, #9567).
import os

import torch.distributed as dist

RANK = int(os.getenv("RANK", -1))
WORLD_SIZE = int(os.getenv("WORLD_SIZE", 1))


def train():
    pass


def main():
    if WORLD_SIZE > 1:
        dist.init_process_group(backend="nccl")
    train()
    if WORLD_SIZE > 1 and RANK == 0:
        print("Destroying process group... ")
        dist.destroy_process_group()  # want CV301 "destroy_process_group .* only when `WORLD_SIZE > 1 and RANK == 0` holds"


if __name__ == "__main__":
    main()

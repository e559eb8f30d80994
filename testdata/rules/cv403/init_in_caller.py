# The script creates the group in its __main__ block and calls its entry
# function, which runs a barrier before it binds the device.
import os

import torch
import torch.distributed as dist


def main():
    dist.barrier()
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    x = torch.ones(1, device="cuda")
    dist.all_reduce(x)


if __name__ == "__main__":
    dist.init_process_group(backend="nccl")  # want CV403 "barrier at .* runs before it"
    main()

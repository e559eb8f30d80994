# The script creates the group in its __main__ block and calls its entry
# function, which broadcasts its configuration before it binds the device.
import os

import torch
import torch.distributed as dist


def main():
    dist.broadcast_object_list([None], src=0)
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    x = torch.ones(1, device="cuda")
    dist.all_reduce(x)


if __name__ == "__main__":
    dist.init_process_group(backend="nccl")  # want CV403 "broadcast_object_list at .* runs before it, on device 0"
    main()

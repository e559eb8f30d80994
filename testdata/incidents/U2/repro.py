import os

import torch
import torch.distributed as dist


def main():
    torch.xpu.set_device(int(os.environ["LOCAL_RANK"]))
    dist.init_process_group("xccl")
    rank = dist.get_rank()
    x = torch.full((1 << 20,), float(rank), device="xpu")
    dist.all_reduce(x, async_op=True)
    torch.xpu.synchronize()
    print(x[0].item())


if __name__ == "__main__":
    main()

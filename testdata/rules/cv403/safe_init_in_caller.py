# The entry function binds the device before its first collective; a
# helper the script calls first does host work only.
import os

import torch
import torch.distributed as dist


def parse_args():
    return {"steps": int(os.environ.get("STEPS", "10"))}


def main(args):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    dist.barrier()
    x = torch.ones(1, device="cuda")
    dist.all_reduce(x)


if __name__ == "__main__":
    dist.init_process_group(backend="nccl")
    main(parse_args())

# A barrier before a set_device of the rank's own GPU is no hazard: not
# knowing the device, ProcessGroupNCCL runs the barrier on GPU `global
# rank % GPUs per node`, the rank's local GPU wherever ranks fill the
# nodes in order (torchrun's numbering). These are the projects' own
# shapes; the unsafe CV403 fixtures of the same names issue an object
# collective (device 0 on every rank) where these have the barrier.
# The script's __main__ block and its entry function.
import os

import torch
import torch.distributed as dist


def main():
    dist.barrier()
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    x = torch.ones(1, device="cuda")
    dist.all_reduce(x)


if __name__ == "__main__":
    dist.init_process_group(backend="nccl")
    main()

# The script that installs the hook: the fix goes after its init.
import torch
import torch.distributed as dist

from ops import install

if __name__ == "__main__":
    dist.init_process_group("nccl")
    p = torch.nn.Parameter(torch.ones(2))
    install(p)
    (p * 2).sum().backward()
